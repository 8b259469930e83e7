"""Monte Carlo CFR: external sampling and outcome sampling (Lanctot et al. 2009).

Deals are sampled from the deal table with their probabilities (the engine's
``mccfr_iterations``: the deal table's compiled traversals,
:mod:`toypoker.engines.rows.mccfr`, or their plain-Python reference); one iteration
is one traversal per player (the traverser), players in turn (updates always
alternate, so there is no ``alternating`` option; nor ``delay``: the average
accumulates from the first iteration).

* **External sampling** samples the deal and every other player's action at
  each of their decision rows and walks all of the traverser's actions.  On
  the compiled game this is the CFR update itself restricted to one deal's
  rows, with the other players' edge probabilities replaced by 0/1 sampled
  indicators: the sampled counterfactual regret is
  ``sum_h 1[h sampled] (v(ha) - v(h))`` (importance weights cancel).  CFR+
  flooring and DCFR discounting apply as in :class:`~.cfr.CFROptions`.
  Average strategy: "simple" averaging, the sampled players' current
  strategy added where they are visited.
* **Outcome sampling** samples one trajectory, the traverser exploring with
  probability ``epsilon``; regrets are importance weighted,
  ``W = u_p(z) / q_p(z)``; the average strategy is stochastically weighted,
  ``sigma(I) * pi_q(h) / q(h)`` at the other players' rows on the trajectory.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from toypoker.engines.protocol import Engine
from toypoker.game import Game
from toypoker.profile import Profile
from toypoker.solvers.cfr import average_strategy, check_regret_options
from toypoker.solvers.options import Output, Sampling, real


@dataclass(frozen=True)
class ESOptions:
    """Options of external-sampling MCCFR (the shared CFR schedule fields).

    Attributes
    ----------
    floor : bool
        Clip regrets at zero (CFR+ style).
    alpha, beta : float or None
        DCFR discount exponents (both or neither).
    gamma : float
        Average weight of iteration ``t`` is ``t**gamma``.
    output : Output
        ``"average"`` or ``"current"`` strategy.
    """

    floor: bool = False
    alpha: float | None = None
    beta: float | None = None
    gamma: float = 0.0
    output: Output = Output.AVERAGE

    def __post_init__(self) -> None:
        check_regret_options(self)


@dataclass(frozen=True)
class OSOptions(ESOptions):
    """Options of outcome-sampling MCCFR: those of :class:`ESOptions` and

    Attributes
    ----------
    epsilon : float
        The traverser's exploration probability, in (0, 1].
    """

    epsilon: float = 0.6

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(
            self, "epsilon", real("epsilon", self.epsilon, low=0.0, high=1.0, open_low=True)
        )


@dataclass(frozen=True)
class MCCFRState:
    """Resumable MCCFR state; ``rng`` is the generator's bit-generator state."""

    iteration: int
    regrets: np.ndarray
    average: np.ndarray
    sigma: np.ndarray
    rng: dict


def make_rng(seed: int | None, state: dict | None = None) -> np.random.Generator:
    """A PCG64 generator from a seed, or restored from a saved bit-generator state."""
    rng = np.random.Generator(np.random.PCG64(seed))
    if state is not None:
        rng.bit_generator.state = state
    return rng


def _init(kind: Sampling, game: Game, options: ESOptions, seed: int | None) -> MCCFRState:
    z = np.zeros(game.n_sigma)
    sigma = Profile.uniform(game).probs  # uniform, restrictions kept (as CFR)
    state = MCCFRState(0, z, z.copy(), sigma, make_rng(seed).bit_generator.state)
    step_many(kind, game, state, options, 0)  # compile (or load) the kernels outside the timing
    return state


def es_init(game: Game, options: ESOptions, seed: int | None) -> MCCFRState:
    """External sampling's start: uniform strategy, a generator seeded with ``seed``."""
    return _init(Sampling.EXTERNAL, game, options, seed)


def os_init(game: Game, options: OSOptions, seed: int | None) -> MCCFRState:
    """Outcome sampling's start: uniform strategy, a generator seeded with ``seed``."""
    return _init(Sampling.OUTCOME, game, options, seed)


def step_many(
    kind: Sampling, game: Game, state: MCCFRState, options: ESOptions, n: int
) -> MCCFRState:
    """``n`` iterations in one call of the engine's traversals; identical to ``n`` single
    steps."""
    return engine_steps(game.engine, kind, game, state, options, n)


def engine_steps(
    engine: Engine, kind: Sampling, game: Game, state: MCCFRState, options: ESOptions, n: int
) -> MCCFRState:
    """:func:`step_many` on ``engine`` (one that provides the deals): its
    ``mccfr_iterations`` -- the compiled traversals, or the reference engine's plain
    Python -- from a copy of the state, the generator restored and saved again."""
    rng = make_rng(None, state.rng)
    regrets, average, sigma = state.regrets.copy(), state.average.copy(), state.sigma.copy()
    engine.mccfr_iterations(kind)(n, state.iteration, regrets, average, sigma, options, rng)
    return MCCFRState(state.iteration + n, regrets, average, sigma, rng.bit_generator.state)


def es_step(game: Game, state: MCCFRState, options: ESOptions) -> MCCFRState:
    """One external-sampling iteration: a traversal for each player in turn."""
    return step_many(Sampling.EXTERNAL, game, state, options, 1)


def os_step(game: Game, state: MCCFRState, options: OSOptions) -> MCCFRState:
    """One outcome-sampling iteration: a trajectory for each player in turn."""
    return step_many(Sampling.OUTCOME, game, state, options, 1)


def es_step_many(game: Game, state: MCCFRState, options: ESOptions, n: int) -> MCCFRState:
    """``n`` external-sampling iterations at once."""
    return step_many(Sampling.EXTERNAL, game, state, options, n)


def os_step_many(game: Game, state: MCCFRState, options: OSOptions, n: int) -> MCCFRState:
    """``n`` outcome-sampling iterations at once."""
    return step_many(Sampling.OUTCOME, game, state, options, n)


def output(game: Game, state: MCCFRState, options: ESOptions) -> np.ndarray:
    """The strategy ``options.output`` names, as a flat probability vector."""
    if options.output is Output.CURRENT:
        return state.sigma
    return average_strategy(game, state.average, state.sigma)


__all__ = [
    "ESOptions",
    "MCCFRState",
    "OSOptions",
    "engine_steps",
    "es_init",
    "es_step",
    "es_step_many",
    "os_init",
    "os_step",
    "os_step_many",
    "output",
    "step_many",
]
