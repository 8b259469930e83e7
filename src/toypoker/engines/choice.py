"""Which layout a game lives on: counted before anything is built, chosen by cost.

A game has two implementations behind the one :class:`~toypoker.game.Game`:

* ``"rows"`` -- the deal table: one row per (public node, joint deal), what
  :func:`toypoker.games.load_rows` compiles.  It grows as ``H^n`` (``H`` hands a player,
  ``n`` players) and holds every method, exact ones included.
* ``"vector"`` -- hands as vectors on the public tree (:mod:`toypoker.engines.vectors`): one
  vector a player over her hands at each public node, built without a deal table for
  ``kuhn``, ``holdem``, ``mercer`` and ``rhode_island`` specs.  It grows as ``n H``.

``layout="auto"`` counts both before building (:func:`~toypoker.games.count_layout`,
as ``toypoker info`` prints it) and takes the one whose CFR+ iteration the cost model
predicts to be faster, among those that fit in ``TOYPOKER_MAX_BYTES``.  The model
(:func:`predict`) is affine in the counted work of each layout's fused kernel: rows
for the deal table; hand entries (public nodes x players x hands) for the vector
layout's sweeps, and public nodes x hands cubed for its dense three-player terminal
(rank pairs, a team's payoff map); a near-tie stays on the deal table, which runs
every method (:data:`PREFER_ROWS`).  Its constants are fitted to the ladder of games
``python benchmarks/bench_engine.py --ladder --save`` measures (both layouts, same run,
interleaved) into ``benchmarks/results/layout_costs.json``; ``tests/engines`` checks
that on every game of that ladder the choice is never more than 1.5x slower than the
other layout was measured to be.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from toypoker.engines.vectors.size import (
    check_vector_size,
    vector_bytes,  # the one estimate, here
    vector_work,
)
from toypoker.errors import SpecError, ToypokerError
from toypoker.games import check_size, count_layout, parse_game_spec
from toypoker.games.layout_count import MAX_BOARDS, LayoutCount
from toypoker.io import size_text
from toypoker.spec import format_spec

LAYOUTS = ("auto", "rows", "vector")
"""The values of ``layout=``: ``"auto"`` (the faster that fits), or one forced."""

DIRECT_GAMES = ("kuhn", "holdem", "mercer", "rhode_island")
"""Games the vector layout builds without a deal table
(:func:`toypoker.engines.vectors.direct.build_vector`); the others reach it from their rows."""

ROW_SECONDS = (1.4e-5, 1.55e-8)
"""A CFR+ iteration on the deal table: fixed seconds, and seconds per row (the fused
row kernel).  These constants and :data:`VECTOR_SECONDS` are a least-squares fit (relative
errors, non-negative) to ``benchmarks/results/layout_costs.json``."""

VECTOR_SECONDS = (
    1.5e-5,
    2.3e-7,
    {"two": 5.3e-9, "three": 1.0e-8, "dense": 8.4e-10, "numpy": 1.05e-7},
)
"""A CFR+ iteration on hand vectors: fixed seconds, seconds per public node, and seconds
per unit of work of each kernel (:func:`vector_work`): ``two`` per hand entry (two
players' sorted sweeps), ``three`` per hand entry (three players, one card a hand),
``dense`` per public node x hand cubed (three players on rank pairs, or under a team's
payoff map), ``numpy`` per public node x hand^players (the numpy reference: four or
more players, three with two physical cards a hand)."""

PREFER_ROWS = 1.25
"""``auto`` keeps the deal table unless hand vectors are predicted this many times
faster: the deal table runs every method (exact enumeration, deal-sampling MCCFR,
TMECor, a team's evaluation), so a near-tie stays there."""


@dataclass(frozen=True)
class LayoutChoice:
    """Where a game lives, and why.

    Attributes
    ----------
    layout
        ``"rows"`` or ``"vector"``.
    why
        One line saying why (the prediction, or what forced it).
    counted
        The counts it was decided by (None: a game not counted before building).
    rows_seconds, vector_seconds
        The cost model's CFR+ iteration on each layout (None where not predicted).
    """

    layout: str
    why: str
    counted: LayoutCount | None = None
    rows_seconds: float | None = None
    vector_seconds: float | None = None

    @property
    def deals(self) -> bool:
        """Whether the game goes on the deal table (its engine then provides
        ``"deals"``, :attr:`~toypoker.engines.protocol.Engine.provides`)."""
        return self.layout == "rows"

    def said(self, asked: str = "auto") -> str | None:
        """The line a front end prints before building: where the game goes and why,
        when that matters (hand vectors, or ``asked``: a layout the user forced, not
        ``"auto"``); else None."""
        if self.deals and asked == "auto":
            return None
        return f"layout: {'rows' if self.deals else 'vector'} ({self.why})"

    def building(self, spec: str) -> str | None:
        """The counted size said before a build on hand vectors (None on the deal
        table, or for a game not counted)."""
        counted = self.counted
        if self.deals or counted is None:
            return None
        return (
            f"vector layout: {counted.public_nodes:,} public nodes x {counted.players} players "
            f"x {counted.hands} hands = {counted.entries:,} entries, about "
            f"{size_text(vector_bytes(spec, counted))}; building (deal-free)..."
        )


def check_layout(layout: object) -> str:
    """``layout`` itself if it is one of :data:`LAYOUTS`, else one clear error."""
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise ToypokerError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    return layout


def row_count(spec: str) -> LayoutCount | None:
    """:func:`~toypoker.games.count_layout` of ``spec``, a collusion spec counted as its
    uncolluded game (collusion keeps the deals, the public tree and so the rows); None
    for a game not counted there."""
    info, params, coll = parse_game_spec(spec)
    return count_layout(format_spec(info.name, params) if coll else spec)


def vector_count(spec: str) -> LayoutCount | None:
    """:func:`row_count` for the layout decision: a weak collusion spec counted as its
    uncolluded game (the same deals, tree, rows and infosets: collusion is a payoff
    map); strong collusion is not counted (``None``)."""
    _, _, coll = parse_game_spec(spec)
    return None if coll.get("strong") else row_count(spec)


def predict(spec: str, counted: LayoutCount) -> tuple[float, float]:
    """The cost model: a CFR+ iteration's seconds on the rows and on the vector layout."""
    kind, units = vector_work(spec, counted)
    fixed, per_node, per = VECTOR_SECONDS
    rows = ROW_SECONDS[0] + counted.rows * ROW_SECONDS[1]
    return rows, fixed + counted.public_nodes * per_node + units * per[kind]


def rows_refusal(spec: str, max_bytes: int | None = None) -> str | None:
    """``load_game``'s own one-line refusal of ``spec``'s rows (its size check, asked
    without building; collusion keeps the uncolluded game's size), or None."""
    info, params, _ = parse_game_spec(spec)
    try:
        check_size(info, params, max_bytes)
    except SpecError as e:
        return str(e)
    return None


def choose_layout(spec: str, layout: str = "auto", *, max_bytes: int | None = None) -> LayoutChoice:
    """The layout ``spec`` is built on by :func:`toypoker.load_game`.

    Parameters
    ----------
    spec
        A game spec string.
    layout
        ``"auto"``: the layout the cost model predicts faster, among those that fit in
        ``max_bytes``; ``"rows"`` or ``"vector"``: that one (the vector layout refuses
        in one line what it cannot hold: strong collusion).
    max_bytes
        The memory budget (default ``TOYPOKER_MAX_BYTES``, else half the machine's memory).

    Returns
    -------
    LayoutChoice

    Raises
    ------
    SpecError
        For a bad spec, or a game neither layout can hold in ``max_bytes``.
    ToypokerError
        For a bad ``layout``.
    """
    layout = check_layout(layout)
    info, params, coll = parse_game_spec(spec)
    canonical = format_spec(info.name, {**params, **coll})
    if layout == "rows":
        return LayoutChoice("rows", "layout='rows'")
    if coll.get("strong"):
        if layout == "vector":
            raise ToypokerError(
                f"{canonical}: strong collusion (members see each other's cards) lives on "
                "the deal table: layout='rows' or 'auto' (tp.solve merges the team)"
            )
        return LayoutChoice("rows", "strong collusion: members see each other's cards")
    counted = vector_count(canonical)
    if layout == "vector":
        check_vector_size(canonical, counted, max_bytes)
        return LayoutChoice("vector", "layout='vector'", counted)
    if info.name not in DIRECT_GAMES:
        return LayoutChoice("rows", "the deal table (no deal-free vector builder for it)")
    if info.name == "rhode_island":  # hand vectors on every deck (faster on the ladder's)
        check_vector_size(canonical, counted, max_bytes)
        rows_s, vec_s = predict(canonical, counted) if counted is not None else (None, None)
        why = "rhode_island always; the deal table holds toy decks only"
        return LayoutChoice("vector", why, counted, rows_s, vec_s)
    if counted is None:  # more boards than counted here: hand vectors where rows do not fit
        refused = rows_refusal(canonical, max_bytes) if info.name == "holdem" else None
        if refused is not None:  # neither fits that can be counted: refused before any build
            raise SpecError(  # the deal table's estimate, as `toypoker info` says it
                f"{refused}; hand vectors have more than {MAX_BOARDS:,} boards at one depth, "
                "too many to count before building (a smaller deck, fewer board cards or "
                "fewer rounds)"
            )
        return LayoutChoice("rows", "the deal table (not counted further)")
    rows_s, vec_s = predict(canonical, counted)
    said = (
        f"a CFR+ iteration predicted {_secs(rows_s)} on the deal table ({counted.rows:,} rows), "
        f"{_secs(vec_s)} on hand vectors ({counted.entries:,} entries)"
    )
    refused = rows_refusal(canonical, max_bytes)
    if refused is None and rows_s <= PREFER_ROWS * vec_s:
        return LayoutChoice("rows", said, counted, rows_s, vec_s)
    check_vector_size(canonical, counted, max_bytes, refused)
    return LayoutChoice(
        "vector",
        said if refused is None else f"{said}; the rows do not fit",
        counted,
        rows_s,
        vec_s,
    )


def _secs(x: float) -> str:
    if x >= 1:
        return f"{x:.2g} s"
    exp = math.floor(math.log10(x)) if x > 0 else 0
    return f"{x * 1e3:.2g} ms" if exp >= -3 else f"{x * 1e6:.2g} us"
