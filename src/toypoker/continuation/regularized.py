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
payoffs are affine in each, which is checked) or ``log eps``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
from scipy.optimize import root

from ..errors import ToypokerError
from ..evaluate import nash_conv
from ..game import Game
from ..games import GAMES, load_game
from ..spec import format_spec, parse_spec
from .tensors import PayoffTensors


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
    """Dominated choices of Kuhn poker, fixed as in the paper (Sec. 2): ``{sigma index: prob}``.

    Facing a bet after ``m`` calls, a card among the ``m + 1`` lowest loses any
    showdown for sure (fold); the best card calls; the best card bets when all
    others have checked to the last opener.  For three players this is the
    paper's list (best card at nodes 3-12, worst at 4-12, second-worst at the
    overcall nodes 6, 9, 12): 22 choices.  Other games: none.
    """
    if game.name != "kuhn":
        return {}
    N, n = int(game.params["cards"]), game.n_players
    out: dict[int, float] = {}
    for inf in game.infosets:
        if inf.restricted:
            continue
        rank, h = inf.private[0], inf.history
        if inf.actions == ("f", "c"):
            m = h[h.index("b") + 1 :].count("c")
            if rank <= m + 1:
                x = 0.0
            elif rank == N:
                x = 1.0
            else:
                continue
        elif inf.actions == ("k", "b") and h == "k" * (n - 1) and rank == N:
            x = 1.0
        else:
            continue
        out[inf.offset], out[inf.offset + 1] = 1.0 - x, x
    return out


def game_at(spec: str, parameter: str, value: float | Fraction) -> Game:
    """``spec`` with one numeric parameter set (``pot`` replaces ``ante`` and vice versa)."""
    parsed = parse_spec(spec)
    info = GAMES.get(parsed.name)
    if info is None:
        raise ToypokerError(f"unknown game {parsed.name!r}")
    kinds = {p.name: p.kind for p in info.params}
    if kinds.get(parameter) != "number":
        numeric = [k for k, v in kinds.items() if v == "number"]
        raise ToypokerError(
            f"{parsed.name} has no numeric parameter {parameter!r}; numeric: {', '.join(numeric)}"
        )
    params = parsed.as_dict()
    if parameter in ("pot", "ante"):
        params.pop("ante" if parameter == "pot" else "pot", None)
    v = value if isinstance(value, Fraction) else Fraction(value).limit_denominator(10**12)
    params[parameter] = v
    return load_game(format_spec(parsed.name, params))


