"""Sequences on the deal table: each row's last own action of each player.

The sequence form (Koller, Megiddo & von Stengel 1996) of a player is her sequences --
the empty one and each of her actions -- and, at every row, the last of them on the way
there.  :func:`last_sequences` is that one pass, per depth, used by the sequence-form LP
(:mod:`toypoker.solvers.lp`) and by the team wing's plans and forms
(:mod:`toypoker.teams`).
"""

from __future__ import annotations

import numpy as np

from toypoker.game import Game

__all__ = ["last_sequences"]


def last_sequences(game: Game, members: tuple[int, ...], restricted: bool = False
                   ) -> np.ndarray:  # fmt: skip
    """Each row's last free action (flat sigma index) of each member, ``-1`` for the
    empty sequence; shape ``(len(members), R)``.  Restricted (fixed) actions are not
    sequences: their probabilities belong to the outside weight (``restricted``: they
    count too)."""
    last = np.full((len(members), game.n_rows), -1, dtype=np.int64)
    actor_of_edge = game.row_actor[game.parent_row.clip(0)]
    for t in range(1, game.n_depths):
        a, b = game.depth_start[t], game.depth_start[t + 1]
        par = game.parent_row[a:b]
        es = game.edge_sigma[a:b]
        free = es >= 0
        if not restricted:
            free[free] = ~game.sigma_fixed[es[free]]
        for j, p in enumerate(members):
            mine = free & (actor_of_edge[a:b] == p)
            last[j, a:b] = np.where(mine, es, last[j, par])
    return last
