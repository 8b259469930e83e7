"""Public subtrees on threads: the vector kernel's passes split below a cut (issue 36).

Given the reach vectors at its root, the public tree below a node is independent of
its siblings.  :func:`split` cuts the tree at one depth (the shallowest with at least
:data:`MIN_SUBTREES` nodes, else the widest) and orders the nodes and the terminals
segment by segment: the part above the cut (the *top*) first, then each subtree, each
in breadth-first order.  The passes then run segment by segment:

* forward reach: the top in the calling thread, then the subtrees on threads
  (:func:`par_reach`);
* terminal values and the backward pass with the instantaneous regrets: the subtrees
  on threads (:func:`par_values`), then the top; the best-response pass likewise
  (:func:`par_best`);
* the average accumulation and the regret update: blocks of infosets on threads
  (:func:`par_update`).

Every (node, hand) value and every flat action's sum is computed by one thread in the
order the serial pass uses (an infoset belongs to one decision node, so its sums never
cross subtrees), and the sums across subtrees (a node above the cut over its children)
run after all of them, in the fixed child order: the results are the same for every
thread count, bit for bit (``tests/vector/test_kernel_threads.py``).  The threads take
the subtrees heaviest first, one at a time (numba's chunk size 1, set by the caller:
:meth:`toypoker.vector.kernel.VectorKernel.iteration`), so a busy core does not hold
the others back; each subtree's terminals allocate their own scratch vectors.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..kernels.cfr import update_infoset
from .layout import VectorGame
from .terminals import terminals

# the cut: the shallowest depth with at least this many nodes (enough to balance)
MIN_SUBTREES = 64
# infoset blocks of the update pass
UPDATE_BLOCKS = 256


def split(vg: VectorGame, term_node: np.ndarray) -> tuple[tuple, np.ndarray]:
    """The segments of ``vg``'s nodes and terminals.

    Parameters
    ----------
    vg
        The game.
    term_node
        The kernel's terminal node ids, in its terminal order.

    Returns
    -------
    tuple
        ``(order, seg, tseg, by_weight, blocks)``: ``order`` the node ids segment by
        segment (``seg[0]:seg[1]`` the top, ``seg[s + 1]:seg[s + 2]`` subtree ``s``),
        ``tseg`` the same boundaries in the reordered terminals, ``by_weight`` the
        subtrees heaviest first, ``blocks`` the infoset block boundaries.
    numpy.ndarray
        The permutation of the terminals into segment order.
    """
    nn = vg.n_nodes
    ds = np.asarray(vg.depth_start, dtype=np.int64)
    width = np.diff(ds)
    wide = np.nonzero(width[1:] >= MIN_SUBTREES)[0]
    d = int(wide[0] + 1) if len(wide) else int(np.argmax(width))
    root = np.full(nn, -1, dtype=np.int64)  # each node's subtree (-1: the top)
    root[ds[d] : ds[d + 1]] = np.arange(width[d])
    parent = np.asarray(vg.parent, dtype=np.int64)
    for k in range(d + 1, len(width)):  # depth by depth: parents first
        root[ds[k] : ds[k + 1]] = root[parent[ds[k] : ds[k + 1]]]
    n_sub = int(width[d])
    order = np.argsort(root, kind="stable").astype(np.int64)  # top (-1) first
    seg = np.searchsorted(root[order], np.arange(-1, n_sub + 1)).astype(np.int64)
    t_root = root[term_node]
    t_perm = np.argsort(t_root, kind="stable")
    tseg = np.searchsorted(t_root[t_perm], np.arange(-1, n_sub + 1)).astype(np.int64)
    weight = np.diff(seg)[1:] + 4 * np.diff(tseg)[1:]  # terminals cost more than nodes
    by_weight = np.argsort(-weight, kind="stable").astype(np.int64)
    n_infosets = vg.game.n_infosets
    blocks = np.linspace(0, n_infosets, min(UPDATE_BLOCKS, n_infosets) + 1).astype(np.int64)
    return (order, seg, tseg, by_weight, np.unique(blocks)), t_perm


@njit(cache=True, nogil=True)
def reach_seg(player, sigma, order, lo, hi, parent, edge_player, edge_sigma, chance_child,
              node_board, compat, reach):  # fmt: skip
    """``reach[t, h]``, ``player``'s own probability of reaching ``t`` holding ``h``
    (zero where ``h`` meets ``t``'s board), for ``t`` in ``order[lo:hi]`` (parents
    first)."""
    hh = reach.shape[1]
    for j in range(lo, hi):
        t = order[j]
        if t == 0:
            for h in range(hh):
                reach[0, h] = 1.0
            continue
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
def backward_seg(player, sigma, order, lo, hi, edge_player, edge_sigma, child_lo, child_hi, cfv,
                 inst):  # fmt: skip
    """Values up ``order[lo:hi]`` in place, deepest first: a node's ``cfv`` is the sum
    over its children (the player's edges weighted by ``sigma``), terminals keep
    theirs; each of her edges credits ``cfv[child] - cfv[node]`` to its flat action
    (set here: an infoset's flat actions belong to one node's edges)."""
    hh = cfv.shape[1]
    for j in range(hi - 1, lo - 1, -1):
        q = order[j]
        c0 = child_lo[q]
        c1 = child_hi[q]
        if c0 == c1:
            continue  # a terminal: its values are set
        own = edge_player[c0] == player
        for h in range(hh):
            cfv[q, h] = 0.0
        for c in range(c0, c1):
            if own:
                for h in range(hh):
                    e = edge_sigma[c, h]
                    if e >= 0:
                        cfv[q, h] += sigma[e] * cfv[c, h]
                        inst[e] = 0.0
            else:
                for h in range(hh):
                    cfv[q, h] += cfv[c, h]
        if own:
            for c in range(c0, c1):
                for h in range(hh):
                    e = edge_sigma[c, h]
                    if e >= 0:
                        inst[e] += cfv[c, h] - cfv[q, h]


@njit(cache=True, nogil=True)
def best_seg(player, sigma, sigma_fixed, order, lo, hi, edge_player, edge_sigma, child_lo,
             child_hi, cfv, total):  # fmt: skip
    """``player``'s best-response values up ``order[lo:hi]`` in place (terminal values
    set), as :func:`toypoker.vector.values.best_response_value`: at her decision nodes
    each free infoset takes the action whose values, summed over the infoset's hands,
    are largest (the first such in action order), fixed actions keep ``sigma``.
    ``total`` is a scratch vector over the flat actions."""
    hh = cfv.shape[1]
    for j in range(hi - 1, lo - 1, -1):
        q = order[j]
        c0 = child_lo[q]
        c1 = child_hi[q]
        if c0 == c1:
            continue
        for h in range(hh):
            cfv[q, h] = 0.0
        if edge_player[c0] != player:
            for c in range(c0, c1):
                for h in range(hh):
                    cfv[q, h] += cfv[c, h]
            continue
        for c in range(c0, c1):
            for h in range(hh):
                e = edge_sigma[c, h]
                if e >= 0:
                    total[e] = 0.0
        for c in range(c0, c1):
            for h in range(hh):
                e = edge_sigma[c, h]
                if e >= 0:
                    total[e] += cfv[c, h]
        for h in range(hh):
            best = -1
            for c in range(c0, c1):
                e = edge_sigma[c, h]
                if e >= 0 and not sigma_fixed[e]:
                    if best < 0 or total[e] > total[edge_sigma[best, h]]:
                        best = c
            x = 0.0
            for c in range(c0, c1):
                e = edge_sigma[c, h]
                if e < 0:
                    continue
                if sigma_fixed[e]:
                    x += sigma[e] * cfv[c, h]
                elif c == best:
                    x += cfv[c, h]
            cfv[q, h] = x


@njit(cache=True, nogil=True)
def sub_reach(s, player, sigma, tree, parts, reach):
    """Forward reach of ``player`` on segment ``s`` (0: the top, ``s + 1``: subtree
    ``s``)."""
    order, seg = parts[0], parts[1]
    reach_seg(player, sigma, order, seg[s], seg[s + 1], tree[0], tree[1], tree[2], tree[3],
              tree[4], tree[5], reach)  # fmt: skip


@njit(cache=True, nogil=True)
def _terminals(player, lo, hi, reach, terms, cfv, sizes):
    """:func:`~toypoker.vector.terminals.terminals` ``lo..hi - 1`` with scratch vectors of
    its own (``sizes``: the two scratch sizes, the hand count), whatever thread runs it."""
    t = terms
    m = np.zeros(sizes[0])
    cs = np.zeros(sizes[1])
    v = np.zeros((8, sizes[2]))
    terminals(
        player, lo, hi, reach, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10],
        t[11], t[12], t[13], t[14], t[15], t[16], t[17], t[18], cfv, m, cs, v[0], v[1], v[2],
        v[3], v[4], v[5], v[6], v[7],
    )  # fmt: skip


@njit(cache=True, nogil=True)
def sub_values(s, player, sigma, reach, tree, terms, parts, cfv, inst, sizes):
    """Terminal values and the backward pass (with the instantaneous regrets) of
    ``player`` on segment ``s`` (0: the top, ``s + 1``: subtree ``s``)."""
    order, seg, tseg = parts[0], parts[1], parts[2]
    _terminals(player, tseg[s], tseg[s + 1], reach, terms, cfv, sizes)
    backward_seg(player, sigma, order, seg[s], seg[s + 1], tree[1], tree[2], tree[6], tree[7],
                 cfv, inst)  # fmt: skip


@njit(cache=True, nogil=True)
def sub_best(s, player, sigma, sigma_fixed, reach, tree, terms, parts, cfv, total, sizes):
    """Terminal values and the best-response pass of ``player`` on segment ``s``."""
    order, seg, tseg = parts[0], parts[1], parts[2]
    _terminals(player, tseg[s], tseg[s + 1], reach, terms, cfv, sizes)
    best_seg(player, sigma, sigma_fixed, order, seg[s], seg[s + 1], tree[1], tree[2], tree[6],
             tree[7], cfv, total)  # fmt: skip


@njit(cache=True, nogil=True)
def sub_update(b, player, sigma, regrets, average, inst, weight, reach, rule, infos):
    """Infoset block ``b``: the average accumulation (``weight`` times the owner's reach
    at the infoset times ``sigma``, free flat actions) and the regret update of
    ``player``'s infosets (``player < 0``: every player's, ``inst[owner]``).  ``rule``:
    the float64 vector (pos_discount, neg_discount, floor, predictive, predict_discount,
    predict_neg_discount, tolerance), flags as 0/1.  (Never name a parallel loop's
    variable ``sched``: numba's loop function has a parameter of that name, and a tuple
    of that name ran no iteration, silently, in numba 0.68.)"""
    rep_node, rep_hand, sigma_free, infoset_player, infoset_free, offset, blocks = infos
    for i in range(blocks[b], blocks[b + 1]):
        p = infoset_player[i]
        if player >= 0 and p != player:
            continue
        lo = offset[i]
        hi = offset[i + 1]
        if weight != 0.0:
            r = reach[p, rep_node[i], rep_hand[i]]
            for s in range(lo, hi):
                if sigma_free[s]:
                    average[s] += weight * r * sigma[s]
        if infoset_free[i]:
            update_infoset(lo, hi, sigma, regrets, inst[p if player < 0 else 0], rule[0],
                           rule[1], rule[2] != 0.0, rule[3] != 0.0, rule[4], rule[5],
                           rule[6])  # fmt: skip


@njit(cache=True, parallel=True)
def par_reach(player, sigma, tree, parts, reach):
    """:func:`sub_reach` on every subtree, on numba's threads."""
    by_weight = parts[3]
    for i in prange(by_weight.shape[0]):
        sub_reach(by_weight[i] + 1, player, sigma, tree, parts, reach)


@njit(cache=True, parallel=True)
def par_values(player, sigma, reach, tree, terms, parts, cfv, inst, sizes):
    """:func:`sub_values` on every subtree, on numba's threads."""
    by_weight = parts[3]
    for i in prange(by_weight.shape[0]):
        sub_values(by_weight[i] + 1, player, sigma, reach, tree, terms, parts, cfv, inst, sizes)


@njit(cache=True, parallel=True)
def par_best(player, sigma, sigma_fixed, reach, tree, terms, parts, cfv, total, sizes):
    """:func:`sub_best` on every subtree, on numba's threads."""
    by_weight = parts[3]
    for i in prange(by_weight.shape[0]):
        sub_best(by_weight[i] + 1, player, sigma, sigma_fixed, reach, tree, terms, parts, cfv,
                 total, sizes)  # fmt: skip


@njit(cache=True, parallel=True)
def par_update(player, sigma, regrets, average, inst, weight, reach, rule, infos):
    """:func:`sub_update` on every infoset block, on numba's threads."""
    for b in prange(infos[6].shape[0] - 1):
        sub_update(b, player, sigma, regrets, average, inst, weight, reach, rule, infos)
