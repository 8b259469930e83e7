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

Usage::

    python benchmarks/bench_engine.py                 # the methods table, small games
    python benchmarks/bench_engine.py --pcs [--full]  # sampling against full CFR+
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time

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


def _vector(spec: str):  # type: ignore[no-untyped-def]
    from toypoker import load_game
    from toypoker.vector import compile_vector
    from toypoker.vector.direct import build_vector

    if spec.startswith("rhode_island"):
        return build_vector(spec)
    return compile_vector(load_game(spec))


def child(spec: str, layout: str, iterations: int) -> None:
    """``layout`` is ``rows:METHOD`` or ``vector:METHOD[:numpy]``: build, time, print JSON."""
    from toypoker import load_game
    from toypoker.errors import ToypokerError
    from toypoker.solvers import Solver, VectorSolver

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
            solver = VectorSolver(_vector(spec), method, **options)
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

    from toypoker.solvers import VectorSolver
    from toypoker.solvers.vector_solver import vector_evaluate

    _, method = layout.split(":")
    vg = _vector(spec)
    solver = VectorSolver(vg, method, **METHODS[method][1])
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="processes per layout and method")
    parser.add_argument("--pcs", action="store_true", help="sampling against full CFR+")
    parser.add_argument("--full", action="store_true", help="with --pcs: also the full game")
    parser.add_argument(
        "--seconds", type=int, default=60, help="with --pcs: the NashConv race (0: none)"
    )
    parser.add_argument("--race-only", action="store_true", help="with --pcs: only the race")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        spec, layout, n = args.child
        if layout.startswith("converge:"):
            convergence(spec, layout.split(":", 1)[1], int(n))
        else:
            child(spec, layout, int(n))
        return
    print(f"load before: {os.getloadavg()}  (2 cores shared)")
    if args.pcs:
        pcs_table(args.reps, args.full, args.seconds, args.race_only)
    else:
        methods_table(args.reps)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
