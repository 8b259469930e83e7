"""Equilibrium curves of N-card three-player Kuhn poker (issues 5 and 11), beside Gambit.

Prints, in one run:

1. the full curve for N = 4 over P in [P_min, 10] = [2, 10] (target: < 10 s), beside
   Gambit's ``logit_solve`` on the same game at the single pot P = 3 (exported as
   .efg; the paper quotes about 150 s for it), with both results certified by our
   evaluator (NashConv) and placed in the Szafron et al. family (E2 = -1/48);
2. time and peak memory (VmHWM of a fresh process) of full curves over [P_min, 10]
   for N = 13, 26 and 52 (targets: N = 26 under 5 min and 2 GB; N = 52 completes);
3. thread control (issue 11): the curve of ``kuhn(players=3,cards=13)`` over
   P in [0.5, 10] and the Leduc LP with its exact certificate, each in a fresh
   process in the default environment (OpenBLAS starts its own threads; the
   library limits BLAS around its small dense solves) and with
   ``OPENBLAS_NUM_THREADS=1`` etc.  Targets: the curve within 2x of its
   single-thread time; the Leduc LP with certificate < 2 s.

Every curve is traced as users run it:
``trace_curve(load_rows(spec), "pot", lo, hi, eps=...).curve``.

Usage: ``python benchmarks/bench_continuation.py [--eps 1e-6] [--cards 13,26,52]
[--gambit-timeout 900] [--only threads]``.  Each measurement runs in its own process;
the machine load (``os.getloadavg``) is printed with each table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from rich.console import Console
from rich.table import Table

CHILD_CURVE = r"""
import json, sys, time
from toypoker.continuation.crossings import turning_points
from toypoker.continuation.curves import trace_curve
from toypoker.games import load_rows
N, eps = int(sys.argv[1]), float(sys.argv[2])
lo = float(sys.argv[3]) if len(sys.argv) > 3 else 2 / (N - 3)
t0 = time.perf_counter()
c = trace_curve(load_rows(f"kuhn(players=3,cards={N})"), "pot", lo, 10.0, eps=eps).curve
dt = time.perf_counter() - t0
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM")][0].split()[1]
print(json.dumps({"N": N, "seconds": dt, "points": len(c.theta), "steps": c.steps,
                  "reason": c.reason, "folds": len(turning_points(c)),
                  "peak_mb": int(hwm) / 1024}))
"""

CHILD_OURS = r"""
import json, sys, time
from toypoker.continuation.crossings import equilibria_at
from toypoker.continuation.curves import trace_curve
from toypoker.games import load_rows
t0 = time.perf_counter()
g = load_rows("kuhn(players=3,cards=4)")
c = trace_curve(g, "pot", 2.0, 10.0, eps=float(sys.argv[1])).curve
dt = time.perf_counter() - t0
eqs = equilibria_at(c, 3.0)
print(json.dumps({"seconds": dt, "E": eqs[0].expectations.tolist(),
                  "nash_conv": eqs[0].nash_conv, "count": len(eqs), "points": len(c.theta)}))
"""

CHILD_GAMBIT = r"""
import json, time
import numpy as np
import pygambit as gbt
from toypoker.games import load_rows
from toypoker.interop.gambit import gambit_game, from_gambit_profile
from toypoker.evaluation import evaluate
g = load_rows("kuhn(players=3,cards=4,pot=3)")
gg = gambit_game(g)
t0 = time.perf_counter()
res = gbt.nash.logit_solve(gg)
dt = time.perf_counter() - t0
prof = from_gambit_profile(g, res.equilibria[0], exact=False)
ev = evaluate(g, prof)
print(json.dumps({"seconds": dt, "E": [float(v) for v in ev.values],
                  "nash_conv": float(ev.nash_conv)}))
