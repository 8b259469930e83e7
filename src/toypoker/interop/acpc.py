"""ACPC game definitions (``.game`` files): read them as toypoker games, write them back.

The Annual Computer Poker Competition describes a poker game as a block of text
between ``GAMEDEF`` and ``END GAMEDEF``: ``limit``, ``numPlayers``, ``numRounds``,
``blind``, ``raiseSize``, ``firstPlayer``, ``maxRaises``, ``numSuits``, ``numRanks``,
``numHoleCards``, ``numBoardCards`` (``to_gamedef(load_rows("leduc"))`` prints Leduc's;
the docs' "your own game" tutorial shows one whole).  OpenSpiel's ``universal_poker``
takes the same keys as game parameters.  ACPC's limit rules are those of our limit builder
(:mod:`toypoker.games.limit`): a round ends when every live player has called
the last raise; a player may fold only when facing a bet; checking or calling
is always legal; the blinds are the bet to call in the first round (a first bet
above the largest blind is a raise, so the big blind has the option to raise);
``maxRaises`` caps the bets and raises of a round; ``firstPlayer`` (1-based)
acts first in each round.  Showdowns use poker hand ranks (our ``standard``
evaluator): pairs and better below five cards, straights and flushes from five
cards on.

A gamedef is mapped onto the ``holdem(...)`` spec (:func:`gamedef_spec`), so
the game's spec is canonical and reloadable.  Blinds become an ante (the
blind every seat pays, the smallest one) plus ``blind1``/``blind2`` for what
seats 1 and 2 pay on top: ``blind = 2 1`` is ``ante=1,blind1=1`` and
``blind = 1 1`` (Kuhn, Leduc) is ``ante=1``; seats 3 and later must all post
that smallest blind.  :func:`to_gamedef` goes back, for ``holdem``, ``kuhn`` and
``leduc`` games that ACPC can express.

Not supported (each is a :class:`~toypoker.errors.ToypokerError` naming the
line or key): ``nolimit`` betting, board cards before the first betting round,
stacks small enough for a player to go all in, and anything ACPC itself
refuses (more than 10 players, 4 rounds, 4 suits, 13 ranks, 3 hole or 7
board cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from toypoker.errors import ToypokerError
from toypoker.game import Game, check_game, make_label
from toypoker.games import canonical_spec, load_rows
from toypoker.games.hands import EVALUATORS, RANK_CHARS, SUIT_CHARS, card_name
from toypoker.games.rhode_island import holdem_params as rhode_island_holdem
from toypoker.interop.gamedef import (  # noqa: F401 (re-exported: imported from here)
    GAMEDEF_WHAT,
    KEYS,
    MAX_BOARD_CARDS,
    MAX_GAMEDEF_BYTES,
    MAX_HOLE_CARDS,
    MAX_PLAYERS,
    MAX_RANKS,
    MAX_ROUNDS,
    MAX_SUITS,
    PER_PLAYER,
    PER_ROUND,
    REQUIRED,
    SCALARS,
    Gamedef,
    _check,
    format_gamedef,
    parse_gamedef,
    universal_poker_params,
)
from toypoker.profile import Profile
from toypoker.spec import format_spec

KUHN = """GAMEDEF
limit
numPlayers = 2
numRounds = 1
blind = 1 1
raiseSize = 1
firstPlayer = 1
maxRaises = 1
numSuits = 1
numRanks = 3
numHoleCards = 1
numBoardCards = 0
END GAMEDEF
"""
"""Kuhn poker as an ACPC gamedef (what :func:`to_gamedef` writes for ``kuhn(players=2)``)."""

# collusion parameters any game may carry (toypoker.games.team_transform)
TEAM_PARAMS = ("team", "sharing", "strong", "merge")


def gamedef_spec(gamedef: str | Gamedef) -> str:
    """The canonical ``holdem(...)`` spec of a gamedef (its text or :class:`Gamedef`).

    >>> gamedef_spec(KUHN)
    'holdem(players=2,ranks=3,suits=1,hole=1,rounds=1,ante=1,check=true,evaluator=standard,bet1=1,cap1=1,first1=1)'
    """
    gd = gamedef if isinstance(gamedef, Gamedef) else parse_gamedef(gamedef)
    ante = min(gd.blinds)
    if any(b != ante for b in gd.blinds[2:]):
        raise ToypokerError(
            f"gamedef: blind {' '.join(map(str, gd.blinds))} is not expressible: seats 3 and "
            "later must post the smallest blind"
        )
    params: dict[str, object] = {
        "players": gd.players,
        "ranks": gd.ranks,
        "suits": gd.suits,
        "hole": gd.hole,
        "rounds": gd.rounds,
        "ante": ante,
        "evaluator": "standard",
    }
    for seat in (0, 1):
        if gd.blinds[seat] != ante:
            params[f"blind{seat + 1}"] = gd.blinds[seat] - ante
    for i in range(gd.rounds):
        if i:
            params[f"board{i + 1}"] = gd.board[i]
        params[f"bet{i + 1}"] = gd.raise_sizes[i]
        params[f"cap{i + 1}"] = gd.max_raises[i]
        params[f"first{i + 1}"] = gd.first[i]
    return canonical_spec(format_spec("holdem", params))


def load_gamedef(text: str, *, max_bytes: int | None = None) -> Game:
    """The toypoker game of ACPC gamedef text (a ``holdem(...)`` game).

    Parameters
    ----------
    text
        The gamedef (see :func:`parse_gamedef`).
    max_bytes
        As in :func:`toypoker.games.load_rows`.

    Raises
    ------
    ToypokerError
        For a malformed or unsupported gamedef, or a game too large to compile.

    Examples
    --------
    >>> import toypoker as tp
    >>> text = tp.to_gamedef(tp.load_game("leduc(players=2)"))
    >>> tp.load_gamedef(text).n_infosets
    288
    """
    return load_rows(gamedef_spec(text), max_bytes=max_bytes)


def _whole(value: object, what: str, spec: str) -> int:
    v = Fraction(value)  # type: ignore[arg-type]
    if v.denominator != 1:
        raise ToypokerError(
            f"ACPC cannot express {spec}: {what} {v} is not a whole number of chips"
        )
    return int(v)


def _holdem_params(game: Game) -> dict[str, object]:
    """The game as ``holdem`` parameters (kuhn and leduc translated), or an error."""
    p, spec = dict(game.params), game.spec
    if game.name == "holdem":
        return p
    if game.name == "kuhn":
        ante = Fraction(p["pot"]) / p["players"] if "pot" in p else p["ante"]  # type: ignore[arg-type]
        return {
            "players": p["players"],
            "ranks": p["cards"],
            "suits": 1,
            "hole": 1,
            "rounds": 1,
            "ante": ante,
            "check": True,
            "evaluator": "high_card",
            "bet1": p["bet"],
            "cap1": 1,
            "first1": 1,
        }
    if game.name == "leduc":
        return {
            "players": p["players"],
            "ranks": p["players"] + 1,  # type: ignore[operator]
            "suits": 2,
            "hole": 1,
            "rounds": 2,
            "ante": 1,
            "check": True,
            "evaluator": "leduc",
            "board2": 1,
            "bet1": 2,
            "bet2": 4,
            "cap1": 2,
            "cap2": 2,
            "first1": 1,
            "first2": 1,
        }
    if game.name == "rhode_island":  # its evaluator (three_card) is refused below
        return rhode_island_holdem(p)
    if game.name == "mercer":
        raise ToypokerError(
            f"ACPC cannot express {spec}: bet-or-fold orbits (checks disallowed); "
            "use holdem(...,check=true) with raise caps"
        )
    raise ToypokerError(f"ACPC cannot express {spec}: no gamedef form for {game.name} games")


def gamedef_of(game: Game) -> Gamedef:
    """The ACPC gamedef of a game, or a :class:`~toypoker.errors.ToypokerError` saying
    what ACPC cannot express (orbits, no checking, collusion, other evaluators,
    fractional chips)."""
    spec = check_game(game).spec
    p = _holdem_params(game)
    team = [k for k in TEAM_PARAMS if k in game.params]
    if team:
        raise ToypokerError(f"ACPC cannot express {spec}: collusion parameters ({', '.join(team)})")
    rounds, n = int(p["rounds"]), int(p["players"])  # type: ignore[call-overload]
    if any(f"orbits{i}" in p for i in range(1, rounds + 1)):
        raise ToypokerError(f"ACPC cannot express {spec}: bet-or-fold orbits")
    if not p["check"]:
        raise ToypokerError(f"ACPC cannot express {spec}: checking disallowed (check=false)")
    hole = int(p["hole"])  # type: ignore[call-overload]
    cards = hole + sum(int(p.get(f"board{i}", 0)) for i in range(2, rounds + 1))  # type: ignore[call-overload]
    ev = p["evaluator"]
    # where another evaluator ranks hands exactly as ACPC's does
    same = (
        ev == "standard"
        or (ev == "high_card" and cards == 1)
        or (ev == "leduc" and hole == 1 and cards == 2)
        or (ev == "ullman4" and cards <= 4)
    )
    if not same:
        raise ToypokerError(
            f"ACPC cannot express {spec}: evaluator={ev} with {cards} cards ranks hands "
            "unlike ACPC's poker hands"
        )
    ante = _whole(p["ante"], "ante", spec)
    blinds = [ante + _whole(p.get(f"blind{s + 1}", 0), "blind", spec) for s in range(2)]
    gd = Gamedef(
        players=n,
        rounds=rounds,
        blinds=tuple(blinds + [ante] * (n - 2)),
        raise_sizes=tuple(_whole(p[f"bet{i}"], f"bet{i}", spec) for i in range(1, rounds + 1)),
        first=tuple(int(p[f"first{i}"]) for i in range(1, rounds + 1)),  # type: ignore[call-overload]
        max_raises=tuple(int(p[f"cap{i}"]) for i in range(1, rounds + 1)),  # type: ignore[call-overload]
        suits=int(p["suits"]),  # type: ignore[call-overload]
        ranks=int(p["ranks"]),  # type: ignore[call-overload]
        hole=hole,
        board=(0, *(int(p.get(f"board{i}", 0)) for i in range(2, rounds + 1))),  # type: ignore[call-overload]
    )
    try:
        _check(gd, {})
    except ToypokerError as e:
        raise ToypokerError(
            f"ACPC cannot express {spec}: {str(e).removeprefix('gamedef: ')}"
        ) from None
    return gd


def to_gamedef(game: Game) -> str:
    """ACPC gamedef text of ``game`` (see :func:`gamedef_of` for what is refused).

    Examples
    --------
    >>> import toypoker as tp
    >>> print(tp.to_gamedef(tp.load_game("leduc(players=2)")).splitlines()[0])
    GAMEDEF
    """
    return format_gamedef(gamedef_of(game))


# --- OpenSpiel's universal_poker (optional dependency open_spiel) -------------------

UP_FOLD, UP_CALL, UP_RAISE = 0, 1, 2  # universal_poker's limit actions


def _field(info: str, name: str) -> str:
    start = info.index(f"[{name}:") + len(name) + 2
    return info[start : info.index("]", start)].strip()


def _cards(text: str, suits: int) -> list[int]:
    """ACPC card names (``"6d5c"``) as codes ``rank * suits + suit``."""
    return [
        RANK_CHARS.index(text[i]) * suits + SUIT_CHARS.index(text[i + 1])
        for i in range(0, len(text), 2)
    ]


def universal_poker_label(
    game: Game, gd: Gamedef, info: str, board: list[int] | None = None
) -> tuple[str, bool]:
    """Our infoset label for a ``universal_poker`` information state string, and
    whether the decision is forced in our tree (one legal action: no infoset).

    ``[Private: ...]`` holds the player's cards, ``[Public: ...]`` the board cards
    dealt so far, ``[Sequences: ...]`` the betting of each round (``|`` between
    rounds; ``c`` check or call, ``r`` bet or raise, ``f`` fold).  Cards become ranks
    (suits merged) or card codes as in our deal table; ``c``/``r`` become ``k``/``b``
    when the player faces no bet (a forced check, raise cap reached, is written
    too, as our histories do).

    OpenSpiel prints the board as a card set, sorted, not in deal order: which card
    came in which round cannot be read from the string once two rounds have board
    cards.  Give ``board``, the board card codes in deal order (the state's chance
    outcomes after the hole cards, :func:`universal_poker_board`); the cards are
    matched to the printed ones by identity.  Without it the printed order is
    taken as the deal order, right only when at most one round deals board cards.
    """
    player = int(_field(info, "Player"))
    suited = EVALUATORS["standard"].suited(gd.hole + sum(gd.board))  # card codes, not ranks
    private = sorted(_cards(_field(info, "Private"), gd.suits))
    shown_board = _cards(_field(info, "Public"), gd.suits)
    if board is None:
        board = shown_board
    elif sorted(board) != sorted(shown_board):
        raise ToypokerError(
            f"universal_poker state {info!r}: the board dealt, {board}, is not the one shown"
        )
    if not suited:
        private = [c // gd.suits for c in private]
    rounds = _field(info, "Sequences").split("|")
    chips, live = list(gd.blinds), [True] * gd.players
    text, dealt, forced, seat = "", 0, False, 0
    for r, seq in enumerate(rounds):
        if r:
            cards = sorted(board[dealt : dealt + gd.board[r]])
            dealt += gd.board[r]
            if cards:
                if suited:
                    shown = "".join(card_name(c, gd.suits) for c in cards)
                else:
                    sep = "" if gd.ranks <= 9 else "-"
                    shown = sep.join(str(c // gd.suits + 1) for c in cards)
                text += f"/[{shown}]"
            else:
                text += "/"
        raises, seat = 0, gd.first[r] - 1
        for letter in seq:
            while not live[seat]:
                seat = (seat + 1) % gd.players
            facing = chips[seat] < max(chips)
            if letter == "f":
                live[seat] = False
                text += "f"
            elif letter == "c":
                chips[seat] = max(chips)
                # a check our tree forces (raise cap reached) is still written in histories
                text += "c" if facing else "k"
            else:
                chips[seat] = max(chips) + gd.raise_sizes[r]
                raises += 1
                text += "r" if facing else "b"
            seat = (seat + 1) % gd.players
        if r == len(rounds) - 1:
            while not live[seat]:
                seat = (seat + 1) % gd.players
            forced = chips[seat] == max(chips) and raises >= gd.max_raises[r]
    if seat != player:  # pragma: no cover - a mismatch of the replay and OpenSpiel
        raise ToypokerError(f"universal_poker state {info!r}: replay says seat {seat} acts")
    return make_label(player, "-".join(str(c + 1) for c in private), text), forced


def universal_poker_game(gd: Gamedef) -> Any:
    """OpenSpiel's ``universal_poker`` with this gamedef (limit betting)."""
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ToypokerError('OpenSpiel is not installed: pip install "toypoker[peers]"') from exc
    return pyspiel.load_game("universal_poker", universal_poker_params(gd))


