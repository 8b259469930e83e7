"""The cost of the regret tolerance: CFR+ and PDCFR+ iterations before and after it.

Regret matching counts a regret as positive only above
``toypoker.engines.rows.cfr.regret_tolerance`` (issue 21, item 3), in the row layout's
fused kernel and in the vector layout's.  This script times one iteration of each,
as users run them (``solvers.cfr.step_many`` / ``solvers.vector_cfr.step_many``,
the numba kernels, ``--iterations`` iterations in one call), with the source tree
given by ``--before`` (the code without the tolerance, e.g. ``git archive
<commit> src | tar -x -C /tmp/before``) beside this tree's.  Every measurement runs
in a fresh process (kernels loaded from numba's cache, one warm-up call), before and
after interleaved, ``--reps`` times; the table shows medians and after/before, with
the machine load at start and end.

Usage::

    python benchmarks/bench_regret_tolerance.py --before /tmp/before/src
    python benchmarks/bench_regret_tolerance.py --before /tmp/before/src --reps 9
    python benchmarks/bench_regret_tolerance.py --before /tmp/before/src --only holdem
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

# (spec, layout): the row kernel on the games of bench_peers' CFR+ case and a bigger
# one; the vector kernel on two and three players
CASES = [
    ("kuhn(players=3)", "rows"),
    ("leduc(players=2)", "rows"),
    ("leduc(players=3)", "rows"),
    ("mercer(players=3,variant=smh)", "rows"),
    ("leduc(players=2)", "vector"),
    ("kuhn(players=3,cards=13)", "vector"),
    ("holdem(players=2,ranks=4,suits=2,hole=2,rounds=2,board2=3,evaluator=standard)", "vector"),
]
METHODS = ("cfr+", "pdcfr+")


def child(spec: str, layout: str, method: str, iterations: int) -> None:
    """Time ``iterations`` iterations of ``method`` in one call, a few times; print JSON."""
    from toypoker import load_game
    from toypoker.engines.vectors import compile_vector
    from toypoker.engines.vectors import regrets as VC
    from toypoker.solvers import cfr as C
    from toypoker.solvers.registry import METHODS as REGISTRY

    opts = REGISTRY[method].defaults
    g = load_game(spec)
    if layout == "rows":
        state = C.step_many(g, C.init(g, opts), opts, 1)  # warm-up: kernel loaded

        def many(s: object) -> object:
            return C.step_many(g, s, opts, iterations)  # type: ignore[arg-type]
    else:
        vg = compile_vector(g)
        state = VC.step_many(vg, VC.init(vg), opts, 1)

        def many(s: object) -> object:
            return VC.step_many(vg, s, opts, iterations)  # type: ignore[arg-type]

    times = []
    for _ in range(3):
        t = time.perf_counter()
        state = many(state)  # type: ignore[assignment]
        times.append((time.perf_counter() - t) / iterations)
    print(json.dumps({"iteration": min(times)}))


def run(src: str, spec: str, layout: str, method: str, iterations: int) -> float:
    """Seconds an iteration in a fresh process with ``src`` first on the path."""
    env = {**os.environ, "PYTHONPATH": src, "NUMBA_NUM_THREADS": "1"}
    cmd = [sys.executable, __file__, "--child", spec, layout, method, str(iterations)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    return float(json.loads(done.stdout.strip().splitlines()[-1])["iteration"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="src folder of the code without the tolerance")
    parser.add_argument("--reps", type=int, default=5, help="processes per case and tree")
    parser.add_argument("--iterations", type=int, default=20, help="iterations a call")
    parser.add_argument("--only", default="", help="only the games whose spec holds this")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        spec, layout, method, n = args.child
        child(spec, layout, method, int(n))
        return
    if not args.before or not Path(args.before, "toypoker").is_dir():
        parser.error("--before must name a src folder holding toypoker/")
    after = str(Path(__file__).resolve().parents[1] / "src")
    print(f"load before: {os.getloadavg()}  (2 cores shared)")
    print(f"{'game':<80} {'layout':<6} {'method':<6} {'before ms':>9} {'after ms':>9} {'ratio':>6}")
    for spec, layout in CASES:
        if args.only not in spec:
            continue
        for method in METHODS:
            old, new = [], []
            for r in range(args.reps):  # interleaved, alternating which goes first
                pair = [(old, args.before), (new, after)]
                for out, src in pair if r % 2 == 0 else pair[::-1]:
                    out.append(run(src, spec, layout, method, args.iterations))
            b, a = statistics.median(old), statistics.median(new)
            print(
                f"{spec:<80} {layout:<6} {method:<6} {1e3 * b:>9.3f} {1e3 * a:>9.3f} {a / b:>6.2f}",
                flush=True,
            )
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
