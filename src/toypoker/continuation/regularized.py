"""The regularized equilibrium system (Billingham, N cards, eq. 2; see ``shared/papers/NOTES.md``).

For each free binary choice ``x_i = F(D_i / eps)`` with ``D_i = Q_i(aggressive)
- Q_i(passive)`` the counterfactual advantage of the aggressive action (own
reach excluded: the paper's "extra differentiation", so unreached infosets are
not pinned at ``F(0)``).  ``F`` has algebraic tails by default (eq. 4:
``1/2 + arctan(s)/pi``).  Infosets with more than two actions use the logit
response ``sigma = softmax(Q / eps)`` (agent quantal response), so a game such
as Leduc can be traced too; ``response="logistic"`` makes every infoset logit.

``Q`` and its exact Jacobian come from :class:`PayoffTensors`.  The parameter
``lam`` of the system is a numeric game parameter (``pot``, ``ante``, ``bet``:
the compiled game records that payoffs are affine in each, ``Game.at`` and
``Game.payoff_slope``; nothing is recompiled) or ``log eps``.

:meth:`RegularizedSystem.solve`, :meth:`~RegularizedSystem.polish` and
:meth:`~RegularizedSystem.certify` run with BLAS limited
(:func:`toypoker.threads.limit_blas`: the dense solves are small).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
from scipy.optimize import root

from toypoker.continuation.tensors import PayoffTensors
from toypoker.continuation.tracer import trace
from toypoker.engines.rows.values import infoset_reach, realization
from toypoker.errors import ToypokerError
from toypoker.evaluation import nash_conv
from toypoker.game import Game
from toypoker.games import GAMES
from toypoker.threads import blas_limited


# ------------------------------------------------------------------ responses
def _arctan(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return 0.5 + np.arctan(s) / np.pi, 1.0 / (np.pi * (1.0 + s * s))  # eq. (4)


def _algebraic(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = 1.0 + np.abs(s)
    return 0.5 + 0.5 * s / a, 0.5 / (a * a)


def _logistic(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    f = 0.5 * (1.0 + np.tanh(0.5 * s))
    return f, f * (1.0 - f)


RESPONSES: dict[str, Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]] = {
    "arctan": _arctan,
    "algebraic": _algebraic,
    "logistic": _logistic,
}


def F(s: np.ndarray) -> np.ndarray:
    """The default regularization ``F(s) = 1/2 + arctan(s)/pi`` (eq. 4)."""
    return _arctan(s)[0]


# ------------------------------------------------------------------ dominated actions
def dominated_actions(game: Game) -> dict[int, float]:
    """The game's dominated choices (its ``dominated`` hook in ``toypoker.games``):
    ``{sigma index: probability}``; Kuhn poker's are the paper's (Billingham, N
    cards, Sec. 2), other games have none."""
    info = GAMES.get(game.name)
    return info.dominated(game) if info is not None else {}


def exact_value(theta: float | Fraction) -> Fraction:
    """A parameter value of the continuation as an exact rational (floats: the nearest
    with denominator up to 10^12, as the traced values are)."""
    if isinstance(theta, Fraction):
        return theta
    return Fraction(float(theta)).limit_denominator(10**12)


class RegularizedSystem:
    """``G(x, lam) = x - F(D(x, theta) / eps)`` over the free choices of a game.

    Parameters
    ----------
    game : Game
        The compiled game, e.g. ``load_game("kuhn(players=3, cards=13)")`` (any value
        of ``parameter``: the system moves it with ``game.at``, never recompiles).
    parameter : str
        The continuation parameter: a numeric game parameter (``"pot"``, one of
        ``game.numeric_params``) or ``"eps"`` (then ``lam = log eps`` at the
        game's own parameters).
    eps : float
        The regularization (when ``parameter`` is not ``"eps"``).
    response : str
        ``"arctan"`` (default), ``"algebraic"`` or ``"logistic"`` for binary choices.
    dominated : bool
        Fix the dominated choices of :func:`dominated_actions`.
    """

    def __init__(
        self,
        game: Game,
        parameter: str = "pot",
        eps: float = 1e-4,
        response: str = "arctan",
        dominated: bool = True,
    ):
        if not isinstance(game, Game):
            raise ToypokerError("RegularizedSystem takes a compiled game: load_game(spec)")
        if response not in RESPONSES:
            raise ToypokerError(f"unknown response {response!r}; known: {', '.join(RESPONSES)}")
        if not eps > 0:
            raise ToypokerError(f"eps must be positive, got {eps}")
        if parameter != "eps" and parameter not in game.numeric_params:
            numeric = ", ".join(game.numeric_params) or "none"
            raise ToypokerError(
                f"{game.name} has no numeric parameter {parameter!r}; numeric: {numeric}"
            )
        self.source, self.parameter, self.eps, self.response = game, parameter, eps, response
        self.spec = game.spec
        self._F = RESPONSES[response]
        self._games: dict[Fraction, Game] = {}
        if parameter == "eps":
            self.model = PayoffTensors(game)
        else:  # W(theta) = W(1) + (theta - 1) dW: the exact slope, no second compile
            game = game.at(**{parameter: 1})
            self.model = PayoffTensors(game, theta_a=1.0, slope=game.payoff_slope(parameter))
        self.game = game
        self.pins = dominated_actions(game) if dominated else {}
        base = game.fixed_values.copy()
        for k, v in self.pins.items():
            base[k] = v
        self.base_sigma = base
        pinned = {game.sigma_infoset[k] for k in self.pins}
        self.free = [i for i in game.infosets if not i.restricted and i.index not in pinned]
        plus, minus = [], []
        self._multi: list[tuple[np.ndarray, int, int]] = []  # (unknown idx, offset, k)
        for inf in self.free:
            k = len(inf.actions)
            if k == 2:
                plus.append(inf.offset + 1)
                minus.append(inf.offset)
            else:
                first = len(plus)
                for a in range(k):
                    plus.append(inf.offset + a)
                    minus.append(-1)
                    self._multi.append((np.arange(first, first + k), inf.offset, k))
        by_k: dict[int, list] = {}
        for idx, off, k in self._multi:
            by_k.setdefault(k, []).append((idx, np.arange(off, off + k)))
        self._multi_groups = [
            (np.array([u for u, _ in v]), np.array([sg for _, sg in v])) for v in by_k.values()
        ]
        self.plus = np.array(plus, dtype=np.int64)
        self.minus = np.array(minus, dtype=np.int64)
        self.binary = np.nonzero(self.minus >= 0)[0]
        self.n = len(plus)
        labels = []
        for inf in self.free:
            if len(inf.actions) == 2:
                labels.append(inf.label)
            else:
                labels += [f"{inf.label}={a}" for a in inf.actions]
        self.labels = labels

    def infoset_reach(self, sigma: np.ndarray) -> np.ndarray:
        """Per sigma index: the owner's probability of reaching that infoset
        (:func:`toypoker.engines.rows.values.infoset_reach`)."""
        return infoset_reach(self.game, sigma)

    def realization(self, sigma: np.ndarray) -> np.ndarray:
        """The sequence form (:func:`toypoker.engines.rows.values.realization`): profiles that
        differ only where their owner never arrives are the same equilibrium."""
        return realization(self.game, sigma)

    # ------------------------------------------------------------------ layout
    def sigma(self, x: np.ndarray) -> np.ndarray:
        """The full behaviour vector for the unknowns ``x``."""
        s = self.base_sigma.copy()
        s[self.plus] = x
        b = self.binary
        s[self.minus[b]] = 1.0 - x[b]
        return s

    def normalize(self, x: np.ndarray) -> np.ndarray:
        """``x`` with every logit block scaled onto the simplex."""
        x = np.asarray(x, dtype=float).copy()
        for U, _ in self._multi_groups:
            x[U] = x[U] / x[U].sum(axis=1, keepdims=True)
        return x

    def unknowns(self, sigma: np.ndarray) -> np.ndarray:
        """The unknowns ``x`` of a full behaviour vector (inverse of :meth:`sigma`)."""
        return np.asarray(sigma, dtype=float)[self.plus].copy()

    def split(self, u: np.ndarray) -> tuple[np.ndarray, float | None, float]:
        """``u = (x, lam)`` as ``(x, theta or None, eps)``."""
        x, lam = u[:-1], float(u[-1])
        if self.parameter == "eps":
            return x, None, float(np.exp(lam))
        return x, lam, self.eps

    # ------------------------------------------------------------------ system
    def GJ(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Residual ``G`` and Jacobian ``[G_x | G_lam]`` at ``u = (x, lam)``."""
        with np.errstate(all="ignore"):  # wild Newton iterates are rejected by the tracer
            return self._GJ(u)

    def _GJ(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x, theta, eps = self.split(u)
        s = self.sigma(x)
        Q, Js, dQ = self.model.values_and_jacobian(s, theta)
        b = self.binary
        dQdx = Js[:, self.plus].copy()
        dQdx[:, b] -= Js[:, self.minus[b]]
        n = self.n
        g = np.empty(n)
        Jx = np.eye(n)
        Jl = np.zeros(n)
        # binary choices: x = F(D / eps), D = Q(aggressive) - Q(passive)
        agg, pas = self.plus[b], self.minus[b]
        D = Q[agg] - Q[pas]
        f, df = self._F(D / eps)
        g[b] = x[b] - f
        Jx[b] -= (df / eps)[:, None] * (dQdx[agg] - dQdx[pas])
        if self.parameter == "eps":
            Jl[b] = df * D / eps
        else:
            Jl[b] = -(df / eps) * (dQ[agg] - dQ[pas])
        # more actions: sigma = softmax(Q / eps) (agent logit response), by action count
        for U, Sg in self._multi_groups:
            Qb = Q[Sg]  # (m, k)
            z = Qb / eps
            p = np.exp(z - z.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            k = Sg.shape[1]
            S = (p[:, :, None] * np.eye(k) - p[:, :, None] * p[:, None, :]) / eps  # dp/dQ
            g[U] = x[U] - p
            Jx[U] -= np.einsum("mab,mbn->man", S, dQdx[Sg])
            if self.parameter == "eps":
                Jl[U] = np.einsum("mab,mb->ma", S, Qb)
            else:
                Jl[U] = -np.einsum("mab,mb->ma", S, dQ[Sg])
        return g, np.hstack([Jx, Jl[:, None]])

    @blas_limited
    def solve(self, x0: np.ndarray, lam: float) -> np.ndarray:
        """A point of the system at ``lam`` from any start (MINPACK hybrid: trust-region dogleg)."""

        def fun(x):
            return self.GJ(np.append(x, lam))[0]

        def jac(x):
            return self.GJ(np.append(x, lam))[1][:, :-1]

        sol = root(fun, np.asarray(x0, dtype=float), jac=jac, method="hybr")
        x = sol.x
        for _ in range(10):  # Newton refinement: the steep F limits MINPACK's accuracy
            r = fun(x)
            if np.abs(r).max() < 1e-12:
                break
            try:
                x = x - np.linalg.solve(jac(x), r)
            except np.linalg.LinAlgError:
                break
        if not np.all(np.isfinite(x)) or np.abs(fun(x)).max() > 1e-9:
            raise ToypokerError(f"no regularized solution found at {lam:g}: {sol.message}")
        return np.append(x, lam)

    def expectations(self, x: np.ndarray, theta: float | None) -> np.ndarray:
        """Each player's expected value at the unknowns ``x`` and parameter ``theta``."""
        return self.model.expectations(self.sigma(x), theta)

    # ------------------------------------------------------------------ certification
    def exact_game(self, theta: float | None) -> Game:
        """The unregularized game at ``theta`` (``game.at``: no recompilation; cached)."""
        if self.parameter == "eps" or theta is None:
            return self.game if self.parameter == "eps" else self.source
        key = exact_value(theta)
        if key not in self._games:
            self._games[key] = self.source.at(**{self.parameter: key})
        return self._games[key]

    @blas_limited
    def polish(
        self, sigma: np.ndarray, theta: float | None, tau: float, rounds: int = 12
    ) -> np.ndarray:
        """Round a regularized point to an equilibrium of the unregularized game.

        Supports start as the actions with probability above ``tau`` (Appendix A:
        at leading order the pure components are exact); then an active-set loop:
        the mixed probabilities are moved, by damped Gauss-Newton with
        minimum-norm steps, onto the indifference equations of their supports
        (``Q`` equal on the support, probabilities summing to one); an action
        whose probability went negative leaves its support, the action outside
        any support with the largest counterfactual regret joins it; until
        neither happens (at most ``rounds`` times).
        """
        s = np.asarray(sigma, dtype=float).copy()
        support = {}
        for inf in self.free:
            p = s[inf.offset : inf.offset + len(inf.actions)]
            sup = p > tau
            if not sup.any():
                sup[np.argmax(p)] = True
            support[inf.index] = sup
        best, best_gap = None, np.inf
        for _ in range(rounds):  # active-set rounds (degenerate supports may never settle)
            s = self._solve_supports(s, support, theta)
            g = self.gap(s, theta)
            if g < best_gap:
                best, best_gap = s.copy(), g
            if g < 1e-13:
                break
            changed = False
            for inf in self.free:  # negative probabilities leave the support
                sl = slice(inf.offset, inf.offset + len(inf.actions))
                neg = (s[sl] < -1e-12) & support[inf.index]
                if neg.any() and support[inf.index].sum() > 1:
                    support[inf.index] = support[inf.index] & ~neg
                    changed = True
            if not changed:  # the largest regret joins its support
                Q = self.model.values(np.clip(s, 0, 1), theta)
                worst, where = 1e-13, None
                for inf in self.free:
                    sl = slice(inf.offset, inf.offset + len(inf.actions))
                    q, sup = Q[sl], support[inf.index]
                    out = ~sup
                    if out.any():
                        r = q[out].max() - q[sup].max()
                        if r > worst:
                            worst, where = r, (inf.index, np.nonzero(out)[0][np.argmax(q[out])])
                if where is None:
                    break
                support[where[0]] = support[where[0]].copy()
                support[where[0]][where[1]] = True
        for inf in self.free:  # round-off: back onto the simplex
            sl = slice(inf.offset, inf.offset + len(inf.actions))
            p = np.clip(best[sl], 0.0, 1.0)
            best[sl] = p / p.sum()
        return best

    def _solve_supports(
        self, s: np.ndarray, support: dict[int, np.ndarray], theta: float | None
    ) -> np.ndarray:
        """Probabilities on the given supports with ``Q`` equal across each support."""
        s = s.copy()
        cols: list[int] = []
        for inf in self.free:
            sl = slice(inf.offset, inf.offset + len(inf.actions))
            sup = support[inf.index]
            p = np.where(sup, np.clip(s[sl], 0.0, 1.0), 0.0)
            s[sl] = p / p.sum() if p.sum() > 0 else sup / sup.sum()
            if sup.sum() >= 2:
                cols += [inf.offset + a for a in np.nonzero(sup)[0]]
        if not cols:
            return s
        cols_a = np.array(cols, dtype=np.int64)
        inf_of = self.game.sigma_infoset[cols_a]
        # rows: Q[a] - Q[first of its support] for the others, and sum - 1 per infoset
        first = {}
        for k, i in enumerate(inf_of):
            first.setdefault(int(i), k)
        lead = np.array([first[int(i)] for i in inf_of])
        others = np.nonzero(lead != np.arange(len(cols_a)))[0]
        groups = np.unique(inf_of, return_inverse=True)[1]
        S1 = np.zeros((groups.max() + 1, len(cols_a)))
        S1[groups, np.arange(len(cols_a))] = 1.0

        def residual(s: np.ndarray, jac: bool):
            if jac:
                Q, Js, _ = self.model.values_and_jacobian(s, theta)
            else:
                Q, Js = self.model.values(s, theta), None
            r = np.concatenate([Q[cols_a[others]] - Q[cols_a[lead[others]]], S1 @ s[cols_a] - 1])
            if not jac:
                return r, None
            Jr = np.vstack(
                [Js[np.ix_(cols_a[others], cols_a)] - Js[np.ix_(cols_a[lead[others]], cols_a)], S1]
            )
            return r, Jr

        r, Jr = residual(s, True)
        for _ in range(40):  # damped Gauss-Newton, minimum-norm steps
            rn = np.abs(r).max()
            if rn < 1e-14:
                break
            step = np.linalg.lstsq(Jr, -r, rcond=1e-9)[0]
            lam = 1.0
            while lam > 1e-3:
                trial = s.copy()
                trial[cols_a] += lam * step
                rt, _ = residual(trial, False)
                if np.abs(rt).max() < rn:
                    break
                lam /= 2
            else:
                break
            s = trial
            r, Jr = residual(s, True)
        return s

    def gap(self, sigma: np.ndarray, theta: float | None) -> float:
        """Sum over infosets of the counterfactual regret ``max_a Q_a - sigma . Q``.

        An upper bound on NashConv (counterfactual regret bounds the best-response
        gain, Zinkevich et al. 2007) from one pass of the model: 0 exactly at an
        equilibrium, and no compiled game at ``theta`` needed.
        """
        s = np.asarray(sigma, dtype=float)
        Q = self.model.values(s, theta)
        g = self.game
        v = np.bincount(g.sigma_infoset, weights=s * Q, minlength=g.n_infosets)
        pad = g.infoset_actions_padded
        Qp = np.where(pad >= 0, Q[pad.clip(0)], -np.inf)
        regret = np.maximum(Qp.max(axis=1) - v, 0.0)
        return float(regret[~g.infoset_restricted].sum())

    @blas_limited
    def certify(
        self, x: np.ndarray, theta: float | None, eps_floor: float = 1e-11
    ) -> tuple[np.ndarray, float, float]:
        """Best polished equilibrium near ``x``: ``(sigma, NashConv, raw NashConv)``.

        NashConv is computed by the core's best response on the unregularized
        game.  When polishing the point fails (degenerate supports), the point is
        first carried by continuation in ``eps`` at fixed ``theta`` down to
        ``eps_floor``, where its own NashConv is of order ``eps_floor``, and
        polished there.
        """
        game = self.exact_game(theta)
        raw = self.sigma(x)
        raw_nc = float(nash_conv(game, raw))
        best, best_nc = raw, raw_nc

        def consider(cands):
            nonlocal best, best_nc
            for c in cands:
                nc = float(nash_conv(game, c))
                if nc < best_nc:
                    best, best_nc = c, nc
                if best_nc < 1e-9:
                    return True
            return False

        if consider(self.polish(raw, theta, tau) for tau in (1e-2, 1e-3)):
            return best, best_nc, raw_nc
        if self.parameter != "eps" and self.eps > eps_floor:
            low = RegularizedSystem(game, "eps", response=self.response, dominated=bool(self.pins))
            br = trace(
                low.GJ,
                np.append(x, np.log(self.eps)),
                np.log(eps_floor),
                np.log(self.eps) + 1.0,
                direction=-1.0,
                ds=0.2,
                ds_max=1.0,
                max_steps=2000,
            )
            k = int(np.argmin(br.lam))  # as far down as the branch went (it may fold)
            if br.lam[k] < np.log(self.eps):
                xs = br.points[k][:-1]
                consider(
                    [low.sigma(xs)] + [low.polish(low.sigma(xs), None, t) for t in (1e-3, 1e-2)]
                )
        return best, best_nc, raw_nc
