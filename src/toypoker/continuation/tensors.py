"""Expected values as contractions of per-terminal payoff tensors with reach vectors.

Every player's expected value is multilinear in the behaviour strategy.  At a
public terminal node ``z`` the deal enters only through each player's private
observation ``o_p``, so

    E_p = sum_z  sum_{o_1..o_n}  W_{z,p}[o_1, ..., o_n]  prod_q r_{z,q}[o_q]

with ``W_{z,p}`` the chance weight times ``p``'s payoff (deals that share the
observations are summed) and ``r_{z,q}[o]`` the product of ``q``'s action
probabilities along the path to ``z`` holding ``o``.  The counterfactual value
``Q[e]`` of an action edge ``e`` (own reach up to and including ``e``
excluded) and its derivatives ``dQ[e]/dsigma[f]`` are then contractions of the
same tensors with all but one or two of the reach vectors: no symbolic
algebra, no finite differences, and one pass over ``sum_z prod_p O_p``
numbers (140,400 per terminal for three players and 52 cards).

Payoffs affine in a game parameter ``theta`` (the pot, the ante, the bet):
``W(theta) = W_a + (theta - theta_a) * dW``, with ``dW`` from the compiled
game's exact payoff slope (:meth:`toypoker.game.Game.payoff_slope`) -- or, as
before, from a second game at ``theta_b``.
"""

from __future__ import annotations

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.game import Game

_LETTERS = "abcdefghijklmnopqrs"


