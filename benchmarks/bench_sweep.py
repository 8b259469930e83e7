"""Per-job overhead of a sweep on a 2-worker LocalCluster over one process (issue 13).

200 small jobs (eval of the uniform profile of 3-player Kuhn at 200 pots) run
serially and on a LocalCluster of 2 processes, both through ``toypoker.sweep``
with every job written to a sweep folder.  Overhead per job =
(cluster wall time - serial wall time) / 200, without and with the cluster's
start-up (target < 50 ms).  Run: ``python benchmarks/bench_sweep.py``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from fractions import Fraction

from toypoker.sweeps import sweep

N = 200
SPEC = "kuhn(players=3)"
AXES = {"pot": [Fraction(2) + Fraction(k, 50) for k in range(N)]}


def main() -> None:
    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as tmp:
        sweep("eval", SPEC, {"pot": 2}, scheduler="serial")  # compile/import once
        t0 = time.perf_counter()
        serial = sweep("eval", SPEC, AXES, scheduler="serial", out=f"{tmp}/serial")
        t_serial = time.perf_counter() - t0
        t0 = time.perf_counter()
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)  # fmt: skip
        client = Client(cluster)
        t_start = time.perf_counter() - t0
        client.run(lambda: __import__("toypoker.sweeps"))  # workers import the library
        sweep("eval", SPEC, {"pot": 3}, scheduler=client)  # warm each worker's caches
        t0 = time.perf_counter()
        local = sweep("eval", SPEC, AXES, scheduler=client, out=f"{tmp}/local")
        t_local = time.perf_counter() - t0
        client.close()
        cluster.close()
    assert local.failed == serial.failed == 0 and len(local.rows) == N
    load = os.getloadavg()
    print(f"{N} eval jobs on {SPEC}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"serial (one process):       {t_serial:.3f} s ({1000 * t_serial / N:.1f} ms/job)")
    print(f"LocalCluster, 2 workers:    {t_local:.3f} s ({1000 * t_local / N:.1f} ms/job)")
    print(f"cluster start-up:           {t_start:.3f} s")
    over = 1000 * (t_local - t_serial) / N
    over_start = 1000 * (t_local + t_start - t_serial) / N
    print(
        f"overhead per job: {over:.1f} ms (warm cluster), {over_start:.1f} ms with start-up"
        " (target < 50 ms)"
    )


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
