"""This checkout's CFR+ iteration beside another version's, on the engine ladder.

For a change that should not slow anything (a restructuring), run the same games in
fresh processes of both versions -- this checkout's ``src`` and another source tree,
e.g. a ``git worktree`` of an earlier commit -- interleaved, ``--reps`` processes each,
and print the median seconds an iteration of each and their ratio (new / old; below 1
is faster), with the machine's load before and after.  Each child builds the game with
``tp.load_game(spec, layout=...)`` and steps ``tp.Solver(game, "cfr+")`` in batches of
at least 0.05 s after a warm-up (``bench_engine.py``'s ladder child); only the public
API is used, so any version since the one ``Game`` runs it.

Usage::

    git worktree add /tmp/old <commit>
    python benchmarks/bench_versions.py --old /tmp/old/src [--reps 5] [--save]

``--save`` writes the table to ``benchmarks/results/bench_versions.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench_engine import LADDER

HERE = Path(__file__).resolve().parent
NEW = HERE.parent / "src"


def child(src: Path, spec: str, layout: str, iterations: int) -> dict[str, float]:
    """One process of the version at ``src``: the ladder child of ``bench_engine.py``."""
    env = {**os.environ, "PYTHONPATH": str(src), "TOYPOKER_MAX_BYTES": str(8 * 2**30)}
    cmd = [sys.executable, str(HERE / "bench_engine.py"), "--child", spec, f"ladder:{layout}",
           str(iterations)]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env, cwd=HERE)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, type=Path, help="the other version's src")
    parser.add_argument("--reps", type=int, default=3, help="processes per version and game")
    parser.add_argument("--iterations", type=int, default=5, help="timed batches a process")
    parser.add_argument("--only", default="", help="only the games whose spec contains this")
    args = parser.parse_args()
    load0 = os.getloadavg()
    print(f"old: the --old tree; new: this checkout's src; load before: {load0}\n")
    print("| game | layout | old s/it | new s/it | new/old |")
    print("|---|---|---:|---:|---:|")
    for spec in (g for g in LADDER if args.only in g):
        for layout in ("rows", "vector"):
            old, new = [], []
            for _ in range(args.reps):  # interleaved: the same load on both
                old.append(child(args.old, spec, layout, args.iterations)["step"])
                new.append(child(NEW, spec, layout, args.iterations)["step"])
            o, n = statistics.median(old), statistics.median(new)
            print(f"| `{spec}` | {layout} | {o:.3e} | {n:.3e} | {n / o:.2f} |", flush=True)
    print(f"\nload after: {os.getloadavg()}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
