"""Tables for people: strategies (one column per action) and values."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table

from toypoker.cli.common import num, seat_names
from toypoker.engines.protocol import Evaluation, TeamEvaluation
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.games.team_transform import Team
from toypoker.io import exact_text
from toypoker.profile import Profile


def team_option(digits: str, n_players: int, own: Team | None = None) -> Team:
    """``--team digits`` checked against a game of ``n_players`` seats whose spec names
    the team ``own`` (or none): one line each for a seat out of range, fewer than two
    distinct seats, every seat, or seats other than the spec's team.  The spec's own
    team (its sharing and strength) where they agree, else the parsed team.

    Raises
    ------
    ToypokerError
        As said above (a :class:`~toypoker.errors.SpecError` from :meth:`Team.parse`
        for what is not 1-based digits).
    """
    text = str(digits).strip()
    if text.isdigit() and "0" not in text:
        beyond = [int(c) for c in text if int(c) > n_players]
        if beyond:
            raise ToypokerError(
                f"--team {text}: seat {beyond[0]} is out of range (seats 1..{n_players})"
            )
    team = Team.parse(text)
    team.check(n_players)
    if own is None:
        return team
    if team.seats != own.seats:
        raise ToypokerError(
            f"--team {text} conflicts with the spec's team={own.digits}: give the team "
            "once (or the same seats)"
        )
    return own


def team_of(game: Game, digits: str | None) -> Team | None:
    """``--team`` checked (:func:`team_option`: the spec's team, if any, must agree),
    else the game's own collusion team (none for a merged team's game, whose team is
    one player)."""
    own = Team.of_params(game.params)
    merged = bool(game.params.get("merge"))
    if digits is not None:
        seats = game.n_players + (len(own.seats) - 1 if merged and own else 0)
        team = team_option(digits, seats, own)
        if own is None:
            return team
    return None if merged else own


def team_lines(te: TeamEvaluation, target: float | None = None) -> list[str]:
    """The team's joint best-response gain and the outsiders' gains, one line; a second
    when the team's gain exceeds ``target`` (the run's target: NashConv or largest gain)."""
    outs = ", ".join(f"P{p + 1} {num(g)}" for p, g in zip(te.outsiders, te.outsider_gains,
                                                         strict=True))  # fmt: skip
    how = f"({te.how})" if "(" not in te.how else f"by {te.how}"  # no nested parentheses
    lines = [
        f"team {seat_names(te.team)} {how}: value {num(te.value)}, joint best response "
        f"{num(te.br_value)}, team gain {num(te.gain)}; outsider gain {outs}"
    ]
    if target is not None and float(te.gain) > target:
        lines.append(
            f"[bold yellow]the team's joint gain {float(te.gain):.3g} exceeds the target "
            f"{target:g}: its members are not coordinated (NashConv does not show this)[/]"
        )
    return lines


SHORT_PROBABILITY = 5
"""Exact probabilities written with at most this many characters (``2/3``, ``1/18``)
print as fractions in a strategy table; longer ones as 6 decimals."""


def prob_text(x: object, decimals: int | None, fractions: bool = False) -> str:
    """A probability: ``decimals`` places; by default 3 for a float, and for an exact
    number its fraction when short (:data:`SHORT_PROBABILITY`), else 6 decimals; every
    exact one as its whole fraction with ``fractions``."""
    if decimals is None and isinstance(x, Fraction):
        text = exact_text(x)
        if fractions or len(text) <= SHORT_PROBABILITY:
            return text
        return f"{float(x):.6f}"
    return f"{float(x):.{3 if decimals is None else decimals}f}"


#: characters of a table's frame around its columns: a border and padding each side
_FRAME = 3


class WrappedColumns:
    """A table whose value columns are wrapped to the width it is printed at: one table
    for each group of columns that fits, each saying which of the columns it shows --
    no column is ever squeezed out of sight (rich shrinks them to nothing otherwise).

    Parameters
    ----------
    title, caption
        Of the whole table.
    head
        The first column's header; its cells (``rows[i][0]``) fold when too long.
    columns
        The value columns' headers.
    rows
        ``(first cell, [one cell per value column])``.
    what
        What the columns are, for the titles of a wrapped table (``"actions"``).
    """

    def __init__(self, title: str, caption: str | None, head: str, columns: list[str],
                 rows: list[tuple[str, list[str]]], what: str) -> None:  # fmt: skip
        self.title, self.caption, self.head = title, caption, head
        self.columns, self.rows, self.what = columns, rows, what

    def tables(self, width: int) -> list[Table]:
        """The tables that print within ``width`` characters."""
        label_w = min(20, max([len(self.head) // 2, *(len(r[0]) for r in self.rows)]))
        cell_w = [
            max([len(c), *(len(r[1][k]) for r in self.rows)]) for k, c in enumerate(self.columns)
        ]
        room = width - label_w - 2 * _FRAME
        parts: list[list[int]] = [[]]
        used = 0
        for k, w in enumerate(cell_w):
            if parts[-1] and used + w + _FRAME > room:
                parts.append([])
                used = 0
            parts[-1].append(k)
            used += w + _FRAME
        tables = []
        for n, part in enumerate(parts):
            title = self.title
            if len(parts) > 1:
                shown = ", ".join(self.columns[k] for k in part)
                title += f" ({n + 1}/{len(parts)}: {shown} of {len(self.columns)} {self.what})"
            t = Table(title=title, title_justify="left", caption=self.caption,
                      caption_justify="left")  # fmt: skip
            t.add_column(self.head, overflow="fold", min_width=label_w)
            for k in part:
                t.add_column(self.columns[k], justify="right", no_wrap=True, min_width=cell_w[k])
            for first, cells in self.rows:
                t.add_row(first, *(cells[k] for k in part))
            tables.append(t)
        return tables

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.tables(options.max_width)


def strategy_table(
    profile: Profile, decimals: int | None = None, limit: int = 200, fractions: bool = False
) -> WrappedColumns:
    """One row per infoset, one column per action of the game (wrapped into several
    tables on a narrow terminal, :class:`WrappedColumns`).

    Floating profiles print 3 decimals by default, exact ones short fractions or 6
    decimals (:func:`prob_text`).  Restricted (forced) infosets are dim.
    """
    g = profile.game
    actions: list[str] = []
    for i in g.infosets:
        for a in i.actions:
            if a not in actions:
                actions.append(a)
    rows = []
    for i in g.infosets[:limit]:
        cells = [""] * len(actions)
        for k, a in enumerate(i.actions):
            cells[actions.index(a)] = prob_text(profile.probs[i.offset + k], decimals, fractions)
        if i.restricted:
            cells = [f"[dim]{c}[/dim]" if c else c for c in cells]
        rows.append((i.label, cells))
    more = len(g.infosets) - limit
    return WrappedColumns(
        "Strategy: probability of each action",
        f"... {more} more infosets; save all with -o or --csv" if more > 0 else None,
        "infoset (player:cards:history)",
        actions,
        rows,
        "actions",
    )


def player_names(game: Game | None, n: int) -> list[str]:
    """``P1``, ``P2``, ...; in a strong team's merged game (``merge=true``) the team's
    player says so (``P1 (team P1+P2)``) and an outsider its seat when it moved."""
    names = [f"P{p + 1}" for p in range(n)]
    team = Team.of_params(game.params) if game is not None and game.params.get("merge") else None
    if team is None or game is None:
        return names
    seats = n + len(team.seats) - 1  # the members' game
    for seat, q in enumerate(team.merged_seat(seats)):
        if seat == team.seats[0]:
            names[q] = f"P{q + 1} (team {seat_names(team.seats)})"
        elif seat not in team.seats and seat != q:
            names[q] = f"P{q + 1} (seat {seat + 1})"
    return names


def values_table(
    ev: Evaluation, decimals: int | None = None, fractions: bool = False, game: Game | None = None
) -> Table:
    """Expected value, best-response value and gain of each player, and NashConv:
    12 significant digits (short fractions also as ``p/q``; every fraction in full,
    folded, with ``fractions``), or ``decimals`` places.  With ``game``, a merged
    team's player is named (:func:`player_names`)."""

    def fmt(x: object) -> str:
        return num(x, fractions) if decimals is None else f"{float(x):.{decimals}f}"

    t = Table(
        title="Expected values and best responses",
        title_justify="left",
        caption=f"NashConv = {fmt(ev.nash_conv)}",
        caption_justify="left",
    )
    t.add_column("player")
    for c in ("expected value", "best-response value", "gain"):
        t.add_column(c, justify="right", overflow="fold")
    names = player_names(game, len(ev.values))
    for p, (v, b, gn) in enumerate(zip(ev.values, ev.br_values, ev.gains, strict=True)):
        t.add_row(names[p], fmt(v), fmt(b), fmt(gn))
    return t


def set_text(s: object, symbol: str = "P") -> str:
    """A sympy set as people write it: ``5 < P``, ``0 <= x <= 1/2``, unions with "or"."""
    if isinstance(s, sp.Union):
        return " or ".join(set_text(a, symbol) for a in s.args)
    if isinstance(s, sp.FiniteSet):
        return " or ".join(f"{symbol} = {sp.sstr(a)}" for a in s.args)
    if isinstance(s, sp.Interval):
        lo, hi = s.start, s.end
        parts = []
        if lo != -sp.oo:
            parts.append(f"{sp.sstr(lo)} {'<' if s.left_open else '<='} ")
        parts.append(symbol)
        if hi != sp.oo:
            parts.append(f" {'<' if s.right_open else '<='} {sp.sstr(hi)}")
        return "".join(parts) if len(parts) > 1 else f"any {symbol}"
    return sp.sstr(s)
