"""``toypoker export``: the game in another tool's format."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from toypoker.cli.checks import check_file
from toypoker.cli.common import JsonOpt, SpecArg, err, output_option, print_json
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.interop.acpc import to_gamedef
from toypoker.interop.gambit import to_efg
from toypoker.io import atomic_write_text

FORMATS = ("efg", "acpc")


def export(
    spec: SpecArg,
    format_: Annotated[
        str, typer.Option("--format", help="efg (Gambit) or acpc (ACPC gamedef).")
    ] = "efg",
    output: Annotated[Path | None, output_option("File (default: stdout).")] = None,
    json_: JsonOpt = False,
) -> None:
    """Write the game as a plain extensive form (Gambit .efg) or an ACPC gamedef."""

    if format_ not in FORMATS:
        raise ToypokerError(f"unknown format {format_!r}; known: {', '.join(FORMATS)}")
    check_file(output, "-o")
    g = load_rows(spec)
    text = to_gamedef(g) if format_ == "acpc" else to_efg(g)
    if output:
        atomic_write_text(output, text)
    if json_:
        data: dict[str, object] = {"game": g.spec, "format": format_}
        data.update({"output": str(output)} if output else {"text": text})
        print_json(data)
    elif output:
        err.print(f"wrote {output}")
    else:
        sys.stdout.write(text)
