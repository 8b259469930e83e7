"""The engines, one literal table: name -> the class that computes on a game there.

:func:`engine_on` makes the engine a game is built on from the engine data the game
holds (``game.engine``, once a game; :func:`engine_of` is the same with a choice of the
reference engine); everything above (the solvers' run loop, the flat API, the front
ends) asks the engine, never the layout.
Adding an engine is a package in :mod:`toypoker.engines` and a line here.

Before anything is built, :func:`layout_for` says where a run of a method takes a spec:
:func:`toypoker.load_game`'s choice (:func:`~toypoker.engines.choose_layout`: counted,
the faster that fits; ``layout=`` forces one), except that what hand vectors cannot run
(a team's joint gain, the deal-sampling MCCFR, the exact enumerator, TMECor, the exact
LP under a team's payoff map) goes to the deal table where it fits, or is refused in one
line naming the way out; :func:`rows_or_refuse` refuses at once a computation only the
deal table does where it does not fit.  Whether the rows may be built at all is one rule,
``load_game``'s own size check (:func:`~toypoker.games.check_size`), asked without
building (:func:`~toypoker.engines.choice.rows_refusal`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

from toypoker.engines import LayoutChoice, choose_layout, rows_of
from toypoker.engines.choice import check_layout, rows_refusal, vector_count
from toypoker.engines.protocol import Engine
from toypoker.engines.reference.engine import ReferenceEngine
from toypoker.engines.rows.engine import RowsEngine
from toypoker.engines.vectors.engine import VectorsEngine
from toypoker.engines.vectors.methods import runs_on_vectors
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.games import parse_game_spec
from toypoker.games.layout_count import LayoutCount
from toypoker.io import size_text
from toypoker.solvers.cfr import CFROptions
from toypoker.solvers.registry import METHODS, get_method
from toypoker.spec import format_spec

ENGINES: Mapping[str, type] = MappingProxyType(
    {"rows": RowsEngine, "vectors": VectorsEngine, "reference": ReferenceEngine}
)
"""Each engine by name (``Engine.name``): the deal table's fused kernels, hand vectors',
and the numpy passes of either (``engine="reference"``).  Each class's ``on(game)``
makes its engine of a game: the data engines (``"rows"``, ``"vectors"``) of a game
whose engine data bears their name, the wrapping one (:data:`WRAPPING`) of any game."""

WRAPPING = frozenset({"reference"})
"""The engines that compute on the layout below them, so on any game."""

__all__ = [
    "ENGINES",
    "ROW_LAYOUT_LIMIT",
    "WRAPPING",
    "engine_for",
    "engine_of",
    "engine_on",
    "layout_for",
    "rows_or_refuse",
    "rows_text",
    "team_gain_note",
]


def engine_of(game: Game, name: str | None = None) -> Engine:
    """The engine ``game`` is built on, ``game.engine`` (kept with the game: built once);
    ``name`` ``"reference"``: the numpy passes on that layout (what the kernels are
    tested against)."""
    engine: Engine = game.engine
    if name is None or name == engine.name:
        return engine
    if name in WRAPPING:
        return game.derived(ENGINES[name].on)  # type: ignore[no-any-return]
    if name in ENGINES:  # the other data engine: the game is not built there
        layout = "rows" if name == "rows" else "vector"
        raise ToypokerError(
            f"engine {name!r}: {game.spec} is built on {engine.name} (load it with "
            f"layout={layout!r} to run on {name}); engine may be "
            f"{' or '.join([engine.name, *sorted(WRAPPING)])} here"
        )
    raise ToypokerError(f"engine must be one of {', '.join(ENGINES)}, not {name!r}")


def engine_on(game: Game) -> Engine:
    """A new engine of the kind ``game``'s engine data names (what ``game.engine`` makes
    once a game): ``ENGINES[name].on(game)``."""
    return ENGINES[game.engine_data.name].on(game)  # type: ignore[no-any-return]


def engine_for(game: Game, method: str, engine: str | None = None) -> Engine:
    """The engine ``method`` runs on: ``game``'s own, or the deal table built from its spec
    for a method that has no steps there (``enumerate``, deal-sampling MCCFR, ``tmecor``),
    refused in one line when the deal table does not fit; ``engine``: by name (see
    :func:`engine_of`)."""
    own = engine_of(game, engine)
    if own.runs(method):
        return own
    rows = rows_of(game, f"method {get_method(method).name!r}")
    return engine_of(rows, None if engine in (None, "vectors") else engine)


ROW_LAYOUT_LIMIT = 2 * 10**9
"""Counted bytes of the deal table past which a run the vector layout cannot do is not
sent to the rows unasked: it is refused, naming ``--layout rows``."""


def _vector_methods(lp: bool = True) -> str:
    """The methods that run on hand vectors, as a refusal names them (from the registry)."""
    names = [n for n in METHODS if runs_on_vectors(n) and (lp or n != "lp")]
    family = [n for n in names if METHODS[n].options is CFROptions]  # one schedule each
    names = ["the CFR family"] * bool(family) + [n for n in names if n not in family]
    return ", ".join(names[:-1]) + " or " + names[-1]


def rows_text(counted: LayoutCount) -> str:
    """``32,873,711 rows, about 6.6 GB``: the counted row layout."""
    return f"{counted.rows:,} rows, about {size_text(counted.row_bytes)}"


def _on_vector(method: str, spec: str) -> bool:
    """Whether ``method`` runs on ``spec``'s vector layout: one of its methods, and not
    the exact LP under a team's payoff map (:mod:`~toypoker.engines.vectors.sequence_form`)."""
    return runs_on_vectors(method) and not (method == "lp" and parse_game_spec(spec)[2])


def team_gain_note(spec: str) -> str:
    """The line saying a weak team's gain is not computed on the vector layout (its
    lifted best response reads the rows), with the rows as the way where they fit."""
    way = "--layout rows computes it" if rows_refusal(spec) is None else "its rows are too large"
    return f"team gain: not computed on the vector layout ({way})"


def layout_for(spec: str, method: str | None, layout: str, *, team: bool) -> LayoutChoice:
    """The layout a run of ``method`` (None: an evaluation) on ``spec`` takes, decided
    before anything is built (``toypoker solve`` and ``eval``).

    :func:`~toypoker.engines.choose_layout`'s choice, except that a run the vector layout
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
    methods = _vector_methods(lp=method != "lp")
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
        methods = _vector_methods(lp=method != "lp")
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
