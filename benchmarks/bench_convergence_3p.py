"""NashConv against iterations of a CFR schedule on a three-player game: does it get to
a target at all?  (Issue 49 asks three-player Rhode Island with one bet a round,
``rhode_island(players=3,cap=1)``, to NashConv 0.0005.)

Runs ``tp.solve(game, method, iterations=N, check_every=K, threads=T)`` and prints one
row a check: the iteration, NashConv and the seconds so far, then the load.  Three-player
games carry no convergence guarantee for the CFR family (its average converges to a
coarse correlated equilibrium, not a Nash equilibrium), so this is measured, not assumed.

Usage::

    python benchmarks/bench_convergence_3p.py "rhode_island(players=3,cap=1,ranks=6)" \\
        --method pdcfr+ --iterations 4000 --every 250 [--threads 1] [--save]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import toypoker as tp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_file import saved_output, take_save_flag  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec")
    parser.add_argument("--method", default="pdcfr+")
    parser.add_argument("--iterations", type=int, default=4000)
    parser.add_argument("--every", type=int, default=250)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    print(f"load before: {'/'.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    g = tp.load_game(args.spec)
    print(f"`{g.spec}`, {args.method}, {args.threads} thread(s)\n")
    print("| iteration | NashConv | seconds |")
    print("|---:|---:|---:|")
    t0 = time.perf_counter()

    def progress(t: int, nc: float | None) -> None:
        if nc is not None:
            print(f"| {t:,} | {nc:.5f} | {time.perf_counter() - t0:.0f} |", flush=True)

    tp.solve(g, args.method, iterations=args.iterations, check_every=args.every,
             threads=args.threads, progress=progress)  # fmt: skip
    print(f"\nload after: {'/'.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
