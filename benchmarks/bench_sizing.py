"""Sizing a sharded solve before renting a cluster (issue 36, item 3).

For each game: its counted size (``toypoker.engines.choice.vector_count``: public
nodes x players x hands = entries; bytes = ``toypoker.engines.vectors.size.vector_bytes``), the
cut of :func:`toypoker.engines.vectors.subtrees.split` (nodes above it ``T``, subtrees ``S``),
and from these, for ``k`` workers:

* **memory**: the driver builds the whole game (``B``) and holds it; it cuts each
  worker's piece (``toypoker.engines.vectors.pieces``) and sends it, so a worker holds about
  ``B / k`` plus the cut's buffers, at its peak too (building each piece on its worker,
  with no whole game on the driver, is not done);
* **bytes exchanged an iteration**: a player step sends each shard the top's reach rows
  and strategy (``n x T x H`` numbers) and gets back its subtrees' root values
  (``S x H`` in all): ``n x (k x n x T x H + S x H) x 8`` bytes;
* **projected seconds an iteration**: the in-process iteration -- measured here (one
  thread, median of 3) for the games built here, else predicted by the layout cost
  model fitted to the measured ladder (``benchmarks/results/layout_costs.json``,
  ``toypoker.engines.choice.predict``) times the ratio measured / predicted on the
  largest game with as many players built here (the ladder's games are smaller: the
  model alone underestimates) -- over ``k``, plus ``n`` step round trips at
  the measured latency ``L`` and the bytes at the measured bandwidth ``W`` (both
  measured here, on a LocalCluster of two processes).

The cut of a game too large to build here is read from the same game on a small deck
(``ranks=3,suits=2``, the same betting): exact where the cut falls in the betting above
the first board card ("exact"); else its subtree count scaled by the deck's cards on the
full deck over the small one, the first board card's choices ("scaled").

Usage::

    python benchmarks/bench_sizing.py [--save]
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

GAMES = [
    # (spec, the same betting on a small deck: the cut's source when not built here)
    ("rhode_island", None),
    ("rhode_island(players=3,cap=1)", None),
    ("rhode_island(players=3)", "rhode_island(players=3,ranks=3,suits=2)"),
    ("holdem(players=2,ranks=13,suits=4,hole=2,rounds=4,evaluator=standard)",
     "holdem(players=2,ranks=4,suits=2,hole=2,rounds=4,evaluator=standard)"),
]  # fmt: skip
KS = (1, 2, 4, 16, 64)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cut_of(spec: str, timed: bool) -> tuple[int, int, bool, float | None]:
    """``(T, S, chance_above, seconds)``: nodes above the cut, subtrees below it, whether
    a chance node (a board card) lies above the cut, in ``spec`` built on hand vectors,
    and (``timed``) the median seconds of a CFR+ iteration in process on one thread."""
    import toypoker as tp
    from toypoker.engines.evaluation import vector_of
    from toypoker.engines.vectors.kernel import vector_kernel
    from toypoker.engines.vectors.regrets import init
    from toypoker.solvers.cfr import kernel_steps
    from toypoker.solvers.registry import get_method, parse_options
    from toypoker.threads import kernel_threads

    vg = vector_of(tp.load_game(spec, layout="vector"))
    k = vector_kernel(vg)
    order, seg = k.parts[0], k.parts[1]
    top = order[seg[0] : seg[1]]
    chance = np.asarray(vg.edge_player)[1:] < 0  # edges out of chance nodes
    chance_parents = set(np.asarray(vg.parent)[1:][chance].tolist())
    above = bool(chance_parents & set(top.tolist()))
    seconds = None
    if timed:
        opts = parse_options(get_method("cfr+"), {})
        state = kernel_steps(k, init(vg), opts, 1)  # compiled
        runs = []
        with kernel_threads(1):
            for _ in range(3):
                t0 = time.perf_counter()
                state = kernel_steps(k, state, opts, 1)
                runs.append(time.perf_counter() - t0)
        seconds = float(np.median(runs))
    return int(seg[1] - seg[0]), int(len(seg) - 2), above, seconds


def deck(spec: str) -> int:
    """Cards in ``spec``'s deck (ranks x suits)."""
    from toypoker.games import parse_game_spec

    params = parse_game_spec(spec)[1]
    return int(params["ranks"]) * int(params["suits"])


