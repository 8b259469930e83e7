"""Fictitious play, full width (Brown 1951; Heinrich, Lanctot, Silver 2015).

Each iteration every player best-responds to the others' *average* strategy;
the averages are updated in realization weights, so the average of behaviour
strategies is the right one: the accumulated weight of action ``a`` at
infoset ``I`` is ``sum_t w_t pi_p^{BR_t}(I) BR_t(a|I)``, normalised per infoset
(the same accumulator as CFR's average strategy).  Ullman (2015) starts from
the uniform profile and averages with weight ``1/(t+1)``: every best response
counts once, ``w_t = 1`` (``gamma = 0``); ``gamma > 0`` weights iteration ``t``
by ``t**gamma`` (the generalized weighted variants).  Stop on a target for
the largest best-response gain (``target_max_gain``, Ullman's ``eps``) or NashConv.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..evaluate import (
    backward_values,
    best_response,
    edge_probabilities,
    own_reach,
    reaches,
    root_value,
)
from ..game import Game
from .base import Method, register
from .cfr import average_strategy


@dataclass(frozen=True)
class FPState:
    iteration: int
    average: np.ndarray  # accumulated realization weights
    sigma: np.ndarray  # the current average profile (behaviour)
    gains: np.ndarray  # each player's best-response gain against ``sigma`` before the step


def _realization(game: Game, sigma: np.ndarray, player: int) -> np.ndarray:
    """``pi_p(I) * sigma(a|I)`` at ``player``'s free entries, 0 elsewhere."""
    reach = own_reach(game, edge_probabilities(game, sigma), player)
    rep = game.infoset_rep_row[game.sigma_infoset]
    mask = (game.sigma_player == player) & ~game.sigma_fixed
    return np.where(mask, reach[rep] * sigma, 0.0)


def init(game: Game, options: dict, seed: int | None) -> FPState:
    k = game.infoset_n_actions[game.sigma_infoset]
    sigma = 1.0 / k
    sigma[game.sigma_fixed] = game.fixed_values[game.sigma_fixed]
    avg = sum(_realization(game, sigma, p) for p in range(game.n_players))
    return FPState(0, np.asarray(avg, dtype=np.float64), sigma, np.full(game.n_players, np.inf))


def step(game: Game, state: FPState, options: dict) -> FPState:
    t = state.iteration + 1
    w = float(t + 1) ** float(options.get("gamma", 0.0))
    eprob = edge_probabilities(game, state.sigma)
    reach = reaches(game, eprob)
    average = state.average.copy()
    vals = backward_values(game, eprob)
    values = [root_value(game, vals[q]) for q in range(game.n_players)]
    gains = np.zeros(game.n_players)
    for p in range(game.n_players):
        br = best_response(game, state.sigma, p, reach, eprob)
        mask = (game.sigma_player == p) & ~game.sigma_fixed
        response = np.where(mask, br.choice.astype(np.float64), state.sigma)
        average += w * _realization(game, response, p)
        gains[p] = max(float(br.value - values[p]), 0.0)
    sigma = average_strategy(game, _Avg(average, state.sigma))
    return FPState(t, average, sigma, gains)


@dataclass(frozen=True)
class _Avg:  # adapter: average_strategy reads .average and .sigma
    average: np.ndarray
    sigma: np.ndarray


def output(game: Game, state: FPState, which: str) -> np.ndarray:
    return state.sigma


register(
    Method(
        "fp",
        "fictitious play: best responses to the average, realization-weighted "
        "1/t averaging (gamma=0)",
        init,
        step,
        output,
        {"gamma": 0.0},
    )
)
