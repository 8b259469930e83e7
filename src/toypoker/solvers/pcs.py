"""Public-chance-sampling CFR on the vector layout: the ``pcs-cfr+`` method.

Monte Carlo CFR that samples only the public chance events (Johanson, Bard, Lanctot,
Gibson & Bowling 2012, "Efficient Nash equilibrium approximation through Monte Carlo
counterfactual regret minimization", public chance sampling): each update draws one
board path with an explicit generator (:func:`toypoker.engines.vectors.sampled.sample_path`)
and traverses the public subtree it fixes with every player's full hand vectors.
The regrets are the importance-weighted counterfactual regrets of that subtree
(:func:`toypoker.engines.vectors.regrets.instant_regrets` with ``sampled``), whose
expectation is the full CFR regret exactly; the average strategy adds a player's own
reach times the path's importance weight at the infosets on the path (stochastically
weighted averaging: its expectation is CFR's average update).  Everything else is the
CFR family's schedule (:func:`toypoker.solvers.cfr.scheduled_step`: floor, DCFR
discounts, prediction, ``t^gamma`` averaging, alternating updates -- each player's
update draws its own path), so ``pcs-cfr+`` is CFR+ with sampled boards.

The sampled regrets are the engine's (:meth:`~toypoker.engines.protocol.Engine.sampled_regrets`:
hand vectors', which a game on the deal table compiles once); this module is the
schedule and the generator.  Regrets, average and strategy are flat over the game's actions
(a :class:`~toypoker.solvers.mccfr.MCCFRState`, the generator's state included), so
checkpoints resume bit for bit.

An iteration costs a fraction of full CFR+'s on Rhode Island decks, but the sampled
regrets' variance (importance weights up to the number of board paths) costs far more
than the cheaper iterations save: after the same time full CFR+ is orders of magnitude
closer to equilibrium (``python benchmarks/bench_engine.py --pcs``; the numbers are in
``benchmarks/results/``).  So the CFR family (full width) stays the method for Rhode Island;
this one is the unbiased sampled engine, kept for games whose full iteration does not fit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from toypoker.engines.protocol import PlayerRegrets
from toypoker.game import Game
from toypoker.profile import Profile
from toypoker.solvers.cfr import CFRState, ScheduleOptions, scheduled_step
from toypoker.solvers.mccfr import MCCFRState, make_rng
from toypoker.solvers.mccfr import output as mccfr_output


@dataclass(frozen=True)
class PCSOptions(ScheduleOptions):
    """Options of public-chance-sampling CFR: the CFR schedule's fields
    (:class:`~toypoker.solvers.cfr.ScheduleOptions`, as in
    :class:`~toypoker.solvers.cfr.CFROptions` without ``backend`` and ``average``;
    with ``alternating`` each player's update draws its own board path)."""


def init(game: Game, options: PCSOptions | None = None, seed: int | None = None) -> MCCFRState:
    """Uniform strategy, nothing accumulated, a generator seeded with ``seed``."""
    z = np.zeros(game.n_sigma)
    sigma = Profile.uniform(game).probs
    return MCCFRState(0, z, z.copy(), sigma, make_rng(seed).bit_generator.state)


def step(
    game: Game, state: MCCFRState, options: PCSOptions, restrict: bool | None = None
) -> MCCFRState:
    """One iteration: per update, a board path drawn and its subtree's regrets (the
    engine's ``sampled_regrets``) under the CFR family's schedule.

    ``restrict`` (default: when the schedule has no discount and no prediction)
    updates only the infosets on the path, which leaves the same state: off the path
    the regrets gain 0 and regret matching gives the strategy they already have
    (``tests/solvers/test_pcs.py`` compares the two)."""
    rng = make_rng(None, state.rng)
    engine = game.engine
    if restrict is None:
        restrict = options.alpha is None and not options.predictive

    def regrets_of(sigma: np.ndarray, group: list[int]) -> list[PlayerRegrets]:
        return engine.sampled_regrets(sigma, group, rng, restrict)  # type: ignore[no-any-return]

    cfr_state = CFRState(state.iteration, state.regrets, state.average, state.sigma)
    new = scheduled_step(game, cfr_state, options, regrets_of)  # type: ignore[arg-type]
    return MCCFRState(new.iteration, new.regrets, new.average, new.sigma, rng.bit_generator.state)


def output(game: Game, state: MCCFRState, options: PCSOptions) -> np.ndarray:
    """The strategy ``options.output`` names (as MCCFR's)."""
    return mccfr_output(game, state, options)  # type: ignore[arg-type]


__all__ = ["PCSOptions", "init", "output", "step"]
