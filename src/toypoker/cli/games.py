"""``toypoker games`` and ``toypoker info``."""

from __future__ import annotations

from rich.table import Table

from toypoker.cli.common import JsonOpt, SpecArg, out, print_json
from toypoker.engines import choose_layout
from toypoker.engines.choice import row_count, rows_refusal, vector_bytes
from toypoker.errors import SpecError, ToypokerError
from toypoker.games import GAMES, canonical_spec, load_rows, max_bytes_allowed
from toypoker.games.base import Param
from toypoker.games.layout_count import LayoutCount
from toypoker.games.team_transform import COLLUSION_PARAMS
from toypoker.io import size_text
from toypoker.spec import format_value


def _default(value: object) -> object:
    if value is None or isinstance(value, int | bool):
        return value
    return format_value(value)


def _params_json(params: tuple[Param, ...]) -> list[dict[str, object]]:
    return [
        {"name": p.name, "type": p.kind, "default": _default(p.default), "doc": p.doc}
        for p in params
    ]


def _params_table(title: str, caption: str, params: tuple[Param, ...]) -> Table:
    t = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
    t.add_column("parameter")
    t.add_column("default")
    t.add_column("meaning")
    for p in params:
        t.add_row(p.name, "-" if p.default is None else format_value(p.default), p.doc)
    return t


def games(json_: JsonOpt = False) -> None:
    """List the built-in games and their parameters.  Then the collusion keys every
    game spec accepts (team, sharing, strong, merge)."""
    if json_:
        print_json(
            [
                {
                    "name": g.name,
                    "doc": g.doc,
                    "source": g.source,
                    "params": _params_json(g.params),
                    "collusion_params": _params_json(COLLUSION_PARAMS),
                }
                for g in GAMES.values()
            ]
        )
        return
    for g in GAMES.values():
        out.print(_params_table(f"{g.name}: {g.doc}", g.source, g.params))
    out.print(
        _params_table(
            "Collusion: every game above also takes these, e.g. kuhn(players=3,team=12)",
            "Ullman (2015), collusion chapter; toypoker collusion and toypoker detect use them",
            COLLUSION_PARAMS,
        )
    )


def _counted_table(summary: dict[str, object], colluded: bool) -> Table:
    t = Table(
        title="counted before building (row and vector layouts)",
        title_justify="left",
        caption="counted as the uncolluded game: collusion keeps its deals, tree and rows"
        if colluded
        else None,
        caption_justify="left",
        show_header=False,
    )
    for k, v in summary.items():
        if k == "spec":
            continue
        text = size_text(v) if k.endswith("bytes") else f"{v:,}"  # type: ignore[arg-type]
        names = {
            "row_layout_bytes": "row layout memory (est.)",
            "vector_layout_bytes": "vector layout memory (est.)",
        }
        t.add_row(names.get(k, k.replace("_", " ")), text)
    return t


def _counted(spec: str, counted: LayoutCount) -> dict[str, object]:
    """The counts ``info`` prints, with the vector layout's memory as the size check
    holds it (:func:`toypoker.engines.vectors.size.vector_bytes`: one estimate)."""
    return {**counted.summary(), "vector_layout_bytes": vector_bytes(spec, counted)}


def info(spec: SpecArg, json_: JsonOpt = False) -> None:
    """Sizes of a compiled game: players, deals, public nodes, infosets, terminals.

    ``rhode_island`` and ``holdem`` games are first counted without building (deals,
    public nodes, infosets, rows and the row layout's memory, hand entries and the
    vector layout's memory; a collusion spec as its uncolluded game, whose deals, tree
    and rows it keeps); a game too large to compile is then refused in one line
    (``toypoker solve`` runs it on the vector layout:
    :func:`toypoker.engines.choose_layout`); the layout ``toypoker.load_game`` builds
    it on is said last, with why.
    """
    name = canonical_spec(spec)  # a collusion team checked before anything is counted
    counted = row_count(spec)
    if counted is not None and not json_:
        # the spec on a line of its own, never cut (a table cell would fold or elide it)
        out.print(name, soft_wrap=True, highlight=False, markup=False)
        out.print(_counted_table(_counted(name, counted), name != counted.spec))
    refusal = None if counted is None else rows_refusal(spec)  # load_game's own rule
    try:
        choice = choose_layout(spec)  # what toypoker.load_game builds it on
    except SpecError:
        choice = None
    if counted is not None and refusal is not None:
        if counted.row_bytes <= max_bytes_allowed() and choice is None:
            raise ToypokerError(refusal)  # not the rows' size (the deal table's build)
        if choice is None or choice.deals:
            if json_:
                print_json({"counted": _counted(name, counted)})
            raise ToypokerError(
                f"too large to compile: {counted.rows:,} rows counted, about "
                f"{size_text(counted.row_bytes)}; hand vectors: about "
                f"{size_text(vector_bytes(name, counted))} (TOYPOKER_MAX_BYTES allows more)"
            )
        if json_:
            print_json({"counted": _counted(name, counted), "layout": "vector", "why": choice.why})
            return
        out.print(choice.said(), soft_wrap=True, highlight=False)
        return
    g = load_rows(spec)
    s = g.summary()
    layout = {} if choice is None else {"layout": choice.layout, "why": choice.why}
    if json_:
        more = {} if counted is None else {"counted": _counted(name, counted)}
        print_json({**s, **more, **layout})
        return
    if counted is None:
        out.print(g.spec, soft_wrap=True, highlight=False, markup=False)
    t = Table(title="compiled (row layout)", title_justify="left", show_header=False)
    for k, v in s.items():
        if k != "spec":
            t.add_row(k.replace("_", " "), str(v))
    out.print(t)
    if choice is not None:
        out.print(f"layout: {choice.layout} ({choice.why})", soft_wrap=True, highlight=False)
