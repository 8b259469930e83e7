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
   sorted sweep, ``O(H 2^hole)`` a terminal (two cards a hand: one pass up the
   strength order of the hands the board leaves with per-card running sums,
   :func:`_pair_sweep`, ``O(H + cards)``); three players with one card a hand by
   the one-card coincidence formula of
   :func:`toypoker.vector.values._three_group`, ``O(H)`` a terminal; three players
   on rank pairs (:func:`toypoker.vector.layout.rank_hands`) by a dense sum over the
   others' rank hands weighted by the board's deal counts, ``O(R^3)`` a terminal
   (:func:`_dense_terminal`; ``R`` = 15 on Mercer's deck);
3. the backward pass and the instantaneous regrets per flat action
   (:func:`_backward_regrets`);
4. the average-strategy accumulation with the player's own reach at the infoset;
5. the regret update and regret matching of the row kernel
   (:func:`toypoker.kernels.cfr.update_regrets_and_match`).

The numpy code of :mod:`toypoker.vector.values` stays the readable reference;
``tests/vector/test_kernel.py`` and ``tests/vector/test_rank_pairs.py`` show the
iterates agree to 1e-12.  Games the kernel does not cover (three players with two or
more physical cards a hand, four or more players) have no kernel
(:func:`vector_kernel` returns ``None``) and run on the reference.
The kernels are serial (``nogil``), like the row layout's: numba's thread count
(:mod:`toypoker.threads`) does not change them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.cfr import update_regrets_and_match
from .layout import VectorGame
from .values import plan_for, pot_shares


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
def _pair_sweep(r, plan, acc, mass, below, upto, showdown):
    """Two cards a hand: ``mass[h]``, the mass of ``r`` on hands disjoint from ``h``
    (the total less the sums on ``h``'s two cards plus ``h`` itself, the one hand
    holding both), and with ``showdown`` the mass weaker than ``h`` (``below``) and not
    stronger (``upto``), each disjoint from ``h``: one pass up the strength order of
    the hands the board leaves (``plan``: :func:`_pair_plan`) with per-card running
    sums, ``O(H + cards)`` a terminal; 0 for the hands meeting the board.  ``acc`` is a
    scratch vector over the cards."""
    for h in range(r.shape[0]):
        mass[h] = 0.0
        below[h] = 0.0
        upto[h] = 0.0
    for c in range(acc.shape[0]):
        acc[c] = 0.0
    n = plan[0, 0]
    run = 0.0
    if showdown:
        j = 1
        while j <= n:  # a strength group at a time
            end = plan[j, 3]
            for i in range(j, end):
                h = plan[i, 0]
                below[h] = run - acc[plan[i, 1]] - acc[plan[i, 2]]
            for i in range(j, end):
                x = r[plan[i, 0]]
                run += x
                acc[plan[i, 1]] += x
                acc[plan[i, 2]] += x
            for i in range(j, end):  # h itself is in the group and holds both cards
                h = plan[i, 0]
                upto[h] = run - acc[plan[i, 1]] - acc[plan[i, 2]] + r[h]
            j = end
    else:
        for i in range(1, n + 1):
            x = r[plan[i, 0]]
            run += x
            acc[plan[i, 1]] += x
            acc[plan[i, 2]] += x
    for i in range(1, n + 1):
        h = plan[i, 0]
        mass[h] = run - acc[plan[i, 1]] - acc[plan[i, 2]] + r[h]


@njit(cache=True, nogil=True, fastmath={"reassoc", "contract", "nsz"})
def _dense_terminal(player, reach_t, wt, w, dense_s, g, pot, paid, n_live, me_live, pair, mass,
                    tmp):  # fmt: skip
    """Three players on rank pairs, one terminal: with ``P[i1 R + i2]`` the two others'
    reaches (seats in order), ``mass[h] = w[h] . P`` (``w``: the board's deal counts,
    :func:`toypoker.vector.layout.rank_hands`, over the copies of ``h``, which the
    caller multiplies back) and at a showdown ``share[h] = dense_s[g, player, h] . P``:
    ``O(R^3)`` a terminal for ``R`` rank hands (15 pairs on Mercer's deck)."""
    rr = wt.shape[0]
    q1 = 1 if player == 0 else 0
    q2 = 2 if player != 2 else 1
    for i1 in range(rr):
        x = reach_t[q1, i1]
        for i2 in range(rr):
            pair[i1 * rr + i2] = x * reach_t[q2, i2]
    kk = rr * rr
    for h in range(rr):
        acc = 0.0
        row = w[h]
        for j in range(kk):
            acc += row[j] * pair[j]
        mass[h] = acc
    if n_live == 1 or not me_live:
        gain = pot if (me_live and n_live == 1) else 0.0
        for h in range(rr):
            tmp[h] = (gain - paid) * mass[h]
        return
    s = dense_s[g, player]
    for h in range(rr):
        acc = 0.0
        row = s[h]
        for j in range(kk):
            acc += row[j] * pair[j]
        tmp[h] = pot * acc - paid * mass[h]


@njit(cache=True, nogil=True)
def _terminals(
    player, reach, term_node, term_slot, term_board, term_live, term_committed, term_weight,
    compat, sub_id, sub_sign, n_sub, sw_hand, sw_level, sw_start, sw_lo, sw_hi, hand_pair,
    dense_w, dense_s, term_dense, cfv, m, cs, mass, b1, e1, b2, e2, b3, e3, tmp,
):  # fmt: skip
    """``player``'s counterfactual values at every terminal (rows ``term_node`` of
    ``cfv``), weighted by the deal probability and the board's compatibility.

    ``hand_pair`` (boards, H + 1, 4): where hands hold two cards (else empty), each
    board's :func:`_pair_plan`: two players then take :func:`_pair_sweep`.  ``dense_w``
    (boards, R, R*R), non-empty for three players on rank pairs
    (:func:`toypoker.vector.layout.rank_hands`): the deal-count tensor of each board
    (:func:`_dense_terminal`); ``dense_s`` (groups, 3, R, R*R) each player's pot share
    times it at a showdown group ``term_dense``."""
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
        if dense_w.shape[0] > 0:  # three players, rank pairs
            _dense_terminal(
                player, reach[:, t], wt, dense_w[term_board[i]], dense_s, term_dense[i], pot,
                paid, n_live, me_live, m, mass, tmp,
            )  # fmt: skip
        elif n == 2 and hand_pair.shape[0] > 0:
            r = reach[1 - player, t]
            _pair_sweep(r, hand_pair[term_board[i]], m, mass, b1, e1, n_live == 2)
            if n_live == 2:  # the weaker mass, and half of the level one (upto - below)
                for h in range(hh):
                    tmp[h] = pot * 0.5 * (b1[h] + e1[h]) - paid * mass[h]
            else:
                gain = pot if me_live else 0.0
                for h in range(hh):
                    tmp[h] = (gain - paid) * mass[h]
        elif n == 2:
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
    _terminals(
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
    predictive, predict_discount, predict_neg_discount, parent, edge_player, edge_sigma,
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
                predict_discount, predict_neg_discount, infoset_player, infoset_free,
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
            predict_discount, predict_neg_discount, infoset_player, infoset_free, infoset_offset,
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
        _terminals(
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
        sweep_arrays, offset, cs_size = _sweep_arrays(vg, terms)
        hand_pair = np.zeros((0, 1, 4), dtype=i64)
        if n == 2 and vg.hands.shape[1] == 2:
            hand_pair = _pair_plan(vg)
        dense_w, dense_s, term_dense = _dense_arrays(vg, terms)
        self.static = (
            vg.parent.astype(i64),
            vg.edge_player.astype(i64),
            np.ascontiguousarray(vg.edge_sigma, dtype=i64),
            plan.chance_child.copy(),
            vg.node_board.astype(i64),
            np.array([i for _, i in terms], dtype=i64),
            *sweep_arrays[:1],  # term_slot
            np.array([g.board for g, _ in terms], dtype=i64),
            np.array([g.live for g, _ in terms], dtype=i64).reshape(len(terms), n),
            np.array([[float(x) for x in game.nodes[i].committed] for _, i in terms]).reshape(
                len(terms), n
            ),
            vg.node_weight[[i for _, i in terms]].astype(np.float64),
            np.ascontiguousarray(vg.hand_count, dtype=np.float64),
            *sweep_arrays[1:],  # sub_id, sub_sign, n_sub, sw_hand, sw_level, sw_start/lo/hi
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
        ``floor``, the discounts, ``predictive``).  Returns each player's root value
        under the strategy her update saw (a buffer the next call overwrites)."""
        x = schedule
        reach, cfv, inst, m, cs, *vec = self.work
        _iteration(
            bool(x["alternating"]), sigma, regrets, average, float(x["weight"]),
            float(x["pos_discount"]), float(x["neg_discount"]), bool(x["floor"]),
            bool(x["predictive"]), float(x["predict_discount"]),
            float(x["predict_neg_discount"]), *self.static, reach, cfv, inst, m, cs, *vec,
            self.values,
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


def _sweep_arrays(vg: VectorGame, terms: list) -> tuple[tuple, int, int]:
    """The sweep's flat arrays (term_slot, sub_id, sub_sign, n_sub, sw_hand, sw_level,
    sw_start, sw_lo, sw_hi), the card-subset count and the prefix-sum scratch size; empty
    stand-ins where the game has no sweep (rank pairs)."""
    i64 = np.int64
    sweep = plan_for(vg).sweep
    hh = vg.n_hands
    if sweep is None:
        z3 = np.zeros((1, hh, 1), dtype=i64)
        empty = (
            np.full(len(terms), -1, dtype=i64), np.zeros((hh, 1), dtype=i64), np.ones(1), 1,
            np.zeros((1, 1), dtype=i64), np.zeros(1, dtype=i64), z3, z3.copy(), z3.copy(),
        )  # fmt: skip
        return empty, 1, 2
    # card subsets of each hand, one global id per (size, subset), with signs
    ids, signs, offset = [], [], 0
    for sign, level_ids, _, _ in sweep.levels:
        ids.append(level_ids + offset)
        signs += [float(sign)] * level_ids.shape[1]
        offset += int(level_ids.max()) + 1
    sub_id = np.ascontiguousarray(np.concatenate(ids, axis=1), dtype=i64)
    sub_sign = np.array(signs)
    # showdown boards: the sweep's sorted entries and positions, levels concatenated
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
    term_slot = np.array([slot_of.get(g.board, -1) for g, _ in terms], dtype=i64)
    arrays = (term_slot, sub_id, sub_sign, offset, sw_hand, sw_level, sw_start, sw_lo, sw_hi)
    return arrays, offset, e_total + len(sizes)


def _pair_plan(vg: VectorGame) -> np.ndarray:
    """Per board, the hands it leaves in ascending strength for :func:`_pair_sweep`:
    ``[b, 0, 0]`` their number ``k``; rows ``1..k`` ``(hand, card, card, end)`` with
    ``end`` the row after the hand's strength group (strength 0 off showdown boards)."""
    nb, hh = len(vg.boards), vg.n_hands
    out = np.zeros((nb, hh + 1, 4), dtype=np.int64)
    for b in range(nb):
        ok = np.nonzero(vg.board_compat[b])[0]
        st = vg.strength[b, ok]
        order = np.argsort(st, kind="stable")
        hands, st = ok[order], st[order]
        k = len(hands)
        out[b, 0, 0] = k
        out[b, 1 : k + 1, 0] = hands
        out[b, 1 : k + 1, 1:3] = vg.hands[hands]
        out[b, 1 : k + 1, 3] = np.searchsorted(st, st, side="right") + 1
    return out


def _dense_arrays(vg: VectorGame, terms: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three players on rank pairs: each board's deal-count tensor ``(B, R, R*R)`` and,
    per showdown group, each player's pot share times it ``(G, 3, R, R*R)`` (her hand
    first, the others in seat order), with each terminal's group; empty otherwise."""
    if vg.rank_deals is None:
        return np.zeros((0, 1, 1)), np.zeros((0, 3, 1, 1)), np.zeros(len(terms), dtype=np.int64)
    rr, nb = vg.n_hands, len(vg.boards)
    # the own hand's copies come back as the kernel's last factor (``compat``)
    own = np.where(vg.hand_count > 0, 1.0 / np.where(vg.hand_count > 0, vg.hand_count, 1), 0)
    per_copy = vg.rank_deals * own[:, :, None, None]  # (B, R, R, R): symmetric but for axis 1
    w = np.ascontiguousarray(per_copy.reshape(nb, rr, rr * rr))
    shown = sorted({(g.board, g.live) for g, _ in terms if sum(g.live) > 1})
    group_of = {key: j for j, key in enumerate(shown)}
    s = np.zeros((max(len(shown), 1), 3, rr, rr * rr))
    for (b, live), j in group_of.items():
        for p, (win, count) in enumerate(pot_shares(vg.strength[b], live)):
            share = win / np.maximum(count, 1) * vg.rank_deals[b]
            s[j, p] = np.moveaxis(share, p, 0).reshape(rr, rr * rr) * own[b][:, None]
    term = np.array([group_of.get((g.board, g.live), -1) for g, _ in terms], dtype=np.int64)
    return w, s, term


def vector_kernel(vg: VectorGame) -> VectorKernel | None:
    """The :class:`VectorKernel` of ``vg`` (built once, kept with it), or ``None`` where
    the sweeps do not apply (the numpy reference then runs)."""
    if "kernel" not in vg.cache:
        fused = plan_for(vg).sweep is not None or vg.rank_deals is not None
        vg.cache["kernel"] = VectorKernel(vg) if fused else None
    return vg.cache["kernel"]  # type: ignore[return-value]
