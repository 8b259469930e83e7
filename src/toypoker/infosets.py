"""The information sets of a compiled game (beside :mod:`toypoker.game`, which calls
these while it compiles): the infosets of each decision node, one per private
observation of its actor there, and the flat tables the passes read of them.

Arrays in, arrays out: the game is still being compiled when they run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from toypoker.definition import IDX, InfoSet, Node


def decision_infosets(
    nodes: Sequence[Node],
    node_row_start: np.ndarray,
    node_deals: Sequence[np.ndarray],
    obs: np.ndarray,
    obs_round: Sequence[np.ndarray] | None,
    rounds: Sequence[int],
    obs_private: Sequence[Sequence[tuple[int, ...]]],
    suits: int,
    n_rows: int,
) -> tuple[list[InfoSet], np.ndarray, int]:
    """The infosets in node order (at a node, by observation), the infoset of every row
    (``-1`` off decision nodes) and the flat actions in all: the observations are
    ``obs`` (players, deals), or in a suit-isomorphic game ``obs_round`` of the node's
    round (``rounds``: each node's)."""
    infosets: list[InfoSet] = []
    row_infoset = np.full(n_rows, -1, dtype=IDX)
    offset = 0
    for node in nodes:
        if node.kind != "decision":
            continue
        p = node.actor
        a, b = node_row_start[node.id], node_row_start[node.id + 1]
        table = obs if obs_round is None else obs_round[rounds[node.id]]
        ob = table[p, node_deals[node.id]]
        # observations are small ints: rank them with a presence table, not a sort
        present = np.zeros(len(obs_private[p]), dtype=bool)
        present[ob] = True
        uniq = np.nonzero(present)[0]
        local = np.cumsum(present) - 1
        base = len(infosets)
        row_infoset[a:b] = base + local[ob]
        for o in uniq:
            infosets.append(
                InfoSet(
                    index=len(infosets),
                    node=node.id,
                    player=p,
                    private=obs_private[p][int(o)],
                    history=node.history,
                    actions=node.actions,
                    offset=offset,
                    restricted=False,
                    suits=suits,
                )
            )
            offset += len(node.actions)
    return infosets, row_infoset, offset


def representative_rows(row_infoset: np.ndarray, n_infosets: int) -> np.ndarray:
    """One row per infoset, its first (own reach is the same on all its rows)."""
    rep = np.full(n_infosets, -1, dtype=np.int64)
    dec = np.nonzero(row_infoset >= 0)[0]
    rep[row_infoset[dec[::-1]]] = dec[::-1]
    return rep


def padded_actions(infoset_offset: np.ndarray, infoset_n_actions: np.ndarray) -> np.ndarray:
    """``(infosets, most actions)``: each infoset's flat actions, ``-1`` past its own."""
    n_infosets = len(infoset_n_actions)
    kmax = int(infoset_n_actions.max()) if n_infosets else 1
    pad = np.full((n_infosets, kmax), -1, dtype=np.int64)
    for k in range(kmax):
        ok = infoset_n_actions > k
        pad[ok, k] = infoset_offset[:-1][ok] + k
    return pad


def depth_tables(
    nodes: Sequence[Node],
    infosets: Sequence[InfoSet],
    depth_start: np.ndarray,
    edge_sigma: np.ndarray,
    actor_of_edge: np.ndarray,
    infoset_player: np.ndarray,
    n_players: int,
) -> tuple[list[list[np.ndarray]], list[list[np.ndarray]]]:
    """Per depth ``t`` and player: the action edges into depth ``t`` the player takes
    (local indices within the depth's slice of rows), and the infosets decided there
    (at depth ``t - 1``)."""
    n_depths = len(depth_start) - 1
    edges: list[list[np.ndarray]] = [[] for _ in range(n_depths)]
    node_depth = np.array([nd.depth for nd in nodes], dtype=np.int64)
    inf_depth = (
        node_depth[np.array([i.node for i in infosets], dtype=np.int64)]
        if infosets
        else np.zeros(0, dtype=np.int64)
    )
    decided: list[list[np.ndarray]] = [[] for _ in range(n_depths)]
    for t in range(n_depths):
        a, b = depth_start[t], depth_start[t + 1]
        es = edge_sigma[a:b]
        act = actor_of_edge[a:b]
        for p in range(n_players):
            edges[t].append(np.nonzero((es >= 0) & (act == p))[0])
            decided[t].append(
                np.nonzero((inf_depth == t - 1) & (infoset_player == p))[0]
                if t > 0
                else np.zeros(0, dtype=np.int64)
            )
    return edges, decided
