"""The report's items in page order: each paper's claims (one item per claim of
:mod:`toypoker.literature.claims`, what ``toypoker literature check --claim ID
--seed N`` prints), then its figures (:mod:`toypoker.report.figures`).
``--quick`` leaves out the items that need the 3-player MMH game (minutes each).
"""

from __future__ import annotations

from collections.abc import Sequence

from toypoker.errors import ToypokerError, UnknownNameError
from toypoker.literature.claims import CLAIMS
from toypoker.report.catalogue import PAPER_IDS, SLOW_CLAIMS, claim_paper, command_line, item_key
from toypoker.report.figures import figure_tasks
from toypoker.report.model import ItemOutput, RunContext, Task


def claim_task(claim_id: str, seed: int) -> Task:
    """The item of one claim: its rows as ``literature check`` prints them."""
    claim = next(c for c in CLAIMS if c.id == claim_id)
    argv = ["literature", "check", "--claim", claim_id, "--seed", str(seed)]

    def run(ctx: RunContext) -> ItemOutput:
        return ItemOutput(rows=tuple(ctx.rows_of(claim_id)))

    return Task(
        claim_id,
        claim_paper(claim_id),
        "claim",
        f"{claim.statement} ({claim.source})",
        command_line(argv),
        item_key(command_line(argv)),
        run,
    )


def plan(
    quick: bool = False,
    seed: int = 0,
    items: Sequence[str] | None = None,
) -> list[Task]:
    """The items of the report, in order: each paper's claims, then its figures.

    Parameters
    ----------
    quick
        Coarse grids, fewer rounds, no 3-player MMH items (minutes in all).
    seed
        Seed of the claims' random family members.
    items
        Only these item ids (claim ids or figure ids, e.g. ``fig-billingham-ode``);
        an unknown id is a :class:`~toypoker.errors.ToypokerError`.

    Returns
    -------
    list of Task
    """
    claims = [c.id for c in CLAIMS]
    figs = figure_tasks(quick, seed)
    every = [claim_task(c, seed) for c in claims] + figs
    known = [t.id for t in every] + [t.id for t in figure_tasks(not quick, seed)]
    if items:
        for i in items:
            if i not in known:
                raise UnknownNameError(f"unknown item {i!r}", list(dict.fromkeys(known)))
        chosen = [t for t in every if t.id in items]
        missing = [i for i in items if i not in {t.id for t in chosen}]
        if missing:  # e.g. a full-only item asked for with --quick
            mode = "--quick" if quick else "the full report"
            raise ToypokerError(f"item {missing[0]!r} is not part of {mode}")
    else:
        chosen = [t for t in every if not (quick and t.id in SLOW_CLAIMS)]
    order = {p: k for k, p in enumerate(PAPER_IDS)}
    return sorted(chosen, key=lambda t: (order[t.paper], t.kind != "claim"))  # stable


def skipped_in_quick(seed: int = 0) -> list[Task]:
    """The items of the full report that ``--quick`` leaves out."""
    full = {t.id: t for t in plan(False, seed)}
    quick = {t.id for t in plan(True, seed)}
    return [t for i, t in full.items() if i not in quick]


__all__ = ["claim_task", "plan", "skipped_in_quick"]
