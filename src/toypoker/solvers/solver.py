"""The stepping API (:class:`Solver`) and the one run loop over it (:func:`solve`).

As with OpenSpiel's solvers (``evaluate_and_update_policy``) and
postflop-solver's ``solve_step``, a user may own the loop::

    s = Solver(game, "cfr+")
    s.step(100)
    s.profile()          # the current output strategy
    s.result()           # a Result (values, gains, NashConv)

:func:`solve` is that loop with budgets (iterations, seconds, a NashConv or
largest-gain target), a geometric NashConv trace (float profiles evaluated by
the fused best-response kernel, :mod:`toypoker.engines.rows`), atomic checkpoints,
progress callbacks and Ctrl-C, which stops cleanly with a usable result and
checkpoint.  Resuming a checkpoint ends bit for bit where an uninterrupted run would.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from contextlib import nullcontext, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from toypoker.checks import check_callable, check_int, check_number, check_path
from toypoker.dask_client import local_workers
from toypoker.engines import load_game
from toypoker.engines.protocol import Engine
from toypoker.engines.registry import engine_for
from toypoker.engines.sharded import ShardLostError
from toypoker.errors import ToypokerError
from toypoker.game import Game, check_game
from toypoker.interrupts import caused_by_interrupt, deferred_interrupts
from toypoker.locks import run_lock
from toypoker.profile import Profile
from toypoker.result import Result, Stopped, TracePoint
from toypoker.solvers.base import Method
from toypoker.solvers.budgets import DEFAULT_ITERATIONS as DEFAULT_ITERATIONS
from toypoker.solvers.budgets import check_budgets, default_iterations
from toypoker.solvers.cfr import steps_in_place
from toypoker.solvers.checkpoint import (
    Checkpoint,
    ScratchCheckpoint,
    load_checkpoint,
    save_checkpoint,
)
from toypoker.solvers.registry import options_dict, parse_options
from toypoker.threads import kernel_threads

AIM_MIN_STEP = 0.02
"""An aimed check (:class:`Checks`) comes at least this share of the iterations after the
check it is predicted from (and at least one iteration)."""


class Solver:
    """One method on one game, stepped by the caller.

    Parameters
    ----------
    game
        A game (:func:`toypoker.load_game`), on either layout: on hand vectors the
        method runs its vector steps (the CFR family, ``fp``, ``pcs-cfr+``, ``lp``;
        the others are refused in one line).
    method
        A name of :data:`~toypoker.solvers.METHODS` (``"cfr+"`` by default).
    seed
        Seed of a sampling method (drawn from the OS when not given); a
        deterministic method refuses one.
    threads
        Threads of the vector layout's kernels (``None``: every core; the numbers are
        the same on any count, bit for bit; :func:`toypoker.threads.kernel_threads`).
    cluster, workers
        Shard the iterations over Dask workers (the CFR family on hand vectors:
        :mod:`toypoker.engines.sharded`): a ``distributed.Client``, ``"local"`` (a
        LocalCluster of ``workers`` processes) or a ``tcp://`` scheduler address;
        the iterates equal the in-process run's.  :meth:`close` (or a ``with``
        block) releases them.
    engine
        ``None`` (default): the engine the game is built on (its fused kernels);
        ``"reference"``: the readable numpy passes on the same layout
        (:mod:`toypoker.engines.reference`), what the kernels are tested against.
    **options
        The method's typed options (e.g. ``floor``, ``gamma`` for the CFR family,
        ``epsilon`` for outcome sampling); unknown or unread ones are errors.

    Examples
    --------
    >>> from toypoker import load_game
    >>> s = Solver(load_game("kuhn(players=2)"), "cfr+")
    >>> s.step(200).iteration
    200
    >>> s.result().nash_conv < 1e-2
    True
    """

    def __init__(
        self,
        game: Game,
        method: str = "cfr+",
        *,
        seed: int | None = None,
        threads: int | None = None,
        cluster: object = None,
        workers: int | None = None,
        engine: str | None = None,
        **options: object,
    ) -> None:
        self.threads = _threads(threads)
        engine = engine_for(check_game(game), method, engine)
        game, m = engine.game, engine.method(method)
        opts = parse_options(m, options)
        seed = method_seed(m, seed)
        self._setup(engine, m, opts, seed, m.init(game, opts, seed), 0.0)
        self._shard(cluster, workers)

    def _shard(self, cluster: object, workers: int | None) -> None:
        """Start the shards of a sharded run (``cluster`` not ``None``)."""
        self.sharded: Engine | None = None  # the sharded run's engine, while it runs
        if cluster is None:
            if workers is not None:
                raise ToypokerError("workers= is the size of a local cluster: give cluster='local'")
            return
        if workers is not None:
            check_int(workers, "workers", low=1)
        local = isinstance(cluster, str) and cluster in ("local", "processes")
        address = isinstance(cluster, str) and "://" in cluster
        if not (hasattr(cluster, "submit") or local or address):  # said in Python's terms
            what = repr(cluster[:60]) if isinstance(cluster, str) else type(cluster).__name__
            raise ToypokerError(
                "cluster= is 'local', a scheduler address such as 'tcp://host:8786' or a "
                f"distributed.Client, not {what}"
            )
        if local:  # bounded by the machine, before any build
            local_workers(workers, "workers=")
        with kernel_threads(self.threads):
            self.sharded = self.engine.shard(self.options, cluster, workers)
        self._setup(self.sharded, self.sharded.method(self.method.name), self.options, self.seed,
                    self.state, self.seconds)  # fmt: skip

    def close(self, quiet: bool = False) -> None:
        """Release a sharded run's workers (closing the cluster it started); idempotent.
        ``quiet``: after a failure, errors while closing are not reported."""
        sharded, self.sharded = getattr(self, "sharded", None), None
        if sharded is not None:  # the run goes on in process, on the engine it wrapped
            inner = sharded.inner  # type: ignore[attr-defined]
            self._setup(inner, inner.method(self.method.name), self.options, self.seed,
                        self.state, self.seconds)  # fmt: skip
            sharded.close(quiet=quiet)  # type: ignore[attr-defined]

    def __enter__(self) -> Solver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(quiet=exc[0] is not None)

    def _setup(
        self,
        engine: Engine,
        method: Method,
        options: Any,
        seed: int | None,
        state: Any,
        seconds: float,
    ) -> None:
        self.engine = engine  # what computes: the engine the game is built on
        self.game = engine.game
        self.method = method
        self.options = options
        self.seed = seed
        self.state = state
        self.seconds = seconds  # time spent stepping

    @classmethod
    def from_checkpoint(
        cls,
        checkpoint: str | Path | Checkpoint,
        game: Game | None = None,
        *,
        threads: int | None = None,
        cluster: object = None,
        workers: int | None = None,
    ) -> Solver:
        """The solver a checkpoint saved, ready to continue.

        ``game`` (optional) must be the checkpoint's game, on either layout; without it
        the game is loaded from the recorded spec (:func:`toypoker.load_game`).
        """
        ck = checkpoint if isinstance(checkpoint, Checkpoint) else load_checkpoint(checkpoint)
        if game is None:
            game = load_game(ck.spec)
        engine = engine_for(check_game(game), ck.method)
        game = engine.game
        if game.spec != ck.spec:
            raise ToypokerError(f"checkpoint {ck.path} is for {ck.spec}, not {game.spec}")
        n = {a.shape for a in vars(ck.state).values() if isinstance(a, np.ndarray)}
        if n != {(game.n_sigma,)}:
            raise ToypokerError(
                f"checkpoint {ck.path}: state arrays of shape {sorted(n)} do not fit "
                f"{game.spec} ({game.n_sigma} actions)"
            )
        s = cls.__new__(cls)
        s.threads = _threads(threads)
        s._setup(engine, engine.method(ck.method), ck.options, ck.seed, ck.state, ck.seconds)
        s._shard(cluster, workers)
        return s

    @property
    def iteration(self) -> int:
        """Iterations done so far."""
        return int(self.state.iteration)

    @property
    def name(self) -> str:
        """The method's name."""
        return self.method.name

    def step(self, n: int = 1) -> Solver:
        """Run ``n`` iterations (an exact method finishes in its first); returns self."""
        n = check_int(n, "n", low=0)
        with kernel_threads(self.threads):
            t0 = time.perf_counter()
            m, g, o = self.method, self.game, self.options
            if m.step_many is not None and n > 1:
                self.state = m.step_many(g, self.state, o, int(n))
            else:
                for _ in range(int(n)):
                    self.state = m.step(g, self.state, o)
            self.seconds += time.perf_counter() - t0
            return self

    def profile(self) -> Profile:
        """The current output strategy (``output`` option: average or current)."""
        if self.method.output is None:
            raise ToypokerError(
                f"{self.name} gives a set of equilibria, not one profile: see result().equilibria"
            )
        probs = self.method.output(self.game, self.state, self.options)
        return probs if isinstance(probs, Profile) else Profile(self.game, probs)

    def result(
        self,
        stopped: Stopped | str = Stopped.ITERATIONS,
        trace: tuple[TracePoint, ...] = (),
        budgets: dict | None = None,
    ) -> Result:
        """The :class:`Result` of the current state.

        ``stopped``, ``trace`` and ``budgets`` are what a run loop knows; a
        stepping user may leave them (the trace then ends with this state).
        """
        if self.method.summary is not None:
            with kernel_threads(self.threads):
                fields = self.method.summary(self.game, self.state, self.options)
        else:
            with kernel_threads(self.threads):
                fields = self.engine.summary(self.profile().probs)
        trace = tuple(trace)
        nc = fields.get("nash_conv")
        if nc is not None and (not trace or trace[-1].iteration != self.iteration):
            trace += (TracePoint(self.iteration, self.seconds, float(nc)),)  # type: ignore[arg-type]
        stopped = Stopped.SOLVED if self.method.one_shot else Stopped(stopped)
        return Result(
            game=self.game,
            method=self.name,
            options={**options_dict(self.options), **(budgets or {})},
            iterations=self.iteration,
            seconds=self.seconds,
            trace=trace,
            stopped=stopped,
            seed=self.seed,
            **fields,  # type: ignore[arg-type]
        )

    def save_checkpoint(self, path: str | Path, trace: tuple[TracePoint, ...] = ()) -> None:
        """Write the full state to ``path`` atomically (see :mod:`.checkpoint`)."""
        save_checkpoint(
            path,
            self.game.spec,
            self.method,
            self.options,
            self.seed,
            self.state,
            trace,
            self.seconds,
        )

    def _checks(self, iterations: int | None) -> Callable[[int], bool]:
        """The NashConv checks of :meth:`run` without ``check_every`` (geometric): the
        engine's ``checks_per_decade`` from its ``first_check`` on, and the last."""
        first = self.engine.first_check
        marks = check_schedule(iterations, per_decade=self.engine.checks_per_decade)
        return lambda t: t == iterations or (t >= first and marks(t))

    def _nash_conv(self) -> tuple[float, float]:
        """NashConv and the largest gain of the current output (a check)."""
        probs = self.method.output(self.game, self.state, self.options)  # type: ignore[misc]
        with kernel_threads(self.threads):
            return self.engine.check(probs)

    def run(
        self,
        iterations: int | None = None,
        *,
        target_nash_conv: float | None = None,
        seconds: float | None = None,
        target_max_gain: float | None = None,
        check_every: int | None = None,
        progress: Callable[[int, float | None], None] | None = None,
        checkpoint: str | Path | None = None,
        checkpoint_seconds: float = 60.0,
        trace: tuple[TracePoint, ...] = (),
    ) -> Result:
        """Step until a budget or a target is met; see :func:`toypoker.solvers.solve`
        (``iterations`` not given: :func:`default_iterations`)."""
        iterations = default_iterations(iterations, target_nash_conv, target_max_gain, seconds)
        check_callable(progress, "progress")
        check_number(checkpoint_seconds, "checkpoint_seconds", positive=True)
        if checkpoint is not None:
            checkpoint = check_path(checkpoint, "checkpoint")
        budgets = check_budgets(
            self.method, iterations, target_nash_conv, seconds, target_max_gain, check_every,
            checkpoint,
        )  # fmt: skip
        iterations, seconds = budgets["iterations"], budgets["seconds"]  # type: ignore[assignment]
        target_nash_conv = budgets["target_nash_conv"]  # type: ignore[assignment]
        target_max_gain = budgets["target_max_gain"]  # type: ignore[assignment]
        check_every = budgets["check_every"]  # type: ignore[assignment]
        if self.method.one_shot:
            return self._run_once(progress, budgets)
        checks, points = self._replay_checks(trace, iterations, check_every, target_nash_conv)
        stopped = Stopped.ITERATIONS
        busy = [False]  # inside a step: an interrupt there may leave the state mid-step
        hard = False
        scratch = isinstance(checkpoint, ScratchCheckpoint)
        # a checkpoint in use by a live run is locked: a second run refuses
        held = run_lock(checkpoint, "checkpoint") if checkpoint and not scratch else nullcontext()
        # with a checkpoint, signals after the first are absorbed until it is written (a
        # second Ctrl-C during the first one's save would lose the state)
        keeping = "the checkpoint" if checkpoint is not None else None
        with held:  # the lock spans the run and its last save
            with deferred_interrupts(keeping) as flag:
                try:
                    stopped = self._loop(
                        iterations, checks, points, seconds, target_nash_conv, target_max_gain,
                        progress, checkpoint, checkpoint_seconds, flag, busy,
                    )  # fmt: skip
                    if flag.requested:  # a signal in the last step: the caller hears it
                        stopped = Stopped.INTERRUPTED
                except KeyboardInterrupt:  # a second Ctrl-C, or one outside the main thread
                    stopped, hard = Stopped.INTERRUPTED, busy[0]
                except SystemError as exc:  # a signal surfacing from a compiled kernel
                    if not caused_by_interrupt(exc):
                        raise
                    stopped, hard = Stopped.INTERRUPTED, True
                except ShardLostError:  # the state before the lost batch is whole: kept
                    if checkpoint is not None:
                        self._save(checkpoint, tuple(points))
                    raise
                # else the last periodic checkpoint stands; a scratch one only to resume
                resumable = not scratch or stopped is Stopped.INTERRUPTED
                if checkpoint is not None and not hard and resumable:
                    self._save(checkpoint, tuple(points))
                if stopped is Stopped.INTERRUPTED:  # its result too, for the resume line
                    return self.result(stopped, tuple(points), budgets)
        return self.result(stopped, tuple(points), budgets)

    def _run_once(
        self,
        progress: Callable[[int, float | None], None] | None,
        budgets: dict[str, object],
    ) -> Result:
        """Run a one-step method: its one step, then the progress call and the result."""
        stopped = Stopped.SOLVED
        try:
            self.step(1)
        except KeyboardInterrupt:
            stopped = Stopped.INTERRUPTED
        if progress is not None:
            progress(self.iteration, None)
        if stopped is Stopped.INTERRUPTED:
            raise KeyboardInterrupt
        return self.result(stopped, (), budgets)

    def _replay_checks(
        self,
        trace: tuple[TracePoint, ...],
        iterations: int | None,
        check_every: int | None,
        target_nash_conv: float | None,
    ) -> tuple[Checks, list[TracePoint]]:
        """Build the run's check schedule and replay a resumed run's ``trace`` through it."""
        checks = Checks(
            (lambda t: t % check_every == 0 or t == iterations)
            if check_every
            else self._checks(iterations),
            None if check_every else target_nash_conv,
        )
        # a resumed run keeps the checks its own schedule would have made, in order (the
        # interrupted run's final check is not one of them)
        points = []
        for p in trace:
            if checks(p.iteration):
                points.append(p)
                checks.observe(p.iteration, p.nash_conv)
        return checks, points

    def _save(self, path: Path, trace: tuple[TracePoint, ...]) -> None:
        """:meth:`save_checkpoint`, best-effort and silent for a :class:`ScratchCheckpoint`
        (a file nobody asked for never fails a run)."""
        if not isinstance(path, ScratchCheckpoint):
            self.save_checkpoint(path, trace)
            return
        with suppress(OSError, ToypokerError):
            self.save_checkpoint(path, trace)

    def _loop(
        self, iterations, checks, points, seconds, target_nash_conv, target_max_gain,
        progress, checkpoint, checkpoint_seconds, flag, busy,
    ) -> Stopped:  # fmt: skip
        """The steps of :meth:`run` until a budget, a target or a deferred interrupt."""
        per_iteration = None
        last_save = time.monotonic()
        owned = False  # after its first step the loop's state is its own: stepped in place
        while not (iterations is not None and self.iteration >= iterations):
            if flag.requested:  # e.g. an interrupt CPython dropped before the block
                return Stopped.INTERRUPTED
            t0 = time.perf_counter()
            n = 1
            if self.method.step_many is not None:
                # batch up to the next check (and within ~0.2 s, for budgets and the bar)
                while not checks(self.iteration + n) and n < 100000:
                    n += 1
                if iterations is not None:
                    n = min(n, iterations - self.iteration)
                if per_iteration:
                    n = max(1, min(n, int(0.2 / per_iteration)))
            busy[0] = True
            with steps_in_place() if owned else nullcontext() as done:
                try:
                    self.step(n)
                except BaseException:
                    if done is not None and done[0] > self.iteration:  # arrays moved on
                        self.state = replace(self.state, iteration=done[0])
                    raise
            busy[0] = False
            # a lost shard keeps the state from before its batch: never stepped in place
            owned = getattr(self, "sharded", None) is None
            rule = self.method.stop_gain
            gain = None if rule is None else rule(self.state, self.options)
            if target_max_gain is not None and gain is not None and gain < target_max_gain:
                # the method's own rule (Ullman's fp: the first iteration whose answered
                # profile's largest gain is below eps, checked every iteration, strictly;
                # the profile returned is one update past that check)
                return Stopped.TARGET
            per_iteration = (time.perf_counter() - t0) / n
            t = self.iteration
            nc = max_gain = None
            out_of_time = seconds is not None and self.seconds >= seconds
            if checks(t) or out_of_time:
                nc, max_gain = self._nash_conv()
                points.append(TracePoint(t, self.seconds, nc))
                if checks(t):  # not a check out of time: a resumed run never makes it
                    checks.observe(t, nc)
            if progress is not None:
                progress(t, nc)
            if checkpoint is not None and time.monotonic() - last_save >= checkpoint_seconds:
                self._save(checkpoint, tuple(points))
                last_save = time.monotonic()
            if nc is not None and target_nash_conv is not None and nc <= target_nash_conv:
                return Stopped.TARGET
            if (
                max_gain is not None
                and target_max_gain is not None
                and (max_gain <= target_max_gain)
            ):
                return Stopped.TARGET  # Ullman (2015): the largest gain < eps
            if out_of_time:
                return Stopped.SECONDS
            # Ctrl-C or SIGTERM during the step: the loop's head stops between steps
        return Stopped.ITERATIONS


