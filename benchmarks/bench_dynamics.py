"""Repeated-play simulator benchmark: rounds per second on one core.

Targets: issue 6, at least 10^7 rounds in under 10 s on one core (the paper's
runs were 1.1 x 10^7 rounds); issue 11, at least 5 M rounds/s.  Each
configuration runs three times; the table shows the median and the machine
load (``os.getloadavg``) at start and end.  Usage:
``python benchmarks/bench_dynamics.py``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from rich.console import Console
from rich.table import Table

from toypoker.dynamics.play import play


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    play(rounds=1000)  # compile (cached on disk after the first run)
    start = load()
    t = Table(title="Repeated SKP with estimators (numba, one core; median of 3 runs)")
    for c in ["k", "L", "estimator", "rounds", "seconds", "rounds/s", "target"]:
        t.add_column(c, justify="right")
    for k, L, n, est in [
        (0.001, 24, 10_000_000, "corrected"),
        (0.01, 192, 10_000_000, "corrected"),
        (0.001, 6, 11_000_000, "corrected"),
        (0.001, 24, 10_000_000, "printed"),
    ]:
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            play(k=(k,) * 3, L=(L,) * 3, rounds=n, seed=1, record_every=10000, estimator=est)
            times.append(time.perf_counter() - t0)
        dt = statistics.median(times)
        t.add_row(
            f"{k:g}", str(L), est, f"{n:,}", f"{dt:.2f}", f"{n / dt:,.0f}", ">= 5 M/s; 1e7 < 10 s"
        )
    Console().print(t)
    print(f"load average (1/5/15 min): start {start}, end {load()}; {os.cpu_count()} CPUs")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
