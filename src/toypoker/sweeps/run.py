"""Running a sweep: the grid of jobs, the serial or Dask scheduler, the gathered table.

:func:`sweep` builds the cartesian product of its axes (game parameters such
as ``pot`` or ``cards``, the kind's own parameters, seeds and methods), runs
the jobs (:mod:`toypoker.sweeps.jobs`) serially or on a Dask cluster (a
:class:`distributed.LocalCluster` by default, or an existing scheduler's
address), and gathers one tidy table.

With a folder ``out``, every finished job is written there atomically as
``jobs/<id>.json`` the moment it arrives (the id is a hash of kind and
parameters), so a rerun skips what is finished and an interrupted sweep or a
dead worker loses nothing.  A job that raises is recorded with its error and
the sweep goes on; failed jobs are run again by a rerun.  The table is written
as ``results.csv`` and, with pyarrow, ``results.parquet``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import math
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from toypoker.checks import (
    check_callable,
    check_int,
    check_path,
    check_text,
    plain,
    plain_values,
    shown,
    whole,
)
from toypoker.errors import SpecError, ToypokerError
from toypoker.games import canonical_spec
from toypoker.interrupts import STOP_SIGNALS, InterruptFlag, deferred_interrupts
from toypoker.io import atomic_write_bytes, atomic_write_text
from toypoker.locks import LOCK_NAME, run_lock
from toypoker.solvers.registry import get_method
from toypoker.spec import format_spec, format_value, parse_number, parse_spec, parse_value
from toypoker.sweeps.cluster import WorkersGoneError, run_on_dask
from toypoker.sweeps.jobs import JOB_KINDS, REQUIRED, Param, run_job

PARQUET_HINT = 'results.parquet needs pyarrow: pip install "toypoker[dask]"'
JOB_FORMAT = "toypoker-sweep-job/1"
SWEEP_FORMAT = "toypoker-sweep/1"


# ----------------------------------------------------------------------- grid
MAX_JOBS = 100_000
"""Most jobs a sweep's grid may have (counted before any job is made)."""


def grid(text: str) -> tuple[str, list[object]]:
    """Parse ``NAME=LO:HI:STEPS`` (STEPS evenly spaced exact values, ends included) or
    ``NAME=V1,V2,...`` (numbers exact, ``true``/``false``, words or file paths)."""
    name, sep, rest = text.partition("=")
    if not sep or not name.strip() or not rest.strip():
        raise ToypokerError(f"--param {text!r}: expected NAME=LO:HI:STEPS or NAME=V1,V2,...")
    steps_given = rest.rsplit(":", 1)[-1].strip() if ":" in rest else ""
    if steps_given.isdigit() and int(steps_given) > MAX_JOBS:
        raise ToypokerError(f"--param {name.strip()}: {steps_given} steps; at most {MAX_JOBS:,}")
    try:
        if ":" in rest:
            lo, hi, steps = rest.split(":")
            n = int(steps)
            if n < 1:
                raise ValueError
            a, b = parse_number(lo), parse_number(hi)
            return name.strip(), [a] if n == 1 else [a + (b - a) * i / (n - 1) for i in range(n)]
    except (ValueError, SpecError):
        raise ToypokerError(f"--param {text!r}: LO:HI:STEPS needs exact numbers") from None
    values: list[object] = []
    for v in rest.split(","):
        try:
            values.append(parse_value(v))
        except SpecError:
            values.append(v.strip())
    return name.strip(), values


def _typed(param: Param, v: object) -> object:
    """An axis value as the parameter's type (one-line error otherwise)."""
    if v is None and param.optional:
        return None
    try:
        if param.type is bool:
            if isinstance(v, str) and v.lower() in ("true", "false"):
                return v.lower() == "true"
            if isinstance(v, bool):
                return v
            raise ValueError
        if param.type is str:
            return v if isinstance(v, str) else format_value(v)
        if isinstance(v, bool):
            raise ValueError
        x = parse_number(v) if isinstance(v, str) else Fraction(v)
        if param.type is int:
            if x.denominator != 1:
                raise ValueError
            return int(x)
        return float(x)
    except (ValueError, TypeError, SpecError):
        raise ToypokerError(f"{param.name} must be {param.type.__name__}, not {v!r}") from None


