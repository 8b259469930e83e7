"""The vector layout's size and work, counted before anything is built.

From a game's counts (:func:`toypoker.games.count_layout`, as ``toypoker info`` prints
them): which kernel an iteration runs and its units of work (:func:`vector_work`, what
the layout cost model of :mod:`toypoker.engines.choice` prices), the peak memory
(:func:`vector_bytes`), and the one-line refusal of a layout over the memory budget
``TOYPOKER_MAX_BYTES`` (:func:`check_vector_size`), which every vector builder asks
before allocating.
"""

from __future__ import annotations

from toypoker.errors import SpecError
from toypoker.games import max_bytes_allowed, parse_game_spec
from toypoker.games.layout_count import LayoutCount
from toypoker.io import size_text


def vector_work(spec: str, counted: LayoutCount, rank: bool = True) -> tuple[str, int]:
    """The vector layout's kernel for ``spec`` and its units of work an iteration (see
    :data:`toypoker.engines.choice.VECTOR_SECONDS`); ``rank``: one hand a rank multiset
    where that applies (as :func:`toypoker.load_game` builds it), else physical hands."""
    info, params, coll = parse_game_spec(spec)
    n, h = counted.players, counted.hands
    one_card = _hole(info.name, params) == 1
    if n == 2:
        return "two", counted.entries
    if n == 3 and one_card and not coll:
        return "three", counted.entries
    if n == 3 and rank and _rank_deck(info.name, params):
        return "dense", counted.public_nodes * h**3
    return "numpy", counted.public_nodes * h**n


def vector_bytes(spec: str, counted: LayoutCount, rank: bool = True) -> int:
    """The one memory estimate of the vector layout: its peak while a solver runs on it
    (hand entries x :data:`~toypoker.games.layout_count.BYTES_PER_ENTRY`, the build and
    NashConv checks included), and the numpy reference's dense product (one ``H^n``
    tensor a board at a time, a few of them).  ``toypoker info`` prints it, the size
    check (:func:`check_vector_size`) holds the budget to it and ``solve`` says it
    before building (re-exported as :func:`toypoker.engines.choice.vector_bytes`): one
    estimate, so what is printed is what is checked."""
    kind, units = vector_work(spec, counted, rank)
    dense = 4 * 8 * counted.hands**counted.players if kind == "numpy" else 0
    return counted.entry_bytes + dense


def _hole(name: str, params: dict) -> int:
    if name == "mercer":
        return 2
    if name == "kuhn":
        return 1
    if name == "rhode_island":
        return 1
    return int(params.get("hole", 1))


def _rank_deck(name: str, params: dict) -> bool:
    """A deck of ranks whose suits never matter (the vector layout's rank hands)."""
    return name in ("kuhn", "mercer") or (name == "holdem" and int(params.get("suits", 1)) > 1)


def check_vector_size(
    spec: str,
    counted: LayoutCount | None,
    max_bytes: int | None,
    refused: str | None = None,
    rank: bool = True,
) -> None:
    """Refuse in one line a vector layout over the budget (and say what the rows need,
    when they were refused too)."""
    if counted is None:
        return
    need = vector_bytes(spec, counted, rank)
    limit = max_bytes_allowed(max_bytes)
    if need > limit:
        rows = f"; the deal table: {counted.rows:,} rows" if refused is not None else ""
        raise SpecError(
            f"{_named(spec)}: too large for the vector layout: {counted.entries:,} hand "
            f"entries, about {size_text(need)} > {size_text(limit)}{rows} "
            "(TOYPOKER_MAX_BYTES allows more)"
        )


def _named(spec: str) -> str:
    return spec if len(spec) <= 60 else spec.partition("(")[0] + "(...)"
