"""The vector kernel's public subtrees on threads (issue 36, item 1): one thread and two
give the same numbers, bit for bit (``np.array_equal``), for CFR+ and PDCFR+ (alternating
and simultaneous), values, best responses and NashConv, on two- and three-player games.

The games are small, so the kernel's size floor (``min_parallel_entries``) is lowered
to 0 to put them on threads; one thread runs the serial path.
"""

from __future__ import annotations

from dataclasses import replace

import numba
import numpy as np
import pytest

from toypoker.engines.vectors import kernel as K
from toypoker.engines.vectors import regrets as VC
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.direct import build_vector
from toypoker.solvers import cfr as C
from toypoker.solvers.registry import METHODS
from toypoker.threads import kernel_threads

from .maps import close

SPECS = [
    "rhode_island(ranks=4,suits=2)",
    "kuhn(players=3,cards=6)",
    "mercer(players=3,variant=mmh)",
]

pytestmark = pytest.mark.skipif(
    int(numba.config.NUMBA_NUM_THREADS) < 2, reason="numba's pool has one thread"
)


@pytest.fixture(scope="module", params=SPECS)
def vg(request: pytest.FixtureRequest) -> object:
    return build_vector(request.param, rank=True)


def _on_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small games on threads too (the kernel's size floor lowered to 0)."""
    monkeypatch.setattr(K.VectorKernel, "min_parallel_entries", 0)


def _run(vg: object, method: str, alternating: bool, threads: int) -> C.CFRState:
    opts = replace(METHODS[method].defaults, backend=C.Backend.NUMBA, alternating=alternating)
    kernel = K.vector_kernel(vg)  # type: ignore[arg-type]
    assert kernel is not None
    with kernel_threads(threads):
        assert kernel.parallel() is (threads > 1)
        return VC.step_many(vg, VC.init(vg), opts, 6)  # type: ignore[arg-type]


@pytest.mark.parametrize("method", ["cfr+", "pdcfr+"])
@pytest.mark.parametrize("alternating", [True, False])
def test_iterations_equal_on_one_and_two_threads(
    vg: object, method: str, alternating: bool, monkeypatch: pytest.MonkeyPatch
):
    _on_threads(monkeypatch)
    one = _run(vg, method, alternating, 1)
    two = _run(vg, method, alternating, 2)
    for name in ("regrets", "average", "sigma"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name


def test_evaluate_equal_on_one_and_two_threads(vg: object, monkeypatch: pytest.MonkeyPatch):
    _on_threads(monkeypatch)
    kernel = K.vector_kernel(vg)  # type: ignore[arg-type]
    assert kernel is not None
    game = vg.game  # type: ignore[attr-defined]
    sigma = _run(vg, "cfr+", True, 1).sigma  # a profile CFR+ reached: ties are rare
    with kernel_threads(1):
        values1, best1 = kernel.evaluate(sigma)
    with kernel_threads(2):
        values2, best2 = kernel.evaluate(sigma)
    assert np.array_equal(values1, values2)
    assert np.array_equal(best1, best2)
    assert float((best1 - values1).sum()) == float((best2 - values2).sum())  # NashConv
    ref = [V.best_response_value(vg, sigma, p)[0] for p in range(game.n_players)]  # type: ignore[arg-type]
    assert close(best2, np.array(ref, dtype=np.float64))


def test_subtrees_cover_the_tree(vg: object):
    # the segments partition the nodes (top first, parents before children), the
    # terminals and the infosets (by their node); node ids within a segment ascend
    kernel = K.vector_kernel(vg)  # type: ignore[arg-type]
    assert kernel is not None
    order, seg, tseg, binned, iorder, iseg, bounds = kernel.parts
    nn = vg.n_nodes  # type: ignore[attr-defined]
    assert sorted(order.tolist()) == list(range(nn))
    assert seg[0] == 0 and seg[-1] == nn and tseg[-1] == len(kernel.terms[0])
    assert sorted(binned.tolist()) == list(range(len(seg) - 2))
    assert bounds.tolist() == [0, len(seg) - 2]  # one bin; threaded() deals them
    parent = vg.parent  # type: ignore[attr-defined]
    where = np.empty(nn, dtype=np.int64)
    for s in range(len(seg) - 1):
        ids = order[seg[s] : seg[s + 1]]
        assert np.all(np.diff(ids) > 0)
        where[ids] = s
    for t in range(1, nn):  # a node is in its parent's segment, or roots a subtree
        assert where[t] == where[parent[t]] or (where[parent[t]] == 0 and where[t] > 0)
    terms, rep_node = kernel.terms[0], kernel.infos[0]
    assert sorted(iorder.tolist()) == list(range(len(rep_node)))
    for s in range(len(tseg) - 1):
        assert np.all(where[terms[tseg[s] : tseg[s + 1]]] == s)
        assert np.all(where[rep_node[iorder[iseg[s] : iseg[s + 1]]]] == s)


def test_a_call_during_another_runs_serial(vg: object, monkeypatch: pytest.MonkeyPatch):
    # one parallel call at a time in the process (numba's workqueue layer aborts on
    # concurrent ones): with the lock held elsewhere the call runs in its own thread,
    # with the same numbers, and the lock is released after a parallel call
    _on_threads(monkeypatch)
    one = _run(vg, "cfr+", True, 1)
    with K._PARALLEL:
        busy = _run(vg, "cfr+", True, 2)
    assert np.array_equal(one.regrets, busy.regrets)
    _run(vg, "cfr+", True, 2)
    assert not K._PARALLEL.locked()


@pytest.mark.parametrize("threads", [1, 2, 3, 5])
def test_threads_take_balanced_bins(vg: object, threads: int):
    # a bin of subtrees a thread (numba splits a parallel loop into equal contiguous
    # blocks whatever its chunk size, so the kernel balances the blocks itself): every
    # subtree in one bin, bins dealt heaviest first to the least loaded, so no bin
    # exceeds the fair share by more than its lightest subtree (greedy's bound)
    from toypoker.engines.vectors.subtrees import threaded, weights

    kernel = K.vector_kernel(vg)  # type: ignore[arg-type]
    assert kernel is not None
    parts = threaded(kernel.parts, threads)
    binned, bounds = parts[3], parts[6]
    n_sub = len(kernel.parts[1]) - 2
    assert sorted(binned.tolist()) == list(range(n_sub))
    assert len(bounds) == min(threads, n_sub) + 1 and bounds[0] == 0 and bounds[-1] == n_sub
    w = weights(kernel.parts)
    loads = [int(w[binned[bounds[b] : bounds[b + 1]]].sum()) for b in range(len(bounds) - 1)]
    assert sum(loads) == int(w.sum())
    for b, load in enumerate(loads):
        mine = w[binned[bounds[b] : bounds[b + 1]]]
        assert load - int(mine.min()) <= min(loads)  # its last subtree went to a least-loaded bin
    # the rest of the parts are the kernel's
    for i in (0, 1, 2, 4, 5):
        assert parts[i] is kernel.parts[i]
