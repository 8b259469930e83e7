"""Where a vector-kernel CFR iteration goes, pass by pass, and old code against new.

Issue 49, step 2.  On ``--spec`` (hand vectors) from a mid-run state (``--warm``
iterations of ``--method`` from the uniform start, made once and kept in ``--state``),
each pass of one player's update timed on its own, one thread, the segments in the
kernel's order: the forward reach, the terminal values, the backward pass (with the
instantaneous regrets), the average accumulation with the regret update; beside each,
the bytes its arrays hold (what it must move at the least).  Then whole iterations
(``VectorKernel.iteration``, the reach kept) of the tree under test and of ``--old``
(a copy of ``src`` from before the change, run with ``PYTHONPATH``) in two child
processes, on one thread and on ``--threads``, interleaved round by round, medians,
the machine's load printed; and whether the two trees' iterates stay equal bit for bit
over the timed iterations.

Usage::

    cp -r src /tmp/kernel_old_src                      # before editing the kernel
    python benchmarks/bench_kernel_passes.py --old /tmp/kernel_old_src --save
    python benchmarks/bench_kernel_passes.py --old /tmp/kernel_old_src --method cfr+ \
        --rounds 4 --games "leduc(players=2)" "rhode_island(ranks=4,suits=2)"

``--games``: the same old/new comparison on smaller games (the engine ladder's vector
games), a fresh process a run, the median wall and CPU seconds of an iteration.
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

import numpy as np

SRC = Path(__file__).resolve().parent.parent / "src"


def _load(spec: str):  # noqa: ANN202 -- (game, kernel)
    import toypoker as tp
    from toypoker.engines.evaluation import vector_of
    from toypoker.engines.vectors.kernel import vector_kernel

    game = tp.load_game(spec, layout="vector")
    return game, vector_kernel(vector_of(game))


def _schedules(spec: str, method: str, start: int, n: int) -> list[dict]:
    """The kernel's schedule dicts of iterations ``start + 1 .. start + n``."""
    import toypoker as tp
    from toypoker.engines.rows.cfr import payoff_scale
    from toypoker.solvers.cfr import kernel_schedule

    game = tp.load_game(spec, layout="vector")
    solver = tp.Solver(game, method)
    scale = payoff_scale(game)
    return [kernel_schedule(solver.options, start + i, scale) for i in range(1, n + 1)]


def make_state(spec: str, method: str, warm: int, path: Path) -> None:
    """``warm`` iterations of ``method`` from the uniform start, saved to ``path``."""
    import toypoker as tp

    solver = tp.Solver(tp.load_game(spec, layout="vector"), method)
    solver.step(warm)
    s = solver.state
    np.savez(path, sigma=s.sigma, regrets=s.regrets, average=s.average, it=s.iteration)


def child(args: argparse.Namespace) -> None:
    """Serve ``iter <threads> <n>`` lines on stdin: ``n`` iterations, their seconds and
    a digest of the iterates as one JSON line."""
    from toypoker.threads import kernel_threads

    _, kernel = _load(args.spec)
    st = np.load(args.state)
    sigma, regrets, average = (np.array(st[k], dtype=np.float64) for k in ("sigma", "regrets",
                                                                           "average"))  # fmt: skip
    t0 = int(st["it"])
    sched = _schedules(args.spec, args.method, t0, 10_000)
    done = 0
    print("ready", flush=True)
    for line in sys.stdin:
        _, threads, n = line.split()
        times, cpu = [], []
        with kernel_threads(int(threads)):
            for _ in range(int(n)):
                s = dict(sched[done])
                t, c = time.perf_counter(), time.process_time()
                kernel.iteration(sigma, regrets, average, reach_kept=done > 0, **s)
                times.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
                done += 1
        digest = [float(np.sum(sigma)), float(np.sum(regrets)), float(np.sum(average))]
        digest.append(int(np.frombuffer(regrets.tobytes(), np.uint64).sum() % (1 << 61)))
        digest.append(int(np.frombuffer(sigma.tobytes(), np.uint64).sum() % (1 << 61)))
        print(json.dumps({"times": times, "cpu": cpu, "digest": digest}), flush=True)


def passes(args: argparse.Namespace) -> None:
    """The one-thread pass-by-pass table (the tree on ``sys.path``)."""
    import numba
    from passes_kernel import pass_times  # benchmarks/passes_kernel.py

    numba.set_num_threads(1)
    _, kernel = _load(args.spec)
    st = np.load(args.state)
    arrays = [np.array(st[k], dtype=np.float64) for k in ("sigma", "regrets", "average")]
    sched = _schedules(args.spec, args.method, int(st["it"]), 1)[0]
    rows, total = pass_times(kernel, *arrays, sched, args.reps)
    print("\n| pass (one player, one thread) | CPU ms | MB its arrays hold | GB/s |")
    print("|---|---:|---:|---:|")
    for name, sec, nbytes in rows:
        print(f"| {name} | {sec * 1e3:.1f} | {nbytes / 1e6:.0f} | {nbytes / sec / 1e9:.1f} |")
    print(f"| sum of the passes, one player | {total * 1e3:.1f} | | |")


def _spawn(src: Path, args: argparse.Namespace) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(src))
    cmd = [sys.executable, __file__, "--child", "--spec", args.spec, "--method", args.method,
           "--state", str(args.state)]  # fmt: skip
    p = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    return p