def _game_value(v: object) -> str:
    if isinstance(v, bool | str):
        return format_value(v)
    if isinstance(v, float):
        return format_value(parse_number(repr(v)))
    return format_value(Fraction(v))


@dataclass(frozen=True)
class Job:
    """One job: a kind and its parameters (``spec``, ``game`` overrides, the kind's own)."""

    kind: str
    params: dict

    @property
    def id(self) -> str:
        text = json.dumps({"kind": self.kind, "params": self.params}, sort_keys=True)
        return f"{self.kind}-{hashlib.sha256(text.encode()).hexdigest()[:16]}"


def _jobs(
    kind: str, spec: str, axes: Mapping[str, object], seeds: Sequence[int] | None,
    methods: Sequence[str] | None,
) -> list[Job]:  # fmt: skip
    if kind not in JOB_KINDS:
        raise ToypokerError(f"unknown job kind {kind!r}; known: {', '.join(JOB_KINDS)}")
    jk = JOB_KINDS[kind]
    own = {p.name: p for p in jk.params}
    base = canonical_spec(spec)
    lists: dict[str, list[object]] = {}
    for name, vals in axes.items():
        listed = plain_values(vals)  # a list, tuple, range or numpy array: its values
        seq = [plain(vals)] if listed is None else listed
        if not seq:
            raise ToypokerError(f"--param {name}: no values")
        if name in own:
            lists[name] = [_typed(own[name], v) for v in seq]
        else:
            lists[name] = [_game_value(v) for v in seq]
            parsed = parse_spec(base)
            try:  # an unknown parameter name is bad input; a bad value, a failed job
                canonical_spec(format_spec(parsed.name, {**parsed.as_dict(), name: seq[0]}))
            except SpecError as exc:
                if "unknown" in str(exc) or "parameter" in str(exc):
                    raise ToypokerError(
                        f"{name} is neither a parameter of {kind} "
                        f"({', '.join(own) or 'none'}) nor of the game: {exc}"
                    ) from None
    for name, extra in (("method", methods), ("seed", seeds)):
        if extra is not None:
            if name not in own:
                raise ToypokerError(f"{kind} jobs take no {name}")
            if name in lists:
                raise ToypokerError(f"give {name} once (--param or --{name}s)")
            _check_count(math.prod(len(v) for v in lists.values()) * len(extra))  # before listing
            lists[name] = [_typed(own[name], v) for v in extra]
    missing = [p.name for p in jk.params if p.default is REQUIRED and p.name not in lists]
    if missing:
        raise ToypokerError(f"{kind} jobs need --param {', '.join(missing)}")
    if "method" in lists:
        for m in lists["method"]:
            get_method(m)  # an unknown method is bad input
    names = list(lists)
    _check_count(math.prod(len(lists[n]) for n in names))
    jobs: dict[str, Job] = {}
    for combo in itertools.product(*(lists[n] for n in names)):
        values = dict(zip(names, combo, strict=True))
        params: dict[str, object] = {"spec": base}
        params["game"] = {n: v for n, v in values.items() if n not in own}
        params.update({p.name: values.get(p.name, p.default) for p in jk.params})
        if kind == "solve" and params["seed"] is not None:
            if not get_method(params["method"]).stochastic:
                params["seed"] = None  # a deterministic method: one job for every seed
        job = Job(kind, params)
        jobs.setdefault(job.id, job)
    return list(jobs.values())


def _check_count(count: int) -> None:
    """One line refusing a grid of more than :data:`MAX_JOBS` jobs (counted before its
    values are listed: ``--seeds 1000000000`` is a range, not a list)."""
    if count > MAX_JOBS:
        raise ToypokerError(f"the grid has {count:,} jobs; at most {MAX_JOBS:,} a sweep")


