"""The deal table's Monte Carlo CFR in plain Python: the reference of the compiled
traversals (:mod:`.mccfr`).

External sampling scans *every* row of the sampled deal's block in row order, drawing
the other players' actions as their rows are met, then computes the values, the sampled
counterfactual regrets ``v(ha) - v(h)`` (Lanctot et al. 2009; the importance weights
cancel) and the simple average; outcome sampling follows one trajectory, the traverser
exploring with probability ``epsilon``, with importance-weighted regrets and the
stochastically weighted average.  The random draws come in the order the kernels draw
them, so the states are *equal*, not merely close
(``tests/engines/rows/test_mccfr.py``).  The reference engine
(``engine="reference"``) runs MCCFR here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Blocks = Any  # toypoker.engines.rows.mccfr.Blocks (which imports this module)


def _deal(b: Blocks, rng: np.random.Generator) -> int:
    u = rng.random() * b.cumw[-1]
    return int(np.searchsorted(b.cumw, u, side="right"))


def _match(regrets: np.ndarray, sigma: np.ndarray, b: Blocks, info: int) -> None:
    off, k = b.offset[info], b.nact[info]
    r = np.maximum(regrets[off : off + k], 0.0)
    total = 0.0
    for x in r:  # summed in order, as the kernel does
        total += x
    sigma[off : off + k] = r / total if total > 0 else 1.0 / k


def _draw(rng: np.random.Generator, probs: np.ndarray | list[float]) -> int:
    u = rng.random()
    acc = 0.0
    for x, s in enumerate(probs):
        acc += s
        if u < acc:
            return x
    return len(probs) - 1


def es_traversal(b: Blocks, p: int, regrets: np.ndarray, average: np.ndarray,
                 sigma: np.ndarray, floor: bool, weight: float, rng: np.random.Generator
                 ) -> None:  # fmt: skip
    """One external-sampling traversal for ``p``, by a scan of the sampled deal's block."""
    d = _deal(b, rng)
    a, m = b.start[d], b.start[d + 1] - b.start[d]
    chosen = np.full(m, -1)
    eprob, reached = np.ones(m), np.ones(m)
    vis = [0]

    def draw(i: int) -> None:
        info = b.inf[a + i]
        if info >= 0 and b.actor[a + i] != p:
            off, k = b.offset[info], b.nact[info]
            chosen[i] = _draw(rng, sigma[off : off + k])

    draw(0)
    for j in range(1, m):
        pr = b.local_parent[a + j]
        if reached[pr] == 0.0:
            reached[j] = 0.0
            continue
        e = b.edge_sigma[a + j]
        if e >= 0:
            if b.actor[a + pr] == p:
                eprob[j] = sigma[e]
                reached[j] = reached[pr]
            else:
                eprob[j] = 1.0 if e - b.offset[b.inf[a + pr]] == chosen[pr] else 0.0
                reached[j] = reached[pr] * eprob[j]
        else:
            reached[j] = reached[pr]
        if reached[j] > 0.0:
            vis.append(j)
            draw(j)
    v = np.zeros(m)
    for j in vis:
        if b.term[a + j] >= 0:
            v[j] = b.term_u[p, b.term[a + j]]
    for j in reversed(vis[1:]):
        v[b.local_parent[a + j]] += eprob[j] * v[j]
    for j in vis[1:]:
        e, pr = b.edge_sigma[a + j], b.local_parent[a + j]
        if e >= 0 and b.actor[a + pr] == p and not b.fixed[e]:
            regrets[e] += reached[pr] * (v[j] - v[pr])
    for i in vis:
        info = b.inf[a + i]
        if info < 0 or b.inf_fixed[info]:
            continue
        off, k = b.offset[info], b.nact[info]
        if b.actor[a + i] == p:
            if floor:
                np.maximum(regrets[off : off + k], 0.0, out=regrets[off : off + k])
            _match(regrets, sigma, b, info)
        elif weight > 0:
            average[off : off + k] += weight * sigma[off : off + k]


def os_traversal(b: Blocks, p: int, regrets: np.ndarray, average: np.ndarray,
                 sigma: np.ndarray, floor: bool, weight: float, eps: float,
                 rng: np.random.Generator) -> None:  # fmt: skip
    """One outcome-sampling trajectory for ``p`` (children found by scanning the block)."""
    d = _deal(b, rng)
    a, m = b.start[d], b.start[d + 1] - b.start[d]
    kids: list[list[int]] = [[] for _ in range(m)]
    for j in range(1, m):
        kids[b.local_parent[a + j]].append(j)
    reach = np.ones(b.n_players)
    q_p, steps, i = 1.0, [], 0
    while b.term[a + i] < 0:
        info = b.inf[a + i]
        if info < 0:
            i = kids[i][0]
            continue
        q = b.actor[a + i]
        off, k = b.offset[info], b.nact[info]
        s = sigma[off : off + k]
        explore = q == p and not b.inf_fixed[info]
        probs = [eps / k + (1.0 - eps) * x for x in s] if explore else list(s)
        pick = _draw(rng, probs)
        if q == p:
            steps.append((info, pick))
            q_p *= probs[pick]
        elif not b.inf_fixed[info] and weight > 0:
            rest = 1.0
            for r in range(b.n_players):
                if r != p and r != q:
                    rest *= reach[r]
            if rest * q_p > 0:
                average[off : off + k] += weight * s / (rest * q_p)
        reach[q] *= s[pick]
        i = kids[i][pick]
    w = b.term_u[p, b.term[a + i]] / q_p
    tail = 1.0
    for info, pick in reversed(steps):
        off, k = b.offset[info], b.nact[info]
        sp = sigma[off + pick]
        if not b.inf_fixed[info]:
            for x in range(k):
                if x == pick:
                    regrets[off + x] += w * tail * (1.0 - sp)
                else:
                    regrets[off + x] -= w * tail * sp
            if floor:
                np.maximum(regrets[off : off + k], 0.0, out=regrets[off : off + k])
        tail *= sp
    for info, _ in steps:
        if not b.inf_fixed[info]:
            _match(regrets, sigma, b, info)


def _discount(b: Blocks, regrets: np.ndarray, p: int, t: int, alpha: float, beta: float
              ) -> None:  # fmt: skip
    """DCFR's discount of ``p``'s free regrets before her traversal of iteration ``t``."""
    ta, tb = float(t) ** alpha, float(t) ** beta
    mine = (b.sigma_player == p) & ~b.fixed
    pos = mine & (regrets > 0)
    neg = mine & ~(regrets > 0)
    regrets[pos] *= ta / (ta + 1.0)
    regrets[neg] *= tb / (tb + 1.0)


def run_many(kind: int, n_iter: int, t0: int, regrets: np.ndarray, average: np.ndarray,
             sigma: np.ndarray, floor: bool, gamma: float, discount: bool, alpha: float,
             beta: float, eps: float, b: Blocks, rng: np.random.Generator) -> None:  # fmt: skip
    """:func:`toypoker.engines.rows.mccfr.run_many` in plain Python (``kind`` 0 external,
    1 outcome sampling), in place, on the same random draws."""
    for it in range(n_iter):
        t = t0 + it + 1
        weight = float(t) ** gamma
        for p in range(b.n_players):
            if discount:
                _discount(b, regrets, p, t, alpha, beta)
            if kind == 0:
                es_traversal(b, p, regrets, average, sigma, floor, weight, rng)
            else:
                os_traversal(b, p, regrets, average, sigma, floor, weight, eps, rng)
