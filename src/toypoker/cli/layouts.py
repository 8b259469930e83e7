"""Which layout a command runs a game on, said before anything is built.

``toypoker solve`` lets :func:`~toypoker.layouts.vector.methods.choose_layout` pick the
layout; this module says the rest in one line each, from the same count
(:func:`~toypoker.cli.common.row_count`, as ``toypoker info`` prints it):

* what the vector layout cannot run (``--team``, strong collusion, the deal-sampling MCCFR)
  is refused where a run would go there, naming the way out -- ``--layout rows`` when
  the rows fit, else what the vector layout runs (:func:`check_vector_run`);
* ``eval --exact``, ``eval --team`` and ``verify`` need the row layout: a game whose
  counted rows pass :data:`~toypoker.layouts.vector.methods.ROW_LAYOUT_LIMIT` is refused
  at once unless ``--layout rows`` asks for them (:func:`rows_or_refuse`);
* :func:`build_on_vector_layout` says the counted size, then builds: without a deal
  table where :func:`~toypoker.vector.direct.build_vector` has a builder, else by
  compiling the catalogue game and :func:`~toypoker.vector.layout.compile_vector`.

Whether the rows may be built at all is one rule, ``load_game``'s own size check
(:func:`~toypoker.games.check_size`, its budget ``TOYPOKER_MAX_BYTES``):
:func:`~toypoker.cli.common.rows_refusal` asks it without building, and every refusal
here names ``--layout rows`` as a way out only where it admits the rows
(:func:`rows_way`).
:data:`~toypoker.layouts.vector.methods.ROW_LAYOUT_LIMIT` is not a second such rule:
it is the counted size past which a command prefers the vector layout, or asks for
``--layout rows`` before building rows that large.
"""

from __future__ import annotations

import time

from ..errors import ToypokerError
from ..games import load_game, parse_game_spec
from ..games.layout_count import LayoutCount
from ..io import size_text
from ..solvers.vector_solver import (
    LAYOUTS,
    ROW_LAYOUT_LIMIT,
    VECTOR_GAMES,
    check_vector_method,
)
from ..vector.direct import build_vector
from ..vector.layout import VectorGame, compile_vector
from .common import err, row_count, rows_refusal

VECTOR_METHODS = "the CFR family, fp, pcs-cfr+ or lp"
"""The methods the vector layout runs, as a refusal names them
(:func:`~toypoker.layouts.vector.methods.check_vector_method` lists them by name)."""

DIRECT_GAMES = ("kuhn", "holdem", "mercer", "rhode_island")
"""Games :func:`~toypoker.vector.direct.build_vector` builds without a deal table; the
other catalogue games reach the vector layout through their compiled rows."""


def rows_text(counted: LayoutCount) -> str:
    """``32,873,711 rows, about 6.6 GB``: the counted row layout."""
    return f"{counted.rows:,} rows, about {size_text(counted.row_bytes)}"


def rows_way(refusal: str | None) -> str:
    """The parenthesis of a refusal on the rows' size, given ``load_game``'s own
    ``refusal`` of them (:func:`~toypoker.cli.common.rows_refusal`): ``--layout rows
    builds them anyway`` where it admits them (None), else that they are too large to
    compile (never naming an option ``load_game`` would refuse)."""
    if refusal is None:
        return "--layout rows builds them anyway"
    return "too large to compile"


def _on_vector(method: str, spec: str) -> bool:
    """Whether ``method`` runs on ``spec``'s vector layout: one of its methods, and not
    the exact LP under a team's payoff map (:mod:`~toypoker.layouts.vector.sequence_form`)."""
    try:
        check_vector_method(method, spec)
    except ToypokerError:
        return False
    return not (method == "lp" and parse_game_spec(spec)[2])


def team_gain_note(spec: str) -> str:
    """The line saying a weak team's gain is not computed on the vector layout (its
    lifted best response reads the rows), with the rows as the way where they may be
    built (:func:`rows_refusal`)."""
    way = "--layout rows computes it" if rows_refusal(spec) is None else "its rows are too large"
    return f"team gain: not computed on the vector layout ({way})"


