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
traversal, see :mod:`.cfr`), Monte Carlo CFR (``es-mccfr``, ``os-mccfr``; and
``pcs-cfr+``, public chance sampling on the vector layout, :mod:`.pcs`),
fictitious play (``fp``; Ullman's run in :mod:`.ullman`), the sequence-form
linear program (``lp``, two players, exact certificate), the exact equilibrium
enumerator (``enumerate``) and team-optimal correlated play (``tmecor``, a team against
one outsider with an exact bracket, :mod:`.tmecor`).  :class:`Solver` is
the stepping API under :func:`solve`; :mod:`.analysis` holds seed spreads, method comparisons and
deviations.

Teams: a strong win-sharing team (``strong=true`` without ``merge``) is solved as
its merged team, one player with perfect recall (its value is then unique), and the
profile is mapped back onto the members' seats; ``merge=false`` solves the
``n``-player game as it is.  Every result of a game with a team carries the team's
joint best-response gain (:attr:`~toypoker.result.Result.team`).

Solvers floor: may import the game, the catalogue, profiles, results, evaluation
and the kernels; never a study or a front end.
"""

from __future__ import annotations

from toypoker.lazy import lazy_names

#: names imported on first use (PEP 562): importing one method's module (``solvers.cfr``)
#: does not load the registry and every other method
_LAZY = {
    "METHODS": "toypoker.solvers.registry",
    "Checkpoint": "toypoker.solvers.checkpoint",
    "Method": "toypoker.solvers.base",
    "Output": "toypoker.solvers.options",
    "Pot": "toypoker.solvers.options",
    "Result": "toypoker.result",
    "Sampling": "toypoker.solvers.options",
    "Solver": "toypoker.solvers.solver",
    "Stopped": "toypoker.result",
    "TracePoint": "toypoker.result",
    "load_checkpoint": "toypoker.solvers.checkpoint",
    "solve": "toypoker.solvers.run",
}


__getattr__ = lazy_names(__name__, _LAZY)


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
