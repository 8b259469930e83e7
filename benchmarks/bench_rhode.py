"""Rhode Island Hold'em on the vector layout beside the row layout (issue 21).

Per game: the row layout's rows (public node x deal) and the vector layout's hand
entries (public node x player x hand); the build time (row: ``load_game``; vector:
``toypoker.engines.vectors.direct.build_vector``, no deal table), the time of one CFR+
iteration (row: ``Solver(game, "cfr+")``, the fused row kernel; vector:
``Solver(as_game(vg), "cfr+")``, the fused vector kernel; median of the timed
iterations after one warm-up; for the full game also the process's CPU seconds,
what an iteration costs on a free core) and the peak resident memory of a fresh process that
builds the game and runs the iterations.  Each measurement runs in its own process,
row and vector interleaved, ``--reps`` times; medians are printed, with the machine
load before and after (2 cores shared: the load says how far the times stretch).

The full game (``rhode_island``, a standard deck) runs on the vector layout only: its
row layout is counted (``toypoker info rhode_island``: 438,275,565 rows, ~88 GB), and
the issue's own row-layout figure for the rank-merged betting game (34.2 M rows: 24 s
build, 0.49 s an iteration, 5.9 GB) is the nearest row measurement there is.

Usage::

    python benchmarks/bench_rhode.py               # small decks, both layouts
    python benchmarks/bench_rhode.py --big         # + 6x4 deck and the full game
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time

# the benchmarks folder is on the path when this runs as a script
from bench_vector import run as run_child

SMALL = ["rhode_island(ranks=4,suits=2)", "rhode_island(ranks=5,suits=3)"]
BIG = ["rhode_island(ranks=6,suits=4)"]
FULL = "rhode_island"


def child(spec: str, layout: str, iterations: int) -> None:
    """Build ``spec`` in ``layout`` ("rows" or "vector"), time CFR+ iterations, print JSON."""
    import numpy as np

    from toypoker import load_game
    from toypoker.engines import as_game
    from toypoker.engines.vectors.direct import build_vector
    from toypoker.solvers import Solver

    start = time.perf_counter()
    out: dict[str, float] = {}
    if layout == "rows":
        game = load_game(spec)
        solver: Solver = Solver(game, "cfr+")
        out["size"] = int(game.n_rows)
    else:
        vg = build_vector(spec)
        solver = Solver(as_game(vg), "cfr+")
        out["size"] = int(vg.entries)
    out["build"] = time.perf_counter() - start
    solver.step(1)  # warm-up: kernel set-up (and compilation when not cached)
    times, cpu = [], []
    for _ in range(iterations):
        t, c = time.perf_counter(), time.process_time()
        solver.step(1)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    assert np.isfinite(solver.state.regrets).all()
    out["iteration"] = statistics.median(times)
    out["cpu_iteration"] = statistics.median(cpu)  # the process's CPU seconds (serial)
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def run(spec: str, layout: str, iterations: int) -> dict[str, float]:
    """One measurement in a fresh process running this script's ``child``."""
    return run_child(spec, layout, iterations, script=__file__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="processes per layout and game")
    parser.add_argument("--iterations", type=int, default=5, help="timed iterations a process")
    parser.add_argument("--big", action="store_true", help="also a 6x4 deck and the full game")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    print(f"load before: {os.getloadavg()}  (2 cores shared)")
    print(
        f"{'game':<32} {'rows':>11} {'entries':>11} {'row build s':>11} {'vec build s':>11} "
        f"{'row s/it':>9} {'vec s/it':>9} {'row/vec':>7} {'row MB':>7} {'vec MB':>7}"
    )

    def med(rs: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in rs)

    for spec in SMALL + (BIG if args.big else []):
        old, new = [], []
        for _ in range(args.reps):  # interleaved
            old.append(run(spec, "rows", args.iterations))
            new.append(run(spec, "vector", args.iterations))
        print(
            f"{spec:<32} {int(old[0]['size']):>11,} {int(new[0]['size']):>11,} "
            f"{med(old, 'build'):>11.2f} {med(new, 'build'):>11.2f} "
            f"{med(old, 'iteration'):>9.4f} {med(new, 'iteration'):>9.4f} "
            f"{med(old, 'iteration') / med(new, 'iteration'):>7.1f} "
            f"{med(old, 'peak_mb'):>7.0f} {med(new, 'peak_mb'):>7.0f}",
            flush=True,
        )
    if args.big:
        new = [run(FULL, "vector", args.iterations) for _ in range(args.reps)]
        print(
            f"{FULL:<32} {'438,275,565':>11} {int(new[0]['size']):>11,} {'-':>11} "
            f"{med(new, 'build'):>11.2f} {'-':>9} {med(new, 'iteration'):>9.4f} {'-':>7} "
            f"{'~88 GB':>7} {med(new, 'peak_mb'):>7.0f}",
            flush=True,
        )
        print(
            f"  (rows counted, not built: toypoker info rhode_island; CPU seconds an "
            f"iteration {med(new, 'cpu_iteration'):.3f}: the wall time on a free core)"
        )
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
