"""``toypoker games`` and ``toypoker info``."""

from __future__ import annotations

from rich.table import Table

from ..errors import ToypokerError
from ..games import GAMES, count_layout, load_game
from ..spec import format_value
from .common import JsonOpt, SpecArg, out, print_json


def _default(value: object) -> object:
    if value is None or isinstance(value, int | bool):
        return value
    return format_value(value)


def games(json_: JsonOpt = False) -> None:
    """List the built-in games and their parameters."""
    if json_:
        print_json(
            [
                {
                    "name": g.name,
                    "doc": g.doc,
                    "source": g.source,
                    "params": [
                        {
                            "name": p.name,
                            "type": p.kind,
                            "default": _default(p.default),
                            "doc": p.doc,
                        }
                        for p in g.params
                    ],
                }
                for g in GAMES.values()
            ]
        )
        return
    for g in GAMES.values():
        t = Table(
            title=f"{g.name}: {g.doc}",
            title_justify="left",
            caption=g.source,
            caption_justify="left",
        )
        t.add_column("parameter")
        t.add_column("default")
        t.add_column("meaning")
        for p in g.params:
            t.add_row(p.name, "-" if p.default is None else format_value(p.default), p.doc)
        out.print(t)


def _gigabytes(n: int) -> str:
    return f"{n / 1e9:,.1f} GB" if n >= 1e8 else f"{n / 1e6:,.1f} MB"


def _counted_table(summary: dict[str, object]) -> Table:
    t = Table(
        title="counted before building (row layout)",
        title_justify="left",
        show_header=False,
    )
    t.add_row("spec", str(summary["spec"]))
    for k, v in summary.items():
        if k == "spec":
            continue
        text = _gigabytes(v) if k.endswith("bytes") else f"{v:,}"  # type: ignore[arg-type]
        t.add_row(
            "row layout memory (est.)" if k == "row_layout_bytes" else k.replace("_", " "), text
        )
    return t


def info(spec: SpecArg, json_: JsonOpt = False) -> None:
    """Sizes of a compiled game: players, deals, public nodes, infosets, terminals.

    Suited limit games (``rhode_island``, ``holdem`` with a suited evaluator) are first
    counted without building (deals, public nodes, infosets, rows and the row layout's
    memory); a game too large to compile is then refused in one line.
    """
    counted = count_layout(spec)
    if counted is not None and not json_:
        out.print(_counted_table(counted.summary()))
    try:
        g = load_game(spec)
    except ToypokerError as e:
        if counted is None:
            raise
        if json_:
            print_json({"counted": counted.summary()})
        raise ToypokerError(
            f"{e}; counted: {counted.rows:,} rows, about {_gigabytes(counted.row_bytes)} "
            "on the row layout"
        ) from None
    s = g.summary()
    if json_:
        print_json(s if counted is None else {**s, "counted": counted.summary()})
        return
    t = Table(title=g.spec, title_justify="left", show_header=False)
    for k, v in s.items():
        if k != "spec":
            t.add_row(k.replace("_", " "), str(v))
    out.print(t)
