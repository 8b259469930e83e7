"""Start-up of ``import toypoker`` and of the light commands, this tree beside an
older one (issue 23: lazy imports).

Each case runs in a fresh interpreter (wall time, ``subprocess``), the two trees
interleaved, the median of ``--runs`` printed with the machine's load before and
after.  The older tree is ``git archive REV src`` of this repository (default: the
last commit before issue 23's work).  Run from the repository's root::

    python benchmarks/bench_startup.py [--before REV] [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = {
    "import toypoker": ["-c", "import toypoker"],
    "toypoker --help": ["-m", "toypoker", "--help"],
    "toypoker games": ["-m", "toypoker", "games"],
    "toypoker info kuhn(players=3)": ["-m", "toypoker", "info", "kuhn(players=3)"],
}


def seconds(src: Path, args: list[str]) -> float:
    """Wall time of one fresh interpreter running ``args`` with ``src`` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(src))
    t0 = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="7cdc29f", help="the older revision")
    parser.add_argument("--runs", type=int, default=7)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "archive", opts.before, "src"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        trees = {"before": Path(tmp) / "src", "after": ROOT / "src"}
        for src in trees.values():  # warm the caches (bytecode, numba's cache)
            for args in CASES.values():
                seconds(src, args)
        times: dict[tuple[str, str], list[float]] = {(c, t): [] for c in CASES for t in trees}
        print(f"load average at the start: {os.getloadavg()}")
        for _ in range(opts.runs):
            for case, args in CASES.items():
                for name, src in trees.items():
                    times[(case, name)].append(seconds(src, args))
        print(f"load average at the end:   {os.getloadavg()}")
    print(f"\n| command | {opts.before} (s) | this tree (s) |  median of {opts.runs}, interleaved")
    print("|---|---|---|")
    for case in CASES:
        before, after = (statistics.median(times[(case, t)]) for t in trees)
        print(f"| `{case}` | {before:.2f} | {after:.2f} |")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
