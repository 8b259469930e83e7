"""The CFR iteration on the vector layout as one compiled call (numba).

:class:`VectorKernel` flattens a :class:`~toypoker.vector.layout.VectorGame` once
(its :class:`~toypoker.vector.values.Plan`: terminals, the card-subset incidence
and, per showdown board, the strength-sorted sweep positions) into contiguous
arrays; :meth:`VectorKernel.iteration` then runs one whole iteration of the CFR
family's schedule in one call, in place, as :func:`toypoker.kernels.cfr` does for
the row layout:

1. forward reach of every player at every (node, hand) (:func:`_reach`);
2. the player's terminal values (:func:`_terminals`): fold terminals by
   inclusion-exclusion over the hand's card subsets, two-player showdowns by the
   sorted sweep, ``O(H 2^hole)`` a terminal; three players with one card a hand by
   the one-card coincidence formula of
   :func:`toypoker.vector.values._three_group`, ``O(H)`` a terminal;
3. the backward pass and the instantaneous regrets per flat action
   (:func:`_backward_regrets`);
4. the average-strategy accumulation with the player's own reach at the infoset;
5. the regret update and regret matching of the row kernel
   (:func:`toypoker.kernels.cfr.update_regrets_and_match`), with its tolerance: a
   regret at most :func:`toypoker.kernels.cfr.regret_tolerance` counts as zero in
   both layouts, so ties that rounding breaks differently in the two stay ties.

The numpy code of :mod:`toypoker.vector.values` stays the readable reference;
``tests/vector/test_kernel.py`` shows the iterates agree to 1e-12.  Games the sweeps
do not cover (three players with two or more cards a hand, four or more players)
have no kernel (:func:`vector_kernel` returns ``None``) and run on the reference.
The kernels are serial (``nogil``), like the row layout's: numba's thread count
(:mod:`toypoker.threads`) does not change them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.cfr import payoff_scale, update_regrets_and_match
from .layout import VectorGame
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
def _compatible(r, wt, sub_id, sub_sign, n_sub, m, out):
    """``out[h]``: the mass of ``r`` on hands disjoint from ``h`` (inclusion-exclusion
    over the card subsets of ``h``; ``m`` a scratch vector of ``n_sub``).  With one
    card a hand, ``wt[h]`` copies of each hand are left (rank hands) and ``r`` is the
    reach of one copy."""
    hh, k = sub_id.shape
    if k == 2:  # one card a hand: every copy but h itself
        total = 0.0
        for h in range(hh):
            total += wt[h] * r[h]
        for h in range(hh):
            out[h] = total - r[h]
        return
    for i in range(n_sub):
        m[i] = 0.0
    for h in range(hh):
        for c in range(k):
            m[sub_id[h, c]] += r[h]
    for h in range(hh):
        x = 0.0
        for c in range(k):
            x += sub_sign[c] * m[sub_id[h, c]]
        out[h] = x


@njit(cache=True, nogil=True)
def _below_level(w, wt, slot, sw_hand, sw_level, sw_start, sw_lo, sw_hi, sub_sign, cs, below,
                 level):  # fmt: skip
    """The mass of ``w`` on hands disjoint from ``h`` weaker than / level with ``h`` on
    the showdown board ``slot``: prefix sums of each card subset's hands in strength
    order, combined by inclusion-exclusion (one card a hand: ``wt`` copies of each,
    as in :func:`_compatible`)."""
    e_total = sw_hand.shape[1]
    hh, k = sw_start.shape[1], sw_start.shape[2]
    if k == 2:  # one card a hand: the one-card subset of h is held by h alone
        cs[0] = 0.0
        for j in range(hh):
            x = sw_hand[slot, j]
            cs[j + 1] = cs[j] + wt[x] * w[x]
        for h in range(hh):
            lo = cs[sw_lo[slot, h, 0]]
            below[h] = lo - cs[sw_start[slot, h, 0]]
            level[h] = (cs[sw_hi[slot, h, 0]] - lo) - w[h]
        return
    pos = 0
    last = -1
    for j in range(e_total):
        lv = sw_level[j]
        if lv != last:  # a new subset size: its own leading zero
            cs[pos] = 0.0
            pos += 1
            last = lv
        cs[pos] = cs[pos - 1] + w[sw_hand[slot, j]]
        pos += 1
    for h in range(hh):
        lt = 0.0
        eq = 0.0
        for c in range(k):
            lo = cs[sw_lo[slot, h, c]]
            lt += sub_sign[c] * (lo - cs[sw_start[slot, h, c]])
            eq += sub_sign[c] * (cs[sw_hi[slot, h, c]] - lo)
        below[h] = lt
        level[h] = eq


@njit(cache=True, nogil=True)
def _terminals(
    player, reach, term_node, term_slot, term_board, term_live, term_committed, term_weight,
    compat, sub_id, sub_sign, n_sub, sw_hand, sw_level, sw_start, sw_lo, sw_hi, cfv,
    m, cs, mass, b1, e1, b2, e2, b3, e3, tmp,
):  # fmt: skip
    """``player``'s counterfactual values at every terminal (rows ``term_node`` of
    ``cfv``), weighted by the deal probability and the board's compatibility."""
    n = reach.shape[0]
    hh = reach.shape[2]
    for i in range(term_node.shape[0]):
        t = term_node[i]
        pot = 0.0
        n_live = 0
        for q in range(n):
            pot += term_committed[i, q]
            n_live += term_live[i, q]
        paid = term_committed[i, player]
        me_live = term_live[i, player]
        slot = term_slot[i]
        wt = compat[term_board[i]]
        if n == 2:
            r = reach[1 - player, t]
            _compatible(r, wt, sub_id, sub_sign, n_sub, m, mass)
            if n_live == 2:
                _below_level(r, wt, slot, sw_hand, sw_level, sw_start, sw_lo, sw_hi, sub_sign, cs,
                             b1, e1)  # fmt: skip
                for h in range(hh):
                    tmp[h] = pot * (b1[h] + 0.5 * e1[h]) - paid * mass[h]
            else:
                gain = pot if me_live else 0.0
                for h in range(hh):
                    tmp[h] = (gain - paid) * mass[h]
        else:  # three players, one card a hand
            q1 = 1 if player == 0 else 0
            q2 = 2 if player != 2 else 1
            r1 = reach[q1, t]
            r2 = reach[q2, t]
            t1 = 0.0
            t2 = 0.0
            s12 = 0.0
            for h in range(hh):
                t1 += wt[h] * r1[h]
                t2 += wt[h] * r2[h]
                s12 += wt[h] * r1[h] * r2[h]
            for h in range(hh):
                mass[h] = (t1 - r1[h]) * (t2 - r2[h]) - (s12 - r1[h] * r2[h])
            if n_live == 1 or not me_live:
                gain = pot if (me_live and n_live == 1) else 0.0
                for h in range(hh):
                    tmp[h] = (gain - paid) * mass[h]
            elif n_live == 2:
                if term_live[i, q1]:
                    rq, rf = r1, r2
                    tf = t2
                else:
                    rq, rf = r2, r1
                    tf = t1
                for h in range(hh):
                    m[h] = rq[h] * rf[h]
                _below_level(rq, wt, slot, sw_hand, sw_level, sw_start, sw_lo, sw_hi, sub_sign, cs,
                             b1, e1)  # fmt: skip
                _below_level(m, wt, slot, sw_hand, sw_level, sw_start, sw_lo, sw_hi, sub_sign, cs,
                             b2, e2)  # fmt: skip
                for h in range(hh):
                    share = (tf - rf[h]) * (b1[h] + 0.5 * e1[h]) - (b2[h] + 0.5 * e2[h])
                    tmp[h] = pot * share - paid * mass[h]
            else:
                for h in range(hh):
                    m[h] = r1[h] * r2[h]
                _below_level(r1, wt, slot, sw_hand, sw_level, sw_start, sw_lo, sw_hi, sub_sign, cs,
                             b1, e1)  # fmt: skip
                _below_level(r2, wt, slot, sw_hand, sw_level, sw_start, sw_lo, sw_hi, sub_sign, cs,
                             b2, e2)  # fmt: skip
                _below_level(m, wt, slot, sw_hand, sw_level, sw_start, sw_lo, sw_hi, sub_sign, cs,
                             b3, e3)  # fmt: skip
                third = 1.0 / 3.0
                for h in range(hh):
                    share = (
                        b1[h] * b2[h] + 0.5 * (b1[h] * e2[h] + e1[h] * b2[h])
                        + third * e1[h] * e2[h] - (b3[h] + third * e3[h])
                    )  # fmt: skip
                    tmp[h] = pot * share - paid * mass[h]
        w = term_weight[i]
        for h in range(hh):
            cfv[t, h] = tmp[h] * w * wt[h]


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
    value = 0.0
    for h in range(hh):
        value += cfv[0, h]
    return value


