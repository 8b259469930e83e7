"""Public subtrees on threads: the vector kernel's passes split below a cut.

Given the reach vectors at its root, the public tree below a node is independent of
its siblings.  :func:`split` cuts the tree at one depth (the shallowest with at least
:data:`MIN_SUBTREES` nodes, else the widest; then deeper while the part above it holds
at most :data:`TOP_SHARE` of the nodes and the next depth is wider: subtrees small
enough that a subtree's passes, one after the other, find each other's rows in the
cache) and orders the nodes and the terminals
segment by segment: the part above the cut (the *top*) first, then each subtree, each
in breadth-first order.  The passes then run segment by segment:

* forward reach: the top in the calling thread, then the subtrees on threads
  (:func:`par_reach`);
* terminal values and the backward pass with the instantaneous regrets: the subtrees
  on threads (:func:`par_values`), then the top; the best-response pass likewise
  (:func:`par_best`);
* the average accumulation and the regret update of the infosets in each subtree, in
  the same task (:func:`par_step`: one parallel region a player an iteration).

Every (node, hand) value and every flat action's sum is computed by one thread in the
order the serial pass uses (an infoset belongs to one decision node, so its sums never
cross subtrees), and the sums across subtrees (a node above the cut over its children)
run after all of them, in the fixed child order: the results are the same for every
thread count, bit for bit (``tests/engines/vectors/test_kernel_threads.py``).  Each thread takes
one *bin* of subtrees (:func:`threaded`: heaviest first to the least loaded bin, by their
nodes and terminals), a bin a thread: numba splits a parallel loop into equal
contiguous blocks of iterations whatever its chunk size (numba 0.68, OpenMP layer),
so a loop over the subtrees themselves, heaviest first, would give one thread the heavy
half and leave two threads no faster than one.  Each subtree's terminals allocate their own
scratch vectors.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from toypoker.engines.rows.best_response import first_best
from toypoker.engines.vectors.layout import VectorGame
from toypoker.engines.vectors.terminals import terminals
from toypoker.engines.vectors.update import rule_scalars, update_infoset
from toypoker.jit import njit

# the cut: the shallowest depth with at least this many nodes (enough to balance)
MIN_SUBTREES = 64
# ... then deeper while the top stays at most this share of the nodes: smaller subtrees,
# whose passes find what the pass before left in the cache
TOP_SHARE = 0.001


def split(
    vg: VectorGame, term_node: np.ndarray, infoset_node: np.ndarray, infoset_player: np.ndarray
) -> tuple[tuple, np.ndarray]:
    """The segments of ``vg``'s nodes, terminals and infosets.

    Parameters
    ----------
    vg
        The game.
    term_node
        The kernel's terminal node ids, in its terminal order.
    infoset_node
        Each infoset's decision node.
    infoset_player
        Each infoset's player (a segment's infosets go player by player, so that a
        player's update reads only hers: :func:`sub_update`).

    Returns
    -------
    tuple
        ``(order, seg, tseg, binned, iorder, iseg, bounds)``: ``order`` the node ids
        segment by segment (``seg[0]:seg[1]`` the top, ``seg[s + 1]:seg[s + 2]``
        subtree ``s``), ``tseg`` the same boundaries in the reordered terminals,
        ``iorder`` the infosets segment by segment and ``iseg`` their boundaries;
        ``binned`` the subtrees bin by bin and ``bounds`` the bins' boundaries in it
        (here one bin, heaviest first: :func:`threaded` deals them for a thread
        count).  A segment's infosets are in ascending order of (player, id).
    numpy.ndarray
        The permutation of the terminals into segment order.
    """
    nn = vg.n_nodes
    ds = np.asarray(vg.depth_start, dtype=np.int64)
    width = np.diff(ds)
    wide = np.nonzero(width[1:] >= MIN_SUBTREES)[0]
    d = int(wide[0] + 1) if len(wide) else int(np.argmax(width))
    if len(wide):
        while d + 2 < len(ds) and width[d + 1] > width[d] and ds[d + 1] <= TOP_SHARE * nn:
            d += 1
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
    i_root = root[infoset_node]
    iorder = np.lexsort((np.asarray(infoset_player), i_root)).astype(np.int64)
    iseg = np.searchsorted(i_root[iorder], np.arange(-1, n_sub + 1)).astype(np.int64)
    parts = (order, seg, tseg, np.zeros(0, dtype=np.int64), iorder, iseg, np.zeros(1, np.int64))
    return threaded(parts, 1), t_perm


def weights(parts: tuple) -> np.ndarray:
    """Each subtree's cost in the model the bins balance: its nodes plus four times its
    terminals (a terminal's values cost more than a node's sums; on Rhode Island
    (8 ranks) the heaviest subtree is 14% of the model's total and took 16% of the
    measured time)."""
    seg, tseg = parts[1], parts[2]
    return np.diff(seg)[1:] + 4 * np.diff(tseg)[1:]


def deal(weight: np.ndarray, k: int) -> list[np.ndarray]:
    """Items (0-based) for ``k`` bins: heaviest first to the least loaded bin (ties: the
    lowest), each bin's items heaviest first.

    Examples
    --------
    >>> [b.tolist() for b in deal(np.array([5, 1, 4, 2]), 2)]
    [[0, 1], [2, 3]]
    """
    loads = [0] * k
    out: list[list[int]] = [[] for _ in range(k)]
    for s in np.argsort(-np.asarray(weight), kind="stable"):
        i = min(range(k), key=lambda j: (loads[j], j))
        out[i].append(int(s))
        loads[i] += int(weight[s])
    return [np.array(x, dtype=np.int64) for x in out]


def threaded(parts: tuple, threads: int) -> tuple:
    """``parts`` with the subtrees dealt into ``threads`` bins (:func:`deal` of
    :func:`weights`), the ``binned`` order and ``bounds`` of :func:`split`."""
    dealt = deal(weights(parts), max(1, min(int(threads), len(parts[1]) - 2)))
    binned = np.concatenate(dealt + [np.zeros(0, dtype=np.int64)]).astype(np.int64)
    bounds = np.cumsum([0] + [len(b) for b in dealt]).astype(np.int64)
    return (*parts[:3], binned, parts[4], parts[5], bounds)


@njit(nogil=True)
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


@njit(nogil=True)
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


@njit(nogil=True)
def best_seg(player, sigma, sigma_fixed, order, lo, hi, edge_player, edge_sigma, child_lo,
             child_hi, cfv, total, ties, choice):  # fmt: skip
    """``player``'s best-response values up ``order[lo:hi]`` in place (terminal values
    set), as :func:`toypoker.engines.vectors.values.best_response_value`: at her decision nodes
    each free infoset takes the action whose values, summed over the infoset's hands,
    are largest, fixed actions keep ``sigma``.  ``total`` is a scratch vector over the
    flat actions.  ``ties``: ``(pad, tie_rtol, sigma_infoset)``, each infoset's flat
    actions in the order ties go by (``-1`` padding; the game's action order, or
    Ullman's) and the tie rule of :func:`toypoker.engines.rows.values.first_best` (the first action
    within ``tie_rtol`` times the infoset's largest absolute action value of the best;
    0: the first maximum).  ``choice`` (empty: not written): 1 at each free infoset's
    chosen action, 0 at its others."""
    pad, tie_rtol, sigma_infoset = ties
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
            e0 = edge_sigma[c0, h]
            if e0 < 0:
                continue  # the hand meets the board: never here
            x = 0.0
            if sigma_fixed[e0]:
                for c in range(c0, c1):
                    x += sigma[edge_sigma[c, h]] * cfv[c, h]
                cfv[q, h] = x
                continue
            row = pad[sigma_infoset[e0]]
            best = first_best(total, row, tie_rtol)
            for c in range(c0, c1):
                if edge_sigma[c, h] == best:
                    x = cfv[c, h]
            cfv[q, h] = x
            if choice.shape[0]:
                for a in row:
                    if a >= 0:
                        choice[a] = 1 if a == best else 0


@njit(nogil=True)
def sub_reach(s, player, sigma, tree, parts, reach):
    """Forward reach of ``player`` on segment ``s`` (0: the top, ``s + 1``: subtree
    ``s``)."""
    order, seg = parts[0], parts[1]
    reach_seg(player, sigma, order, seg[s], seg[s + 1], tree[0], tree[1], tree[2], tree[3],
              tree[4], tree[5], reach)  # fmt: skip


@njit(nogil=True, inline="always")
def _terminals(player, lo, hi, reach, terms, cfv, sizes):
    """:func:`~toypoker.engines.vectors.terminals.terminals` ``lo..hi - 1`` with scratch vectors of
    its own (``sizes``: the two scratch sizes, the hand count), whatever thread runs it."""
    t = terms
    m = np.zeros(sizes[0])
    cs = np.zeros(sizes[1])
    v = np.zeros((8, sizes[2]))
    terminals(
        player, lo, hi, reach, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10],
        t[11], t[12], t[13], t[14], t[15], t[16], t[17], t[18], t[19], cfv, m, cs, v[0], v[1],
        v[2], v[3], v[4], v[5], v[6], v[7],
    )  # fmt: skip


@njit(nogil=True)
def sub_values(s, player, sigma, reach, tree, terms, parts, cfv, inst, sizes):
    """Terminal values and the backward pass (with the instantaneous regrets) of
    ``player`` on segment ``s`` (0: the top, ``s + 1``: subtree ``s``)."""
    order, seg, tseg = parts[0], parts[1], parts[2]
    _terminals(player, tseg[s], tseg[s + 1], reach, terms, cfv, sizes)
    backward_seg(player, sigma, order, seg[s], seg[s + 1], tree[1], tree[2], tree[6], tree[7],
                 cfv, inst)  # fmt: skip


@njit(nogil=True)
def sub_best(s, player, sigma, sigma_fixed, tree, parts, cfv, total, ties, choice):
    """The best-response pass of ``player`` on segment ``s`` (:func:`best_seg`'s ``ties``
    and ``choice``), after :func:`sub_values` of the same player on the same reach: the
    terminal values it set are still in ``cfv`` (the backward pass writes no terminal),
    so they are not made again."""
    order, seg = parts[0], parts[1]
    best_seg(player, sigma, sigma_fixed, order, seg[s], seg[s + 1], tree[1], tree[2], tree[6],
             tree[7], cfv, total, ties, choice)  # fmt: skip


@njit(nogil=True, inline="always")
def _first_of(iorder, infoset_player, lo, hi, player):
    """The first ``j`` in ``lo..hi`` with ``infoset_player[iorder[j]] >= player``
    (``hi`` if none): a binary search, the players ascending there."""
    while lo < hi:
        mid = (lo + hi) // 2
        if infoset_player[iorder[mid]] < player:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(nogil=True)
def sub_update(s, player, sigma, regrets, average, inst, weight, reach, rule, infos, parts):
    """Segment ``s``'s infosets: the average accumulation (``weight`` times the owner's
    reach at the infoset times ``sigma``, free flat actions) and the regret update of
    ``player``'s infosets (``player < 0``: every player's, ``inst[owner]``), by
    :func:`~.update.update_infoset` (the row layout's arithmetic).  ``rule``: the
    float64 vector (pos_discount, neg_discount, floor, predictive, predict_discount,
    predict_neg_discount, tolerance), flags as 0/1.  (Never name a parallel loop's
    variable ``sched``: numba's loop function has a parameter of that name, and a tuple
    of that name ran no iteration, silently, in numba 0.68.)"""
    rep_node, rep_hand, sigma_free, infoset_player, infoset_free, offset = infos
    iorder, iseg = parts[4], parts[5]
    first, last = iseg[s], iseg[s + 1]
    if player >= 0:  # the segment's infosets go player by player: hers only
        first = _first_of(iorder, infoset_player, first, last, player)
        last = _first_of(iorder, infoset_player, first, last, player + 1)
    rs = rule_scalars(rule)
    for j in range(first, last):
        i = iorder[j]
        p = infoset_player[i]
        lo = offset[i]
        hi = offset[i + 1]
        wr = weight * reach[p, rep_node[i], rep_hand[i]] if weight != 0.0 else 0.0
        if infoset_free[i]:  # the accumulation in the update's pass
            update_infoset(lo, hi, sigma, regrets, inst, p if player < 0 else 0, rs, average,
                           wr, sigma_free)  # fmt: skip
        elif wr != 0.0:  # adding 0 * sigma leaves the sums as they are
            for a in range(lo, hi):
                if sigma_free[a]:
                    average[a] += wr * sigma[a]


@njit(nogil=True)
def sub_step(s, reach_of, values_of, update_of, sigma, regrets, average, inst, weight, rule,
             tree, terms, parts, infos, reach, cfv, sizes):  # fmt: skip
    """One segment's share of an iteration, in order: the forward reach of player
    ``reach_of`` (``-1``: every player; ``-2``: none), the values and instantaneous
    regrets of ``values_of`` (into ``inst[0]`` when alternating, i.e. ``update_of >=
    0``, else ``inst[values_of]``; ``-1``: none), the accumulation and regret update of
    ``update_of``'s infosets (``-1``: every player's; ``-2``: none)."""
    if reach_of == -1:
        for q in range(reach.shape[0]):
            sub_reach(s, q, sigma, tree, parts, reach[q])
    elif reach_of >= 0:
        sub_reach(s, reach_of, sigma, tree, parts, reach[reach_of])
    if values_of >= 0:
        own = inst[0] if update_of >= 0 else inst[values_of]
        sub_values(s, values_of, sigma, reach, tree, terms, parts, cfv, own, sizes)
    if update_of != -2:
        sub_update(s, update_of, sigma, regrets, average, inst, weight, reach, rule, infos,
                   parts)  # fmt: skip


@njit(parallel=True)
def par_reach(player, sigma, tree, parts, reach):
    """:func:`sub_reach` on every subtree, on numba's threads (a bin a thread)."""
    binned, bounds = parts[3], parts[6]
    for b in prange(bounds.shape[0] - 1):
        for j in range(bounds[b], bounds[b + 1]):
            sub_reach(binned[j] + 1, player, sigma, tree, parts, reach)


