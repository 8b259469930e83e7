"""Which CFR schedule reaches NashConv 0.001 in the fewest iterations (issue 49, step 1).

Every schedule is the same full-width traversal (``toypoker.solvers.cfr``) with other
options: the methods ``cfr+``, ``lcfr``, ``dcfr``, ``pcfr+``, ``dcfr+``, ``pdcfr+`` and
``pdcfr+`` with its options changed one at a time (``alternating``, ``gamma``,
``alpha``, ``discount_lag``).  For each Rhode Island deck of the ladder
(``rhode_island(ranks=R)``, four suits, the full betting) and each schedule this
script finds the first iteration whose average strategy has NashConv at or below
``--target``: the deterministic number of iterations, which does not depend on the
machine's load.  Seconds are recorded beside it (noisy on a shared machine: the load
is printed).

How the iteration is found (``iterations_to``): NashConv is checked at geometric
marks (a ratio of 1.5 while it is above 4x the target, 1.05 below that); when a check
first meets the target, the run goes back to the state of the check before (the
iterates are deterministic) and bisects the bracket until it is at most
``--resolution`` of the iterations wide (default 0.5%, and never below one
iteration).  The number printed is the upper end of that bracket: a check there met
the target, the one at the lower end did not.  (NashConv of the average is not
monotone in general: a dip below the target between two geometric marks would go
unseen; the bisection assumes no such dip inside the final bracket.)

Seconds per iteration are the solver's stepping time over all iterations stepped
(re-stepped ones included) with one kernel thread; ``sec`` is the iterations found
times that rate, what a run that knew where to stop would take, without checks.

Everything uses the public API (``toypoker.load_game``, ``Solver``, ``nash_conv``)
and ``toypoker.threads.kernel_threads(1)`` for the evaluations; the solver's
``state`` attribute is kept and put back to re-step from a check (the state objects
are immutable: stepping copies the arrays).

Usage::

    python benchmarks/bench_schedules.py --ranks 3 4                 # every schedule
    python benchmarks/bench_schedules.py --ranks 5 --only pdcfr+ cfr+
    python benchmarks/bench_schedules.py --report                    # tables from the JSON
    python benchmarks/bench_schedules.py --full pdcfr+ --threads 2   # full rhode_island,
                                                                     # the CLI's own run

Results go, one JSON record a line, to ``benchmarks/results/schedules.jsonl``
(``--out``); a (schedule, deck, target) already there is not run again.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "results" / "schedules.jsonl"

# name -> (method, options): the registry's defaults, then PDCFR+ with one option changed
SCHEDULES: dict[str, tuple[str, dict[str, object]]] = {
    "cfr+": ("cfr+", {}),
    "cfr+ simultaneous": ("cfr+", {"alternating": False}),
    "cfr+ quadratic": ("cfr+", {"average": "quadratic"}),
    "lcfr": ("lcfr", {}),
    "dcfr": ("dcfr", {}),
    "pcfr+": ("pcfr+", {}),
    "pcfr+ simultaneous": ("pcfr+", {"alternating": False}),
    "dcfr+": ("dcfr+", {}),
    "pdcfr+": ("pdcfr+", {}),
    "pdcfr+ simultaneous": ("pdcfr+", {"alternating": False}),
    "pdcfr+ gamma=1 (linear)": ("pdcfr+", {"gamma": 1.0}),
    "pdcfr+ gamma=2 (quadratic)": ("pdcfr+", {"gamma": 2.0}),
    "pdcfr+ gamma=3": ("pdcfr+", {"gamma": 3.0}),
    "pdcfr+ gamma=8": ("pdcfr+", {"gamma": 8.0}),
    "pdcfr+ alpha=1.5": ("pdcfr+", {"alpha": 1.5}),
    "pdcfr+ alpha=3": ("pdcfr+", {"alpha": 3.0}),
    "pdcfr+ alpha=5": ("pdcfr+", {"alpha": 5.0}),
    "pdcfr+ discount_lag=0": ("pdcfr+", {"discount_lag": 0}),
    "pdcfr+ last iterate": ("pdcfr+", {"output": "current"}),
    # DCFR+ (PDCFR+ without the prediction) and its options one at a time
    "dcfr+ simultaneous": ("dcfr+", {"alternating": False}),
    "dcfr+ alpha=1": ("dcfr+", {"alpha": 1.0}),
    "dcfr+ alpha=1.25": ("dcfr+", {"alpha": 1.25}),
    "dcfr+ alpha=1.75": ("dcfr+", {"alpha": 1.75}),
    "dcfr+ alpha=2": ("dcfr+", {"alpha": 2.0}),
    "dcfr+ alpha=2.3": ("dcfr+", {"alpha": 2.3}),
    "dcfr+ alpha=3": ("dcfr+", {"alpha": 3.0}),
    "dcfr+ gamma=2 (quadratic)": ("dcfr+", {"gamma": 2.0}),
    "dcfr+ gamma=3": ("dcfr+", {"gamma": 3.0}),
    "dcfr+ gamma=5": ("dcfr+", {"gamma": 5.0}),
    "dcfr+ gamma=8": ("dcfr+", {"gamma": 8.0}),
    "dcfr+ discount_lag=0": ("dcfr+", {"discount_lag": 0}),
    "pdcfr+ predictive=false": ("pdcfr+", {"predictive": False}),
    "dcfr gamma=4": ("dcfr", {"gamma": 4.0}),
}


def spec_of(ranks: int) -> str:
    return "rhode_island" if ranks == 13 else f"rhode_island(ranks={ranks})"


def load() -> tuple[float, float, float]:
    return tuple(round(x, 2) for x in os.getloadavg())  # type: ignore[return-value]


def iterations_to(
    game: object,
    method: str,
    options: dict[str, object],
    target: float,
    cap: int,
    resolution: float,
    threads: int,
) -> dict[str, object]:
    """The first iteration (to ``resolution``) whose NashConv is at most ``target``."""
    import toypoker as tp
    from toypoker.threads import kernel_threads

    s = tp.Solver(game, method, threads=threads, **options)
    evals = [0, 0.0]
    trace: list[tuple[int, float]] = []

    def check() -> float:
        t0 = time.perf_counter()
        with kernel_threads(threads):
            nc = float(tp.nash_conv(game, s.profile()))
        evals[0] += 1
        evals[1] += time.perf_counter() - t0
        trace.append((s.iteration, nc))
        return nc

    stepped = 0

    def step_to(t: int) -> None:
        nonlocal stepped
        stepped += t - s.iteration
        s.step(t - s.iteration)

    start = time.perf_counter()
    lo, lo_state, lo_nc = 0, s.state, math.inf
    t = 10
    while True:  # geometric marks until a check meets the target
        step_to(min(t, cap))
        nc = check()
        if nc <= target:
            break
        if s.iteration >= cap:
            return {
                "iterations": None,
                "reached": nc,
                "stepped": stepped,
                "sec_per_iteration": s.seconds / max(stepped, 1),
                "checks": evals[0],
                "eval_seconds": evals[1],
                "wall": time.perf_counter() - start,
                "trace": trace,
            }
        lo, lo_state, lo_nc = s.iteration, s.state, nc
        ratio = 1.5 if nc > 4 * target else 1.05
        t = max(s.iteration + 1, math.ceil(s.iteration * ratio))
    hi, hi_nc = s.iteration, nc
    while hi - lo > max(1, math.ceil(resolution * lo)):  # bisect (lo, hi]
        mid = (lo + hi) // 2
        if s.iteration > mid:
            s.state = lo_state  # back to the lower check (immutable state: safe)
        step_to(mid)
        nc = check()
        if nc <= target:
            hi, hi_nc = mid, nc
        else:
            lo, lo_state, lo_nc = mid, s.state, nc
    sigma = s.state.sigma  # the current iterate at the last step: how much a pruning
    zero = float((sigma == 0).mean())  # of zero-probability actions could skip
    return {
        "iterations": hi,
        "zero_actions": zero,
        "reached": hi_nc,
        "bracket": [lo, hi],
        "nash_conv_below": lo_nc,
        "stepped": stepped,
        "sec_per_iteration": s.seconds / max(stepped, 1),
        "checks": evals[0],
        "eval_seconds": evals[1],
        "wall": time.perf_counter() - start,
        "trace": trace,
    }


def done_keys(out: Path) -> set[tuple[str, str, float]]:
    if not out.exists():
        return set()
    keys = set()
    for line in out.read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            keys.add((r["schedule"], r["spec"], r["target"]))
    return keys


def ladder(args: argparse.Namespace) -> None:
    import toypoker as tp

    names = args.only or list(SCHEDULES)
    unknown = [n for n in names if n not in SCHEDULES]
    if unknown:
        sys.exit(f"unknown schedule(s) {unknown}; known: {list(SCHEDULES)}")
    done = done_keys(args.out)
    for ranks in args.ranks:
        spec = spec_of(ranks)
        game = None
        for name in names:
            if (name, spec, args.target) in done:
                print(f"{spec:28s} {name:28s} (already in {args.out.name})", flush=True)
                continue
            if game is None:
                game = tp.load_game(spec)
            method, options = SCHEDULES[name]
            before = load()
            r = iterations_to(
                game, method, options, args.target, args.cap, args.resolution, args.threads
            )
            rec = {
                "schedule": name,
                "method": method,
                "options": options,
                "spec": spec,
                "ranks": ranks,
                "target": args.target,
                "cap": args.cap,
                "resolution": args.resolution,
                "threads": args.threads,
                "load_before": before,
                "load_after": load(),
                "date": time.strftime("%Y-%m-%d %H:%M"),
                **r,
            }
            with args.out.open("a") as f:
                f.write(json.dumps(rec) + "\n")
            its = r["iterations"]
            print(
                f"{spec:28s} {name:28s} iterations {its if its else '>' + str(args.cap):>7} "
                f"{r['sec_per_iteration'] * 1000:7.1f} ms/it  wall {r['wall']:7.1f} s  "
                f"load {rec['load_after'][0]}",
                flush=True,
            )


def full(args: argparse.Namespace) -> None:
    """The CLI's own run on full Rhode Island: ``solve`` with the target, its checks."""
    import toypoker as tp

    method, options = SCHEDULES[args.full]
    before = load()
    t0 = time.perf_counter()
    game = tp.load_game("rhode_island")
    build = time.perf_counter() - t0
    res = tp.solve(
        game,
        method,
        iterations=args.cap,
        target_nash_conv=args.target,
        threads=args.threads,
        **options,
    )
    wall = time.perf_counter() - t0
    rec = {
        "schedule": args.full,
        "method": method,
        "options": options,
        "spec": "rhode_island",
        "ranks": 13,
        "target": args.target,
        "cap": args.cap,
        "threads": args.threads,
        "mode": "solve",
        "iterations": res.iterations if res.nash_conv <= args.target else None,
        "reached": res.nash_conv,
        "seconds": res.seconds,
        "build": build,
        "wall": wall,
        "values": list(res.values),
        "gains": list(res.gains),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "load_before": before,
        "load_after": load(),
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "trace": [(p.iteration, p.nash_conv) for p in res.trace],
    }
    with args.out.open("a") as f:
        f.write(json.dumps(rec) + "\n")
    print(json.dumps({k: v for k, v in rec.items() if k != "trace"}), flush=True)


