"""The arrays of the vector layout, assembled over a public tree (see
:mod:`toypoker.engines.vectors.layout`, whose :func:`~toypoker.engines.vectors.layout.assemble`
makes its :class:`~toypoker.engines.vectors.layout.VectorGame` of them): the physical
hands and boards, each board's multiplicity and each node's chance weight, the infoset
of each (decision node, hand) and the flat action on each edge.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from toypoker.definition import suit_canonical
from toypoker.errors import ToypokerError
from toypoker.game import Game

StrengthOf = Callable[
    [
        tuple[tuple[int, ...], ...],
        list[tuple[tuple[int, ...], ...]],
        np.ndarray,
        np.ndarray,
        np.ndarray,
    ],
    np.ndarray,
]


def _refuse(game: Game, why: str) -> ToypokerError:
    return ToypokerError(f"the vector layout cannot express {game.spec}: {why}")


def layout_arrays(
    game: Game,
    hole: int,
    board_sizes: list[int],
    mult: np.ndarray,
    suits: int,
    strength_of: StrengthOf,
) -> dict[str, object]:
    """The fields of :func:`~toypoker.engines.vectors.layout.assemble`'s
    :class:`~toypoker.engines.vectors.layout.VectorGame` but its ``game`` (the same
    parameters)."""
    n = game.n_players
    card_value = np.repeat(np.arange(len(mult)), mult)
    n_cards = len(card_value)
    hands = np.array(list(itertools.combinations(range(n_cards), hole)), dtype=np.int64)
    hands = hands.reshape(-1, hole)
    n_hands = len(hands)
    hand_cards = np.zeros((n_hands, n_cards), dtype=bool)
    for j in range(hole):
        hand_cards[np.arange(n_hands), hands[:, j]] = True
    nodes = game.nodes
    board_groups, phys, node_mult = _physical_boards(nodes, mult, card_value, suits)
    board_ids: dict[tuple[int, ...], int] = {}
    node_board = np.array([board_ids.setdefault(b, len(board_ids)) for b in phys], dtype=np.int64)
    boards = tuple(board_ids)
    board_compat = np.ones((len(boards), n_hands), dtype=bool)
    for b, cards in enumerate(boards):
        if cards:
            board_compat[b] = ~hand_cards[:, list(cards)].any(axis=1)
    weight_exact = _node_weights(nodes, phys, node_mult, n, n_cards, hole)
    node_weight = np.array([float(w) for w in weight_exact])
    hand_infoset = _hand_infosets(
        game, hands, card_value, board_groups, board_compat, node_board, suits
    )
    edge_sigma, edge_player = mark_edges(game, hand_infoset)
    strength = strength_of(boards, board_groups, node_board, hands, card_value)
    depth = np.array([nd.depth for nd in nodes], dtype=np.int64)
    depth_start = np.searchsorted(depth, np.arange(depth.max() + 2))
    return dict(
        n_players=n,
        n_cards=n_cards,
        card_value=card_value,
        hands=hands,
        hand_cards=hand_cards,
        boards=boards,
        board_compat=board_compat,
        node_board=node_board,
        node_mult=node_mult,
        node_weight=node_weight,
        node_weight_exact=tuple(weight_exact),
        edge_sigma=edge_sigma,
        edge_player=edge_player,
        hand_infoset=hand_infoset,
        strength=strength,
        depth_start=depth_start,
        parent=np.array([nd.parent for nd in nodes], dtype=np.int64),
        hand_count=board_compat.astype(np.float64),
    )


def _physical_boards(
    nodes: list, mult: np.ndarray, card_value: np.ndarray, suits: int
) -> tuple[list[tuple[tuple[int, ...], ...]], list[tuple[int, ...]], np.ndarray]:
    """Per node: the table boards dealt so far (a tuple per board group), one physical
    board standing for them (flat) and the multiplicity of the edge into the node (the
    physical boards its representative stands for)."""
    n_cards = len(card_value)
    first_copy = np.concatenate([[0], np.cumsum(mult)[:-1]])
    nn = len(nodes)
    board_groups: list[tuple[tuple[int, ...], ...]] = [()] * nn  # table values per group
    phys: list[tuple[int, ...]] = [()] * nn
    node_mult = np.ones(nn, dtype=np.int64)
    orbit_cache: dict[tuple[tuple[int, ...], ...], dict[tuple[int, ...], int]] = {}
    for node in nodes:
        if node.kind != "chance":
            for c in node.children:
                board_groups[c], phys[c] = board_groups[node.id], phys[node.id]
            continue
        prior = board_groups[node.id]
        for c in node.children:
            v = tuple(nodes[c].board[len(node.board) :])
            board_groups[c] = (*prior, v)
            if suits:
                phys[c] = phys[node.id] + v
                key = prior
                if key not in orbit_cache:
                    orbit_cache[key] = _orbit_counts(prior, len(v), n_cards, suits)
                node_mult[c] = orbit_cache[key][v]
            else:
                used = np.bincount(card_value[list(phys[node.id])], minlength=len(mult))
                rep, m = [], 1
                for r, k in zip(*np.unique(v, return_counts=True), strict=True):
                    m *= math.comb(int(mult[r] - used[r]), int(k))
                    rep += [int(first_copy[r] + used[r] + i) for i in range(int(k))]
                phys[c] = phys[node.id] + tuple(sorted(rep))
                node_mult[c] = m
    return board_groups, phys, node_mult


def _node_weights(
    nodes: list,
    phys: list[tuple[int, ...]],
    node_mult: np.ndarray,
    n: int,
    n_cards: int,
    hole: int,
) -> list[Fraction]:
    """The chance weight of each node, exactly: the hole cards (1 / ways to deal them),
    then each board uniformly from the cards left (a representative stands for
    ``node_mult`` boards)."""
    ways, left = 1, n_cards
    for _ in range(n):
        ways *= math.comb(left, hole)
        left -= hole
    weight_exact: list[Fraction] = [Fraction(1, ways)] * len(nodes)
    for node in nodes:
        for c in node.children:
            w = weight_exact[node.id]
            if node.kind == "chance":
                size = len(phys[c]) - len(phys[node.id])
                w = w * int(node_mult[c]) / math.comb(left - len(phys[node.id]), size)
            weight_exact[c] = w
    return weight_exact


def _hand_infosets(
    game: Game,
    hands: np.ndarray,
    card_value: np.ndarray,
    board_groups: list[tuple[tuple[int, ...], ...]],
    board_compat: np.ndarray,
    node_board: np.ndarray,
    suits: int,
) -> np.ndarray:
    """``(nodes, H)`` the infoset of each decision node's actor holding each hand (-1
    elsewhere): (node, private observation) -> the compiled game's infoset (the lazy
    infosets of a game built without deals look themselves up: ``infoset_rows``,
    vectorised)."""
    nodes = game.nodes
    n_hands = len(hands)
    rows_of = getattr(game.infosets, "infoset_rows", None)
    by_key = {} if rows_of else {(i.node, i.private): i.index for i in game.infosets}
    hand_infoset = np.full((len(nodes), n_hands), -1, dtype=np.int32)
    private_cache: dict[tuple[tuple[int, ...], ...], tuple[list, np.ndarray]] = {}
    for node in nodes:
        if node.kind != "decision":
            continue
        ok = board_compat[node_board[node.id]]
        groups_here = board_groups[node.id]
        if groups_here not in private_cache:
            obs = _private(hands, card_value, groups_here, suits)
            private_cache[groups_here] = (obs, np.array(obs, dtype=np.int64).reshape(n_hands, -1))
        private, private_rows = private_cache[groups_here]
        if rows_of is not None:
            found = rows_of(node.id, private_rows)
            if (found[ok] < 0).any():
                raise _refuse(game, f"no infoset for a hand at node {node.history!r}")
            hand_infoset[node.id] = np.where(ok, found, -1)
        else:
            row = np.full(n_hands, -1, dtype=np.int32)
            for h in np.nonzero(ok)[0]:
                idx = by_key.get((node.id, private[h]))
                if idx is None:
                    raise _refuse(game, f"no infoset for a hand at node {node.history!r}")
                row[h] = idx
            hand_infoset[node.id] = row
    return hand_infoset


def mark_edges(game: Game, hand_infoset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The flat action of each child edge of a decision node for each hand (-1 where
    the hand has no infoset there), and the player acting on each edge (-1 below
    chance and the root): ``(edge_sigma, edge_player)`` from ``hand_infoset`` (the
    infoset of each (decision node, hand), -1: none), in blocks of edges."""
    nodes = game.nodes
    edges = np.array(
        [(c, nd.id, a) for nd in nodes if nd.kind == "decision" for a, c in enumerate(nd.children)],
        dtype=np.int64,
    ).reshape(-1, 3)
    edge_sigma = np.full(hand_infoset.shape, -1, dtype=np.int32)
    edge_player = np.full(len(nodes), -1, dtype=np.int64)
    actor = np.array([nd.actor if nd.kind == "decision" else -1 for nd in nodes], dtype=np.int64)
    offset = np.asarray(game.infoset_offset, dtype=np.int64)
    for lo in range(0, len(edges), 65536):  # temporaries of a block, not of the whole tree
        child, node, a = edges[lo : lo + 65536].T
        rows = hand_infoset[node]
        edge_sigma[child] = np.where(rows >= 0, offset[rows.clip(0)] + a[:, None], -1)
        edge_player[child] = actor[node]
    return edge_sigma, edge_player


