"""The regularized system x = F(D/eps): SKP's advantages, the dominated choices, and
the limit eps -> 0 against the exact equilibria (Billingham, SKP, eqs. 12-17)."""

import numpy as np
import pytest

from toypoker.continuation.regularized import RegularizedSystem, dominated_actions
from toypoker.continuation.tracer import trace
from toypoker.errors import ToypokerError
from toypoker.literature.papers.billingham import skp_expectations


def skp_solutions(P):
    # Billingham (simplified), eqs. (12)-(14): (b_J, c_K, d_Q)
    return [
        np.array([2 / (P + 1), 0, (P - 5) / (P + 1)]),
        np.array([2 / P, (P - 5) / (P + 1), 0]),
        np.array([2 / P, 2 / (P + 2), (P * P - 5 * P - 12) / (P * (P + 1))]),
    ]


def test_skp_advantages_are_eqs_38_to_40(game):
    # D = (dE3/db_J, dE1/dc_K, dE2/dd_Q) of eqs. (38)-(40); its derivative in P too
    sys_ = RegularizedSystem(game("skp"), parameter="pot", eps=1.0)
    assert sys_.labels == ["P3:1:kk", "P1:3:kkb", "P2:2:kkbf"]
    rng = np.random.default_rng(1)
    for _ in range(5):
        b, c, d = rng.random(3)
        P = 2 + 10 * rng.random()
        want = np.array(
            [
                (P - 5 - (P + 1) * (d + (1 - d) * c)) / 24,
                (P * b - 2) / 24,
                (c - 2 + b * (1 - c) * (P + 1)) / 24,
            ]
        )
        g, _ = sys_.GJ(np.array([b, c, d, P]))
        x = np.array([b, c, d])
        D = np.tan(np.pi * (x - g - 0.5))  # g = x - F(D), F = 1/2 + arctan/pi
        assert np.allclose(D, want, rtol=0, atol=1e-12)
        E = sys_.expectations(x, P)
        assert np.allclose(E, skp_expectations(P, b, c, d), rtol=0, atol=1e-14)


def test_jacobian_matches_differences(game):
    sys_ = RegularizedSystem(game("kuhn(players=3,cards=5)"), parameter="pot", eps=1e-2)
    rng = np.random.default_rng(2)
    u = np.append(rng.random(sys_.n), 2.5)
    g, J = sys_.GJ(u)
    h = 1e-7
    for j in rng.choice(sys_.n + 1, 12, replace=False):
        e = np.zeros_like(u)
        e[j] = h
        fd = (sys_.GJ(u + e)[0] - sys_.GJ(u - e)[0]) / (2 * h)
        assert np.allclose(J[:, j], fd, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("N", [4, 5, 10])
def test_the_papers_22_dominated_choices(N, game):
    # Billingham (N cards), Sec. 2: best card bets/calls at nodes 3-12, worst folds at
    # nodes 4-12, second-worst folds at the overcall nodes 6, 9, 12
    g = game(f"kuhn(players=3,cards={N})")
    pins = dominated_actions(g)
    fixed = {}
    for k, v in pins.items():
        inf = g.infosets[g.sigma_infoset[k]]
        if k == inf.offset + 1:
            fixed[(inf.private[0], inf.history)] = v
    assert len(fixed) == 22
    facing = ["kkb", "kkbf", "kkbc", "kb", "kbf", "kbc", "b", "bf", "bc"]
    assert all(fixed[(N, h)] == 1 for h in ["kk"] + facing)
    assert all(fixed[(1, h)] == 0 for h in facing)
    assert all(fixed[(2, h)] == 0 for h in ["kkbc", "kbc", "bc"])
    sys_ = RegularizedSystem(game(f"kuhn(players=3,cards={N})"), eps=1e-3)
    assert sys_.n == 12 * N - 22


def test_skp_limit_eps_to_zero(game):
    # Figures 2-4: as eps decreases the regularized point tends to an exact solution
    P = 9.0
    sys_ = RegularizedSystem(game("skp(pot=9)"), parameter="eps")
    u = sys_.solve(np.full(3, 0.5), np.log(1.0))
    errors = []
    for eps in (1e-3, 1e-4, 1e-5, 1e-6):
        br = trace(sys_.GJ, u, np.log(eps), 1.0, direction=-1.0, ds=0.1, ds_max=1.0)
        assert br.reason == "reached"
        u = br.points[-1]
        errors.append(min(np.abs(u[:-1] - s).max() for s in skp_solutions(P)))
    assert all(a > b for a, b in zip(errors, errors[1:], strict=False))
    assert errors[-1] < 1e-4


def test_skp_pot_curve_follows_eqs_12_to_17(game):
    # P-continuation at two eps along Solution 2 (eq. 13, its expectations eqs. 15-17
    # through eqs. 38-40); the error shrinks with eps
    worst = []
    for eps in (1e-4, 1e-6):
        sys_ = RegularizedSystem(game("skp"), parameter="pot", eps=eps)
        u = sys_.solve(np.array([2 / 9, 0.4, 0.0]), 9.0)
        br = trace(sys_.GJ, u, 1.0, 20.0, direction=1.0, ds=0.05, ds_max=0.5)
        assert br.reason == "reached" and br.lam[-1] == 20.0
        err = 0.0
        for x, P in zip(br.y, br.lam, strict=True):
            exact = skp_solutions(P)[1]
            err = max(err, np.abs(x - exact).max())
            E = sys_.expectations(x, P)
            assert np.allclose(E, skp_expectations(P, *exact), rtol=0, atol=2 * err + 1e-12)
        worst.append(err)
    assert worst[1] < worst[0] / 10 and worst[1] < 1e-4


def test_bad_inputs(game):
    with pytest.raises(ToypokerError, match="numeric parameter"):
        RegularizedSystem(game("kuhn(players=3)"), parameter="cards")
    with pytest.raises(ToypokerError, match="eps must be positive"):
        RegularizedSystem(game("kuhn(players=3)"), eps=-1)
    with pytest.raises(ToypokerError, match="unknown response"):
        RegularizedSystem(game("kuhn(players=3)"), response="tanh")


def test_logit_blocks_jacobian_matches_differences(game):
    # Leduc has fold/call/raise infosets: sigma = softmax(Q/eps) there; d/d(log eps) too
    sys_ = RegularizedSystem(game("leduc(players=2)"), parameter="eps")
    rng = np.random.default_rng(4)
    u = np.append(sys_.normalize(rng.random(sys_.n)), np.log(0.01))
    _, J = sys_.GJ(u)
    h = 1e-7
    for j in [*rng.choice(sys_.n, 8, replace=False), sys_.n]:
        e = np.zeros_like(u)
        e[j] = h
        fd = (sys_.GJ(u + e)[0] - sys_.GJ(u - e)[0]) / (2 * h)
        assert np.allclose(J[:, j], fd, rtol=1e-5, atol=1e-7)
