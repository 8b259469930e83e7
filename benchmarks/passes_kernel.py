"""Each pass of the vector kernel's update on its own, for ``bench_kernel_passes.py``.

Each pass of one player runs as the kernel runs it on threads (``par_step`` on the
subtrees, numba set to one thread by the caller), on the kernel's own arrays; the
terminal values alone by a driver looping over every segment.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
from numba import njit

from toypoker.engines.vectors import subtrees as S


@njit(nogil=True)
def _terminals(p, reach, terms, parts, cfv, sizes):
    tseg = parts[2]
    for s in range(1, parts[1].shape[0] - 1):
        S._terminals(p, tseg[s], tseg[s + 1], reach, terms, cfv, sizes)
    S._terminals(p, tseg[0], tseg[1], reach, terms, cfv, sizes)


def pass_times(kernel, sigma, regrets, average, schedule, reps):  # noqa: ANN001, ANN201
    """``([(pass, seconds, bytes)], sum of the seconds)``: player 0's passes, the median
    CPU seconds of ``reps`` runs (the process's: a shared machine's other work does not
    count; the update changes ``sigma``, ``regrets`` and ``average`` as it runs)."""
    reach, cfv, inst = kernel.work
    tree, terms, parts, infos = kernel.tree, kernel.terms, kernel.parts, kernel.infos
    rule = kernel.rule(schedule)
    w = float(schedule["weight"])
    nn, hh = cfv.shape
    nt = len(terms[0])
    mine = int(np.sum(np.asarray(kernel.sigma_infoset) >= 0) // reach.shape[0])
    own_sets = int(np.sum(infos[3] == 0))
    p = 0
    kernel.iteration(sigma, regrets, average, **schedule)  # every reach vector set
    i64 = np.int64
    a = (sigma, regrets, average, inst, w, rule, tree, terms, kernel._parts(1), infos, reach, cfv,
         kernel.sizes)  # fmt: skip
    steps = [
        ("forward reach", lambda: S.par_step(i64(p), i64(-1), i64(-2), *a),
         nn * hh * (8 + 8 + tree[2].itemsize)),
        ("terminal values + backward pass (instantaneous regrets)",
         lambda: S.par_step(i64(-2), i64(p), i64(-2), *a),
         nt * hh * 16 + nn * hh * (8 + tree[2].itemsize) + (nn - nt) * hh * 8 + mine * 16),
        ("... of which the terminal values (a loop of their own)",
         lambda: _terminals(p, reach, terms, parts, cfv, kernel.sizes), nt * hh * 16),
        ("average + regret update", lambda: S.par_step(i64(-2), i64(-1), i64(p), *a),
         mine * (7 * 8 + 1) + own_sets * 8 * 5),
    ]  # fmt: skip
    out = []
    for name, fn, nbytes in steps:
        fn()
        times = []
        for _ in range(reps):
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
        out.append((name, statistics.median(times), nbytes))
    return out, sum(x[1] for x in out if not x[0].startswith("..."))
