"""Compiled (numba) traversals for Monte Carlo CFR over the compiled game.

The benchmark (``benchmarks/bench_solvers.py``) showed that one sampled
traversal is too small a unit of work for numpy's per-call overhead, so the
two MCCFR traversals run as loops over one deal's block of rows (see
:attr:`toypoker.game.Game.deal_blocks`: rows of a deal in depth order, each
with its parent's position).  They compute exactly what
:mod:`toypoker.solvers.mccfr` documents; the random generator is passed in and
advanced in place.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game import Game

GAME_ARRAYS = (
    "start",
    "local_parent",
    "edge_sigma",
    "inf",
    "actor",
    "term",
    "term_u",
    "offset",
    "nact",
    "fixed",
    "inf_fixed",
    "cumw",
    "sigma_player",
)


class Blocks:
    """Per-deal row blocks of a game as flat arrays for the kernels."""

    def __init__(self, game: Game):
        b = game.deal_blocks
        rows = b.order.astype(np.int64)
        self.start = b.start.astype(np.int64)
        self.local_parent = b.local_parent.astype(np.int64)
        self.edge_sigma = game.edge_sigma[rows].astype(np.int64)
        self.inf = game.row_infoset[rows].astype(np.int64)
        self.actor = game.row_actor[rows].astype(np.int64)
        self.term = b.row_term[rows].astype(np.int64)
        self.term_u = np.ascontiguousarray(game.term_u)
        self.offset = game.infoset_offset.astype(np.int64)
        self.nact = game.infoset_n_actions.astype(np.int64)
        self.fixed = game.sigma_fixed.copy()
        self.sigma_player = game.sigma_player.astype(np.int64)
        self.inf_fixed = game.infoset_restricted.copy()
        self.cumw = np.cumsum(game.weights)
        self.n_players = game.n_players
        # what the kernels read, in one tuple (order: GAME_ARRAYS)
        self.arrays = tuple(getattr(self, f) for f in GAME_ARRAYS)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def _sample_action(i, a, p, inf, actor, offset, nact, sigma, chosen, rng):
    """Sample another player's action at reached decision row ``i`` (lazily)."""
    info = inf[a + i]
    if info < 0 or actor[a + i] == p:
        return
    off, k = offset[info], nact[info]
    u = rng.random()
    acc = 0.0
    pick = k - 1
    for x in range(k):
        acc += sigma[off + x]
        if u < acc:
            pick = x
            break
    chosen[i] = pick


@njit(cache=True)
def es_traverse(p, regrets, average, sigma, floor, weight, g, rng):
    """One external-sampling traversal for player ``p`` (in place)."""
    (
        start,
        local_parent,
        edge_sigma,
        inf,
        actor,
        term,
        term_u,
        offset,
        nact,
        fixed,
        inf_fixed,
        cumw,
        sigma_player,
    ) = g
    d = _sample_deal(cumw, rng)
    a, b = start[d], start[d + 1]
    m = b - a
    chosen = np.full(m, -1)
    eprob = np.ones(m)
    reached = np.ones(m)
    vis = np.empty(m, dtype=np.int64)  # rows reached under the sampled actions, depth order
    vis[0] = 0
    nv = 1
    _sample_action(0, a, p, inf, actor, offset, nact, sigma, chosen, rng)
    for j in range(1, m):
        pr = local_parent[a + j]
        if reached[pr] == 0.0:
            reached[j] = 0.0
            continue
        e = edge_sigma[a + j]
        if e >= 0:
            if actor[a + pr] == p:
                eprob[j] = sigma[e]
                reached[j] = reached[pr]
            else:
                eprob[j] = 1.0 if e - offset[inf[a + pr]] == chosen[pr] else 0.0
                reached[j] = reached[pr] * eprob[j]
        else:
            reached[j] = reached[pr]
        if reached[j] > 0.0:
            vis[nv] = j
            nv += 1
            _sample_action(j, a, p, inf, actor, offset, nact, sigma, chosen, rng)
    v = np.zeros(m)
    for q in range(nv):
        j = vis[q]
        if term[a + j] >= 0:
            v[j] = term_u[p, term[a + j]]
    for q in range(nv - 1, 0, -1):
        j = vis[q]
        v[local_parent[a + j]] += eprob[j] * v[j]
    for q in range(1, nv):  # regrets of p's actions
        j = vis[q]
        e = edge_sigma[a + j]
        pr = local_parent[a + j]
        if e >= 0 and actor[a + pr] == p and not fixed[e]:
            regrets[e] += reached[pr] * (v[j] - v[pr])
    for q in range(nv):
        i = vis[q]
        info = inf[a + i]
        if info < 0 or inf_fixed[info]:
            continue
        if actor[a + i] == p:
            if floor:
                for x in range(nact[info]):
                    if regrets[offset[info] + x] < 0:
                        regrets[offset[info] + x] = 0.0
            _regret_match(regrets, sigma, offset, nact, info)
        elif weight > 0:  # simple averaging at visited rows of the others
            for x in range(nact[info]):
                average[offset[info] + x] += weight * sigma[offset[info] + x]


