"""Writing a big result: the JSON file (the old way) beside the compact archive (``.npz``).

Per game and format, a fresh process loads the game (``toypoker.load_game``: on hand
vectors), runs one CFR+ iteration
(``toypoker.solve``, its NashConv included), then saves the result
(:meth:`toypoker.result.Result.save`: ``r.json`` or ``r.npz``) and reads the profile
back (:meth:`toypoker.Profile.from_json`, :func:`toypoker.archive.read_profile`), checking
it equals the one saved.  Printed: the peak
resident memory before the write (build and solve) and after it, the seconds to
write and to read, and the file's size.  Processes of the two formats are
interleaved, ``--reps`` times; medians are printed, with the machine load.

Usage::

    python benchmarks/bench_result_file.py                 # rhode_island(ranks=8)
    python benchmarks/bench_result_file.py --big --reps 1  # the full game (7 GB for JSON)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_vector import run as run_child

SMALL = "rhode_island(ranks=8)"
BIG = "rhode_island"


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(spec: str, fmt: str, iterations: int) -> None:
    """One measurement: build, ``iterations`` of CFR+, save as ``fmt`` (json or npz),
    read back (the first read of a JSON file also makes the game's label index)."""
    import toypoker as tp
    from toypoker.archive import read_profile

    game = tp.load_game(spec)  # on hand vectors (Rhode Island always is)
    res = tp.solve(game, "cfr+", iterations=iterations)
    out: dict[str, float] = {"infosets": len(game.infosets), "before_mb": _peak_mb()}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"r.{fmt}"
        t = time.perf_counter()
        res.save(path)
        out["write_s"] = time.perf_counter() - t
        out["after_mb"] = _peak_mb()
        out["file_mb"] = path.stat().st_size / 2**20
        t = time.perf_counter()
        if fmt == "npz":
            back = read_profile(path, game)
        else:
            back = tp.Profile.from_json(path, game)
        out["read_s"] = time.perf_counter() - t
        assert (back.probs == res.profile.probs).all()
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="the full game instead")
    parser.add_argument("--reps", type=int, default=2, help="processes per format")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    spec = BIG if args.big else SMALL
    print(f"load before: {os.getloadavg()}  (2 cores shared)")
    runs: dict[str, list[dict[str, float]]] = {"json": [], "npz": []}
    for _ in range(args.reps):  # interleaved
        for fmt in runs:
            runs[fmt].append(run_child(spec, fmt, 1, script=__file__))
    print(
        f"{'game':<24} {'format':>6} {'infosets':>9} {'peak before MB':>14} "
        f"{'peak after MB':>13} {'write s':>8} {'file MB':>8} {'read s':>7}"
    )
    for fmt, rs in runs.items():

        def med(key: str, rs: list[dict[str, float]] = rs) -> float:
            return statistics.median(r[key] for r in rs)

        print(
            f"{spec:<24} {fmt:>6} {int(med('infosets')):>9} {med('before_mb'):>14.0f} "
            f"{med('after_mb'):>13.0f} {med('write_s'):>8.1f} {med('file_mb'):>8.1f} "
            f"{med('read_s'):>7.1f}",
            flush=True,
        )
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
