"""Fictitious play's part on the deal table: each player's best response to a profile,
the players' values and each player's realization weights
(:class:`toypoker.solvers.fictitious.Layout`, what the engine protocol's
:meth:`~toypoker.engines.protocol.Engine.fp_responses` gives).  The schedule is
:func:`toypoker.solvers.fictitious.layout_step`, one for every engine; the hand vectors'
part is :mod:`toypoker.engines.vectors.responses`.
"""

from __future__ import annotations

import numpy as np

from toypoker.engines.rows import kernel_for
from toypoker.engines.rows.best_response import responses as kernel_responses
from toypoker.engines.rows.values import (
    backward_values,
    best_response,
    edge_probabilities,
    player_reach,
    reaches,
    root_value,
)
from toypoker.game import Game
from toypoker.solvers.fictitious import TIE_RTOL, ullman_order


class RowsResponses:
    """The deal table's part of a fictitious-play step
    (:class:`toypoker.solvers.fictitious.Layout`): float profiles on the compiled
    best-response kernel (:func:`toypoker.engines.rows.best_response.responses`, every
    player's response and value in one call), exact ones on :mod:`toypoker.engines.rows.values`."""

    def __init__(self, game: Game, fused: bool = True) -> None:
        self.game = game
        self.fused = fused  # False: the numpy reference for floats too (tests)
        self._values: tuple[np.ndarray, np.ndarray] | None = None  # (sigma, its values)

    def responses(self, sigma: np.ndarray, ullman: bool) -> list[tuple[float, np.ndarray]]:
        game = self.game
        if self.fused and sigma.dtype != object:
            order = ullman_order(game) if ullman else game.infoset_actions_padded
            values, best, choice = kernel_responses(kernel_for(game), sigma, order, TIE_RTOL)
            self._values = (sigma, values)  # what values(sigma) asks next (Ullman's rule)
            player = game.sigma_player
            return [
                (float(best[p]), np.where(player == p, choice, 0).astype(np.int8))
                for p in range(game.n_players)
            ]
        eprob = edge_probabilities(game, sigma)
        reach = reaches(game, eprob)
        if ullman:
            return [
                ullman_best_response(game, sigma, p, reach, eprob) for p in range(game.n_players)
            ]
        brs = [
            best_response(game, sigma, p, reach, eprob, tie_rtol=TIE_RTOL)
            for p in range(game.n_players)
        ]
        return [(float(br.value), br.choice) for br in brs]

    def values(self, sigma: np.ndarray) -> np.ndarray:
        game = self.game
        if self._values is not None and self._values[0] is sigma:
            return self._values[1].copy()
        v = backward_values(game, edge_probabilities(game, sigma))
        return np.array([float(root_value(game, v[p])) for p in range(game.n_players)])

    def realization(self, sigma: np.ndarray, player: int) -> np.ndarray:
        game = self.game
        reach = player_reach(game, edge_probabilities(game, sigma), player)
        rep = game.infoset_rep_row[game.sigma_infoset]
        mask = game.free_mask(player)
        return np.where(mask, reach[rep] * sigma, 0.0)


def ullman_best_response(
    game: Game, sigma: np.ndarray, player: int, reach: np.ndarray, eprob: np.ndarray
) -> tuple[float, np.ndarray]:
    """``player``'s pure best response to ``sigma`` with Ullman's tie rule (floats).

    :func:`toypoker.engines.rows.values.best_response` with his tie rule: among the
    maximal actions of an infoset (equal up to :data:`~toypoker.solvers.fictitious.TIE_RTOL`
    relative to the largest absolute value there) the first in
    :func:`~toypoker.solvers.fictitious.ullman_order` is chosen.

    Returns
    -------
    (value, choice)
        The best-response value and the 0/1 choice vector over the flat actions.
    """
    br = best_response(
        game, sigma, player, reach, eprob, order=ullman_order(game), tie_rtol=TIE_RTOL
    )
    return float(br.value), br.choice


__all__ = ["RowsResponses", "ullman_best_response"]
