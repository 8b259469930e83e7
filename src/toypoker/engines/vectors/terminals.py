"""Terminal values of the vector layout's fused kernel (numba), and the flat arrays they
read, prepared once per game by :class:`toypoker.engines.vectors.kernel.VectorKernel`.

:func:`terminals` writes one player's counterfactual values at every terminal:

* two players, fold terminals by inclusion-exclusion over the hand's card subsets
  (:func:`_compatible`) and showdowns by the strength-sorted sweep (:func:`_below_level`),
  ``O(H 2^hole)`` a terminal; with one card a hand (Rhode Island) the two fused into
  one pass after the opponent's total (:func:`_one_card_terminals`, the same sums in the same
  order); with two cards a hand one pass up the strength order of the hands the board
  leaves with per-card running sums (:func:`_pair_sweep`, ``O(H + cards)``);
* three players with one card a hand by the one-card coincidence formula of
  :func:`toypoker.engines.vectors.terminal_values._three_group`, ``O(H)`` a terminal;
* three players on rank pairs (:func:`toypoker.engines.vectors.layout.rank_hands`) by a dense
  sum over the others' rank hands weighted by the board's deal counts
  (:func:`_dense_terminal`), ``O(R^3)`` a terminal (``R`` = 15 on Mercer's deck).

The numpy reference is :mod:`toypoker.engines.vectors.values`.
"""

from __future__ import annotations

import numpy as np

from toypoker.engines.vectors.layout import VectorGame
from toypoker.engines.vectors.terminal_values import plan_for, pot_shares, share_fraction
from toypoker.jit import njit


@njit(nogil=True)
def _compatible(r, wt, sub_id, sub_sign, n_sub, m, out):
    """``out[h]``: the mass of ``r`` on hands disjoint from ``h`` (inclusion-exclusion
    over the card subsets of ``h``; ``m`` a scratch vector of ``n_sub``).  Hands of two
    or more cards: with one card a hand two players take :func:`_one_card_terminals`."""
    hh, k = sub_id.shape
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


@njit(nogil=True, inline="always")
def _one_card_sums(w, wt, hand, cs):
    """One card a hand: ``cs[j]`` the mass of ``w`` (``wt`` copies of each hand) on the
    first ``j`` hands of the showdown board's strength order ``hand`` (its first
    ``len(w)`` entries: one level, the hands themselves)."""
    cs[0] = 0.0
    for j in range(w.shape[0]):
        x = hand[j]
        cs[j + 1] = cs[j] + wt[x] * w[x]


@njit(nogil=True)
def _below_level(w, wt, slot, sw_hand, sw_level, sw_start, sw_lo, sw_hi, sub_sign, cs, below,
                 level):  # fmt: skip
    """The mass of ``w`` on hands disjoint from ``h`` weaker than / level with ``h`` on
    the showdown board ``slot``: prefix sums of each card subset's hands in strength
    order, combined by inclusion-exclusion (one card a hand: ``wt`` copies of each,
    as in :func:`_compatible`)."""
    e_total = sw_hand.shape[1]
    hh, k = sw_start.shape[1], sw_start.shape[2]
    if k == 2:  # one card a hand: the one-card subset of h is held by h alone
        _one_card_sums(w, wt, sw_hand[slot], cs)
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


