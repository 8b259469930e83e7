"""One ``tp.Game`` for every game (issue 33, item 1): ``tp.load_game(spec, layout=...)``.

The same public type on both layouts, the choice made before building, the size check
of every builder, and games that pickle, copy and compare as their spec.
"""

from __future__ import annotations

import copy
import pickle
from fractions import Fraction

import pytest

import toypoker as tp
from toypoker.engines import rows_of
from toypoker.engines.evaluation import vector_of
from toypoker.errors import SpecError, ToypokerError


def test_one_type_on_both_layouts() -> None:
    rows = tp.load_game("kuhn(players=2)")
    vec = tp.load_game("kuhn(players=2)", layout="vector")
    compiled = tp.load_game("leduc(players=2)", layout="vector")  # no deal-free builder
    for g, layout in ((rows, "rows"), (vec, "vector"), (compiled, "vector")):
        assert isinstance(g, tp.Game) and g.layout == layout
    assert vector_of(rows) is None and vector_of(vec) is not None
    assert vector_of(vec).game is vec and vector_of(compiled).game is compiled
    # the same infosets, labels and flat actions: a profile of one is a profile of the other
    assert [i.label for i in vec.infosets] == [i.label for i in rows.infosets]
    assert vec.n_sigma == rows.n_sigma and repr(vec).endswith("layout='vector')")


@pytest.mark.parametrize(
    "spec",
    [
        # issue 33's table: the row layout ran them ~10-30x slower than the vector one
        "kuhn(players=3,cards=52)",
        "mercer(players=3,variant=mmh)",
        "rhode_island",  # the rows do not fit: 438,275,565 rows counted
    ],
)
def test_auto_puts_large_games_on_hand_vectors(spec: str, monkeypatch) -> None:
    from toypoker.engines import choose_layout

    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "8e9")  # Rhode Island on vectors: 3.2 GB

    choice = choose_layout(spec)
    assert choice.layout == "vector", choice.why
    assert choice.counted is not None and choice.vector_seconds < choice.rows_seconds


def test_small_games_stay_on_the_deal_table() -> None:
    from toypoker.engines import choose_layout

    for spec in (
        "kuhn(players=2)",
        "leduc(players=2)",
        "skp",
        "kuhn(players=3,team=23,strong=true)",
    ):
        assert choose_layout(spec).layout == "rows", spec


def test_bad_layouts_are_one_line() -> None:
    with pytest.raises(ToypokerError, match="layout must be one of auto, rows, vector"):
        tp.load_game("kuhn(players=2)", layout="columns")
    with pytest.raises(ToypokerError, match="strong collusion .* layout='rows'"):
        tp.load_game("kuhn(players=3,team=23,strong=true)", layout="vector")


def test_every_builder_is_size_checked_before_building(monkeypatch: pytest.MonkeyPatch) -> None:
    """The vector builder is refused in one line over the budget, nothing built (issue 33:
    ``build_vector("mercer(players=3,variant=mmh)")`` grew past 23 GB unchecked)."""
    import toypoker.engines as L

    def no_build(*args, **kwargs):  # the size check must come first
        raise AssertionError("built")

    monkeypatch.setattr(L, "build_vector", no_build)
    with pytest.raises(SpecError, match=r"too large for the vector layout: 63,090 hand entries"):
        tp.load_game("mercer(players=3,variant=mmh)", layout="vector", max_bytes=10**6)
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "1e6")  # neither layout fits: one line
    with pytest.raises(SpecError, match="too large"):
        tp.load_game("mercer(players=3,variant=mmh)")


def test_games_pickle_copy_and_compare_as_their_spec() -> None:
    for g in (tp.load_game("kuhn(players=3)"), tp.load_game("kuhn(players=3)", layout="vector")):
        back = pickle.loads(pickle.dumps(g))
        assert back == g and back.layout == g.layout and hash(back) == hash(g)
        assert copy.deepcopy(g) is g and copy.copy(g) is g
        assert back != tp.load_game(
            "kuhn(players=3)", layout="rows" if g.layout == "vector" else "vector"
        )
        prof = pickle.loads(pickle.dumps(tp.Profile.uniform(g, exact=True)))
        assert tp.nash_conv(g, prof) == tp.nash_conv(g, tp.Profile.uniform(g, exact=True))


def test_at_keeps_the_layout() -> None:
    """``game.at(pot=...)`` on hand vectors is the game built at that pot, with the values
    of the deal table's ``at`` (exact)."""
    rows = tp.load_game("kuhn(players=3)").at(pot=Fraction(9, 2))
    vec = tp.load_game("kuhn(players=3)", layout="vector").at(pot=Fraction(9, 2))
    assert vec.layout == "vector" and vec.spec == rows.spec
    u_rows = tp.evaluate(rows, tp.Profile.uniform(rows, exact=True)).values
    u_vec = tp.evaluate(vec, tp.Profile.uniform(vec, exact=True)).values
    assert u_vec == u_rows


def test_a_rows_only_method_reloads_the_deal_table(monkeypatch: pytest.MonkeyPatch) -> None:
    vec = tp.load_game("skp", layout="vector")
    res = tp.solve(vec, "enumerate")  # the enumerator reads the deal table
    assert res.game.layout == "rows" and rows_of(vec, "x") is res.game
    big = tp.load_game("kuhn(players=3,cards=52)")
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "1e6")
    with pytest.raises(SpecError, match="method 'es-mccfr' needs the deal table, and it does not"):
        tp.Solver(big, "es-mccfr", seed=1)
