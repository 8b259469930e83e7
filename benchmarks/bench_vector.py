"""The vector layout beside the deal-table layout: a ladder of games (issue 21).

Per game, from small to Rhode Island Hold'em: rows of the deal-table layout (public
node x deal; counted, not built, where they do not fit: ``toypoker.games.count_layout``)
beside hand-vector entries of the vector layout (public node x player x hand); the
time of one CFR+ iteration on each, wall and CPU (old: ``Solver(game, "cfr+")``, the
fused row kernel; new: ``toypoker.engines.vectors.regrets.step``, the fused vector kernel)
and the peak resident memory of a fresh process that builds the game and runs the
iterations, with that process's resident memory before building (``base MB``: Python,
numpy, numba and toypoker imported), so the layouts' own memory is the difference.

The new layout is the one a user gets: built without a deal table where
``toypoker.engines.vectors.direct.build_vector`` reads the spec (else compiled from the row
game, whose deal table then counts in its peak), with one hand per rank
(``rank_hands``) where the deck merges suits and the hands allow it (one hole card;
rank pairs for three players); the ``new layout`` column says which.  ``--physical``
adds the layout compiled from the row game on physical hands (the foundation's).

Each measurement runs in its own process, old and new interleaved, ``--reps`` times;
medians are printed, with the machine load before and after (2 cores shared: wall
times stretch with the load, CPU times much less).

Usage::

    python benchmarks/bench_vector.py                 # the ladder up to 16 M rows
    python benchmarks/bench_vector.py --big           # + Rhode Island on a full deck
    python benchmarks/bench_vector.py --only mercer   # the games whose spec has "mercer"
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
    "leduc(players=2)",
    "holdem(players=2,ranks=4,suits=2,hole=2,rounds=2,board2=3,evaluator=standard)",
    "kuhn(players=3,cards=13)",
    "mercer(players=3)",
    "leduc(players=3)",
    "holdem(players=2,ranks=13,suits=4,rounds=2,board2=1)",
    "kuhn(players=3,cards=52)",
    "mercer(players=3,variant=mmh)",
    "holdem(players=3,ranks=6,suits=4,rounds=2,board2=1)",
    "rhode_island(ranks=5,suits=3)",
    "rhode_island(ranks=6,suits=4)",
]
BIG = ["rhode_island"]  # rows counted (438 M, ~88 GB): the new layout only


def child(spec: str, layout: str, iterations: int) -> None:
    """Build ``spec`` in ``layout`` ("rows"; "vector": the user's vector layout, see the
    module docstring; "physical": compiled from the row game, physical hands), time
    CFR+ iterations, print JSON."""
    import numpy as np

    from toypoker import load_game
    from toypoker.engines.vectors import compile_vector
    from toypoker.engines.vectors import regrets as VC
    from toypoker.engines.vectors.direct import build_vector
    from toypoker.engines.vectors.kernel import vector_kernel
    from toypoker.engines.vectors.layout import rank_hands
    from toypoker.errors import ToypokerError
    from toypoker.solvers import Solver
    from toypoker.solvers import cfr as C

    out: dict[str, object] = {"base_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    start = time.perf_counter()
    if layout == "rows":
        game = load_game(spec)
        out["size"] = int(game.n_rows)
        solver = Solver(game, "cfr+")  # compiles the kernel with one throw-away iteration
        out["build"] = time.perf_counter() - start

        def one() -> None:
            solver.step(1)

    else:
        names = []
        if layout == "physical":
            vg = compile_vector(load_game(spec))
            names.append("compiled")
        else:
            try:
                vg = build_vector(spec)
                names.append("direct")
            except ToypokerError:  # a game build_vector does not read: from the rows
                vg = compile_vector(load_game(spec))
                names.append("compiled")
            try:
                ranked = rank_hands(vg)
                if ranked.n_hands < vg.n_hands:  # (a suited deck keeps its cards)
                    vg = ranked
                    names.append("rank pairs" if vg.hands.shape[1] > 1 else "ranks")
            except ToypokerError:  # suited, or two hole cards with two players
                pass
        out["build"] = time.perf_counter() - start
        out["size"] = int(vg.entries)
        out["layout"] = " + ".join(names)
        if vector_kernel(vg) is None:  # the dense numpy product, O(H^3): not timed
            print(json.dumps({**out, "iteration": float("nan"), "cpu_iteration": float("nan")}))
            return
        opts = C.CFROptions(floor=True, gamma=1.0)
        state = VC.step(vg, VC.init(vg), opts)  # warm-up (plans, kernel set-up)

        def one() -> None:
            nonlocal state
            state = VC.step(vg, state, opts)

    times, cpu = [], []
    for _ in range(iterations):
        t, c = time.perf_counter(), time.process_time()
        one()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    if layout != "rows":
        assert np.isfinite(state.regrets).all()
    out["iteration"] = statistics.median(times)
    out["cpu_iteration"] = statistics.median(cpu)
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


ROWS_BUDGET = 16 * 2**30
"""``TOYPOKER_MAX_BYTES`` of the children (unless set): the row side of games past
``load_game``'s 2 GB default, e.g. rhode_island(ranks=6,suits=4), 3.3 GB counted."""