# --------------------------------------------------------------------- result
@dataclass(frozen=True)
class SweepResult:
    """A finished sweep: one row per job, in grid order (params, status, error, result).

    ``rows[i]`` is a flat dict: ``job`` (its id), ``kind``, ``spec``, every game and
    job parameter, ``status`` (``ok``/``failed``), ``error``, ``seconds`` and the
    result columns.
    """

    kind: str
    spec: str
    rows: tuple[dict, ...]

    @property
    def failed(self) -> int:
        """How many jobs failed."""
        return sum(r["status"] != "ok" for r in self.rows)

    def columns(self) -> list[str]:
        """Every column, in order of first appearance."""
        return list(dict.fromkeys(k for r in self.rows for k in r))

    def to_csv(self, path: str | Path | None = None) -> str:
        """The table as CSV (empty cells for missing values); written atomically."""
        buf = io.StringIO()
        w = csv.DictWriter(buf, self.columns(), lineterminator="\n")
        w.writeheader()
        for r in self.rows:
            w.writerow({k: "" if v is None else v for k, v in r.items()})
        if path is not None:
            atomic_write_text(path, buf.getvalue())
        return buf.getvalue()

    def to_parquet(self, path: str | Path) -> None:
        """The table as Parquet (pyarrow), written atomically; one type per column
        (bool, int64, float64 or string)."""
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise ToypokerError(PARQUET_HINT) from None
        data = {}
        for c in self.columns():
            vals = [r.get(c) for r in self.rows]
            seen = [v for v in vals if v is not None]
            if seen and all(isinstance(v, bool) for v in seen):
                typ = pa.bool_()
            elif seen and all(isinstance(v, int) and not isinstance(v, bool) for v in seen):
                typ = pa.int64()
            elif seen and all(isinstance(v, int | float) and not isinstance(v, bool) for v in seen):
                typ, vals = pa.float64(), [None if v is None else float(v) for v in vals]
            else:
                typ, vals = pa.string(), [None if v is None else str(v) for v in vals]
            data[c] = pa.array(vals, type=typ)
        sink = pa.BufferOutputStream()
        pq.write_table(pa.table(data), sink)
        atomic_write_bytes(path, sink.getvalue().to_pybytes())


def _job_spec(job: Job) -> str:
    """The job's own game when it did not run: the base spec with the job's game
    parameters (canonical when valid, else as written: a failed job names its game)."""
    over = job.params["game"]
    if not over:
        return job.params["spec"]
    base = parse_spec(job.params["spec"])
    written = format_spec(
        base.name, {**base.as_dict(), **{k: parse_value(str(v)) for k, v in over.items()}}
    )
    try:
        return canonical_spec(written)
    except SpecError:
        return written


def _row(job: Job, rec: dict) -> dict:
    game = (rec.get("result") or {}).get("game")  # the spec of the game the job ran
    spec = game if isinstance(game, str) else _job_spec(job)
    row: dict[str, object] = {"job": job.id, "kind": job.kind, "spec": spec}
    for k, v in job.params["game"].items():
        try:
            row[k] = (
                float(parse_number(v)) if parse_number(v).denominator != 1 else int(parse_number(v))
            )
        except SpecError:
            row[k] = v
    row.update({k: v for k, v in job.params.items() if k not in ("spec", "game")})
    row.update(status=rec["status"], error=rec["error"], seconds=rec["seconds"])
    for k, v in rec["result"].items():
        row[k if k not in row else f"result_{k}"] = v
    return row


def _read(path: Path) -> dict | None:
    try:
        rec = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return rec if isinstance(rec, dict) and rec.get("format") == JOB_FORMAT else None