def universal_poker_policies(
    profiles: Sequence[Profile], gd: Gamedef, os_game: Any
) -> list[dict[str, list]]:
    """Each profile at every information state of ``os_game`` (``universal_poker``):
    ``{information state string: [(action, probability), ...]}``, the form
    ``pyspiel.TabularPolicy`` takes.

    One walk of OpenSpiel's whole tree (small games) finds the boards, in deal order,
    under each information state string (carried down the walk: asking each state for
    its history and parsing its string again made the walk several times slower).  A
    profile's row is then found once per (string, board) pair, the label being a
    function of the two; a string whose boards map to rows that differ is refused."""
    skip = gd.players * gd.hole
    boards: dict[str, dict[tuple[int, ...], list[int]]] = {}
    stack: list[tuple[Any, tuple[int, ...]]] = [(os_game.new_initial_state(), ())]
    while stack:
        state, dealt = stack.pop()
        if state.is_terminal():
            continue
        legal = state.legal_actions()
        if state.is_chance_node():
            stack.extend((state.child(a), (*dealt, a)) for a in legal)
            continue
        boards.setdefault(state.information_state_string(), {}).setdefault(dealt[skip:], legal)
        stack.extend((state.child(a), dealt) for a in legal)
    tables = []
    for profile in profiles:
        table = {}
        for info, seen in boards.items():
            rows = [_action_row(profile, gd, info, list(b), legal) for b, legal in seen.items()]
            if any(row != rows[0] for row in rows):
                raise ToypokerError(
                    f"OpenSpiel's information state {info!r} joins infosets that differ "
                    "(boards of several rounds): play the profile per state with "
                    "universal_poker_action_probs"
                )
            table[info] = rows[0]
        tables.append(table)
    return tables


