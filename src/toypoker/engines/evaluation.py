"""Evaluation of a profile on any game, whatever its layout.

:func:`evaluate`, :func:`nash_conv` and :func:`best_response` are the flat API's
(``tp.evaluate``, ...): on the deal table they are :mod:`toypoker.engines.rows.values`'s; on the
vector layout they read the hand vectors (:mod:`toypoker.engines.vectors.values`, exact for a
profile of Fractions; float NashConv by the fused kernel,
:meth:`toypoker.engines.vectors.kernel.VectorKernel.evaluate`).  Both return the same types with
the same numbers (``tests/engines``).  A team's joint best response reads the deal
table: on the vector layout it is refused in one line naming ``layout="rows"``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from toypoker.engines.protocol import BestResponse, Evaluation
from toypoker.engines.rows.values import best_response as row_best_response
from toypoker.engines.rows.values import evaluate as row_evaluate
from toypoker.engines.rows.values import nash_conv as row_nash_conv
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.layout import VectorGame
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.profile import Profile


@dataclass(frozen=True)
class VectorEvaluation:
    """Each player's value and best-response gain, and NashConv, of a float profile
    on the vector layout."""

    values: tuple[float, ...]
    gains: tuple[float, ...]
    nash_conv: float


def vector_of(game: Game) -> VectorGame | None:
    """The hand vectors a game on hand vectors computes on (None on the deal table)."""
    return getattr(game.engine_data, "vectors", None)


def vector_evaluate(vg: VectorGame, sigma: np.ndarray) -> VectorEvaluation:
    """Values, gains and NashConv of the flat float profile ``sigma`` by the vector
    layout's best responses: one compiled call where the game has a fused kernel
    (:meth:`toypoker.engines.vectors.kernel.VectorKernel.evaluate`), else the numpy reference
    (:func:`toypoker.engines.vectors.values.best_response_value`)."""
    from toypoker.engines.vectors.kernel import vector_kernel  # numba loads with the first kernel

    kernel = vector_kernel(vg)
    if kernel is not None:
        values, best = kernel.evaluate(sigma)
    else:
        values = V.expected_values(vg, sigma)
        best = [V.best_response_value(vg, sigma, p)[0] for p in range(vg.n_players)]
    gains = tuple(max(float(best[p]) - float(values[p]), 0.0) for p in range(vg.n_players))
    return VectorEvaluation(tuple(float(v) for v in values), gains, float(sum(gains)))


def _sigma(profile: Profile) -> np.ndarray:
    """The flat profile as the vector layout reads it: Fractions as they are, floats as one
    contiguous float64 array (what the kernels take)."""
    if profile.exact:
        return profile.probs
    return np.ascontiguousarray(profile.probs, dtype=np.float64)



def evaluate(game: Game, profile: Profile) -> Evaluation:
    """Values, each player's best response and gain, and NashConv of ``profile`` (checked
    against ``game``) by the engine ``game`` is built on (:func:`toypoker.evaluate`)."""
    vg = vector_of(game)
    if vg is None:
        return row_evaluate(game, profile)
    sigma = _sigma(profile)
    reach = V.reaches(vg, sigma)
    values = tuple(V.expected_values(vg, sigma))
    brs = []
    for p in range(game.n_players):
        value, choice = V.best_response_value(vg, sigma, p, reach=reach)
        brs.append(BestResponse(p, value, choice))
    return Evaluation.of(values, tuple(brs), profile.exact)


def nash_conv(game: Game, profile: Profile) -> object:
    """NashConv of ``profile`` (checked against ``game``) by the engine ``game`` is built
    on: exact for Fractions, float profiles by the engine's fused kernel
    (:func:`toypoker.nash_conv`)."""
    vg = vector_of(game)
    if vg is None:
        return row_nash_conv(game, profile)
    if profile.exact:
        return V.nash_conv(vg, profile.probs)
    return vector_evaluate(vg, _sigma(profile)).nash_conv


def best_response(game: Game, profile: Profile, player: int | tuple[int, ...]) -> BestResponse:
    """A pure best response of ``player`` (a checked seat; a tuple of seats: a team's joint
    response, which the deal table computes) to ``profile`` (:func:`toypoker.best_response`)."""
    vg = vector_of(game)
    if vg is None or isinstance(player, tuple):
        if vg is not None:
            raise ToypokerError(
                "a team's joint best response reads the deal table: load the game with "
                f"layout='rows' (tp.load_game({game.spec!r}, layout='rows'))"
            )
        return row_best_response(game, profile.probs, player)
    value, choice = V.best_response_value(vg, _sigma(profile), player)
    return BestResponse(player, value if profile.exact else float(value), choice)
