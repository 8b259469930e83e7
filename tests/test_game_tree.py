"""The game is the tree: one :class:`toypoker.game.Game` class for every game, on every
engine, immutable, its engine at ``game.engine``; the deal table is the rows engine's
data, read through the game where it exists or can be built, else refused in one line."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import toypoker as tp
from toypoker.engines.registry import engine_of
from toypoker.errors import ToypokerError
from toypoker.game import Game

#: (spec, layout): small games of every builder on each layout, and games built on hand
#: vectors without a deal table (``kuhn(players=3,cards=13)``, Rhode Island on 3 ranks)
GAMES = [
    ("kuhn(players=2)", "rows"),
    ("kuhn(players=2)", "vector"),
    ("kuhn(players=3,cards=13)", "vector"),
    ("kuhn(players=3,cards=4,team=12,sharing=win)", "vector"),
    ("kuhn_third_street()", "rows"),
    ("skp()", "rows"),
    ("leduc(players=2)", "rows"),
    ("leduc(players=2)", "vector"),
    ("mercer(players=2)", "rows"),
    ("holdem(players=2,ranks=4,suits=1)", "vector"),
    ("rhode_island(ranks=3)", "vector"),
]


@pytest.fixture(scope="module", params=GAMES, ids=[f"{s}-{lay}" for s, lay in GAMES])
def game(request: pytest.FixtureRequest) -> Game:
    spec, layout = request.param
    return tp.load_game(spec, layout=layout)


def test_every_game_is_one_class(game: Game) -> None:
    assert type(game) is Game
    assert game.layout in ("rows", "vector")


def test_every_game_is_frozen(game: Game) -> None:
    with pytest.raises(AttributeError, match="immutable"):
        game.spec = "kuhn(players=2)"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        game.n_infosets = 0  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        del game.nodes
    for name in ("infoset_offset", "sigma_infoset", "sigma_player", "sigma_fixed",
                 "fixed_values", "infoset_restricted", "infoset_actions_padded"):  # fmt: skip
        arr = getattr(game, name)
        assert isinstance(arr, np.ndarray) and not arr.flags.writeable, name
        with pytest.raises(ValueError, match="read-only"):
            arr[...] = arr


def test_every_game_names_its_engine(game: Game) -> None:
    engine = game.engine
    assert engine.name in ("rows", "vectors")
    assert engine.game is game and game.engine is engine  # made once a game
    assert engine_of(game) is engine  # the registry's name for it
    assert game.layout == ("rows" if engine.name == "rows" else "vector")


def test_identity_is_the_spec_and_the_engine(game: Game) -> None:
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is Game and again == game and hash(again) == hash(game)
    assert again.engine.name == game.engine.name and again.n_sigma == game.n_sigma
    assert repr(game).startswith(f"Game({game.spec!r}")


def test_the_rows_game_keeps_its_deal_table_read_only() -> None:
    g = tp.load_game("leduc(players=2)", layout="rows")
    assert "n_rows" not in vars(g) and "term_u" not in vars(g)  # the engine's, not the game's
    for name in ("term_u", "row_node", "parent_row", "edge_sigma", "weights", "obs"):
        assert not getattr(g, name).flags.writeable, name
    with pytest.raises(AttributeError, match="immutable"):
        g.term_u = g.term_u  # type: ignore[misc]


def test_at_shares_the_deal_table_and_equals_a_fresh_build() -> None:
    g = tp.load_game("kuhn(players=3)", layout="rows")
    moved = g.at(pot=7)
    fresh = tp.load_game("kuhn(players=3,pot=7)", layout="rows")
    assert type(moved) is Game and moved.spec == fresh.spec and moved == fresh
    assert np.array_equal(moved.term_u, fresh.term_u)  # bit for bit
    assert moved.term_u.tobytes() == fresh.term_u.tobytes()
    assert moved.row_node is g.row_node and moved.infoset_offset is g.infoset_offset
    assert not moved.term_u.flags.writeable
    on_vectors = tp.load_game("kuhn(players=3,cards=13)").at(pot=7)
    assert on_vectors.layout == "vector" and type(on_vectors) is Game
    assert on_vectors == tp.load_game("kuhn(players=3,cards=13,pot=7)")


def test_a_game_without_deals_builds_its_deal_table_from_the_spec() -> None:
    g = tp.load_game("kuhn(players=3,cards=5)", layout="vector")
    rows = tp.load_game("kuhn(players=3,cards=5)", layout="rows")
    assert "n_rows" not in vars(g)
    assert g.n_rows == rows.n_rows and np.array_equal(g.term_u, rows.term_u)
    assert g.layout == "vector"  # still on hand vectors


def test_a_deal_table_that_does_not_fit_is_refused_in_one_line(monkeypatch) -> None:
    g = tp.load_game("kuhn(players=3,cards=13)", layout="vector")
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "100000")
    with pytest.raises(ToypokerError) as info:
        _ = g.n_rows
    text = str(info.value)
    assert "\n" not in text and "n_rows" in text and "deal table" in text
    with pytest.raises(AttributeError):
        _ = g.no_such_attribute  # other names: an AttributeError as usual
