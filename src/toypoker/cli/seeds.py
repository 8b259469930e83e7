"""``toypoker solve --seeds N``: :func:`toypoker.solvers.seeds.seed_spread` with a
progress bar, each seed's files, and the spread printed."""

from __future__ import annotations

import os
import re
from pathlib import Path

from toypoker.archive import save_profile
from toypoker.cli.checks import temp_checkpoint
from toypoker.cli.common import Bar, emit, err, interrupted, out, plain, resume_hint, said
from toypoker.cli.tables import WrappedColumns, team_lines
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.result import Result
from toypoker.solvers.checkpoint import checkpoint_head
from toypoker.solvers.seeds import seed_spread, seeded


def kept_seeds(base: Path, first: int, seeds: int) -> list[int]:
    """The seeds ``first .. first + seeds - 1`` whose file ``seeded(base, s)`` exists, in
    order, from one listing of its folder: a batch of 100 million seeds is not stat-ed
    file by file before it starts."""
    pattern = re.compile(re.escape(base.stem) + r"-seed(0|[1-9][0-9]*)" + re.escape(base.suffix))
    found = []
    try:
        with os.scandir(base.parent) as entries:
            for entry in entries:
                m = pattern.fullmatch(entry.name)
                if m and first <= int(m.group(1)) < first + seeds:
                    found.append(int(m.group(1)))
    except OSError:  # no folder, or one that cannot be listed: no kept seed
        return []
    return sorted(found)


def check_batch(method: str, stochastic: bool, seeds: int, first: int, resume: Path | None) -> None:
    """One line for a batch of ``seeds`` that cannot be: a deterministic ``method``, or a
    ``--resume`` with no checkpoint of any of the batch's seeds."""
    if seeds > 1 and not stochastic:
        raise ToypokerError(f"--seeds needs a sampling method; {method} is deterministic")
    if seeds > 1 and resume is not None:
        if not kept_seeds(resume, first, seeds):  # one listing of the folder (H8c)
            raise ToypokerError(
                f"--resume {resume}: no checkpoint of seeds {first}..{first + seeds - 1} "
                f"(e.g. {seeded(resume, first).name}); give the --checkpoint of the batch"
            )


def solve_batch(
    g: Game,
    method: str,
    seeds: int,
    first: int,
    kw: dict,
    output: Path | None,
    csv: Path | None,
    result: Path | None,
    checkpoint: Path | None,
    resume: Path | None,
    json_: bool,
) -> None:
    """:func:`~toypoker.solvers.seeds.seed_spread` with a bar, each seed checkpointed
    beside ``checkpoint`` (or ``resume``, else a scratch file whose seeds' states are
    removed once the batch has run) and its profile written as it finishes; the spread
    (and each seed's team evaluation) printed.  One Ctrl-C stops the batch and keeps the
    states; ``--resume`` continues it."""
    base = checkpoint or resume or temp_checkpoint("seeds")

    def save(r: Result) -> None:
        if output:
            save_profile(r.profile, seeded(output, r.seed))
        if csv:
            r.profile.to_csv(seeded(csv, r.seed))

    try:  # one listing of the folder, and a Ctrl-C here says how to resume
        for s in kept_seeds(resume, first, seeds) if resume is not None else ():
            head = checkpoint_head(seeded(resume, s))
            if head is not None:  # what each resumed seed starts from, as a single run says
                err.print(f"resuming seed {s}: {seeded(resume, s)} at iteration {head[2]}",
                          highlight=False, soft_wrap=True)  # fmt: skip
    except KeyboardInterrupt:
        raise interrupted(
            f"before the first seed ran (reading the kept states of {resume}); nothing changed",
            resume_hint(drop=("--resume",), add=("--resume", str(resume))),
        ) from None
    with Bar(f"{method} {g.spec}: seeds", seeds) as bar:
        spread = seed_spread(
            g, method, seeds, first=first, checkpoint=base, resume=resume,
            progress=bar.update, on_run=save, **kw,
        )  # fmt: skip
    if spread.stopped is not None:
        s, ck = spread.stopped.seed, seeded(base, spread.stopped.seed)
        if ck is None or not ck.exists():  # a scratch state that could not be written
            raise interrupted(f"seed {s} stopped; states not kept", None)
        raise interrupted(
            f"seed {s} stopped after {spread.stopped.iterations} iterations "
            f"({len(spread.runs)} of {seeds} seeds done); states saved as {ck.name} etc. "
            f"in {base.parent}",
            resume_hint(drop=("--resume",), add=("--resume", str(base))),
        )
    if checkpoint is None and resume is None:  # the scratch states, used up
        for k in range(seeds):
            seeded(base, first + k).unlink(missing_ok=True)
    runs = spread.runs
    summary = plain(spread.to_json_dict())
    if runs[0].solved_as is not None:
        summary["solved_as"] = runs[0].solved_as
    if kw.get("team"):  # each seed's team evaluation
        summary["team"] = [{"seed": r.seed, **plain(r.team.to_dict())} for r in runs if r.team]
    if emit(summary, result, json_):
        return
    _print_spread(g, method, seeds, summary)
    if runs[0].solved_as is not None:
        out.print(f"solved as the merged team: {runs[0].solved_as}")
    aim = kw["target_nash_conv"] if kw["target_nash_conv"] is not None else kw["target_max_gain"]
    for r in runs:
        if r.team is not None:
            out.print(*(f"seed {r.seed}: {line}" for line in team_lines(r.team, aim)), sep="\n")
    if output or csv:
        said(f"profiles written as {seeded(output or csv, first)} ... (one per seed)")
    if result:
        said(f"seed summary written to {result}")


def _print_spread(g: Game, method: str, seeds: int, summary: dict) -> None:
    """The seeds' spread: values, then the infosets that vary (columns wrapped to the
    terminal, never cut: :class:`~toypoker.cli.tables.WrappedColumns`)."""
    nc = summary["nash_conv"]
    stats = ["mean", "std", "min", "max"]
    out.print(
        WrappedColumns(
            f"{seeds} seeds of {method} on {g.spec}: expected values",
            f"NashConv: max {nc['max']:.3g}, mean {nc['mean']:.3g}",
            "player",
            stats,
            [(f"P{v['player']}", [f"{v[k]:.5f}" for k in stats]) for v in summary["values"]],
            "statistics",
        )
    )
    out.print(
        WrappedColumns(
            "Infosets whose strategy varies across seeds (P of the last action)",
            None,
            "infoset",
            ["action", "min", "max", "mean"],
            [
                (
                    item["infoset"],
                    [item["action"], *(f"{item[k]:.3f}" for k in ("min", "max", "mean"))],
                )
                for item in summary["varying_infosets"]
            ],
            "columns",
        )
    )
