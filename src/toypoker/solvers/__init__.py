"""One entry point for every solver: :func:`solve`.

>>> from toypoker import load_game
>>> from toypoker.solvers import solve
>>> r = solve(load_game("kuhn(players=2)"), method="cfr+", iterations=200)
>>> r.nash_conv < 1e-2
True

Methods: the CFR family (``cfr``, ``cfr+``, ``lcfr``, ``dcfr``; variants of
one traversal, see :mod:`.cfr`), Monte Carlo CFR (``es-mccfr``, ``os-mccfr``),
fictitious play (``fp``) and the sequence-form linear program (``lp``, two
players, exact certificate).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..errors import ToypokerError
from ..evaluate import evaluate
from ..game import Game
from . import cfr as _cfr
from . import fictitious as _fp
from . import mccfr as _mccfr
from .base import REGISTRY, SolveResult, TracePoint, load_checkpoint, run

STATE_TYPES = {"CFRState": _cfr.CFRState, "MCCFRState": _mccfr.MCCFRState, "FPState": _fp.FPState}

METHODS: dict[str, str] = {name: m.doc for name, m in REGISTRY.items()}
METHODS["lp"] = "sequence-form linear program (two-player zero-sum; HiGHS; exact certificate)"


def solve(
    game: Game,
    method: str = "cfr+",
    iterations: int | None = 1000,
    target_nash_conv: float | None = None,
    seconds: float | None = None,
    target_max_gain: float | None = None,
    output: str = "average",
    check_every: int | None = None,
    seed: int | None = None,
    progress: Callable[[int, float | None], None] | None = None,
    checkpoint: str | Path | None = None,
    checkpoint_seconds: float = 60.0,
    resume: str | Path | None = None,
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
        Stop after this much time spent iterating.
    target_max_gain
        Stop as soon as every player's best-response gain is at or below this
        (Ullman's ``eps`` for fictitious play).
    output
        ``"average"`` (the converging one for CFR) or ``"current"`` strategy.
    check_every
        Evaluate NashConv every this many iterations (default: ~25 checks per
        decade, geometrically spaced).
    seed
        Seed of the random generator of sampling methods (recorded in the
        result; drawn from the OS when not given).
    progress
        Called as ``progress(iteration, nash_conv_or_None)`` after each iteration.
    checkpoint, checkpoint_seconds
        Write the full state atomically to this ``.npz`` every so many seconds,
        on Ctrl-C and at the end.
    resume
        Continue from a checkpoint: the run ends exactly where an uninterrupted
        run with the same arguments would.
    options
        Method options, e.g. the CFR schedule (``alpha``, ``beta``, ``gamma``,
        ``alternating``, ``floor``, ``delay``) or ``epsilon`` for outcome sampling.
    """
    if method == "lp":
        return _solve_lp(game)
    m = REGISTRY.get(method)
    if m is None:
        raise ToypokerError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if (
        iterations is None
        and target_nash_conv is None
        and seconds is None
        and (target_max_gain is None)
    ):
        raise ToypokerError("give iterations, target_nash_conv or seconds")
    if iterations is not None and iterations < 1:
        raise ToypokerError(f"iterations must be at least 1, got {iterations}")
    if output not in ("average", "current"):
        raise ToypokerError(f"output must be 'average' or 'current', not {output!r}")
    unknown = set(options) - set(m.defaults)
    if unknown:
        raise ToypokerError(f"unknown option(s) for {method}: {', '.join(sorted(unknown))}")
    opts = {**m.defaults, **options}
    if m.stochastic and seed is None and resume is None:
        seed = int(np.random.SeedSequence().entropy % 2**63)
    return run(
        game,
        m,
        opts,
        iterations=iterations,
        target_nash_conv=target_nash_conv,
        seconds=seconds,
        target_max_gain=target_max_gain,
        output=output,
        check_every=check_every,
        seed=seed,
        progress=progress,
        checkpoint=checkpoint,
        checkpoint_seconds=checkpoint_seconds,
        resume=resume,
        state_types=STATE_TYPES,
    )


def _solve_lp(game: Game) -> SolveResult:
    from .lp import solve_lp

    r = solve_lp(game)
    prof = r.exact_profile if r.certified and r.exact_profile is not None else r.profile
    ev = evaluate(game, prof)
    lo, hi = r.value_bounds
    extra = {
        "value_float": r.value,
        "value_exact": str(lo) if r.certified else None,
        "value_bounds": [str(lo), str(hi)],
        "certified": r.certified,
    }
    return SolveResult(
        game=game.spec,
        method="lp",
        params={"method": "lp"},
        profile=prof,
        iterations=1,
        seconds=r.seconds,
        trace=(TracePoint(1, r.seconds, float(ev.nash_conv)),),
        values=tuple(float(x) for x in ev.values),
        nash_conv=float(ev.nash_conv),
        gains=tuple(float(x) for x in ev.gains),
        stopped="solved",
        extra=extra,
    )


__all__ = ["METHODS", "SolveResult", "TracePoint", "load_checkpoint", "solve"]
