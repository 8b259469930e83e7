"""Rhode Island Hold'em (Shi and Littman 2001; Gilpin and Sandholm 2005/2007).

The rules as Shi and Littman (2001, "Abstraction methods for game theoretic poker")
define the game and Gilpin and Sandholm ("Lossless abstraction of imperfect-information
games", 2005 conference / 2007 journal version) restate them: every player antes 5
chips and is dealt one private card; a betting round; one public card (the flop); a
betting round; a second public card (the turn); a betting round; showdown.  Limit
betting: bets and raises are 10 chips in the first round and 20 in the second and
third, at most three bets or raises a round.  Each player's hand is her private card
with the two public cards, ranked as three-card hands: straight flush > three of a
kind > straight > flush > pair > high card (:mod:`toypoker.games.three_card`; with
three cards a straight is rarer than a flush).  Player 1 acts first in every round.

``rhode_island(...)`` is this game on a ``ranks x suits`` deck (a standard deck by
default) for any number of players: it is exactly ``holdem(hole=1,rounds=3,board2=1,
board3=1,ante=5,bet1=10,bet2=20,bet3=20,cap1=3,cap2=3,cap3=3,evaluator=three_card)``
on the same deck (:func:`holdem_params`), compiled by the same builder and row layout,
suit-isomorphic deals merged (``suit_isomorphism=false``: the unmerged game, for
cross-checks).  Small decks (``ranks=4,suits=2``) compile and solve exactly; the
standard deck is far beyond the row layout (``toypoker info rhode_island`` counts it,
:mod:`toypoker.games.layout_count`) and is built and solved on the vector layout
(``toypoker solve rhode_island``: :func:`toypoker.engines.vectors.direct.build_vector`,
:mod:`toypoker.engines.vectors.methods`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from toypoker.errors import SpecError
from toypoker.games.base import GameInfo, Param, Params
from toypoker.games.holdem import HOLDEM
from toypoker.games.layout_count import count_holdem
from toypoker.games.limit import TooLargeError
from toypoker.spec import format_spec

if TYPE_CHECKING:
    from toypoker.definition import GameDefinition

ROUNDS = 3


def holdem_params(p: Params) -> Params:
    """The ``holdem(...)`` parameters of the same game (canonical, validated)."""
    raw: dict[str, object] = {
        "players": p["players"],
        "ranks": p["ranks"],
        "suits": p["suits"],
        "hole": 1,
        "rounds": ROUNDS,
        "ante": p["ante"],
        "evaluator": "three_card",
    }
    for i in range(1, ROUNDS + 1):
        raw[f"bet{i}"] = p[f"bet{i}"]
        raw[f"cap{i}"] = p["cap"]
        raw[f"first{i}"] = 1
        if i > 1:
            raw[f"board{i}"] = 1
    if "suit_isomorphism" in p:
        raw["suit_isomorphism"] = p["suit_isomorphism"]
    return HOLDEM.validate(raw)


def check(p: Params) -> Params:
    """The deck must hold every player's card and the two public cards."""
    if p["players"] + 2 > p["ranks"] * p["suits"]:
        raise SpecError(
            f"rhode_island deals {p['players'] + 2} cards from a deck of {p['ranks'] * p['suits']}"
        )
    return p


def build(p: Params) -> GameDefinition:
    """The game definition (the ``holdem`` builder's, under this game's name)."""
    definition = HOLDEM.build(holdem_params(p))
    definition.name = "rhode_island"
    definition.params = dict(p)
    return definition


def size(p: Params, max_entries: int | None = None) -> tuple[int, int, int]:
    """``(deals, public nodes, players)`` without building, counted exactly
    (:func:`~toypoker.games.layout_count.count_holdem`); raises ``TooLargeError``
    when ``rows x players`` passes ``max_entries``, naming the public nodes a deal
    reaches on average (rows / deals)."""
    c = count_holdem(holdem_params(p), format_spec("rhode_island", p), max_entries)
    assert c is not None  # the three-card evaluator sees suits: always counted
    if max_entries is not None and c.rows * c.players > max_entries:
        raise TooLargeError(c.deals, math.ceil(c.rows / c.deals), c.players)
    return c.deals, c.public_nodes, c.players


RHODE_ISLAND = GameInfo(
    name="rhode_island",
    doc="Rhode Island Hold'em: ante 5, one private card, three betting rounds with a "
    "public card before the second and third, bets 10/20/20, at most 3 bets or raises "
    "a round; three-card hands (straight flush > trips > straight > flush > pair > "
    "high card). ranks/suits shrink the deck for small exact versions.",
    source="Shi and Littman (2001); Gilpin and Sandholm (2005, 2007)",
    params=(
        Param("players", "int", 2, "number of players", low=2, high=10),
        Param("ranks", "int", 13, "ranks in the deck (deuce up; 13: to the ace)", low=3, high=13),
        Param("suits", "int", 4, "suits in the deck", low=1, high=4),
        Param("ante", "number", 5, "ante every player puts in", positive=True),
        Param("bet1", "number", 10, "bet size in round 1", positive=True),
        Param("bet2", "number", 20, "bet size in round 2 (after the flop)", positive=True),
        Param("bet3", "number", 20, "bet size in round 3 (after the turn)", positive=True),
        Param("cap", "int", 3, "bets and raises allowed a round", low=0),
        Param(
            "suit_isomorphism",
            "bool",
            None,
            "merge suit-isomorphic deals (true); false: the unmerged game",
        ),
    ),
    build=build,
    check=check,
    size=size,
)
