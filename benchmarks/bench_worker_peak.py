"""The peak resident memory of each process of a sharded solve, as a user runs it.

Runs the clusters page's command on full Rhode Island
(``toypoker solve rhode_island --method pdcfr+ --iterations N --scheduler local
--workers K --no-table``) for each K, samples the resident set of the command and of
every process it starts every 50 ms (``psutil``) and reads each one's high-water mark
(``VmHWM`` in ``/proc/PID/status``).  Prints one row a process kind: the driver (the
command itself, which builds the game) and each Dask worker (a ``multiprocessing``
spawn child).  The workers' peaks are what ``docs/howto/clusters.md`` states.

Usage::

    python benchmarks/bench_worker_peak.py [--workers 1,2] [--iterations 20] [--save]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_file import saved_output, take_save_flag  # noqa: E402


def _hwm(pid: int) -> int:
    """The high-water mark of ``pid``'s resident set in bytes (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def peaks(argv: list[str]) -> tuple[int, dict[int, tuple[str, int]]]:
    """Run ``argv``; its exit status and, per process seen, ``(kind, peak bytes)``: the
    larger of the sampled resident sets and the last high-water mark read."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    root = psutil.Process(proc.pid)
    seen: dict[int, tuple[str, int]] = {}
    while proc.poll() is None:
        try:
            procs = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        for q in procs:
            try:
                cmd = " ".join(q.cmdline())
                rss = max(q.memory_info().rss, _hwm(q.pid))
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            kind = (
                "driver" if q.pid == proc.pid
                else "worker" if "spawn_main" in cmd
                else "other"
            )  # fmt: skip
            seen[q.pid] = (kind, max(rss, seen.get(q.pid, (kind, 0))[1]))
        time.sleep(0.05)
    return proc.wait(), seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--spec", default="rhode_island")
    args = parser.parse_args()
    print(f"load before: {'/'.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"{os.cpu_count()} cores\n")  # fmt: skip
    print("| workers | command | exit | driver peak MB | each worker's peak MB |")
    print("|---:|---|---:|---:|---|")
    for k in (int(w) for w in args.workers.split(",")):
        cmd = ["toypoker", "solve", args.spec, "--method", "pdcfr+", "--iterations",
               str(args.iterations), "--scheduler", "local", "--workers", str(k),
               "--no-table"]  # fmt: skip
        code, seen = peaks(cmd)
        driver = sum(p for kind, p in seen.values() if kind == "driver")
        workers = sorted((p for kind, p in seen.values() if kind == "worker"), reverse=True)
        each = ", ".join(f"{p / 1e6:,.0f}" for p in workers)
        print(f"| {k} | `{' '.join(cmd[1:])}` | {code} | {driver / 1e6:,.0f} | {each} |")
    print(f"\nload after: {'/'.join(f'{x:.2f}' for x in os.getloadavg())}; peaks sampled "
          "every 50 ms and read from VmHWM")  # fmt: skip


if __name__ == "__main__":
    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
