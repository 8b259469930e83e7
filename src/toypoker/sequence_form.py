"""The sequence form of a game's seats: their sequences and constraints.

The sequence form (Koller, Megiddo & von Stengel 1996) of a player -- or of a team that
sees its cards, one player with perfect recall whose sequences are its members' actions
-- has one sequence per action and the empty one (index 0).  A realization plan ``x``
satisfies ``E x = e``: the empty sequence has weight 1; each infoset's actions sum to
its parent sequence; a restricted infoset's actions keep their fixed share of it.

This is the one place that numbers sequences and writes those constraints: the
two-player LP (:mod:`toypoker.solvers.lp`, on either engine) and the team wing's forms
(:mod:`toypoker.teams.forms`) read them.  Where each infoset's parent sequence comes
from is the engine's (the deal table: :func:`toypoker.engines.rows.sequences.last_sequences`).
Game floor: imports only the game and the ground.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import scipy.sparse as sp

from toypoker.definition import InfoSet
from toypoker.game import Game

__all__ = ["constraint_matrix", "constraint_rows", "seat_sequences"]


def seat_sequences(game: Game, seats: Iterable[int]) -> tuple[np.ndarray, int]:
    """Each flat action's sequence index among ``seats``' actions (``>= 1`` in flat
    order; 0 for the other seats' actions) and the number of sequences, the empty one
    included."""
    mine = np.flatnonzero(np.isin(game.sigma_player, tuple(seats)))
    seq_of_sigma = np.zeros(game.n_sigma, dtype=np.int64)
    seq_of_sigma[mine] = 1 + np.arange(len(mine))
    return seq_of_sigma, 1 + len(mine)


def constraint_rows(
    infosets: Iterable[InfoSet],
    seq_of_sigma: np.ndarray,
    parent: Mapping[int, int] | np.ndarray,
    fixed: Mapping[int, object] | np.ndarray,
    one: object = 1.0,
) -> list[dict[int, object]]:
    """The rows of ``E``, each ``{sequence: coefficient}``, in the order of ``infosets``
    after the root's (``x[0] = 1``).

    An infoset's row is ``sum_a x[I, a] - x[parent] = 0``; a restricted one gives a row
    per action, ``x[I, a] - fixed[a] x[parent] = 0``.  ``parent[i]``: infoset ``i``'s
    parent sequence; ``fixed``: the fixed probabilities by flat action (floats, or
    Fractions with ``one=Fraction(1)`` for exact rows)."""
    rows: list[dict[int, object]] = [{0: one}]
    for info in infosets:
        k = len(info.actions)
        seqs = [int(s) for s in seq_of_sigma[info.offset : info.offset + k]]
        ps = int(parent[info.index])
        if info.restricted:
            rows.extend({seqs[j]: one, ps: -fixed[info.offset + j]} for j in range(k))
        else:
            row = dict.fromkeys(seqs, one)
            row[ps] = row.get(ps, 0 * one) - one
            rows.append(row)
    return rows


def constraint_matrix(rows: list[dict[int, object]], n_seq: int) -> sp.csr_matrix:
    """``E`` as a sparse float matrix ``(len(rows), n_seq)`` from :func:`constraint_rows`."""
    r = [i for i, row in enumerate(rows) for _ in row]
    c = [s for row in rows for s in row]
    v = [float(x) for row in rows for x in row.values()]  # type: ignore[arg-type]
    return sp.csr_matrix((v, (r, c)), shape=(len(rows), n_seq))
