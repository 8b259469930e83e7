"""The solver protocol and the one run loop every iterative method shares.

A method is three pure functions over the compiled game:

* ``init(game, options, seed) -> state`` -- a frozen dataclass whose fields
  are arrays, numbers or a JSON-able dict (the random generator's state);
* ``step(game, state, options) -> state`` -- one iteration;
* ``output(game, state, which) -> probs`` -- the ``"average"`` or
  ``"current"`` strategy as a flat probability vector.

:func:`run` drives any method: iteration, NashConv checks (the trace), budgets
(iterations, seconds, target NashConv), progress callbacks, atomic
checkpoints (``.npz`` arrays + JSON metadata, never pickle) and Ctrl-C, which
stops cleanly with a usable result and checkpoint.  Resuming from a checkpoint
continues to bit-for-bit the same result as an uninterrupted run.
"""

from __future__ import annotations

import dataclasses
import io
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ToypokerError
from ..evaluate import evaluate
from ..game import Game
from ..io import atomic_write_bytes, atomic_write_text
from ..profile import Profile

CHECKPOINT_FORMAT = "toypoker-checkpoint/1"


@dataclass(frozen=True)
class Method:
    """An iterative solver: pure ``init``/``step``/``output`` and its options."""

    name: str
    doc: str
    init: Callable[[Game, dict, int | None], Any]
    step: Callable[[Game, Any, dict], Any]
    output: Callable[[Game, Any, str], np.ndarray]
    defaults: dict[str, Any] = field(default_factory=dict)
    stochastic: bool = False
    two_player_zero_sum_only: bool = False
    # optional: ``n`` iterations at once, identical to ``n`` calls of ``step``
    step_many: Callable[[Game, Any, dict, int], Any] | None = None


REGISTRY: dict[str, Method] = {}


def register(method: Method) -> Method:
    REGISTRY[method.name] = method
    return method


@dataclass(frozen=True)
class TracePoint:
    iteration: int
    seconds: float
    nash_conv: float


@dataclass(frozen=True)
class SolveResult:
    """The outcome of a solver run: everything needed to rebuild a table or plot.

    Attributes
    ----------
    game : str          canonical spec of the game solved
    method : str
    params : dict       every parameter of the run (options, budgets, seed)
    profile : Profile   the output strategy
    iterations : int
    seconds : float     wall time spent iterating (NashConv checks excluded)
    trace : tuple[TracePoint, ...]   NashConv against iterations and seconds
    values : tuple[float, ...]       expected value of each player
    nash_conv : float
    gains : tuple[float, ...]        best-response gain of each player
    stopped : str       "iterations", "seconds", "target", "interrupted" or "solved"
    seed : int or None
    extra : dict        method-specific results (e.g. the LP's exact value)
    """

    game: str
    method: str
    params: dict
    profile: Profile
    iterations: int
    seconds: float
    trace: tuple[TracePoint, ...]
    values: tuple[float, ...]
    nash_conv: float
    gains: tuple[float, ...]
    stopped: str = "iterations"
    seed: int | None = None
    extra: dict = field(default_factory=dict)

    def to_json_dict(self) -> dict[str, object]:
        return {
            "format": "toypoker-result/1",
            "game": self.game,
            "method": self.method,
            "params": self.params,
            "seed": self.seed,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "stopped": self.stopped,
            "values": list(self.values),
            "gains": list(self.gains),
            "nash_conv": self.nash_conv,
            "trace": [[p.iteration, p.seconds, p.nash_conv] for p in self.trace],
            "extra": self.extra,
            "profile": self.profile.to_json_dict(),
        }

    def save(self, path: str | Path) -> None:
        atomic_write_text(path, json.dumps(self.to_json_dict(), indent=1) + "\n")


# ----------------------------------------------------------------- checkpoints
def _state_to_npz(state: Any) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    arrays, scalars = {}, {}
    for f in dataclasses.fields(state):
        v = getattr(state, f.name)
        if isinstance(v, np.ndarray):
            arrays[f.name] = v
        else:
            scalars[f.name] = v
    return arrays, scalars


def save_checkpoint(
    path: str | Path,
    game: Game,
    method: str,
    options: dict,
    seed: int | None,
    state: Any,
    trace: list[TracePoint],
    spent: float,
) -> None:
    """Write a checkpoint atomically: arrays in an ``.npz`` plus JSON metadata."""
    arrays, scalars = _state_to_npz(state)
    meta = {
        "format": CHECKPOINT_FORMAT,
        "game": game.spec,
        "method": method,
        "options": options,
        "seed": seed,
        "state_type": type(state).__name__,
        "scalars": scalars,
        "trace": [[p.iteration, p.seconds, p.nash_conv] for p in trace],
        "seconds": spent,
    }
    buf = io.BytesIO()
    np.savez(buf, __meta__=np.array(json.dumps(meta)), **arrays)
    atomic_write_bytes(path, buf.getvalue())


@dataclass(frozen=True)
class Checkpoint:
    game: str
    method: str
    options: dict
    seed: int | None
    state: Any
    trace: list[TracePoint]
    seconds: float


