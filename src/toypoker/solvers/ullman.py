"""Ullman's (2015) fictitious play run as his code runs it: ``fp`` with
``ullman=True`` (:mod:`toypoker.solvers.fictitious`), stepped by the generic
:class:`~toypoker.solvers.solver.Solver` until his stopping rule holds.

Its own module because it drives a :class:`Solver` (which reads the registry,
which reads :mod:`~toypoker.solvers.fictitious`): the method's module stays below
the driver.
"""

from __future__ import annotations

import time

from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.result import Result, Stopped
from toypoker.solvers.options import real
from toypoker.solvers.solver import Solver


def run_ullman(
    game: Game,
    eps: float,
    iterations: int | None = None,
    seconds: float | None = None,
    gamma: float = 0.0,
) -> Result:
    """Ullman's fictitious play with his stopping rule: ``fp`` with ``ullman=True``,
    stepped until the first iteration whose answered profile has largest gain ``< eps``.

    Parameters
    ----------
    game
        A compiled game.
    eps
        Ullman's ``epsilon`` (``Strategies.nes(gt, epsilon)``).
    iterations, seconds
        Budgets (``None``: none); the result says which stopped the run.
    gamma
        Averaging exponent (0: Ullman's ``1/(t+1)``).

    Returns
    -------
    Result
        The profile one update past the last check (as his code returns it),
        evaluated afresh; ``stopped`` is ``target`` when ``eps`` was met, and
        ``options["last_check_gain"]`` is the gain his loop saw last.

    Examples
    --------
    >>> from toypoker import load_game
    >>> r = run_ullman(load_game("kuhn(players=2)"), 0.01)
    >>> r.stopped.value, r.options["last_check_gain"] < 0.01
    ('target', True)
    """
    e = real("eps", eps, low=0.0, open_low=True)
    if iterations is not None and (isinstance(iterations, bool) or iterations < 1):
        raise ToypokerError(f"iterations must be at least 1, got {iterations}")
    solver = Solver(game, "fp", ullman=True, gamma=gamma)
    t0 = time.perf_counter()
    stopped = Stopped.ITERATIONS
    while True:
        solver.step(1)
        if solver.state.gain < e:
            stopped = Stopped.TARGET
            break
        if iterations is not None and solver.iteration >= iterations:
            break
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            stopped = Stopped.SECONDS
            break
    budgets = {"eps": e, "iterations": iterations, "seconds": seconds}
    budgets["last_check_gain"] = float(solver.state.gain)
    return solver.result(stopped, (), budgets)


__all__ = ["run_ullman"]
