"""The deal table's compiled MCCFR traversals against their plain-Python reference
(``toypoker.engines.rows.mccfr_reference``, the reference engine's).

The compiled external-sampling traversal walks only the rows reached under the
sampled actions (breadth first through per-block child lists) and outcome
sampling follows the same child lists.  The reference is the earlier
formulation, written out in Python: a scan over *every* row of the sampled
deal's block in row order, drawing the other players' actions as their rows
are met, then the values, regrets (Lanctot et al. 2009, eq. for the sampled
counterfactual regret ``v(ha) - v(h)``; importance weights cancel) and the
simple average.  The random draws come in the same order, so states must be
*equal*, not merely close: every regret, average and probability, and the
generator's state after the run.
"""

from __future__ import annotations

import numpy as np
import pytest

from toypoker.engines.rows.mccfr import Blocks, traversals
from toypoker.solvers.mccfr import (
    ESOptions,
    OSOptions,
    es_init,
    es_step_many,
    make_rng,
    os_init,
    os_step_many,
)
from toypoker.solvers.options import Sampling

SPECS = ["kuhn(players=2)", "kuhn(players=3)", "leduc(players=2)", "leduc(players=3)"]


def _reference_run(kind, game, state, options, n):
    """The plain-Python reference (the reference engine's) from ``state``."""
    rng = make_rng(None, state.rng)
    regrets, average, sigma = state.regrets.copy(), state.average.copy(), state.sigma.copy()
    sampling = Sampling.EXTERNAL if kind == "es" else Sampling.OUTCOME
    run = traversals(game, sampling, fused=False)
    run(n, state.iteration, regrets, average, sigma, options, rng)
    return regrets, average, sigma, rng.bit_generator.state


def _assert_equal(fast, reference) -> None:
    """Every regret, average and probability, and the generator's state: equal."""
    regrets, average, sigma, rng_state = reference
    assert np.array_equal(fast.regrets, regrets)
    assert np.array_equal(fast.average, average)
    assert np.array_equal(fast.sigma, sigma)
    assert fast.rng == rng_state


@pytest.mark.parametrize("spec", SPECS)
def test_blocks_are_met_breadth_first_in_row_order(spec, game):
    # the condition under which the reached-rows walk draws in the full scan's order
    b = Blocks(game(spec))
    assert b.breadth_first
    # every row but each block's root is some row's child
    assert b.child_ptr[-1] == len(b.child) == len(b.inf) - (len(b.start) - 1)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("floor, gamma", [(False, 0.0), (True, 1.0)])
def test_external_sampling_equals_full_block_scan(spec, floor, gamma, game):
    g = game(spec)
    opts = ESOptions(floor=floor, gamma=gamma)
    s0 = es_init(g, opts, 11)
    s0 = es_step_many(g, s0, opts, 7)  # start from a non-uniform strategy
    n = 30 if "leduc(players=3)" in spec else 60
    fast = es_step_many(g, s0, opts, n)
    _assert_equal(fast, _reference_run("es", g, s0, opts, n))
    assert np.any(fast.regrets != s0.regrets)  # the run did update something


@pytest.mark.parametrize("spec", SPECS)
def test_outcome_sampling_equals_block_scan(spec, game):
    g = game(spec)
    opts = OSOptions(floor=True, gamma=1.0, epsilon=0.4)
    s0 = os_step_many(g, os_init(g, opts, 5), opts, 11)
    fast = os_step_many(g, s0, opts, 80)
    _assert_equal(fast, _reference_run("os", g, s0, opts, 80))


@pytest.mark.parametrize("kind", ["es", "os"])
def test_discounted_sampling_equals_the_reference(kind, game):
    # DCFR's discounts (alpha, beta) before each traversal, in both
    g = game("leduc(players=2)")
    if kind == "es":
        opts = ESOptions(alpha=1.5, beta=0.5, gamma=2.0)
        s0 = es_step_many(g, es_init(g, opts, 2), opts, 5)
        fast = es_step_many(g, s0, opts, 40)
    else:
        opts = OSOptions(alpha=1.5, beta=0.0, gamma=2.0, epsilon=0.6)
        s0 = os_step_many(g, os_init(g, opts, 2), opts, 5)
        fast = os_step_many(g, s0, opts, 40)
    _assert_equal(fast, _reference_run(kind, g, s0, opts, 40))


@pytest.mark.parametrize("method", ["es-mccfr", "os-mccfr"])
def test_the_reference_engine_runs_mccfr_in_python_with_the_same_iterates(method, game):
    """engine="reference" runs the plain-Python traversals (not the kernels), and they
    give the kernels' iterates bit for bit."""
    import toypoker.engines.rows.mccfr_reference as R
    from toypoker.solvers import Solver

    g = game("kuhn(players=3)")
    calls = []
    real = R.run_many
    try:
        R.run_many = lambda *a: (calls.append(a[1]), real(*a))[1]
        ref = Solver(g, method, seed=7, engine="reference").step(25)
    finally:
        R.run_many = real
    fused = Solver(g, method, seed=7).step(25)
    assert sum(calls) == 25
    for name in ("regrets", "average", "sigma"):
        assert np.array_equal(getattr(ref.state, name), getattr(fused.state, name))
    assert ref.state.rng == fused.state.rng
