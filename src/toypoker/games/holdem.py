"""The general limit hold'em builder as a spec: ``holdem(...)``.

A deck of ``ranks x suits`` cards, ``hole`` cards per player, ``rounds`` betting
rounds (1-4) and a showdown evaluator (``games/hands.py``).  Per-round values
are separate parameters numbered from 1 (the spec grammar has no lists:
``2/4`` is the fraction one half): ``bet1``, ``bet2``, ...; ``cap1``, ... (bets
and raises a round); ``board2``, ... (board cards dealt before round i; none
before round 1); ``first1``, ... (1-based seat acting first); ``orbits1``, ...
(Ullman's bet-or-fold orbits instead of raise-cap betting; needs
``check=false``).  ``blind1``/``blind2`` are the blinds of seats 1 and 2 in round
1 (ACPC).  Defaults give Leduc hold'em (``holdem()`` is ``leduc()``);
Kuhn poker is ``holdem(ranks=3,suits=1,rounds=1,bet1=1,cap1=1,evaluator=high_card)``
and two-player SMH is ``holdem(ranks=5,suits=4,hole=2,board2=2,orbits1=1,orbits2=0,
bet1=4,bet2=4,check=false,evaluator=ullman4)``.

Suits are merged exactly when the evaluator cannot see them (deals are rank
multisets, see ``games/deals.py``).  A suited evaluator (``standard`` with five
or more cards) deals card identities and merges suit-isomorphic deals exactly
(``games/deals.py``: one deal per orbit under permutations of the suits, boards
as canonical chance outcomes, each player's observation canonical per round);
``suit_isomorphism=false`` keeps every card identity (the unmerged game, for
cross-checks).
"""

from __future__ import annotations

from fractions import Fraction

from toypoker.definition import GameDefinition
from toypoker.errors import SpecError
from toypoker.games.base import GameInfo, Param, Params
from toypoker.games.hands import EVALUATORS
from toypoker.games.limit import Round, build_limit_game, estimate_size

MAX_ROUNDS = 4
MAX_CAP = 100
"""Most bets and raises a round allows: a bound on the game's shape (the tree is built
with an explicit stack, so no Python recursion limit is involved; the size guard
bounds its rows)."""
DEFAULT_BET = (Fraction(2), Fraction(4), Fraction(4), Fraction(4))


def check(p: Params) -> Params:
    """Fill the per-round defaults of the rounds played; refuse values of rounds not played."""
    n, rounds = p["players"], p["rounds"]
    if p["evaluator"] not in EVALUATORS:
        raise SpecError(f"unknown evaluator {p['evaluator']!r}; known: {', '.join(EVALUATORS)}")
    for i in range(1, MAX_ROUNDS + 1):
        for key in ("board", "bet", "cap", "first", "orbits"):
            name = f"{key}{i}"
            if i > rounds and name in p:
                raise SpecError(f"{name} given but the game has rounds={rounds}")
            if key == "board" and i == 1:
                continue
            if i <= rounds and name not in p and key != "orbits":
                p[name] = {"board": 1, "bet": DEFAULT_BET[i - 1], "cap": 2, "first": 1}[key]
        if i <= rounds:
            if p[f"first{i}"] > n:
                raise SpecError(f"first{i} must be a seat 1..{n}")
            if f"orbits{i}" in p and p["check"]:
                raise SpecError("orbit betting is bet-or-fold: give check=false with orbits")
    _check_chips(p, rounds)
    if any(f"orbits{i}" in p for i in range(1, rounds + 1)) and ("blind1" in p or "blind2" in p):
        raise SpecError("blinds are for raise-cap betting, not with orbits")
    cards = p["ranks"] * p["suits"]
    dealt = n * p["hole"] + sum(p.get(f"board{i}", 0) for i in range(2, rounds + 1))
    if dealt > cards:
        raise SpecError(f"holdem deals {dealt} cards from a deck of {cards}")
    if p["evaluator"] == "leduc" and (p["hole"] != 1 or p.get("board2", 0) != 1 or rounds != 2):
        raise SpecError("evaluator=leduc needs hole=1, rounds=2 and board2=1")
    if p["evaluator"] == "three_card" and p["hole"] + dealt - n * p["hole"] != 3:
        raise SpecError("evaluator=three_card needs 3 cards in all (hole cards plus boards)")
    return p