def _gather_prod(vals_ext: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Products of rows of ``vals_ext`` over the index lists ``idx`` (padded with the ones row)."""
    if idx.shape[-1] == 0:
        return np.ones((*idx.shape[:-1], vals_ext.shape[1]))
    return vals_ext[idx].prod(axis=-2)


def _pad(lists: list[list[int]], pad: int) -> np.ndarray:
    width = max((len(x) for x in lists), default=0)
    out = np.full((len(lists), width), pad, dtype=np.int64)
    for i, x in enumerate(lists):
        out[i, : len(x)] = x
    return out


def _path_positions(game: Game, terminal: int, n_obs: int) -> list[tuple[int, np.ndarray]]:
    """``(player, sigma index by observation)`` of each decision on the path to the node
    ``terminal``, nearest first (observations that never reach it: ``game.n_sigma``)."""
    dummy = game.n_sigma
    path = []
    child, node = terminal, game.nodes[terminal].parent
    while node >= 0:
        par = game.nodes[node]
        if par.kind == "decision":
            p = par.actor
            act = par.children.index(child)
            ra, rb = game.node_row_start[node], game.node_row_start[node + 1]
            sig = np.full(n_obs, dummy, dtype=np.int64)
            sig[game.obs[p, game.node_deals[node]]] = (
                game.infoset_offset[game.row_infoset[ra:rb]] + act
            )
            path.append((p, sig))
        child, node = node, par.parent
    return path


class PayoffTensors:
    """The multilinear model of a compiled game (optionally affine in a parameter).

    Every quantity is a few batched contractions over all terminals at once:
    the decision positions on the paths to the terminals are "records" (terminal,
    player, the sigma index for each of the player's observations), and the
    products of action probabilities a derivative needs are gathered by
    precomputed index lists.

    Parameters
    ----------
    game : Game
        The game at ``theta_a`` (its tree, infosets and restrictions are used).
    game_b : Game, optional
        The same game at ``theta_b``: payoffs are taken affine in ``theta``.
    theta_a, theta_b : float
        The parameter values of ``game`` and ``game_b``.
    slope : ndarray, optional
        ``d term_u / d theta`` (``game.payoff_slope(name)``), instead of ``game_b``.
    """

    def __init__(
        self,
        game: Game,
        game_b: Game | None = None,
        theta_a: float = 0.0,
        theta_b: float = 1.0,
        *,
        slope: np.ndarray | None = None,
    ):
        self.game = game
        self.theta_a = float(theta_a)
        n = self.n_players = game.n_players
        O = self.n_obs = max(len(game.obs_private[p]) for p in range(n))
        T = game.n_terminals
        if T * n * O**n > 3e8:
            raise ToypokerError(
                f"payoff tensors too large ({T} terminals x {n} players x {O}^{n} "
                "observation tuples): reduce the cards or players"
            )
        if game_b is not None and (game_b.n_rows != game.n_rows or game_b.n_sigma != game.n_sigma):
            raise ToypokerError("the two compilations differ in structure, not only in payoffs")
        self.n_sigma = game.n_sigma
        self._payoffs(game, game_b, theta_a, theta_b, slope)
        rec_t, rec_p, paths = self._records(game)
        self._gathers(rec_t, rec_p, paths)
        self._subscripts()

    def _payoffs(
        self,
        game: Game,
        game_b: Game | None,
        theta_a: float,
        theta_b: float,
        slope: np.ndarray | None,
    ) -> None:
        """Set the payoff tensors ``W`` and their slope ``dW`` in the parameter, if any."""
        n, O = self.n_players, self.n_obs
        flat = np.zeros(game.n_deals, dtype=np.int64)
        for p in range(n):
            flat = flat * O + game.obs[p]
        self.W = self._tensors(game, game.term_u, flat)
        self.dW = None
        if slope is not None:
            self.dW = self._tensors(game, np.asarray(slope, dtype=float), flat)
        elif game_b is not None:
            self.dW = (self._tensors(game_b, game_b.term_u, flat) - self.W) / (
                float(theta_b) - float(theta_a)
            )
        self.affine = self.dW is not None

    def _records(self, game: Game) -> tuple[list[int], list[int], list[list[int]]]:
        """Set the records, the decision positions on every terminal's path; return their
        terminals, players and each terminal's record ids (root first)."""
        O = self.n_obs
        rec_t, rec_p, rec_sig = [], [], []
        paths: list[list[int]] = []
        for t, nd in enumerate(game._term_nodes):
            ids = []
            for p, sig in reversed(_path_positions(game, nd.id, O)):
                ids.append(len(rec_t))
                rec_t.append(t)
                rec_p.append(p)
                rec_sig.append(sig)
            paths.append(ids)
        K = len(rec_t)
        self.rec_t = np.array(rec_t, dtype=np.int64)
        self.rec_p = np.array(rec_p, dtype=np.int64)
        self.rec_sig = np.array(rec_sig, dtype=np.int64).reshape(K, O)
        return rec_t, rec_p, paths

    def _gathers(self, rec_t: list[int], rec_p: list[int], paths: list[list[int]]) -> None:
        """Set the index lists that gather the products of action probabilities the
        values and their derivatives need."""
        n, T, K = self.n_players, self.game.n_terminals, len(rec_t)
        same = {(t, p): [k for k in paths[t] if rec_p[k] == p] for t in range(T) for p in range(n)}
        later = [[m for m in same[rec_t[k], rec_p[k]] if m > k] for k in range(K)]
        self._suffix_idx = _pad(later, K)
        self._reach_idx = _pad([same[t, p] for t in range(T) for p in range(n)], K)
        self._without_idx = _pad(
            [[m for m in same[rec_t[k], rec_p[k]] if m != k] for k in range(K)], K
        )
        ko, lo, ks, ls, sw = [], [], [], [], []
        for t in range(T):
            for k in paths[t]:
                for ll in paths[t]:
                    if rec_p[ll] != rec_p[k]:
                        ko.append(k)
                        lo.append(ll)
                    elif ll > k:
                        ks.append(k)
                        ls.append(ll)
                        sw.append([m for m in later[k] if m != ll])
        self._ko, self._lo = np.array(ko, dtype=np.int64), np.array(lo, dtype=np.int64)
        self._ks, self._ls = np.array(ks, dtype=np.int64), np.array(ls, dtype=np.int64)
        self._sw_idx = _pad(sw, K)
        m = self.n_sigma + 1
        self._flat_o = (
            self.rec_sig[self._ko][:, :, None] * m + self.rec_sig[self._lo][:, None, :]
        ).ravel()
        self._flat_s = (self.rec_sig[self._ks] * m + self.rec_sig[self._ls]).ravel()

    def _subscripts(self) -> None:
        """Set the einsum subscripts that contract ``W[p]`` with every reach but those kept."""
        n = self.n_players
        self._sub: dict[tuple[int, ...], str] = {}
        for keep in (
            [()] + [(p,) for p in range(n)] + [(p, q) for p in range(n) for q in range(n) if p != q]
        ):
            axes = _LETTERS[:n]
            ins = ["t" + axes] + [f"t{axes[q]}" for q in range(n) if q not in keep]
            self._sub[keep] = ",".join(ins) + "->t" + "".join(axes[q] for q in keep)

    def _tensors(self, g: Game, term_u: np.ndarray, flat: np.ndarray) -> np.ndarray:
        """(n, T, O, ..., O): chance weight times payoff (``term_u``, shaped like the
        game's), by observations, per terminal (player-major, so each player's block
        is contiguous for the contractions)."""
        n, O = self.n_players, self.n_obs
        size = O**n
        W = np.zeros((g.n_terminals, n, size))
        start = 0
        for t, nd in enumerate(g._term_nodes):
            a, b = g.node_row_start[nd.id], g.node_row_start[nd.id + 1]
            deals = g.node_deals[nd.id]
            w = g.weights[deals]
            for p in range(n):
                u = term_u[p, start : start + b - a]
                W[t, p] = np.bincount(flat[deals], weights=w * u, minlength=size)
            start += b - a
        W = W.reshape((g.n_terminals, n) + (O,) * n)
        return np.ascontiguousarray(np.swapaxes(W, 0, 1))

    # ------------------------------------------------------------------ pieces
    def payoff_tensor(self, theta: float | None = None, slope: bool = False) -> np.ndarray:
        """``W(theta)`` (or its slope ``dW``): shape ``(players, terminals, O, ..., O)``."""
        if slope:
            if self.dW is None:
                raise ToypokerError("no parameter: the model was built from one game")
            return self.dW
        if theta is None or self.dW is None:
            return self.W
        return self.W + (theta - self.theta_a) * self.dW

    def _vals(self, sigma: np.ndarray) -> np.ndarray:
        s = np.append(np.asarray(sigma, dtype=float), 1.0)
        return np.vstack([s[self.rec_sig], np.ones((1, self.n_obs))])  # (K+1, O)

    def _reach(self, vals: np.ndarray) -> np.ndarray:
        T = self.W.shape[1]
        return _gather_prod(vals, self._reach_idx).reshape(T, self.n_players, self.n_obs)

    def _contract(self, W: np.ndarray, r: np.ndarray, keep: tuple[int, ...], p: int) -> np.ndarray:
        """Player ``p``'s payoff tensor contracted with the reach vectors of every
        player not in ``keep`` (those stay as free observation axes)."""
        ops = [W[p]] + [r[:, q] for q in range(self.n_players) if q not in keep]
        return np.einsum(self._sub[keep], *ops, optimize=True)

    # ------------------------------------------------------------------ values
    def expectations(self, sigma: np.ndarray, theta: float | None = None) -> np.ndarray:
        """Each player's expected value."""
        W = self.payoff_tensor(theta)
        r = self._reach(self._vals(sigma))
        return np.array([self._contract(W, r, (), p).sum() for p in range(self.n_players)])

    def values(
        self, sigma: np.ndarray, theta: float | None = None, slope: bool = False
    ) -> np.ndarray:
        """Counterfactual action values ``Q`` (length ``n_sigma``)."""
        vals = self._vals(sigma)
        r = self._reach(vals)
        W = self.payoff_tensor(theta, slope)
        C = np.stack([self._contract(W, r, (p,), p) for p in range(self.n_players)], axis=1)
        return self._action_values(vals, C)

    def _action_values(self, vals: np.ndarray, C: np.ndarray) -> np.ndarray:
        """Counterfactual values per action from the contracted payoffs ``C`` (terminal,
        player, observation) and the actions' suffix reach products."""
        suffix = _gather_prod(vals, self._suffix_idx)
        w = suffix * C[self.rec_t, self.rec_p]
        return np.bincount(self.rec_sig.ravel(), weights=w.ravel(), minlength=self.n_sigma + 1)[:-1]

    def values_and_jacobian(
        self, sigma: np.ndarray, theta: float | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """``Q``, ``dQ/dsigma`` (``n_sigma x n_sigma``) and ``dQ/dtheta`` (or None)."""
        n, O = self.n_players, self.n_obs
        vals = self._vals(sigma)
        r = self._reach(vals)
        W = self.payoff_tensor(theta)
        T = W.shape[1]
        M = np.zeros((T, n, n, O, O))
        for p in range(n):
            for q in range(n):
                if p != q:
                    m_ = self._contract(W, r, tuple(sorted((p, q))), p)
                    M[:, p, q] = m_ if p < q else m_.transpose(0, 2, 1)
        q0 = (np.arange(n) + 1) % n
        C = np.einsum("tpab,tpb->tpa", M[:, np.arange(n), q0], r[:, q0])
        Q = self._action_values(vals, C)
        suffix = _gather_prod(vals, self._suffix_idx)
        without = _gather_prod(vals, self._without_idx)
        m = self.n_sigma + 1
        ko, lo = self._ko, self._lo
        blocks = (
            suffix[ko][:, :, None]
            * without[lo][:, None, :]
            * M[self.rec_t[ko], self.rec_p[ko], self.rec_p[lo]]
        )
        J = np.bincount(self._flat_o, weights=blocks.ravel(), minlength=m * m)
        if len(self._ks):
            diag = _gather_prod(vals, self._sw_idx) * C[self.rec_t[self._ks], self.rec_p[self._ks]]
            J += np.bincount(self._flat_s, weights=diag.ravel(), minlength=m * m)
        J = J.reshape(m, m)[:-1, :-1]
        dQ = self.values(sigma, theta, slope=True) if self.affine else None
        return Q, J, dQ
