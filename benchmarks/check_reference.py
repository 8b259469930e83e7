"""A written profile's NashConv by the vector layout's numpy reference, not its kernel.

``toypoker eval SPEC PROFILE`` on a game the vector layout runs computes values and best
responses in the fused numba kernel (:meth:`toypoker.engines.vectors.kernel.VectorKernel.evaluate`),
the same code the solver's NashConv checks use.  This script recomputes them by the
independent numpy reference (:func:`toypoker.engines.vectors.values.expected_values` and
:func:`~toypoker.engines.vectors.values.best_response_value`), for games too big for the row
layout, where no other oracle exists (e.g. the full-deck three-player Rhode Island,
README "Three-player Rhode Island on the full deck").

Usage::

    python benchmarks/check_reference.py "rhode_island(players=3,cap=1)" r.npz
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from toypoker.archive import is_archive, read_profile
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.direct import build_vector
from toypoker.errors import ToypokerError
from toypoker.profile import Profile


def main() -> None:
    """Build the game without a deal table, read the profile, print values, gains and
    NashConv by the numpy reference, with the time of each step and the machine load."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "spec", help="a game spec build_vector takes (holdem, kuhn, mercer, rhode_island)"
    )
    ap.add_argument("profile", help="a profile written by toypoker solve -o (.npz or .json)")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    t = time.perf_counter()
    vg = build_vector(args.spec)
    print(f"built in {time.perf_counter() - t:.1f} s: {vg.entries:,} hand entries")
    if is_archive(args.profile):
        prof = read_profile(args.profile, vg.game)
    else:
        prof = Profile.from_json(args.profile, vg.game)
    sigma = np.asarray(prof.probs, dtype=np.float64)
    t = time.perf_counter()
    values = [float(v) for v in V.expected_values(vg, sigma)]
    print(f"values {', '.join(f'{v:.12g}' for v in values)} ({time.perf_counter() - t:.1f} s)")
    gains = []
    for p, v in enumerate(values):
        t = time.perf_counter()
        best = float(V.best_response_value(vg, sigma, p)[0])
        gains.append(max(best - v, 0.0))
        print(f"P{p + 1}: best response {best:.12g}, gain {gains[-1]:.12g} "
              f"({time.perf_counter() - t:.1f} s)")  # fmt: skip
    print(f"NashConv (numpy reference) {sum(gains):.12g}")


if __name__ == "__main__":
    try:
        main()
    except ToypokerError as exc:  # a spec it cannot build, a profile of another game
        raise SystemExit(f"check_reference: error: {exc}") from None
