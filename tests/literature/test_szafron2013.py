"""Szafron, Gibson, Sturtevant (2013): Tables 2-4, certified exactly."""

from fractions import Fraction as F

import numpy as np
import pytest

from toypoker.evaluation import evaluate
from toypoker.literature import szafron2013


@pytest.mark.parametrize("sub", szafron2013.SUBFAMILIES)
def test_table3_members_are_exact_equilibria_with_table3_utilities(sub, game):
    # Theorem 2 + Table 3: gains exactly 0; u1 = -k(1/2+beta), u2 = -k/2, u3 = k(1+beta)
    g = game(szafron2013.GAME_SPEC)
    rng = np.random.default_rng([2013, szafron2013.SUBFAMILIES.index(sub)])  # stable across runs
    for _ in range(40):
        _, p = szafron2013.sample_member(rng, sub)
        ev = evaluate(g, szafron2013.profile(g, p))
        assert ev.gains == (0, 0, 0), p
        assert ev.values == szafron2013.table3_utilities(p["b11"], p["b21"]), p


def test_extreme_members(game):
    # Sec. 5: the c11 = 0 polyhedron shrinks to a point at b32 = 15/16,
    # b11 = b21 = 1/4, c33 = 0 ("the largest value of b32")
    g = game(szafron2013.GAME_SPEC)
    p = szafron2013.table3(F(1, 4), F(1, 4), F(0), F(15, 16), F(0), F(0))
    ev = evaluate(g, szafron2013.profile(g, p))
    assert ev.gains == (0, 0, 0)
    k = F(1, 24)
    assert ev.values == (-k * F(3, 4), -k / 2, k * F(5, 4))


def test_sampler_respects_table3_ranges():
    rng = np.random.default_rng(7)
    for _ in range(200):
        sub, p = szafron2013.sample_member(rng)
        assert all(0 <= v <= 1 for v in p.values())
        if sub == "c11=0":
            assert p["c11"] == 0 and p["b11"] <= p["b21"] <= F(1, 4)
        elif sub == "c11=1/2":
            assert p["c11"] == F(1, 2) and p["b21"] <= p["b11"] <= F(1, 4)
        else:
            assert 0 < p["c11"] < F(1, 2) and p["b21"] == p["b11"]


def test_table4_values_and_p2_gain(game):
    # Table 4: u1 = -k/2, u2 = -k(1/2+beta), u3 = k(1+beta), beta = 1/4;
    # Sec. 6: "P2 can unilaterally deviate ... and gain k*beta" = 1/96.
    g = game(szafron2013.GAME_SPEC)
    ev = evaluate(g, szafron2013.profile(g, szafron2013.table4()))
    assert ev.values == szafron2013.TABLE4_UTILITIES
    assert ev.gains[1] == F(1, 24) * F(1, 4)
    assert ev.nash_conv > 0
