"""The budgets of :meth:`toypoker.solvers.solver.Solver.run`: the iterations a run
defaults to, and its budgets checked once."""

from __future__ import annotations

from toypoker.checks import check_int, check_number
from toypoker.errors import ToypokerError
from toypoker.solvers.base import Method

DEFAULT_ITERATIONS = 1000
"""The iterations of a run given neither a budget nor a target."""


def default_iterations(
    iterations: int | None,
    target_nash_conv: float | None,
    target_max_gain: float | None,
    seconds: float | None,
) -> int | None:
    """``iterations``, or when not given :data:`DEFAULT_ITERATIONS` if nothing else
    bounds the run; with a target (or ``seconds``) and no iterations, none: a target
    means run until it is met (``tp.solve(g, m, target_nash_conv=1e-6)`` stopped at
    1,000 iterations short of it, silently)."""
    given = (target_nash_conv, target_max_gain, seconds)
    if iterations is None and all(x is None for x in given):
        return DEFAULT_ITERATIONS
    return iterations


def check_budgets(
    method: Method,
    iterations: int | None,
    target_nash_conv: float | None,
    seconds: float | None,
    target_max_gain: float | None,
    check_every: int | None,
    checkpoint: object,
) -> dict[str, object]:
    """The run's budgets, checked once here (the CLI does not repeat this): whole
    numbers for counts (not ``2.5``, not ``"10"``), finite numbers for the rest."""
    if iterations is not None:
        iterations = check_int(iterations, "iterations", low=1)
    if seconds is not None:
        seconds = check_number(seconds, "seconds", positive=True)
    if check_every is not None:
        check_every = check_int(check_every, "check_every", low=1)
    if target_nash_conv is not None:
        target_nash_conv = check_number(target_nash_conv, "target_nash_conv", nonnegative=True)
    if target_max_gain is not None:
        target_max_gain = check_number(target_max_gain, "target_max_gain", nonnegative=True)
    if method.one_shot:
        # budgets bound the steps; an exact method's one step always fits them
        for name, v in (("check_every", check_every), ("checkpoint", checkpoint)):
            if v is not None:
                raise ToypokerError(f"{method.name} finishes in one step: {name} does not apply")
    elif (
        iterations is None
        and target_nash_conv is None
        and seconds is None
        and (target_max_gain is None)
    ):
        raise ToypokerError("give iterations, target_nash_conv, target_max_gain or seconds")
    return {
        "iterations": iterations,
        "target_nash_conv": target_nash_conv,
        "target_max_gain": target_max_gain,
        "seconds": seconds,
        "check_every": check_every,
    }


__all__ = ["DEFAULT_ITERATIONS", "check_budgets", "default_iterations"]
