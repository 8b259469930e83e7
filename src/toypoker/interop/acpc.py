"""ACPC game definitions (``.game`` files): read them as toypoker games, write them back.

The Annual Computer Poker Competition describes a poker game as a block of text
between ``GAMEDEF`` and ``END GAMEDEF``: ``limit``, ``numPlayers``, ``numRounds``,
``blind``, ``raiseSize``, ``firstPlayer``, ``maxRaises``, ``numSuits``, ``numRanks``,
``numHoleCards``, ``numBoardCards`` (``to_gamedef(load_game("leduc"))`` prints Leduc's;
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
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..checks import check_text
from ..errors import ToypokerError
from ..game import Game, check_game, make_label
from ..games import canonical_spec, load_game
from ..games.hands import EVALUATORS, RANK_CHARS, SUIT_CHARS, card_name
from ..games.holdem import MAX_CAP
from ..games.rhode_island import holdem_params as rhode_island_holdem
from ..profile import Profile
from ..spec import format_spec

# ACPC's limits (project_acpc_server/game.h)
MAX_PLAYERS, MAX_ROUNDS, MAX_SUITS, MAX_RANKS = 10, 4, 4, 13
MAX_HOLE_CARDS, MAX_BOARD_CARDS = 3, 7
MAX_GAMEDEF_BYTES = 2**20
"""Largest gamedef file read (a real one is a few hundred bytes)."""

SCALARS = ("numPlayers", "numRounds", "numSuits", "numRanks", "numHoleCards")
PER_PLAYER = ("blind", "stack")
PER_ROUND = ("raiseSize", "firstPlayer", "maxRaises", "numBoardCards")
KEYS = {k.lower(): k for k in SCALARS + PER_PLAYER + PER_ROUND}
REQUIRED = (*SCALARS, "blind", "raiseSize", "maxRaises", "numBoardCards")

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

# collusion parameters any game may carry (toypoker.games.collusion)
TEAM_PARAMS = ("team", "sharing", "strong", "merge")


@dataclass(frozen=True)
class Gamedef:
    """A limit ACPC game definition: the values of its keys (``firstPlayer`` 1-based)."""

    players: int
    rounds: int
    blinds: tuple[int, ...]
    raise_sizes: tuple[int, ...]
    first: tuple[int, ...]
    max_raises: tuple[int, ...]
    suits: int
    ranks: int
    hole: int
    board: tuple[int, ...]


def _ints(key: str, words: list[str], where: str) -> tuple[int, ...]:
    try:
        return tuple(int(w) for w in words)
    except ValueError:
        raise ToypokerError(
            f"gamedef {where}: {key} needs whole numbers, got {' '.join(words)!r}"
        ) from None


GAMEDEF_WHAT = "the gamedef text"


def parse_gamedef(text: str) -> Gamedef:
    """Read ACPC gamedef text (``GAMEDEF`` ... ``END GAMEDEF``).

    Parameters
    ----------
    text
        The gamedef; keys are case-insensitive, ``#`` starts a comment line.

    Returns
    -------
    Gamedef
        The values, checked.

    Raises
    ------
    ToypokerError
        One line naming the line or key at fault: a missing or unknown key, a
        wrong number of values, ``nolimit``, a non-positive size, a deck too
        small or too large.
    """
    check_text(text, "gamedef", GAMEDEF_WHAT)
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    lines = [(i + 1, ln.strip()) for i, ln in enumerate(text.splitlines())]
    lines = [(i, ln) for i, ln in lines if ln and not ln.startswith("#")]
    if not lines or lines[0][1].upper() != "GAMEDEF":
        raise ToypokerError("gamedef must start with a line GAMEDEF")
    end = next((k for k, (_, ln) in enumerate(lines) if ln.upper() == "END GAMEDEF"), None)
    if end is None:
        raise ToypokerError("gamedef has no END GAMEDEF line")
    if end + 1 < len(lines):
        raise ToypokerError(f"gamedef line {lines[end + 1][0]}: text after END GAMEDEF")
    values: dict[str, tuple[int, ...]] = {}
    where: dict[str, str] = {}
    betting = None
    for num, ln in lines[1:end]:
        word = ln.lower()
        if word in ("limit", "nolimit"):
            betting = word
            continue
        key, eq, rest = ln.partition("=")
        name = KEYS.get(key.strip().lower())
        if not eq or name is None:
            raise ToypokerError(f"gamedef line {num}: unknown key {key.strip()!r}")
        if name in values:
            raise ToypokerError(f"gamedef line {num}: {name} given twice")
        words = rest.split()
        if not words:
            raise ToypokerError(f"gamedef line {num}: {name} has no value")
        values[name] = _ints(name, words, f"line {num}")
        where[name] = f"line {num}"
    if betting is None:
        raise ToypokerError("gamedef: give the betting type (a line 'limit')")
    if betting == "nolimit":
        raise ToypokerError("gamedef: nolimit betting is not supported (toypoker plays limit only)")
    for key in REQUIRED:
        if key not in values:
            raise ToypokerError(f"gamedef: {key} missing")
    for key in SCALARS:
        if len(values[key]) != 1:
            raise ToypokerError(f"gamedef {where[key]}: {key} takes one value")
    n, rounds = values["numPlayers"][0], values["numRounds"][0]
    if not 2 <= n <= MAX_PLAYERS:
        raise ToypokerError(f"gamedef {where['numPlayers']}: numPlayers must be 2..{MAX_PLAYERS}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ToypokerError(f"gamedef {where['numRounds']}: numRounds must be 1..{MAX_ROUNDS}")
    values.setdefault("firstPlayer", (1,) * rounds)
    for key, count, unit in [(k, n, "player") for k in PER_PLAYER] + [
        (k, rounds, "round") for k in PER_ROUND
    ]:
        if key in values and len(values[key]) != count:
            raise ToypokerError(
                f"gamedef {where.get(key, '')}: {key} needs {count} values (one per {unit}), "
                f"got {len(values[key])}".replace("gamedef :", "gamedef:")
            )
    gd = Gamedef(
        players=n,
        rounds=rounds,
        blinds=values["blind"],
        raise_sizes=values["raiseSize"],
        first=values["firstPlayer"],
        max_raises=values["maxRaises"],
        suits=values["numSuits"][0],
        ranks=values["numRanks"][0],
        hole=values["numHoleCards"][0],
        board=values["numBoardCards"],
    )
    _check(gd, where)
    if "stack" in values:
        need = _max_commitment(gd)
        short = [s for s in values["stack"] if s < need]
        if short:
            raise ToypokerError(
                f"gamedef {where['stack']}: stack {short[0]} is below the {need} chips a player "
                "may commit; all-in is not supported"
            )
    return gd


def _check(gd: Gamedef, where: dict[str, str]) -> None:
    def bad(key: str, msg: str) -> ToypokerError:
        return ToypokerError(
            f"gamedef {where.get(key, '')}: {key} {msg}".replace("gamedef :", "gamedef:")
        )

    if not 1 <= gd.suits <= MAX_SUITS:
        raise bad("numSuits", f"must be 1..{MAX_SUITS}")
    if not 1 <= gd.ranks <= MAX_RANKS:
        raise bad("numRanks", f"must be 1..{MAX_RANKS}")
    if not 1 <= gd.hole <= MAX_HOLE_CARDS:
        raise bad("numHoleCards", f"must be 1..{MAX_HOLE_CARDS}")
    if any(b < 0 for b in gd.blinds) or not any(gd.blinds):
        raise bad("blind", "must be >= 0 with at least one > 0 (chips in the pot to win)")
    if any(r <= 0 for r in gd.raise_sizes):
        raise bad("raiseSize", "must be positive")
    if any(not 0 <= m <= MAX_CAP for m in gd.max_raises):
        raise bad("maxRaises", f"must be 0..{MAX_CAP} (bets and raises a round)")
    if any(not 1 <= f <= gd.players for f in gd.first):
        raise bad("firstPlayer", f"must be seats 1..{gd.players}")
    if any(b < 0 for b in gd.board) or sum(gd.board) > MAX_BOARD_CARDS:
        raise bad("numBoardCards", f"must be >= 0 and at most {MAX_BOARD_CARDS} in all")
    if gd.board[0]:
        raise bad("numBoardCards", "before the first betting round are not supported")
    dealt = gd.players * gd.hole + sum(gd.board)
    if dealt > gd.ranks * gd.suits:
        raise ToypokerError(
            f"gamedef: deals {dealt} cards from a deck of {gd.ranks} ranks x {gd.suits} suits"
        )


def _max_commitment(gd: Gamedef) -> int:
    """The most chips one player can put in: the largest blind and every raise (ACPC's
    ``maxRaises`` counts the first bet of a round too)."""
    return max(gd.blinds) + sum(m * r for m, r in zip(gd.max_raises, gd.raise_sizes, strict=True))


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
        As in :func:`toypoker.games.load_game`.

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
    return load_game(gamedef_spec(text), max_bytes=max_bytes)


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


def format_gamedef(gd: Gamedef) -> str:
    """ACPC gamedef text (keys in ACPC's spelling, one per line)."""

    def row(key: str, values: tuple[int, ...]) -> str:
        return f"{key} = {' '.join(map(str, values))}"

    lines = [
        "GAMEDEF",
        "limit",
        row("numPlayers", (gd.players,)),
        row("numRounds", (gd.rounds,)),
        row("blind", gd.blinds),
        row("raiseSize", gd.raise_sizes),
        row("firstPlayer", gd.first),
        row("maxRaises", gd.max_raises),
        row("numSuits", (gd.suits,)),
        row("numRanks", (gd.ranks,)),
        row("numHoleCards", (gd.hole,)),
        row("numBoardCards", gd.board),
        "END GAMEDEF",
    ]
    return "\n".join(lines) + "\n"


def to_gamedef(game: Game) -> str:
    """ACPC gamedef text of ``game`` (see :func:`gamedef_of` for what is refused).

    Examples
    --------
    >>> import toypoker as tp
    >>> print(tp.to_gamedef(tp.load_game("leduc(players=2)")).splitlines()[0])
    GAMEDEF
    """
    return format_gamedef(gamedef_of(game))


def universal_poker_params(gd: Gamedef) -> dict[str, object]:
    """The gamedef as OpenSpiel ``universal_poker`` parameters (limit betting)."""

    def words(values: tuple[int, ...]) -> str:
        return " ".join(map(str, values))

    return {
        "betting": "limit",
        "numPlayers": gd.players,
        "numRounds": gd.rounds,
        "blind": words(gd.blinds),
        "raiseSize": words(gd.raise_sizes),
        "firstPlayer": words(gd.first),
        "maxRaises": words(gd.max_raises),
        "numSuits": gd.suits,
        "numRanks": gd.ranks,
        "numHoleCards": gd.hole,
        "numBoardCards": words(gd.board),
    }


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
