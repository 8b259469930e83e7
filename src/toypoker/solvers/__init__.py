"""One entry point for every solver: :func:`solve`.

>>> from toypoker import load_game
>>> from toypoker.solvers import solve
>>> r = solve(load_game("kuhn(players=2)"), method="cfr+", iterations=200)
>>> r.nash_conv < 1e-2
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ToypokerError
from ..evaluate import evaluate
from ..game import Game
from ..io import atomic_write_text
from ..profile import Profile
from . import cfr as _cfr

METHODS: dict[str, str] = {
    "cfr": "vanilla CFR, simultaneous updates, uniform average",
    "cfr+": "CFR+: regrets floored at 0, alternating updates, linear average",
    "lcfr": "linear CFR: iteration t weighted by t in regrets and average",
    "dcfr": "discounted CFR (alpha=1.5, beta=0, gamma=2)",
}


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
    params : dict       every parameter of the run
    profile : Profile   the output strategy (average or current)
    iterations : int
    seconds : float     wall time spent iterating (evaluations excluded)
    trace : tuple[TracePoint, ...]   NashConv against iterations and seconds
    values : tuple[float, ...]       expected value of each player
    nash_conv : float
    gains : tuple[float, ...]        best-response gain of each player
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
    stopped: str = field(default="iterations")

    def to_json_dict(self) -> dict[str, object]:
        return {
            "format": "toypoker-result/1",
            "game": self.game,
            "method": self.method,
            "params": self.params,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "stopped": self.stopped,
            "values": list(self.values),
            "gains": list(self.gains),
            "nash_conv": self.nash_conv,
            "trace": [[p.iteration, p.seconds, p.nash_conv] for p in self.trace],
            "profile": self.profile.to_json_dict(),
        }

    def save(self, path: str | Path) -> None:
        import json

        atomic_write_text(path, json.dumps(self.to_json_dict(), indent=1) + "\n")


def _check_points(iterations: int | None) -> Callable[[int], bool]:
    """Geometric schedule of NashConv checks: about 25 per decade, and the last."""
    marks: set[int] = set()
    x = 1.0
    limit = iterations or 10**9
    while x <= limit:
        marks.add(int(round(x)))
        x = max(x * 10 ** (1 / 25), x + 1)
    if iterations:
        marks.add(iterations)
    return lambda t: t in marks


def solve(
    game: Game,
    method: str = "cfr+",
    iterations: int | None = 1000,
    target_nash_conv: float | None = None,
    seconds: float | None = None,
    output: str = "average",
    check_every: int | None = None,
    progress: Callable[[int, float | None], None] | None = None,
    **options: object,
) -> SolveResult:
    """Solve ``game`` with ``method`` until a budget or a NashConv target is met.

    Parameters
    ----------
    game
        A compiled game (:func:`toypoker.load_game`).
    method
        One of :data:`METHODS` (``"cfr+"`` by default).
    iterations
        Maximum iterations (``None``: no limit; then give a target or seconds).
    target_nash_conv
        Stop as soon as a check finds NashConv at or below this.
    seconds
        Stop after this much wall time.
    output
        ``"average"`` (the converging one for CFR) or ``"current"`` strategy.
    check_every
        Evaluate NashConv every this many iterations (default: ~25 checks per
        decade of iterations, geometrically spaced).
    progress
        Called as ``progress(iteration, nash_conv_or_None)`` after each iteration.
    options
        Schedule overrides for the CFR family (``alpha``, ``beta``, ``gamma``,
        ``alternating``, ``floor``, ``delay``).
    """
    if method not in METHODS:
        raise ToypokerError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if iterations is None and target_nash_conv is None and seconds is None:
        raise ToypokerError("give iterations, target_nash_conv or seconds")
    if iterations is not None and iterations < 1:
        raise ToypokerError(f"iterations must be at least 1, got {iterations}")
    if output not in ("average", "current"):
        raise ToypokerError(f"output must be 'average' or 'current', not {output!r}")
    schedule = _cfr.SCHEDULES[method]
    unknown = set(options) - set(_cfr.Schedule.__dataclass_fields__)
    if unknown:
        raise ToypokerError(f"unknown option(s) for {method}: {', '.join(sorted(unknown))}")
    from dataclasses import asdict, replace

    schedule = replace(schedule, **options)  # type: ignore[arg-type]
    checks = (
        (lambda t: t % check_every == 0 or t == iterations)
        if check_every
        else _check_points(iterations)
    )
    state = _cfr.initial_state(game)
    trace: list[TracePoint] = []
    spent = 0.0
    stopped = "iterations"

    def current_profile(st: _cfr.CFRState) -> np.ndarray:
        return _cfr.average_strategy(game, st) if output == "average" else st.sigma

    while True:
        t0 = time.perf_counter()
        state = _cfr.step(game, state, schedule)
        spent += time.perf_counter() - t0
        t = state.iteration
        nc: float | None = None
        if checks(t) or (seconds is not None and spent >= seconds):
            ev = evaluate(game, Profile(game, current_profile(state), validate=False))
            nc = float(ev.nash_conv)
            trace.append(TracePoint(t, spent, nc))
        if progress is not None:
            progress(t, nc)
        if nc is not None and target_nash_conv is not None and nc <= target_nash_conv:
            stopped = "target"
            break
        if iterations is not None and t >= iterations:
            break
        if seconds is not None and spent >= seconds:
            stopped = "seconds"
            break
    probs = current_profile(state)
    profile = Profile(game, probs)
    ev = evaluate(game, profile)
    if not trace or trace[-1].iteration != state.iteration:
        trace.append(TracePoint(state.iteration, spent, float(ev.nash_conv)))
    params = {
        "method": method,
        "iterations": iterations,
        "target_nash_conv": target_nash_conv,
        "seconds": seconds,
        "output": output,
        "check_every": check_every,
        "schedule": asdict(schedule),
    }
    return SolveResult(
        game=game.spec,
        method=method,
        params=params,
        profile=profile,
        iterations=state.iteration,
        seconds=spent,
        trace=tuple(trace),
        values=tuple(float(x) for x in ev.values),
        nash_conv=float(ev.nash_conv),
        gains=tuple(float(x) for x in ev.gains),
        stopped=stopped,
    )


__all__ = ["METHODS", "SolveResult", "TracePoint", "solve"]
