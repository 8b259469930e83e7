"""The sequence forms a team game's column generation works in (:mod:`.tmecor`,
:mod:`.bounds`, :mod:`.saddle`).

:class:`Outsider` is the sequence form of one player, or of a team that sees its cards
(one player with perfect recall): its constraints ``F^T``, its exact best-response
value against a payoff vector, realization plans from behaviour strategies and back.
:class:`Columns` gives ``c_k``, the team's payoff per outsider sequence when it plays
the pure joint plan ``k``, in floats or exactly (integers over one denominator).
:func:`master_lp` is the column generation's master LP (HiGHS) and :func:`grid_row`
rounds probabilities to an exact grid.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from toypoker.engines.rows.values import edge_probabilities, reaches
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.games.team_transform import seat_digits
from toypoker.highs import interruptible
from toypoker.sequence_form import constraint_matrix, constraint_rows, seat_sequences
from toypoker.teams.response import last_sequences

__all__ = ["Columns", "Outsider", "grid_row", "master_lp"]


def grid_row(weights: np.ndarray, bits: int = 20) -> list[Fraction]:
    """Probabilities proportional to the nonnegative parts of ``weights`` (uniform when
    they sum to about 0), each an exact multiple of ``2**-bits``, summing to 1."""
    ws = np.clip(np.asarray(weights, dtype=np.float64), 0.0, None)
    tot = ws.sum()
    probs = ws / tot if tot > 1e-12 else np.full(len(ws), 1.0 / len(ws))
    units = np.round(probs * 2**bits).astype(np.int64)
    units[int(np.argmax(units))] += 2**bits - int(units.sum())
    return [Fraction(int(u), 2**bits) for u in units]


class Outsider:
    """The sequence form of one player, or of a team that sees its cards (one player with
    perfect recall whose sequences are its members' actions): sequence 0 is the empty
    one, then the seats' free actions."""

    def __init__(self, game: Game, seats: tuple[int, ...]):
        mine = np.isin(game.sigma_player, seats)
        if game.sigma_fixed[mine].any():
            raise ToypokerError(f"TMECor: seats {seat_digits(seats)} have restricted actions")
        self.game = game
        self.sigma = np.flatnonzero(mine)
        self.seq_of_sigma, self.n_seq = seat_sequences(game, seats)
        per_seat = last_sequences(game, seats)
        # the seats' last action on the way to each row: the deepest of the members'
        depth = np.array([game.nodes[i.node].depth for i in game.infosets])[game.sigma_infoset]
        deepest = np.where(per_seat >= 0, depth[per_seat.clip(0)], -1).argmax(axis=0)
        last = per_seat[deepest, np.arange(game.n_rows)]
        self.term_seq = np.where(last[game.term_rows] >= 0,
                                 self.seq_of_sigma[last[game.term_rows].clip(0)], 0)  # fmt: skip
        self.infosets = [i for i in game.infosets if i.player in seats]
        # deepest first: a sequence's value needs its child infosets'
        self.infosets.sort(key=lambda i: -game.nodes[i.node].depth)
        rep = last[game.infoset_rep_row]
        self.parent = {i.index: (int(self.seq_of_sigma[rep[i.index]]) if rep[i.index] >= 0 else 0)
                       for i in self.infosets}  # fmt: skip

    def constraints(self) -> sp.csr_array:
        """``F^T``, sparse ``(n_seq, 1 + n_infosets)`` (column 0: the root): the
        transpose of :func:`toypoker.sequence_form.constraint_rows`'s ``E``."""
        rows = constraint_rows(self.infosets, self.seq_of_sigma, self.parent, {})
        return sp.csr_array(constraint_matrix(rows, self.n_seq).T)

    def best_response_value(self, c: list[Fraction], best: Callable = min) -> Fraction:
        """``min_y c^T y`` (or ``best=max``) exactly: backward over the infosets."""
        val = list(c)
        for inf in self.infosets:
            seqs = [
                int(self.seq_of_sigma[s]) for s in range(inf.offset, inf.offset + len(inf.actions))
            ]
            val[self.parent[inf.index]] += best(val[s] for s in seqs)
        return val[0]

    def guarantee(self, columns: Sequence[np.ndarray], weights: Sequence[Fraction]) -> Fraction:
        """``min_y (sum_k w_k c_k)^T y`` exactly: what the mixture of plans with exact
        columns ``c_k`` and weights ``w_k`` guarantees against this player's best
        response (a TMECor bracket's lower end)."""
        total = np.array([Fraction(0)] * self.n_seq, dtype=object)
        for w, c in zip(weights, columns, strict=True):
            if w:
                total = total + w * c
        return self.best_response_value(list(total))

    def realization(self, behaviour: dict[int, list[Fraction]]) -> list[Fraction]:
        """The exact realization plan (per sequence) of a behaviour strategy."""
        y = [Fraction(0)] * self.n_seq
        y[0] = Fraction(1)
        for inf in reversed(self.infosets):  # shallowest first
            for k, q in enumerate(behaviour[inf.index]):
                y[int(self.seq_of_sigma[inf.offset + k])] = y[self.parent[inf.index]] * q
        return y

    def exact_behaviour(self, y: list[Fraction]) -> dict[int, list[Fraction]]:
        """Behaviour probabilities per infoset from an exact realization plan (uniform
        where the plan does not reach)."""
        out = {}
        for inf in self.infosets:
            k = len(inf.actions)
            top = y[self.parent[inf.index]]
            seqs = self.seq_of_sigma[inf.offset : inf.offset + k]
            out[inf.index] = [y[s] / top for s in seqs] if top > 0 else [Fraction(1, k)] * k
        return out

    def grid_behaviour(self, y: np.ndarray, bits: int = 20) -> dict[int, list[Fraction]]:
        """Behaviour probabilities per infoset from a float realization plan, each a
        multiple of ``2**-bits`` (small exact realization plans on big games)."""
        seqs = self.seq_of_sigma
        return {inf.index: grid_row(y[seqs[inf.offset : inf.offset + len(inf.actions)]], bits)
                for inf in self.infosets}  # fmt: skip

    def behaviour(self, y: np.ndarray, limit: int) -> dict[int, list[Fraction]]:
        """Exact behaviour probabilities per infoset from a float realization plan."""
        out = {}
        for inf in self.infosets:
            k = len(inf.actions)
            seqs = self.seq_of_sigma[inf.offset : inf.offset + k]
            ys = np.clip(y[seqs], 0.0, None)
            tot = ys.sum()
            probs = ys / tot if tot > 1e-12 else np.full(k, 1.0 / k)
            fr = [Fraction(float(x)).limit_denominator(limit) for x in probs]
            total = sum(fr, Fraction(0))
            out[inf.index] = [x / total for x in fr] if total > 0 else [Fraction(1, k)] * k
        return out


class Columns:
    """``c_k``, the team's payoff per outsider sequence when it plays the pure joint plan
    ``k``, in floats or exactly.  The exact ones are sums of integers: each terminal
    row's weight times the team's payoff, over one common denominator (computed once)."""

    def __init__(self, game: Game, out: Outsider, seats: tuple[int, ...]):
        self.game, self.out, self.seats = game, out, seats
        self._exact: tuple[np.ndarray, int] | None = None
        self._pairs: tuple[Outsider, np.ndarray, np.ndarray] | None = None

    def numerators(self) -> tuple[np.ndarray, int]:
        """Per terminal row, ``weight * team payoff`` as ``num / den``."""
        if self._exact is None:
            g = self.game
            # rows share their payoff objects (DealTable.payoffs, exact): scale each once
            u = [g.term_u_exact[p] for p in self.seats]
            distinct = [{id(v): v for v in row} for row in u]
            den = math.lcm(*(v.denominator for d in distinct for v in d.values()))
            n = np.zeros(len(g.term_rows), dtype=object)
            for row, d in zip(u, distinct, strict=True):
                scaled = {k: int(v * den) for k, v in d.items()}
                n += np.array([scaled[id(v)] for v in row], dtype=object)
            top = max(abs(int(n.max())), abs(int(n.min()))) * int(g.weight_num.max())
            # int64 while every column sum fits, Python integers beyond
            dtype = np.int64 if top * len(n) < 2**62 else object
            wn = g.weight_num.astype(dtype)[g.row_deal[g.term_rows]]
            self._exact = (wn * n.astype(dtype), den * int(g.weight_den))
        return self._exact

    def __call__(self, choice: np.ndarray, exact: bool = False) -> np.ndarray:
        """The column of plan ``choice``: floats, or Fractions (``exact``)."""
        g, seats, out = self.game, self.seats, self.out
        sigma = np.full(g.n_sigma, 1.0)
        sigma[np.isin(g.sigma_player, seats)] = choice[np.isin(g.sigma_player, seats)]
        reach = reaches(g, edge_probabilities(g, sigma))
        x = np.prod(reach[list(seats)][:, g.term_rows], axis=0)
        on = np.flatnonzero(x > 0.5)
        if exact:
            num, den = self.numerators()
            col = np.zeros(out.n_seq, dtype=num.dtype)
            np.add.at(col, out.term_seq[on], num[on])
            return np.array([Fraction(int(v), den) for v in col], dtype=object)
        deals = g.row_deal[g.term_rows[on]]
        u = g.term_u[list(seats)][:, on].sum(axis=0)
        return np.bincount(out.term_seq[on], weights=g.weights[deals] * u, minlength=out.n_seq)

    def best_value(self, behaviour: dict[int, list[Fraction]]) -> Fraction:
        """The exact best-response value against the outsider's ``behaviour`` of a team
        that sees its cards (one player with perfect recall): backward induction over
        the team's sequences, each worth its terminal rows' integer weights times the
        outsider's realization plan (in integers over one denominator)."""
        if self._pairs is None:
            team = Outsider(self.game, self.seats)
            num, _ = self.numerators()
            keys, inverse = np.unique(team.term_seq * self.out.n_seq + self.out.term_seq,
                                      return_inverse=True)  # fmt: skip
            agg = np.zeros(len(keys), dtype=num.dtype)
            np.add.at(agg, inverse.reshape(-1), num)
            self._pairs = (team, keys, agg.astype(object))
        team, keys, agg = self._pairs
        y = self.out.realization(behaviour)
        den_y = math.lcm(*(v.denominator for v in y))
        scaled = np.array([int(v * den_y) for v in y], dtype=object)
        c = np.zeros(team.n_seq, dtype=object)
        np.add.at(c, keys // self.out.n_seq, agg * scaled[keys % self.out.n_seq])
        return Fraction(team.best_response_value(list(c), max), self.numerators()[1] * den_y)

    def exact_coefficients(self, behaviour: dict[int, list[Fraction]]) -> tuple[np.ndarray, int]:
        """Per terminal row, the exact outside weight times the team's payoff against the
        outsider's ``behaviour``: integers (object array) over one denominator."""
        num, den = self.numerators()
        y = self.out.realization(behaviour)
        den_y = math.lcm(*(v.denominator for v in y))
        scaled = np.array([int(v * den_y) for v in y], dtype=object)
        return num.astype(object) * scaled[self.out.term_seq], den * den_y

    def value(self, choice: np.ndarray, behaviour: dict[int, list[Fraction]]) -> Fraction:
        """The team's exact summed value of plan ``choice`` against the outsider's
        ``behaviour``: its column times the outsider's realization plan."""
        y = self.out.realization(behaviour)
        return sum((c * v for c, v in zip(self(choice, exact=True), y, strict=True)), Fraction(0))


def master_lp(
    ft: sp.csr_array, cols: Sequence[np.ndarray]
) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The master LP over the columns ``cols`` (HiGHS): its value, the outsider's value
    multipliers ``z``, the mixture ``lambda`` and, as duals, the outsider's plan ``y``."""
    from scipy.optimize import linprog

    c = np.stack(cols, axis=1)  # (n_seq, K)
    nz, k = ft.shape[1], c.shape[1]
    obj = np.concatenate([-np.eye(1, nz, 0)[0], np.zeros(k)])
    a_ub = sp.hstack([ft, sp.csr_array(-c)]).tocsr()
    a_eq = np.concatenate([np.zeros(nz), np.ones(k)])[None, :]
    bounds = [(None, None)] * nz + [(0, None)] * k
    res = interruptible(linprog, obj, A_ub=a_ub, b_ub=np.zeros(c.shape[0]), A_eq=a_eq,
                        b_eq=[1.0], bounds=bounds, method="highs")  # fmt: skip
    if res.status != 0:
        raise ToypokerError(f"TMECor master LP failed: {res.message}")
    return float(-res.fun), res.x[:nz], res.x[nz:], -res.ineqlin.marginals
