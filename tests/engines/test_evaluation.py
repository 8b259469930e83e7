"""Every public function takes every game (issue 33, item 2): the flat API walked over a
small game on each layout and a merged team, with the same answers.

Independent paths: the deal table (:mod:`toypoker.engines.rows.values`, the row kernels) against
hand vectors (:mod:`toypoker.engines.vectors.values`, the vector kernels) -- exact values equal
as Fractions, floats to 1e-12.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import toypoker as tp
from toypoker.errors import SpecError, ToypokerError

SPECS = [
    "kuhn(players=2)",  # deal-free vector build; two-player sweep kernel
    "kuhn(players=3,cards=5)",  # three players, one card a hand
    "leduc(players=2)",  # vector layout compiled from the rows (no deal-free builder)
    "kuhn(players=3,cards=4,team=12,sharing=win)",  # a weak team: a payoff map on vectors
]


@pytest.fixture(scope="module", params=SPECS)
def pair(request: pytest.FixtureRequest) -> tuple[tp.Game, tp.Game]:
    return tp.load_game(request.param, layout="rows"), tp.load_game(request.param, layout="vector")


def test_profiles_are_the_same_files(pair, tmp_path: Path) -> None:
    rows, vec = pair
    assert np.array_equal(tp.Profile.uniform(rows).probs, tp.Profile.uniform(vec).probs)
    a = tp.Profile.random(rows, np.random.default_rng(7))
    b = tp.Profile.random(vec, np.random.default_rng(7))
    assert np.array_equal(a.probs, b.probs)
    a.to_json(tmp_path / "p.json")  # written on the deal table, read on hand vectors
    back = tp.Profile.from_json(tmp_path / "p.json", vec)
    assert back.game is vec and np.array_equal(back.probs, a.probs)


def test_exact_evaluation_agrees(pair) -> None:
    rows, vec = pair
    r = tp.evaluate(rows, tp.Profile.uniform(rows, exact=True))
    v = tp.evaluate(vec, tp.Profile.uniform(vec, exact=True))
    assert r.values == v.values and r.br_values == v.br_values and r.nash_conv == v.nash_conv
    assert all(isinstance(x, Fraction) for x in v.values)
    assert tp.nash_conv(vec, tp.Profile.uniform(vec, exact=True)) == r.nash_conv
    for p in range(rows.n_players):
        br_r = tp.best_response(rows, tp.Profile.uniform(rows, exact=True), p)
        br_v = tp.best_response(vec, tp.Profile.uniform(vec, exact=True), p)
        assert br_r.value == br_v.value and np.array_equal(br_r.choice, br_v.choice)


def test_float_evaluation_agrees(pair) -> None:
    rows, vec = pair
    prof_r = tp.Profile.random(rows, np.random.default_rng(3))
    prof_v = tp.Profile.random(vec, np.random.default_rng(3))
    assert tp.nash_conv(vec, prof_v) == pytest.approx(tp.nash_conv(rows, prof_r), rel=1e-12)
    r, v = tp.evaluate(rows, prof_r), tp.evaluate(vec, prof_v)
    np.testing.assert_allclose(v.values, r.values, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(v.gains, r.gains, rtol=1e-12, atol=1e-12)


def test_solve_solver_and_checkpoints_agree(pair, tmp_path: Path) -> None:
    rows, vec = pair
    a = tp.solve(rows, "pdcfr+", iterations=30, team=False)
    b = tp.solve(vec, "pdcfr+", iterations=30)
    np.testing.assert_allclose(b.profile.probs, a.profile.probs, rtol=1e-12, atol=1e-12)
    assert b.nash_conv == pytest.approx(a.nash_conv, rel=1e-9, abs=1e-12)
    assert b.game is vec and b.profile.game is vec
    s = tp.Solver(vec, "cfr+").step(7)
    s.save_checkpoint(tmp_path / "ck.npz")
    ck = tp.load_checkpoint(tmp_path / "ck.npz")
    again = tp.Solver.from_checkpoint(ck, vec).step(5)
    whole = tp.Solver(rows, "cfr+").step(12)
    np.testing.assert_allclose(again.profile().probs, whole.profile().probs, rtol=1e-12, atol=1e-12)


def test_lp_is_exact_on_both_layouts() -> None:
    """The sequence-form LP's value: Kuhn (1950), -1/18 for the first player."""
    for layout in ("rows", "vector"):
        r = tp.solve(tp.load_game("kuhn(players=2)", layout=layout), "lp")
        assert r.certified and r.value_exact == (Fraction(-1, 18), Fraction(1, 18))


