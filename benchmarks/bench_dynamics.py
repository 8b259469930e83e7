"""Repeated-play simulator benchmark: rounds per second on one core.

Target (issue 6): at least 10^7 rounds in under 10 s on one core.  The paper's
runs were 1.1 x 10^7 rounds.  Usage: ``python benchmarks/bench_dynamics.py``.
"""

from __future__ import annotations

import time

from rich.console import Console
from rich.table import Table

from toypoker.dynamics.play import play


def main() -> None:
    play(rounds=1000)  # compile (cached on disk after the first run)
    t = Table(title="Repeated SKP with estimators (numba, one core)")
    for c in ["k", "L", "rounds", "seconds", "rounds/s", "target"]:
        t.add_column(c, justify="right")
    for k, L, n in [(0.001, 24, 10_000_000), (0.01, 192, 10_000_000), (0.001, 6, 11_000_000)]:
        t0 = time.perf_counter()
        play(k=(k,) * 3, L=(L,) * 3, rounds=n, seed=1, record_every=10000)
        dt = time.perf_counter() - t0
        t.add_row(f"{k:g}", str(L), f"{n:,}", f"{dt:.2f}", f"{n / dt:,.0f}", "1e7 in < 10 s")
    Console().print(t)


if __name__ == "__main__":
    main()
