"""``toypoker reproduce``: the papers' claims checked and written as an offline HTML report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .. import report
from ..errors import ToypokerError
from ..literature.claims import claim_ids
from .common import Bar, JsonOpt, at_least, check_file, out, print_json


def reproduce(
    output: Annotated[
        Path, typer.Option("-o", "--output", help="The HTML report (one self-contained file).")
    ] = Path("toypoker-report.html"),
    quick: Annotated[
        bool, typer.Option("--quick", help="Only the fast claims (seconds, for a first look).")
    ] = False,
    claims: Annotated[
        list[str] | None, typer.Option("--claims", help="Only these claim ids (repeatable).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the random family members.")] = 0,
    json_: JsonOpt = False,
) -> None:
    """Check the claims (finished ones are reused from OUTPUT.items/) and write the report."""
    at_least("--seed", seed, 0)
    check_file(output, "-o")
    known = claim_ids()
    for c in claims or []:
        if c not in known:
            raise ToypokerError(f"unknown claim {c!r}; known: {', '.join(known)}")
    wanted = claims or (report.QUICK_CLAIMS if quick else known)
    chosen = [c for c in known if c in wanted]
    with Bar("reproduce", len(chosen), fields=("claim",)) as bar:
        items = report.compute(
            output.with_suffix(".items"),
            chosen,
            seed,
            progress=lambda c: bar.update(advance=1, claim=c),
        )
    report.write(output, items, seed)
    if json_:
        print_json(report.to_json(items))
        return
    out.print(f"report written: {output} ({len(items)} claims)")
