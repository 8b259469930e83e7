"""Public-chance-sampling CFR on the vector layout: the ``pcs-cfr+`` method.

Monte Carlo CFR that samples only the public chance events (Johanson, Bard, Lanctot,
Gibson & Bowling 2012, "Efficient Nash equilibrium approximation through Monte Carlo
counterfactual regret minimization", public chance sampling): each update draws one
board path with an explicit generator (:func:`toypoker.vector.sampled.sample_path`)
and traverses the public subtree it fixes with every player's full hand vectors.
The regrets are the importance-weighted counterfactual regrets of that subtree
(:func:`toypoker.solvers.vector_cfr.instant_regrets` with ``sampled``), whose
expectation is the full CFR regret exactly; the average strategy adds a player's own
reach times the path's importance weight at the infosets on the path (stochastically
weighted averaging: its expectation is CFR's average update).  Everything else is the
CFR family's schedule (:func:`toypoker.solvers.cfr.scheduled_step`: floor, DCFR
discounts, prediction, ``t^gamma`` averaging, alternating updates -- each player's
update draws its own path), so ``pcs-cfr+`` is CFR+ with sampled boards.

On a row-layout :class:`~toypoker.game.Game` the method runs on the game's vector
layout (:func:`~toypoker.vector.layout.compile_vector`, built once per game): there is
one implementation.  Regrets, average and strategy are flat over the game's actions
(a :class:`~toypoker.solvers.mccfr.MCCFRState`, the generator's state included), so
checkpoints resume bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game import Game
from ..vector import values as V
from ..vector.layout import VectorGame, compile_vector
from ..vector.sampled import path_subtree, sample_path
from .cfr import CFRState, PlayerRegrets, ScheduleOptions, scheduled_step
from .mccfr import MCCFRState, make_rng
from .mccfr import output as mccfr_output
from .vector_cfr import init as vector_start
from .vector_cfr import instant_regrets


@dataclass(frozen=True)
class PCSOptions(ScheduleOptions):
    """Options of public-chance-sampling CFR: the CFR schedule's fields
    (:class:`~toypoker.solvers.cfr.ScheduleOptions`, as in
    :class:`~toypoker.solvers.cfr.CFROptions` without ``backend`` and ``average``;
    with ``alternating`` each player's update draws its own board path)."""


def layout_of(game: Game) -> VectorGame:
    """The vector layout a row-layout game's sampled methods run on (built once)."""
    return game.derived(compile_vector)


def vector_init(vg: VectorGame, seed: int | None) -> MCCFRState:
    """Uniform strategy, nothing accumulated, a generator seeded with ``seed``."""
    s = vector_start(vg)
    return MCCFRState(0, s.regrets, s.average, s.sigma, make_rng(seed).bit_generator.state)


def vector_step(vg: VectorGame, state: MCCFRState, options: PCSOptions) -> MCCFRState:
    """One iteration: per update, a board path drawn and its subtree's regrets."""
    game = vg.game
    rng = make_rng(None, state.rng)
    rep = V.plan_for(vg).infoset_rep[game.sigma_infoset].clip(0)

    def regrets_of(sigma: np.ndarray, group: list[int]) -> list[PlayerRegrets]:
        active, scale = path_subtree(vg, sample_path(vg, rng))
        reach = V.reaches(vg, sigma, active)
        weight = scale[rep // vg.n_hands]
        return [
            PlayerRegrets(
                instant_regrets(vg, sigma, p, reach, (active, scale)),
                game.free_mask(p),
                reach[p].ravel()[rep] * weight,
            )
            for p in group
        ]

    cfr_state = CFRState(state.iteration, state.regrets, state.average, state.sigma)
    new = scheduled_step(game, cfr_state, options, regrets_of)  # type: ignore[arg-type]
    return MCCFRState(new.iteration, new.regrets, new.average, new.sigma, rng.bit_generator.state)


def init(game: Game, options: PCSOptions, seed: int | None) -> MCCFRState:
    """The start on a row-layout game (its vector layout)."""
    return vector_init(layout_of(game), seed)


def step(game: Game, state: MCCFRState, options: PCSOptions) -> MCCFRState:
    """One iteration on a row-layout game (its vector layout)."""
    return vector_step(layout_of(game), state, options)


def output(game: Game, state: MCCFRState, options: PCSOptions) -> np.ndarray:
    """The strategy ``options.output`` names (as MCCFR's)."""
    return mccfr_output(game, state, options)  # type: ignore[arg-type]


__all__ = ["PCSOptions", "init", "layout_of", "output", "step", "vector_init", "vector_step"]