@njit(cache=True)
def os_traverse(p, regrets, average, sigma, floor, weight, eps, n_players, g, rng):
    """One outcome-sampling traversal for player ``p`` (in place)."""
    (
        start,
        local_parent,
        edge_sigma,
        inf,
        actor,
        term,
        term_u,
        offset,
        nact,
        fixed,
        inf_fixed,
        cumw,
        sigma_player,
    ) = g
    d = _sample_deal(cumw, rng)
    a, b = start[d], start[d + 1]
    m = b - a
    # children of each local row, found by scanning the block once
    first_child = np.full(m, -1)
    n_child = np.zeros(m, dtype=np.int64)
    for j in range(1, m):
        pr = local_parent[a + j]
        if first_child[pr] < 0:
            first_child[pr] = j
        n_child[pr] += 1
    reach = np.ones(n_players)
    q_p = 1.0
    steps_info = np.empty(m, dtype=np.int64)
    steps_a = np.empty(m, dtype=np.int64)
    n_steps = 0
    i = 0
    while term[a + i] < 0:
        info = inf[a + i]
        if info < 0:
            i = first_child[i]
            continue
        q = actor[a + i]
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
        # children are in action order in the block
        j = first_child[i]
        c = 0
        while c < pick:
            j += 1
            while local_parent[a + j] != i:
                j += 1
            c += 1
        i = j
    w = term_u[p, term[a + i]] / q_p
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


@njit(cache=True)
def _discount_player(regrets, p, sigma_player, fixed, t, alpha, beta):
    ta = float(t) ** alpha
    tb = float(t) ** beta
    for e in range(len(regrets)):
        if sigma_player[e] == p and not fixed[e]:
            if regrets[e] > 0:
                regrets[e] *= ta / (ta + 1.0)
            else:
                regrets[e] *= tb / (tb + 1.0)


@njit(cache=True)
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
    g,
    rng,
):
    """``n_iter`` MCCFR iterations (``kind``: a :class:`~.options.Sampling` value,
    0 external, 1 outcome sampling) in place,
    iterations ``t0 + 1 .. t0 + n_iter``, every player traversing in turn."""
    fixed, sigma_player = g[9], g[12]  # order: GAME_ARRAYS
    for it in range(n_iter):
        t = t0 + it + 1
        weight = float(t) ** gamma
        for p in range(n_players):
            if discount:
                _discount_player(regrets, p, sigma_player, fixed, t, alpha, beta)
            if kind == 0:
                es_traverse(p, regrets, average, sigma, floor, weight, g, rng)
            else:
                os_traverse(p, regrets, average, sigma, floor, weight, eps, n_players, g, rng)