def _ask(p: subprocess.Popen, threads: int, n: int) -> dict:
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(f"iter {threads} {n}\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline())


def compare(args: argparse.Namespace) -> None:
    """Old and new trees, interleaved: the iteration table and the digest check."""
    trees = {"old": Path(args.old), "new": SRC}
    procs = {k: _spawn(v, args) for k, v in trees.items()}
    times: dict[tuple[str, int], list[float]] = {}
    cpu: dict[tuple[str, int], list[float]] = {}
    same = True
    for r in range(args.rounds):
        for threads in sorted({1, args.threads}):
            got = {}
            for name in ("old", "new") if r % 2 == 0 else ("new", "old"):
                got[name] = _ask(procs[name], threads, args.per_round)
                times.setdefault((name, threads), []).extend(got[name]["times"])
                cpu.setdefault((name, threads), []).extend(got[name]["cpu"])
            same &= got["old"]["digest"] == got["new"]["digest"]
    for p in procs.values():
        p.stdin.close()  # type: ignore[union-attr]
        p.wait()
    print("\n| tree | threads | iteration s (median) | min | new / old | CPU s, all threads |")
    print("|---|---:|---:|---:|---:|---:|")
    for threads in sorted({1, args.threads}):
        old = statistics.median(times[("old", threads)])
        for name in ("old", "new"):
            v = times[(name, threads)]
            c = statistics.median(cpu[(name, threads)])
            print(f"| {name} | {threads} | {statistics.median(v):.3f} | {min(v):.3f} | "
                  f"{statistics.median(v) / old:.2f} | {c:.3f} |")  # fmt: skip
    n = args.rounds * args.per_round * len({1, args.threads})
    print(
        f"\niterates of old and new after each round of {n} iterations in all: "
        f"{'identical, bit for bit' if same else 'DIFFERENT'}"
    )


def small_child(spec: str, method: str, iterations: int) -> None:
    """Print the median wall and CPU seconds of an iteration of ``method`` on ``spec``
    (vector layout, after a warm-up step) as one JSON line."""
    import toypoker as tp

    solver = tp.Solver(tp.load_game(spec, layout="vector"), method)
    solver.step(2)
    wall, cpu = [], []
    for _ in range(5):
        t, c = time.perf_counter(), time.process_time()
        solver.step(iterations)
        wall.append((time.perf_counter() - t) / iterations)
        cpu.append((time.process_time() - c) / iterations)
    print(json.dumps([statistics.median(wall), statistics.median(cpu)]))


def small_games(args: argparse.Namespace) -> None:
    """``--games``: old and new trees on smaller games, fresh processes, interleaved."""
    print("\n| game | method | old ms (wall / CPU) | new ms (wall / CPU) | new / old (CPU) |")
    print("|---|---|---:|---:|---:|")
    for spec in args.games:
        got: dict[str, list] = {"old": [], "new": []}
        for r in range(args.rounds):
            for name in ("old", "new") if r % 2 == 0 else ("new", "old"):
                src = Path(args.old) if name == "old" else SRC
                out = subprocess.run(
                    [sys.executable, __file__, "--small-child", spec, "--method", args.method,
                     "--small-iterations", str(args.small_iterations)],
                    env=dict(os.environ, PYTHONPATH=str(src)), capture_output=True, text=True,
                    check=True,
                )  # fmt: skip
                got[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
        med = {k: [statistics.median(x[i] for x in v) * 1e3 for i in (0, 1)]
               for k, v in got.items()}  # fmt: skip
        old, new = med["old"], med["new"]
        print(f"| `{spec}` | {args.method} | {old[0]:.2f} / {old[1]:.2f} | "
              f"{new[0]:.2f} / {new[1]:.2f} | {new[1] / old[1]:.2f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="rhode_island")
    parser.add_argument("--method", default="pdcfr+")
    parser.add_argument("--warm", type=int, default=300, help="iterations before timing")
    parser.add_argument("--state", type=Path, default=None, help="kept state (npz)")
    parser.add_argument("--old", default=None, help="the src tree to compare against")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--per-round", type=int, default=3)
    parser.add_argument("--reps", type=int, default=5, help="pass timings: median of")
    parser.add_argument("--games", nargs="*", default=[], help="smaller games, old and new")
    parser.add_argument("--small-iterations", type=int, default=20, help="--games: a sample")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--small-child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--passes-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.state is None:
        tag = "".join(c if c.isalnum() else "_" for c in f"{args.spec}_{args.method}")
        args.state = Path("/tmp") / f"toypoker_state_{tag}_{args.warm}.npz"
    if args.child:
        child(args)
        return
    if args.small_child:
        small_child(args.small_child, args.method, args.small_iterations)
        return
    if args.games:
        print(f"load before: {tuple(round(x, 2) for x in os.getloadavg())}")
        small_games(args)
        print(f"\nload after: {tuple(round(x, 2) for x in os.getloadavg())}")
        return
    if not args.state.exists():
        make_state(args.spec, args.method, args.warm, args.state)
    print(f"`{args.spec}`, {args.method}, from the state after {args.warm} iterations")
    print(f"load before: {tuple(round(x, 2) for x in os.getloadavg())}, {os.cpu_count()} cores")
    passes(args)
    if args.old and not args.passes_only:
        compare(args)
    print(f"\nload after: {tuple(round(x, 2) for x in os.getloadavg())}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if "--child" in sys.argv or "--small-child" in sys.argv:
        main()
    else:
        from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

        with saved_output(__file__, take_save_flag(sys.argv)):
            main()
