"""The vector kernel's public subtrees on 1 and 2 threads (issue 36, item 1).

Per game, in one fresh process: build the vector layout (``build_vector(spec,
rank=True)``), then CFR+ iterations (``toypoker.engines.vectors.regrets.step_many``, the
fused kernel) inside ``toypoker.threads.kernel_threads(1)`` and ``kernel_threads(2)``,
interleaved, ``--reps`` rounds of ``--iterations`` iterations each; printed: the
median seconds an iteration, wall and CPU (the process's CPU time over all threads:
2 threads that both work show about twice their wall time), the speed-up of the wall
medians, and that every round's state is the same on both counts, bit for bit.
``top %``: the share of the work above the cut, which runs in one thread (nodes, and
terminals counted as 4 nodes): the speed-up on 2 idle cores is at most
``1 / (top + (1 - top) / 2)``.  Games below the kernel's size floor
(``VectorKernel.min_parallel_entries``) run in one thread on both counts.  The
NashConv call (``VectorKernel.evaluate``) and a fictitious-play step
(``fictitious.layout_step`` on ``layouts.vector.responses.VectorLayout``: the kernel's
best responses) are timed the same way; ``fp numpy`` is that step on the numpy reference
(``VectorLayout(fused=False)``), once a round.

Compile time: the first iteration of a process with an empty numba cache
(``NUMBA_CACHE_DIR`` pointed at a fresh directory for that child only), and with the
cache filled (``--compile`` adds these rows; a cold compile takes a minute or more).

The machine load (``os.getloadavg``) is printed before and after: on a shared 2-core
machine a busy core takes the second thread's share, so wall speed-ups shrink with
the load while the CPU columns show the work done.

Usage::

    python benchmarks/bench_threads.py                    # Rhode Island + a smaller game
    python benchmarks/bench_threads.py --only mercer      # the games whose spec has it
    python benchmarks/bench_threads.py --compile          # + first-call (compile) times
    python benchmarks/bench_threads.py --save             # also benchmarks/results/bench_threads.md
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

GAMES = [
    "mercer(players=3,variant=mmh)",
    "rhode_island(ranks=8,suits=4)",
    "rhode_island",
]


def child(spec: str, reps: int, iterations: int) -> None:
    """Build ``spec``, time CFR+ and evaluate on 1 and 2 threads interleaved, print JSON."""
    from dataclasses import replace

    import numpy as np

    from toypoker.engines.vectors import regrets as VC
    from toypoker.engines.vectors.direct import build_vector
    from toypoker.engines.vectors.kernel import vector_kernel
    from toypoker.engines.vectors.responses import VectorLayout
    from toypoker.solvers import cfr as C
    from toypoker.solvers.fictitious import FPOptions, layout_init, layout_step
    from toypoker.solvers.registry import METHODS
    from toypoker.threads import kernel_threads

    start = time.perf_counter()
    vg = build_vector(spec, rank=True)
    kernel = vector_kernel(vg)
    assert kernel is not None
    out: dict[str, object] = {"build": time.perf_counter() - start, "entries": kernel.entries}
    seg, tseg = kernel.parts[1:3]
    out["subtrees"] = len(kernel.parts[3])
    # the serial share: the part above the cut (nodes and terminals, a terminal ~4 nodes)
    weight = np.diff(seg) + 4 * np.diff(tseg)
    out["top"] = float(weight[0] / weight.sum())
    out["largest"] = float(weight[1:].max() / weight.sum())
    opts = replace(METHODS["cfr+"].defaults, backend=C.Backend.NUMBA)
    state = VC.init(vg)
    start = time.perf_counter()
    state = VC.step_many(vg, state, opts, 1)  # compiles (or loads) the kernels
    out["first"] = time.perf_counter() - start
    times: dict[int, dict[str, list[float]]] = {1: {}, 2: {}}
    same = True
    fp_options, fused = FPOptions(), VectorLayout(vg)
    fp_state = layout_step(vg.game, layout_init(vg.game, fp_options, fused), fp_options, fused)
    for _ in range(reps):
        w = time.perf_counter()
        layout_step(vg.game, fp_state, fp_options, VectorLayout(vg, fused=False))
        times[1].setdefault("fp_numpy", []).append(time.perf_counter() - w)
        fp_ends = {}
        ends = {}
        for n in (1, 2):
            with kernel_threads(n) as used:
                out[f"used{n}"] = used
                w, c = time.perf_counter(), time.process_time()
                ends[n] = VC.step_many(vg, state, opts, iterations)
                times[n].setdefault("wall", []).append((time.perf_counter() - w) / iterations)
                times[n].setdefault("cpu", []).append((time.process_time() - c) / iterations)
                w, c = time.perf_counter(), time.process_time()
                values, best = kernel.evaluate(ends[n].sigma)
                times[n].setdefault("eval", []).append(time.perf_counter() - w)
                times[n].setdefault("eval_cpu", []).append(time.process_time() - c)
                ends[n] = (ends[n], values.copy(), best.copy())
                w = time.perf_counter()
                fp_ends[n] = layout_step(vg.game, fp_state, fp_options, fused)
                times[n].setdefault("fp", []).append(time.perf_counter() - w)
        same &= all(np.array_equal(getattr(fp_ends[1], k), getattr(fp_ends[2], k))
                    for k in ("sigma", "average"))  # fmt: skip
        fp_state = fp_ends[1]
        a, b = ends[1], ends[2]
        same &= all(np.array_equal(x, y) for x, y in zip(a[1:], b[1:], strict=True))
        same &= all(np.array_equal(getattr(a[0], k), getattr(b[0], k))
                    for k in ("regrets", "average", "sigma"))  # fmt: skip
        state = a[0]
    out["median"] = {n: {k: statistics.median(v) for k, v in t.items()} for n, t in times.items()}
    out["same"] = bool(same)
    print(json.dumps(out))


def ceiling(reps: int) -> tuple[float, float]:
    """The speed-up of a trivially parallel numba loop (64 equal tasks, no shared data)
    on 2 threads over 1, interleaved, medians: what this machine gives a second thread
    now (2.0 on 2 idle cores); the rows above are to be read against it."""
    import numba
    import numpy as np
    from numba import njit, prange

    @njit(parallel=True)
    def spin(n: int) -> np.ndarray:
        out = np.zeros(64)
        for i in prange(64):
            x = 0.0
            for j in range(n):
                x += np.sin(j * 1e-3 + i)
            out[i] = x
        return out

    spin(10)
    times: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(reps):
        for n in (1, 2):
            numba.set_num_threads(n)
            start = time.perf_counter()
            spin(200_000)
            times[n].append(time.perf_counter() - start)
    one, two = statistics.median(times[1]), statistics.median(times[2])
    return one, two


def run_child(spec: str, reps: int, iterations: int, cache: str | None = None) -> dict:
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache  # this child's numba cache only
    cmd = [sys.executable, __file__, "--child", spec, "--reps", str(reps),
           "--iterations", str(iterations)]  # fmt: skip
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if res.returncode != 0:
        raise SystemExit(f"{spec}: {res.stderr.strip().splitlines()[-1:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=0, help="per round (0: by game size)")
    ap.add_argument("--only", default="")
    ap.add_argument("--compile", action="store_true", help="first-call times, cold cache")
    args = ap.parse_args()
    if args.child:
        child(args.child, args.reps, args.iterations)
        return
    print(f"load before: {load()} (1/5/15 min), cores: {os.cpu_count()}")
    one, two = ceiling(args.reps)
    print(f"ceiling before: a trivially parallel numba loop, 1 thread {one:.3f} s, 2 threads "
          f"{two:.3f} s: {one / two:.2f}x")  # fmt: skip
    heads = ["entries", "subtrees", "top %", "build s", "first s", "1 thr s/it", "cpu",
             "2 thr s/it", "cpu", "speed-up", "eval 1", "eval 2", "fp numpy", "fp 1", "fp 2",
             "same"]  # fmt: skip
    print(f"{'game':34} " + " ".join(f"{h:>10}" for h in heads))
    for spec in [g for g in GAMES if args.only in g]:
        its = args.iterations or (3 if spec == "rhode_island" else 20)
        r = run_child(spec, args.reps, its)
        m1, m2 = r["median"]["1"], r["median"]["2"]
        cells = [f"{r['entries']:,}", r["subtrees"], f"{100 * r['top']:.2f}",
                 f"{r['build']:.1f}", f"{r['first']:.2f}", f"{m1['wall']:.4f}",
                 f"{m1['cpu']:.4f}", f"{m2['wall']:.4f}", f"{m2['cpu']:.4f}",
                 f"{m1['wall'] / m2['wall']:.2f}x", f"{m1['eval']:.3f}", f"{m2['eval']:.3f}",
                 f"{m1['fp_numpy']:.3f}", f"{m1['fp']:.3f}", f"{m2['fp']:.3f}",
                 r["same"]]  # fmt: skip
        print(f"{spec:34} " + " ".join(f"{str(c):>10}" for c in cells), flush=True)
        if args.compile:
            with tempfile.TemporaryDirectory() as cache:
                cold = run_child(spec, 1, 1, cache)["first"]
                warm = run_child(spec, 1, 1, cache)["first"]
            print(f"  first iteration, numba cache empty: {cold:.1f} s; filled: {warm:.2f} s")
    one, two = ceiling(args.reps)
    print(f"ceiling after: a trivially parallel numba loop, 1 thread {one:.3f} s, 2 threads "
          f"{two:.3f} s: {one / two:.2f}x")  # fmt: skip
    print(
        f"load after: {load()}; medians of {args.reps} interleaved rounds; "
        f"threads used: 1 and {r.get('used2')}"
    )


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
