"""Game core benchmark: toypoker beside OpenSpiel's C++, measured in one run.

Prints, per game: time per CFR+ iteration as users run it
(``Solver(game, "cfr+").step()``: the fused numba kernel), the bare kernel
call and the numpy reference (``backend="numpy"``), beside OpenSpiel's C++
``CFRPlusSolver``; and time per NashConv evaluation as users get it
(``toypoker.engines.rows.values.nash_conv`` on a float profile: the fused kernel), the
numpy reference ``evaluate`` and C++ ``pyspiel.nash_conv`` on the same policy;
then the time and peak memory of compiling ``kuhn(players=3, cards=52, pot=3)``
and evaluating one NashConv, in a fresh process.  The machine load is printed.

Usage::

    python benchmarks/bench_core.py            # everything (a few minutes)
    python benchmarks/bench_core.py --quick    # skip OpenSpiel on 3-player Leduc

Targets (issue 2): CFR+ >= 5x faster than OpenSpiel C++ on 2-player Leduc and
>= 50x on 3-player Leduc; NashConv of Leduc >= 10x faster than its C++
nash_conv; the 52-card game compiled and evaluated in < 2 s and < 1 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from toypoker import load_game
from toypoker.engines.rows import CFRKernel
from toypoker.evaluation import evaluate, nash_conv
from toypoker.solvers import Solver

GAMES = ["kuhn(players=2)", "kuhn(players=3)", "leduc(players=2)", "leduc(players=3)"]


def timed(fn, min_seconds: float = 1.0, max_reps: int = 1000) -> float:
    """Mean seconds per call over at least ``min_seconds`` (one warm-up call first)."""
    fn()
    reps, start = 0, time.perf_counter()
    while True:
        fn()
        reps += 1
        spent = time.perf_counter() - start
        if spent >= min_seconds or reps >= max_reps:
            return spent / reps


def ours(spec: str) -> tuple[float, float]:
    """As users run it: ``Solver.step`` (numba backend) and ``evaluate.nash_conv``."""
    g = load_game(spec)
    s = Solver(g, "cfr+")
    t_iter = timed(lambda: s.step(1))
    prof = s.profile()
    t_nc = timed(lambda: nash_conv(g, prof))
    return t_iter, t_nc


def ours_reference(spec: str) -> tuple[float, float]:
    """The numpy reference: ``Solver(..., backend="numpy").step`` and ``evaluate``."""
    g = load_game(spec)
    s = Solver(g, "cfr+", backend="numpy")
    t_iter = timed(lambda: s.step(1), min_seconds=0.5)
    prof = s.profile()
    t_nc = timed(lambda: evaluate(g, prof), min_seconds=0.5)
    return t_iter, t_nc


def ours_kernel(spec: str) -> float:
    """The bare fused kernel call (no state object): the solver's overhead floor."""
    g = load_game(spec)
    k = CFRKernel(g)
    sigma, regrets, ssum = k.uniform(), np.zeros(g.n_sigma), np.zeros(g.n_sigma)
    t = [0]

    def it() -> None:
        t[0] += 1
        k.iteration(sigma, regrets, ssum, weight=float(t[0]))

    return timed(it)


def openspiel(spec: str, iterations: int) -> tuple[float, float]:
    import pyspiel

    from toypoker.interop.openspiel import openspiel_game

    os_game = openspiel_game(load_game(spec))
    solver = pyspiel.CFRPlusSolver(os_game)
    solver.evaluate_and_update_policy()  # warm-up
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    t_iter = (time.perf_counter() - start) / iterations
    policy = solver.average_policy()
    start = time.perf_counter()
    pyspiel.nash_conv(os_game, policy)
    t_nc = time.perf_counter() - start
    return t_iter, t_nc


BIG = """
def peak_mb():
    # VmHWM: this address space's peak RSS (ru_maxrss survives execve on Linux and
    # would report the parent's peak)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
import time, json
t0 = time.perf_counter()
from toypoker import load_game
from toypoker.evaluation import nash_conv
from toypoker.profile import Profile
t1 = time.perf_counter()
g = load_game("kuhn(players=3,cards=52,pot=3)")
t2 = time.perf_counter()
nc = float(nash_conv(g, Profile.uniform(g)))
t3 = time.perf_counter()
print(json.dumps({"deals": g.n_deals, "rows": g.n_rows, "compile": t2 - t1, "nash_conv": t3 - t2,
                  "nc": nc, "peak_mb": peak_mb()}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip OpenSpiel on 3-player Leduc")
    args = ap.parse_args()
    console = Console()
    try:
        import pyspiel  # noqa: F401

        have_os = True
    except ImportError:
        have_os = False
        console.print("[yellow]open_spiel not installed: ours only[/yellow]")
    load = "/".join(f"{x:.2f}" for x in os.getloadavg())
    t = Table(
        title=f"CFR+ iteration and NashConv: toypoker vs OpenSpiel C++ (same run; load {load})",
        caption="ours = Solver.step / evaluate.nash_conv (fused kernel); bare = the kernel "
        "call alone; numpy = the reference backend; speed-up = OpenSpiel time / ours. "
        "Like-for-like tables (suit-merged games, LiteEFG): benchmarks/bench_peers.py. "
        "Targets: Leduc CFR+ 5x (2p), 50x (3p); Leduc NashConv 10x",
    )
    for col in [
        "game",
        "ours CFR+ it",
        "bare kernel",
        "numpy",
        "OpenSpiel CFR+ it",
        "speed-up",
        "ours NashConv",
        "numpy evaluate",
        "OpenSpiel nash_conv",
        "speed-up",
    ]:
        t.add_column(col, justify="right")
    for spec in GAMES:
        with console.status(f"{spec}: toypoker"):
            oi, on = ours(spec)
            ki = ours_kernel(spec)
            ri, rn = ours_reference(spec)
        si = sn = None
        if have_os and not (args.quick and spec == "leduc(players=3)"):
            with console.status(f"{spec}: OpenSpiel (3-player Leduc takes minutes)"):
                si, sn = openspiel(spec, 1 if "players=3" in spec and "leduc" in spec else 20)
        t.add_row(
            spec,
            f"{oi * 1e3:.3f} ms",
            f"{ki * 1e3:.3f} ms",
            f"{ri * 1e3:.3f} ms",
            "-" if si is None else f"{si * 1e3:.3g} ms",
            "-" if si is None else f"{si / oi:.2g}x",
            f"{on * 1e3:.3f} ms",
            f"{rn * 1e3:.3f} ms",
            "-" if sn is None else f"{sn * 1e3:.3g} ms",
            "-" if sn is None else f"{sn / on:.2g}x",
        )
    console.print(t)
    proc = subprocess.run([sys.executable, "-c", BIG], capture_output=True, text=True, check=True)
    big = json.loads(proc.stdout)
    b = Table(title="kuhn(players=3, cards=52, pot=3): compile + one NashConv (fresh process)")
    for col in ["deals", "rows", "compile", "NashConv", "total", "peak memory", "target"]:
        b.add_column(col, justify="right")
    b.add_row(
        str(big["deals"]),
        str(big["rows"]),
        f"{big['compile']:.2f} s",
        f"{big['nash_conv']:.2f} s",
        f"{big['compile'] + big['nash_conv']:.2f} s",
        f"{big['peak_mb']:.0f} MB",
        "< 2 s, < 1 GB",
    )
    console.print(b)


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