@njit(parallel=True)
def par_values(player, sigma, reach, tree, terms, parts, cfv, inst, sizes):
    """:func:`sub_values` on every subtree, on numba's threads (a bin a thread)."""
    binned, bounds = parts[3], parts[6]
    for b in prange(bounds.shape[0] - 1):
        for j in range(bounds[b], bounds[b + 1]):
            sub_values(binned[j] + 1, player, sigma, reach, tree, terms, parts, cfv, inst,
                       sizes)  # fmt: skip


@njit(parallel=True)
def par_best(player, sigma, sigma_fixed, tree, parts, cfv, total, ties, choice):
    """:func:`sub_best` on every subtree, on numba's threads (a bin a thread)."""
    binned, bounds = parts[3], parts[6]
    for b in prange(bounds.shape[0] - 1):
        for j in range(bounds[b], bounds[b + 1]):
            sub_best(binned[j] + 1, player, sigma, sigma_fixed, tree, parts, cfv, total, ties,
                     choice)  # fmt: skip


@njit(parallel=True)
def par_step(reach_of, values_of, update_of, sigma, regrets, average, inst, weight, rule, tree,
             terms, parts, infos, reach, cfv, sizes):  # fmt: skip
    """:func:`sub_step` on every subtree, on numba's threads (a bin a thread)."""
    binned, bounds = parts[3], parts[6]
    for b in prange(bounds.shape[0] - 1):
        for j in range(bounds[b], bounds[b + 1]):
            sub_step(binned[j] + 1, reach_of, values_of, update_of, sigma, regrets, average,
                     inst, weight, rule, tree, terms, parts, infos, reach, cfv, sizes)  # fmt: skip
