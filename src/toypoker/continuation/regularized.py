"""The regularized equilibrium system ``x_i = F(D_i / eps)`` (Billingham, N cards; see
``shared/papers/NOTES.md``) for games of the core with binary free choices.

``D_i`` is the counterfactual advantage of the aggressive action at infoset
``i`` (the owner's own reach excluded, so unreached infosets are not pinned at
``F(0)``).  Expected values are multilinear, hence ``D_i`` is affine in each
``x_j`` separately and ``dD_i/dx_j = D_i(x_j = 1) - D_i(x_j = 0)`` exactly (no
finite differences).  Payoffs are affine in the pot ``P``, so ``D`` at any
``P`` comes from two compiled games.  ``F(s) = 1/2 + arctan(s)/pi`` has the
algebraic tails the paper needs.

Status: groundwork for issue 5 (the system, its exact Jacobian, continuation
in ``P`` or ``eps`` for small games).  The per-terminal tensor Jacobian for
large ``N``, the outputs and the benchmarks are not built yet.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
from scipy.optimize import root

from ..errors import ToypokerError
from ..evaluate import backward_values, edge_probabilities, reaches
from ..game import Game
from .tracer import Branch, trace


def F(s: np.ndarray) -> np.ndarray:
    return 0.5 + np.arctan(s) / np.pi


def dF(s: np.ndarray) -> np.ndarray:
    return 1.0 / (np.pi * (1.0 + s * s))


class Advantage:
    """Counterfactual advantages of the aggressive action at a game's free infosets."""

    def __init__(self, game: Game):
        self.game = game
        self.infosets = [i for i in game.infosets if not i.restricted]
        if any(len(i.actions) != 2 for i in self.infosets):
            raise ToypokerError("the regularized system needs binary free choices")
        self.labels = [i.label for i in self.infosets]
        idx = np.full(game.n_infosets, -1)
        idx[[i.index for i in self.infosets]] = np.arange(len(self.infosets))
        child = np.nonzero(game.edge_sigma >= 0)[0]
        sig = game.edge_sigma[child]
        inf = game.sigma_infoset[sig]
        keep = idx[inf] >= 0
        self._child = child[keep]
        self._parent = game.parent_row[self._child]
        act = sig[keep] - game.infoset_offset[inf[keep]]
        self._sign = np.where(act == 1, 1.0, -1.0)
        self._owner = game.infoset_player[inf[keep]]
        self._var = idx[inf[keep]]
        self._offsets = np.array([i.offset for i in self.infosets])

    def __call__(self, x: np.ndarray) -> np.ndarray:
        g = self.game
        s = g.fixed_values.copy()
        s[self._offsets] = 1.0 - x
        s[self._offsets + 1] = x
        eprob = edge_probabilities(g, s)
        reach = reaches(g, eprob)
        w = g.weights[g.row_deal]
        vals = backward_values(g, eprob)
        cf = np.empty(len(self._child))
        for p in range(g.n_players):
            others = w.copy()
            for q in range(g.n_players):
                if q != p:
                    others = others * reach[q]
            m = self._owner == p
            cf[m] = others[self._parent[m]]
        contrib = self._sign * cf * vals[self._owner, self._child]
        return np.bincount(self._var, weights=contrib, minlength=len(self.infosets))

    def jacobian(self, x: np.ndarray) -> np.ndarray:
        """``dD_i/dx_j``, exact: ``D`` is affine in each ``x_j``."""
        n = len(x)
        Jm = np.empty((n, n))
        for j in range(n):
            hi, lo = x.copy(), x.copy()
            hi[j], lo[j] = 1.0, 0.0
            Jm[:, j] = self(hi) - self(lo)
        return Jm


class RegularizedSystem:
    """``G(x, lam) = x - F(D(x, P) / eps)`` with ``lam`` the pot or ``log eps``."""

    def __init__(
        self,
        make_game: Callable[[Fraction], Game],
        parameter: str = "pot",
        pot: float = 9.0,
        eps: float = 1e-3,
    ):
        if parameter not in ("pot", "log_eps"):
            raise ToypokerError("parameter must be 'pot' or 'log_eps'")
        self.parameter = parameter
        self.pot, self.eps = pot, eps
        self.a1 = Advantage(make_game(Fraction(1)))
        self.a2 = Advantage(make_game(Fraction(2)))
        self.labels = self.a1.labels

    def _D(self, x: np.ndarray, P: float) -> tuple[np.ndarray, np.ndarray]:
        d1, d2 = self.a1(x), self.a2(x)
        return d1 + (P - 1.0) * (d2 - d1), d2 - d1  # D(P) and dD/dP (payoffs affine in P)

    def split(self, u: np.ndarray) -> tuple[np.ndarray, float, float]:
        x, lam = u[:-1], u[-1]
        if self.parameter == "pot":
            return x, lam, self.eps
        return x, self.pot, float(np.exp(lam))

    def G(self, u: np.ndarray) -> np.ndarray:
        x, P, eps = self.split(u)
        D, _ = self._D(x, P)
        return x - F(D / eps)

    def J(self, u: np.ndarray) -> np.ndarray:
        x, P, eps = self.split(u)
        D, dDdP = self._D(x, P)
        Jx1, Jx2 = self.a1.jacobian(x), self.a2.jacobian(x)
        Jx = Jx1 + (P - 1.0) * (Jx2 - Jx1)
        f = dF(D / eps)
        Gx = np.eye(len(x)) - (f / eps)[:, None] * Jx
        if self.parameter == "pot":
            Gl = -(f / eps) * dDdP
        else:  # d/d(log eps) of -F(D/eps) = F'(D/eps) * D / eps
            Gl = f * D / eps
        return np.hstack([Gx, Gl[:, None]])

    def solve(self, x0: np.ndarray, lam: float) -> np.ndarray:
        """A point on the curve at parameter ``lam`` (trust-region-like hybrid solve)."""

        def fun(x):
            return self.G(np.append(x, lam))

        def jac(x):
            return self.J(np.append(x, lam))[:, :-1]

        sol = root(fun, x0, jac=jac, method="hybr")
        if not sol.success or np.abs(fun(sol.x)).max() > 1e-7:
            raise ToypokerError(f"no regularized solution found at {lam}: {sol.message}")
        return np.append(sol.x, lam)

    def trace(self, u0: np.ndarray, lam_end: float, **kw) -> Branch:
        return trace(self.G, self.J, u0, lam_end, **kw)
