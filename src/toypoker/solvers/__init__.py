"""One entry point for every method: :func:`solve`, returning a :class:`~toypoker.result.Result`.

>>> from toypoker import load_game
>>> from toypoker.solvers import solve
>>> r = solve(load_game("kuhn(players=2)"), method="cfr+", iterations=200)
>>> r.nash_conv < 1e-2
True
>>> solve(load_game("kuhn(players=2)"), "lp").value_exact[0]
Fraction(-1, 18)

Methods (:data:`METHODS`, a literal registry): the CFR family (``cfr``,
``cfr+``, ``lcfr``, ``dcfr``, ``pcfr+``, ``dcfr+``, ``pdcfr+``; schedules of one
traversal, see :mod:`.cfr`), Monte Carlo CFR (``es-mccfr``, ``os-mccfr``),
fictitious play (``fp``; Ullman's run in :mod:`.ullman`), the sequence-form
linear program (``lp``, two players, exact certificate) and the exact equilibrium
enumerator (``enumerate``).  :class:`Solver` is the stepping API under
:func:`solve`; :mod:`.analysis` holds seed spreads, method comparisons and
deviations.

Solvers floor: may import the game, the catalogue, profiles, results, evaluation
and the kernels; never a study or a front end.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import ToypokerError
from ..game import Game
from ..result import Result, Stopped, TracePoint
from .base import Method
from .checkpoint import Checkpoint, load_checkpoint
from .options import Output, Pot, Sampling
from .registry import METHODS, get_method, parse_options
from .solver import Solver


def solve(
    game: Game,
    method: str = "cfr+",
    iterations: int | None = 1000,
    target_nash_conv: float | None = None,
    seconds: float | None = None,
    target_max_gain: float | None = None,
    check_every: int | None = None,
    seed: int | None = None,
    progress: Callable[[int, float | None], None] | None = None,
    checkpoint: str | Path | None = None,
    checkpoint_seconds: float = 60.0,
    resume: str | Path | None = None,
    **options: object,
) -> Result:
    """Solve ``game`` with ``method`` until a budget or a target is met.

    Parameters
    ----------
    game
        A compiled game (:func:`toypoker.load_game`).
    method
        A name in :data:`METHODS` (``"cfr+"`` by default).
    iterations
        Maximum iterations (``None``: no limit; then give a target or seconds).
        Budgets bound the steps: an exact method's single step always fits.
    target_nash_conv
        Stop as soon as a check finds NashConv at or below this.
    seconds
        Stop after this much time spent iterating.
    target_max_gain
        Stop as soon as every player's best-response gain is at or below this
        (Ullman's ``eps`` for fictitious play).
    check_every
        Evaluate NashConv every this many iterations (default: ~25 checks per
        decade, geometrically spaced).
    seed
        Seed of a sampling method (recorded in the result; drawn from the OS
        when not given).  Deterministic methods refuse a seed.
    progress
        Called as ``progress(iteration, nash_conv_or_None)`` after each step.
    checkpoint, checkpoint_seconds
        Write the full state atomically to this ``.npz`` every so many seconds,
        on Ctrl-C and at the end.
    resume
        Continue from a checkpoint (its method, options and seed): the run ends
        exactly where an uninterrupted run with the same arguments would.
    **options
        The method's typed options, e.g. the CFR schedule (``floor``, ``alpha``,
        ``beta``, ``gamma``, ``alternating``, ``delay``, ``output``), ``epsilon``
        for outcome sampling, ``pot``/``pot_min`` for ``enumerate``.  Unknown
        options and options the method does not read are errors.

    Returns
    -------
    Result
        Frozen; ``exact``/``certified``/``value_exact`` for ``lp``,
        ``equilibria``/``variables`` for ``enumerate``.
    """
    m = get_method(method)
    if resume is None:
        solver = Solver(game, method, seed=seed, **options)
        trace: tuple[TracePoint, ...] = ()
    else:
        ck = load_checkpoint(resume)
        if ck.method != m.name:
            raise ToypokerError(f"checkpoint {resume} is for method {ck.method}, not {m.name}")
        if seed is not None and seed != ck.seed:
            raise ToypokerError(f"checkpoint {resume} was run with seed {ck.seed}, not {seed}")
        if options and parse_options(m, options) != parse_options(
            m, {k: getattr(ck.options, k) for k in options}
        ):
            raise ToypokerError(f"checkpoint {resume} was run with other options: {ck.options}")
        solver = Solver.from_checkpoint(ck, game)
        trace = ck.trace
    return solver.run(
        iterations,
        target_nash_conv=target_nash_conv,
        seconds=seconds,
        target_max_gain=target_max_gain,
        check_every=check_every,
        progress=progress,
        checkpoint=checkpoint,
        checkpoint_seconds=checkpoint_seconds,
        trace=trace,
    )


__all__ = [
    "METHODS",
    "Checkpoint",
    "Method",
    "Output",
    "Pot",
    "Result",
    "Sampling",
    "Solver",
    "Stopped",
    "TracePoint",
    "load_checkpoint",
    "solve",
]
