"""Kuhn poker with ``n`` players and cards ``1..N`` (Kuhn 1950; Szafron et al. 2013;
Billingham, N cards): its parameters, checks, builder call, dominated choices and
OpenSpiel counterpart.

Payoffs are affine in the ante and the bet; the pot is ``n * ante`` (one
coordinate: ``pot`` and ``ante`` are alternatives in a spec).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from toypoker.definition import GameDefinition, Linear, NumericParams
from toypoker.errors import SpecError
from toypoker.games.base import GameInfo, Param, Params
from toypoker.games.hands import EVALUATORS
from toypoker.games.limit import Round, build_limit_game, estimate_size

if TYPE_CHECKING:
    from toypoker.game import Game


def numeric(p: Params) -> NumericParams:
    """Coordinates ``(ante, bet)``; ``pot = n * ante``."""
    n = p["players"]
    ante = p["pot"] / n if "pot" in p else p["ante"]
    names = (("ante", 0, Fraction(1)), ("bet", 1, Fraction(1)), ("pot", 0, Fraction(n)))
    return NumericParams(("ante", "bet"), (Fraction(ante), Fraction(p["bet"])), names)


def check(p: Params) -> Params:
    """Kuhn's own checks: ``cards >= players`` (default ``players + 1``)."""
    n = p["players"]
    p["cards"] = p.get("cards", n + 1)
    if p["cards"] < n:
        raise SpecError(f"kuhn needs cards >= players, got cards={p['cards']} < players={n}")
    return p


def limit_shape(p: Params) -> dict[str, object]:
    """The deck and betting keywords of :func:`~toypoker.games.limit.build_limit_game`
    for Kuhn poker with parameters ``p`` (players, multiplicity, rounds, ...)."""
    return {
        "n_players": p["players"],
        "multiplicity": [1] * p["cards"],
        "rounds": [Round(board=0, bet=Linear.coordinate(1, 2), max_bets=1)],
    }


def build(p: Params) -> GameDefinition:
    """The game definition: one betting round, one bet, high card wins."""
    return build_limit_game(
        name="kuhn",
        params=p,
        ante=Linear.coordinate(0, 2),
        evaluator=EVALUATORS["high_card"],
        numeric=numeric(p),
        **limit_shape(p),
    )


def size(p: Params, max_entries: int | None = None) -> tuple[int, int, int]:
    """``(deals, public nodes, players)`` without building (see ``estimate_size``)."""
    return estimate_size(max_entries=max_entries, **limit_shape(p))


def dominated(game: Game) -> dict[int, float]:
    """Dominated choices of Kuhn poker, fixed as in the paper (Billingham, N cards,
    Sec. 2): ``{sigma index: probability}``.

    Facing a bet after ``m`` calls, a card among the ``m + 1`` lowest loses any
    showdown for sure (fold); the best card calls; the best card bets when all
    others have checked to the last opener.  For three players this is the
    paper's list (best card at nodes 3-12, worst at 4-12, second-worst at the
    overcall nodes 6, 9, 12): 22 choices.
    """
    N, n = int(game.params["cards"]), game.n_players
    out: dict[int, float] = {}
    for inf in game.infosets:
        if inf.restricted:
            continue
        rank, h = inf.private[0], inf.history
        if inf.actions == ("f", "c"):
            m = h[h.index("b") + 1 :].count("c")
            if rank <= m + 1:
                x = 0.0
            elif rank == N:
                x = 1.0
            else:
                continue
        elif inf.actions == ("k", "b") and h == "k" * (n - 1) and rank == N:
            x = 1.0
        else:
            continue
        out[inf.offset], out[inf.offset + 1] = 1.0 - x, x
    return out


def openspiel(game: Game) -> tuple[str, dict[str, object]] | None:
    """OpenSpiel's ``kuhn_poker`` (n+1 cards, ante 1, bet 1), or None."""
    p = game.params
    if p["cards"] != p["players"] + 1 or p["bet"] != 1 or p.get("ante", 1) != 1 or "pot" in p:
        return None
    return "kuhn_poker", {"players": p["players"]}


KUHN = GameInfo(
    name="kuhn",
    doc="Kuhn poker: n players, cards 1..N, one bet; check/bet until someone bets, then "
    "every other player in turn folds or calls.",
    source="Kuhn (1950); Szafron, Gibson, Sturtevant (2013); Billingham (N cards)",
    params=(
        Param("players", "int", 2, "number of players n >= 2", low=2, high=1000),
        Param("cards", "int", None, "deck size N >= n (default n+1)", high=100_000),
        Param(
            "ante", "number", 1, "ante a > 0 each player puts in", positive=True, excludes=("pot",)
        ),
        Param("bet", "number", 1, "bet size b > 0", positive=True),
        Param(
            "pot",
            "number",
            None,
            "initial pot P > 0 instead of ante (ante = P/n)",
            positive=True,
            excludes=("ante",),
        ),
    ),  # fmt: skip
    build=build,
    check=check,
    size=size,
    dominated=dominated,
    openspiel=openspiel,
)
