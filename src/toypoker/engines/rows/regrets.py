"""The CFR family's regrets on the deal table, in numpy: the readable reference.

For player ``p``'s action edge from row ``par`` to row ``c`` (one deal, one public
node), the counterfactual regret is ``cf_p[par] * (v_p[c] - v_p[par])``: her
counterfactual reach at the parent times what the action adds to her value there
(Zinkevich et al. 2007, one deal at a time), summed over the rows of each
infoset's action.  :func:`player_regrets` answers the engine protocol's regret step
(:meth:`toypoker.engines.protocol.Engine.regrets`); the schedule that turns them into
the next strategy and the average is the solvers' (:func:`toypoker.solvers.cfr.scheduled_step`),
and the fused kernel (:class:`toypoker.engines.rows.CFRKernel`) computes the same
iteration in one call.
"""

from __future__ import annotations

import numpy as np

from toypoker.engines.protocol import PlayerRegrets
from toypoker.engines.rows.values import (
    backward_values,
    counterfactual_reach,
    edge_probabilities,
    reaches,
)
from toypoker.game import Game


class PlayerEdges:
    """Each player's free action edges of the deal table (precomputed once a game)."""

    def __init__(self, game: Game):
        actor = game.row_actor[game.parent_row.clip(0)]
        es = game.edge_sigma
        self.rows = []
        for p in range(game.n_players):
            idx = np.nonzero((es >= 0) & (actor == p))[0]
            idx = idx[~game.sigma_fixed[es[idx]]]
            self.rows.append(idx)
        self.mask = [game.free_mask(p) for p in range(game.n_players)]


def instant_regrets(
    game: Game, player: int, edges: PlayerEdges, eprob: np.ndarray, reach: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Counterfactual regrets of ``player``'s actions and her own reach per row."""
    cf = counterfactual_reach(game, reach, player)
    v = backward_values(game, eprob, [player])[0]
    idx = edges.rows[player]
    par = game.parent_row[idx]
    inst = np.bincount(
        game.edge_sigma[idx], weights=cf[par] * (v[idx] - v[par]), minlength=game.n_sigma
    )
    return inst, reach[player]


def player_regrets(game: Game, sigma: np.ndarray, group: list[int]) -> list[PlayerRegrets]:
    """The regrets of each player of ``group`` under the flat profile ``sigma``, with
    her free actions and her own reach at each action's infoset."""
    edges = game.derived(PlayerEdges)
    own_rep = game.infoset_rep_row[game.sigma_infoset]
    eprob = edge_probabilities(game, sigma)
    reach = reaches(game, eprob)
    out = []
    for p in group:
        inst, own = instant_regrets(game, p, edges, eprob, reach)
        out.append(PlayerRegrets(inst, edges.mask[p], own[own_rep]))
    return out