def _prepare(out: Path, kind: str, spec: str) -> None:
    head = out / "sweep.json"
    if head.exists():
        try:
            old = json.loads(head.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old = None
        if not isinstance(old, dict) or (old.get("kind"), old.get("spec")) != (kind, spec):
            raise ToypokerError(f"{out} holds another sweep; give a new folder")
    elif out.exists() and any(p.name != LOCK_NAME for p in out.iterdir()):
        raise ToypokerError(f"{out} is not empty and holds no sweep; give a new folder")


def _check_sweep_args(
    kind: object, spec: object, axes: object, seeds: object, methods: object,
    workers: object, retries: object,
) -> tuple[Sequence[int] | None, list[str] | None]:  # fmt: skip
    """:func:`sweep`'s arguments checked, one sentence each; ``(seeds, methods)`` as lists."""
    check_text(kind, "kind", f"a job kind ({', '.join(JOB_KINDS)})")
    check_text(spec, "spec", 'a game spec such as "kuhn(players=3)"', SpecError)
    if axes is not None and not isinstance(axes, Mapping):
        raise ToypokerError(f"axes must be a mapping {{name: values}}, not {type(axes).__name__}")
    if workers is not None:
        check_int(workers, "workers", low=1)
    check_int(retries, "retries", low=0)
    if seeds is not None:
        if isinstance(seeds, range):  # counted before it is listed
            _check_count(len(seeds))
        listed = plain_values(seeds)
        if whole(seeds) is not None:
            seeds = range(check_int(seeds, "seeds", low=1))
        elif listed is not None:
            seeds = [check_int(s, "a seed", low=0) for s in listed]
        else:
            raise ToypokerError(f"seeds must be a count or a list of seeds, not {shown(seeds)}")
        if not seeds:
            raise ToypokerError("seeds: give at least one seed (or None)")
    if methods is not None:
        names = None if isinstance(methods, str) else plain_values(methods)
        if names is None:
            raise ToypokerError(f"methods must be a list of names, not {shown(methods)}")
        methods = names
        if not methods:
            raise ToypokerError("methods: give at least one method (or None for the default)")
        methods = [check_text(m, "a method", "a method name") for m in methods]
    return seeds, methods  # type: ignore[return-value]


@contextmanager
def _jobs_cut_by_signals(flag: InterruptFlag) -> Iterator[None]:
    """Within the block (one job of a serial sweep, inside the sweep's deferred block
    whose flag is ``flag``), SIGINT and SIGTERM raise ``KeyboardInterrupt`` at once: the
    job, whatever its kind, is the unit a signal cuts and discards.

    The deferred block's own handler takes the signal first -- it says so, sets ``flag``
    and has further signals wait until the command has said what it kept -- so a
    ``KeyboardInterrupt`` that CPython drops (raised inside numba's compiler) still stops
    the sweep: at the job's next progress call (:func:`~toypoker.sweeps.jobs.run_job`'s
    ``stop``) or when it returns, and a second signal cuts the job again.  An inner
    deferred block of the job (a solve's) takes the signals it sees as its own; it sets
    ``flag`` too.  Outside the main thread signals behave as usual."""
    if flag.requested:  # a signal before the job began (or one CPython dropped before)
        raise KeyboardInterrupt
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    taken = signal.getsignal(signal.SIGINT)  # the deferred block's handler

    def cut(signum: int, frame: object) -> None:
        if not flag.requested and callable(taken):
            taken(signum, frame)
        raise KeyboardInterrupt

    previous = {s: signal.signal(s, cut) for s in STOP_SIGNALS}
    try:
        if flag.requested:  # a signal while the handlers were changed
            raise KeyboardInterrupt
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


def sweep(
    kind: str,
    spec: str,
    axes: Mapping[str, object] | None = None,
    *,
    seeds: int | Sequence[int] | None = None,
    methods: Sequence[str] | None = None,
    out: str | Path | None = None,
    scheduler: object = "local",
    workers: int | None = None,
    retries: int = 3,
    progress: Callable[[int, int, int], None] | None = None,
) -> SweepResult:
    """Run a grid of jobs of one kind and gather them into one table.

    Parameters
    ----------
    kind
        A name in :data:`JOB_KINDS` (``solve``, ``eval``, ``verify``, ``equilibria``,
        ``trace``, ``play``, ``ode``).
    spec
        The base game (``skp`` for ``play`` and ``ode``).
    axes
        ``{name: value or list of values}``: game parameters (``pot``, ``cards``, ...)
        and the kind's parameters; the jobs are their cartesian product.
    seeds, methods
        More axes: ``seeds`` an int ``N`` (seeds 0..N-1) or the seeds; ``methods`` names.
    out
        A sweep folder: each finished job in ``jobs/<id>.json`` (atomic), skipped by a
        rerun; the table in ``results.csv`` and ``results.parquet`` (with pyarrow).
    scheduler
        ``"serial"``/``None`` (this process), ``"local"`` (a LocalCluster of
        ``workers`` processes, default one per core), a ``tcp://host:port`` address
        or a ``distributed.Client``.
    retries
        Times a job is resubmitted when its worker dies.
    progress
        Called as ``progress(done, total, failed)`` after each job.

    Returns
    -------
    SweepResult

    Examples
    --------
    >>> import toypoker as tp
    >>> res = tp.sweep("eval", "kuhn(players=2)", {"pot": [2, 4]}, scheduler="serial")
    >>> [round(r["nash_conv"], 4) for r in res.rows]
    [0.9167, 1.6667]
    """
    seeds, methods = _check_sweep_args(kind, spec, axes, seeds, methods, workers, retries)
    check_callable(progress, "progress")
    if out is not None:
        out = check_path(out, "out")
    jobs = _jobs(kind, spec, dict(axes or {}), seeds, methods)
    spec_c = jobs[0].params["spec"]
    folder = None if out is None else Path(out)
    # a folder in use by a live sweep is locked: a second run refuses
    held = nullcontext() if folder is None else run_lock(folder, "sweep folder", folder=True)
    with held:
        done: dict[str, dict] = {}
        if folder is not None:
            _prepare(folder, kind, spec_c)
            for j in jobs:
                rec = _read(folder / "jobs" / f"{j.id}.json")
                if rec is not None and rec.get("status") == "ok":
                    done[j.id] = rec
            head = {"format": SWEEP_FORMAT, "kind": kind, "spec": spec_c,
                    "jobs": [j.id for j in jobs]}  # fmt: skip
            atomic_write_text(folder / "sweep.json", json.dumps(head, indent=1) + "\n")
        failed = 0

        def finish(job: Job, rec: dict) -> None:
            nonlocal failed
            done[job.id] = rec
            failed += rec["status"] != "ok"
            if folder is not None:
                data = {"format": JOB_FORMAT, "id": job.id, "kind": job.kind,
                        "params": job.params, **rec}  # fmt: skip
                atomic_write_text(folder / "jobs" / f"{job.id}.json", json.dumps(data) + "\n")
            if progress:
                progress(len(done), len(jobs), failed)

        todo = [j for j in jobs if j.id not in done]
        if progress:
            progress(len(done), len(jobs), 0)
        if scheduler in (None, "serial"):
            # between jobs a Ctrl-C or SIGTERM is said at once and taken before the next
            # job, a finished job's record written whole (a second signal waits until
            # the command has said what it kept, as on a cluster); inside a job it also
            # cuts the job (_jobs_cut_by_signals), which is then not recorded
            with deferred_interrupts(keeping="the finished jobs") as flag:
                for j in todo:
                    with _jobs_cut_by_signals(flag):
                        rec = run_job(j.kind, j.params, stop=flag)
                    if flag.requested:  # the job may have stopped short: not recorded
                        raise KeyboardInterrupt
                    finish(j, rec)
        elif todo:
            try:
                run_on_dask(todo, scheduler, workers, retries, run_job, finish)
            except WorkersGoneError as exc:
                kept = f"; {len(done)} finished job(s) kept in {folder} (a rerun goes on)"
                raise WorkersGoneError(f"{exc}{kept if folder else ''}") from None
        res = SweepResult(kind, spec_c, tuple(_row(j, done[j.id]) for j in jobs))
        if folder is not None:
            res.to_csv(folder / "results.csv")
            try:
                res.to_parquet(folder / "results.parquet")
            except ToypokerError:
                pass  # pyarrow missing: the CLI says so in one line
        return res
