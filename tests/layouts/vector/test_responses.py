"""Fictitious play on the vector layout (``toypoker.layouts.vector.responses``) against the row
layout's run: the same schedule (``fictitious.layout_step``) over two layouts, so whole
runs agree to 1e-12 (best-response ties broken by the one tolerant rule on both)."""

from __future__ import annotations

import numpy as np
import pytest

from toypoker.evaluate import evaluate
from toypoker.games import load_game
from toypoker.layouts import as_game
from toypoker.profile import Profile
from toypoker.solvers import Solver, solve
from toypoker.vector import compile_vector
from toypoker.vector.direct import build_vector

SPECS = [
    "kuhn(players=2)",
    "kuhn(players=3)",
    "leduc(players=2)",
    "rhode_island(ranks=3,suits=2,cap=1)",
]


def _layouts(spec: str):
    g = load_game(spec)
    return g, build_vector(spec) if spec.startswith("rhode_island") else compile_vector(g)


SCHEDULES = ({}, {"ullman": True}, {"gamma": 1.0})
CASES: list = [(spec, options) for spec in SPECS[:-1] for options in SCHEDULES]
CASES += [
    (SPECS[-1], {}),
    # the suited deck's other two schedules: ~2 s each
    pytest.param(SPECS[-1], {"ullman": True}, marks=pytest.mark.slow),
    pytest.param(SPECS[-1], {"gamma": 1.0}, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("spec", "options"), CASES)
def test_runs_equal_the_row_layout(spec: str, options: dict) -> None:
    # independent path: the row layout's own fictitious play, 25 iterations from the start
    # (before the one tie rule, Kuhn's run split from the row layout's at iteration 4 and
    # the suited Rhode Island deck's at iteration 1: exact ties ordered by rounding)
    g, vg = _layouts(spec)
    rows, vec = Solver(g, "fp", **options), Solver(as_game(vg), "fp", **options)
    for _ in range(25):
        rows.step(1)
        vec.step(1)
        np.testing.assert_allclose(vec.state.sigma, rows.state.sigma, atol=1e-12, rtol=0)
        np.testing.assert_allclose(vec.state.average, rows.state.average, atol=1e-12, rtol=0)
        assert abs(vec.state.gain - rows.state.gain) <= 1e-12


def test_solve_and_nash_conv_by_the_row_layout() -> None:
    # independent path: the row layout's best responses on the returned profile
    g, vg = _layouts(SPECS[-1])
    res = solve(as_game(vg), "fp", iterations=20, check_every=5)
    ev = evaluate(g, Profile(g, res.profile.probs))
    assert res.method == "fp" and res.iterations == 20
    np.testing.assert_allclose(res.values, ev.values, atol=1e-12, rtol=0)
    assert abs(res.nash_conv - float(ev.nash_conv)) <= 1e-12
    assert res.trace[0].nash_conv > res.nash_conv  # it converges (checks at 5, ..., 20)


def test_ullman_stopping_rule_runs_on_the_vector_layout() -> None:
    # Ullman's rule (target_max_gain read after every step) stops both runs at one iteration
    g, vg = _layouts("kuhn(players=2)")
    a = solve(g, "fp", iterations=500, target_max_gain=0.05, ullman=True)
    b = solve(as_game(vg), "fp", iterations=500, target_max_gain=0.05, ullman=True)
    assert a.iterations == b.iterations < 500
