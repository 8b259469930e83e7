"""The adaptation dynamics for any game of the core with binary free choices:
``dx_i/dt = k_i g(x_i) D_i(x)`` with ``D_i = dE_p/dx_i`` from the compiled game.

``E_p`` is multilinear, so ``D_i`` is, at the rows of infoset ``i``, the total
reach (chance and every player, the owner included) times the owner's value
after the aggressive action minus after the passive one, summed over the
rows: one forward pass, one backward pass, one ``bincount``.  On SKP this is
Billingham's eqs. (21)-(23) with ``k`` rescaled by ``24/(P+1)``, ``24/P``,
``24/(P+1)`` (the brackets there are ``D`` up to those positive factors).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from scipy.integrate import solve_ivp

from toypoker.dynamics.ode import default_g, integrated
from toypoker.engines.rows.values import backward_values, edge_probabilities, reaches
from toypoker.errors import ToypokerError
from toypoker.game import Game


class GameDynamics:
    """Gradient-like adaptation of the aggressive-action probabilities of a game.

    Parameters
    ----------
    game
        A compiled game; every free infoset must have two actions.
    k
        Rate per variable (scalar or sequence).
    g
        The damping ``g(x)`` vanishing at 0 and 1 (default ``x(1-x)``).
    """

    def __init__(
        self,
        game: Game,
        k: float | Sequence[float] = 1.0,
        g: Callable[[np.ndarray], np.ndarray] = default_g,
    ):
        self.game = game
        self.infosets = [i for i in game.infosets if not i.restricted]
        if any(len(i.actions) != 2 for i in self.infosets):
            raise ToypokerError("the adaptation dynamics need binary free choices")
        self.labels = [i.label for i in self.infosets]
        self.k = np.broadcast_to(np.asarray(k, dtype=float), (len(self.infosets),)).copy()
        self.g = g
        self._index = np.full(game.n_infosets, -1)
        self._index[[i.index for i in self.infosets]] = np.arange(len(self.infosets))
        # action edges out of free infosets: child row, parent row, sign, owner, variable
        has = game.edge_sigma >= 0
        child = np.nonzero(has)[0]
        sig = game.edge_sigma[child]
        inf = game.sigma_infoset[sig]
        keep = self._index[inf] >= 0
        self._child = child[keep]
        self._parent = game.parent_row[self._child]
        act = sig[keep] - game.infoset_offset[inf[keep]]
        self._sign = np.where(act == 1, 1.0, -1.0)
        self._owner = game.infoset_player[inf[keep]]
        self._var = self._index[inf[keep]]

    def sigma(self, x: np.ndarray) -> np.ndarray:
        g = self.game
        s = g.fixed_values.copy() if g.sigma_fixed.any() else np.zeros(g.n_sigma)
        off = np.array([i.offset for i in self.infosets])
        s[off] = 1.0 - x
        s[off + 1] = x
        return s

    def D(self, x: np.ndarray) -> np.ndarray:
        """``dE_owner / dx_i`` for every free variable."""
        g = self.game
        eprob = edge_probabilities(g, self.sigma(np.asarray(x, dtype=float)))
        reach = reaches(g, eprob)
        total = g.weights[g.row_deal] * np.prod(reach, axis=0)
        vals = backward_values(g, eprob)
        contrib = self._sign * total[self._parent] * vals[self._owner, self._child]
        return np.bincount(self._var, weights=contrib, minlength=len(self.infosets))

    def rhs(self, t: float, x: np.ndarray) -> np.ndarray:
        return self.k * self.g(np.asarray(x)) * self.D(x)

    def integrate(self, x0, t_end: float, t_eval=None, rtol: float = 1e-8, atol: float = 1e-10):
        """``solve_ivp`` (DOP853) from ``x0`` over ``[0, t_end]``; a failed integration
        refused in one line (:func:`toypoker.dynamics.ode.integrated`)."""
        sol = solve_ivp(
            self.rhs,
            (0.0, t_end),
            np.asarray(x0, dtype=float),
            method="DOP853",
            t_eval=t_eval,
            rtol=rtol,
            atol=atol,
        )
        return integrated(sol, x0, t_end)
