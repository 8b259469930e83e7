"""The CFR iteration sharded over Dask workers against the same iteration in process
(issue 36, item 2).

Per game: the in-process fused kernel (``toypoker.engines.vectors.kernel.VectorKernel``, one
thread, as a shard runs) and a :class:`toypoker.engines.sharded.ShardedKernel` on a
LocalCluster of ``k`` worker processes (one thread each), for each ``k`` of ``--workers``.
Rounds are interleaved (in process, then each cluster, ``--reps`` times), each a batch
of ``--iterations`` CFR+ iterations continuing the previous round (as a solve's batches
between checks: the shards already hold the state, which is gathered at the end of the
batch); printed: the median seconds an
iteration, the ratio to in process (the overhead of sharding; below 1: a speed-up),
the bytes moved an iteration (each step's reach rows and root values, and the state
slices gathered at the end of the batch, over the batch), the seconds to start the
shards (the driver cuts each worker's piece and sends it: the MB sent), the memory of
the driver and of each worker once started (resident set, and its peak, the largest
worker's: a worker never builds the game), the bytes of the largest shard's arrays (its
piece of the kernel and its state) beside the whole kernel's and state's in process, and
whether every round's state equals the in-process one bit for bit.

On this 2-core machine two shards run in parallel at best, and the driver's top runs
between them; four shards on two cores share them.  The machine load is printed before
and after.

Usage::

    python benchmarks/bench_sharded.py                 # the default games, k = 2 and 4
    python benchmarks/bench_sharded.py --only rhode_island --workers 2
    python benchmarks/bench_sharded.py --game "rhode_island(players=3,ranks=3)" --workers 2
    python benchmarks/bench_sharded.py --save          # also benchmarks/results/bench_sharded.md
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

GAMES = [
    "holdem(players=3,ranks=4,suits=2)",
    "rhode_island(ranks=8,suits=4)",
    "rhode_island",
]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def rss_mb(pid: int | None = None) -> float:
    """Resident memory of a process in MB (Linux ``/proc``)."""
    path = f"/proc/{pid or os.getpid()}/status"
    for line in Path(path).read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_mb() -> float:
    """The peak resident memory of this process in MB (Linux ``/proc``: ``VmHWM``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def worker_rss(client) -> tuple[float, float]:
    """The largest resident set of the cluster's workers, and the largest peak, MB."""
    return max(client.run(rss_mb).values()), max(client.run(peak_mb).values())


def bench(spec: str, ks: list[int], reps: int, iterations: int) -> None:
    import logging

    import numpy as np
    from distributed import Client, LocalCluster

    import toypoker as tp
    from toypoker.engines.evaluation import vector_of
    from toypoker.engines.sharded import ShardedKernel
    from toypoker.engines.vectors.kernel import vector_kernel
    from toypoker.engines.vectors.regrets import init
    from toypoker.solvers.cfr import kernel_steps
    from toypoker.solvers.registry import get_method, parse_options
    from toypoker.threads import kernel_threads

    logging.getLogger("distributed").setLevel(logging.ERROR)  # no worker chatter in the table
    t0 = time.perf_counter()
    vg = vector_of(tp.load_game(spec, layout="vector"))
    kernel = vector_kernel(vg)
    opts = parse_options(get_method("cfr+"), {})
    built = time.perf_counter() - t0
    state = kernel_steps(kernel, init(vg), opts, 1)  # compiled, and a state to start from
    clusters = {}
    for k in ks:
        # as toypoker's own LocalCluster: no Dask memory limit
        cluster = LocalCluster(n_workers=k, processes=True, threads_per_worker=1,
                               dashboard_address=None, silence_logs=50,
                               memory_limit=0)  # fmt: skip
        client = Client(cluster)
        t1 = time.perf_counter()
        sk = ShardedKernel(vg, client)
        started = time.perf_counter() - t1
        kernel_steps(sk, state, opts, 1)  # the workers' kernels compiled
        piece = max(a.nbytes().result() for a in sk.actors) / 1e6  # the largest shard's arrays
        clusters[k] = (cluster, client, sk, started, worker_rss(client), piece)
    times: dict[object, list[float]] = {"in": [], **{k: [] for k in ks}}
    moved = {k: [] for k in ks}
    same = True
    at = {k: state for k in ks}  # each cluster continues from its own last batch
    for _ in range(reps):
        with kernel_threads(1):
            t1 = time.perf_counter()
            want = kernel_steps(kernel, state, opts, iterations)
            times["in"].append((time.perf_counter() - t1) / iterations)
        for k in ks:
            sk = clusters[k][2]
            b0 = sk.bytes_moved
            t1 = time.perf_counter()
            got = at[k] = kernel_steps(sk, at[k], opts, iterations)
            times[k].append((time.perf_counter() - t1) / iterations)
            moved[k].append((sk.bytes_moved - b0) / iterations)
            same &= all(np.array_equal(getattr(want, f), getattr(got, f))
                        for f in ("regrets", "average", "sigma"))  # fmt: skip
        state = want
    seg = kernel.parts[1]
    base = statistics.median(times["in"])
    arrays = [*kernel.tree, *kernel.terms, *kernel.parts, *kernel.infos, *kernel.work]
    whole = (sum(a.nbytes for a in arrays if isinstance(a, np.ndarray))
             + 3 * state.sigma.nbytes) / 1e6  # fmt: skip
    print(f"\n## {spec}\n")
    print(f"{kernel.entries:,} node-hand entries, {len(seg) - 2} public subtrees below the cut, "
          f"{seg[1] - seg[0]} nodes above; built in {built:.1f} s; driver {rss_mb():.0f} MB "
          f"resident; the kernel's arrays and the CFR state {whole:.0f} MB\n")  # fmt: skip
    print("| run | s / iteration | vs in process | MB moved / iteration | start s | MB sent "
          "at start | worker MB | worker peak MB | shard arrays MB | same state |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    print(f"| in process, 1 thread | {base:.4f} | 1.00x | 0 | - | - | - | - | {whole:.0f} | - |")
    for k in ks:
        med = statistics.median(times[k])
        sk, start, (mb, peak), piece = clusters[k][2:]
        print(f"| {k} workers | {med:.4f} | {med / base:.2f}x | "
              f"{statistics.median(moved[k]) / 1e6:.3f} | {start:.1f} | "
              f"{sk.sent_at_start / 1e6:.0f} | {mb:.0f} | {peak:.0f} | "
              f"{piece:.0f} | {'yes' if same else 'NO'} |")  # fmt: skip
    for cluster, client, sk, *_ in clusters.values():
        sk.close()
        client.close()
        cluster.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=0, help="per round (0: by game size)")
    ap.add_argument("--workers", default="2,4", help="cluster sizes, comma-separated")
    ap.add_argument("--only", default="")
    ap.add_argument("--game", action="append", default=[],
                    help="a spec to run instead of the default games (repeatable)")  # fmt: skip
    args = ap.parse_args()
    ks = [int(x) for x in args.workers.split(",")]
    print(f"load before: {load()} (1/5/15 min), cores: {os.cpu_count()}")
    for spec in args.game or [g for g in GAMES if args.only in g]:
        its = args.iterations or (3 if spec == "rhode_island" else 10)
        bench(spec, ks, args.reps, its)
    print(f"\nload after: {load()}; medians of {args.reps} interleaved rounds")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
