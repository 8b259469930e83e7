"""The vector layout beside the deal-table layout: a ladder of games (issue 21).

Per game: rows of the deal-table layout (public node x deal) beside hand-vector
entries of the vector layout (public node x player x hand); the time of one CFR+
iteration on each (old: ``Solver(game, "cfr+")``, the fused numba kernel; new:
``toypoker.solvers.vector_cfr.step``, the fused vector kernel; with ``--reference``
also the vector layout's numpy reference, ``backend="numpy"``, the foundation's
code path before the kernel); the kernel on rank hands (``rank_hands``: one hand a
rank, where the game has one hole card from a rank deck; "nan" where not); and the
peak resident memory of a
fresh process that builds the game and runs the iterations.  Each measurement runs
in its own process, old and new interleaved, ``--reps`` times; medians are printed,
with the machine load before and after.

The vector layout is compiled from the row-layout game today, so the new
process's peak memory includes the deal table and rows it was compiled from; the
column ``vector MB`` is the vector layout's own per-iteration arrays (reach of every
player and one player's counterfactual values, float64).

Usage::

    python benchmarks/bench_vector.py            # the ladder (a few minutes)
    python benchmarks/bench_vector.py --quick    # the small half
    python benchmarks/bench_vector.py --reference --big   # + numpy column, deal-free games
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

LADDER = [
    "kuhn(players=3)",
    "kuhn(players=3,cards=8)",
    "kuhn(players=3,cards=13)",
    "leduc(players=2)",
    "holdem(players=2,ranks=4,suits=2,hole=2,rounds=2,board2=3,evaluator=standard)",
    "kuhn(players=3,cards=26)",
    "leduc(players=3)",
    "holdem(players=2,ranks=13,suits=4,rounds=2,board2=1)",
    "kuhn(players=3,cards=52)",
    "holdem(players=3,ranks=6,suits=4,rounds=2,board2=1)",
]
QUICK = 5
# beyond the row layout (built without a deal table, new layout only); the second is
# the Rhode-Island-betting spec (34.2 M rows, 5.9 GB in the row layout)
DEAL_FREE = [
    "kuhn(players=3,cards=52)",
    "holdem(players=2,ranks=13,suits=4,rounds=3,board2=1,board3=1,bet1=10,bet2=20,bet3=20,"
    "cap1=3,cap2=3,cap3=3,evaluator=standard)",
]


def child(spec: str, layout: str, iterations: int) -> None:
    """Build ``spec`` in ``layout`` ("rows", "vector", "direct"; suffix "-numpy": the
    vector layout's numpy reference, "-ranks": rank hands), time CFR+ iterations,
    print JSON."""
    import numpy as np

    from toypoker import load_game
    from toypoker.errors import ToypokerError
    from toypoker.solvers import Solver
    from toypoker.solvers import cfr as C
    from toypoker.solvers import vector_cfr as VC
    from toypoker.vector import compile_vector
    from toypoker.vector.direct import build_vector
    from toypoker.vector.layout import rank_hands

    backend = C.Backend.NUMPY if layout.endswith("-numpy") else C.Backend.NUMBA
    ranks = layout.endswith("-ranks")
    layout = layout.removesuffix("-numpy").removesuffix("-ranks")
    start = time.perf_counter()
    if layout == "direct":  # the vector layout without a deal table
        vg = build_vector(spec)
        out: dict[str, object] = {"rows": -1}
    else:
        game = load_game(spec)
        out = {"rows": int(game.n_rows)}
    if layout == "rows":
        solver = Solver(game, "cfr+")  # compiles the kernel with one throw-away iteration
        out["build"] = time.perf_counter() - start
        times = []
        for _ in range(iterations):
            t = time.perf_counter()
            solver.step(1)
            times.append(time.perf_counter() - t)
    else:
        if layout == "vector":
            vg = compile_vector(game)
        if ranks:
            try:
                vg = rank_hands(vg)
            except ToypokerError:  # two hole cards or a suited deck: no rank hands
                print(json.dumps({"iteration": float("nan"), "refused": True}))
                return
        out["build"] = time.perf_counter() - start
        out["entries"] = int(vg.entries)
        out["vector_mb"] = (vg.n_players + 1) * vg.n_nodes * vg.n_hands * 8 / 2**20
        opts = C.CFROptions(floor=True, gamma=1.0, backend=backend)
        state = VC.step(vg, VC.init(vg), opts)  # warm-up (plans, sorted boards)
        times = []
        for _ in range(iterations):
            t = time.perf_counter()
            state = VC.step(vg, state, opts)
            times.append(time.perf_counter() - t)
        assert np.isfinite(state.regrets).all()
    out["iteration"] = statistics.median(times)
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def run(spec: str, layout: str, iterations: int, script: str = __file__) -> dict[str, float]:
    """One measurement in a fresh process (``script --child SPEC LAYOUT ITERATIONS``)."""
    cmd = [sys.executable, script, "--child", spec, layout, str(iterations)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the small half")
    parser.add_argument("--reps", type=int, default=3, help="processes per layout and game")
    parser.add_argument("--iterations", type=int, default=5, help="timed iterations a process")
    parser.add_argument(
        "--big", action="store_true", help="also the deal-free games (a few minutes)"
    )
    parser.add_argument(
        "--reference", action="store_true", help="also the vector layout's numpy reference"
    )
    parser.add_argument("--only", default="", help="only the games whose spec contains this text")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    games = LADDER[:QUICK] if args.quick else LADDER
    games = [g for g in games if args.only in g]
    print(f"load before: {os.getloadavg()}  (2 cores shared)")
    head = (
        f"{'game':<78} {'rows':>10} {'entries':>9} {'old ms/it':>9} {'new ms/it':>9} "
        f"{'new/old':>7} {'ranks ms/it':>11} {'numpy ms/it':>11} "
        f"{'old MB':>7} {'new MB':>7} {'vector MB':>9} {'old build s':>11} {'new build s':>11}"
    )
    print(head)
    for spec in games:
        old, new, ranked, ref = [], [], [], []
        for _ in range(args.reps):  # interleaved
            old.append(run(spec, "rows", args.iterations))
            new.append(run(spec, "vector", args.iterations))
            ranked.append(run(spec, "vector-ranks", args.iterations))
            if args.reference:
                ref.append(run(spec, "vector-numpy", args.iterations))

        def med(rs: list[dict[str, float]], key: str) -> float:
            return statistics.median(r[key] for r in rs)

        print(
            f"{spec:<78} {int(old[0]['rows']):>10} {int(new[0]['entries']):>9} "
            f"{1e3 * med(old, 'iteration'):>9.2f} {1e3 * med(new, 'iteration'):>9.2f} "
            f"{med(new, 'iteration') / med(old, 'iteration'):>7.2f} "
            f"{1e3 * med(ranked, 'iteration'):>11.2f} "
            f"{1e3 * med(ref, 'iteration') if ref else float('nan'):>11.2f} "
            f"{med(old, 'peak_mb'):>7.0f} {med(new, 'peak_mb'):>7.0f} "
            f"{med(new, 'vector_mb'):>9.2f} {med(old, 'build'):>11.2f} {med(new, 'build'):>11.2f}",
            flush=True,
        )
    if args.big:
        print("\nbeyond the row layout: built without a deal table (toypoker.vector.direct)")
        for spec in DEAL_FREE:
            for layout in ["direct", "direct-ranks", *(["direct-numpy"] if args.reference else [])]:
                r = run(spec, layout, 2)
                print(
                    f"{spec}  [{layout}]\n    entries {int(r['entries'])}  "
                    f"ms/it {1e3 * r['iteration']:.1f}  peak MB {r['peak_mb']:.0f}  "
                    f"vector MB {r['vector_mb']:.1f}  build s {r['build']:.1f}",
                    flush=True,
                )
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
