"""What weak collusion costs on the vector layout: a CFR+ iteration of a game and of the
same game with a colluding pair (the payoff map forces the dense terminal, ``O(R^3)``
a terminal over rank hands, where the uncolluded game takes the ``O(H)`` sweep), and
the row layout's iteration of the colluded game where it fits.

Run: ``python benchmarks/bench_vector_collusion.py [--reps 5] [--iterations 5]``.
Prints a table (median wall and CPU ms an iteration over ``--reps`` interleaved
rounds, the fused kernel warmed first) and the machine load before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from toypoker import load_game
from toypoker.engines.vectors import regrets as VC
from toypoker.engines.vectors.direct import build_vector
from toypoker.solvers import cfr as C
from toypoker.solvers.registry import METHODS

GAMES = [
    ("kuhn(players=3,cards=52)", True),
    ("holdem(players=3,ranks=4,suits=2)", True),
    ("holdem(players=3,ranks=13,suits=4)", False),  # rows: 6.6 GB, not run
]


def _timed(step, state, n: int) -> tuple[float, float, object]:
    w, c = time.perf_counter(), time.process_time()
    state = step(state, n)
    return (time.perf_counter() - w) / n * 1e3, (time.process_time() - c) / n * 1e3, state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=5)
    args = ap.parse_args()
    opts = METHODS["cfr+"].defaults
    print(f"load before: {os.getloadavg()}  (2 cores shared)")
    print(f"{'game':40s} {'layout':22s} {'entries/rows':>12s} {'wall ms':>9s} {'cpu ms':>9s}")
    for spec, rows in GAMES:
        team = spec[:-1] + ",team=12)"
        runs = {}
        for label, s in (("vector", spec), ("vector, team=12", team)):
            vg = build_vector(s, rank=True)
            st = VC.step_many(vg, VC.init(vg), opts, 1)  # warm the kernel
            runs[label] = (vg.entries, lambda x, k, vg=vg: VC.step_many(vg, x, opts, k), st)
        if rows:
            g = load_game(team)
            st = C.step_many(g, C.init(g, opts), opts, 1)
            runs["rows, team=12"] = (g.n_rows, lambda x, k, g=g: C.step_many(g, x, opts, k), st)
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in runs}
        for _ in range(args.reps):  # interleaved
            for label, (size, step, st) in runs.items():
                wall, cpu, st = _timed(step, st, args.iterations)
                runs[label] = (size, step, st)
                times[label].append((wall, cpu))
        for label, (size, _, _) in runs.items():
            wall = statistics.median(t[0] for t in times[label])
            cpu = statistics.median(t[1] for t in times[label])
            print(f"{spec:40s} {label:22s} {size:>12,} {wall:9.2f} {cpu:9.2f}")
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