class RegularizedSystem:
    """``G(x, lam) = x - F(D(x, theta) / eps)`` over the free choices of a game.

    Parameters
    ----------
    spec : str
        The game, e.g. ``"kuhn(players=3, cards=13)"``.
    parameter : str
        The continuation parameter: a numeric game parameter (``"pot"``) or ``"eps"``
        (then ``lam = log eps`` at the spec's own parameters).
    eps : float
        The regularization (when ``parameter`` is not ``"eps"``).
    response : str
        ``"arctan"`` (default), ``"algebraic"`` or ``"logistic"`` for binary choices.
    dominated : bool
        Fix the dominated choices of :func:`dominated_actions`.
    """

    def __init__(
        self,
        spec: str,
        parameter: str = "pot",
        eps: float = 1e-4,
        response: str = "arctan",
        dominated: bool = True,
    ):
        if response not in RESPONSES:
            raise ToypokerError(f"unknown response {response!r}; known: {', '.join(RESPONSES)}")
        if not eps > 0:
            raise ToypokerError(f"eps must be positive, got {eps}")
        self.spec, self.parameter, self.eps, self.response = spec, parameter, eps, response
        self._F = RESPONSES[response]
        self._games: dict[float, Game] = {}
        if parameter == "eps":
            game = load_game(spec)
            self.model = PayoffTensors(game)
        else:
            game = game_at(spec, parameter, 1)
            game_b = game_at(spec, parameter, 2)
            self.model = PayoffTensors(game, game_b, 1.0, 2.0)
            check = PayoffTensors(game_at(spec, parameter, 3))
            if not np.allclose(self.model.payoff_tensor(3.0), check.W, atol=1e-12):
                raise ToypokerError(f"payoffs of {spec} are not affine in {parameter}")
        self.game = game
        self.pins = dominated_actions(game) if dominated else {}
        base = game.fixed_values.copy()
        for k, v in self.pins.items():
            base[k] = v
        self.base_sigma = base
        pinned = {game.sigma_infoset[k] for k in self.pins}
        self.free = [i for i in game.infosets if not i.restricted and i.index not in pinned]
        plus, minus, owner = [], [], []
        self._multi: list[tuple[np.ndarray, int, int]] = []  # (unknown idx, offset, k)
        for inf in self.free:
            k = len(inf.actions)
            if k == 2:
                plus.append(inf.offset + 1)
                minus.append(inf.offset)
                owner.append(inf.index)
            else:
                first = len(plus)
                for a in range(k):
                    plus.append(inf.offset + a)
                    minus.append(-1)
                    owner.append(inf.index)
                self._multi.append((np.arange(first, first + k), inf.offset, k))
        self.plus = np.array(plus, dtype=np.int64)
        self.minus = np.array(minus, dtype=np.int64)
        self.unknown_infoset = np.array(owner, dtype=np.int64)
        self.binary = np.nonzero(self.minus >= 0)[0]
        self.n = len(plus)
        labels = []
        for inf in self.free:
            if len(inf.actions) == 2:
                labels.append(inf.label)
            else:
                labels += [f"{inf.label}={a}" for a in inf.actions]
        self.labels = labels

    # ------------------------------------------------------------------ layout
    def sigma(self, x: np.ndarray) -> np.ndarray:
        """The full behaviour vector for the unknowns ``x``."""
        s = self.base_sigma.copy()
        s[self.plus] = x
        b = self.binary
        s[self.minus[b]] = 1.0 - x[b]
        return s

    def unknowns(self, sigma: np.ndarray) -> np.ndarray:
        return np.asarray(sigma, dtype=float)[self.plus].copy()

    def split(self, u: np.ndarray) -> tuple[np.ndarray, float | None, float]:
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
        # more actions: sigma = softmax(Q / eps) (agent logit response)
        for idx, off, k in self._multi:
            Qb = Q[off : off + k]
            z = Qb / eps
            p = np.exp(z - z.max())
            p /= p.sum()
            S = (np.diag(p) - np.outer(p, p)) / eps  # dp/dQ
            g[idx] = x[idx] - p
            Jx[idx] -= S @ dQdx[off : off + k]
            Jl[idx] = S @ Qb if self.parameter == "eps" else -(S @ dQ[off : off + k])
        return g, np.hstack([Jx, Jl[:, None]])

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
        return self.model.expectations(self.sigma(x), theta)

    # ------------------------------------------------------------------ certification
    def exact_game(self, theta: float | None) -> Game:
        """The unregularized game at ``theta`` (cached)."""
        if self.parameter == "eps" or theta is None:
            return self.game if self.parameter == "eps" else load_game(self.spec)
        key = float(theta)
        if key not in self._games:
            self._games[key] = game_at(self.spec, self.parameter, key)
        return self._games[key]

    def polish(self, sigma: np.ndarray, theta: float | None, tau: float) -> np.ndarray:
        """Round a regularized point to an equilibrium of the unregularized game.

        Probabilities below ``tau`` become 0 (Appendix A: at leading order the
        pure components are exact), the mixed ones are moved, by Gauss-Newton
        with minimum-norm steps, onto the indifference equations of their
        supports (``Q`` equal on the support, probabilities summing to one).
        """
        s = np.asarray(sigma, dtype=float).copy()
        cols: list[int] = []
        for inf in self.free:
            sl = slice(inf.offset, inf.offset + len(inf.actions))
            p = s[sl].copy()
            sup = p > tau
            if not sup.any():
                sup[np.argmax(p)] = True
            p[~sup] = 0.0
            s[sl] = p / p.sum()
            if sup.sum() >= 2:
                cols += [inf.offset + a for a in np.nonzero(sup)[0]]
        if not cols:
            return s
        cols_a = np.array(cols, dtype=np.int64)
        inf_of = self.game.sigma_infoset[cols_a]
        for _ in range(30):
            Q, Js, _ = self.model.values_and_jacobian(s, theta)
            rows_r, rows_J = [], []
            for i in np.unique(inf_of):
                c = cols_a[inf_of == i]
                for a in c[1:]:
                    rows_r.append(Q[a] - Q[c[0]])
                    rows_J.append(Js[a, cols_a] - Js[c[0], cols_a])
                rows_r.append(s[c].sum() - 1.0)
                rows_J.append((inf_of == i).astype(float))
            r = np.array(rows_r)
            if np.abs(r).max() < 1e-14:
                break
            step = np.linalg.lstsq(np.array(rows_J), -r, rcond=None)[0]
            s[cols_a] += step
        for inf in self.free:
            sl = slice(inf.offset, inf.offset + len(inf.actions))
            p = np.clip(s[sl], 0.0, 1.0)
            s[sl] = p / p.sum()
        return s

    def certify(self, x: np.ndarray, theta: float | None) -> tuple[np.ndarray, float, float]:
        """Best polished equilibrium near ``x``: ``(sigma, NashConv, raw NashConv)``.

        NashConv is computed by the core's best response on the unregularized game.
        """
        game = self.exact_game(theta)
        raw = self.sigma(x)
        raw_nc = float(nash_conv(game, raw))
        best, best_nc = raw, raw_nc
        for tau in (1e-2, 1e-3, 5e-2, 1e-4):
            s = self.polish(raw, theta, tau)
            nc = float(nash_conv(game, s))
            if nc < best_nc:
                best, best_nc = s, nc
            if best_nc < 1e-9:
                break
        return best, best_nc, raw_nc
