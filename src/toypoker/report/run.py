"""Computing the report's items, each once: a finished item's record
``OUT/items/<id>-<hash>.json`` (written atomically after its files) is reused by
the next run with the same inputs, so an interrupted report resumes where it
stopped and ``--quick`` and full results live side by side.  A record holds its
format (:data:`REPORT_ITEM_FORMAT`); one without (written before toypoker versioned
it) is read as it was, one of another format refused in one line."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from toypoker.formats import FormatError, check_format
from toypoker.game import Game
from toypoker.games import load_rows
from toypoker.io import atomic_write_text
from toypoker.literature.claims import CLAIMS, Context, Row
from toypoker.report.catalogue import folder_of
from toypoker.report.model import CommandRunner, Image, ItemResult, RunContext, Task

#: ``progress(event, task, result)``: event ``"start"`` (result ``None``), ``"done"``
#: or ``"cached"``
Progress = Callable[[str, Task, ItemResult | None], None]

REPORT_ITEM_FORMAT = "toypoker-report-item/1"
"""The format of a finished item's record (its ``"format"``, before the fields of
:meth:`~toypoker.report.model.ItemResult.to_dict`)."""


class _SharedGames(Context):
    """A claims context whose compiled games (and the solutions cached on them) are
    shared by every claim of one report run; the random generator is each claim's own,
    seeded as ``literature check --claim ID --seed N`` seeds it."""

    def __init__(self, rng: np.random.Generator, games: dict[str, Game]):
        super().__init__(rng)
        self.shared = games

    def game(self, spec: str) -> Game:
        """The compiled game of ``spec``, compiled once per report run."""
        if spec not in self.shared:
            self.shared[spec] = load_rows(spec)
        return self.shared[spec]


def record_path(out: Path, task: Task) -> Path:
    """The cache record of ``task`` in the report folder ``out``."""
    return out / (folder_of(task.id, task.key) + ".json")


def load_record(out: Path, task: Task) -> ItemResult | None:
    """The finished result of ``task`` from an earlier run, if its record and files are there.

    Raises
    ------
    ToypokerError
        For a record of a format other than :data:`REPORT_ITEM_FORMAT` (a newer
        toypoker's): one line naming it; ``--fresh`` recomputes it.  A damaged record,
        or one without a format that does not read, is recomputed.
    """
    path = record_path(out, task)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # damaged (cut off, not text): recompute
    if isinstance(data, dict):
        try:
            check_format(data.get("format"), REPORT_ITEM_FORMAT, path, "report record")
        except FormatError as exc:
            raise FormatError(f"{exc}; recompute it with --fresh") from None
    try:
        res = ItemResult.from_dict(data)
    except (ValueError, KeyError, TypeError):
        return None  # not a record: recompute
    if res.key != task.key or not all((out / i.file).exists() for i in res.images):
        return None
    return dataclasses.replace(res, title=task.title, command=task.command)  # as shown now


def compute(
    out: Path,
    tasks: Sequence[Task],
    seed: int = 0,
    fresh: bool = False,
    progress: Progress | None = None,
    run_command: CommandRunner | None = None,
) -> list[ItemResult]:
    """Compute ``tasks`` in order, reusing finished ones.

    Parameters
    ----------
    out
        The report folder (created); each item writes into ``out/items/<id>-<hash>/``.
    tasks
        From :func:`toypoker.report.plan`.
    seed
        Seed of the claims' random family members.
    fresh
        Recompute every item (the records are overwritten).
    progress
        Told when each item starts and ends.
    run_command
        Runs ``toypoker ARGV --json`` and returns its JSON output: the figure items
        run their commands through it (``toypoker reproduce`` passes one).  Without
        it a figure item fails with a message saying so; claim items need none.

    Returns
    -------
    list of ItemResult
        A failed item has ``error`` set and is not cached (the next run retries it);
        ``KeyboardInterrupt`` propagates, with every finished item kept.
    """
    out.mkdir(parents=True, exist_ok=True)
    games: dict[str, Game] = {}
    claims = {c.id: c for c in CLAIMS}
    memo: dict[str, tuple[Row, ...]] = {}

    def rows_of(claim_id: str) -> tuple[Row, ...]:
        """A claim's rows: this run's, an earlier run's record, or computed now."""
        if claim_id not in memo:
            claim = claims[claim_id]
            same = next((t for t in tasks if t.id == claim_id), None)
            cached = None if same is None or fresh else load_record(out, same)
            if cached is not None:
                memo[claim_id] = cached.rows
            else:
                ctx = _SharedGames(np.random.default_rng(seed), games)
                memo[claim_id] = tuple(claim.run(claim, ctx))
        return memo[claim_id]

    results = []
    for task in tasks:
        cached = None if fresh else load_record(out, task)
        if cached is not None:
            if task.kind == "claim":
                memo[task.id] = cached.rows
            results.append(cached)
            if progress:
                progress("cached", task, cached)
            continue
        if progress:
            progress("start", task, None)
        rel = folder_of(task.id, task.key)
        folder = out / rel
        folder.mkdir(parents=True, exist_ok=True)
        ctx = RunContext(folder, seed, rows_of, *([run_command] if run_command else []))
        t0 = time.perf_counter()
        error = ""
        try:
            got = task.run(ctx)
        except Exception as exc:  # noqa: BLE001 - one failed item must not lose the others
            got, error = None, f"{type(exc).__name__}: {exc}"
        seconds = time.perf_counter() - t0
        if not any(folder.iterdir()):
            folder.rmdir()  # a claim writes no files
        if got is None:
            res = ItemResult(task.id, task.paper, task.kind, task.title, task.command, task.key,
                         seconds, error=error)  # fmt: skip
        else:
            res = ItemResult(
                task.id, task.paper, task.kind, task.title, task.command, task.key, seconds,
                rows=got.rows,
                images=tuple(Image(f"{rel}/{f}", c) for f, c in got.images),
                tables=got.tables,
                files=tuple(f"{rel}/{f}" for f in got.files if (folder / f).exists()),
                notes=got.notes,
            )  # fmt: skip
            record = {"format": REPORT_ITEM_FORMAT, **res.to_dict()}
            atomic_write_text(record_path(out, task), json.dumps(record, indent=1) + "\n")
        results.append(res)
        if progress:
            progress("done", task, res)
    return results


__all__ = ["REPORT_ITEM_FORMAT", "Progress", "compute", "load_record", "record_path"]
