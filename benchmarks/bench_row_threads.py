"""Would threads pay on the games the deal table runs? (issue 36, item 1: "row-layout
kernels too where a benchmark shows a gain").

``tp.load_game(spec)`` puts a game on the deal table (rows) only where the layout cost
model predicts its CFR+ iteration faster there than on hand vectors: small games.  The
row kernels (``toypoker.engines.rows.cfr``) are serial.  A threaded row kernel would split
the same public tree at the same cut as the vector kernel's threads
(``toypoker.engines.vectors.subtrees.split``), so the vector kernel on the same game, with its
size floor (``VectorKernel.min_parallel_entries``) lowered to 0 so that it starts its
threads anyway, shows what two threads can gain at these sizes.

Per game of the engine ladder that ``auto`` puts on rows (and the two smallest it puts
on hand vectors, for scale), interleaved rounds of CFR+ iterations (``tp.Solver.step``):
the row layout (one thread), and hand vectors on one thread and on two; printed: the
median seconds an iteration, the two-thread speed-up of the vector kernel, and the
layout ``auto`` picks.  The machine load is printed before and after.

Usage::

    python benchmarks/bench_row_threads.py [--reps 5] [--save]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

LADDER = [  # benchmarks/bench_engine.py --ladder
    "kuhn(players=2)",
    "kuhn(players=3)",
    "kuhn(players=4,cards=6)",
    "holdem(players=2,ranks=6,suits=2,hole=1,rounds=2,board2=1)",
    "rhode_island(ranks=3,suits=2,cap=1)",
    "rhode_island(ranks=4,suits=2)",
    "mercer(players=2,variant=smh)",
    "mercer(players=2,variant=mmh)",
]


NAMES = {"rows": "rows", "one": "vectors, 1 thread", "two": "vectors, 2 threads"}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def per_iteration(solver, n: int) -> float:
    t0 = time.perf_counter()
    solver.step(n)
    return (time.perf_counter() - t0) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()

    import toypoker as tp
    from toypoker.engines.evaluation import vector_of
    from toypoker.engines.vectors.kernel import VectorKernel

    VectorKernel.min_parallel_entries = 0  # threads started at every size (see above)
    print(f"load before: {load()} (1/5/15 min), cores: {os.cpu_count()}\n")
    print("| game | auto | entries | rows s/it | vectors 1 thread s/it | vectors 2 threads "
          "s/it | 2 threads vs 1 | best |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for spec in LADDER:
        auto = tp.load_game(spec).layout
        rows = tp.Solver(tp.load_game(spec, layout="rows"), "cfr+")
        vg = tp.load_game(spec, layout="vector")
        one = tp.Solver(vg, "cfr+", threads=1)
        two = tp.Solver(vg, "cfr+", threads=2)
        for s in (rows, one, two):
            s.step(2)  # compiled
        n = max(2, min(200, int(0.3 / max(per_iteration(rows, 2), 1e-6))))  # ~0.3 s a round
        t: dict[str, list[float]] = {"rows": [], "one": [], "two": []}
        for _ in range(args.reps):
            for name, s in (("rows", rows), ("one", one), ("two", two)):
                t[name].append(per_iteration(s, n))
        m = {k: statistics.median(v) for k, v in t.items()}
        best = min(m, key=m.get)
        entries = vector_of(vg).entries
        print(
            f"| `{spec}` | {auto} | {entries:,} | {m['rows']:.3g} | {m['one']:.3g} | "
            f"{m['two']:.3g} | {m['one'] / m['two']:.2f}x | {NAMES[best]} |",
            flush=True,
        )
    print(f"\nload after: {load()}; medians of {args.reps} interleaved rounds")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
