"""``toypoker games`` and ``toypoker info``."""

from __future__ import annotations

from rich.table import Table

from ..games import GAMES, load_game
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


def info(spec: SpecArg, json_: JsonOpt = False) -> None:
    """Sizes of a compiled game: players, deals, public nodes, infosets, terminals."""
    g = load_game(spec)
    s = g.summary()
    if json_:
        print_json(s)
        return
    t = Table(title=g.spec, title_justify="left", show_header=False)
    for k, v in s.items():
        if k != "spec":
            t.add_row(k.replace("_", " "), str(v))
    out.print(t)
