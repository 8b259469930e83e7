"""The regularized system x = F(D/eps) on SKP against the exact equilibria (eqs. 12-14)."""

import numpy as np

from tests.conftest import game
from toypoker.continuation.regularized import Advantage, RegularizedSystem


def skp(p):
    return game(f"skp(pot={p})")


def test_advantage_and_its_exact_jacobian():
    # SKP eqs. (38)-(40): D = (dE3/db_J, dE1/dc_K, dE2/dd_Q) (no own-sequence in SKP)
    P = 9.0
    adv = Advantage(skp(9))
    rng = np.random.default_rng(1)
    for _ in range(5):
        b, c, d = rng.random(3)
        want = np.array(
            [
                (P - 5 - (P + 1) * (d + (1 - d) * c)) / 24,
                (P * b - 2) / 24,
                (c - 2 + b * (1 - c) * (P + 1)) / 24,
            ]
        )
        assert np.allclose(adv(np.array([b, c, d])), want, atol=1e-14)
    J = adv.jacobian(np.array([0.3, 0.2, 0.1]))
    assert np.isclose(J[1, 0], P / 24) and J[1, 1] == 0 and J[1, 2] == 0


def test_eps_continuation_reaches_an_skp_equilibrium():
    P = 9.0
    sys_ = RegularizedSystem(skp, parameter="log_eps", pot=P)
    u0 = sys_.solve(np.full(3, 0.5), np.log(1.0))
    br = sys_.trace(u0, np.log(1e-5), ds=0.1, ds_max=1.0)
    assert br.reason == "reached"
    x = br.points[-1][:-1]
    sols = [
        np.array([2 / (P + 1), 0, (P - 5) / (P + 1)]),
        np.array([2 / P, (P - 5) / (P + 1), 0]),
        np.array([2 / P, 2 / (P + 2), (P * P - 5 * P - 12) / (P * (P + 1))]),
    ]
    assert min(np.abs(x - s).max() for s in sols) < 2e-3


def test_pot_continuation_follows_solution_2():
    # eq. (13) along P at eps = 1e-4, starting on Solution 2 at P = 9
    sys_ = RegularizedSystem(skp, parameter="pot", eps=1e-4)
    u = sys_.solve(np.array([2 / 9, 0.4, 0.0]), 9.0)
    br = sys_.trace(u, 20.0, ds=0.05, ds_max=0.5)
    assert br.reason == "reached"
    for x, P in zip(br.y, br.lam, strict=True):
        assert np.abs(x - [2 / P, (P - 5) / (P + 1), 0]).max() < 5e-3