@njit(cache=True, nogil=True)
def _player_values(
    player, sigma, reach, parent, edge_player, edge_sigma, term_node, term_slot, term_board,
    term_live, term_committed, term_weight, compat, sub_id, sub_sign, n_sub, sw_hand, sw_level,
    sw_start, sw_lo, sw_hi, child_lo, child_hi, cfv, inst, m, cs, mass, b1, e1, b2, e2, b3,
    e3, tmp,
):  # fmt: skip
    """Steps 2-3 for ``player``: terminal values, backward pass, instantaneous regrets."""
    _terminals(
        player, reach, term_node, term_slot, term_board, term_live, term_committed, term_weight,
        compat, sub_id, sub_sign, n_sub, sw_hand, sw_level, sw_start, sw_lo, sw_hi, cfv,
        m, cs, mass, b1, e1, b2, e2, b3, e3, tmp,
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
                n_sub, sw_hand, sw_level, sw_start, sw_lo, sw_hi, child_lo, child_hi, cfv, inst[0],
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
            sw_level, sw_start, sw_lo, sw_hi, child_lo, child_hi, cfv, inst[p], m, cs, mass, b1,
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


class VectorKernel:
    """The flat arrays of one :class:`VectorGame` and its fused CFR iteration.

    Build with :func:`vector_kernel` (kept with the game).  ``sigma``, ``regrets`` and
    ``average`` are contiguous float64 vectors over the compiled game's flat actions,
    as in :class:`toypoker.solvers.cfr.CFRState`; restricted infosets are never
    written.
    """

    def __init__(self, vg: VectorGame):
        plan = plan_for(vg)
        sweep = plan.sweep
        assert sweep is not None
        game = vg.game
        n, nn, hh = vg.n_players, vg.n_nodes, vg.n_hands
        i64 = np.int64
        # card subsets of each hand, one global id per (size, subset), with signs
        ids, signs, offset = [], [], 0
        for sign, level_ids, _, _ in sweep.levels:
            ids.append(level_ids + offset)
            signs += [float(sign)] * level_ids.shape[1]
            offset += int(level_ids.max()) + 1
        sub_id = np.ascontiguousarray(np.concatenate(ids, axis=1), dtype=i64)
        sub_sign = np.array(signs)
        # showdown boards: the sweep's sorted entries and positions, levels concatenated
        terms = [(g, int(i)) for g in plan.groups for i in g.nodes]
        shown = sorted({g.board for g, _ in terms if sum(g.live) > 1})
        slot_of = {b: j for j, b in enumerate(shown)}
        sizes = [lv[1].size for lv in sweep.levels]
        e_total = sum(sizes)
        k = sub_id.shape[1]
        sw_hand = np.zeros((max(len(shown), 1), e_total), dtype=i64)
        sw_start = np.zeros((max(len(shown), 1), hh, k), dtype=i64)
        sw_lo, sw_hi = sw_start.copy(), sw_start.copy()
        sw_level = np.repeat(np.arange(len(sizes)), sizes).astype(i64)
        for b, j in slot_of.items():
            e0 = c0 = col = 0
            for s, (hand_of, start, lo, hi) in enumerate(sweep.board(b)):
                width = start.shape[1]
                sw_hand[j, e0 : e0 + sizes[s]] = hand_of
                cols = slice(col, col + width)
                sw_start[j, :, cols] = start + c0
                sw_lo[j, :, cols] = lo + c0
                sw_hi[j, :, cols] = hi + c0
                e0 += sizes[s]
                c0 += sizes[s] + 1
                col += width
        self.static = (
            vg.parent.astype(i64),
            vg.edge_player.astype(i64),
            np.ascontiguousarray(vg.edge_sigma, dtype=i64),
            plan.chance_child.copy(),
            vg.node_board.astype(i64),
            np.array([i for _, i in terms], dtype=i64),
            np.array([slot_of.get(g.board, -1) for g, _ in terms], dtype=i64),
            np.array([g.board for g, _ in terms], dtype=i64),
            np.array([g.live for g, _ in terms], dtype=i64).reshape(len(terms), n),
            np.array([[float(x) for x in game.nodes[i].committed] for _, i in terms]).reshape(
                len(terms), n
            ),
            vg.node_weight[[i for _, i in terms]].astype(np.float64),
            np.ascontiguousarray(vg.hand_count, dtype=np.float64),
            sub_id,
            sub_sign,
            offset,
            sw_hand,
            sw_level,
            sw_start,
            sw_lo,
            sw_hi,
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
            np.zeros(max(offset, hh)),
            np.zeros(e_total + len(sizes)),
            *vec[:8],
        )
        self.values = np.zeros(n)
        self.payoff_scale = payoff_scale(game)

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
        vg.cache["kernel"] = VectorKernel(vg) if plan_for(vg).sweep is not None else None
    return vg.cache["kernel"]  # type: ignore[return-value]
