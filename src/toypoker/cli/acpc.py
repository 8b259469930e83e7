"""``toypoker import-acpc``: an ACPC gamedef file as a toypoker game spec."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from toypoker.cli.checks import check_readable
from toypoker.cli.common import JsonOpt, out, print_json
from toypoker.interop.acpc import MAX_GAMEDEF_BYTES, load_gamedef
from toypoker.io import read_text_limited


def import_acpc(
    file: Annotated[Path, typer.Argument(help="ACPC gamedef file (GAMEDEF ... END GAMEDEF).")],
    json_: JsonOpt = False,
) -> None:
    """Read an ACPC gamedef (limit betting); print its holdem(...) spec and sizes."""
    check_readable(file, "FILE")
    g = load_gamedef(read_text_limited(file, MAX_GAMEDEF_BYTES, "gamedef"))
    if json_:
        print_json({"file": str(file), **g.summary()})
    else:
        # the spec alone on the first line (for scripts), then the sizes as `info` prints them
        out.print(g.spec, highlight=False, soft_wrap=True)
        t = Table(show_header=False)
        for k, v in g.summary().items():
            if k != "spec":
                t.add_row(k.replace("_", " "), str(v))
        out.print(t)
