"""The deal table's Monte Carlo CFR: compiled (numba) traversals of sampled deals.

The benchmark (``benchmarks/bench_solvers.py``) showed that one sampled
traversal is too small a unit of work for numpy's per-call overhead, so the
two MCCFR traversals run as loops over one deal's block of rows (see
:func:`toypoker.blocks.deal_blocks`: rows of a deal in depth order, each
with its parent's position).  They compute exactly what
:mod:`toypoker.solvers.mccfr` documents; the random generator is passed in and
advanced in place.  :mod:`.mccfr_reference` is the same in plain Python, the reference
engine's (``engine="reference"``), and the tests hold the two equal bit for bit.

A sampled traversal reaches few of its block's rows (external sampling on
3-player Leduc: ~29 of 1151), so both follow per-block child lists built
once per game (:class:`Blocks`) instead of scanning the block, and their
scratch arrays are allocated once per batch (:func:`run_many`).  External
sampling walks the reached rows breadth first, which meets them in the
block's row order (:attr:`Blocks.breadth_first`, true of every built-in
game): the random draws come in the order of a full scan, so the results
equal those of the full-scan reference bit for bit
(``tests/engines/rows/test_mccfr.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from toypoker.blocks import deal_blocks
from toypoker.engines.rows import mccfr_reference
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.jit import njit

GAME_ARRAYS = (
    "start",
    "rec",
    "child",
    "term_u",
    "offset",
    "nact",
    "fixed",
    "inf_fixed",
    "cumw",
    "sigma_player",
)
# columns of Blocks.rec: what a traversal reads of a row, in one 32-byte record
TERM, C0, C1, INF, ACTOR, ES = 0, 1, 2, 3, 4, 5


class Blocks:
    """Per-deal row blocks of a game as flat arrays for the kernels.

    Attributes beyond the row arrays: ``child_ptr``, ``child`` (the children of
    block position ``x``, as local row indices in row order, which is action
    order, are ``child[child_ptr[x]:child_ptr[x + 1]]``), ``max_block`` (rows
    of the largest block: the scratch size) and ``breadth_first`` (a
    breadth-first walk of every block meets its rows in row order).
    """

    def __init__(self, game: Game):
        b = game.derived(deal_blocks)
        rows = b.order.astype(np.int64)
        n = len(rows)
        if n >= 2**31 or game.n_sigma >= 2**31 or len(game.term_rows) >= 2**31:
            raise ToypokerError(f"game {game.spec} is too large for the MCCFR kernels")
        self.start = b.start.astype(np.int64)
        self.local_parent = np.asarray(b.local_parent, dtype=np.int64)
        self.term_u = np.ascontiguousarray(game.term_u)
        self.offset = game.infoset_offset.astype(np.int64)
        self.nact = game.infoset_n_actions.astype(np.int64)
        self.fixed = game.sigma_fixed.copy()
        self.sigma_player = game.sigma_player.astype(np.int64)
        self.inf_fixed = game.infoset_restricted.copy()
        self.cumw = np.cumsum(game.weights)
        self.n_players = game.n_players
        self.max_block = int(np.diff(self.start).max())
        # children of every block row (local indices, in row order = action order), CSR
        # over block positions: those of position x are child[child_ptr[x]:child_ptr[x + 1]]
        deal = np.repeat(np.arange(len(self.start) - 1), np.diff(self.start))
        has = self.local_parent >= 0
        parent_pos = (self.start[deal] + self.local_parent)[has]
        kids = np.flatnonzero(has)[np.argsort(parent_pos, kind="stable")]
        self.child = (kids - self.start[deal[kids]]).astype(np.int32)
        counts = np.bincount(parent_pos, minlength=n)
        self.child_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        # a breadth-first walk meets a block's rows in row order when the children
        # of its rows, listed row by row, are the rows 1, 2, ... (true of every
        # built-in game): external sampling then draws in the order of a full scan
        self.breadth_first = bool(
            np.array_equal(self.child, np.flatnonzero(has) - self.start[deal[has]])
        )
        # what a traversal reads of a block position, in one int32 record (columns
        # TERM .. ES, padded to 32 bytes), not 56 bytes of seven separate int64
        # arrays; the row arrays below are views of its columns
        rec = np.zeros((n, 8), dtype=np.int32)
        rec[:, TERM] = b.row_term[rows]
        rec[:, C0] = self.child_ptr[:-1]
        rec[:, C1] = self.child_ptr[1:]
        rec[:, INF] = game.row_infoset[rows]
        rec[:, ACTOR] = game.row_actor[rows]
        rec[:, ES] = game.edge_sigma[rows]
        self.rec = rec
        self.term, self.inf, self.actor = rec[:, TERM], rec[:, INF], rec[:, ACTOR]
        self.edge_sigma = rec[:, ES]
        # what the kernels read, in one tuple (order: GAME_ARRAYS)
        self.arrays = tuple(getattr(self, f) for f in GAME_ARRAYS)


@njit
def _sample_deal(cumw, rng):
    u = rng.random() * cumw[-1]
    lo, hi = 0, len(cumw) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cumw[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit
def _regret_match(regrets, sigma, offset, nact, info):
    off, k = offset[info], nact[info]
    total = 0.0
    for a in range(k):
        if regrets[off + a] > 0:
            total += regrets[off + a]
    for a in range(k):
        if total > 0:
            sigma[off + a] = max(regrets[off + a], 0.0) / total
        else:
            sigma[off + a] = 1.0 / k


@njit
def es_traverse(p, regrets, average, sigma, floor, weight, g, scratch, rng):
    """One external-sampling traversal for player ``p`` (in place).

    Only the rows reached under the sampled actions are walked: forward in
    breadth-first order through the block's child lists (the other players'
    actions drawn as their rows are reached), then backward over the same
    list, each row's value summed from its reached children and the
    traverser's regrets credited, floored and matched at its own rows.
    """
    # Kept whole: one compiled loop (numba); splitting it costs a call and the unboxing
    # of its arguments per call.
    start, rec, child, term_u, offset, nact, fixed, inf_fixed, cumw, sigma_player = g
    vis, chosen, v = scratch
    d = _sample_deal(cumw, rng)
    a = start[d]
    vis[0] = 0
    nv = 1
    q = 0
    while q < nv:  # forward: vis grows in the block's row order (breadth first)
        i = vis[q]
        q += 1
        row = rec[a + i]
        if row[TERM] >= 0:
            continue
        c0, c1 = row[C0], row[C1]
        info = row[INF]
        if info < 0 or row[ACTOR] == p:  # chance or the traverser: every child
            for c in range(c0, c1):
                vis[nv] = child[c]
                nv += 1
        else:  # another player: the sampled action's child only
            off, k = offset[info], nact[info]
            u = rng.random()
            acc = 0.0
            pick = k - 1
            for x in range(k):
                acc += sigma[off + x]
                if u < acc:
                    pick = x
                    break
            for c in range(c0, c1):
                j = child[c]
                if rec[a + j, ES] - off == pick:
                    chosen[i] = j
                    vis[nv] = j
                    nv += 1
                    break
    for q in range(nv - 1, -1, -1):  # backward: children before their parent
        i = vis[q]
        row = rec[a + i]
        t = row[TERM]
        if t >= 0:
            v[i] = term_u[p, t]
            continue
        c0, c1 = row[C0], row[C1]
        info = row[INF]
        if info < 0:
            val = 0.0
            for c in range(c1 - 1, c0 - 1, -1):
                val += v[child[c]]
            v[i] = val
        elif row[ACTOR] == p:
            val = 0.0
            for c in range(c1 - 1, c0 - 1, -1):
                j = child[c]
                val += sigma[rec[a + j, ES]] * v[j]
            v[i] = val
            if inf_fixed[info]:
                continue
            for c in range(c0, c1):
                j = child[c]
                e = rec[a + j, ES]
                if not fixed[e]:
                    regrets[e] += v[j] - val
            off, k = offset[info], nact[info]
            if floor:
                for x in range(k):
                    if regrets[off + x] < 0:
                        regrets[off + x] = 0.0
            _regret_match(regrets, sigma, offset, nact, info)
        else:
            v[i] = 0.0 + v[chosen[i]]  # a sum, like the other rows (-0.0 -> 0.0)
            if weight > 0 and not inf_fixed[info]:  # simple averaging at the others' rows
                off, k = offset[info], nact[info]
                for x in range(k):
                    average[off + x] += weight * sigma[off + x]


@njit
def os_traverse(p, regrets, average, sigma, floor, weight, eps, n_players, g, scratch, rng):
    """One outcome-sampling traversal for player ``p`` (in place)."""
    start, rec, child, term_u, offset, nact, fixed, inf_fixed, cumw, sigma_player = g
    steps_info, steps_a, reach = scratch
    d = _sample_deal(cumw, rng)
    a = start[d]
    for r in range(n_players):
        reach[r] = 1.0
    q_p = 1.0
    n_steps = 0
    i = 0
    while rec[a + i, TERM] < 0:
        row = rec[a + i]
        info = row[INF]
        if info < 0:
            i = child[row[C0]]
            continue
        q = row[ACTOR]
        off, k = offset[info], nact[info]
        explore = q == p and not inf_fixed[info]
        u = rng.random()
        acc = 0.0
        pick = k - 1
        for x in range(k):
            s = eps / k + (1.0 - eps) * sigma[off + x] if explore else sigma[off + x]
            acc += s
            if u < acc:
                pick = x
                break
        s_pick = eps / k + (1.0 - eps) * sigma[off + pick] if explore else sigma[off + pick]
        if q == p:
            steps_info[n_steps] = info
            steps_a[n_steps] = pick
            n_steps += 1
            q_p *= s_pick
        elif not inf_fixed[info] and weight > 0:
            rest = 1.0
            for r in range(n_players):
                if r != p and r != q:
                    rest *= reach[r]
            if rest * q_p > 0:
                for x in range(k):
                    average[off + x] += weight * sigma[off + x] / (rest * q_p)
        reach[q] *= sigma[off + pick]
        i = child[row[C0] + pick]  # children are in action order in the block
    w = term_u[p, rec[a + i, TERM]] / q_p
    tail = 1.0
    for s_ in range(n_steps - 1, -1, -1):
        info = steps_info[s_]
        pick = steps_a[s_]
        off, k = offset[info], nact[info]
        sp = sigma[off + pick]
        if not inf_fixed[info]:
            for x in range(k):
                if x == pick:
                    regrets[off + x] += w * tail * (1.0 - sp)
                else:
                    regrets[off + x] -= w * tail * sp
            if floor:
                for x in range(k):
                    if regrets[off + x] < 0:
                        regrets[off + x] = 0.0
        tail *= sp
    for s_ in range(n_steps):
        info = steps_info[s_]
        if not inf_fixed[info]:
            _regret_match(regrets, sigma, offset, nact, info)


@njit
def _discount_player(regrets, p, sigma_player, fixed, t, alpha, beta):
    ta = float(t) ** alpha
    tb = float(t) ** beta
    for e in range(len(regrets)):
        if sigma_player[e] == p and not fixed[e]:
            if regrets[e] > 0:
                regrets[e] *= ta / (ta + 1.0)
            else:
                regrets[e] *= tb / (tb + 1.0)


@njit
def run_many(
    kind,
    n_iter,
    t0,
    regrets,
    average,
    sigma,
    floor,
    gamma,
    discount,
    alpha,
    beta,
    eps,
    n_players,
    max_block,
    g,
    rng,
):
    """``n_iter`` MCCFR iterations (``kind``: a
    :class:`toypoker.solvers.options.Sampling` value, 0 external, 1 outcome sampling) in
    place, iterations ``t0 + 1 .. t0 + n_iter``, every player traversing in turn.

    The traversals' scratch arrays (``max_block``: the largest deal block) are
    allocated once here; a traversal writes every entry it reads.
    """
    fixed, sigma_player = g[6], g[9]  # order: GAME_ARRAYS
    es_scratch = (
        np.empty(max_block, dtype=np.int64),
        np.empty(max_block, dtype=np.int64),
        np.empty(max_block),
    )
    os_scratch = (
        np.empty(max_block, dtype=np.int64),
        np.empty(max_block, dtype=np.int64),
        np.empty(n_players),
    )
    for it in range(n_iter):
        t = t0 + it + 1
        weight = float(t) ** gamma
        for p in range(n_players):
            if discount:
                _discount_player(regrets, p, sigma_player, fixed, t, alpha, beta)
            if kind == 0:
                es_traverse(p, regrets, average, sigma, floor, weight, g, es_scratch, rng)
            else:
                os_traverse(
                    p, regrets, average, sigma, floor, weight, eps, n_players, g, os_scratch, rng
                )


def traversals(game: Game, kind: int, fused: bool = True) -> Callable[..., None]:
    """Deal-sampling MCCFR's part on the deal table (the engine protocol's
    ``mccfr_iterations``): ``run(n, t0, regrets, average, sigma, options, rng)`` runs
    iterations ``t0 + 1 .. t0 + n`` of ``kind`` (0 external, 1 outcome sampling) in
    place, in the compiled kernel, or (``fused=False``) in the plain-Python reference
    (:mod:`.mccfr_reference`), on the same random draws."""
    b = game.derived(Blocks)

    def run(n: int, t0: int, regrets: np.ndarray, average: np.ndarray, sigma: np.ndarray,
            options: Any, rng: np.random.Generator) -> None:  # fmt: skip
        schedule = (
            options.floor,
            float(options.gamma),
            options.alpha is not None,
            float(options.alpha or 0.0),
            float(options.beta or 0.0),
            float(getattr(options, "epsilon", 0.0)),  # read by outcome sampling only
        )
        if fused:
            run_many(int(kind), int(n), t0, regrets, average, sigma, *schedule,
                     b.n_players, b.max_block, b.arrays, rng)  # fmt: skip
        else:
            mccfr_reference.run_many(int(kind), int(n), t0, regrets, average, sigma,
                                     *schedule, b, rng)  # fmt: skip

    return run