def _check_chips(p: Params, rounds: int) -> None:
    """Antes, blinds and bets: no negative chips, and something in the pot to win."""
    blinds = {k: Fraction(p[k]) for k in ("blind1", "blind2") if k in p}
    ante = Fraction(p["ante"])
    for name, value in blinds.items():
        if value < 0:
            raise SpecError(f"{name} must be >= 0 (chips posted), got {name}={value}")
    if ante < 0 or (ante == 0 and not any(blinds.values())):
        allowed = "ante >= 0 with a blind > 0" if blinds else "ante > 0, or blinds"
        raise SpecError(f"the pot must start with chips in it: {allowed}; got ante={ante}")
    for i in range(1, rounds + 1):
        if f"bet{i}" in p and Fraction(p[f"bet{i}"]) <= 0:
            raise SpecError(f"bet{i} must be > 0, got bet{i}={p[f'bet{i}']}")


def limit_shape(p: Params) -> dict[str, object]:
    """The deck and betting keywords of :func:`~toypoker.games.limit.build_limit_game`
    for the hold'em family with parameters ``p`` (players, multiplicity, rounds, ...)."""
    n = p["players"]
    blinds = None
    if "blind1" in p or "blind2" in p:
        blinds = tuple(
            Fraction(p.get(f"blind{s + 1}", 0)) if s < 2 else Fraction(0) for s in range(n)
        )
    rounds = []
    for i in range(1, p["rounds"] + 1):
        rounds.append(
            Round(
                board=p.get(f"board{i}", 0),
                bet=Fraction(p[f"bet{i}"]),
                max_bets=p[f"cap{i}"],
                orbits=p.get(f"orbits{i}"),
                check=p["check"],
                first=p[f"first{i}"] - 1,
                blinds=blinds if i == 1 else None,
            )
        )
    return {
        "n_players": n,
        "multiplicity": [p["suits"]] * p["ranks"],
        "hole_cards": p["hole"],
        "rounds": rounds,
    }


def build(p: Params) -> GameDefinition:
    """The game definition."""
    return build_limit_game(
        name="holdem",
        params=p,
        ante=Fraction(p["ante"]),
        evaluator=EVALUATORS[p["evaluator"]],
        suit_isomorphism=p.get("suit_isomorphism") is not False,
        **limit_shape(p),
    )


def size(p: Params, max_entries: int | None = None) -> tuple[int, int, int]:
    """``(deals, public nodes, players)`` without building (see ``estimate_size``)."""
    shape = limit_shape(p)
    dealt = p["hole"] + sum(p.get(f"board{i}", 0) for i in range(2, p["rounds"] + 1))
    suits = p["suits"] if EVALUATORS[p["evaluator"]].suited(dealt) else 0
    return estimate_size(
        max_entries=max_entries,
        suits=suits,
        suit_isomorphism=p.get("suit_isomorphism") is not False,
        **shape,
    )


def _round_params() -> tuple[Param, ...]:
    out = []
    for i in range(1, MAX_ROUNDS + 1):
        if i > 1:
            out.append(Param(f"board{i}", "int", None, f"board cards before round {i} (1)", low=0))
        out += [
            Param(f"bet{i}", "number", None, f"bet size in round {i}", positive=True),
            Param(
                f"cap{i}",
                "int",
                None,
                f"bets and raises allowed in round {i} (2)",
                low=0,
                high=MAX_CAP,
            ),
            Param(f"first{i}", "int", None, f"seat (1-based) acting first in round {i} (1)", low=1),
            Param(f"orbits{i}", "int", None, f"bet-or-fold orbits in round {i} (Ullman)", low=0),
        ]
    return tuple(out)


HOLDEM = GameInfo(
    name="holdem",
    doc="Limit hold'em builder: ranks x suits deck, hole cards, 1-4 rounds with board "
    "cards, bet sizes, raise caps or bet-or-fold orbits, first actor per round, ante, "
    "blinds and an evaluator (high_card, leduc, ullman4, standard, three_card). Per-round values "
    "are numbered parameters bet1, bet2, ...; the defaults are Leduc hold'em.",
    source="Ullman (2015), Sec. 3; ACPC game definitions; Southey et al. (2005)",
    params=(
        Param("players", "int", 2, "number of players", low=2, high=10),
        Param("ranks", "int", 3, "ranks in the deck", low=1, high=13),
        Param("suits", "int", 2, "cards of each rank (suits)", low=1, high=4),
        Param("hole", "int", 1, "hole cards per player", low=1),
        Param("rounds", "int", 2, "betting rounds, 1-4", low=1, high=MAX_ROUNDS),
        Param("ante", "number", 1, "ante every player puts in"),
        Param("blind1", "number", None, "blind of seat 1 (ACPC)"),
        Param("blind2", "number", None, "blind of seat 2 (ACPC)"),
        Param("check", "bool", True, "a player facing no bet may check"),
        Param("evaluator", "word", "leduc", "high_card, leduc, ullman4, standard or three_card"),
        Param(
            "suit_isomorphism",
            "bool",
            None,
            "merge suit-isomorphic deals when the evaluator sees suits (true)",
        ),
        *_round_params(),
    ),
    build=build,
    check=check,
    size=size,
)