def universal_poker_policy(profile: Profile, gd: Gamedef, os_game: Any) -> dict[str, list]:
    """:func:`universal_poker_policies` of one profile."""
    return universal_poker_policies([profile], gd, os_game)[0]


def universal_poker_board(gd: Gamedef, state: Any) -> list[int]:
    """The board card codes of a ``universal_poker`` state in deal order: its chance
    outcomes after the ``players x hole`` hole cards (OpenSpiel deals the hole cards
    first, then each round's board; a chance action is the card's code)."""
    dealt = [int(h.action) for h in state.full_history() if int(h.player) < 0]
    return dealt[gd.players * gd.hole :]


def universal_poker_action_probs(
    profile: Profile, gd: Gamedef, state: Any, board: list[int] | None = None
) -> list[tuple[int, float]]:
    """``profile``'s ``[(action, probability), ...]`` at a decision state of OpenSpiel's
    ``universal_poker``, its infoset found by the cards' identity: ``board`` is the
    state's board card codes in deal order, read from the state's history
    (:func:`universal_poker_board`) when not given."""
    if board is None:
        board = universal_poker_board(gd, state)
    return _action_row(profile, gd, state.information_state_string(), board, state.legal_actions())


def _action_row(
    profile: Profile, gd: Gamedef, info: str, board: list[int], legal: list[int]
) -> list[tuple[int, float]]:
    game = profile.game
    letters = {"k": UP_CALL, "c": UP_CALL, "b": UP_RAISE, "r": UP_RAISE, "f": UP_FOLD}
    label, forced = universal_poker_label(game, gd, info, board)
    if forced:
        return [(UP_CALL, 1.0)]
    inf = game.infoset(label)
    probs = profile.probs[inf.offset : inf.offset + len(inf.actions)]
    row = [(letters[a], float(x)) for a, x in zip(inf.actions, probs, strict=True)]
    if sorted(a for a, _ in row) != sorted(legal):
        raise ToypokerError(f"actions of {label} differ from OpenSpiel's at {info}")
    return row
