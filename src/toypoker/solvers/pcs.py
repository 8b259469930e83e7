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

On a row-layout :class:`~toypoker.game.Game` the method runs on the game's vector
layout (:func:`~toypoker.engines.vectors.layout.compile_vector`, built once per game): there is
one implementation.  Regrets, average and strategy are flat over the game's actions
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

from toypoker.engines import hand_vectors
from toypoker.engines.protocol import PlayerRegrets
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.layout import VectorGame
from toypoker.engines.vectors.regrets import init as vector_start
from toypoker.engines.vectors.regrets import instant_regrets
from toypoker.engines.vectors.sampled import path_subtree, sample_path
from toypoker.game import Game
from toypoker.solvers.cfr import CFRState, ScheduleOptions, scheduled_step
from toypoker.solvers.mccfr import MCCFRState, make_rng
from toypoker.solvers.mccfr import output as mccfr_output


@dataclass(frozen=True)
class PCSOptions(ScheduleOptions):
    """Options of public-chance-sampling CFR: the CFR schedule's fields
    (:class:`~toypoker.solvers.cfr.ScheduleOptions`, as in
    :class:`~toypoker.solvers.cfr.CFROptions` without ``backend`` and ``average``;
    with ``alternating`` each player's update draws its own board path)."""


def layout_of(game: Game) -> VectorGame:
    """The hand vectors the sampled method runs on: the game's own, or compiled once
    from its deal table (:func:`toypoker.engines.hand_vectors`)."""
    return hand_vectors(game)


def vector_init(vg: VectorGame, seed: int | None) -> MCCFRState:
    """Uniform strategy, nothing accumulated, a generator seeded with ``seed``."""
    s = vector_start(vg)
    return MCCFRState(0, s.regrets, s.average, s.sigma, make_rng(seed).bit_generator.state)


def vector_step(
    vg: VectorGame, state: MCCFRState, options: PCSOptions, restrict: bool | None = None
) -> MCCFRState:
    """One iteration: per update, a board path drawn and its subtree's regrets.

    ``restrict`` (default: when the schedule has no discount and no prediction)
    updates only the infosets on the path, which leaves the same state: off the path
    the regrets gain 0 and regret matching gives the strategy they already have
    (``tests/solvers/test_pcs.py`` compares the two)."""
    game = vg.game
    rng = make_rng(None, state.rng)
    rep = _reps(vg)

    masks = _free_masks(vg)
    # without discounts or predictions an update leaves the infosets off the path as
    # they were (regrets + 0, the same regret matching): update the path's only
    if restrict is None:
        restrict = options.alpha is None and not options.predictive

    def regrets_of(sigma: np.ndarray, group: list[int]) -> list[PlayerRegrets]:
        active, scale = path_subtree(vg, sample_path(vg, rng))
        reach = V.reaches(vg, sigma, active)
        out = []
        for p in group:
            mask = masks[p]
            if restrict:
                on_path = np.zeros(game.n_sigma, dtype=bool)
                e = vg.edge_sigma[active[vg.edge_player[active] == p]]
                on_path[e[e >= 0]] = True
                mask = mask & on_path
            # own reach times the path's importance weight, where the update reads it
            idx = np.flatnonzero(mask)
            own = np.zeros(game.n_sigma)
            own[idx] = reach[p].ravel()[rep[idx]] * scale[rep[idx] // vg.n_hands]
            inst = instant_regrets(vg, sigma, p, reach, (active, scale))
            out.append(PlayerRegrets(inst, mask, own))
        return out

    cfr_state = CFRState(state.iteration, state.regrets, state.average, state.sigma)
    new = scheduled_step(game, cfr_state, options, regrets_of)  # type: ignore[arg-type]
    return MCCFRState(new.iteration, new.regrets, new.average, new.sigma, rng.bit_generator.state)


def _reps(vg: VectorGame) -> np.ndarray:
    """Per flat action, the flat (node, hand) index of one holder of its infoset."""
    if "action_reps" not in vg.cache:
        vg.cache["action_reps"] = V.plan_for(vg).infoset_rep[vg.game.sigma_infoset].clip(0)
    return vg.cache["action_reps"]  # type: ignore[return-value]


def _free_masks(vg: VectorGame) -> list[np.ndarray]:
    """Each player's free flat actions (kept with the layout)."""
    if "free_masks" not in vg.cache:
        vg.cache["free_masks"] = [vg.game.free_mask(p) for p in range(vg.n_players)]
    return vg.cache["free_masks"]  # type: ignore[return-value]


def init(game: Game, options: PCSOptions, seed: int | None) -> MCCFRState:
    """The start on ``game``'s hand vectors (:func:`layout_of`: its own, or compiled once
    from its deal table)."""
    return vector_init(layout_of(game), seed)


def step(game: Game, state: MCCFRState, options: PCSOptions) -> MCCFRState:
    """One iteration on ``game``'s hand vectors (:func:`layout_of`)."""
    return vector_step(layout_of(game), state, options)


def output(game: Game, state: MCCFRState, options: PCSOptions) -> np.ndarray:
    """The strategy ``options.output`` names (as MCCFR's)."""
    return mccfr_output(game, state, options)  # type: ignore[arg-type]


__all__ = ["PCSOptions", "init", "layout_of", "output", "step", "vector_init", "vector_step"]
