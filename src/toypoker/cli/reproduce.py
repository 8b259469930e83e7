"""``toypoker reproduce``: the papers' claims and figures recomputed into an offline
report folder (an index and one page per paper, or the same as JSON)."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated

import typer

from toypoker import report
from toypoker.cli import common
from toypoker.cli.checks import at_least, check_folder
from toypoker.cli.common import (
    Bar,
    JsonOpt,
    err,
    interrupted,
    out,
    out_dir_option,
    print_json,
    resume_hint,
)
from toypoker.errors import ToypokerError, UnknownNameError
from toypoker.locks import run_lock

FORMATS = ("html", "json")


class _Tee(io.TextIOBase):
    """Writes to ``stream`` and keeps the last characters (a command's error line)."""

    def __init__(self, stream: io.TextIOBase, keep: int = 4000):
        self.stream, self.keep, self.buf = stream, keep, ""

    def write(self, s: str) -> int:
        self.buf = (self.buf + s)[-self.keep :]
        return self.stream.write(s)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run_in_process(main: Callable[[list[str]], int], argv: Sequence[str]) -> dict:
    """Run ``toypoker ARGV --json`` in this process (``main`` is
    :func:`toypoker.cli.main`, handed down as the click context's ``obj``) and return
    its JSON output: the report's command runner.

    Exit status 0, or 1 (a negative answer, e.g. an incomplete curve: the files are
    written) are results; 130 re-raises ``KeyboardInterrupt``; anything else is a
    :class:`~toypoker.errors.ToypokerError` with the command's last error line.
    """
    saved = list(common.ARGV)
    out, tee = io.StringIO(), _Tee(sys.stderr)
    common.NESTED = True  # an interrupt is reproduce's to report, with its resume command
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(tee):
            rc = main(list(argv))
    finally:
        common.ARGV[:] = saved
        common.NESTED = False
    if rc == common.INTERRUPTED:
        raise KeyboardInterrupt
    if rc not in (0, 1):
        lines = [ln for ln in _ANSI.sub("", tee.buf).splitlines() if ln.strip()]
        raise ToypokerError(f"exit status {rc}: {lines[-1] if lines else 'no message'}")
    try:
        data = json.loads(out.getvalue())
    except json.JSONDecodeError as exc:
        raise ToypokerError(f"the command printed no JSON ({exc})") from None
    if rc == 1:
        data = {**data, "exit_status": 1}
    return data


def _out_folder(path: Path) -> None:
    if path.suffix.lower() in (".html", ".htm", ".json"):
        raise ToypokerError(
            f"--out-dir is the report's folder (index and one page per paper go inside), "
            f"got {path}: give a folder, e.g. --out-dir {path.with_suffix('')}"
        )
    check_folder(path, "--out-dir")


class _Progress:
    """One line per item on stderr; a bar while an item runs that shows none of its own."""

    def __init__(self, total: int):
        self.total, self.k, self.bar, self.reused = total, 0, None, 0

    def __call__(self, event: str, task: report.Task, res: report.ItemResult | None) -> None:
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
    ctx: typer.Context,
    out_dir: Annotated[
        Path,
        out_dir_option(
            "The report's folder: index, one page per paper, images, items/ (the cache)."
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
    _check_options(out_dir, format_, claims, seed)
    wanted = [*(claims or []), *(items or [])]
    tasks = report.plan(quick, seed, wanted or None)
    skipped = tuple(report.skipped_in_quick(seed)) if quick and not wanted else ()
    t0 = time.perf_counter()
    progress = _Progress(len(tasks))
    try:
        runner = functools.partial(run_in_process, ctx.obj) if ctx.obj else None
        # a folder in use by a live report is locked: a second run refuses
        with run_lock(out_dir, "report folder", folder=True):
            results = report.compute(
                out_dir, tasks, seed, fresh=fresh, progress=progress, run_command=runner
            )
            run = report.RunInfo(
                "quick" if quick else "full", seed, time.perf_counter() - t0, skipped
            )
            write = report.write_html if format_ == "html" else report.write_json
            pages = write(out_dir, results, run)
    except KeyboardInterrupt:
        progress.close()
        raise interrupted(
            f"finished items are kept in {out_dir / 'items'}", resume_hint(drop=("--fresh",))
        ) from None
    if _print_report(out_dir, format_, pages, results, progress.reused, run, json_):
        raise typer.Exit(1)


def _check_options(out_dir: Path, format_: str, claims: list[str] | None, seed: int) -> None:
    """Refuse a bad ``--seed``, ``--format``, ``--out-dir`` or an unknown ``--claims`` id."""
    at_least("--seed", seed, 0)
    if format_ not in FORMATS:
        raise ToypokerError(f"--format must be html or json, got {format_!r}")
    _out_folder(out_dir)
    known_claims = report.plan(False, seed)
    for c in claims or []:
        if not any(t.id == c and t.kind == "claim" for t in known_claims):
            raise UnknownNameError(
                f"unknown claim {c!r}", [t.id for t in known_claims if t.kind == "claim"]
            )


def _print_report(
    out_dir: Path,
    format_: str,
    pages: list[Path],
    results: list[report.ItemResult],
    reused: int,
    run: report.RunInfo,
    json_: bool,
) -> bool:
    """Print the report's summary (or its JSON) and each failed item; whether any failed."""
    failed = [r for r in results if r.error]
    total = report.counts(results)
    if json_:
        print_json(
            {
                "out": str(out_dir),
                "format": format_,
                "pages": [str(p) for p in pages],
                "items": len(results),
                "reused": reused,
                "failed": [r.item for r in failed],
                "counts": total,
                "seconds": sum(r.seconds for r in results),
                "wall_seconds": run.wall_seconds,
            }
        )
    else:
        summary = ", ".join(f"{total[s]} {s}" for s in report.STATUSES)
        out.print(
            f"report written: {pages[0]} ({len(results)} items, {reused} reused; "
            f"{summary}; {run.wall_seconds:.1f} s)",
            highlight=False,
            soft_wrap=True,
        )
    for r in failed:
        err.print(f"toypoker: item {r.item} failed: {r.error}", highlight=False, markup=False)
    return bool(failed)
