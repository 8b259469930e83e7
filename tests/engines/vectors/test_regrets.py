"""CFR iterations on the vector layout against the row layout's numpy reference
(independent path: ``toypoker.solvers.cfr.reference_step`` over the deal table).

Two checks.  Trajectories: 100 CFR+ iterations from the same start give the same
profile to 1e-12 (Kuhn with 2 and 3 players; every built-in game and 20 random
``holdem(...)`` specs in ``test_vector_cfr_runs.py``).  The iteration map, from the row
layout's own state at every iteration, on the schedules' numpy references: on Leduc,
CFR+ amplifies rounding exponentially (measured after 100 CFR+ iterations: 6e-11 in
the average strategy between the layouts, 2.6e-10 between the row layout's own numba
and numpy backends).  Exact regret ties, which the two layouts' summation orders
used to break differently (``[0, 4e-17]`` against ``[0, 0]``: 0.13 apart after 100
iterations on ``holdem(players=2,ranks=3,suits=1,...)``), stay ties under the regret
tolerance (``toypoker.engines.rows.cfr.regret_tolerance``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors import regrets as VC
from toypoker.games import load_rows
from toypoker.solvers import cfr as C
from toypoker.solvers.registry import METHODS


def _options(method: str, **kw: object) -> C.CFROptions:
    return replace(METHODS[method].defaults, backend=C.Backend.NUMPY, **kw)


def _close(a: np.ndarray, b: np.ndarray, tol: float = 1e-12) -> bool:
    """|a - b| <= tol * max(1, |b|_max), as tests/solvers/test_cfr.py compares backends."""
    return float(np.abs(a - b).max()) <= tol * max(1.0, float(np.abs(b).max()))


@pytest.mark.parametrize(
    "spec",
    [
        "kuhn(players=2)",
        "kuhn(players=3)",
    ],
)
def test_cfr_plus_100_iterations_same_profile(spec: str) -> None:
    g = load_rows(spec)
    vg = compile_vector(g)
    opts = _options("cfr+")
    row, vec = C.init(g, opts), VC.init(vg)
    assert np.array_equal(row.sigma, vec.sigma)
    for _ in range(100):
        row, vec = C.step(g, row, opts), VC.step(vg, vec, opts)
    assert _close(C.output(g, vec, opts), C.output(g, row, opts))
    assert _close(vec.regrets, row.regrets)


@pytest.mark.parametrize(
    "spec",
    [
        "holdem(players=2,ranks=4,suits=2,hole=2,rounds=1,evaluator=high_card)",
        "holdem(players=2,ranks=3,suits=1,hole=1,rounds=1,evaluator=ullman4)",
        "kuhn(players=3,cards=6)",
        pytest.param(
            "holdem(players=3,ranks=3,suits=2,hole=2,rounds=1,evaluator=ullman4)",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_cfr_plus_iteration_map_where_ties_flip(spec: str) -> None:
    """Games whose regrets cancel exactly in the row layout: a rounding residue decides
    between uniform play and a pure action, so trajectories part (see the module
    docstring) while every iteration agrees."""
    g = load_rows(spec)
    vg = compile_vector(g)
    opts = _options("cfr+")
    row = C.init(g, opts)
    for _ in range(100):
        nxt = C.step(g, row, opts)
        vec = VC.step(vg, row, opts)
        assert _close(vec.regrets, nxt.regrets)
        assert _close(vec.average, nxt.average)
        row = nxt


def _leduc_map(method: str, alternating: bool, iterations: int) -> None:
    g = load_rows("leduc(players=2)")
    vg = compile_vector(g)
    opts = _options(method, alternating=alternating)
    row = C.init(g, opts)
    for _ in range(iterations):
        nxt = C.step(g, row, opts)
        vec = VC.step(vg, row, opts)
        assert _close(vec.regrets, nxt.regrets)
        assert _close(vec.average, nxt.average)
        assert _close(vec.sigma, nxt.sigma, 1e-11)  # as the backends' test: small sums
        row = nxt


def test_cfr_plus_iteration_map_equals_rows_leduc() -> None:
    _leduc_map("cfr+", True, 30)


@pytest.mark.slow
def test_cfr_plus_100_iteration_maps_equal_rows_leduc() -> None:
    _leduc_map("cfr+", True, 100)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "dcfr+", "pdcfr+"])
@pytest.mark.parametrize("alternating", [True, False])
def test_every_iteration_map_equals_rows_leduc(method: str, alternating: bool) -> None:
    _leduc_map(method, alternating, 25)


@pytest.mark.slow
def test_three_player_leduc_iteration_map() -> None:
    g = load_rows("leduc(players=3)")
    vg = compile_vector(g)
    opts = _options("cfr+")
    row = C.init(g, opts)
    for _ in range(5):
        nxt = C.step(g, row, opts)
        vec = VC.step(vg, row, opts)
        assert _close(vec.regrets, nxt.regrets)
        assert _close(vec.average, nxt.average)
        row = nxt
