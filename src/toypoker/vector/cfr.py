"""The CFR family's iteration on the vector layout.

The same schedule as :func:`toypoker.solvers.cfr.reference_step` (CFR, CFR+, linear
and discounted CFR, PCFR+, DCFR+, PDCFR+: :class:`~toypoker.solvers.cfr.CFROptions`)
and the same state (:class:`~toypoker.solvers.cfr.CFRState`: flat regrets, average
and strategy over the compiled game's actions), but the instantaneous regrets come
from the vector layout: for player ``p``'s action edge into node ``c`` and hand
``h``, ``cfv_p[c, h] - cfv_p[parent, h]`` (:func:`toypoker.vector.values.counterfactual_values`),
summed over the hands of each infoset.  The average-strategy weight uses ``p``'s own
reach at one (node, hand) of the infoset.  So the iterates equal the row layout's to
rounding (``tests/vector/test_cfr.py``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..solvers.cfr import (
    CFROptions,
    CFRState,
    _discounted,
    discount_factors,
    regret_matching,
)
from .layout import VectorGame
from .values import counterfactual_values, plan_for, reaches


def init(vg: VectorGame) -> CFRState:
    """Uniform strategy (restricted infosets at their fixed values), nothing accumulated."""
    game = vg.game
    sigma = np.full(game.n_sigma, 0.0)
    sigma[:] = 1.0 / game.infoset_n_actions[game.sigma_infoset]
    sigma[game.sigma_fixed] = game.fixed_values[game.sigma_fixed]
    z = np.zeros(game.n_sigma)
    return CFRState(0, z, z.copy(), sigma)


def instant_regrets(
    vg: VectorGame, sigma: np.ndarray, player: int, reach: np.ndarray
) -> np.ndarray:
    """``player``'s instantaneous counterfactual regrets per flat action."""
    cfv = counterfactual_values(vg, sigma, player, reach)
    own = vg.edge_player == player
    e = vg.edge_sigma[own]
    diff = cfv[own] - cfv[vg.parent[own]]
    ok = e >= 0
    return np.bincount(e[ok], weights=diff[ok], minlength=vg.game.n_sigma)


def step(vg: VectorGame, state: CFRState, options: CFROptions) -> CFRState:
    """One iteration under the schedule ``options`` (as ``reference_step``)."""
    game = vg.game
    plan = plan_for(vg)
    t = state.iteration + 1
    regrets = state.regrets.copy()
    average = state.average.copy()
    sigma = state.sigma.copy()
    weight = float(t) ** options.gamma if t > options.delay else 0.0
    players = range(game.n_players)
    updates = [[p] for p in players] if options.alternating else [list(players)]
    rep = plan.infoset_rep[game.sigma_infoset]
    now = discount_factors(options, t - options.discount_lag)
    if options.predictive:
        after = discount_factors(options, t + 1 - options.discount_lag)
    for group in updates:
        reach = reaches(vg, sigma)
        news = []
        for p in group:
            inst = instant_regrets(vg, sigma, p, reach)
            mask = game.free_mask(p)
            if weight:
                own = reach[p].ravel()
                average[mask] += weight * own[rep[mask]] * sigma[mask]
            news.append((inst, mask))
        for inst, mask in news:
            r = _discounted(regrets[mask], now, options) + inst[mask]
            if options.floor:
                r = np.maximum(r, 0.0)
            regrets[mask] = r
        for inst, mask in news:
            target = regrets
            if options.predictive:
                target = regrets.copy()
                target[mask] = _discounted(regrets[mask], after, options) + inst[mask]
            sigma = regret_matching(game, target, sigma, mask)
    return replace(state, iteration=t, regrets=regrets, average=average, sigma=sigma)


def run(vg: VectorGame, options: CFROptions, iterations: int) -> CFRState:
    """``iterations`` iterations from :func:`init`."""
    state = init(vg)
    for _ in range(iterations):
        state = step(vg, state, options)
    return state
