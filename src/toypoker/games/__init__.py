"""The built-in games and the spec-string entry point :func:`load_game`.

>>> from toypoker.games import load_game
>>> g = load_game("kuhn(players=3)")
>>> g.n_players, g.n_deals, g.n_infosets
(3, 24, 48)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from ..errors import SpecError
from ..game import Game, GameDefinition
from ..spec import Spec, Value, format_spec, format_value, parse_spec
from .limit import Round, build_limit_game, high_card, leduc_strength


@dataclass(frozen=True)
class Param:
    """A documented game parameter."""

    name: str
    kind: str  # "int" | "number" | "bool"
    default: object
    doc: str


@dataclass(frozen=True)
class GameInfo:
    """A built-in game: its parameters, a one-line description, its source."""

    name: str
    doc: str
    source: str
    params: tuple[Param, ...]
    build: Callable[[dict[str, object]], GameDefinition]


def _int(name: str, v: Value) -> int:
    if isinstance(v, bool) or not isinstance(v, Fraction) or v.denominator != 1:
        raise SpecError(f"parameter {name!r} must be a whole number, not {format_value(v)}")
    return int(v)


def _num(name: str, v: Value) -> Fraction:
    if isinstance(v, bool) or not isinstance(v, Fraction):
        raise SpecError(f"parameter {name!r} must be a number, not {format_value(v)}")
    return v


def _positive(name: str, v: Fraction) -> Fraction:
    if v <= 0:
        raise SpecError(f"parameter {name!r} must be positive, got {v}")
    return v


# ---------------------------------------------------------------------- Kuhn
def _kuhn(p: dict[str, object]) -> GameDefinition:
    n = p["players"]
    ante = p["pot"] / n if "pot" in p else p["ante"]
    return build_limit_game(
        name="kuhn",
        params=p,
        n_players=n,
        multiplicity=[1] * p["cards"],
        rounds=[Round(board=0, bet=p["bet"], max_bets=1)],
        ante=ante,
        strength=high_card,
    )


def _third_street_restrictions(skp: bool, rational: bool) -> list:
    """Restrictions of Billingham's one-third street game (cards J<Q<K<A = 1..4).

    ``rational`` fixes his points 1-4 (Sec. 2): P3 bets A and checks K; P1 and
    P2 call with A; they fold J; P2 does not overcall with Q.  ``skp`` adds the
    SKP restrictions of Sec. 3: ``b_Q = 0``, ``c_Q = 0``, ``d_K = 1``, and
    (its consequence, as P1 then holds A) no overcall with K, ``o_K = 0``.
    """
    J, Q, K, A = 1, 2, 3, 4
    bet, check = {"b": Fraction(1), "k": Fraction(0)}, {"b": Fraction(0), "k": Fraction(1)}
    call, fold = {"c": Fraction(1), "f": Fraction(0)}, {"c": Fraction(0), "f": Fraction(1)}
    r: list = []
    if rational or skp:
        r += [(2, (A,), "kk", bet), (2, (K,), "kk", check)]
        r += [(0, (A,), "kkb", call), (0, (J,), "kkb", fold)]
        r += [(1, (A,), "kkbf", call), (1, (J,), "kkbf", fold)]
        r += [(1, (A,), "kkbc", call), (1, (J,), "kkbc", fold), (1, (Q,), "kkbc", fold)]
    if skp:
        r += [(2, (Q,), "kk", check)]  # b_Q = 0
        r += [(0, (Q,), "kkb", fold)]  # c_Q = 0
        r += [(1, (K,), "kkbf", call)]  # d_K = 1
        r += [(1, (K,), "kkbc", fold)]  # o_K = 0 (P1 called, so P1 holds A)
    return r


def _third_street(p: dict[str, object], skp: bool = False) -> GameDefinition:
    n = 3
    return build_limit_game(
        name="skp" if skp else "kuhn_third_street",
        params=p,
        n_players=n,
        multiplicity=[1] * p.get("cards", 4),
        rounds=[Round(board=0, bet=Fraction(1), max_bets=1)],
        ante=p["pot"] / n,
        strength=high_card,
        can_open=lambda player, rnd: player == 2,
        restrictions=_third_street_restrictions(skp, bool(p.get("rational", True))),
    )


# --------------------------------------------------------------------- Leduc
def _leduc(p: dict[str, object]) -> GameDefinition:
    n = p["players"]
    return build_limit_game(
        name="leduc",
        params=p,
        n_players=n,
        multiplicity=[2] * (n + 1),
        rounds=[
            Round(board=0, bet=Fraction(2), max_bets=2),
            Round(board=1, bet=Fraction(4), max_bets=2),
        ],
        ante=Fraction(1),
        strength=leduc_strength(n),
    )


GAMES: dict[str, GameInfo] = {
    "kuhn": GameInfo(
        "kuhn",
        "Kuhn poker: n players, cards 1..N, one bet; check/bet until someone bets, then "
        "every other player in turn folds or calls.",
        "Kuhn (1950); Szafron, Gibson, Sturtevant (2013); Billingham (N cards)",
        (
            Param("players", "int", 2, "number of players n >= 2"),
            Param("cards", "int", None, "deck size N >= n (default n+1)"),
            Param("ante", "number", 1, "ante a > 0 each player puts in"),
            Param("bet", "number", 1, "bet size b > 0"),
            Param("pot", "number", None, "initial pot P > 0 instead of ante (ante = P/n)"),
        ),
        _kuhn,
    ),
    "kuhn_third_street": GameInfo(
        "kuhn_third_street",
        "One-third street three-player Kuhn poker: P1 and P2 must check, P3 checks or bets "
        "1, then P1 and P2 in turn fold or call.",
        "Billingham, simplified three-player Kuhn poker, Sec. 2",
        (
            Param("pot", "number", 3, "initial pot P > 0 (each player put in P/3)"),
            Param("cards", "int", 4, "deck size (4 in the paper)"),
            Param("rational", "bool", False, "fix the paper's points 1-4 (dominated choices)"),
        ),
        lambda p: _third_street(p, skp=False),
    ),
    "skp": GameInfo(
        "skp",
        "Simplified one-third street Kuhn poker (SKP): P3 checks Q, P1 never calls with Q, "
        "P2 always calls with K; free: b_J, c_K, d_Q.",
        "Billingham, simplified three-player Kuhn poker, Sec. 3",
        (
            Param("pot", "number", 9, "initial pot P > 0 (the paper studies P > 5)"),
            Param("rational", "bool", True, "also fix the points 1-4 of Sec. 2"),
        ),
        lambda p: _third_street(p, skp=True),
    ),
    "leduc": GameInfo(
        "leduc",
        "Leduc hold'em as OpenSpiel's leduc_poker: two suits of n+1 ranks, ante 1, bets 2 "
        "then 4, at most 2 bets a round, one board card; a pair with the board wins.",
        "Southey et al. (2005); OpenSpiel leduc_poker",
        (Param("players", "int", 2, "number of players, 2 or 3"),),
        _leduc,
    ),
}


def _validate(info: GameInfo, spec: Spec) -> dict[str, object]:
    given = spec.as_dict()
    known = {p.name: p for p in info.params}
    for k in given:
        if k not in known:
            raise SpecError(f"unknown parameter {k!r} for {info.name}; known: {', '.join(known)}")
    out: dict[str, object] = {}
    for p in info.params:
        if p.name not in given:
            continue
        v = given[p.name]
        if p.kind == "int":
            out[p.name] = _int(p.name, v)
        elif p.kind == "number":
            out[p.name] = _num(p.name, v)
        elif p.kind == "bool":
            if not isinstance(v, bool):
                raise SpecError(
                    f"parameter {p.name!r} must be true or false, not {format_value(v)}"
                )
            out[p.name] = v
    # defaults and game-specific checks
    if info.name in ("kuhn", "leduc"):
        n = out.get("players", 2)
        if n < 2:
            raise SpecError(f"{info.name} needs players >= 2, got {n}")
        out["players"] = n
    if info.name == "leduc" and out["players"] > 3:
        raise SpecError(f"leduc supports players=2 or 3, got {out['players']}")
    if info.name == "kuhn":
        n = out["players"]
        if "pot" in out and "ante" in out:
            raise SpecError("give either ante or pot for kuhn, not both")
        cards = out.get("cards", n + 1)
        if cards < n:
            raise SpecError(f"kuhn needs cards >= players, got cards={cards} < players={n}")
        out["cards"] = cards
        if "pot" in out:
            _positive("pot", out["pot"])
        else:
            out["ante"] = _positive("ante", out.get("ante", Fraction(1)))
        out["bet"] = _positive("bet", out.get("bet", Fraction(1)))
        if cards > 60 and n >= 3 or cards > 1000:
            raise SpecError(f"kuhn with {n} players and {cards} cards is too large to compile")
    if info.name in ("kuhn_third_street", "skp"):
        out["pot"] = _positive("pot", out.get("pot", Fraction(3 if info.name != "skp" else 9)))
        if info.name == "kuhn_third_street":
            cards = out.get("cards", 4)
            if cards < 4:
                raise SpecError(f"kuhn_third_street needs cards >= 4, got {cards}")
            if cards != 4 and out.get("rational", False):
                raise SpecError("rational=true is defined for the paper's 4-card deck only")
            out["cards"] = cards
            out["rational"] = out.get("rational", False)
        else:
            out["rational"] = out.get("rational", True)
    # canonical order
    order = [p.name for p in info.params if p.name in out]
    return {k: out[k] for k in order}


def load_game(spec: str) -> Game:
    """Compile a game from a spec string such as ``"kuhn(players=3, cards=5, pot=4)"``.

    Raises
    ------
    SpecError
        For an unknown game or parameter, or an invalid value.
    """
    parsed = parse_spec(spec)
    info = GAMES.get(parsed.name)
    if info is None:
        raise SpecError(f"unknown game {parsed.name!r}; known: {', '.join(GAMES)}")
    params = _validate(info, parsed)
    canonical = format_spec(info.name, params)
    return Game(info.build(params), canonical)


__all__ = ["GAMES", "GameInfo", "Param", "load_game"]
