"""The CFR iteration on the vector layout as one compiled call (numba).

:class:`VectorKernel` flattens a :class:`~toypoker.vector.layout.VectorGame` once
(its :class:`~toypoker.vector.values.Plan`: terminals, the card-subset incidence
and, per showdown board, the strength-sorted sweep positions) into contiguous
arrays; :meth:`VectorKernel.iteration` then runs one whole iteration of the CFR
family's schedule in one call, in place, as :func:`toypoker.kernels.cfr` does for
the row layout:

1. forward reach of every player at every (node, hand) (:func:`_reach`);
2. the player's terminal values (:func:`toypoker.vector.terminals.terminals`: fold
   terminals by inclusion-exclusion over cards, showdowns by the strength-sorted
   sweep, three players on rank pairs by a dense sum over rank hands; see there);
3. the backward pass and the instantaneous regrets per flat action
   (:func:`_backward_regrets`);
4. the average-strategy accumulation with the player's own reach at the infoset;
5. the regret update and regret matching of the row kernel
   (:func:`toypoker.kernels.cfr.update_regrets_and_match`), with its tolerance: a
   regret at most :func:`toypoker.kernels.cfr.regret_tolerance` counts as zero in
   both layouts, so ties that rounding breaks differently in the two stay ties.

:meth:`VectorKernel.evaluate` runs steps 1-2 with the plain backward pass and a
best-response pass (:func:`_best_response`) for every player in one call: values and
best-response values, what NashConv needs (``VectorSolver``'s checks).

The numpy code of :mod:`toypoker.vector.values` stays the readable reference;
``tests/vector/test_kernel.py`` and ``tests/vector/test_rank_pairs.py`` show the
iterates agree to 1e-12.  Games the kernel does not cover (three players with two or
more physical cards a hand, four or more players) have no kernel
(:func:`vector_kernel` returns ``None``) and run on the reference.
The kernels are serial (``nogil``), like the row layout's: numba's thread count
(:mod:`toypoker.threads`) does not change them.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from numba import njit

from ..kernels.cfr import payoff_scale, update_regrets_and_match
from .layout import VectorGame
from .terminals import dense_arrays, pair_plan, sweep_arrays, terminals
from .values import plan_for


@njit(cache=True, nogil=True)
def _reach(sigma, parent, edge_player, edge_sigma, chance_child, node_board, compat, reach):
    """``reach[p, t, h]``: ``p``'s own probability of reaching ``t`` holding ``h``
    (zero where ``h`` meets ``t``'s board), every player."""
    for p in range(reach.shape[0]):
        _reach_of(p, sigma, parent, edge_player, edge_sigma, chance_child, node_board, compat,
                  reach[p])  # fmt: skip


@njit(cache=True, nogil=True)
def _reach_of(player, sigma, parent, edge_player, edge_sigma, chance_child, node_board, compat,
              reach):  # fmt: skip
    """``reach[t, h]`` of one player (see :func:`_reach`)."""
    nn, hh = reach.shape
    for h in range(hh):
        reach[0, h] = 1.0
    for t in range(1, nn):
        q = parent[t]
        if edge_player[t] == player:
            for h in range(hh):
                e = edge_sigma[t, h]
                reach[t, h] = reach[q, h] * sigma[e] if e >= 0 else 0.0
        elif chance_child[t]:
            b = node_board[t]
            for h in range(hh):
                reach[t, h] = reach[q, h] if compat[b, h] > 0.0 else 0.0
        else:
            for h in range(hh):
                reach[t, h] = reach[q, h]


@njit(cache=True, nogil=True)
def _backward_regrets(player, sigma, edge_player, edge_sigma, child_lo, child_hi, cfv, inst):
    """Values up the tree in place, deepest first: a node's ``cfv`` is the sum over its
    children (the player's edges weighted by ``sigma``), terminals keep theirs; each of
    her edges credits ``cfv[child] - cfv[node]`` to its flat action at once."""
    nn, hh = cfv.shape
    for s in range(inst.shape[0]):
        inst[s] = 0.0
    for q in range(nn - 1, -1, -1):
        lo = child_lo[q]
        hi = child_hi[q]
        if lo == hi:
            continue  # a terminal: its values are set
        own = edge_player[lo] == player
        for h in range(hh):
            cfv[q, h] = 0.0
        for c in range(lo, hi):
            if own:
                for h in range(hh):
                    e = edge_sigma[c, h]
                    if e >= 0:
                        cfv[q, h] += sigma[e] * cfv[c, h]
            else:
                for h in range(hh):
                    cfv[q, h] += cfv[c, h]
        if own:
            for c in range(lo, hi):
                for h in range(hh):
                    e = edge_sigma[c, h]
                    if e >= 0:
                        inst[e] += cfv[c, h] - cfv[q, h]
    return _root_value(cfv)


@njit(cache=True, nogil=True)
def _root_value(cfv):
    """The root's values summed over hands: the player's expected payoff."""
    value = 0.0
    for h in range(cfv.shape[1]):
        value += cfv[0, h]
    return value


@njit(cache=True, nogil=True)
def _player_values(
    player, sigma, reach, parent, edge_player, edge_sigma, term_node, term_slot, term_board,
    term_live, term_committed, term_weight, compat, sub_id, sub_sign, n_sub, sw_hand, sw_level,
    sw_start, sw_lo, sw_hi, hand_pair, dense_w, dense_s, term_dense, child_lo, child_hi, cfv,
    inst, m, cs, mass, b1, e1, b2, e2, b3,
    e3, tmp,
):  # fmt: skip
    """Steps 2-3 for ``player``: terminal values, backward pass, instantaneous regrets."""
    terminals(
        player, reach, term_node, term_slot, term_board, term_live, term_committed, term_weight,
        compat, sub_id, sub_sign, n_sub, sw_hand, sw_level, sw_start, sw_lo, sw_hi, hand_pair,
        dense_w, dense_s, term_dense, cfv, m, cs, mass, b1, e1, b2, e2, b3, e3, tmp,
    )  # fmt: skip
    return _backward_regrets(player, sigma, edge_player, edge_sigma, child_lo, child_hi, cfv, inst)


@njit(cache=True, nogil=True)
def _accumulate(player, sigma, average, weight, reach, rep_node, rep_hand, sigma_infoset,
                sigma_player, sigma_free):  # fmt: skip
    """``average[s] += weight * own reach at s's infoset * sigma[s]`` on ``player``'s free
    flat actions."""
    for s in range(sigma.shape[0]):
        if sigma_player[s] != player or not sigma_free[s]:
            continue
        i = sigma_infoset[s]
        average[s] += weight * reach[player, rep_node[i], rep_hand[i]] * sigma[s]


@njit(cache=True, nogil=True)
def _iteration(
    alternating, sigma, regrets, average, weight, pos_discount, neg_discount, floor,
    predictive, predict_discount, predict_neg_discount, tol, parent, edge_player, edge_sigma,
    chance_child, node_board, term_node, term_slot, term_board, term_live, term_committed,
    term_weight, compat, sub_id, sub_sign, n_sub, sw_hand, sw_level, sw_start, sw_lo, sw_hi,
    hand_pair, dense_w, dense_s, term_dense,
    rep_node, rep_hand, sigma_infoset, sigma_player, sigma_free, infoset_player, infoset_free,
    infoset_offset, child_lo, child_hi, reach, cfv, inst, m, cs, mass, b1, e1, b2, e2, b3, e3,
    tmp, values,
):  # fmt: skip
    """One iteration, every player: alternating (each sees the strategies updated
    before it) or simultaneous (all regrets against the same ``sigma``, averages
    accumulated before any strategy changes), as ``solvers.cfr.scheduled_step``."""
    n = reach.shape[0]
    if alternating:
        _reach(sigma, parent, edge_player, edge_sigma, chance_child, node_board, compat, reach)
        for p in range(n):
            values[p] = _player_values(
                p, sigma, reach, parent, edge_player, edge_sigma, term_node, term_slot,
                term_board, term_live, term_committed, term_weight, compat, sub_id, sub_sign,
                n_sub, sw_hand, sw_level, sw_start, sw_lo, sw_hi, hand_pair, dense_w, dense_s,
                term_dense, child_lo, child_hi, cfv, inst[0],
                m, cs, mass,
                b1, e1, b2, e2, b3, e3, tmp,
            )  # fmt: skip
            if weight != 0.0:
                _accumulate(p, sigma, average, weight, reach, rep_node, rep_hand, sigma_infoset,
                            sigma_player, sigma_free)  # fmt: skip
            update_regrets_and_match(
                p, sigma, regrets, inst[0], pos_discount, neg_discount, floor, predictive,
                predict_discount, predict_neg_discount, tol, infoset_player, infoset_free,
                infoset_offset,
            )  # fmt: skip
            if p + 1 < n:  # only p's strategy changed: only her reach
                _reach_of(p, sigma, parent, edge_player, edge_sigma, chance_child, node_board,
                          compat, reach[p])  # fmt: skip
        return
    _reach(sigma, parent, edge_player, edge_sigma, chance_child, node_board, compat, reach)
    for p in range(n):
        values[p] = _player_values(
            p, sigma, reach, parent, edge_player, edge_sigma, term_node, term_slot, term_board,
            term_live, term_committed, term_weight, compat, sub_id, sub_sign, n_sub, sw_hand,
            sw_level, sw_start, sw_lo, sw_hi, hand_pair, dense_w, dense_s, term_dense, child_lo,
            child_hi, cfv, inst[p], m, cs, mass, b1,
            e1, b2, e2, b3, e3, tmp,
        )  # fmt: skip
    if weight != 0.0:
        for p in range(n):
            _accumulate(p, sigma, average, weight, reach, rep_node, rep_hand, sigma_infoset,
                        sigma_player, sigma_free)  # fmt: skip
    for p in range(n):
        update_regrets_and_match(
            p, sigma, regrets, inst[p], pos_discount, neg_discount, floor, predictive,
            predict_discount, predict_neg_discount, tol, infoset_player, infoset_free,
            infoset_offset,
        )  # fmt: skip


@njit(cache=True, nogil=True)
def _best_response(player, sigma, sigma_fixed, edge_player, edge_sigma, child_lo, child_hi, cfv,
                   total):  # fmt: skip
    """``player``'s best-response values up the tree in place (terminal values set), as
    :func:`toypoker.vector.values.best_response_value`: at her decision nodes each free
    infoset takes the action whose values, summed over the infoset's hands, are largest
    (the first such in action order), fixed actions keep ``sigma``; returns the root
    value summed over hands.  ``total`` is a scratch vector over the flat actions."""
    nn, hh = cfv.shape
    for q in range(nn - 1, -1, -1):
        lo = child_lo[q]
        hi = child_hi[q]
        if lo == hi:
            continue
        for h in range(hh):
            cfv[q, h] = 0.0
        if edge_player[lo] != player:
            for c in range(lo, hi):
                for h in range(hh):
                    cfv[q, h] += cfv[c, h]
            continue
        for c in range(lo, hi):
            for h in range(hh):
                e = edge_sigma[c, h]
                if e >= 0:
                    total[e] = 0.0
        for c in range(lo, hi):
            for h in range(hh):
                e = edge_sigma[c, h]
                if e >= 0:
                    total[e] += cfv[c, h]
        for h in range(hh):
            best = -1
            for c in range(lo, hi):
                e = edge_sigma[c, h]
                if e >= 0 and not sigma_fixed[e]:
                    if best < 0 or total[e] > total[edge_sigma[best, h]]:
                        best = c
            x = 0.0
            for c in range(lo, hi):
                e = edge_sigma[c, h]
                if e < 0:
                    continue
                if sigma_fixed[e]:
                    x += sigma[e] * cfv[c, h]
                elif c == best:
                    x += cfv[c, h]
            cfv[q, h] = x
    return _root_value(cfv)


@njit(cache=True, nogil=True)
def _evaluate(
    sigma, sigma_fixed, parent, edge_player, edge_sigma, chance_child, node_board, term_node,
    term_slot, term_board, term_live, term_committed, term_weight, compat, sub_id, sub_sign,
    n_sub, sw_hand, sw_level, sw_start, sw_lo, sw_hi, hand_pair, dense_w, dense_s, term_dense,
    child_lo, child_hi, reach, cfv, inst, m, cs, mass, b1, e1, b2, e2, b3, e3, tmp, values,
    best,
):  # fmt: skip
    """Each player's expected value (``values``) and best-response value (``best``)
    against ``sigma``: the terminals once a player, then the weighted backward pass and
    the best-response pass (the terminal values rewritten between them)."""
    _reach(sigma, parent, edge_player, edge_sigma, chance_child, node_board, compat, reach)
    for p in range(reach.shape[0]):
        values[p] = _player_values(
            p, sigma, reach, parent, edge_player, edge_sigma, term_node, term_slot, term_board,
            term_live, term_committed, term_weight, compat, sub_id, sub_sign, n_sub, sw_hand,
            sw_level, sw_start, sw_lo, sw_hi, hand_pair, dense_w, dense_s, term_dense, child_lo,
            child_hi, cfv, inst, m, cs, mass, b1, e1, b2, e2, b3, e3, tmp,
        )  # fmt: skip
        terminals(
            p, reach, term_node, term_slot, term_board, term_live, term_committed, term_weight,
            compat, sub_id, sub_sign, n_sub, sw_hand, sw_level, sw_start, sw_lo, sw_hi,
            hand_pair, dense_w, dense_s, term_dense, cfv, m, cs, mass, b1, e1, b2, e2, b3, e3,
            tmp,
        )  # fmt: skip
        best[p] = _best_response(p, sigma, sigma_fixed, edge_player, edge_sigma, child_lo,
                                 child_hi, cfv, inst)  # fmt: skip


class VectorKernel:
    """The flat arrays of one :class:`VectorGame` and its fused CFR iteration.

    Build with :func:`vector_kernel` (kept with the game).  ``sigma``, ``regrets`` and
    ``average`` are contiguous float64 vectors over the compiled game's flat actions,
    as in :class:`toypoker.solvers.cfr.CFRState`; restricted infosets are never
    written.
    """

    def __init__(self, vg: VectorGame):
        plan = plan_for(vg)
        game = vg.game
        n, nn, hh = vg.n_players, vg.n_nodes, vg.n_hands
        i64 = np.int64
        terms = [(g, int(i)) for g in plan.groups for i in g.nodes]
        sweep, offset, cs_size = sweep_arrays(vg, terms)
        hand_pair = np.zeros((0, 1, 4), dtype=i64)
        if n == 2 and vg.hands.shape[1] == 2:
            hand_pair = pair_plan(vg)
        dense_w, dense_s, term_dense = dense_arrays(vg, terms)
        self.static = (
            vg.parent.astype(i64),
            vg.edge_player.astype(i64),
            np.ascontiguousarray(vg.edge_sigma, dtype=i64),
            plan.chance_child.copy(),
            vg.node_board.astype(i64),
            np.array([i for _, i in terms], dtype=i64),
            *sweep[:1],  # term_slot
            np.array([g.board for g, _ in terms], dtype=i64),
            np.array([g.live for g, _ in terms], dtype=i64).reshape(len(terms), n),
            _charged(vg, [i for _, i in terms]),
            vg.node_weight[[i for _, i in terms]].astype(np.float64),
            np.ascontiguousarray(vg.hand_count, dtype=np.float64),
            *sweep[1:],  # sub_id, sub_sign, n_sub, sw_hand, sw_level, sw_start/lo/hi
            hand_pair,
            dense_w,
            dense_s,
            term_dense,
            (plan.infoset_rep // hh).astype(i64),
            (plan.infoset_rep % hh).astype(i64),
            game.sigma_infoset.astype(i64),
            game.sigma_player.astype(i64),
            game.free_mask(),
            game.infoset_player.astype(i64),
            ~np.asarray(game.infoset_restricted, dtype=bool),
            game.infoset_offset.astype(i64),
            *_child_ranges(vg.parent),
        )
        vec = [np.zeros(hh) for _ in range(9)]  # mass, b1, e1, b2, e2, b3, e3, tmp + spare
        self.work = (
            np.zeros((n, nn, hh)),
            np.zeros((nn, hh)),
            np.zeros((n, game.n_sigma)),
            np.zeros(max(offset, hh, hh * hh if len(dense_w) else 0)),
            np.zeros(cs_size),
            *vec[:8],
        )
        self.values = np.zeros(n)
        self.payoff_scale = payoff_scale(game)
        self.sigma_fixed = np.asarray(game.sigma_fixed, dtype=np.bool_)

    def evaluate(self, sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each player's expected value and best-response value against the flat float
        profile ``sigma``, in one compiled call (equal to
        :func:`toypoker.vector.values.expected_values` and
        :func:`~toypoker.vector.values.best_response_value` to rounding)."""
        st = self.static
        reach, cfv, inst, m, cs, *vec = self.work
        values, best = np.zeros(len(reach)), np.zeros(len(reach))
        _evaluate(
            np.ascontiguousarray(sigma, dtype=np.float64), self.sigma_fixed, *st[:24],
            *st[-2:], reach, cfv, inst[0], m, cs, *vec, values, best,
        )  # fmt: skip
        return values, best

    def iteration(
        self, sigma: np.ndarray, regrets: np.ndarray, average: np.ndarray, **schedule: float
    ) -> np.ndarray:
        """One CFR iteration in place; ``schedule`` is
        :func:`toypoker.solvers.cfr.kernel_schedule`'s dict (``weight``, ``alternating``,
        ``floor``, the discounts, ``predictive``, ``tolerance``).  Returns each player's root value
        under the strategy her update saw (a buffer the next call overwrites)."""
        x = schedule
        reach, cfv, inst, m, cs, *vec = self.work
        _iteration(
            bool(x["alternating"]), sigma, regrets, average, float(x["weight"]),
            float(x["pos_discount"]), float(x["neg_discount"]), bool(x["floor"]),
            bool(x["predictive"]), float(x["predict_discount"]),
            float(x["predict_neg_discount"]), float(x["tolerance"]), *self.static, reach, cfv,
            inst, m, cs, *vec, self.values,
        )  # fmt: skip
        return self.values


def _charged(vg: VectorGame, nodes: list[int]) -> np.ndarray:
    """``(T, n)`` the chips each player is charged at each terminal: her committed chips,
    or under a payoff map ``B @ committed`` (the pot, their sum, is unchanged:
    :func:`~toypoker.vector.layout.check_payoff_map`)."""
    rows = [vg.game.nodes[i].committed for i in nodes]
    if vg.payoff is not None:
        bmat = vg.payoff[1]
        rows = [tuple(sum((b * x for b, x in zip(r, c, strict=True)), Fraction(0))
                      for r in bmat) for c in rows]  # fmt: skip
    return np.array([[float(x) for x in c] for c in rows]).reshape(len(nodes), vg.n_players)


def _child_ranges(parent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``[child_lo[q], child_hi[q])``: the ids of ``q``'s children (consecutive in the
    breadth-first order; empty for terminals)."""
    nn = len(parent)
    kids = np.asarray(parent[1:], dtype=np.int64)
    lo = np.searchsorted(kids, np.arange(nn), side="left") + 1
    hi = np.searchsorted(kids, np.arange(nn), side="right") + 1
    return lo.astype(np.int64), hi.astype(np.int64)


def vector_kernel(vg: VectorGame) -> VectorKernel | None:
    """The :class:`VectorKernel` of ``vg`` (built once, kept with it), or ``None`` where
    the sweeps do not apply (the numpy reference then runs)."""
    if "kernel" not in vg.cache:
        fused = plan_for(vg).sweep is not None or vg.rank_deals is not None
        vg.cache["kernel"] = VectorKernel(vg) if fused else None
    return vg.cache["kernel"]  # type: ignore[return-value]
