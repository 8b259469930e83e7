"""The payoff-tensor model against the core evaluator and against unit differences.

Expected values are multilinear, so ``Q(sigma_j = 1) - Q(sigma_j = 0)`` is the exact
``dQ/dsigma_j``: an independent path for the Jacobian.
"""

import numpy as np
import pytest

from toypoker.continuation.tensors import PayoffTensors
from toypoker.engines.rows.values import expected_values


def random_sigma(g, rng):
    s = g.fixed_values.copy()
    for i in g.infosets:
        if not i.restricted:
            v = rng.random(len(i.actions))
            s[i.offset : i.offset + len(i.actions)] = v / v.sum()
    return s


@pytest.mark.parametrize(
    "spec",
    [
        "kuhn(players=3,cards=5,pot=2)",
        "kuhn(players=4,cards=6)",
        "skp(pot=9)",
        "kuhn_third_street(pot=5)",
        "leduc(players=2)",
    ],
)
def test_values_and_exact_jacobian(spec, game):
    g = game(spec)
    m = PayoffTensors(g)
    s = random_sigma(g, np.random.default_rng(3))
    assert np.allclose(m.expectations(s), expected_values(g, s), rtol=0, atol=1e-14)
    Q, J, dQ = m.values_and_jacobian(s)
    assert dQ is None
    assert np.allclose(Q, m.values(s), rtol=0, atol=1e-15)
    for j in range(g.n_sigma):
        hi, lo = s.copy(), s.copy()
        hi[j], lo[j] = 1.0, 0.0
        assert np.allclose(J[:, j], m.values(hi) - m.values(lo), rtol=0, atol=1e-14)


def test_counterfactual_value_is_the_core_action_value(game):
    # Q[e] times the owner's reach up to the infoset is the owner's value of taking e there:
    # summing sigma * Q over the root infosets gives the expected value (Kuhn 1950: -1/18)
    g = game("kuhn(players=2)")
    m = PayoffTensors(g)
    s = random_sigma(g, np.random.default_rng(0))
    Q = m.values(s)
    roots = [i for i in g.infosets if i.history == ""]
    ev1 = sum(s[i.offset : i.offset + 2] @ Q[i.offset : i.offset + 2] for i in roots)
    assert np.isclose(ev1, expected_values(g, s)[0], rtol=0, atol=1e-15)


def test_affine_parameter(game):
    # payoffs of kuhn(players=3, cards=5) are affine in the pot: W(P) from P = 1 and P = 2
    g1, g2 = game("kuhn(players=3,cards=5,pot=1)"), game("kuhn(players=3,cards=5,pot=2)")
    m = PayoffTensors(g1, g2, 1.0, 2.0)
    g7 = game("kuhn(players=3,cards=5,pot=7/2)")
    s = random_sigma(g7, np.random.default_rng(1))
    assert np.allclose(m.expectations(s, 3.5), expected_values(g7, s), rtol=0, atol=1e-14)
    Q, _, dQ = m.values_and_jacobian(s, 3.5)
    # the slope against two independent compilations (payoffs affine in P: an exact difference)
    g9 = game("kuhn(players=3,cards=5,pot=9/2)")
    diff = PayoffTensors(g9).values(s) - PayoffTensors(g7).values(s)
    assert np.allclose(dQ, diff, rtol=0, atol=1e-13)
    assert np.allclose(m.values(s, 4.5) - Q, dQ, rtol=0, atol=1e-14)