def _orbit_counts(
    prior: tuple[tuple[int, ...], ...], size: int, n_cards: int, suits: int
) -> dict[tuple[int, ...], int]:
    """How many physical next boards of ``size`` cards each canonical next board stands
    for, after the canonical boards ``prior`` (suit permutations fixing them)."""
    flat = [c for g in prior for c in g]
    rest = [c for c in range(n_cards) if c not in set(flat)]
    opts = np.array(list(itertools.combinations(rest, size)), dtype=np.int64).reshape(-1, size)
    rows = np.concatenate([np.tile(np.asarray(flat, dtype=np.int64), (len(opts), 1)), opts], 1)
    cols, col = [], 0
    for g in [*(len(p) for p in prior), size]:
        cols.append(list(range(col, col + g)))
        col += g
    canon = suit_canonical(rows, cols, suits)[:, len(flat) :]
    out: dict[tuple[int, ...], int] = {}
    for row in canon.tolist():
        out[tuple(row)] = out.get(tuple(row), 0) + 1
    return out


def _private(
    hands: np.ndarray,
    card_value: np.ndarray,
    groups: tuple[tuple[int, ...], ...],
    suits: int,
) -> list[tuple[int, ...]]:
    """Each hand's private observation as the compiled game writes it (1-based)."""
    values = np.sort(card_value[hands], axis=1)
    if suits:
        flat = np.asarray([c for g in groups for c in g], dtype=np.int64)
        rows = np.concatenate([np.tile(flat, (len(values), 1)), values], axis=1)
        cols, col = [], 0
        for g in [*(len(g) for g in groups), values.shape[1]]:
            cols.append(list(range(col, col + g)))
            col += g
        values = suit_canonical(rows, cols, suits)[:, len(flat) :]
    return [tuple(int(x) + 1 for x in row) for row in values]
