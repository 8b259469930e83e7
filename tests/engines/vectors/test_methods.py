"""The solver on the vector layout (``toypoker.engines.vectors.methods``) against the row
layout: the same iterates, the same NashConv by an independent best response (the row
layout's evaluation of the same profile), checkpoints that resume bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from tests.engines.vectors.maps import assert_same_map
from toypoker.engines import as_game
from toypoker.engines.rows.values import evaluate
from toypoker.engines.vectors.direct import build_vector
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.profile import Profile
from toypoker.solvers import Solver, solve

SPEC = "rhode_island(ranks=3,suits=2,cap=1)"  # 2,352 infosets: the row layout holds it


@pytest.fixture(scope="module")
def both():
    return load_rows(SPEC), build_vector(SPEC)


@pytest.mark.parametrize("method", ["cfr+", "pdcfr+"])
def test_iterates_equal_the_row_layout(both, method: str) -> None:
    # one step from each state of the row layout's own run: equal to 1e-12.  (Runs
    # apart drift: regret matching is discontinuous where a regret is 0 in exact
    # arithmetic, and suit-symmetric hands make such ties common; measured 0.3 after
    # 5 CFR+ iterations while every single step agrees to 3e-15.)
    g, vg = both
    rows = Solver(g, method)
    vec = Solver(as_game(vg), method)
    assert_same_map(
        lambda st: rows.method.step(g, st, rows.options),
        lambda st: vec.method.step(g, st, vec.options),
        rows.state,
        15,
    )


def test_nash_conv_verified_by_the_row_layout(both) -> None:
    # independent path: the row layout's own best responses on the same profile
    g, vg = both
    res = solve(as_game(vg), "pdcfr+", iterations=40)
    ev = evaluate(g, Profile(g, res.profile.probs))
    np.testing.assert_allclose(res.values, ev.values, atol=1e-12, rtol=0)
    np.testing.assert_allclose(res.gains, ev.gains, atol=1e-12, rtol=0)
    assert abs(res.nash_conv - float(ev.nash_conv)) <= 1e-12
    assert res.trace[-1].nash_conv == res.nash_conv and res.game is vg.game


@pytest.mark.slow  # ~6 s: three runs with their NashConv checks, and a rebuild
def test_checkpoint_resumes_bit_for_bit(both, tmp_path) -> None:
    _, vg = both
    ck = tmp_path / "ck.npz"
    whole = solve(as_game(vg), "pdcfr+", iterations=30)
    solve(as_game(vg), "pdcfr+", iterations=12, checkpoint=ck)
    resumed = solve(as_game(vg), "pdcfr+", iterations=30, resume=ck)
    assert resumed.iterations == 30
    assert np.array_equal(resumed.profile.probs, whole.profile.probs)
    again = Solver.from_checkpoint(ck)  # the game rebuilt from the recorded spec
    assert again.iteration == 12 and again.game.spec == vg.game.spec


def test_refusals_are_one_line(both) -> None:
    _, vg = both
    with pytest.raises(ToypokerError, match="deterministic"):
        solve(as_game(vg), "cfr+", iterations=2, seed=3)
    with pytest.raises(ToypokerError, match="layout='rows'"):
        solve(as_game(vg), "cfr+", iterations=2, team=(0, 1))
    # a method only the deal table runs goes there (the rows fit): the exact enumerator
    with pytest.raises(ToypokerError, match="too many to enumerate"):
        solve(as_game(vg), "enumerate")


def test_the_cli_layout_rule(monkeypatch) -> None:
    """The command line takes ``toypoker.load_game``'s layout, counted before anything
    is built (the counts are those of ``tests/games/test_layout_count.py``, checked
    there against compiled games), and sends what hand vectors cannot run to the rows."""
    from toypoker.engines.registry import layout_for

    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "8e9")  # the 6.6 GB rows fit: es-mccfr there
    big = "holdem(players=3,ranks=13,suits=4)"  # 32,873,711 rows
    c = layout_for(big, "pdcfr+", "auto", team=False)
    assert c.layout == "vector" and c.counted is not None and "32,873,711 rows" in c.why
    assert layout_for(big, "fp", "auto", team=False).layout == "vector"  # both layouts
    with pytest.raises(ToypokerError, match=r"es-mccfr does not run on the vector layout; its"):
        layout_for(big, "es-mccfr", "auto", team=False)  # 6.6 GB of rows: asked for only
    small = "holdem(players=3,ranks=4,suits=2)"
    es = layout_for(small, "es-mccfr", "auto", team=False)
    assert es.layout == "rows"
    assert layout_for("kuhn(players=3)", "cfr+", "auto", team=False).layout == "rows"
    assert layout_for(big, "cfr+", "rows", team=False).layout == "rows"
    assert layout_for(small, "cfr+", "vector", team=False).layout == "vector"
    with pytest.raises(ToypokerError, match="does not run on the vector layout"):
        layout_for(SPEC, "es-mccfr", "vector", team=False)
    with pytest.raises(ToypokerError, match="layout must be one of"):
        layout_for(SPEC, "cfr+", "columns", team=False)


def test_the_layout_rule_under_collusion() -> None:
    """Weak collusion is a payoff map on the uncolluded game's rows (counted as that
    game: 32,873,711 rows, ``tests/games/test_layout_count.py``), so a big weak spec
    runs on vectors; strong collusion keeps the rows, and is refused when forced."""
    from toypoker.engines import choose_layout
    from toypoker.engines.choice import vector_count

    big = "holdem(players=3,ranks=13,suits=4,team=12)"
    c = choose_layout(big)
    assert c.layout == "vector" and "32,873,711 rows" in c.why
    assert vector_count(big) == vector_count("holdem(players=3,ranks=13,suits=4)")
    strong = "holdem(players=3,ranks=13,suits=4,team=12,strong=true)"
    assert vector_count(strong) is None
    assert choose_layout(strong).layout == "rows"
    with pytest.raises(ToypokerError, match="strong collusion.*layout='rows'"):
        choose_layout("kuhn(players=3,team=12,strong=true)", "vector")
    weak = "kuhn(players=3,team=13,sharing=pot)"
    assert choose_layout(weak, "vector").layout == "vector"
