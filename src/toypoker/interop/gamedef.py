"""ACPC game definitions as text: the :class:`Gamedef` record, read from a gamedef
(:func:`parse_gamedef`: keys, values and ACPC's limits checked, one line naming the line
or key at fault) and written back (:func:`format_gamedef`, and OpenSpiel's
``universal_poker`` parameters).  What a gamedef means as a toypoker game is
:mod:`toypoker.interop.acpc`'s, which re-exports these names.
"""

from __future__ import annotations

from dataclasses import dataclass

from toypoker.checks import check_text
from toypoker.errors import ToypokerError
from toypoker.games.holdem import MAX_CAP

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
    values, where = _read_keys(_body(text))
    n, rounds = _check_counts(values, where)
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


def _body(text: str) -> list[tuple[int, str]]:
    """The numbered lines between ``GAMEDEF`` and ``END GAMEDEF`` (blank lines and
    comments left out)."""
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
    return lines[1:end]


def _read_keys(
    lines: list[tuple[int, str]],
) -> tuple[dict[str, tuple[int, ...]], dict[str, str]]:
    """Each key's values (ACPC's spelling) and the line it is on; limit betting and
    the required keys checked."""
    values: dict[str, tuple[int, ...]] = {}
    where: dict[str, str] = {}
    betting = None
    for num, ln in lines:
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
    return values, where


def _check_counts(values: dict[str, tuple[int, ...]], where: dict[str, str]) -> tuple[int, int]:
    """The players and rounds, checked, and the number of values of every key
    (``firstPlayer`` defaults to seat 1 in every round)."""
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
    return n, rounds


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