def _threads(threads: object) -> int | None:
    """``threads`` checked (a whole number >= 1, or None for every core)."""
    if threads is None:
        return None
    with kernel_threads(threads) as n:  # type: ignore[arg-type]
        return n


def method_seed(method: Method, seed: int | None) -> int | None:
    """The seed a run of ``method`` uses: ``seed`` checked, one drawn from the OS for a
    sampling method without one; a deterministic method refuses one."""
    if seed is not None:
        if not method.stochastic:
            raise ToypokerError(f"{method.name} is deterministic: it takes no seed")
        return check_int(seed, "seed", low=0)
    if method.stochastic:
        return int(np.random.SeedSequence().entropy % 2**63)
    return None


class Checks:
    """The iterations :meth:`Solver.run` checks NashConv at: ``marks`` (a schedule), and
    with a NashConv ``target`` one more, *aimed* at the iteration where the target is
    predicted to be met.

    After each check above the target that improved on the one before, the two are
    joined by a power law (NashConv ~ c t^s, a line on the log-log plot of
    :func:`toypoker.plots.plot_convergence`) and the next check is aimed where that line
    meets the target, :data:`AIM_MIN_STEP` of the iterations on at least, and a
    decade at most (else no aim).  A run with a target so stops near the iteration
    that meets it, not at the next geometric mark (Rhode Island with PDCFR+ to 0.05:
    about 410 iterations, 504 without aims); a miss costs one more check.  The
    schedule depends only on the checks made, so a resumed run (which replays them
    through :meth:`observe`) checks where the uninterrupted run would."""

    def __init__(self, marks: Callable[[int], bool], target: float | None = None):
        self.marks = marks
        self.target = target or None  # a target of 0 is never predicted
        self.aim: int | None = None
        self._last: tuple[int, float] | None = None

    def __call__(self, t: int) -> bool:
        return self.marks(t) or t == self.aim

    def observe(self, t: int, nash_conv: float) -> None:
        """Note the check at iteration ``t`` and aim the next one."""
        if self.target is None:
            return
        last, self._last, self.aim = self._last, (t, nash_conv), None
        if last is None or t <= last[0] or not self.target < nash_conv < last[1]:
            return
        slope = math.log(nash_conv / last[1]) / math.log(t / last[0])  # < 0
        # in logs: a flat line (slope near 0) aims past any float (an OverflowError
        # ended `solve --target-nash-conv 1e-8`); beyond a decade there is no aim
        log_at = math.log(t) + math.log(self.target / nash_conv) / slope
        if log_at < math.log(10 * t):  # within a decade: the power itself is finite
            at = t * (self.target / nash_conv) ** (1.0 / slope)
            self.aim = max(math.ceil(at), t + max(1, math.ceil(AIM_MIN_STEP * t)))


def check_schedule(iterations: int | None, per_decade: int = 25) -> Callable[[int], bool]:
    """Geometric NashConv checks: about ``per_decade`` per decade, and the last one."""
    marks: set[int] = set()
    x = 1.0
    limit = iterations or 10**9
    while x <= limit:
        marks.add(int(round(x)))
        x = max(x * 10 ** (1 / per_decade), x + 1)
    if iterations:
        marks.add(iterations)
    return lambda t: t in marks


__all__ = ["Checks", "Solver", "check_schedule", "default_iterations", "method_seed"]
