"""``toypoker reproduce``: the papers' claims and figures recomputed into an offline
report folder (an index and one page per paper, or the same as JSON)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from .. import report
from ..errors import ToypokerError
from .common import (
    Bar,
    JsonOpt,
    at_least,
    check_folder,
    err,
    interrupted,
    out,
    print_json,
    resume_hint,
)

FORMATS = ("html", "json")


def _out_folder(path: Path) -> None:
    if path.suffix.lower() in (".html", ".htm", ".json"):
        raise ToypokerError(
            f"--out is the report's folder (index and one page per paper go inside), "
            f"got {path}: give a folder, e.g. --out {path.with_suffix('')}"
        )
    check_folder(path, "--out")


class _Progress:
    """One line per item on stderr; a bar while an item runs that shows none of its own."""

    def __init__(self, total: int):
        self.total, self.k, self.bar, self.reused = total, 0, None, 0

    def __call__(self, event: str, task: report.Task, res: report.Result | None) -> None:
        self.k += 1 if event in ("start", "cached") else 0
        if event == "cached":
            self.reused += 1
            return
        if event == "start":
            err.print(f"reproduce [{self.k}/{self.total}] {task.id}", highlight=False)
            if not task.own_progress:
                self.bar = Bar(f"  {task.id}")
                self.bar.__enter__()
            return
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
        assert res is not None
        what = f"failed: {res.error}" if res.error else "done"
        err.print(f"  {what} ({res.seconds:.1f} s)", highlight=False, markup=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def reproduce(
    out_dir: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="The report's folder: index, one page per paper, images, items/ (the cache).",
        ),
    ] = Path("toypoker-report"),
    quick: Annotated[
        bool,
        typer.Option(
            "--quick", help="Coarse grids and fewer rounds, no 3-player MMH items (minutes)."
        ),
    ] = False,
    format_: Annotated[
        str, typer.Option("--format", help="html (index.html + pages) or json (the same).")
    ] = "html",
    items: Annotated[
        list[str] | None,
        typer.Option("--item", help="Only these items: claim ids or figure ids (repeatable)."),
    ] = None,
    claims: Annotated[
        list[str] | None, typer.Option("--claims", help="Only these claim ids (repeatable).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the random family members.")] = 0,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Recompute every item (ignore OUT/items/).")
    ] = False,
    json_: JsonOpt = False,
) -> None:
    """Recompute every table and figure of the papers into an offline report folder.

    Finished items are kept in OUT/items/ and reused: after Ctrl-C the same command
    continues.  Exit status 1 when an item failed (the report shows the error)."""
    at_least("--seed", seed, 0)
    if format_ not in FORMATS:
        raise ToypokerError(f"--format must be html or json, got {format_!r}")
    _out_folder(out_dir)
    wanted = [*(claims or []), *(items or [])]
    known_claims = report.plan(False, seed)
    for c in claims or []:
        if not any(t.id == c and t.kind == "claim" for t in known_claims):
            raise ToypokerError(
                f"unknown claim {c!r}; known: "
                + ", ".join(t.id for t in known_claims if t.kind == "claim")
            )
    tasks = report.plan(quick, seed, wanted or None)
    skipped = tuple(report.skipped_in_quick(seed)) if quick and not wanted else ()
    t0 = time.perf_counter()
    progress = _Progress(len(tasks))
    try:
        results = report.compute(out_dir, tasks, seed, fresh=fresh, progress=progress)
    except KeyboardInterrupt:
        progress.close()
        raise interrupted(
            f"finished items are kept in {out_dir / 'items'}", resume_hint(drop=("--fresh",))
        ) from None
    run = report.RunInfo("quick" if quick else "full", seed, time.perf_counter() - t0, skipped)
    write = report.write_html if format_ == "html" else report.write_json
    pages = write(out_dir, results, run)
    failed = [r for r in results if r.error]
    total = report.counts(results)
    if json_:
        print_json(
            {
                "out": str(out_dir),
                "format": format_,
                "pages": [str(p) for p in pages],
                "items": len(results),
                "reused": progress.reused,
                "failed": [r.item for r in failed],
                "counts": total,
                "seconds": sum(r.seconds for r in results),
                "wall_seconds": run.wall_seconds,
            }
        )
    else:
        summary = ", ".join(f"{total[s]} {s}" for s in report.STATUSES)
        out.print(
            f"report written: {pages[0]} ({len(results)} items, {progress.reused} reused; "
            f"{summary}; {run.wall_seconds:.1f} s)",
            highlight=False,
            soft_wrap=True,
        )
    for r in failed:
        err.print(f"toypoker: item {r.item} failed: {r.error}", highlight=False, markup=False)
    if failed:
        raise typer.Exit(1)
