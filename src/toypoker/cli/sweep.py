"""``toypoker sweep``: a grid of solve/eval/verify/equilibria/trace/dynamics jobs on Dask."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Annotated

import typer

from toypoker.cli.checks import at_least, check_folder
from toypoker.cli.common import (
    Bar,
    JsonOpt,
    interrupted,
    one_line,
    out,
    out_dir_option,
    print_json,
    resume_hint,
)
from toypoker.errors import SpecError, ToypokerError
from toypoker.spec import parse_number
from toypoker.sweeps import JOB_KINDS, PARQUET_HINT, grid
from toypoker.sweeps import sweep as run_sweep
from toypoker.sweeps.jobs import REQUIRED

MAX_EXIT = 125  # exit status = failed jobs, capped (126+ mean other things to a shell)


def check_range(text: str) -> None:
    """A ``--param NAME=LO:HI:STEPS`` range, each rule checked on its own so an error
    names the one broken (``sweeps.grid`` parses it): three parts, STEPS a whole number
    of at least 1, LO and HI exact numbers.  Lists (``NAME=V1,V2``) pass unchecked."""
    name, sep, rest = text.partition("=")
    if not sep or ":" not in rest:
        return
    where = f"--param {name.strip()}={rest.strip()}"
    parts = [x.strip() for x in rest.split(":")]
    if len(parts) != 3:
        raise ToypokerError(
            f"{where}: a range is LO:HI:STEPS, three parts separated by ':', not {len(parts)}"
        )
    lo, hi, steps = parts
    if not steps.isdigit() or int(steps) < 1:
        raise ToypokerError(
            f"{where}: STEPS is how many values, a whole number of at least 1, not {steps!r}"
        )
    for label, v in (("LO", lo), ("HI", hi)):
        try:
            parse_number(v)
        except SpecError:
            raise ToypokerError(
                f"{where}: {label} must be an exact number (like 2, -1.5, 3/2 or 2e-3), not {v!r}"
            ) from None


def _seeds(text: str | None) -> range | None:
    """``N`` (seeds 0..N-1) or ``A..B`` (inclusive), as a range (counted before any job
    is listed: a billion seeds are refused, not listed)."""
    if text is None:
        return None
    try:
        if ".." in text:
            a, b = (int(x) for x in text.split(".."))
            seeds = range(a, b + 1)
        else:
            seeds = range(int(text))
    except ValueError:
        raise ToypokerError(f"--seeds takes N or A..B, not {text!r}") from None
    if not seeds or seeds[0] < 0:
        raise ToypokerError(f"--seeds {text!r}: no seeds, or a negative one")
    return seeds


def _kinds_help() -> str:
    lines = []
    for k in JOB_KINDS.values():
        ps = ", ".join(
            f"{p.name} (required)"
            if p.default is REQUIRED
            else p.name
            if p.default is None or p.name == "seed"
            else f"{p.name}={p.default}"
            for p in k.params
        )
        lines.append(f"{k.name}: {k.help} [{ps}]")
    return "\n\n".join(lines)


def sweep(
    kind: Annotated[str, typer.Argument(help=f"Job kind: {', '.join(JOB_KINDS)}.")],
    spec: Annotated[str, typer.Argument(help="The base game, e.g. 'kuhn(players=3)' or 'skp'.")],
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            help="NAME=LO:HI:STEPS or NAME=V1,V2,... (repeatable: a cartesian product); a "
            "game parameter (pot, cards, ...) or one of the job kind's.",
        ),
    ] = None,
    seeds: Annotated[str | None, typer.Option(help="Seeds axis: N (0..N-1) or A..B.")] = None,
    methods: Annotated[str | None, typer.Option(help="Methods axis (solve): a,b,c.")] = None,
    outdir: Annotated[
        Path | None,
        out_dir_option("Sweep folder (default sweep/<kind>-<hash>); rerun resumes."),
    ] = None,
    scheduler: Annotated[
        str, typer.Option(help="serial, local (a LocalCluster) or tcp://host:port.")
    ] = "local",
    workers: Annotated[int | None, typer.Option(help="LocalCluster processes.")] = None,
    retries: Annotated[int, typer.Option(help="Resubmissions of a job whose worker died.")] = 3,
    json_: JsonOpt = False,
) -> None:
    """Run a grid of jobs on dask.distributed and gather one table (CSV, Parquet).
    Exit status: the number of failed jobs (0: all done)."""
    at_least("--workers", workers, 1)
    at_least("--retries", retries, 0)
    axes: dict[str, list[object]] = {}
    for text in param or []:
        check_range(text)
        name, values = grid(text)
        if name in axes:
            raise ToypokerError(f"--param {name} given twice")
        axes[name] = values
    method_list = [m.strip() for m in methods.split(",")] if methods else None
    seed_list = _seeds(seeds)
    if outdir is None:
        key = "|".join([kind, spec, *(param or []), seeds or "", methods or ""])
        slug = re.sub(r"[^A-Za-z0-9.=-]+", "_", spec).strip("_")
        outdir = Path("sweep") / f"{kind}-{slug}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"
    check_folder(outdir, "--out-dir")
    with Bar(f"sweep {kind}", None, fields=("failed",)) as bar:

        def progress(done: int, total: int, failed: int) -> None:
            bar.total = total
            if bar._progress is not None:
                bar._progress.update(bar._task, total=total)
            bar.update(completed=done, failed=failed)

        try:
            res = run_sweep(
                kind, spec, axes, seeds=seed_list, methods=method_list, out=outdir,
                scheduler=scheduler, workers=workers, retries=retries, progress=progress,
            )  # fmt: skip
        except KeyboardInterrupt:
            n = len(list((outdir / "jobs").glob("*.json")))
            raise interrupted(f"{n} finished job(s) kept in {outdir}", resume_hint()) from None
    parquet = (outdir / "results.parquet").exists()
    if json_:
        print_json({"out": str(outdir), "failed": res.failed, "rows": list(res.rows)})
    else:
        ok = len(res.rows) - res.failed
        out.print(
            f"{len(res.rows)} {kind} jobs: {ok} done, {res.failed} failed; table in "
            f"{outdir / 'results.csv'}" + (" and results.parquet" if parquet else "")
        )
        for r in [r for r in res.rows if r["status"] != "ok"][:10]:
            out.print(f"  failed {r['job']}: {r['error']}")
    if not parquet:
        one_line(PARQUET_HINT, kind="note")
    if res.failed:
        raise typer.Exit(min(res.failed, MAX_EXIT))


sweep.__doc__ = (sweep.__doc__ or "") + "\n\nJob kinds [parameters, defaults]:\n\n" + _kinds_help()
