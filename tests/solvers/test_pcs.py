"""Public-chance-sampling CFR+ (``pcs-cfr+``, ``toypoker.solvers.pcs``): one schedule
on the engine's sampled regrets (hand vectors', compiled once for a game on the deal
table, so a row-layout game runs the same iterates); it converges
on small decks, and its runs are reproducible from the seed and resume bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from toypoker.engines import as_game
from toypoker.engines.rows.values import evaluate
from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors.direct import build_vector
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.profile import Profile
from toypoker.solvers import solve
from toypoker.solvers.pcs import PCSOptions, init, step

RI = "rhode_island(ranks=3,suits=2,cap=1)"


def test_nash_conv_drops() -> None:
    # the row layout's evaluation of each checked profile (measured with seed 0: 0.93 at
    # 50 iterations, 0.43 at 100, 0.31 at 150)
    res = solve(load_rows("leduc(players=2)"), "pcs-cfr+", iterations=150, seed=0, check_every=50)
    ncs = [p.nash_conv for p in res.trace]
    assert ncs[-1] < ncs[0] / 2 and ncs[-1] < 0.4


def test_row_game_runs_on_its_vector_layout() -> None:
    # the same seed on the row game and on its compiled vector layout: the same run
    g = load_rows("leduc(players=2)")
    a = solve(g, "pcs-cfr+", iterations=30, seed=3)
    b = solve(as_game(compile_vector(g)), "pcs-cfr+", iterations=30, seed=3)
    assert np.array_equal(a.profile.probs, b.profile.probs)
    assert abs(a.nash_conv - b.nash_conv) <= 1e-12  # row and vector best responses


def test_rhode_island_deck_converges_and_is_checked_by_the_row_layout() -> None:
    # independent path: the row layout's best responses on the profile returned
    vg = build_vector(RI)
    res = solve(as_game(vg), "pcs-cfr+", iterations=150, seed=1, check_every=50)
    assert res.trace[-1].nash_conv < res.trace[0].nash_conv
    g = load_rows(RI)
    ev = evaluate(g, Profile(g, res.profile.probs))
    assert abs(res.nash_conv - float(ev.nash_conv)) <= 1e-12


def test_updating_the_path_only_leaves_the_same_state() -> None:
    # independent path: the update over every infoset (restrict=False) from the same
    # states and generator; off the path regrets gain 0 and regret matching repeats
    g = as_game(build_vector(RI))
    opts = PCSOptions(floor=True, gamma=1.0)
    state = init(g, opts, 11)
    for _ in range(20):
        whole = step(g, state, opts, restrict=False)
        state = step(g, state, opts)
        for name in ("regrets", "average", "sigma"):
            assert np.array_equal(getattr(state, name), getattr(whole, name))
        assert state.rng == whole.rng


def test_checkpoint_resumes_bit_for_bit(tmp_path) -> None:
    vg = build_vector(RI)
    ck = tmp_path / "ck.npz"
    whole = solve(as_game(vg), "pcs-cfr+", iterations=12, seed=5)
    solve(as_game(vg), "pcs-cfr+", iterations=5, seed=5, checkpoint=ck)
    resumed = solve(as_game(vg), "pcs-cfr+", iterations=12, seed=5, resume=ck)
    assert np.array_equal(resumed.profile.probs, whole.profile.probs)


def test_options_and_seeds_are_checked() -> None:
    vg = build_vector(RI)
    with pytest.raises(ToypokerError, match="deterministic"):
        solve(as_game(vg), "cfr+", iterations=2, seed=3)
    with pytest.raises(ToypokerError, match="does not read"):
        solve(as_game(vg), "pcs-cfr+", iterations=2, seed=3, backend="numba")
