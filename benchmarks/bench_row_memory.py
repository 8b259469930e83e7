"""Peak memory per row of the row layout, and Rhode Island Hold'em's counted size.

``toypoker info`` turns a counted row total into the memory the row layout would
need with ``games.layout_count.BYTES_PER_ROW``; this script measures that figure.
For each game of a ladder (small Rhode Island decks and a suited ``holdem``), in a
fresh process: compile, run CFR+ iterations, and record the process's peak resident
memory minus its peak after importing toypoker; bytes per row is that over the
game's rows.  Then the counted size of the full game (2 and 3 players, merged and
unmerged), which is never built.

Usage::

    python benchmarks/bench_row_memory.py [--iterations 20]

Machine load is printed with each table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from rich.console import Console
from rich.table import Table

LADDER = [
    "rhode_island(ranks=4,suits=2,cap=1)",
    "rhode_island(ranks=5,suits=2,cap=1)",
    "rhode_island(ranks=3,suits=2)",
    "rhode_island(ranks=4,suits=2)",
    "rhode_island(ranks=5,suits=3,cap=1)",
]

_RUN = """
import json, resource, sys, time
from toypoker import load_game, solve
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
g = load_game(sys.argv[1], max_bytes=2**36)
t1 = time.perf_counter()
solve(g, "cfr+", iterations=int(sys.argv[2]), check_every=10**9)
t2 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"rows": g.n_rows, "infosets": g.n_infosets, "build": t1 - t0,
                  "iteration": (t2 - t1) / int(sys.argv[2]), "kb": peak - base}))
"""


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def ladder_table(console: Console, iterations: int) -> None:
    t = Table(title=f"peak memory per row under CFR+ (fresh process each; load {load()})",
              title_justify="left")  # fmt: skip
    for c in ["game", "rows", "infosets", "build s", "CFR+ iteration s", "peak MB over import",
              "bytes / row"]:  # fmt: skip
        t.add_column(c, justify="right")
    for spec in LADDER:
        out = subprocess.run(
            [sys.executable, "-c", _RUN, spec, str(iterations)],
            capture_output=True,
            text=True,
            check=True,
        )
        r = json.loads(out.stdout)
        t.add_row(spec, f"{r['rows']:,}", f"{r['infosets']:,}", f"{r['build']:.2f}",
                  f"{r['iteration']:.4f}", f"{r['kb'] / 1024:.0f}",
                  f"{r['kb'] * 1024 / r['rows']:.0f}")  # fmt: skip
    console.print(t)


def counted_table(console: Console) -> None:
    from toypoker.games import count_layout

    t = Table(title=f"Rhode Island Hold'em, counted, never built (load {load()})",
              title_justify="left")  # fmt: skip
    for c in ["game", "deals", "public nodes", "infosets", "rows", "row layout GB", "count s"]:
        t.add_column(c, justify="right")
    for spec in [
        "rhode_island",
        "rhode_island(suit_isomorphism=false)",
        "rhode_island(players=3)",
    ]:
        t0 = time.perf_counter()
        c = count_layout(spec)
        sec = time.perf_counter() - t0
        assert c is not None
        t.add_row(spec, f"{c.deals:,}", f"{c.public_nodes:,}", f"{c.infosets:,}", f"{c.rows:,}",
                  f"{c.row_bytes / 1e9:,.0f}", f"{sec:.2f}")  # fmt: skip
    console.print(t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=20)
    args = ap.parse_args()
    console = Console(width=170)
    ladder_table(console, args.iterations)
    counted_table(console)


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
