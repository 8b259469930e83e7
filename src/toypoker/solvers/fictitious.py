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

The output is the average profile: fictitious play has no other strategy that
converges (the current best response is pure), so it takes no ``output`` option.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..evaluate import best_response, edge_probabilities, player_reach, reaches
from ..game import Game
from ..profile import Profile
from .cfr import average_strategy
from .options import real


@dataclass(frozen=True)
class FPOptions:
    """Options of fictitious play.

    Attributes
    ----------
    gamma : float
        Iteration ``t`` enters the average with weight ``(t + 1)**gamma``
        (0: Ullman's plain ``1/(t+1)`` averaging).
    """

    gamma: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "gamma", real("gamma", self.gamma, low=0.0))


@dataclass(frozen=True)
class FPState:
    """Resumable state: accumulated realization weights and the average profile."""

    iteration: int
    average: np.ndarray  # accumulated realization weights
    sigma: np.ndarray  # the current average profile (behaviour)


def _realization(game: Game, sigma: np.ndarray, player: int) -> np.ndarray:
    """``pi_p(I) * sigma(a|I)`` at ``player``'s free entries, 0 elsewhere."""
    reach = player_reach(game, edge_probabilities(game, sigma), player)
    rep = game.infoset_rep_row[game.sigma_infoset]
    mask = game.free_mask(player)
    return np.where(mask, reach[rep] * sigma, 0.0)


def init(game: Game, options: FPOptions | None = None, seed: int | None = None) -> FPState:
    """Ullman's start: the uniform profile, counted once in the average.

    ``options`` and ``seed`` are not read (the method protocol passes them)."""
    sigma = Profile.uniform(game).probs
    avg = sum(_realization(game, sigma, p) for p in range(game.n_players))
    return FPState(0, np.asarray(avg, dtype=np.float64), sigma)


def step(game: Game, state: FPState, options: FPOptions) -> FPState:
    """One iteration: every player's best response to the average enters it."""
    t = state.iteration + 1
    w = float(t + 1) ** options.gamma
    eprob = edge_probabilities(game, state.sigma)
    reach = reaches(game, eprob)
    average = state.average.copy()
    for p in range(game.n_players):
        br = best_response(game, state.sigma, p, reach, eprob)
        mask = game.free_mask(p)
        response = np.where(mask, br.choice.astype(np.float64), state.sigma)
        average += w * _realization(game, response, p)
    sigma = average_strategy(game, average, state.sigma)
    return FPState(t, average, sigma)


def output(game: Game, state: FPState, options: FPOptions) -> np.ndarray:
    """The average profile (the only output of fictitious play)."""
    return state.sigma


__all__ = ["FPOptions", "FPState", "init", "output", "step"]
