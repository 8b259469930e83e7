"""The compiled forward and backward passes the CFR and best-response kernels share.

The loops run node by node over the public tree (nodes in depth order, each
a contiguous slice of rows, one row per deal that reaches it).  The children
of a decision node hold the same deals in the same order as the node, so
their parent rows are a contiguous slice too (``parent = offset + row``, no
gather); only children of chance nodes gather ``parent[r]``.  Which
reference pass of :mod:`toypoker.engines.rows.values` each function equals is said in
its docstring; the tests in ``tests/engines/rows`` check the equality to 1e-12.

Node arrays (see :class:`~.arrays.GameArrays`): ``depth_node_start``,
``node_row_start``, ``node_parent_row_start`` (first row of the parent node),
``node_edge_actor`` (actor of the parent node, ``-1`` if chance),
``node_term_start`` (first column in ``term_u`` of a terminal node, else -1).
"""

from __future__ import annotations

from toypoker.jit import njit


@njit(nogil=True, inline="always")
def forward_cf(
    player, sigma, depth_node_start, node_row_start, node_parent_row_start, node_edge_actor,
    parent, es, root_w, cf,
):  # fmt: skip
    """Counterfactual reach of ``player`` at every row, into ``cf``.

    ``cf[r]`` = chance probability of the deal times the product of the
    *other* players' action probabilities on the path to ``r``: equals
    ``values.counterfactual_reach(game, values.reaches(game, eprob), player)``
    (one forward sweep, only over ``player``'s opponents).
    """
    n0 = depth_node_start[1]
    for r in range(node_row_start[n0]):
        cf[r] = root_w[r]
    for c in range(n0, node_row_start.shape[0] - 1):
        a = node_row_start[c]
        b = node_row_start[c + 1]
        actor = node_edge_actor[c]
        if actor < 0:  # after chance: the deals are a subset of the parent's
            for r in range(a, b):
                cf[r] = cf[parent[r]]
            continue
        off = node_parent_row_start[c] - a
        if actor == player:
            for r in range(a, b):
                cf[r] = cf[off + r]
        else:
            for r in range(a, b):
                cf[r] = cf[off + r] * sigma[es[r]]


@njit(nogil=True, inline="always")
def init_values(player, n0, n1, node_row_start, node_term_start, term_u, v):
    """``v`` on the rows of nodes ``n0:n1``: terminal payoffs of ``player``, 0 elsewhere."""
    for c in range(n0, n1):
        a = node_row_start[c]
        b = node_row_start[c + 1]
        k = node_term_start[c] - a
        if node_term_start[c] >= 0:
            for r in range(a, b):
                v[r] = term_u[player, k + r]
        else:
            for r in range(a, b):
                v[r] = 0.0


@njit(nogil=True)
def backward_regrets(
    player, sigma, depth_node_start, node_row_start, node_parent_row_start, node_edge_actor,
    node_term_start, parent, es, term_u, sigma_player, sigma_free, cf, v, inst,
):  # fmt: skip
    """Values of ``player`` at every row (into ``v``) and its instantaneous regrets.

    ``v`` equals ``values.backward_values(game, eprob, [player])[0]`` (same
    summation order: bit for bit).  For every free sequence ``s`` of
    ``player``, ``inst[s]`` is set to
    ``sum over rows r with edge_sigma[r] == s of cf[parent[r]] * (v[r] - v[parent[r]])``,
    the counterfactual regret of ``solvers.cfr._instant_regrets``; other
    entries of ``inst`` are left alone.  Returns ``player``'s root value
    ``sum_d w[d] v[root row of d]`` (``values.root_value``) -- needs ``cf``
    from :func:`forward_cf` for the same player (it holds ``w`` at the root).
    """
    n_depths = depth_node_start.shape[0] - 1
    for s in range(inst.shape[0]):
        if sigma_player[s] == player and sigma_free[s]:
            inst[s] = 0.0
    init_values(
        player, depth_node_start[n_depths - 1], depth_node_start[n_depths], node_row_start,
        node_term_start, term_u, v,
    )  # fmt: skip
    for t in range(n_depths - 1, 0, -1):
        init_values(
            player, depth_node_start[t - 1], depth_node_start[t], node_row_start,
            node_term_start, term_u, v,
        )  # fmt: skip
        c0 = depth_node_start[t]
        c1 = depth_node_start[t + 1]
        for c in range(c0, c1):  # values of depth t - 1 (one weighted sum per parent)
            a = node_row_start[c]
            b = node_row_start[c + 1]
            if node_edge_actor[c] < 0:
                for r in range(a, b):
                    v[parent[r]] += v[r]
            else:
                off = node_parent_row_start[c] - a
                for r in range(a, b):
                    v[off + r] += sigma[es[r]] * v[r]
        for c in range(c0, c1):  # regrets credited straight into the sequence slots
            if node_edge_actor[c] != player:
                continue
            a = node_row_start[c]
            off = node_parent_row_start[c] - a
            for r in range(a, node_row_start[c + 1]):
                s = es[r]
                if sigma_free[s]:
                    inst[s] += cf[off + r] * (v[r] - v[off + r])
    total = 0.0
    for r in range(node_row_start[depth_node_start[1]]):
        total += cf[r] * v[r]
    return total


@njit(nogil=True)
def own_reach(player, sigma, infoset_player, infoset_parent_seq, sigma_infoset, own):
    """Own reach of each of ``player``'s infosets, into ``own`` (others untouched).

    Equals ``values.reaches(game, eprob)[player][game.infoset_rep_row]`` (the
    same product, in path order): one step per infoset instead of per row.
    """
    for i in range(own.shape[0]):
        if infoset_player[i] != player:
            continue
        s = infoset_parent_seq[i]
        own[i] = 1.0 if s < 0 else own[sigma_infoset[s]] * sigma[s]