def exchange_costs() -> tuple[float, float]:
    """``(L, W)``: seconds of one player step's round trip to two shards of a tiny game
    beyond its compute, and bytes a second to a worker (a 64 MB array there and back)."""
    import logging

    from distributed import Client, LocalCluster

    import toypoker as tp
    from toypoker.engines.evaluation import vector_of
    from toypoker.engines.sharded import ShardedKernel
    from toypoker.engines.vectors.kernel import vector_kernel
    from toypoker.engines.vectors.regrets import init
    from toypoker.solvers.cfr import kernel_steps
    from toypoker.solvers.registry import get_method, parse_options
    from toypoker.threads import kernel_threads

    logging.getLogger("distributed").setLevel(logging.ERROR)
    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                           dashboard_address=None, silence_logs=50)  # fmt: skip
    client = Client(cluster)
    try:
        vg = vector_of(tp.load_game("rhode_island(ranks=3,suits=2,cap=1)", layout="vector"))
        opts = parse_options(get_method("cfr+"), {})
        sk = ShardedKernel(vg, client)
        s0 = kernel_steps(sk, init(vg), opts, 2)
        here, there = [], []
        for _ in range(5):
            with kernel_threads(1):
                t0 = time.perf_counter()
                kernel_steps(vector_kernel(vg), s0, opts, 20)
                here.append((time.perf_counter() - t0) / 20)
            t0 = time.perf_counter()
            kernel_steps(sk, s0, opts, 20)
            there.append((time.perf_counter() - t0) / 20)
        latency = (float(np.median(there)) - float(np.median(here))) / vg.n_players
        big = np.ones(8 * 2**20)  # 64 MB
        w = client.scheduler_info()["workers"]
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            fut = client.scatter(big, workers=[sorted(w)[0]], direct=True)
            fut.result()
            client.gather(fut)
            times.append(time.perf_counter() - t0)
        bandwidth = 2 * big.nbytes / float(np.median(times))
        sk.close()
    finally:
        client.close()
        cluster.close()
    return latency, bandwidth


def size_text(n: float) -> str:
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n:.0f} B"


def main() -> None:
    from toypoker.engines.choice import predict, vector_count
    from toypoker.engines.vectors.size import vector_bytes

    print(f"load before: {load()} (1/5/15 min), cores: {os.cpu_count()}")
    latency, bandwidth = exchange_costs()
    print(f"\nmeasured here: a player step's round trip to two shards L = "
          f"{1e3 * latency:.2f} ms beyond its compute; bandwidth to a worker W = "
          f"{bandwidth / 1e9:.2f} GB/s\n")  # fmt: skip
    calibrated: dict[int, tuple[float, str]] = {}
    for spec, proxy in GAMES:
        c = vector_count(spec)
        n, hands, entries = c.players, c.hands, c.entries
        whole = vector_bytes(spec, c)
        top, subs, above, measured = cut_of(proxy or spec, proxy is None)
        model = predict(spec, c)[1]
        if measured is not None:
            t_in, source = measured, "measured here, one thread"
            calibrated[n] = (measured / model, c.spec)
        else:  # the model, scaled by what it missed on the largest game of n players here
            ratio, on = calibrated.get(n, (1.0, None))
            t_in = model * ratio
            source = f"cost model x {ratio:.2f}, calibrated on {on}" if on else "cost model"
        how = "built here"
        if proxy is not None:
            how = "exact (small deck, cut above the board)"
            if above:  # the cut lies below a board card: scale by the full deck's choices
                subs = int(round(subs * deck(spec) / deck(proxy)))
                how = "scaled from the small deck"
        print(f"## {c.spec}\n")
        print(f"{c.public_nodes:,} public nodes x {n} players x {hands} hands = {entries:,} "
              f"entries; whole game {size_text(whole)}; cut: {top} nodes above, {subs:,} "
              f"subtrees ({how}); in process ({source}) {t_in:.3g} s an iteration\n")  # fmt: skip
        print("| workers | the driver (the whole game) | a worker (its piece) | "
              "bytes exchanged / iteration | projected s / iteration |")  # fmt: skip
        print("|---:|---:|---:|---:|---:|")
        for k in KS:
            cut_bytes = (n * top * hands + subs * hands) * 8
            moved = 0 if k == 1 else n * (k * n * top * hands + subs * hands) * 8
            t_k = t_in / k + (0 if k == 1 else n * latency + moved / bandwidth)
            print(f"| {k} | {size_text(whole)} | {size_text(whole / k + cut_bytes)} | "
                  f"{size_text(moved)} | {t_k:.3g} |")  # fmt: skip
        print()
    print(f"load after: {load()}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
