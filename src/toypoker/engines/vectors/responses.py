"""Fictitious play on the vector layout.

The schedule is :func:`toypoker.solvers.fictitious.layout_step` (one code path for both
layouts: simultaneous best responses to the average, realization-weighted averaging or
Ullman's behaviour mixing, the same :class:`~toypoker.solvers.fictitious.FPState`); this
module supplies only what it reads from the layout -- the best responses
(:func:`toypoker.engines.vectors.values.best_response_value`, with Ullman's tie rule
when asked), the players' values and each player's realization weights (her own reach at
one (node, hand) of each infoset,
:attr:`toypoker.engines.vectors.terminal_values.Plan.infoset_rep`).  So a run equals the row
layout's to rounding (``tests/engines/vectors/test_responses.py``).

Where the game has a fused kernel (:func:`toypoker.engines.vectors.kernel.vector_kernel`) and
the profile is in floats, the three come from its compiled passes, on threads
(:meth:`~toypoker.engines.vectors.kernel.VectorKernel.responses` and
:meth:`~toypoker.engines.vectors.kernel.VectorKernel.own_reach`); the numpy functions of
:mod:`toypoker.engines.vectors.values` stay the reference (``tests/engines/vectors/
test_responses.py``: the same responses and iterates to rounding).
"""

from __future__ import annotations

import numpy as np

from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.kernel import VectorKernel, vector_kernel
from toypoker.engines.vectors.layout import VectorGame
from toypoker.solvers.fictitious import TIE_RTOL, ullman_order


class VectorLayout:
    """The vector layout's part of a fictitious-play step
    (:class:`toypoker.solvers.fictitious.Layout`)."""

    def __init__(self, vg: VectorGame, fused: bool = True) -> None:
        self.vg = vg
        self.kernel: VectorKernel | None = vector_kernel(vg) if fused else None

    def _fused(self, sigma: np.ndarray) -> VectorKernel | None:
        """The kernel for a float ``sigma``, ``None`` for the reference."""
        return self.kernel if sigma.dtype != object else None

    def responses(self, sigma: np.ndarray, ullman: bool) -> list[tuple[float, np.ndarray]]:
        """Each player's pure best response to ``sigma`` (value, 0/1 choice)."""
        vg = self.vg
        k = self._fused(sigma)
        if k is not None:
            order = ullman_order(vg.game) if ullman else None
            _, best, choice = k.responses(sigma, order, TIE_RTOL)
            return [(float(best[p]), choice[p]) for p in range(vg.n_players)]
        reach = V.reaches(vg, sigma)
        order = ullman_order(vg.game) if ullman else None
        out = []
        for p in range(vg.n_players):
            value, choice = V.best_response_value(
                vg, sigma, p, reach=reach, order=order, tie_rtol=TIE_RTOL
            )
            out.append((float(value), choice))  # type: ignore[arg-type]
        return out

    def values(self, sigma: np.ndarray) -> np.ndarray:
        """Each player's expected value under ``sigma``."""
        k = self._fused(sigma)
        if k is not None:
            return k.expected_values(sigma)
        return np.asarray(V.expected_values(self.vg, sigma), dtype=np.float64)

    def realization(self, sigma: np.ndarray, player: int) -> np.ndarray:
        """``pi_p(I) * sigma(a|I)`` at ``player``'s free entries, 0 elsewhere."""
        vg = self.vg
        game = vg.game
        k = self._fused(sigma)
        if k is not None:
            own = k.own_reach(sigma, player).ravel()
        else:
            own = V.reaches(vg, sigma)[player].ravel()
        rep = V.plan_for(vg).infoset_rep[game.sigma_infoset]
        return np.where(game.free_mask(player), own[rep.clip(0)] * sigma, 0.0)
