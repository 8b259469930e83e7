"""Mercer Hold'em (Ullman 2015, Sec. 4.2; the game of his code rjullman/poker-nasheq).

A 20-card deck, ranks 2-6 in four suits that never matter; ante 1; two hole cards
each; no check: in every betting orbit each live player in seat order (seat 0
first) puts in exactly 4 more chips or folds.  Then a flop of two shared cards and
a showdown of the best four cards (hole and flop: high card < pair < two pair <
trips < quads, ties by ranks; evaluator ``ullman4`` of ``games/hands.py``).
SMH: one orbit before the flop, no betting after it.  MMH: two orbits before and
two after.  Ranks in labels are 1-based: rank 1 is the deuce, so ``P1:1-4:``
is P1 holding 2-5.

``bet`` (default 4, left out of the canonical spec at its default) changes the
chips of every bet: the values in Ullman's text for 3P-SMH fit 8-chip bets
(``mercer(players=3,variant=smh,bet=8)``, the literature claims' game).
"""

from __future__ import annotations

from fractions import Fraction

from toypoker.definition import GameDefinition
from toypoker.errors import SpecError
from toypoker.games.base import GameInfo, Param, Params
from toypoker.games.hands import EVALUATORS
from toypoker.games.limit import Round, build_limit_game, estimate_size

RANKS, SUITS, HOLE, FLOP, ANTE, BET = 5, 4, 2, 2, Fraction(1), Fraction(4)
VARIANTS = {"smh": (1, 0), "mmh": (2, 2)}  # orbits before and after the flop


def check(p: Params) -> Params:
    """``variant`` is ``smh`` or ``mmh``; ``bet`` at its default 4 is left out, so one
    game has one canonical spec."""
    v = str(p["variant"]).lower()
    if v not in VARIANTS:
        raise SpecError(f"mercer variant must be smh or mmh, got {p['variant']}")
    p["variant"] = v
    if p.get("bet") == BET:
        del p["bet"]
    return p


def limit_shape(p: Params) -> dict[str, object]:
    """The deck and betting keywords of :func:`~toypoker.games.limit.build_limit_game`."""
    pre, post = VARIANTS[p["variant"]]
    bet = Fraction(p.get("bet", BET))
    return {
        "n_players": p["players"],
        "multiplicity": [SUITS] * RANKS,
        "hole_cards": HOLE,
        "rounds": [
            Round(board=0, bet=bet, max_bets=0, hole=HOLE, orbits=pre, check=False),
            Round(board=FLOP, bet=bet, max_bets=0, orbits=post, check=False),
        ],
    }


def build(p: Params) -> GameDefinition:
    """The game definition: deals are rank multisets (suits merged exactly)."""
    return build_limit_game(
        name="mercer", params=p, ante=ANTE, evaluator=EVALUATORS["ullman4"], **limit_shape(p)
    )


def size(p: Params, max_entries: int | None = None) -> tuple[int, int, int]:
    """``(deals, public nodes, players)`` without building (see ``estimate_size``)."""
    return estimate_size(max_entries=max_entries, **limit_shape(p))


MERCER = GameInfo(
    name="mercer",
    doc="Mercer Hold'em: ranks 2-6 x 4 suits, ante 1, 2 hole cards, bet 4 or fold in every "
    "orbit (seat 0 first), flop of 2, best 4 cards; smh: 1 orbit pre-flop; mmh: 2 orbits "
    "before and 2 after the flop.",
    source="Ullman (2015), Sec. 4.2; rjullman/poker-nasheq",
    params=(
        Param("players", "int", 2, "number of players, 2 or 3", low=2, high=3),
        Param("variant", "word", "smh", "smh (standard) or mmh (multiround)"),
        Param("bet", "number", None, "chips of every bet (default 4)", positive=True),
    ),
    build=build,
    check=check,
    size=size,
)
