"""Which layout a command runs a game on, said before anything is built.

The layout is :func:`toypoker.load_game`'s choice (:func:`~toypoker.layouts.choose_layout`:
counted before building, the faster that fits; ``--layout rows|vector`` forces one).
This module adds what a command knows and the game does not -- its method and flags:

* what the vector layout cannot run (``--team``, the deal-sampling MCCFR, the exact
  enumerator, TMECor, the exact LP under a team's payoff map) runs on the deal table
  where it fits, or is refused in one line naming the way out (:func:`command_layout`);
* ``eval --exact``, ``eval --team`` and ``verify`` need the deal table: refused at once
  where it does not fit (:func:`rows_or_refuse`);
* :func:`build_on_layout` says the counted size, then builds.

Whether the rows may be built at all is one rule, ``load_game``'s own size check
(:func:`~toypoker.games.check_size`, its budget ``TOYPOKER_MAX_BYTES``), asked without
building (:func:`~toypoker.layouts.choice.rows_refusal`).
"""

from __future__ import annotations

import dataclasses
import functools
import time

from ..errors import ToypokerError
from ..game import Game
from ..games import load_game, parse_game_spec
from ..games.layout_count import LayoutCount
from ..io import size_text
from ..layouts import LayoutChoice, build, choose_layout
from ..layouts import load_game as tp_load_game
from ..layouts.choice import check_layout, rows_refusal, vector_count
from ..spec import format_spec
from .common import err

ROW_LAYOUT_LIMIT = 2 * 10**9
"""Counted bytes of the deal table past which a run the vector layout cannot do is not
sent to the rows unasked: it is refused, naming ``--layout rows``."""

VECTOR_METHODS = "the CFR family, fp, pcs-cfr+ or lp"
"""The methods the vector layout runs, as a refusal names them."""


def rows_text(counted: LayoutCount) -> str:
    """``32,873,711 rows, about 6.6 GB``: the counted row layout."""
    return f"{counted.rows:,} rows, about {size_text(counted.row_bytes)}"


def _on_vector(method: str, spec: str) -> bool:
    """Whether ``method`` runs on ``spec``'s vector layout: one of its methods, and not
    the exact LP under a team's payoff map (:mod:`~toypoker.layouts.vector.sequence_form`)."""
    from ..layouts.vector.methods import runs_on_vectors  # the solvers load with it

    return runs_on_vectors(method) and not (method == "lp" and parse_game_spec(spec)[2])


def team_gain_note(spec: str) -> str:
    """The line saying a weak team's gain is not computed on the vector layout (its
    lifted best response reads the rows), with the rows as the way where they fit."""
    way = "--layout rows computes it" if rows_refusal(spec) is None else "its rows are too large"
    return f"team gain: not computed on the vector layout ({way})"


def command_layout(spec: str, method: str | None, layout: str, *, team: bool) -> LayoutChoice:
    """The layout a ``toypoker solve`` (``method``) or ``eval`` (None) run takes.

    :func:`~toypoker.layouts.choose_layout`'s choice, except that a run the vector layout
    cannot do (``--team``, a method it does not run) goes to the deal table with
    ``--layout auto`` where that fits, and is refused in one line naming the way out
    otherwise (and always with ``--layout vector``)."""
    check_layout(layout)
    strong = bool(parse_game_spec(spec)[2].get("strong"))
    if strong and layout == "auto":  # strong collusion lives on the rows: their size first
        rows_or_refuse(
            spec, "strong collusion", "weak teams (strong=false) run on the vector layout", layout
        )
    if not (strong and layout == "vector"):
        choice = choose_layout(spec, layout)
        if layout != "auto":
            choice = dataclasses.replace(choice, why=f"--layout {layout}")
        if choice.layout == "rows":
            return choice
    else:
        info, params, _ = parse_game_spec(spec)
        choice = LayoutChoice(
            "vector", "--layout vector", vector_count(format_spec(info.name, params))
        )
    if strong:
        blocker = "strong collusion"
    elif team:
        blocker = "--team"
    elif method is not None and not _on_vector(method, spec):
        blocker = f"--method {method}"
    else:
        return choice
    counted = choice.counted
    refused = rows_refusal(spec)
    small = counted is None or counted.row_bytes <= ROW_LAYOUT_LIMIT
    rhode = parse_game_spec(spec)[0].name == "rhode_island"  # on vectors unless asked
    if layout == "auto" and refused is None and small and not rhode:
        return LayoutChoice("rows", f"{blocker} runs on the deal table", counted)
    methods = VECTOR_METHODS if method != "lp" else "the CFR family, fp or pcs-cfr+"
    instead = "leave out --team" if team else f"use {methods}"
    if refused is None and small:
        where = "" if counted is None else f" ({rows_text(counted)})"
        way = f"--layout rows {'runs' if method else 'evaluates'} it on the rows{where}"
    elif refused is None:
        assert counted is not None
        way = (
            f"its row layout is {rows_text(counted)} (--layout rows builds them anyway); {instead}"
        )
    else:
        methods = VECTOR_METHODS if method != "lp" else "the CFR family, fp or pcs-cfr+"
        instead = "leave out --team" if team else f"use {methods}"
        if strong:
            instead = "strong=false runs on vectors"
        size = "its rows" if counted is None else f"its row layout is {rows_text(counted)}"
        way = f"{size}, too large to compile; {instead}"
    raise ToypokerError(f"{blocker} does not run on the vector layout; {way}")


def rows_or_refuse(spec: str, what: str, instead: str, layout: str) -> None:
    """Refuse at once (one line, nothing built) ``what`` -- a computation only the deal
    table does -- where the deal table does not fit (``load_game``'s own check), naming
    ``instead`` (what runs on the vector layout)."""
    if layout not in ("auto", "rows"):
        raise ToypokerError(f"{what} runs on the row layout only: --layout auto or rows")
    refused = rows_refusal(spec)
    if refused is not None:
        info, params, _ = parse_game_spec(spec)
        counted = vector_count(format_spec(info.name, params))  # collusion keeps the rows
        size = f"{rows_text(counted)}, " if counted is not None else ""
        raise ToypokerError(f"{what} needs the row layout: {size}too large to compile; {instead}")


def build_on_layout(spec: str, choice: LayoutChoice) -> Game:
    """Say ``spec``'s counted vector layout (size and memory) when it goes there, then
    build it (:func:`toypoker.layouts.build`)."""
    counted = choice.counted
    if choice.layout != "vector":
        return load_game(spec).with_builder(functools.partial(tp_load_game, layout="rows"))
    if counted is not None:
        err.print(
            f"vector layout: {counted.public_nodes:,} public nodes x {counted.players} players "
            f"x {counted.hands} hands = {counted.entries:,} entries, about "
            f"{size_text(counted.vector_bytes)}; building (deal-free)...",
            highlight=False,
            soft_wrap=True,
        )
    t0 = time.perf_counter()
    game = build(spec, choice)
    err.print(f"built in {time.perf_counter() - t0:.1f} s")
    return game
