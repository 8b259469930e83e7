"""The compiled MCCFR traversals against a plain-Python full-block reference.

The compiled external-sampling traversal walks only the rows reached under the
sampled actions (breadth first through per-block child lists) and outcome
sampling follows the same child lists.  The reference below is the earlier
formulation, written out in Python: a scan over *every* row of the sampled
deal's block in row order, drawing the other players' actions as their rows
are met, then the values, regrets (Lanctot et al. 2009, eq. for the sampled
counterfactual regret ``v(ha) - v(h)``; importance weights cancel) and the
simple average.  The random draws come in the same order, so states must be
*equal*, not merely close: every regret, average and probability, and the
generator's state after the run.
"""

from __future__ import annotations

import numpy as np
import pytest

from toypoker.solvers.mccfr import (
    ESOptions,
    OSOptions,
    es_init,
    es_step_many,
    make_rng,
    os_init,
    os_step_many,
)
from toypoker.solvers.mccfr_kernels import Blocks

SPECS = ["kuhn(players=2)", "kuhn(players=3)", "leduc(players=2)", "leduc(players=3)"]


def _deal(b: Blocks, rng: np.random.Generator) -> int:
    u = rng.random() * b.cumw[-1]
    return int(np.searchsorted(b.cumw, u, side="right"))


def _match(regrets, sigma, b, info):
    off, k = b.offset[info], b.nact[info]
    r = np.maximum(regrets[off : off + k], 0.0)
    total = 0.0
    for x in r:  # summed in order, as the kernel does
        total += x
    sigma[off : off + k] = r / total if total > 0 else 1.0 / k


def _draw(rng, probs) -> int:
    u = rng.random()
    acc = 0.0
    for x, s in enumerate(probs):
        acc += s
        if u < acc:
            return x
    return len(probs) - 1


def es_reference(b, p, regrets, average, sigma, floor, weight, rng):
    """External sampling by a scan of the whole block (the earlier kernel, in Python)."""
    d = _deal(b, rng)
    a, m = b.start[d], b.start[d + 1] - b.start[d]
    chosen = np.full(m, -1)
    eprob, reached = np.ones(m), np.ones(m)
    vis = []

    def draw(i):
        info = b.inf[a + i]
        if info >= 0 and b.actor[a + i] != p:
            off, k = b.offset[info], b.nact[info]
            chosen[i] = _draw(rng, sigma[off : off + k])

    vis.append(0)
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


def os_reference(b, p, regrets, average, sigma, floor, weight, eps, rng):
    """Outcome sampling with the children found by scanning the block (earlier kernel)."""
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


def _reference_run(kind, game, state, options, n):
    b = Blocks(game)
    rng = make_rng(None, state.rng)
    regrets, average, sigma = state.regrets.copy(), state.average.copy(), state.sigma.copy()
    for it in range(n):
        weight = float(state.iteration + it + 1) ** options.gamma
        for p in range(game.n_players):
            if kind == "es":
                es_reference(b, p, regrets, average, sigma, options.floor, weight, rng)
            else:
                os_reference(
                    b, p, regrets, average, sigma, options.floor, weight, options.epsilon, rng
                )
    return regrets, average, sigma, rng.bit_generator.state


@pytest.mark.parametrize("spec", SPECS)
def test_blocks_are_met_breadth_first_in_row_order(spec, game):
    # the condition under which the reached-rows walk draws in the full scan's order
    b = Blocks(game(spec))
    assert b.breadth_first
    # every row but each block's root is some row's child
    assert b.child_ptr[-1] == len(b.child) == len(b.inf) - (len(b.start) - 1)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("floor, gamma", [(False, 0.0), (True, 1.0)])
def test_external_sampling_equals_full_block_scan(spec, floor, gamma, game):
    g = game(spec)
    opts = ESOptions(floor=floor, gamma=gamma)
    s0 = es_init(g, opts, 11)
    s0 = es_step_many(g, s0, opts, 7)  # start from a non-uniform strategy
    n = 30 if "leduc(players=3)" in spec else 60
    fast = es_step_many(g, s0, opts, n)
    regrets, average, sigma, rng_state = _reference_run("es", g, s0, opts, n)
    assert np.array_equal(fast.regrets, regrets)
    assert np.array_equal(fast.average, average)
    assert np.array_equal(fast.sigma, sigma)
    assert fast.rng == rng_state
    assert np.any(fast.regrets != s0.regrets)  # the run did update something


@pytest.mark.parametrize("spec", SPECS)
def test_outcome_sampling_equals_block_scan(spec, game):
    g = game(spec)
    opts = OSOptions(floor=True, gamma=1.0, epsilon=0.4)
    s0 = os_step_many(g, os_init(g, opts, 5), opts, 11)
    fast = os_step_many(g, s0, opts, 80)
    regrets, average, sigma, rng_state = _reference_run("os", g, s0, opts, 80)
    assert np.array_equal(fast.regrets, regrets)
    assert np.array_equal(fast.average, average)
    assert np.array_equal(fast.sigma, sigma)
    assert fast.rng == rng_state
