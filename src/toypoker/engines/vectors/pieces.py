"""A piece of the vector kernel: the top and some public subtrees, re-indexed.

A sharded solve (:mod:`toypoker.engines.sharded`) gives each Dask worker some of
the subtrees below the cut of :func:`~.subtrees.split`.  :func:`cut_piece` keeps of a
:class:`~toypoker.engines.vectors.kernel.VectorKernel` only what those subtrees read and write:
their nodes and the top's (the reach at a subtree's root reads its parent's), their
terminals, their infosets and the top's, and the flat actions of those infosets, each
set re-numbered in ascending order of its ids in the whole game (so a node's children
stay consecutive, as :func:`~.subtrees.backward_seg` needs).  Arrays indexed by boards or
hands (the sweep positions, the card-subset incidence) are kept whole: they do not grow
with the tree.  The piece's arrays have the kernel's types, so the same compiled
segment functions run on it (:func:`~.subtrees.sub_step` with the piece's segment ids,
``1..m`` for its ``m`` subtrees), and its work buffers (reach, values, instantaneous
regrets) hold its nodes and actions only: a worker holding ``1/k`` of the subtrees holds
about ``1/k`` of the kernel's memory, plus the top.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from toypoker.engines.vectors.kernel import VectorKernel

# the kernel's terms indexed by terminal (the rest are indexed by boards or hands):
# nodes, sweep slot, board, live players, chips charged, weight, dense group
_PER_TERMINAL = (0, 1, 2, 3, 4, 5, 18)


@dataclass(eq=False)
class ShardPiece:
    """The arrays of :class:`~toypoker.engines.vectors.kernel.VectorKernel` for the top and some
    subtrees (:func:`cut_piece`), and where the whole game's ids land in them.

    ``tree``, ``terms``, ``parts``, ``infos``, ``work`` and ``sizes`` are the kernel's
    attributes of the same names over the piece; ``n_sigma`` its flat actions.  The
    ``*_at`` arrays are local positions: ``top_nodes_at[j]`` of the whole game's
    ``top_nodes[j]`` (the top's nodes in ascending order), ``roots_at`` of the subtrees'
    roots (in the order asked), ``top_actions_at`` and ``mine_at`` of the top's and the
    subtrees' flat actions (each in ascending order of the whole game's ids).
    """

    tree: tuple
    terms: tuple
    parts: tuple
    infos: tuple
    work: tuple
    sizes: np.ndarray
    n_sigma: int
    top_nodes_at: np.ndarray
    roots_at: np.ndarray
    top_actions_at: np.ndarray
    mine_at: np.ndarray

    def nbytes(self) -> int:
        """The bytes of the piece's arrays (what a worker holds besides Python)."""
        arrays = [*self.tree, *self.terms, *self.parts, *self.infos, *self.work]
        return sum(a.nbytes for a in arrays if isinstance(a, np.ndarray))

    def payload(self) -> dict[str, Any]:
        """The piece as numpy arrays, numbers and lists of them, its work buffers left
        out (zeros, made where it runs: :meth:`from_payload`): what the driver of a
        sharded solve sends a worker."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        reach = out.pop("work")[0]
        out["players"], _, out["hands"] = reach.shape
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ShardPiece:
        """The piece of :meth:`payload`, with fresh work buffers.

        Examples
        --------
        >>> from toypoker import load_game
        >>> from toypoker.engines.evaluation import vector_of
        >>> from toypoker.engines.vectors.kernel import vector_kernel
        >>> k = vector_kernel(vector_of(load_game("kuhn(players=3)", layout="vector")))
        >>> p = cut_piece(k, np.arange(2), work=False)
        >>> q = ShardPiece.from_payload(p.payload())
        >>> [a.shape for a in q.work] == [(3, len(q.tree[0]), 4), (len(q.tree[0]), 4),
        ...                               (3, q.n_sigma)]
        True
        """
        got = {k: tuple(v) if isinstance(v, list) else v for k, v in payload.items()}
        players, hands = int(got.pop("players")), int(got.pop("hands"))
        return cls(**got, work=_work(players, len(got["tree"][0]), hands, int(got["n_sigma"])))


def _work(players: int, nodes: int, hands: int, actions: int) -> tuple[np.ndarray, ...]:
    """A piece's work buffers: reach (players x nodes x hands), values (nodes x hands)
    and instantaneous regrets (players x actions), zeros."""
    return (np.zeros((players, nodes, hands)), np.zeros((nodes, hands)),
            np.zeros((players, actions)))  # fmt: skip


def _ranges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The concatenation of ``arange(lo[i], hi[i])`` (int64)."""
    lo, hi = np.asarray(lo, dtype=np.int64), np.asarray(hi, dtype=np.int64)
    n = hi - lo
    if n.sum() == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.repeat(lo - np.concatenate([[0], np.cumsum(n)[:-1]]), n)
    return (starts + np.arange(n.sum())).astype(np.int64)


