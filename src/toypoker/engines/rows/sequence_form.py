"""The sequence form on the deal table: the payoff matrix ``A`` of a two-player game
summed over its terminal rows (Koller, Megiddo & von Stengel 1996), in floats and in
exact rationals, with the constraints of :func:`toypoker.solvers.lp.constraints`.  What
the engine protocol's :meth:`~toypoker.engines.protocol.Engine.sequence_form` gives on
the deal table; the LP and its certificate are :func:`toypoker.solvers.lp.solve_lp`'s,
and the hand vectors' ``A`` is :mod:`toypoker.engines.vectors.sequence_form`'s."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from toypoker.engines.rows.sequences import last_sequences
from toypoker.game import Game
from toypoker.solvers.lp import SequenceForm, constraints, sequences


def _last_sequences(game: Game, seq_of_sigma: np.ndarray) -> np.ndarray:
    """Each row's last own sequence per player (0 = the empty sequence), shape (2, R):
    :func:`~toypoker.engines.rows.sequences.last_sequences` with restricted actions
    counted (the LP's sequences include them, fixed by their constraints)."""
    last = last_sequences(game, (0, 1), restricted=True)
    return np.where(last >= 0, seq_of_sigma[last.clip(0)], 0)


def rows_sequence_form(game: Game) -> SequenceForm:
    """Sequences, constraint matrices ``E``, ``F`` and payoff matrix ``A`` of a
    two-player game (Koller, Megiddo, von Stengel 1996)."""
    seq_of_sigma, n_seq = sequences(game)
    last = _last_sequences(game, seq_of_sigma)
    parent_seq = last[game.infoset_player, game.infoset_rep_row]
    term = game.term_rows
    coef = game.weights[game.row_deal[term]] * game.term_u[0]
    A = sp.csr_matrix((coef, (last[0, term], last[1, term])), shape=n_seq)
    A.sum_duplicates()
    return constraints(game, seq_of_sigma, n_seq, parent_seq, A)


def exact_payoffs(game: Game, sf: SequenceForm) -> dict[tuple[int, int], Fraction]:
    """``A`` with exact rational entries, as a dict of (s1, s2) -> coefficient."""
    out: dict[tuple[int, int], Fraction] = {}
    last0, last1 = _last_sequences(game, sf.seq_of_sigma)
    w = game.weights_exact
    u = game.term_u_exact[0]
    for k, r in enumerate(game.term_rows):
        key = (int(last0[r]), int(last1[r]))
        out[key] = out.get(key, Fraction(0)) + w[game.row_deal[r]] * u[k]
    return out


def _last_sequences(game: Game, seq_of_sigma: np.ndarray) -> np.ndarray:
    """Each row's last own sequence per player (0 = the empty sequence), shape (2, R):
    :func:`~toypoker.engines.rows.sequences.last_sequences` with restricted actions
    counted (the LP's sequences include them, fixed by their constraints)."""
    last = last_sequences(game, (0, 1), restricted=True)
    return np.where(last >= 0, seq_of_sigma[last.clip(0)], 0)


__all__ = ["exact_payoffs", "rows_sequence_form"]
