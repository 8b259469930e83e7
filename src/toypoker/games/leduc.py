"""Leduc hold'em as OpenSpiel's ``leduc_poker`` (Southey et al. 2005): two suits of
``n + 1`` ranks, ante 1, bets 2 then 4, at most two bets a round, one board card;
a pair with the board wins.  No numeric parameters."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from toypoker.definition import GameDefinition
from toypoker.errors import SpecError
from toypoker.games.base import GameInfo, Param, Params
from toypoker.games.hands import EVALUATORS
from toypoker.games.limit import Round, build_limit_game, estimate_size

if TYPE_CHECKING:
    from toypoker.game import Game


def check(p: Params) -> Params:
    """Two or three players (OpenSpiel's rules)."""
    if p["players"] > 3:
        raise SpecError(f"leduc supports players=2 or 3, got {p['players']}")
    return p


def _shape(p: Params) -> dict[str, object]:
    n = p["players"]
    return {
        "n_players": n,
        "multiplicity": [2] * (n + 1),
        "rounds": [
            Round(board=0, bet=Fraction(2), max_bets=2),
            Round(board=1, bet=Fraction(4), max_bets=2),
        ],
    }


def build(p: Params) -> GameDefinition:
    """The game definition (showdown: the ``leduc`` evaluator, games/hands.py)."""
    return build_limit_game(
        name="leduc",
        params=p,
        ante=Fraction(1),
        evaluator=EVALUATORS["leduc"],
        **_shape(p),
    )


def size(p: Params, max_entries: int | None = None) -> tuple[int, int, int]:
    """``(deals, public nodes, players)`` without building (see ``estimate_size``)."""
    return estimate_size(max_entries=max_entries, **_shape(p))


def openspiel(game: Game) -> tuple[str, dict[str, object]] | None:
    """OpenSpiel's ``leduc_poker`` with the same number of players."""
    return "leduc_poker", {"players": game.params["players"]}


LEDUC = GameInfo(
    name="leduc",
    doc="Leduc hold'em as OpenSpiel's leduc_poker: two suits of n+1 ranks, ante 1, bets 2 "
    "then 4, at most 2 bets a round, one board card; a pair with the board wins.",
    source="Southey et al. (2005); OpenSpiel leduc_poker",
    params=(Param("players", "int", 2, "number of players, 2 or 3", low=2),),
    build=build,
    check=check,
    size=size,
    openspiel=openspiel,
)
