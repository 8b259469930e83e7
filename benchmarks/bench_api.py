"""One game, one API (issue 33): its targets measured through ``import toypoker as tp``.

1. ``tp.load_game("rhode_island")`` in a fresh process: wall time and peak memory; the
   uniform profile's NashConv by ``tp.nash_conv`` beside the vector layout's own
   evaluation by the path the package had before (``build_vector`` and the fused kernel,
   in the same process); ``tp.Solver(g, "pdcfr+")`` steps and writes a checkpoint.
2. A CFR+ iteration with ``layout="auto"`` beside ``layout="rows"`` (fresh processes,
   interleaved, medians): three-player Mercer Hold'em (MMH) and Kuhn with 52 cards
   (target: >= 10x faster by default), Kuhn and Leduc (target: no slower than the rows,
   today's default, beyond 1.2x).
3. ``tp.solve(g, "tmecor")`` on three-player Kuhn with 4-6 cards and win sharing, every
   team: the bracket's width and the wall time (target: width 0, < 5 s each).

Usage::

    python benchmarks/bench_api.py [--reps 3] [--save] [--skip-rhode]

``--save`` writes ``benchmarks/results/api.json`` (machine, date, load).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results" / "api.json"
SPEEDS = [
    "mercer(players=3,variant=mmh)",
    "kuhn(players=3,cards=52)",
    "kuhn(players=2)",
    "kuhn(players=3)",
    "leduc(players=2)",
]


def child_rhode(out: str) -> None:
    """Load Rhode Island through tp, evaluate the uniform profile both ways, step PDCFR+."""
    import numpy as np

    import toypoker as tp
    from toypoker.engines.evaluation import vector_evaluate
    from toypoker.engines.vectors.direct import build_vector

    t = time.perf_counter()
    g = tp.load_game("rhode_island")
    load = time.perf_counter() - t
    peak_load = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    t = time.perf_counter()
    nc = float(tp.nash_conv(g, tp.Profile.uniform(g)))
    nc_seconds = time.perf_counter() - t
    vg = build_vector("rhode_island", rank=True)  # the path before one Game
    sigma = np.ascontiguousarray(tp.Profile.uniform(g).probs, dtype=np.float64)
    before = vector_evaluate(vg, sigma).nash_conv
    del vg
    s = tp.Solver(g, "pdcfr+")
    t = time.perf_counter()
    s.step(2)
    step = (time.perf_counter() - t) / 2
    s.save_checkpoint(out)
    again = tp.Solver.from_checkpoint(out, g)
    print(
        json.dumps(
            {
                "layout": g.layout,
                "load_seconds": load,
                "peak_gb_after_load": peak_load,
                "uniform_nash_conv": nc,
                "uniform_nash_conv_before": before,
                "difference": abs(nc - before),
                "nash_conv_seconds": nc_seconds,
                "pdcfr_step_seconds": step,
                "checkpoint_iteration": again.iteration,
                "peak_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
            }
        )
    )


def child_speed(spec: str, layout: str, iterations: int) -> None:
    import toypoker as tp

    g = tp.load_game(spec, layout=layout)
    s = tp.Solver(g, "cfr+")
    s.step(1)
    times = []
    for _ in range(iterations):
        t = time.perf_counter()
        s.step(1)
        times.append(time.perf_counter() - t)
    print(json.dumps({"layout": g.layout, "step": statistics.median(times)}))


def child_tmecor(spec: str) -> None:
    import toypoker as tp

    g = tp.load_game(spec)
    t = time.perf_counter()
    r = tp.solve(g, "tmecor")
    dt = time.perf_counter() - t
    b = r.bracket
    print(json.dumps({"lower": str(b.lower), "width": str(b.width), "seconds": dt}))


def run(*args: str) -> dict:
    cmd = [sys.executable, __file__, "--child", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--skip-rhode", action="store_true")
    ap.add_argument("--tmecor-only", action="store_true", help="only part 3")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        kind, *rest = args.child
        if kind == "rhode":
            child_rhode(rest[0])
        elif kind == "speed":
            child_speed(rest[0], rest[1], int(rest[2]))
        else:
            child_tmecor(rest[0])
        return
    load0 = os.getloadavg()
    print(f"load before: {load0}  ({os.cpu_count()} cores, shared)")
    data: dict[str, object] = {}
    if not (args.skip_rhode or args.tmecor_only):
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            r = run("rhode", str(Path(tmp) / "ck.npz"))
        data["rhode_island"] = r
        print(
            f"tp.load_game('rhode_island'): {r['layout']}, {r['load_seconds']:.1f} s, "
            f"{r['peak_gb_after_load']:.2f} GB after load, {r['peak_gb']:.2f} GB peak; "
            f"uniform NashConv {r['uniform_nash_conv']!r} (before: "
            f"{r['uniform_nash_conv_before']!r}, difference {r['difference']:.1e}); "
            f"PDCFR+ {r['pdcfr_step_seconds']:.2f} s an iteration; checkpoint resumed at "
            f"{r['checkpoint_iteration']}",
            flush=True,
        )
    print(f"{'game':<34} {'auto':>6} {'auto s/it':>10} {'rows s/it':>10} {'rows/auto':>9}")
    speeds = []
    for spec in [] if args.tmecor_only else SPEEDS:
        auto, rows = [], []
        for _ in range(args.reps):
            auto.append(run("speed", spec, "auto", str(args.iterations)))
            rows.append(run("speed", spec, "rows", str(args.iterations)))
        a = statistics.median(x["step"] for x in auto)
        b = statistics.median(x["step"] for x in rows)
        speeds.append({"spec": spec, "auto_layout": auto[0]["layout"], "auto": a, "rows": b})
        print(f"{spec:<34} {auto[0]['layout']:>6} {a:>10.2e} {b:>10.2e} {b / a:>9.2f}", flush=True)
    if speeds:
        data["speeds"] = speeds
    print(f"{'tmecor game':<46} {'value':>14} {'width':>6} {'seconds':>8}")
    tm = []
    for cards in (4, 5, 6):
        for team in ("12", "13", "23"):
            spec = f"kuhn(players=3,cards={cards},team={team},sharing=win)"
            r = run("tmecor", spec)
            tm.append({"spec": spec, **r})
            print(f"{spec:<46} {r['lower']:>14} {r['width']:>6} {r['seconds']:>8.2f}", flush=True)
    data["tmecor"] = tm
    load1 = os.getloadavg()
    print(f"load after: {load1}")
    if args.save:
        RESULTS.parent.mkdir(exist_ok=True)
        out = {
            "benchmark": "python benchmarks/bench_api.py --save",
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cores",
            "load_before": load0,
            "load_after": load1,
            **data,
        }
        path = RESULTS.with_name("api_tmecor.json") if args.tmecor_only else RESULTS
        out["benchmark"] += " --tmecor-only" if args.tmecor_only else ""
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(out, indent=1) + "\n")
        tmp.replace(path)
        print(f"saved {path}")


if __name__ == "__main__":
    main()
