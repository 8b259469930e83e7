"""The papers reproduced as a static, offline report (``toypoker reproduce``).

A folder with ``index.html`` (per paper: how many printed numbers are verified
exactly, verified to a tolerance, or disagree; links; machine, versions, run
time) and one page per paper (:data:`PAPERS`: its claims, each printed number
beside ours, then its figures and tables), images as PNG/GIF files beside the
pages: no network, no script.  ``--format json`` writes the same content as
``index.json`` and one ``<paper>.json`` per paper.

Every item -- a claim of :mod:`toypoker.literature.claims`, or a figure drawn
by the command that draws it (``trace``, ``dynamics``, ``compare``,
``collusion``; Ullman's heatmaps by
:mod:`toypoker.literature.figures_ullman`) -- says the command that recreates
it and its run time, and is cached in ``OUT/items/`` when it finishes, so a
rerun (or a run after Ctrl-C) computes only what is missing.  The figure items
run their commands through a runner handed in by the caller (``toypoker
reproduce`` passes one that runs the command line in-process)::

    from toypoker import report
    tasks = report.plan(quick=True)
    results = report.compute(Path("out"), tasks, run_command=runner)
    report.write_html(Path("out"), results, report.RunInfo("quick", 0, 0.0))

Front-end floor: may import the library and the studies (the claims, the paper
data, the figures), never the command line (:mod:`toypoker.cli`).
"""

from __future__ import annotations

from toypoker.report.catalogue import (
    PAPER_IDS,
    PAPERS,
    SLOW_CLAIMS,
    TOLERANCE_CLAIMS,
    claim_paper,
    folder_of,
    precision,
    status_of,
)
from toypoker.report.model import (
    CommandRunner,
    Image,
    ItemOutput,
    ItemResult,
    Paper,
    RunContext,
    Table,
    Task,
)
from toypoker.report.render import (
    STATUSES,
    RunInfo,
    counts,
    machine,
    to_json,
    write_html,
    write_json,
)
from toypoker.report.run import compute, load_record, record_path
from toypoker.report.tasks import plan, skipped_in_quick

__all__ = [
    "PAPERS",
    "PAPER_IDS",
    "SLOW_CLAIMS",
    "STATUSES",
    "TOLERANCE_CLAIMS",
    "CommandRunner",
    "Image",
    "ItemOutput",
    "Paper",
    "ItemResult",
    "RunContext",
    "RunInfo",
    "Table",
    "Task",
    "claim_paper",
    "compute",
    "counts",
    "folder_of",
    "load_record",
    "machine",
    "plan",
    "precision",
    "record_path",
    "skipped_in_quick",
    "status_of",
    "to_json",
    "write_html",
    "write_json",
]
