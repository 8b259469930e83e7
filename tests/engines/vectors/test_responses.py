"""Fictitious play on the vector layout (``toypoker.engines.vectors.responses``) against the row
layout's run: the same schedule (``fictitious.layout_step``) over two layouts, so whole
runs agree to 1e-12 (best-response ties broken by the one tolerant rule on both)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from toypoker.engines import as_game
from toypoker.engines.rows.values import evaluate
from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.direct import build_vector
from toypoker.engines.vectors.kernel import VectorKernel, vector_kernel
from toypoker.games import load_rows
from toypoker.profile import Profile
from toypoker.solvers import Solver, solve
from toypoker.solvers.fictitious import TIE_RTOL, ullman_order
from toypoker.threads import kernel_threads

SPECS = [
    "kuhn(players=2)",
    "kuhn(players=3)",
    "leduc(players=2)",
    "rhode_island(ranks=3,suits=2,cap=1)",
]


def _layouts(spec: str):
    g = load_rows(spec)
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


KERNEL_SPECS = [*SPECS, "kuhn(players=3,cards=6)", "mercer(players=3,variant=mmh)"]


def _profiles(vg, seed: int) -> list[np.ndarray]:
    """The uniform profile (exact ties everywhere) and a random one."""
    game = vg.game
    rng = np.random.default_rng(seed)
    x = rng.random(game.n_sigma)
    sums = np.add.reduceat(x, game.infoset_offset[:-1])
    counts = np.diff(game.infoset_offset)
    uniform = np.repeat(1.0 / counts, counts)
    return [uniform, x / np.repeat(sums, counts)]


@pytest.mark.parametrize("spec", KERNEL_SPECS)
def test_the_kernels_responses_equal_the_numpy_reference(spec: str) -> None:
    # independent path: toypoker.engines.vectors.values.best_response_value (numpy), the same
    # tie rules (the game's action order or Ullman's; the first maximum or within
    # TIE_RTOL of it), on a profile of exact ties and a random one
    vg = _layouts(spec)[1] if spec in SPECS else build_vector(spec, rank=True)
    kernel = vector_kernel(vg)
    assert kernel is not None
    for sigma in _profiles(vg, 7):
        for order in (None, ullman_order(vg.game)):
            for rtol in (0.0, TIE_RTOL):
                values, best, choice = kernel.responses(sigma, order, rtol)
                np.testing.assert_allclose(values, V.expected_values(vg, sigma), atol=1e-12)
                assert np.array_equal(kernel.expected_values(sigma), values)  # the same passes
                for p in range(vg.n_players):
                    value, ref = V.best_response_value(vg, sigma, p, order=order, tie_rtol=rtol)
                    assert abs(best[p] - value) <= 1e-12
                    assert np.array_equal(choice[p], ref), (spec, p, rtol)
                    own = kernel.own_reach(sigma, p)
                    np.testing.assert_allclose(own, V.reaches(vg, sigma)[p], atol=1e-15)


@pytest.mark.skipif(int(numba.config.NUMBA_NUM_THREADS) < 2, reason="numba's pool has one thread")
def test_fictitious_play_on_the_kernel_equals_the_reference_and_one_thread(monkeypatch) -> None:
    # the fused responses against the numpy ones (VectorLayout(fused=False)), 6 steps;
    # on two threads (the size floor lowered) the same as one, bit for bit.  Ullman's
    # schedule is compared across threads only: at its step 2 an infoset of P2 on this
    # deck has two actions of value 0 exactly, which numpy's sum leaves at 0 and
    # 5.4e-19 and the kernel's at 0 and 0 -- both are best responses, the relative tie
    # rule (TIE_RTOL times the larger) cannot see a tie at 0 through rounding
    from toypoker.engines.vectors.responses import VectorLayout
    from toypoker.solvers.fictitious import FPOptions, layout_init, layout_step

    vg = build_vector("rhode_island(ranks=4,suits=2)")
    for options in (FPOptions(), FPOptions(ullman=True)):
        runs = []
        for fused, threads in ((False, 1), (True, 1), (True, 2)):
            if threads > 1:
                monkeypatch.setattr(VectorKernel, "min_parallel_entries", 0)
            layout = VectorLayout(vg, fused=fused)
            state = layout_init(vg.game, options, layout)
            with kernel_threads(threads):
                assert layout.kernel is None or layout.kernel.parallel() is (threads > 1)
                for _ in range(6):
                    state = layout_step(vg.game, state, options, layout)
            runs.append(state)
        reference, one, two = runs
        if not options.ullman:
            np.testing.assert_allclose(one.sigma, reference.sigma, atol=1e-12, rtol=0)
            np.testing.assert_allclose(one.average, reference.average, atol=1e-12, rtol=0)
        assert np.array_equal(one.sigma, two.sigma) and np.array_equal(one.average, two.average)
        assert one.gain == two.gain
