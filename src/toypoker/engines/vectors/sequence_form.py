"""The two-player sequence-form LP assembled from the vector layout.

The LP, its rational certificate and the ``lp`` method's output are
:mod:`toypoker.solvers.lp`'s (:func:`~toypoker.solvers.lp.solve_sequence_form`); only
the payoff matrix comes from here.  Sequences are the game's flat actions (the same
infosets, so the same ``E``, ``F``); each (node, hand) knows its player's last own
sequence, and ``A[s1, s2]`` sums, over the terminal nodes ``z`` and the hand pairs
``(h1, h2)`` that the board and each other leave possible (card removal: the pairs
of physical hands disjoint from each other and from the board; with rank hands the
copies, ``c1 c2`` or ``c (c - 1)``), the deal weight ``VectorGame.node_weight[z]``
times player 1's payoff -- the pot won, shared at equal strength, less her chips.
The exact evaluation of the certificate is the vector layout's
(:func:`toypoker.engines.vectors.values.best_response_value` in Fractions).

Size: ``A`` has up to one entry per (terminal, hand pair), ``T H^2``; :func:`lp_size`
counts it before anything is assembled.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sp

from toypoker.engines.protocol import SequenceFormData
from toypoker.engines.rows.values import BestResponse, Evaluation
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.layout import VectorGame
from toypoker.errors import ToypokerError
from toypoker.profile import Profile
from toypoker.solvers.lp import (
    LPResult,
    SequenceForm,
    constraints,
    sequences,
    solve_sequence_form,
)
from toypoker.threads import blas_limited


def _last(vg: VectorGame, seq_of_sigma: np.ndarray) -> np.ndarray:
    """Each player's last own sequence at every (node, hand), ``(2, nodes, H)``."""
    last = np.zeros((2, vg.n_nodes, vg.n_hands), dtype=np.int64)
    for t in range(1, len(vg.depth_start) - 1):
        a, b = vg.depth_start[t], vg.depth_start[t + 1]
        last[:, a:b] = last[:, vg.parent[a:b]]
        es = vg.edge_sigma[a:b]
        for p in range(2):
            mine = (vg.edge_player[a:b] == p)[:, None] & (es >= 0)
            last[p, a:b] = np.where(mine, seq_of_sigma[es.clip(0)], last[p, a:b])
    return last


def _pairs(vg: VectorGame, board: int) -> np.ndarray:
    """Physical hand pairs each pair of hands stands for on ``board``, ``(H, H)`` int."""
    c = vg.hand_count[board].astype(np.int64)
    disjoint = V.plan_for(vg).disjoint
    return np.outer(c, c) * disjoint + np.diag(c * (c - 1))


def _terms(vg: VectorGame) -> Iterator[tuple[Any, np.ndarray, np.ndarray]]:
    """Per terminal group (:attr:`toypoker.engines.vectors.terminal_values.Plan.groups`):
    the group, the hand-pair counts ``(H, H)`` and twice player 1's share of the pot per
    hand pair (2 wins, 1 ties, 0 loses)."""
    for group in V.plan_for(vg).groups:
        pairs = _pairs(vg, group.board)
        if all(group.live):
            s = vg.strength[group.board]
            share2 = 1 + np.sign(s[:, None] - s[None, :])  # twice the share: 2, 1, 0
        else:
            share2 = np.full((vg.n_hands, vg.n_hands), 2 if group.live[0] else 0)
        yield group, pairs, share2


def lp_size(vg: VectorGame) -> int:
    """Entries of ``A`` before merging (terminal x possible hand pair): the LP's size."""
    return int(sum(len(g.nodes) * int((p > 0).sum()) for g, p, _ in _terms(vg)))


MAX_ENTRIES = 20_000_000
"""Largest :func:`lp_size` assembled (0.5 GB of triplets at 24 bytes an entry, before
HiGHS's own copies): the full Rhode Island Hold'em has 508,619,462 (terminal x hand
pair) entries over 4,921,411 sequences a player -- 12 GB for ``A`` alone, not
attempted."""


