"""How far a CFR iteration on hand vectors is from this machine's memory floor.

Measures the machine's memory bandwidth the way STREAM does -- ``copy`` (``a = b``: 16
bytes moved an element) and ``triad`` (``a = b + s*c``: 24 bytes) over arrays far larger
than the caches, best of ``--reps``, on one thread and on one thread a core (each thread
its own slice, numpy releasing the GIL) -- then times a CFR iteration of ``--spec`` on
hand vectors (``tp.Solver(game, --method)``, every core) and prints the bytes the
iteration must move at the least beside what it took: an iteration reads and writes,
for each hand entry (public node x player x hand), about ``--arrays`` float64 arrays
(reach, counterfactual value, regret, average, strategy), so its floor is
``arrays * 8 * entries`` bytes at the measured triad bandwidth.  The ratio
``iteration / floor`` is how many times the floor the kernel takes.

Usage::

    python benchmarks/bench_bandwidth.py                      # Rhode Island (2.4 GB)
    python benchmarks/bench_bandwidth.py --spec "rhode_island(ranks=8)" --save
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time

import numpy as np

MB = 1 << 20


def stream(n: int, threads: int, reps: int) -> dict[str, float]:
    """Best bandwidth (bytes/s) of copy and triad over ``n`` float64s, split over
    ``threads`` threads (each its own contiguous slice)."""
    a, b, c = np.zeros(n), np.ones(n), np.full(n, 2.0)
    bounds = np.linspace(0, n, threads + 1).astype(int)

    def run(kernel: str) -> float:
        def work(lo: int, hi: int) -> None:
            if kernel == "copy":
                np.copyto(a[lo:hi], b[lo:hi])
            else:  # triad: a = b + 3 c, in place, no temporary
                np.multiply(c[lo:hi], 3.0, out=a[lo:hi])
                np.add(a[lo:hi], b[lo:hi], out=a[lo:hi])

        ts = [threading.Thread(target=work, args=(int(lo), int(hi)))
              for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]  # fmt: skip
        t = time.perf_counter()
        for th in ts:
            th.start()
        for th in ts:
            th.join()
        return time.perf_counter() - t

    out = {}
    for kernel, moved in (("copy", 16), ("triad", 32)):  # triad as two passes: 32 B
        best = min(run(kernel) for _ in range(reps))
        out[kernel] = moved * n / best
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="rhode_island")
    parser.add_argument("--method", default="pdcfr+")
    parser.add_argument("--iterations", type=int, default=5, help="timed iterations")
    parser.add_argument("--arrays", type=int, default=5, help="float64 arrays an entry")
    parser.add_argument("--mb", type=int, default=800, help="STREAM array size, MB each")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    import toypoker as tp
    from toypoker.engines.choice import vector_count

    cores = os.cpu_count() or 1
    print(f"load before: {tuple(round(x, 2) for x in os.getloadavg())}, {cores} cores\n")
    n = args.mb * MB // 8
    print("| STREAM | threads | copy GB/s | triad GB/s |")
    print("|---|---:|---:|---:|")
    bw = {}
    for threads in sorted({1, cores}):
        bw[threads] = stream(n, threads, args.reps)
        print(f"| numpy, {args.mb} MB arrays | {threads} | {bw[threads]['copy'] / 1e9:.1f} | "
              f"{bw[threads]['triad'] / 1e9:.1f} |")  # fmt: skip
    counted = vector_count(args.spec)
    game = tp.load_game(args.spec, layout="vector")
    solver = tp.Solver(game, args.method)
    solver.step(2)  # compile and warm up
    times = []
    for _ in range(args.iterations):
        t = time.perf_counter()
        solver.step(1)
        times.append(time.perf_counter() - t)
    it = statistics.median(times)
    entries = counted.entries if counted is not None else 0
    floor_bytes = args.arrays * 8 * entries
    best = max(v["triad"] for v in bw.values())
    floor = floor_bytes / best
    print("\n| game | entries | bytes at least | floor s | iteration s | iteration / floor |")
    print("|---|---:|---:|---:|---:|---:|")
    print(f"| `{game.spec}` | {entries:,} | {floor_bytes / 1e9:.2f} GB | {floor:.3f} | "
          f"{it:.3f} | {it / floor:.1f} |")  # fmt: skip
    print(f"\n{args.method}, median of {args.iterations} iterations on every core; floor = "
          f"{args.arrays} float64 arrays an entry at the best triad bandwidth "
          f"({best / 1e9:.1f} GB/s).")
    print(f"load after: {tuple(round(x, 2) for x in os.getloadavg())}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
