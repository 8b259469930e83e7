"""Monte Carlo CFR: external sampling and outcome sampling (Lanctot et al. 2009).

Deals are sampled from the deal table with their probabilities; one iteration
is one traversal per player (the traverser), players in turn.

* **External sampling** samples the deal and every other player's action at
  each of their decision rows and walks all of the traverser's actions.  On
  the compiled game this is the CFR update itself restricted to one deal's
  rows, with the other players' edge probabilities replaced by 0/1 sampled
  indicators: the sampled counterfactual regret is
  ``sum_h 1[h sampled] (v(ha) - v(h))`` (importance weights cancel).  The
  same :class:`~toypoker.solvers.cfr.Schedule` (CFR+ flooring, DCFR
  discounting) applies.  Average strategy: "simple" averaging, the sampled
  players' current strategy added where they are visited.
* **Outcome sampling** samples one trajectory, the traverser exploring with
  probability ``epsilon``; regrets are importance weighted,
  ``W = u_p(z) / q_p(z)``; the average strategy is stochastically weighted,
  ``sigma(I) * pi_q(h) / q(h)`` at the other players' rows on the trajectory.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game import Game
from .base import Method, make_rng, register
from .cfr import Schedule, average_strategy, initial_state
from .mccfr_kernels import Blocks, run_many


@dataclass(frozen=True)
class MCCFRState:
    """Resumable MCCFR state; ``rng`` is the generator's bit-generator state."""

    iteration: int
    regrets: np.ndarray
    average: np.ndarray
    sigma: np.ndarray
    rng: dict


def init(game: Game, options: dict, seed: int | None) -> MCCFRState:
    st = initial_state(game)  # uniform, restrictions kept (as CFR)
    state = MCCFRState(0, st.regrets, st.average, st.sigma, make_rng(seed).bit_generator.state)
    step_many(0, game, state, options, 0)  # compile (or load) the kernels outside the timing
    return state


def _blocks(game: Game) -> Blocks:
    return game.derived("mccfr_blocks", Blocks)


def step_many(kind: int, game: Game, state: MCCFRState, options: dict, n: int) -> MCCFRState:
    """``n`` iterations in one compiled call; identical to ``n`` single steps."""
    schedule = _schedule(options)
    rng = make_rng(None, state.rng)
    regrets, average, sigma = state.regrets.copy(), state.average.copy(), state.sigma.copy()
    b = _blocks(game)
    run_many(
        kind,
        int(n),
        state.iteration,
        regrets,
        average,
        sigma,
        schedule.floor,
        float(schedule.gamma),
        schedule.alpha is not None,
        float(schedule.alpha or 0.0),
        float(schedule.beta or 0.0),
        float(options.get("epsilon", 0.6)),
        b.n_players,
        b.arrays,
        rng,
    )
    return MCCFRState(state.iteration + n, regrets, average, sigma, rng.bit_generator.state)


def es_step(game: Game, state: MCCFRState, options: dict) -> MCCFRState:
    """One external-sampling iteration: a traversal for each player in turn."""
    return step_many(0, game, state, options, 1)


def os_step(game: Game, state: MCCFRState, options: dict) -> MCCFRState:
    """One outcome-sampling iteration: a trajectory for each player in turn."""
    return step_many(1, game, state, options, 1)


def _schedule(options: dict) -> Schedule:
    fields = Schedule.__dataclass_fields__
    return Schedule(**{k: v for k, v in options.items() if k in fields})


def _output(game: Game, state: MCCFRState, which: str) -> np.ndarray:
    if which == "current":
        return state.sigma
    return average_strategy(game, state)  # type: ignore[arg-type]


ES_DEFAULTS = {
    "floor": False,
    "alpha": None,
    "beta": None,
    "gamma": 0.0,
    "alternating": True,
    "delay": 0,
}
register(
    Method(
        "es-mccfr",
        "external-sampling Monte Carlo CFR (deals and others' actions sampled)",
        init,
        es_step,
        _output,
        dict(ES_DEFAULTS),
        stochastic=True,
        step_many=lambda g, st, o, n: step_many(0, g, st, o, n),
    )
)
register(
    Method(
        "os-mccfr",
        "outcome-sampling Monte Carlo CFR (one trajectory, epsilon-exploration 0.6)",
        init,
        os_step,
        _output,
        {**ES_DEFAULTS, "epsilon": 0.6},
        stochastic=True,
        step_many=lambda g, st, o, n: step_many(1, g, st, o, n),
    )
)

__all__ = ["MCCFRState", "es_step", "init", "os_step"]