def check_vector_run(spec: str, method: str | None, layout: str, *, team: bool) -> None:
    """Refuse, in one line naming the way out, a ``toypoker solve`` run (``method``
    None: an ``eval``) the layout it would take cannot do: ``--team``, strong collusion,
    a row-only method (es-/os-mccfr) or the exact LP under a team's payoff map on the
    vector layout (``--layout vector``; ``rhode_island``, always there), or on a
    ``holdem`` spec whose rows pass :data:`ROW_LAYOUT_LIMIT`.  The way out: ``--layout
    rows`` where the rows fit (past the limit, where ``load_game`` admits them:
    :func:`rows_way`), else what the vector layout runs (its methods, ``strong=false``,
    or leaving out ``--team``)."""
    if layout not in LAYOUTS:
        raise ToypokerError(f"--layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    info, _, coll = parse_game_spec(spec)
    strong = bool(coll.get("strong"))
    if strong and layout == "auto":  # strong collusion runs on the rows: their size first
        rows_or_refuse(
            spec, "strong collusion", "weak teams (strong=false) run on the vector layout", layout
        )
    if layout == "rows" or (
        layout == "auto" and (strong or info.name not in ("holdem", *VECTOR_GAMES))
    ):
        return  # the rows (strong collusion is not counted: auto keeps it on the rows)
    if strong:
        blocker = "strong collusion"
    elif team:
        blocker = "--team"
    elif method is not None and not _on_vector(method, spec):
        blocker = f"--method {method}"
    else:
        return
    counted = row_count(spec)  # collusion as its uncolluded game; None: uncounted games
    small = counted is None or counted.row_bytes <= ROW_LAYOUT_LIMIT
    if small and layout == "auto" and info.name not in VECTOR_GAMES:
        return  # a holdem spec whose rows fit runs on them
    refused = rows_refusal(spec)
    if small and refused is None:
        where = "" if counted is None else f" ({rows_text(counted)})"
        way = f"--layout rows {'runs' if method else 'evaluates'} it on the rows{where}"
    else:
        methods = VECTOR_METHODS if method != "lp" else "the CFR family, fp or pcs-cfr+"
        instead = "leave out --team" if team else f"use {methods}"
        if strong:
            instead = "strong=false runs on vectors"
        if counted is None:  # uncounted rows that load_game refuses
            way = f"its rows are too large to compile; {instead}"
        else:
            way = f"its row layout is {rows_text(counted)} ({rows_way(refused)}); {instead}"
    raise ToypokerError(f"{blocker} does not run on the vector layout; {way}")


def rows_or_refuse(spec: str, what: str, instead: str, layout: str) -> None:
    """Refuse at once (one line, nothing built) ``what`` -- a computation only the row
    layout does -- on a game whose counted rows pass :data:`ROW_LAYOUT_LIMIT`, naming
    ``instead`` (what runs on the vector layout) and ``--layout rows`` where ``load_game``
    admits the rows (:func:`rows_way`); ``layout`` ``"rows"`` lets it through."""
    if layout not in ("auto", "rows"):
        raise ToypokerError(f"{what} runs on the row layout only: --layout auto or rows")
    counted = row_count(spec) if layout == "auto" else None
    if counted is not None and counted.row_bytes > ROW_LAYOUT_LIMIT:
        raise ToypokerError(
            f"{what} needs the row layout: {rows_text(counted)} (> "
            f"{size_text(ROW_LAYOUT_LIMIT)}; {rows_way(rows_refusal(spec))}); {instead}"
        )


def build_on_vector_layout(spec: str, counted: LayoutCount | None) -> VectorGame:
    """Say ``spec``'s counted vector layout (size and memory), then build it: without a
    deal table for the games of :data:`DIRECT_GAMES`
    (:func:`~toypoker.vector.direct.build_vector`, one hand a rank where it applies),
    else from the compiled catalogue game
    (:func:`~toypoker.vector.layout.compile_vector`)."""
    if counted is not None:
        err.print(
            f"vector layout: {counted.public_nodes:,} public nodes x {counted.players} players "
            f"x {counted.hands} hands = {counted.entries:,} entries, about "
            f"{size_text(counted.vector_bytes)}; building (deal-free)...",
            highlight=False,
            soft_wrap=True,
        )
    t0 = time.perf_counter()
    if parse_game_spec(spec)[0].name in DIRECT_GAMES:
        vg = build_vector(spec, rank=True)
    else:
        vg = compile_vector(load_game(spec))
    err.print(f"built in {time.perf_counter() - t0:.1f} s")
    return vg
