"""One engine (issue 21, item 2): every method on the row layout beside the vector layout.

Per game and method, in fresh processes (row and vector interleaved, ``--reps`` each,
medians printed): the build (row: ``load_game``; vector: ``compile_vector`` of the row
game, or ``build_vector`` without a deal table for ``rhode_island(...)``), the time of
one iteration (median of the timed ones after one warm-up; the LP: its one solve with
the exact certificate), and the peak resident memory of the process.  ``pcs-cfr+``
runs on the vector layout whatever game it is given; ``es-mccfr``/``os-mccfr`` sample
deals from the deal table and stay on the row layout.

``--pcs`` measures public-chance-sampling CFR+ against full CFR+ (the fused vector
kernel, and its numpy reference, the implementation ``pcs-cfr+`` shares) on
``rhode_island(ranks=6,suits=4)`` and, with ``--full``, the full game: iterations a
second, and NashConv after the same wall time on the 6x4 deck.

``--ladder`` feeds the layout cost model (:mod:`toypoker.engines.choice`): on a ladder
of games from Kuhn to three-player Mercer Hold'em, a CFR+ iteration on each layout
(``tp.load_game(spec, layout=...)``, ``tp.Solver``), interleaved, medians, beside the
counts the model reads and its prediction; ``--save`` writes
``benchmarks/results/layout_costs.json`` (machine, date, load), which
``tests/engines/test_choice.py`` checks the model's choices against.

Usage::

    python benchmarks/bench_engine.py                 # the methods table, small games
    python benchmarks/bench_engine.py --pcs [--full]  # sampling against full CFR+
    python benchmarks/bench_engine.py --ladder --save # the layout cost model's ladder
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

# the benchmarks folder is on the path when this runs as a script
from bench_vector import run as run_child

GAMES = ["leduc(players=2)", "rhode_island(ranks=3,suits=2,cap=1)", "rhode_island(ranks=4,suits=2)"]
NO_LP = {"rhode_island(ranks=4,suits=2)"}  # its exact certificate alone: not timed here
METHODS = {  # method -> (timed iterations, options)
    "cfr+": (5, {}),
    "fp": (3, {}),
    "pcs-cfr+": (5, {"seed": 0}),
    "es-mccfr": (5, {"seed": 0}),
    "lp": (0, {}),
}
PCS_GAMES = ["rhode_island(ranks=6,suits=4)"]
LADDER = [  # both layouts fit; from a few rows to millions
    "kuhn(players=2)",
    "kuhn(players=3)",
    "kuhn(players=2,cards=13)",
    "kuhn(players=3,cards=13)",
    "kuhn(players=3,cards=52)",
    "kuhn(players=4,cards=6)",
    "kuhn(players=3,cards=6,team=12)",
    "mercer(players=2,variant=smh)",
    "mercer(players=2,variant=mmh)",
    "mercer(players=3,variant=smh)",
    "mercer(players=3,variant=mmh)",
    "rhode_island(ranks=3,suits=2,cap=1)",
    "rhode_island(ranks=4,suits=2)",
    "holdem(players=2,ranks=6,suits=2,hole=1,rounds=2,board2=1)",
]
RESULTS = Path(__file__).parent / "results" / "layout_costs.json"
BATCH_SECONDS = 0.05  # a timed sample of the ladder: a batch of iterations this long


def _vector(spec: str):  # type: ignore[no-untyped-def]
    """``spec`` on hand vectors (deal-free for the games that build that way)."""
    from toypoker import load_game

    return load_game(spec, layout="vector")


def ladder_child(spec: str, layout: str, iterations: int) -> None:
    """CFR+ on ``spec`` built by ``tp.load_game(spec, layout=layout)``: print JSON."""
    import toypoker as tp

    start = time.perf_counter()
    game = tp.load_game(spec, layout=layout)
    solver = tp.Solver(game, "cfr+")
    build = time.perf_counter() - start
    solver.step(1)  # warm-up (kernels, plans)
    t = time.perf_counter()
    solver.step(1)
    batch = max(1, math.ceil(BATCH_SECONDS / max(time.perf_counter() - t, 1e-7)))
    times, cpu = [], []  # per iteration, timed over batches of >= BATCH_SECONDS
    for _ in range(iterations):
        t, c = time.perf_counter(), time.process_time()
        solver.step(batch)
        times.append((time.perf_counter() - t) / batch)
        cpu.append((time.process_time() - c) / batch)
    out = {
        "build": build,
        "step": statistics.median(times),
        "cpu": statistics.median(cpu),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    print(json.dumps(out))


def ladder_table(reps: int, iterations: int, save: bool) -> None:
    """The cost model's ladder: both layouts, interleaved, beside the model's inputs."""
    from toypoker.engines.choice import choose_layout, predict, vector_count, vector_work

    load0 = os.getloadavg()
    print(
        f"{'game':<60} {'rows':>10} {'entries':>9} {'kind':>6} {'units':>11} "
        f"{'rows s/it':>10} {'vec s/it':>10} {'pred r':>9} {'pred v':>9} {'auto':>6}"
    )
    records = []
    for spec in LADDER:
        counted = vector_count(spec)
        assert counted is not None, spec
        rs, vs = [], []
        for _ in range(reps):
            rs.append(run(spec, "ladder:rows", iterations))
            vs.append(run(spec, "ladder:vector", iterations))
        kind, units = vector_work(spec, counted)
        pr, pv = predict(spec, counted)
        auto = choose_layout(spec).layout
        rec = {
            "spec": spec,
            "rows": counted.rows,
            "entries": counted.entries,
            "public_nodes": counted.public_nodes,
            "hands": counted.hands,
            "players": counted.players,
            "kind": kind,
            "units": units,
            "rows_seconds": _med(rs, "step"),
            "vector_seconds": _med(vs, "step"),
            "rows_cpu": _med(rs, "cpu"),
            "vector_cpu": _med(vs, "cpu"),
            "rows_build": _med(rs, "build"),
            "vector_build": _med(vs, "build"),
            "rows_peak_mb": _med(rs, "peak_mb"),
            "vector_peak_mb": _med(vs, "peak_mb"),
        }
        records.append(rec)
        print(
            f"{spec:<60} {counted.rows:>10,} {counted.entries:>9,} {kind:>6} {units:>11,} "
            f"{rec['rows_seconds']:>10.2e} {rec['vector_seconds']:>10.2e} {pr:>9.2e} {pv:>9.2e} "
            f"{auto:>6}",
            flush=True,
        )
    load1 = os.getloadavg()
    print(f"load before {load0}, after {load1}")
    if save:
        RESULTS.parent.mkdir(exist_ok=True)
        data = {
            "benchmark": "python benchmarks/bench_engine.py --ladder --save",
            "what": "seconds of one CFR+ iteration (median over fresh processes, rows and "
            "vector interleaved, of the median over batches of >= 0.05 s, after warm-up) "
            "on each layout",
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cores",
            "load_before": load0,
            "load_after": load1,
            "reps": reps,
            "iterations": iterations,
            "games": records,
        }
        tmp = RESULTS.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1) + "\n")
        tmp.replace(RESULTS)
        print(f"saved {RESULTS}")


def child(spec: str, layout: str, iterations: int) -> None:
    """``layout`` is ``rows:METHOD`` or ``vector:METHOD[:numpy]``: build, time, print JSON."""
    from toypoker import load_game
    from toypoker.errors import ToypokerError
    from toypoker.solvers import Solver

    where, method, *extra = layout.split(":")
    options = dict(METHODS.get(method, (0, {}))[1])
    if extra:
        options["backend"] = extra[0]
    start = time.perf_counter()
    out: dict[str, object] = {}
    try:
        if where == "rows":
            solver = Solver(load_game(spec), method, **options)
        else:
            solver = Solver(_vector(spec), method, **options)
    except ToypokerError as exc:
        print(json.dumps({"refused": str(exc)}))
        return
    out["build"] = time.perf_counter() - start
    times = []
    if solver.method.one_shot:
        t = time.perf_counter()
        solver.step(1)
        times.append(time.perf_counter() - t)
    else:
        solver.step(1)  # warm-up (kernels, plans, sorted boards)
        for _ in range(iterations):
            t = time.perf_counter()
            solver.step(1)
            times.append(time.perf_counter() - t)
    out["step"] = statistics.median(times)
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def convergence(spec: str, layout: str, seconds: int) -> None:
    """NashConv of ``layout`` (``vector:cfr+``, ``vector:pcs-cfr+``) after ``seconds``
    of stepping, one iteration at a time (the vector layout's best responses), as JSON."""
    import numpy as np

    from toypoker.engines.evaluation import vector_evaluate, vector_of
    from toypoker.solvers import Solver

    _, method = layout.split(":")
    game = _vector(spec)
    vg = vector_of(game)
    solver = Solver(game, method, **METHODS[method][1])
    solver.step(1)  # set-up (kernel, plans) outside the race
    while solver.seconds < seconds:
        solver.step(1)
    probs = np.ascontiguousarray(solver.profile().probs, dtype=np.float64)
    nc = vector_evaluate(vg, probs).nash_conv
    print(json.dumps({"iterations": solver.iteration, "nash_conv": nc}))


def run(spec: str, layout: str, iterations: int) -> dict[str, float]:
    """One measurement in a fresh process running this script's ``child``."""
    return run_child(spec, layout, iterations, script=__file__)


def _med(rs: list[dict], key: str) -> float:
    return statistics.median(float(r[key]) for r in rs)


def methods_table(reps: int) -> None:
    """The methods table: per game and method, row and vector layouts interleaved."""
    print(
        f"{'game':<38} {'method':<9} {'row build':>9} {'vec build':>9} {'row s/it':>9} "
        f"{'vec s/it':>9} {'row MB':>7} {'vec MB':>7}"
    )
    for spec in GAMES:
        for method, (iterations, _) in METHODS.items():
            if method == "lp" and spec in NO_LP:
                continue
            rows: list[dict] = []
            vec: list[dict] = []
            for _ in range(reps):
                rows.append(run(spec, f"rows:{method}", iterations))
                vec.append(run(spec, f"vector:{method}", iterations))

            def cells(rs: list[dict]) -> tuple[str, str, str]:
                if "refused" in rs[0]:
                    return "-", "refused", "-"
                return (
                    f"{_med(rs, 'build'):.2f}",
                    f"{_med(rs, 'step'):.4f}",
                    f"{_med(rs, 'peak_mb'):.0f}",
                )

            rb, rs_, rm = cells(rows)
            vb, vs, vm = cells(vec)
            print(
                f"{spec:<38} {method:<9} {rb:>9} {vb:>9} {rs_:>9} {vs:>9} {rm:>7} {vm:>7}",
                flush=True,
            )


def pcs_table(reps: int, full: bool, seconds: int, race_only: bool = False) -> None:
    """Public chance sampling against full CFR+ on the vector layout."""
    print(f"{'game':<32} {'method':<22} {'s/it':>8} {'it/s':>7} {'MB':>7}")
    for spec in [] if race_only else PCS_GAMES + (["rhode_island"] if full else []):
        for layout in ("vector:cfr+", "vector:cfr+:numpy", "vector:pcs-cfr+"):
            rs = [run(spec, layout, 5) for _ in range(reps)]
            s = _med(rs, "step")
            print(
                f"{spec:<32} {layout:<22} {s:>8.4f} {1 / s:>7.2f} {_med(rs, 'peak_mb'):>7.0f}",
                flush=True,
            )
    if seconds:
        spec = PCS_GAMES[0]
        print(f"NashConv after {seconds} s of stepping on {spec} (vector best responses):")
        for layout in ("vector:cfr+", "vector:pcs-cfr+"):
            r = run_child(spec, f"converge:{layout}", seconds, script=__file__)
            print(f"  {layout:<20} {r['iterations']:>6} iterations  NashConv {r['nash_conv']:.4f}")


def main(save: bool = False) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="processes per layout and method")
    parser.add_argument("--pcs", action="store_true", help="sampling against full CFR+")
    parser.add_argument("--full", action="store_true", help="with --pcs: also the full game")
    parser.add_argument(
        "--seconds", type=int, default=60, help="with --pcs: the NashConv race (0: none)"
    )
    parser.add_argument("--race-only", action="store_true", help="with --pcs: only the race")
    parser.add_argument("--ladder", action="store_true", help="the layout cost model's ladder")
    parser.add_argument("--iterations", type=int, default=5, help="with --ladder: timed a run")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        spec, layout, n = args.child
        if layout.startswith("ladder:"):
            ladder_child(spec, layout.split(":", 1)[1], int(n))
        elif layout.startswith("converge:"):
            convergence(spec, layout.split(":", 1)[1], int(n))
        else:
            child(spec, layout, int(n))
        return
    print(f"load before: {os.getloadavg()}  (2 cores shared)")
    if args.ladder:
        ladder_table(args.reps, args.iterations, save)
    elif args.pcs:
        pcs_table(args.reps, args.full, args.seconds, args.race_only)
    else:
        methods_table(args.reps)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    save = take_save_flag(sys.argv)  # the tables as a result file; --ladder: its JSON too
    with saved_output(__file__, save):
        main(save)