def _local(ids: np.ndarray, size: int) -> np.ndarray:
    """``out[g]``: the position of ``g`` in the sorted ``ids`` (-1 for the others)."""
    out = np.full(size, -1, dtype=np.int64)
    out[ids] = np.arange(len(ids))
    return out


def segment_actions(k: VectorKernel, segments: np.ndarray) -> np.ndarray:
    """The flat actions of the infosets in ``segments`` (0: the top, ``s + 1``: subtree
    ``s``), in ascending order: what the driver sends a piece and gathers from it."""
    iorder, iseg, offset = k.parts[4], k.parts[5], k.infos[5]
    parts = [iorder[iseg[s] : iseg[s + 1]] for s in np.asarray(segments, dtype=np.int64)]
    infosets = np.concatenate(parts + [np.zeros(0, dtype=np.int64)]).astype(np.int64)
    return np.sort(_ranges(offset[infosets], offset[infosets + 1]))


def cut_piece(k: VectorKernel, subtrees: np.ndarray, work: bool = True) -> ShardPiece:
    """The piece of ``k`` that runs ``subtrees`` (0-based subtree ids, ascending);
    ``work=False``: its work buffers empty but shaped (the driver of a sharded solve
    cuts the pieces it sends: the workers make their own buffers).

    Examples
    --------
    >>> from toypoker import load_game
    >>> from toypoker.engines.evaluation import vector_of
    >>> from toypoker.engines.vectors.kernel import vector_kernel
    >>> k = vector_kernel(vector_of(load_game("rhode_island(ranks=4,suits=2)",
    ...                                       layout="vector")))
    >>> n_sub = len(k.parts[1]) - 2
    >>> half = cut_piece(k, np.arange(n_sub // 2))
    >>> 0.4 < half.work[1].size / k.work[1].size < 0.6
    True
    """
    order, seg, _, _, iorder, iseg, _ = k.parts
    segs = np.concatenate([[0], np.asarray(subtrees, dtype=np.int64) + 1])
    n_nodes, n_hands = k.work[1].shape
    # nodes: the kept segments' (each segment's in ascending id order already)
    by_seg = [order[seg[s] : seg[s + 1]] for s in segs]
    nodes = np.sort(np.concatenate(by_seg))
    node_at = _local(nodes, n_nodes)
    # infosets, and their flat actions (ascending infoset ids: ascending action ids)
    offset = k.infos[5]
    infosets = np.sort(np.concatenate([iorder[iseg[s] : iseg[s + 1]] for s in segs]))
    info_at = _local(infosets, len(offset) - 1)
    actions = _ranges(offset[infosets], offset[infosets + 1])
    action_at = _local(actions, len(k.infos[2]))
    return ShardPiece(
        tree=_piece_tree(k, nodes, node_at, action_at, by_seg[0]),
        terms=_piece_terms(k, segs, node_at),
        parts=_piece_parts(k, segs, by_seg, node_at, info_at),
        infos=_piece_infos(k, infosets, actions, node_at),
        work=_piece_work(k.work[0].shape[0], len(nodes), n_hands, len(actions), work),
        sizes=k.sizes.copy(),
        n_sigma=len(actions),
        top_nodes_at=node_at[np.sort(by_seg[0])],
        roots_at=node_at[order[seg[segs[1:]]]],
        top_actions_at=action_at[segment_actions(k, segs[:1])],
        mine_at=action_at[segment_actions(k, segs[1:])],
    )