def run(spec: str, layout: str, iterations: int, script: str = __file__) -> dict[str, float]:
    """One measurement in a fresh process (``script --child SPEC LAYOUT ITERATIONS``)."""
    cmd = [sys.executable, script, "--child", spec, layout, str(iterations)]
    env = {"TOYPOKER_MAX_BYTES": str(ROWS_BUDGET), **os.environ}
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _med(rs: list[dict[str, float]], key: str) -> float:
    return statistics.median(float(r[key]) for r in rs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3, help="processes per layout and game")
    parser.add_argument("--iterations", type=int, default=5, help="timed iterations a process")
    parser.add_argument("--big", action="store_true", help="also Rhode Island on a full deck")
    parser.add_argument(
        "--physical", action="store_true", help="also the layout on physical hands, compiled"
    )
    parser.add_argument("--only", default="", help="only the games whose spec contains this")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    from toypoker.games import count_layout

    games = [g for g in LADDER + (BIG if args.big else []) if args.only in g]
    print(f"load before: {os.getloadavg()}  (2 cores shared)")
    print(
        f"{'game':<78} {'rows':>12} {'entries':>11} {'old ms/it':>9} {'new ms/it':>9} "
        f"{'old/new':>7} {'old CPU ms':>10} {'new CPU ms':>10} {'old MB':>7} {'new MB':>7} "
        f"{'base MB':>7} {'phys ms/it':>10}  new layout"
    )
    for spec in games:
        fits = spec not in BIG
        old, new, phys = [], [], []
        for _ in range(args.reps):  # interleaved
            if fits:
                old.append(run(spec, "rows", args.iterations))
            new.append(run(spec, "vector", args.iterations))
            if args.physical:
                phys.append(run(spec, "physical", args.iterations))
        nan = float("nan")
        if fits:
            rows = f"{int(old[0]['size']):,}"
            o_it, o_cpu, o_mb = (_med(old, k) for k in ("iteration", "cpu_iteration", "peak_mb"))
        else:
            counted = count_layout(spec)
            rows = f"{counted.rows:,}*" if counted else "?"
            o_it = o_cpu = o_mb = nan
        n_it, n_cpu = _med(new, "iteration"), _med(new, "cpu_iteration")
        print(
            f"{spec:<78} {rows:>12} {int(new[0]['size']):>11,} {1e3 * o_it:>9.2f} "
            f"{1e3 * n_it:>9.2f} {o_it / n_it:>7.2f} {1e3 * o_cpu:>10.2f} {1e3 * n_cpu:>10.2f} "
            f"{o_mb:>7.0f} {_med(new, 'peak_mb'):>7.0f} {_med(new, 'base_mb'):>7.0f} "
            f"{1e3 * _med(phys, 'iteration') if phys else nan:>10.2f}  {new[0]['layout']}",
            flush=True,
        )
    print("* counted, not built (toypoker.games.count_layout); ms are medians of processes")
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