def test_a_merged_team_answers_alike() -> None:
    """A strong team is solved as its merged team (one player with perfect recall) on
    the deal table, whichever layout was asked for first."""
    g = tp.load_game("kuhn(players=3,cards=4,team=23,strong=true)")
    assert g.layout == "rows"
    r = tp.solve(g, "lp")
    assert r.solved_as is not None and r.certified
    assert tp.nash_conv(g, r.profile.to_float()) == pytest.approx(r.nash_conv, abs=1e-12)


def test_team_evaluation_reads_the_rows_of_a_vector_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A team's joint gain reads the deal table (the team wing's evaluation): on a game
    built on hand vectors it is built once from the spec and gives the rows game's exact
    numbers; when the deal table does not fit, one line says so (issue 46: every public
    function takes every game ``tp.load_game`` returns, or refuses in one line)."""
    spec = "kuhn(players=3,cards=4,team=12,sharing=win)"
    vec = tp.load_game(spec, layout="vector")
    rows = tp.load_game(spec, layout="rows")
    on_vec = tp.evaluate(vec, tp.Profile.uniform(vec, exact=True), team="12").team
    on_rows = tp.evaluate(rows, tp.Profile.uniform(rows, exact=True), team="12").team
    assert on_vec is not None and on_rows is not None
    assert (on_vec.gain, on_vec.value) == (on_rows.gain, on_rows.value)
    assert tp.nash_conv(vec, tp.Profile.uniform(vec, exact=True), team="12") == on_rows.nash_conv
    with pytest.raises(ToypokerError, match=r"layout='rows'"):
        tp.solve(vec, "cfr+", iterations=3, team="12")
    big = tp.load_game("kuhn(players=3,cards=52,team=12,sharing=win)")
    assert big.layout == "vector"
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "100000")
    with pytest.raises(SpecError, match="needs the deal table, and it does not fit"):
        tp.evaluate(big, tp.Profile.uniform(big), team="12")


def test_sweep_takes_a_vector_game_spec(tmp_path: Path) -> None:
    """``tp.sweep`` builds its games with ``tp.load_game``: a large Kuhn on hand vectors."""
    res = tp.sweep("solve", "kuhn(players=3,cards=52)", {"iterations": 3}, scheduler="serial")
    assert len(res.rows) == 1 and res.rows[0]["nash_conv"] > 0


def test_threads_give_the_same_numbers() -> None:
    """``threads=`` of ``tp.solve``/``tp.Solver`` (issue 36): the vector kernels' public
    subtrees on 1 or 2 threads, the same iterates bit for bit
    (``tests/engines/vectors/test_kernel_threads.py`` holds the kernels to it)."""
    g = tp.load_game("rhode_island(ranks=4,suits=2)", layout="vector")
    one = tp.solve(g, "cfr+", iterations=10, threads=1)
    two = tp.solve(g, "cfr+", iterations=10, threads=2)
    assert np.array_equal(one.profile.probs, two.profile.probs)
    assert one.nash_conv == two.nash_conv
    assert tp.Solver(g, "cfr+", threads=2).threads == 2
    with pytest.raises(ToypokerError, match="threads must be a whole number >= 1"):
        tp.solve(g, "cfr+", iterations=2, threads=0)
