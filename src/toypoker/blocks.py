"""Rows grouped by deal: the view of a compiled game that sampling methods walk.

:func:`deal_blocks` builds it, once a game (``game.derived(deal_blocks)``), on first use
(Monte Carlo CFR; the OpenSpiel and Gambit exports walk one deal's rows at a time).

Game floor (beside :mod:`toypoker.game`): imports only the definition.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from toypoker.definition import IDX

if TYPE_CHECKING:
    from toypoker.game import Game

__all__ = ["DealBlocks", "deal_blocks"]


@dataclass(frozen=True)
class DealBlocks:
    """Rows grouped by deal (each block in depth order) and children lists.

    ``order[start[d]:start[d+1]]`` are deal ``d``'s rows; ``local_parent`` the
    parent's position inside the block (-1 at the root); ``depth_start[d]``
    the block's depth boundaries; ``row_term[r]`` the column of a terminal row
    in ``term_u`` (-1 otherwise); the children of row ``r`` are
    ``child_rows[child_ptr[r]:child_ptr[r+1]]`` in action order.
    """

    order: np.ndarray
    start: np.ndarray
    local_parent: np.ndarray
    depth_start: np.ndarray
    row_term: np.ndarray
    child_ptr: np.ndarray
    child_rows: np.ndarray


def deal_blocks(game: Game) -> DealBlocks:
    """The rows of each deal of a compiled game, for sampling methods (kept with the game
    by ``game.derived(deal_blocks)``)."""
    order = np.argsort(game.row_deal, kind="stable").astype(IDX)
    counts = np.bincount(game.row_deal, minlength=game.n_deals)
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    position = np.empty(game.n_rows, dtype=np.int64)
    position[order] = np.arange(game.n_rows)
    deal_of = game.row_deal[order]
    par = game.parent_row[order]
    local_parent = np.where(par >= 0, position[par.clip(0)] - start[deal_of], -1)
    row_depth = np.searchsorted(game.depth_start, np.arange(game.n_rows), side="right") - 1
    depth_counts = np.zeros((game.n_deals, game.n_depths), dtype=np.int64)
    np.add.at(depth_counts, (deal_of, row_depth[order]), 1)
    depth_start = np.concatenate(
        [np.zeros((game.n_deals, 1), dtype=np.int64), np.cumsum(depth_counts, axis=1)], axis=1
    )
    row_term = np.full(game.n_rows, -1, dtype=np.int64)
    row_term[game.term_rows] = np.arange(len(game.term_rows))
    # children of every row in action order (CSR), for trajectory sampling
    child_order = np.argsort(game.parent_row, kind="stable")
    child_order = child_order[game.parent_row[child_order] >= 0]
    n_children = np.bincount(game.parent_row[child_order], minlength=game.n_rows)
    child_ptr = np.concatenate([[0], np.cumsum(n_children)]).astype(np.int64)
    blocks = DealBlocks(
        order,
        start,
        local_parent.astype(np.int64),
        depth_start,
        row_term,
        child_ptr,
        child_order.astype(np.int64),
    )
    for f in dataclasses.fields(blocks):
        getattr(blocks, f.name).flags.writeable = False
    return blocks
