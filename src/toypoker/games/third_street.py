"""Billingham's one-third street three-player Kuhn poker and its simplified form SKP
(Billingham, simplified three-player Kuhn poker, Secs. 2-3).

P1 and P2 must check, P3 checks or bets 1, then P1 and P2 in turn fold or call.
Each player put ``P/3`` in: payoffs are affine in the pot ``P``.
"""

from __future__ import annotations

from fractions import Fraction

from toypoker.definition import GameDefinition, Linear, NumericParams
from toypoker.errors import SpecError
from toypoker.games.base import GameInfo, Param, Params
from toypoker.games.hands import EVALUATORS
from toypoker.games.limit import Round, build_limit_game, estimate_size

N_PLAYERS = 3


def restrictions(skp: bool, rational: bool) -> list:
    """Restrictions of Billingham's one-third street game (cards J<Q<K<A = 1..4).

    ``rational`` fixes his points 1-4 (Sec. 2): P3 bets A and checks K; P1 and
    P2 call with A; they fold J; P2 does not overcall with Q.  ``skp`` adds the
    SKP restrictions of Sec. 3: ``b_Q = 0``, ``c_Q = 0``, ``d_K = 1``, and
    (its consequence, as P1 then holds A) no overcall with K, ``o_K = 0``.
    """
    J, Q, K, A = 1, 2, 3, 4
    bet, check_ = {"b": Fraction(1), "k": Fraction(0)}, {"b": Fraction(0), "k": Fraction(1)}
    call, fold = {"c": Fraction(1), "f": Fraction(0)}, {"c": Fraction(0), "f": Fraction(1)}
    r: list = []
    if rational or skp:
        r += [(2, (A,), "kk", bet), (2, (K,), "kk", check_)]
        r += [(0, (A,), "kkb", call), (0, (J,), "kkb", fold)]
        r += [(1, (A,), "kkbf", call), (1, (J,), "kkbf", fold)]
        r += [(1, (A,), "kkbc", call), (1, (J,), "kkbc", fold), (1, (Q,), "kkbc", fold)]
    if skp:
        r += [(2, (Q,), "kk", check_)]  # b_Q = 0
        r += [(0, (Q,), "kkb", fold)]  # c_Q = 0
        r += [(1, (K,), "kkbf", call)]  # d_K = 1
        r += [(1, (K,), "kkbc", fold)]  # o_K = 0 (P1 called, so P1 holds A)
    return r


def _third_player_opens(player: int, rnd: int) -> bool:
    return player == 2


def _shape(p: Params) -> dict[str, object]:
    return {
        "n_players": N_PLAYERS,
        "multiplicity": [1] * p.get("cards", 4),
        "rounds": [Round(board=0, bet=Fraction(1), max_bets=1)],
        "can_open": _third_player_opens,
    }


def _build(p: Params, skp: bool) -> GameDefinition:
    return build_limit_game(
        name="skp" if skp else "kuhn_third_street",
        params=p,
        ante=Linear.coordinate(0, 1, Fraction(1, N_PLAYERS)),  # each put in P/3
        evaluator=EVALUATORS["high_card"],
        restrictions=restrictions(skp, bool(p["rational"])),
        numeric=NumericParams(("pot",), (Fraction(p["pot"]),), (("pot", 0, Fraction(1)),)),
        **_shape(p),
    )


def build_third_street(p: Params) -> GameDefinition:
    """The one-third street game (Sec. 2)."""
    return _build(p, skp=False)


def build_skp(p: Params) -> GameDefinition:
    """SKP (Sec. 3)."""
    return _build(p, skp=True)


def size(p: Params, max_entries: int | None = None) -> tuple[int, int, int]:
    """``(deals, public nodes, players)`` without building (see ``estimate_size``)."""
    return estimate_size(max_entries=max_entries, **_shape(p))


def check_third_street(p: Params) -> Params:
    """At least the paper's four cards; ``rational`` is defined for four only."""
    if p["cards"] < 4:
        raise SpecError(f"kuhn_third_street needs cards >= 4, got {p['cards']}")
    if p["cards"] != 4 and p["rational"]:
        raise SpecError("rational=true is defined for the paper's 4-card deck only")
    return p


THIRD_STREET = GameInfo(
    name="kuhn_third_street",
    doc="One-third street three-player Kuhn poker: P1 and P2 must check, P3 checks or bets "
    "1, then P1 and P2 in turn fold or call.",
    source="Billingham, simplified three-player Kuhn poker, Sec. 2",
    params=(
        Param("pot", "number", 3, "initial pot P > 0 (each player put in P/3)", positive=True),
        Param("cards", "int", 4, "deck size (4 in the paper)", high=100_000),
        Param("rational", "bool", False, "fix the paper's points 1-4 (dominated choices)"),
    ),
    build=build_third_street,
    check=check_third_street,
    size=size,
    players=lambda p: N_PLAYERS,
    restricted=lambda p: bool(p["rational"]),
)

SKP = GameInfo(
    name="skp",
    doc="Simplified one-third street Kuhn poker (SKP): P3 checks Q, P1 never calls with Q, "
    "P2 always calls with K; free: b_J, c_K, d_Q.",
    source="Billingham, simplified three-player Kuhn poker, Sec. 3",
    params=(
        Param("pot", "number", 9, "initial pot P > 0 (the paper studies P > 5)", positive=True),
        Param("rational", "bool", True, "also fix the points 1-4 of Sec. 2"),
    ),
    build=build_skp,
    size=size,
    players=lambda p: N_PLAYERS,
    restricted=lambda p: True,
)
