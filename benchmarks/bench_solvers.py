"""Solver suite benchmark: toypoker beside OpenSpiel (C++ and Python) and Gambit.

One run prints three tables, ours measured beside the peers:

Ours is measured as users run it: ``Solver(game, method).step()`` and
``solve(...)`` (the CFR family on the fused numba kernel, the default backend;
NashConv checks on the fused best-response kernel).

1. time per iteration of every method on ``kuhn(players=3)``,
   ``leduc(players=2)``, ``leduc(players=3)`` -- ours, OpenSpiel's C++ solver
   of the same name (``CFRSolver``, ``CFRPlusSolver``,
   ``ExternalSamplingMCCFRSolver``, ``OutcomeSamplingMCCFRSolver``) and
   OpenSpiel's Python one (``cfr``, ``discounted_cfr``, ``fictitious_play.XFPSolver``,
   ``external_sampling_mccfr``, ``outcome_sampling_mccfr``);
2. time to reach NashConv 1e-3 (NashConv checks excluded from the time, for
   both sides alike), within a budget;
3. the two-player LP: ours (HiGHS + exact certificate, BLAS limited inside
   ``solve_lp``) beside Gambit's ``lp_solve`` and ``lcp_solve`` on the same game
   exported as ``.efg``.

Each peer runs in a subprocess with a time limit; ">N s" means it did not
finish one measurement within the limit.  Usage::

    python benchmarks/bench_solvers.py [--budget 30] [--quick]

Targets (issue 4): every CFR-family method >= 5x faster per iteration than
OpenSpiel's C++ on 2-player Leduc and >= 50x on 3-player Leduc; our LP faster
than Gambit's on Leduc.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from toypoker import load_game
from toypoker.solvers import solve

METHODS = [
    "cfr",
    "cfr+",
    "lcfr",
    "dcfr",
    "pcfr+",
    "dcfr+",
    "pdcfr+",
    "fp",
    "es-mccfr",
    "os-mccfr",
]
CPP = {
    "cfr": "CFRSolver",
    "cfr+": "CFRPlusSolver",
    "es-mccfr": "ExternalSamplingMCCFRSolver",
    "os-mccfr": "OutcomeSamplingMCCFRSolver",
}
PY = {
    "cfr": "cfr.CFRSolver",
    "cfr+": "cfr.CFRPlusSolver",
    "lcfr": "discounted_cfr.LCFRSolver",
    "dcfr": "discounted_cfr.DCFRSolver",
    "fp": "fictitious_play.XFPSolver",
    "es-mccfr": "external_sampling_mccfr.ExternalSamplingSolver",
    "os-mccfr": "outcome_sampling_mccfr.OutcomeSamplingSolver",
}
OS_GAME = {
    "kuhn(players=3)": ("kuhn_poker", 3),
    "leduc(players=2)": ("leduc_poker", 2),
    "leduc(players=3)": ("leduc_poker", 3),
}

PEER = r"""
import json, sys, time
a = json.loads(sys.argv[1])
import pyspiel
game = pyspiel.load_game(a["game"], {"players": a["players"]})
if a["impl"] == "cpp":
    cls = getattr(pyspiel, a["cls"])
    solver = cls(game)
    step = getattr(solver, "evaluate_and_update_policy", None) or solver.run_iteration
    def nash_conv():
        # MCCFR's average policy only answers per state (use_state_get_policy)
        return pyspiel.nash_conv(game, solver.average_policy(), hasattr(solver, "run_iteration"))
else:
    import importlib
    from open_spiel.python.algorithms import exploitability
    mod, name = a["cls"].split(".")
    solver = getattr(importlib.import_module("open_spiel.python.algorithms." + mod), name)(game)
    step = getattr(solver, "evaluate_and_update_policy", None) or solver.iteration
    def nash_conv():
        return exploitability.nash_conv(game, solver.average_policy())
out = {}
if a["mode"] == "iteration":
    step()  # warm-up
    n, t0 = 0, time.perf_counter()
    while True:
        step(); n += 1
        spent = time.perf_counter() - t0
        if spent >= a["min_seconds"] or n >= a["max_iterations"]:
            break
    out["seconds_per_iteration"] = spent / n
