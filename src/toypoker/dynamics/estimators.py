"""Batches of repeated-play runs kept as they end: Billingham's estimator studies
(Figures 16-17, eq. (46)) and the run store that lets an interrupted batch resume."""

from __future__ import annotations

import signal
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

import numpy as np

import toypoker.dynamics.play as _play  # its ``play`` looked up at each call (tests wrap it)
from toypoker.dynamics.play import ESTIMATORS, PlayResult, run_differs
from toypoker.errors import ToypokerError
from toypoker.interrupts import InterruptFlag, deferred_interrupts, ignore_interrupts_in_worker
from toypoker.literature.papers import billingham

MAX_RUNS = 100_000
"""The most runs one batch of repeated play lists (a billion seeds are refused, not listed)."""


def _check_runs(n_L: int, n_k: int, seeds: int) -> None:
    """One line refusing a batch of more than :data:`MAX_RUNS` runs."""
    if n_L * n_k * seeds > MAX_RUNS:
        raise ToypokerError(
            f"{n_L * n_k * seeds:,} runs ({n_L} L x {n_k} k x {seeds:,} seeds); at most "
            f"{MAX_RUNS:,} a batch"
        )


def _stored_runs(folder: Path, jobs: list[dict], names: list[str]) -> list[PlayResult | None]:
    """The runs of ``jobs`` a run store ``folder`` keeps (``jobs[i]``'s in ``names[i]``;
    ``None`` for those not run yet).

    Raises
    ------
    ToypokerError
        One line, when ``folder`` keeps a run of other options (a ``run-*.npz`` none of
        ``names``, or one of them made with other arguments): a resume must give the
        numbers of one uninterrupted batch.
    """
    if not folder.is_dir():
        return [None] * len(jobs)
    other = (
        "{folder} keeps runs of other options ({why}): resume with the options they were made "
        "with, or use another folder"
    )
    for f in sorted(folder.glob("run-*.npz")):
        if f.name not in names:
            raise ToypokerError(other.format(folder=folder, why=f"{f.name} is none of these runs"))
    runs: list[PlayResult | None] = []
    for job, name in zip(jobs, names, strict=True):
        r = PlayResult.load(folder / name) if (folder / name).exists() else None
        why = None if r is None else run_differs(r, job)
        if why is not None:
            raise ToypokerError(other.format(folder=folder, why=f"{name} has {why}"))
        runs.append(r)
    return runs


def play_batch(
    jobs: list[dict], names: list[str], checkpoint: str | Path | None = None,
    progress: Callable[[], None] | None = None,
) -> list[PlayResult]:  # fmt: skip
    """``play(**job)`` for each of ``jobs`` in turn, one after the other, in this process.

    Parameters
    ----------
    jobs
        :func:`play`'s keywords per run (``P, k, L, x0, rounds, seed, record_every,
        estimator, clip``, and any other).
    names
        The file name of each run in ``checkpoint``, ``run-*.npz``.
    checkpoint
        A folder keeping each finished run as it ends (:meth:`PlayResult.save`); the runs
        already there are not run again, so an interrupted batch, called again, gives the
        very runs of an uninterrupted one.  A folder keeping runs of other options is
        refused (ToypokerError, one line), before anything runs.
    progress
        Called after each run (the kept ones first).

    Returns
    -------
    list of PlayResult
        The runs, in the order of ``jobs``.

    Raises
    ------
    KeyboardInterrupt
        On a Ctrl-C or SIGTERM: the batch stops between two chunks of a run (the finished
        runs are kept), a second signal at once.
    """
    folder = None if checkpoint is None else Path(checkpoint)
    runs: list[PlayResult | None] = (
        [None] * len(jobs) if folder is None else _stored_runs(folder, jobs, names)
    )
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    for _ in range(sum(r is not None for r in runs) if progress is not None else 0):
        progress()
    with deferred_interrupts() as flag:

        def step(_done: int) -> None:
            if flag.requested:
                raise KeyboardInterrupt

        for i in (i for i, r in enumerate(runs) if r is None):
            step(0)
            r = runs[i] = _play.play(**jobs[i], progress=step)
            if folder is not None:
                r.save(folder / names[i])
            if progress is not None:
                progress()
            step(0)
    return [r for r in runs if r is not None]