FULL_PDCFR = 4541
"""Iterations of ``toypoker solve rhode_island --method pdcfr+ --target-nash-conv 0.001``
(issue 49, measured with the CLI's aimed checks): the anchor of the predictions."""


def report(args: argparse.Namespace) -> None:
    """Markdown tables from the JSON records of ``args.target``."""
    recs = [json.loads(x) for x in args.out.read_text().splitlines() if x.strip()]
    recs = [r for r in recs if r["target"] == args.target]
    lad = [r for r in recs if r.get("mode") != "solve"]
    ranks = sorted({r["ranks"] for r in lad})
    by = {(r["schedule"], r["ranks"]): r for r in lad}
    base = {k: by[("pdcfr+", k)]["iterations"] for k in ranks if ("pdcfr+", k) in by}
    quiet = {k: min(r["sec_per_iteration"] for r in lad if r["ranks"] == k) for k in ranks}

    def ratio(n: str) -> float | None:
        rs = [
            by[(n, k)]["iterations"] / base[k]
            for k in ranks
            if (n, k) in by and by[(n, k)]["iterations"] and base.get(k)
        ]
        return sum(rs) / len(rs) if rs else None

    def order(n: str) -> tuple[float, int]:
        r = ratio(n)
        return (math.inf, schedule_position(n)) if r is None else (r, schedule_position(n))

    names = sorted({r["schedule"] for r in lad}, key=order)

    def cell(r: dict | None) -> str:
        if r is None:
            return "-"
        if r["iterations"] is None:
            return f">{r['stepped']:,} ({r['reached']:.4f})"
        return f"{r['iterations']:,}"

    res = lad[0]["resolution"]
    print(
        f"Iterations to NashConv <= {args.target:g}: the first check at or below it, to "
        f"{100 * res:g}% of the iterations (>N (x): not reached in N iterations, NashConv x "
        "at the last check); ratio: mean over the decks of iterations / pdcfr+'s; "
        f"full RI predicted: ratio x {FULL_PDCFR:,} (pdcfr+ measured on the full deck)\n"
    )
    head = "| schedule | " + " | ".join(f"ranks={k}" for k in ranks)
    print(head + " | ratio to pdcfr+ | full RI predicted |")
    print("|---" * (len(ranks) + 3) + "|")
    for n in names:
        q = ratio(n)
        r_txt = "-" if q is None else f"{q:.2f}"
        p_txt = "-" if q is None else f"~{round(q * FULL_PDCFR, -1):,.0f}"
        cells = [cell(by.get((n, k))) for k in ranks]
        print(f"| {n} | " + " | ".join(cells) + f" | {r_txt} | {p_txt} |")
    print(
        "\nSeconds to the target, one kernel thread: iterations x the run's own seconds "
        "per iteration (ms/it and the 1-minute load after the run in brackets; noisy: "
        "the machine was shared); the last line is each deck's quietest rate\n"
    )
    print(head + " |")
    print("|---" * (len(ranks) + 1) + "|")
    for n in names:
        cells = []
        for k in ranks:
            r = by.get((n, k))
            if r is None:
                cells.append("-")
                continue
            ms, ld = r["sec_per_iteration"] * 1000, r["load_after"][0]
            if r["iterations"] is None:
                cells.append(f"> {r['stepped'] * r['sec_per_iteration']:.0f} s ({ms:.1f}, {ld})")
            else:
                cells.append(f"{r['iterations'] * r['sec_per_iteration']:.0f} s ({ms:.1f}, {ld})")
        print(f"| {n} | " + " | ".join(cells) + " |")
    print("| quietest ms/it | " + " | ".join(f"{quiet[k] * 1000:.1f}" for k in ranks) + " |")
    runs = [r for r in recs if r.get("mode") == "solve"]
    if runs:
        print("\nFull Rhode Island, `solve` with the target (its own aimed checks)\n")
        print(
            "| schedule | threads | iterations | NashConv | iterating s | wall s | "
            "peak MB | player 1's value in | load before / after |"
        )
        print("|---" * 9 + "|")
        for r in runs:
            v, g = r["values"][0], r["gains"]
            lo, hi = v - g[1], v + g[0]  # P1's value between the two best responses
            print(
                f"| {r['schedule']} | {r['threads']} | {r['iterations']} | "
                f"{r['reached']:.5f} | {r['seconds']:.0f} | {r['wall']:.0f} | "
                f"{r['peak_mb']:.0f} | [{lo:.6f}, {hi:.6f}] | "
                f"{r['load_before'][0]} / {r['load_after'][0]} |"
            )


def schedule_position(name: str) -> int:
    """Position of ``name`` in :data:`SCHEDULES` (ties of the report's sort)."""
    names = list(SCHEDULES)
    return names.index(name) if name in names else len(names)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ranks", type=int, nargs="+", default=[3, 4])
    p.add_argument("--only", nargs="+", help="schedules to run (names of SCHEDULES)")
    p.add_argument("--target", type=float, default=1e-3)
    p.add_argument("--cap", type=int, default=30000, help="iteration cap of a run")
    p.add_argument("--resolution", type=float, default=0.005)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--report", action="store_true", help="print the tables and stop")
    p.add_argument("--full", help="a schedule to run on full rhode_island with solve()")
    args = p.parse_args()
    if args.report:
        report(args)
    elif args.full:
        full(args)
    else:
        ladder(args)


if __name__ == "__main__":
    main()