else:
    spent, n, nxt, nc = 0.0, 0, 1, None
    while spent < a["budget"]:
        t0 = time.perf_counter(); step(); spent += time.perf_counter() - t0; n += 1
        if n >= nxt:
            nc = nash_conv(); nxt = max(n + 1, int(n * 1.25))
            if nc <= a["target"]:
                break
    reached = bool(nc is not None and nc <= a["target"])
    out.update(seconds=spent, iterations=n, nash_conv=None if nc is None else float(nc),
               reached=reached)
print(json.dumps(out))
"""


def peer(args: dict, timeout: float) -> dict | None:
    try:
        proc = subprocess.run(
            [sys.executable, "-c", PEER, json.dumps(args)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed"}
    return json.loads(proc.stdout)


def ours_per_iteration(spec: str, method: str, min_seconds: float) -> float:
    from toypoker.solvers import Solver

    seeded = {"seed": 0} if "mccfr" in method else {}
    s = Solver(load_game(spec), method, **seeded)
    s.step(1)  # warm-up (and compilation)
    batch = 1000 if "mccfr" in method else 1  # sampling methods step in compiled batches
    n, t0 = 0, time.perf_counter()
    while True:
        s.step(batch)
        n += batch
        spent = time.perf_counter() - t0
        if spent >= min_seconds or n >= 100000:
            return spent / n


def fmt_time(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x * 1e3:.3g} ms" if x < 1 else f"{x:.3g} s"


def ratio(theirs: float | None, ours: float) -> str:
    return "-" if theirs is None else f"{theirs / ours:.3g}x"


def table_iterations(console: Console, games: list[str], budget: float) -> None:
    t = Table(
        title="Time per iteration: ours vs OpenSpiel C++ and Python (same run)",
        caption="ratio = theirs / ours; > budget: one measurement did not finish",
    )
    for c in ["game", "method", "ours", "OpenSpiel C++", "C++/ours", "OpenSpiel Python", "Py/ours"]:
        t.add_column(c, justify="right")
    for spec in games:
        osg, n = OS_GAME[spec]
        for m in METHODS:
            with console.status(f"{spec} {m}"):
                o = ours_per_iteration(spec, m, 1.0)
                row = [spec, m, fmt_time(o)]
                for impl, names in (("cpp", CPP), ("py", PY)):
                    if m not in names:
                        row += ["n/a", "-"]
                        continue
                    r = peer(
                        {
                            "game": osg,
                            "players": n,
                            "impl": impl,
                            "cls": names[m],
                            "mode": "iteration",
                            "min_seconds": 1.0,
                            "max_iterations": 100000,
                        },
                        timeout=budget,
                    )
                    if r is None:
                        row += [f"> {budget:g} s", "-"]
                    elif "error" in r:
                        row += ["error", "-"]
                    else:
                        row += [
                            fmt_time(r["seconds_per_iteration"]),
                            ratio(r["seconds_per_iteration"], o),
                        ]
            t.add_row(*row)
            console.print(f"  {spec} {m}: done", style="dim")
    console.print(t)


def table_target(console: Console, games: list[str], budget: float, target: float) -> None:
    t = Table(title=f"Time to NashConv {target:g} (budget {budget:g} s each; checks excluded)")
    for c in ["game", "method", "ours", "ours its", "OpenSpiel", "impl", "their its"]:
        t.add_column(c, justify="right")
    for spec in games:
        osg, n = OS_GAME[spec]
        g = load_game(spec)
        for m in METHODS:
            with console.status(f"{spec} {m} to {target:g}"):
                r = solve(
                    g, method=m, iterations=None, target_nash_conv=target, seconds=budget, seed=0
                )
                ours = (
                    fmt_time(r.seconds)
                    if r.stopped == "target"
                    else f"not reached ({r.nash_conv:.2g})"
                )
                impl, names = ("cpp", CPP) if m in CPP else ("py", PY)
                if m not in names:  # no OpenSpiel implementation (pcfr+, dcfr+, pdcfr+)
                    t.add_row(spec, m, ours, str(r.iterations), "n/a", "-", "-")
                    continue
                p = peer(
                    {
                        "game": osg,
                        "players": n,
                        "impl": impl,
                        "cls": names[m],
                        "mode": "target",
                        "budget": budget,
                        "target": target,
                    },
                    timeout=3 * budget + 60,
                )
                if p is None:
                    theirs, its = f"> {3 * budget:g} s", "-"
                elif "error" in p:
                    theirs, its = "error", "-"
                else:
                    theirs = (
                        fmt_time(p["seconds"])
                        if p["reached"]
                        else f"not reached ({p['nash_conv']:.2g})"
                        if p["nash_conv"] is not None
                        else "not reached"
                    )
                    its = str(p["iterations"])
            t.add_row(spec, m, ours, str(r.iterations), theirs, impl, its)
    console.print(t)


GAMBIT = r"""
import json, sys, time
import pygambit as gbt
a = json.loads(sys.argv[1])
g = gbt.read_efg(a["path"])
fn = getattr(gbt.nash, a["fn"])
t0 = time.perf_counter()
res = fn(g, rational=a["rational"])
dt = time.perf_counter() - t0
print(json.dumps({"seconds": dt, "value": float(res.equilibria[0].payoff("P1"))}))
"""


def table_lp(console: Console, budget: float) -> None:
    from toypoker.interop.gambit import write_efg
    from toypoker.solvers.lp import solve_lp

    t = Table(title="Two-player LP: ours (HiGHS + exact certificate) vs Gambit (same .efg)")
    for c in [
        "game",
        "ours LP",
        "ours + exact",
        "certified",
        "value",
        "Gambit lp_solve",
        "Gambit lcp_solve",
        "lp speed-up",
    ]:
        t.add_column(c, justify="right")
    for spec in ["kuhn(players=2)", "leduc(players=2)"]:
        g = load_game(spec)
        t0 = time.perf_counter()
        r = solve_lp(g)
        total = time.perf_counter() - t0
        cells = []
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "game.efg"
            write_efg(g, path)
            for fn in ("lp_solve", "lcp_solve"):
                with console.status(f"Gambit {fn} on {spec}"):
                    try:
                        proc = subprocess.run(
                            [
                                sys.executable,
                                "-c",
                                GAMBIT,
                                json.dumps({"path": str(path), "fn": fn, "rational": False}),
                            ],
                            capture_output=True,
                            text=True,
                            timeout=budget * 4,
                        )
                        res = json.loads(proc.stdout) if proc.returncode == 0 else None
                    except subprocess.TimeoutExpired:
                        res = None
                cells.append(res)
        lp_g = cells[0]["seconds"] if cells[0] else None
        t.add_row(
            spec,
            fmt_time(r.seconds),
            fmt_time(total),
            str(r.certified),
            f"{float(r.value_bounds[0]):.12f}",
            fmt_time(lp_g) if cells[0] else f"> {budget * 4:g} s / failed",
            fmt_time(cells[1]["seconds"]) if cells[1] else f"> {budget * 4:g} s / failed",
            ratio(lp_g, r.seconds),
        )
    console.print(t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=30.0, help="seconds per peer measurement")
    ap.add_argument("--quick", action="store_true", help="kuhn(players=3) and leduc(players=2)")
    ap.add_argument("--only", choices=["iterations", "target", "lp"], default=None)
    args = ap.parse_args()
    console = Console(width=140)
    console.print(f"load average (1/5/15 min) {'/'.join(f'{x:.2f}' for x in os.getloadavg())}")
    games = ["kuhn(players=3)", "leduc(players=2)"]
    if not args.quick:
        games.append("leduc(players=3)")
    if args.only in (None, "iterations"):
        table_iterations(console, games, args.budget)
    if args.only in (None, "target"):
        table_target(console, games, args.budget, 1e-3)
    if args.only in (None, "lp"):
        table_lp(console, args.budget)


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