def _piece_tree(
    k: VectorKernel, nodes: np.ndarray, node_at: np.ndarray, action_at: np.ndarray,
    top: np.ndarray,
) -> tuple[np.ndarray, ...]:  # fmt: skip
    """The kernel's tree arrays over the piece's ``nodes``: parents, edge actions and
    child ranges as local positions (``node_at``, ``action_at``), the child ranges
    empty at the top's nodes ``top`` (their sums run on the driver, never here)."""
    n_nodes = len(node_at)
    parent, edge_player, edge_sigma, chance_child, node_board, compat, lo, hi = k.tree
    lo_l = node_at[np.minimum(lo[nodes], n_nodes - 1)]
    inside = hi[nodes] > lo[nodes]
    inside[node_at[top]] = False  # the top's sums run on the driver, never here
    child_lo = np.where(inside, lo_l, 0).astype(np.int64)
    child_hi = np.where(inside, lo_l + hi[nodes] - lo[nodes], 0).astype(np.int64)
    es = edge_sigma[nodes]
    return (
        np.where(parent[nodes] >= 0, node_at[np.maximum(parent[nodes], 0)], -1),
        edge_player[nodes],
        np.where(es >= 0, action_at[np.maximum(es, 0)], -1).astype(es.dtype),
        chance_child[nodes],
        node_board[nodes],
        compat,
        child_lo,
        child_hi,
    )


def _piece_terms(k: VectorKernel, segs: np.ndarray, node_at: np.ndarray) -> tuple[Any, ...]:
    """The kernel's terms over the terminals of the segments ``segs``, segment by
    segment, their nodes as local positions (``node_at``); the terms indexed by boards
    or hands kept whole."""
    tseg = k.parts[2]
    t_idx = _ranges(tseg[segs], tseg[segs + 1])
    terms = list(k.terms)
    for i in _PER_TERMINAL:
        terms[i] = np.ascontiguousarray(terms[i][t_idx]) if len(terms[i]) else terms[i]
    terms[0] = node_at[terms[0]]
    return tuple(terms)


def _piece_parts(
    k: VectorKernel, segs: np.ndarray, by_seg: list[np.ndarray], node_at: np.ndarray,
    info_at: np.ndarray,
) -> tuple[np.ndarray, ...]:  # fmt: skip
    """The piece's segments: the top (local segment 0), then the subtrees in the order
    of ``segs``; each segment's nodes (``by_seg``), terminals and infosets as local
    positions, with their boundaries."""
    tseg, iorder, iseg = k.parts[2], k.parts[4], k.parts[5]
    sizes = [len(x) for x in by_seg]
    t_sizes = (tseg[segs + 1] - tseg[segs]).tolist()
    i_by_seg = [info_at[iorder[iseg[s] : iseg[s + 1]]] for s in segs]
    cum = np.cumsum  # boundaries from sizes
    return (
        node_at[np.concatenate(by_seg)],
        cum([0, *sizes]).astype(np.int64),
        cum([0, *t_sizes]).astype(np.int64),
        np.zeros(0, dtype=np.int64),
        np.concatenate(i_by_seg).astype(np.int64),
        cum([0, *(len(x) for x in i_by_seg)]).astype(np.int64),
        np.zeros(1, dtype=np.int64),
    )


def _piece_infos(
    k: VectorKernel, infosets: np.ndarray, actions: np.ndarray, node_at: np.ndarray
) -> tuple[np.ndarray, ...]:
    """The kernel's infoset arrays over the piece's ``infosets`` and their flat
    ``actions``: representative nodes as local positions (``node_at``), action offsets
    re-counted from 0."""
    rep_node, rep_hand, free, player, unrestricted, offset = k.infos
    n_act = offset[infosets + 1] - offset[infosets]
    return (
        node_at[rep_node[infosets]],
        rep_hand[infosets],
        free[actions],
        player[infosets],
        unrestricted[infosets],
        np.cumsum([0, *n_act.tolist()]).astype(np.int64),
    )


def _piece_work(
    players: int, nodes: int, hands: int, actions: int, work: bool
) -> tuple[np.ndarray, ...]:
    """A piece's work buffers (:func:`~toypoker.engines.vectors.pieces._work`), or
    with ``work=False`` read-only views of one zero: shaped, no memory
    (:meth:`~toypoker.engines.vectors.pieces.ShardPiece.payload` reads their shapes)."""
    if work:
        return _work(players, nodes, hands, actions)
    shapes = ((players, nodes, hands), (nodes, hands), (players, actions))
    return tuple(np.broadcast_to(np.zeros(1), shape) for shape in shapes)