def load_checkpoint(path: str | Path, state_types: dict[str, type]) -> Checkpoint:
    """Read a checkpoint written by :func:`save_checkpoint` (no pickle)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["__meta__"]))
            arrays = {k: data[k] for k in data.files if k != "__meta__"}
    except (OSError, ValueError, KeyError) as exc:
        raise ToypokerError(f"cannot read checkpoint {path}: {exc}") from exc
    if meta.get("format") != CHECKPOINT_FORMAT:
        raise ToypokerError(f"{path} is not a toypoker checkpoint")
    cls = state_types.get(meta["state_type"])
    if cls is None:
        raise ToypokerError(f"unknown state type {meta['state_type']!r} in {path}")
    state = cls(**arrays, **meta["scalars"])
    trace = [TracePoint(int(i), float(s), float(n)) for i, s, n in meta["trace"]]
    return Checkpoint(
        meta["game"],
        meta["method"],
        meta["options"],
        meta["seed"],
        state,
        trace,
        float(meta["seconds"]),
    )


# ------------------------------------------------------------------- the loop
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


def run(
    game: Game,
    method: Method,
    options: dict,
    *,
    iterations: int | None,
    target_nash_conv: float | None,
    seconds: float | None,
    target_max_gain: float | None = None,
    output: str,
    check_every: int | None,
    seed: int | None,
    progress: Callable[[int, float | None], None] | None,
    checkpoint: str | Path | None,
    checkpoint_seconds: float,
    resume: str | Path | None,
    state_types: dict[str, type],
) -> SolveResult:
    """Iterate ``method`` until a budget or the NashConv target is met."""
    trace: list[TracePoint] = []
    spent = 0.0
    if resume is not None:
        ck = load_checkpoint(resume, state_types)
        if ck.game != game.spec:
            raise ToypokerError(f"checkpoint {resume} is for {ck.game}, not {game.spec}")
        if ck.method != method.name:
            raise ToypokerError(f"checkpoint {resume} is for method {ck.method}, not {method.name}")
        state, trace, spent, seed = ck.state, list(ck.trace), ck.seconds, ck.seed
        options = {**options, **ck.options}
    else:
        state = method.init(game, options, seed)
    checks = (
        (lambda t: t % check_every == 0 or t == iterations)
        if check_every
        else check_schedule(iterations)
    )
    # a resumed run keeps the checks its own schedule would have made (the
    # interrupted run's final check is not one of them)
    trace = [p for p in trace if checks(p.iteration)]
    stopped = "iterations"
    last_save = time.monotonic()

    def save() -> None:
        if checkpoint is not None:
            save_checkpoint(checkpoint, game, method.name, options, seed, state, trace, spent)

    try:
        per_iteration = None
        while not (iterations is not None and state.iteration >= iterations):
            t0 = time.perf_counter()
            if method.step_many is not None:
                # batch up to the next check (and within ~0.2 s, for budgets and the bar)
                n = 1
                while not checks(state.iteration + n) and n < 100000:
                    n += 1
                if iterations is not None:
                    n = min(n, iterations - state.iteration)
                if per_iteration:
                    n = max(1, min(n, int(0.2 / per_iteration)))
                state = method.step_many(game, state, options, n)
                per_iteration = (time.perf_counter() - t0) / n
            else:
                state = method.step(game, state, options)
            spent += time.perf_counter() - t0
            t = state.iteration
            nc: float | None = None
            out_of_time = seconds is not None and spent >= seconds
            max_gain = None
            if checks(t) or out_of_time:
                probs = method.output(game, state, output)
                ev_t = evaluate(game, Profile(game, probs, validate=False))
                nc = float(ev_t.nash_conv)
                max_gain = float(max(ev_t.gains))
                trace.append(TracePoint(t, spent, nc))
            if progress is not None:
                progress(t, nc)
            if checkpoint is not None and time.monotonic() - last_save >= checkpoint_seconds:
                save()
                last_save = time.monotonic()
            if nc is not None and target_nash_conv is not None and nc <= target_nash_conv:
                stopped = "target"
                break
            if (
                max_gain is not None
                and target_max_gain is not None
                and (max_gain <= target_max_gain)
            ):
                stopped = "target"  # Ullman (2015): the largest best-response gain < eps
                break
            if out_of_time:
                stopped = "seconds"
                break
    except KeyboardInterrupt:
        stopped = "interrupted"
    save()
    profile = Profile(game, method.output(game, state, output))
    ev = evaluate(game, profile)
    if not trace or trace[-1].iteration != state.iteration:
        trace.append(TracePoint(state.iteration, spent, float(ev.nash_conv)))
    params = {
        "method": method.name,
        "options": options,
        "iterations": iterations,
        "target_nash_conv": target_nash_conv,
        "target_max_gain": target_max_gain,
        "seconds": seconds,
        "output": output,
        "check_every": check_every,
        "seed": seed,
    }
    return SolveResult(
        game=game.spec,
        method=method.name,
        params=params,
        profile=profile,
        iterations=state.iteration,
        seconds=spent,
        trace=tuple(trace),
        values=tuple(float(x) for x in ev.values),
        nash_conv=float(ev.nash_conv),
        gains=tuple(float(x) for x in ev.gains),
        stopped=stopped,
        seed=seed,
    )


def make_rng(seed: int | None, state: dict | None = None) -> np.random.Generator:
    """A PCG64 generator from a seed, or restored from a saved bit-generator state."""
    rng = np.random.Generator(np.random.PCG64(seed))
    if state is not None:
        rng.bit_generator.state = state
    return rng
