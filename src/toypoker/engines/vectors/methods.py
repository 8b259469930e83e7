"""Each method on the vector layout: the registry's methods, with what hand vectors add.

:func:`vector_method` is what :class:`~toypoker.solvers.Solver` runs on a game whose
engine is hand vectors: the method of :data:`~toypoker.solvers.METHODS`, whose steps ask
``game.engine`` for what depends on the layout -- the CFR family its regrets and fused
kernel (:mod:`.regrets`), fictitious play its best responses (:mod:`.responses`), the
LP its sequence form (:mod:`.sequence_form`) -- with the parts only hand vectors have
put in from :data:`_STEPS`: the LP's size check before anything is assembled
(public-chance-sampling CFR, :mod:`toypoker.solvers.pcs`, runs on any game's hand
vectors: these ones here);
and NashConv and the players' values from the vector layout's best responses
(:func:`toypoker.engines.evaluation.vector_evaluate`).  Everything else is the one run
loop -- budgets, the NashConv trace, atomic checkpoints (the same state arrays over the
same flat actions, so a checkpoint names the spec and nothing of the layout), seeds,
progress callbacks and Ctrl-C.  No method has two schedules: the CFR family's is
:func:`~toypoker.solvers.cfr.scheduled_step`, fictitious play's
:func:`~toypoker.solvers.fictitious.layout_step`, the LP's
:func:`~toypoker.solvers.lp.solve_sequence_form`; each engine supplies only its regrets,
best responses or payoff matrix, tested equal to the other's.

What stays on the deal table: the methods that declare they need its joint deals
(``Method.needs``: the exact enumerator, deal-sampling MCCFR, TMECor), refused here in
one line naming the need and what runs.  ``benchmarks/bench_engine.py`` measures
every method on both layouts (``benchmarks/results/``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from toypoker.engines.evaluation import vector_evaluate
from toypoker.engines.vectors import sequence_form
from toypoker.engines.vectors.layout import VectorGame
from toypoker.errors import ToypokerError
from toypoker.profile import Profile
from toypoker.solvers import lp
from toypoker.solvers.base import NEEDS
from toypoker.solvers.lp import LPOptions, certified_fields
from toypoker.solvers.registry import METHODS, get_method

PROVIDES: frozenset[str] = frozenset({"exact"})
"""What hand vectors provide (:attr:`toypoker.engines.protocol.Engine.provides`): exact
values (:mod:`toypoker.engines.vectors.values`), and no table of joint deals."""


def runs_on_vectors(name: str) -> bool:
    """Whether the method ``name`` runs on the vector layout: its ``needs`` are among
    :data:`PROVIDES` (its steps are the registry's, asking ``game.engine``; a test runs
    every such method on hand vectors)."""
    return get_method(name).needs <= PROVIDES


def check_vector_method(name: str, spec: str) -> None:
    """Refuse (one line) a method that needs what hand vectors do not provide (the
    exact enumerator, deal-sampling MCCFR and TMECor read the joint deals), naming the
    need and the methods that run."""
    lacking = sorted(get_method(name).needs - PROVIDES)
    if lacking:
        need = " and ".join(NEEDS[w] for w in lacking)
        raise ToypokerError(
            f"{name} does not run on the vector layout ({spec}): it needs {need}; use "
            f"{', '.join(n for n, m in METHODS.items() if m.needs <= PROVIDES)}"
        )


def _lp_steps(vg: VectorGame) -> dict[str, Any]:
    def init(game: Any, options: Any, seed: int | None) -> Any:
        sequence_form.check_size(vg)  # refused in one line before anything is assembled
        return lp.init(game, options)

    return {"init": init}  # the step is the registry's: lp asks game.engine.sequence_form()


_STEPS: dict[type, Callable[[VectorGame], dict[str, Any]]] = {LPOptions: _lp_steps}
"""What hand vectors add to a method family's registry steps: the LP's size check at
``init``, before anything is assembled (every other step asks ``game.engine``)."""


def vector_method(vg: VectorGame, name: str) -> Any:
    """The registry's method ``name`` with its steps, output and summary on ``vg``."""
    check_vector_method(name, vg.game.spec)
    m = get_method(name)

    def summary(game: Any, state: Any, options: Any) -> dict[str, object]:
        if m.one_shot:  # the LP: its certificate's fields when it certified
            fields = certified_fields(state.outcome)
            if fields is not None:
                return fields
        probs = m.output(game, state, options)  # type: ignore[misc]
        ev = vector_evaluate(vg, np.ascontiguousarray(probs, dtype=np.float64))
        return {
            "profile": Profile(game, probs, validate=False),
            "values": ev.values,
            "gains": ev.gains,
            "nash_conv": ev.nash_conv,
        }

    extra = _STEPS.get(m.options)
    return dataclasses.replace(m, summary=summary, **(extra(vg) if extra else {}))