@njit(nogil=True)
def _pair_sweep(r, plan, acc, mass, below, upto, showdown):
    """Two cards a hand: ``mass[h]``, the mass of ``r`` on hands disjoint from ``h``
    (the total less the sums on ``h``'s two cards plus ``h`` itself, the one hand
    holding both), and with ``showdown`` the mass weaker than ``h`` (``below``) and not
    stronger (``upto``), each disjoint from ``h``: one pass up the strength order of
    the hands the board leaves (``plan``: :func:`pair_plan`) with per-card running
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


@njit(nogil=True, fastmath={"reassoc", "contract", "nsz"})
def _dense_terminal(player, reach_t, wt, w, dense_s, g, pot, paid, n_live, me_live, pair, mass,
                    tmp):  # fmt: skip
    """Three players on rank pairs, one terminal: with ``P[i1 R + i2]`` the two others'
    reaches (seats in order), ``mass[h] = w[h] . P`` (``w``: the board's deal counts,
    :func:`toypoker.engines.vectors.layout.rank_hands`, over the copies of ``h``, which the
    caller multiplies back) and at a showdown ``share[h] = dense_s[g, player, h] . P``:
    ``O(R^3)`` a terminal for ``R`` rank hands (15 pairs on Mercer's deck).  A
    terminal outside the share groups (``g < 0``: a fold, no payoff map) pays the one
    live player the pot; under a payoff map every terminal has a group."""
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
    if g < 0:  # a fold without a payoff map: the one live player takes the pot
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


@njit(nogil=True, inline="always")
def _zero(reach, o, t):
    """Whether ``reach[o, t]`` is zero on every hand."""
    for h in range(reach.shape[2]):
        if reach[o, t, h] != 0.0:
            return False
    return True


@njit(nogil=True)
def _one_card_terminals(player, lo, hi, reach, term_node, term_slot, term_board, term_live,
                        term_committed, term_weight, compat, one_card, cfv):  # fmt: skip
    """:func:`terminals` ``lo..hi - 1`` for two players with one card a hand (Rhode
    Island's hands): ``cfv[t, h]``, the value of hand ``h`` at terminal ``t`` against
    the opponent's reach (:func:`_compatible`'s mass and :func:`_below_level`'s weaker
    and level masses, the same sums in the same order, fused: a third of the passes over
    the hands); at a showdown where the opponent's reach is zero on every hand the
    values are ``0.0`` (what the sums give) without the sweep.  ``one_card``: the
    showdown boards' rows of :func:`one_card_arrays`.  One loop with the arrays indexed
    whole (no row views) and a scratch vector of its own: the compiler keeps it lean."""
    # Kept whole (numba kernel): the loop over the terminals is the hot path.
    o = 1 - player
    hh = cfv.shape[1]
    cs = np.empty(hh + 1)
    for i in range(lo, hi):
        t = term_node[i]
        b = term_board[i]
        slot = max(term_slot[i], 0)
        pot = term_committed[i, 0] + term_committed[i, 1]
        paid = term_committed[i, player]
        w = term_weight[i]
        total = 0.0
        if term_live[i, 0] + term_live[i, 1] != 2:  # a fold
            for h in range(hh):
                total += compat[b, h] * reach[o, t, h]
            gain = pot if term_live[i, player] else 0.0
            for h in range(hh):
                cfv[t, h] = ((gain - paid) * (total - reach[o, t, h])) * w * compat[b, h]
            continue
        run = 0.0  # _one_card_sums: the prefix sums in strength order, beside the total
        cs[0] = run
        for j in range(hh):  # two independent chains of additions: they overlap
            total += compat[b, j] * reach[o, t, j]
            x = one_card[slot, 0, j]
            run = run + compat[b, x] * reach[o, t, x]
            cs[j + 1] = run
        if total == 0.0 and _zero(reach, o, t):  # every sum below is 0.0: so is each value
            for h in range(hh):
                cfv[t, h] = 0.0
            continue
        for h in range(hh):
            r = reach[o, t, h]
            below = cs[one_card[slot, 1, h]]  # less cs[0] = 0.0: the same
            level = (cs[one_card[slot, 2, h]] - below) - r
            cfv[t, h] = (pot * (below + 0.5 * level) - paid * (total - r)) * w * compat[b, h]


def one_card_arrays(sweep: tuple, n_players: int) -> np.ndarray:
    """Two players, one card a hand: per showdown board (slot) the rows ``(hand, lo,
    hi)`` of :func:`_one_card_terminals` as int32 ``(S, 3, H)``, from :func:`sweep_arrays`'
    ``sweep`` (its first level: the hands in strength order, and each hand's first
    and one-past-last position in its strength group, counted from the level's start
    at 0); ``(0, 3, 1)`` for other games (or should a level not start at 0)."""
    _, sub_id, _, _, sw_hand, _, sw_start, sw_lo, sw_hi = sweep
    hh = sub_id.shape[0]
    if n_players != 2 or sub_id.shape[1] != 2 or np.any(sw_start[:, :, 0] != 0):
        return np.zeros((0, 3, 1), dtype=np.int32)
    out = np.stack([sw_hand[:, :hh], sw_lo[:, :, 0], sw_hi[:, :, 0]], axis=1)
    return np.ascontiguousarray(out, dtype=np.int32)


@njit(nogil=True)
def terminals(
    player, lo, hi, reach, term_node, term_slot, term_board, term_live, term_committed, term_weight,
    compat, sub_id, sub_sign, n_sub, sw_hand, sw_level, sw_start, sw_lo, sw_hi, hand_pair,
    dense_w, dense_s, term_dense, one_card, cfv, m, cs, mass, b1, e1, b2, e2, b3, e3, tmp,
):  # fmt: skip
    """``player``'s counterfactual values at the terminals ``lo..hi - 1`` (rows
    ``term_node[lo:hi]`` of ``cfv``), weighted by the deal probability and the board's
    compatibility; each terminal's row is computed alone (scratch vectors overwritten).

    ``hand_pair`` (boards, H + 1, 4): where hands hold two cards (else empty), each
    board's :func:`pair_plan`: two players then take :func:`_pair_sweep`.  ``dense_w``
    (boards, R, R*R), non-empty for three players on rank pairs
    (:func:`toypoker.engines.vectors.layout.rank_hands`): the deal-count tensor of each board
    (:func:`_dense_terminal`); ``dense_s`` (groups, 3, R, R*R) each player's pot share
    times it at a showdown group, ``term_dense[i, player]`` (-1: the value is the one
    live player's pot less the chips paid).  ``one_card`` (slots, 3, H), non-empty for
    two players with one card a hand: :func:`one_card_arrays`, which :func:`_one_card_terminals`
    reads."""
    # Kept whole: one compiled loop (numba); splitting it costs a call and the unboxing
    # of its arguments per call.
    n = reach.shape[0]
    hh = reach.shape[2]
    if n == 2 and one_card.shape[0] > 0:  # a loop of its own: the compiler keeps it lean
        _one_card_terminals(player, lo, hi, reach, term_node, term_slot, term_board, term_live,
                            term_committed, term_weight, compat, one_card, cfv)  # fmt: skip
        return
    for i in range(lo, hi):
        t = term_node[i]
        pot = 0.0
        n_live = np.int64(0)  # not Literal[int](0): one specialization of _dense_terminal
        for q in range(n):
            pot += term_committed[i, q]
            n_live += term_live[i, q]
        paid = term_committed[i, player]
        me_live = term_live[i, player]
        slot = term_slot[i]
        wt = compat[term_board[i]]
        if dense_w.shape[0] > 0:  # three players, rank pairs
            _dense_terminal(
                player, reach[:, t], wt, dense_w[term_board[i]], dense_s,
                term_dense[i, player], pot, paid, n_live, me_live, m, mass, tmp,
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


def sweep_arrays(vg: VectorGame, terms: list) -> tuple[tuple, int, int]:
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


def pair_plan(vg: VectorGame) -> np.ndarray:
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


def dense_arrays(vg: VectorGame, terms: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three players on rank pairs: each board's deal-count tensor ``(B, R, R*R)`` and,
    per showdown group, each player's pot share times it ``(G, 3, R, R*R)`` (her hand
    first, the others in seat order), with each terminal's group per player
    ``(T, 3)``; empty otherwise.  Under a payoff map every terminal has a group (a
    fold too: the map shares the winner's pot) and each player's row mixes the
    players' shares by her row of ``A``."""
    if vg.rank_deals is None:
        empty = np.zeros((len(terms), 3), dtype=np.int64)
        return np.zeros((0, 1, 1)), np.zeros((0, 3, 1, 1)), empty
    rr, nb = vg.n_hands, len(vg.boards)
    # the own hand's copies come back as the kernel's last factor (``compat``)
    own = np.where(vg.hand_count > 0, 1.0 / np.where(vg.hand_count > 0, vg.hand_count, 1), 0)
    per_copy = vg.rank_deals * own[:, :, None, None]  # (B, R, R, R): symmetric but for axis 1
    w = np.ascontiguousarray(per_copy.reshape(nb, rr, rr * rr))
    mapped = vg.payoff is not None  # every terminal: the map mixes the players' shares
    shown = sorted({(g.board, g.live) for g, _ in terms if sum(g.live) > 1 or mapped})
    group_of = {key: j for j, key in enumerate(shown)}
    s = np.zeros((max(len(shown), 1), 3, rr, rr * rr))
    for (b, live), j in group_of.items():
        shares = pot_shares(vg.strength[b], live)
        for p in range(3):
            mix = vg.payoff[0][p] if vg.payoff is not None else None
            share = share_fraction(shares, p, False, mix) * vg.rank_deals[b]
            s[j, p] = np.moveaxis(share, p, 0).reshape(rr, rr * rr) * own[b][:, None]
    # per terminal and player: her share group; -1 where she takes the plain fold value
    # (a fold, or without a map a player who folded: no share, as the kernel's g < 0)
    term = np.array(
        [[group_of[(g.board, g.live)] if mapped or (sum(g.live) > 1 and g.live[p]) else -1
          for p in range(3)] for g, _ in terms],
        dtype=np.int64,
    ).reshape(len(terms), 3)  # fmt: skip
    return w, s, term