def check_size(vg: VectorGame) -> None:
    """Refuse (one line) an LP above :data:`MAX_ENTRIES` before assembling it, and
    collusion's payoff map (a merged strong team; its shares are not assembled here)."""
    if vg.payoff is not None:
        raise ToypokerError(
            f"the sequence-form LP on the vector layout does not take collusion's payoff "
            f"map ({vg.game.spec}): use --layout rows or a method of the CFR family"
        )
    n = lp_size(vg)
    if n > MAX_ENTRIES:
        raise ToypokerError(
            f"the sequence-form LP of {vg.game.spec} has {n:,} payoff entries (terminal x "
            f"hand pair, ~{n * 24 / 2**30:,.0f} GB to assemble), above {MAX_ENTRIES:,}: "
            "use a method of the CFR family"
        )


def vector_sequence_form(vg: VectorGame) -> SequenceForm:
    """The :class:`~toypoker.solvers.lp.SequenceForm` from the vector layout."""
    game = vg.game
    seq_of_sigma, n_seq = sequences(game)
    last = _last(vg, seq_of_sigma)
    rep = V.plan_for(vg).infoset_rep
    parent_seq = last[game.infoset_player, rep // vg.n_hands, rep % vg.n_hands]
    rows, cols, vals = [], [], []
    for group, pairs, share2 in _terms(vg):
        ok = pairs > 0
        h1, h2 = np.nonzero(ok)
        for k, z in enumerate(group.nodes):
            pot = float(group.committed[k].sum())
            u = pot * share2[h1, h2] / 2 - group.committed[k, 0]
            rows.append(last[0, z, h1])
            cols.append(last[1, z, h2])
            vals.append(group.weight[k] * pairs[h1, h2] * u)
    A = sp.csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=n_seq
    )
    A.sum_duplicates()
    return constraints(game, seq_of_sigma, n_seq, parent_seq, A)


def exact_payoffs(vg: VectorGame, sf: SequenceForm) -> dict[tuple[int, int], Fraction]:
    """``A`` with exact rational entries, as (s1, s2) -> coefficient."""
    last = _last(vg, sf.seq_of_sigma)
    out: dict[tuple[int, int], Fraction] = {}
    for group, pairs, share2 in _terms(vg):
        h1, h2 = np.nonzero(pairs > 0)
        for k, z in enumerate(group.nodes):
            c = group.committed_exact[k]
            pot, paid, w = sum(c, Fraction(0)), c[0], group.weight_exact[k]
            u = {v: pot * v / 2 - paid for v in (0, 1, 2)}
            for a, b in zip(h1.tolist(), h2.tolist(), strict=True):
                key = (int(last[0, z, a]), int(last[1, z, b]))
                add = w * int(pairs[a, b]) * u[int(share2[a, b])]
                out[key] = out.get(key, Fraction(0)) + add
    return out


def exact_evaluation(vg: VectorGame, profile: Profile) -> Evaluation:
    """Values, best responses and gains of an exact profile on the vector layout."""
    sigma = profile.probs
    values = tuple(V.expected_values(vg, sigma))
    brs = [V.best_response_value(vg, sigma, p) for p in range(2)]
    br_values = tuple(b[0] for b in brs)
    gains = tuple(b - v for b, v in zip(br_values, values, strict=True))
    responses = tuple(BestResponse(p, b[0], b[1]) for p, b in enumerate(brs))
    return Evaluation(values, br_values, gains, gains[0] + gains[1], responses, profile.exact)


def sequence_form_data(vg: VectorGame) -> SequenceFormData:
    """The engine protocol's sequence form on hand vectors
    (:meth:`~toypoker.engines.protocol.Engine.sequence_form`): its size checked first
    (one line past :data:`MAX_ENTRIES`), then ``A`` assembled in floats, exactly on
    demand, with the exact evaluation that certifies the LP's answer."""
    check_size(vg)
    sf = vector_sequence_form(vg)
    return SequenceFormData(sf, lambda: exact_payoffs(vg, sf), lambda p: exact_evaluation(vg, p))


@blas_limited
def solve_vector_lp(vg: VectorGame, max_denominator: int = 10**12) -> LPResult:
    """:func:`toypoker.solvers.lp.solve_lp` on ``vg`` given outright (two players: three
    or more are refused in one line)."""
    t0 = time.perf_counter()
    data = sequence_form_data(vg)
    return solve_sequence_form(
        vg.game, data.form, data.exact_payoffs, data.evaluate_exact, max_denominator, t0
    )  # type: ignore[arg-type]


__all__ = [
    "exact_evaluation",
    "exact_payoffs",
    "check_size",
    "lp_size",
    "sequence_form_data",
    "solve_vector_lp",
    "vector_sequence_form",
]
