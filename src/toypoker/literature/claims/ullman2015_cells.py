"""The cells of Ullman's (2015) bet-percentage tables in our games: which decision a
printed cell names, and the probability a profile puts chips in there.  Shared by
:mod:`.ullman2015` (the tables against our equilibria) and :mod:`.ullman2015_runs`
(the tables against his fictitious play's runs)."""

from __future__ import annotations

from collections.abc import Iterator

from toypoker.game import Game
from toypoker.literature.papers import ullman2015
from toypoker.profile import Profile


def digits(printed: float) -> float:
    """Half a unit of the last printed digit (``0.0905`` -> ``5e-5``)."""
    s = repr(float(printed)).rstrip("0").rstrip(".")
    dec = len(s.split(".")[1]) if "." in s else 0
    return 0.5 * 10.0**-dec


def _private(game: Game, hand: str) -> tuple[int, ...]:
    """Our private ranks of the thesis's holding ``"25"`` (ranks 2..6 -> 1..5)."""
    return tuple(sorted(int(ch) - 1 for ch in hand))


def norm(history: str) -> str:
    """A history with every chip-putting action written ``b`` (``c``, ``r`` -> ``b``)."""
    return history.replace("c", "b").replace("r", "b")


def decision(
    game: Game, player: int, hand: str, history: str
) -> tuple[int, int, int | None] | None:
    """``(offset, number of actions, index of fold or None)`` of ``player``'s decision
    holding ``hand`` after ``history`` (``None`` if no such decision exists)."""
    want = _private(game, hand)
    for info in game.infosets_of(player):
        if tuple(info.private) == want and norm(info.history) == history:
            k = info.actions.index("f") if "f" in info.actions else None
            return info.offset, len(info.actions), k
    return None


def bet_probability(
    game: Game, profile: Profile, player: int, hand: str, history: str
) -> float | None:
    """The probability that ``player`` holding ``hand`` puts in chips after ``history``
    (``None`` if no such decision exists)."""
    at = decision(game, player, hand, history)
    if at is None:
        return None
    offset, n, k = at
    p = profile.probs[offset : offset + n]
    return float(1.0 - p[k]) if k is not None else 1.0


def table_cells(
    table: ullman2015.BetTable,
) -> Iterator[tuple[str, str, int, str, str, float]]:
    """Each printed cell of a bet table: ``(row, column, player, hand, history in our
    terms, printed percentage)`` -- Table 3's columns are flops, its hand the row's."""
    for row, printed in table.rows.items():
        player, history = table.situations[row]
        for col, pct in zip(table.columns, printed, strict=True):
            hand, hist = col, history
            if table.hole is not None:
                hand = table.hole
                pre, _, post = history.partition("/")
                hist = f"{pre}/{flop(col)}{post}"
            yield row, col, player, hand, hist, pct


def flop(cards: str) -> str:
    """A flop in our histories: ``"23"`` -> ``"[12]"`` (1-based ranks 2..6 -> 1..5)."""
    return "[" + "".join(str(int(ch) - 1) for ch in cards) + "]"