"""


CHILD_LP = r"""
import json, time
from toypoker.games import load_rows
from toypoker.solvers import solve
g = load_rows("leduc(players=2)")
t0 = time.perf_counter()
r = solve(g, "lp")
dt = time.perf_counter() - t0
print(json.dumps({"seconds": dt, "certified": r.certified, "value": float(r.value_exact[0])}))
"""

# the thread variables of OpenBLAS, MKL, OpenMP and numba: one thread each
ONE_THREAD = {
    k: "1"
    for k in (
        "OPENBLAS_NUM_THREADS",
        "MKL_NUM_THREADS",
        "OMP_NUM_THREADS",
        "NUMBA_NUM_THREADS",
    )
}


def child(
    code: str, args: list[str], timeout: float, env: dict[str, str] | None = None
) -> dict | None:
    try:
        r = subprocess.run(
            [sys.executable, "-c", code, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=None if env is None else {**os.environ, **env},
        )
    except subprocess.TimeoutExpired:
        return None
    if r.returncode != 0:
        return {"error": r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed"}
    return json.loads(r.stdout.strip().splitlines()[-1])


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def table_threads(con: Console, eps: float, timeout: float) -> None:
    """Issue 11: default environment vs every thread pool at 1 (fresh processes)."""
    default = {k: v for k, v in os.environ.items() if k not in ONE_THREAD}
    start = load()
    rows = []
    for what, code, args, target in (
        ("kuhn(players=3,cards=13) curve, P in [0.5, 10]", CHILD_CURVE, ["13", str(eps), "0.5"],
         "default within 2x of 1 thread"),
        ("leduc(players=2) LP + exact certificate", CHILD_LP, [], "< 2 s"),
    ):  # fmt: skip
        one = child(code, args, timeout, env=ONE_THREAD)
        dflt = child(code, args, timeout, env=default)
        cells = []
        for r in (dflt, one):
            if r is None:
                cells.append(f"> {timeout:g} s")
            elif "error" in r:
                cells.append(r["error"][:40])
            else:
                cells.append(f"{r['seconds']:.2f} s")
        ok = dflt and one and "error" not in dflt and "error" not in one
        ratio = f"{dflt['seconds'] / one['seconds']:.2f}x" if ok else "-"  # type: ignore[index]
        rows.append([what, *cells, ratio, target])
    t = Table(
        title=f"Thread control (issue 11): default environment vs 1 thread "
        f"(load {start} -> {load()}, {os.cpu_count()} CPUs)",
        title_justify="left",
    )
    for c in ["workload", "default env", "all pools at 1 thread", "default / 1 thread", "target"]:
        t.add_column(c, justify="right")
    for r in rows:
        t.add_row(*r)
    con.print(t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--eps", type=float, default=1e-6)
    ap.add_argument("--cards", default="13,26,52")
    ap.add_argument("--gambit-timeout", type=float, default=900.0)
    ap.add_argument("--curve-timeout", type=float, default=3600.0)
    ap.add_argument("--only", choices=["threads"], default=None, help="only the thread table")
    a = ap.parse_args()
    con = Console(width=170)
    if a.only == "threads":
        table_threads(con, a.eps, a.curve_timeout)
        return

    t = Table(
        title=f"N = 4, three players: our whole curve (P in [2, 10], eps = {a.eps:g}) "
        "vs Gambit logit_solve at P = 3 only",
        title_justify="left",
    )
    for c in ["tool", "what", "seconds", "E1", "E2", "E3", "NashConv", "target"]:
        t.add_column(c, justify="right")
    ours = child(CHILD_OURS, [str(a.eps)], a.curve_timeout)
    if ours and "error" not in ours:
        beta = 24 * ours["E"][2] - 1
        t.add_row(
            "toypoker",
            f"curve, {ours['points']} points; P = 3 certified",
            f"{ours['seconds']:.2f}",
            *(f"{e:+.6f}" for e in ours["E"]),
            f"{ours['nash_conv']:.1e}",
            "< 10 s",
        )
        con.print(
            f"ours at P = 3: E2 + 1/48 = {ours['E'][1] + 1 / 48:.1e}, beta = {beta:.4f} in [0, 1/4]"
        )
    else:
        t.add_row("toypoker", "curve", "failed", "", "", "", str(ours), "< 10 s")
    gb = child(CHILD_GAMBIT, [], a.gambit_timeout)
    if gb is None:
        t.add_row("Gambit", "logit_solve, P = 3", f"> {a.gambit_timeout:.0f}", "", "", "", "", "")
    elif "error" in gb:
        t.add_row("Gambit", "logit_solve, P = 3", "error", "", "", "", gb["error"][:40], "")
    else:
        t.add_row(
            "Gambit",
            "logit_solve, P = 3",
            f"{gb['seconds']:.2f}",
            *(f"{e:+.6f}" for e in gb["E"]),
            f"{gb['nash_conv']:.1e}",
            "",
        )
    con.print(t)

    t = Table(
        title=f"Full curves over P in [P_min, 10], eps = {a.eps:g} (fresh process each)",
        title_justify="left",
    )
    for c in ["N", "seconds", "peak MB", "points", "steps", "turning points", "ended", "target"]:
        t.add_column(c, justify="right")
    targets = {26: "< 300 s, < 2048 MB", 52: "completes"}
    for N in [int(x) for x in a.cards.split(",")]:
        r = child(CHILD_CURVE, [str(N), str(a.eps)], a.curve_timeout)
        if r is None or "error" in r:
            t.add_row(
                str(N),
                "timeout" if r is None else r["error"][:40],
                "",
                "",
                "",
                "",
                "",
                targets.get(N, ""),
            )
            continue
        t.add_row(
            str(N),
            f"{r['seconds']:.1f}",
            f"{r['peak_mb']:.0f}",
            str(r["points"]),
            str(r["steps"]),
            str(r["folds"]),
            r["reason"],
            targets.get(N, ""),
        )
    con.print(t)
    table_threads(con, a.eps, a.curve_timeout)


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
