"""The solver protocol: what every entry of the registry provides.

A method is pure functions over the compiled game, each taking the method's
typed options (a frozen dataclass):

* ``init(game, options, seed) -> state`` -- a frozen dataclass whose fields
  are arrays, numbers or a JSON-able dict (the random generator's state);
* ``step(game, state, options) -> state`` -- one iteration;
* ``output(game, state, options) -> probs`` -- the output strategy as a flat
  probability vector (``None`` for set-valued methods such as ``enumerate``);
* optionally ``step_many(game, state, options, n)`` (identical to ``n`` steps);
  for the exact one-step methods, ``summary(game, state, options)`` giving
  the :class:`~toypoker.result.Result` fields of their certificate; and for a
  method with its own stopping rule, ``stop_gain(state, options)``: the gain the
  run loop compares with ``target_max_gain`` after every step (``None``: no
  rule in force; Ullman's fictitious play declares one).

The driver knows no method by name: what its run loop needs from a method is
declared here, and so is what a method needs of the engine it runs on
(``needs``, words of :data:`NEEDS`): each engine says what it ``provides``
(:class:`toypoker.engines.protocol.Engine`), and a method whose needs an engine
lacks is refused there in one line (or sent to an engine that has them).

:class:`~toypoker.solvers.solver.Solver` drives any of them (the stepping
API); :func:`~toypoker.solvers.solve` is its run loop.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from toypoker.game import Game

NEEDS: Mapping[str, str] = MappingProxyType(
    {
        "deals": "the table of joint deals (it samples or enumerates them)",
        "exact": "exact rational arithmetic (its answer is certified exactly)",
    }
)
"""What a method may need of an engine beyond the public tree, each word with what it
means (:attr:`Method.needs`; an engine's ``provides``)."""


@dataclass(frozen=True)
class OneShotState:
    """State of an exact method that finishes in one step (``lp``, ``enumerate``).

    ``iteration`` is 0 before the step and 1 after; ``outcome`` is what the
    method found.  Not checkpointed (there is nothing to resume).
    """

    iteration: int = 0
    outcome: object | None = None


@dataclass(frozen=True)
class Method:
    """One entry of the registry :data:`toypoker.solvers.registry.METHODS`.

    Attributes
    ----------
    name, doc : str
        The name ``solve`` takes and a one-line description.
    options : type
        The frozen options dataclass of the method's family.
    defaults : object
        An instance of ``options`` with this method's defaults (e.g. CFR+'s
        ``floor=True, gamma=1``).
    init, step, output, step_many, summary
        See the module docstring.
    state_type : type
        The state dataclass (checkpoints name it; :func:`load_checkpoint` finds
        it here).
    stochastic : bool
        Samples: takes a ``seed`` (deterministic methods refuse one).
    one_shot : bool
        Finishes in one step (exact methods): no checkpoints, no NashConv checks.
    stop_gain : callable or None
        The method's own stopping rule (see the module docstring).
    needs : frozenset of str
        What it needs of an engine (words of :data:`NEEDS`): ``"deals"`` for the
        methods that sample or enumerate joint deals, ``"exact"`` for the exact
        ones.  Every engine runs a method whose needs it provides.
    """

    name: str
    doc: str
    options: type
    defaults: Any
    init: Callable[[Game, Any, int | None], Any]
    step: Callable[[Game, Any, Any], Any]
    output: Callable[[Game, Any, Any], np.ndarray] | None
    state_type: type
    stochastic: bool = False
    one_shot: bool = False
    step_many: Callable[[Game, Any, Any, int], Any] | None = None
    summary: Callable[[Game, Any, Any], dict[str, object]] | None = None
    stop_gain: Callable[[Any, Any], float | None] | None = None
    needs: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        unknown = sorted(self.needs - set(NEEDS))
        if unknown:  # a registry entry's typo, caught at import
            raise ValueError(f"method {self.name}: unknown needs {unknown}; known: {list(NEEDS)}")


__all__ = ["NEEDS", "Method", "OneShotState"]
