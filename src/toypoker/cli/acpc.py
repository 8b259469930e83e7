"""``toypoker import-acpc``: an ACPC gamedef file as a toypoker game spec."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ..errors import ToypokerError
from ..interop.acpc import load_gamedef
from .common import JsonOpt, check_readable, out, print_json


def import_acpc(
    file: Annotated[Path, typer.Argument(help="ACPC gamedef file (GAMEDEF ... END GAMEDEF).")],
    json_: JsonOpt = False,
) -> None:
    """Read an ACPC gamedef (limit betting); print its holdem(...) spec and sizes."""
    check_readable(file, "FILE")
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ToypokerError(f"cannot read {file}: {e}") from None
    g = load_gamedef(text)
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