def estimator_studies(
    P: float = 9.0,
    Ls: Sequence[int] = (6, 12, 24, 48, 96, 192),
    rounds: int = 1_100_000,
    *,
    seed: int = 0,
    estimators: Sequence[str] = ESTIMATORS,
    clip: bool = False,
    progress: Callable[[], None] | None = None,
    checkpoint: str | Path | None = None,
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """:func:`estimator_study` for each form of eq. (46) in ``estimators``, in turn, as
    one batch of runs (memory ``Ls[i]`` with seed ``seed + i`` in each form).

    Parameters
    ----------
    P, Ls, rounds, seed, clip
        As :func:`estimator_study`.
    estimators
        The forms of Player 2's estimate of ``c_K``, each of :data:`ESTIMATORS`.
    progress
        Called after each run (:func:`play_batch`).
    checkpoint
        A folder keeping each finished run (``run-L{L}-{estimator}-seed{seed}.npz``, of
        format :data:`~toypoker.dynamics.play.PLAY_RUN_FORMAT`): the same call again runs
        only the rest, with the numbers of an uninterrupted batch; one keeping runs of
        other options is refused (ToypokerError).

    Returns
    -------
    dict
        ``{estimator: (means, stds, truth)}`` as :func:`estimator_study` returns them.
    """
    for e in estimators:
        if e not in ESTIMATORS:
            raise ToypokerError(f"unknown estimator {e!r}; known: {', '.join(ESTIMATORS)}")
    longest = max((int(L) for L in Ls), default=0)
    if int(rounds) <= longest:  # the estimates are averaged over the rounds after the first L
        raise ToypokerError(
            f"rounds ({int(rounds):,}) must exceed the longest memory L ({longest:,}): an "
            "estimate is averaged over the rounds after its first L"
        )
    s3 = billingham.skp_solution(float(P), 3)[0]
    x = (s3["b_J"], s3["c_K"], s3["d_Q"])
    jobs = [
        dict(P=float(P), k=(0.001,) * 3, L=(int(L),) * 3, x0=x, adapt=False, rounds=int(rounds),
             seed=int(seed) + i, record_every=int(rounds), estimator=e, clip=bool(clip))
        for e in estimators for i, L in enumerate(Ls)
    ]  # fmt: skip
    names = [f"run-L{a['L'][0]}-{a['estimator']}-seed{a['seed']}.npz" for a in jobs]
    runs = play_batch(jobs, names, checkpoint, progress)
    truth = np.array([x[0], x[0], x[1], x[2], x[1]])
    n = len(Ls)
    return {
        e: (np.array([r.estimator_mean for r in runs[j * n : (j + 1) * n]]),
            np.array([r.estimator_std for r in runs[j * n : (j + 1) * n]]), truth)
        for j, e in enumerate(estimators)
    }  # fmt: skip


def estimator_study(
    P: float = 9.0,
    Ls: Sequence[int] = (6, 12, 24, 48, 96, 192),
    rounds: int = 1_100_000,
    seed: int = 0,
    estimator: str = "corrected",
    clip: bool = False,
    progress: Callable[[], None] | None = None,
    checkpoint: str | Path | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Means and standard deviations of the five estimates at fixed Solution 3
    frequencies (App. D, Figs. 16-17); returns (means, stds, truth), rows per L and
    columns (b1, b2, c2, d3, c3).  Memory ``Ls[i]`` is run with seed ``seed + i``.
    ``progress()`` is called after each memory's run; ``checkpoint`` keeps the finished
    runs (:func:`estimator_studies`)."""
    return estimator_studies(P, Ls, rounds, seed=seed, estimators=(estimator,), clip=clip,
                             progress=progress, checkpoint=checkpoint)[estimator]  # fmt: skip


def estimator_limits(b: float, c: float, d: float, estimator: str = "corrected") -> np.ndarray:
    """The large-L limits of the estimates (b1, b2, c2, d3, c3): each estimator (44)-(47)
    at the expected counts of App. D's Table 2."""
    if estimator not in ESTIMATORS:
        raise ToypokerError(f"unknown estimator {estimator!r}; known: {', '.join(ESTIMATORS)}")
    N = billingham.table2_counts(float(b), float(c), float(d)).astype(float)
    pairs = [
        billingham.b_estimator(N),
        billingham.b_estimator(N),
        billingham.c2_estimator(N, estimator == "corrected"),
        billingham.d_estimator(N),
        billingham.c3_estimator(N),
    ]
    return np.array([num / den for num, den in pairs])


# --------------------------------------------------------------- experiments
def _worker_start() -> None:
    """Pool initializer: a worker leaves Ctrl-C to the parent, which stops the sweep, and
    takes SIGTERM's default (it ends), not the parent's handler it inherits by fork."""
    ignore_interrupts_in_worker()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _end_pool(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: its queued runs cancelled, its workers ended (SIGTERM, then
    SIGKILL after a second) and waited for, so none outlives the sweep."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        p.terminate()
    for p in procs:
        p.join(1.0)
        if p.exitcode is None:  # still alive
            p.kill()
            p.join(5.0)
    pool.shutdown(wait=True)


def _run_in_pool(
    todo: list[int], jobs: list[dict], workers: int, keep: Callable[[int, PlayResult], None],
    flag: InterruptFlag,
) -> None:  # fmt: skip
    """Run ``jobs[i]`` for ``i`` in ``todo`` on a pool of ``workers`` processes, handing
    each finished run to ``keep(i, run)``; once ``flag`` is set (a Ctrl-C or SIGTERM),
    the runs finished by then are kept, the others cancelled and their workers ended,
    and ``KeyboardInterrupt`` is raised.  No more processes than runs are started
    (``workers=40`` for 2 runs forked 40)."""
    pool = ProcessPoolExecutor(
        max_workers=max(1, min(workers, len(todo))), initializer=_worker_start
    )
    pending: dict = {}
    try:
        pending = {pool.submit(_play.play, **jobs[i]): i for i in todo}
        while pending:
            finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for fut in finished:
                keep(pending.pop(fut), fut.result())
            if flag.requested:
                raise KeyboardInterrupt
    finally:
        # a second signal waits until the workers are ended and the finished runs kept
        with deferred_interrupts(keeping="the finished runs"):
            done = [(f, i) for f, i in pending.items() if f.done() and not f.cancelled()]
            _end_pool(pool)
            for fut, i in done:
                if fut.exception() is None:
                    keep(i, fut.result())


def play_sweep(
    P: float,
    ks: Sequence[float],
    Ls: Sequence[int],
    rounds: int,
    seed: int = 0,
    workers: int = 2,
    record_every: int = 10000,
    progress: Callable[[], None] | None = None,
    estimator: str = "corrected",
    clip: bool = False,
    seeds: int = 1,
    x0: Sequence[float] | None = None,
    common_seed: bool = False,
    checkpoint: str | Path | None = None,
) -> dict[tuple[int, float], tuple[PlayResult, ...]]:
    """Repeated play over a (k, L) grid, ``seeds`` independent runs per cell, on a
    process pool of ``workers``.  With ``checkpoint`` (a folder) every finished run
    is written there as it ends, and runs already there (same arguments) are not run
    again: an interrupted sweep resumes where it stopped, with the same results.

    Run ``s`` of cell ``(L_i, k_j)`` has seed ``seed + 1000 i + j + 100000 s``
    (``seed + 100000 s`` for every cell with ``common_seed``: common random
    numbers across the rows).  Returns ``{(L, k): (run per seed, ...)}``.
    """
    if seeds < 1:
        raise ToypokerError("need at least one seed")
    _check_runs(len(Ls), len(ks), seeds)  # counted before the runs are listed
    jobs = [
        dict(
            P=float(P),
            k=float(k),
            L=int(L),
            rounds=int(rounds),
            seed=seed + 100000 * s + (0 if common_seed else 1000 * i + j),
            record_every=record_every,
            estimator=estimator,
            clip=clip,
            x0=x0,
        )  # fmt: skip
        for s in range(seeds)
        for i, L in enumerate(Ls)
        for j, k in enumerate(ks)
    ]
    results: list[PlayResult | None] = [None] * len(jobs)
    folder = None if checkpoint is None else Path(checkpoint)

    def run_file(a: dict) -> Path:
        assert folder is not None
        k, L = a["k"], a["L"]
        return folder / f"run-L{L}-k{k:g}-seed{a['seed']}.npz"

    def keep(i: int, r: PlayResult) -> None:
        results[i] = r
        if folder is not None:
            r.save(run_file(jobs[i]))
        if progress:
            progress()

    if folder is not None:  # finished runs of an interrupted sweep are kept; others refused
        for i, r in enumerate(_stored_runs(folder, jobs, [run_file(a).name for a in jobs])):
            if r is not None:
                results[i] = r
                if progress:
                    progress()
        folder.mkdir(parents=True, exist_ok=True)
    todo = [i for i in range(len(jobs)) if results[i] is None]
    # Ctrl-C / SIGTERM stop between chunks of a run here, or at once in the pool (its
    # runs under way are ended): the finished runs are kept; a second signal stops at once
    with deferred_interrupts() as flag:
        if workers <= 1 or len(todo) <= 1:

            def step(_done: int) -> None:
                if flag.requested:
                    raise KeyboardInterrupt

            for i in todo:
                keep(i, _play.play(**jobs[i], progress=step))
                if flag.requested:
                    raise KeyboardInterrupt
        else:
            _run_in_pool(todo, jobs, workers, keep, flag)
    runs: dict[tuple[int, float], list[PlayResult]] = {}
    for a, r in zip(jobs, results, strict=True):
        assert r is not None
        runs.setdefault((a["L"], a["k"]), []).append(r)
    return {key: tuple(v) for key, v in runs.items()}
