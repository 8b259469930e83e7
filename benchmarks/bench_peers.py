"""Like-for-like peers: CFR+ iteration and NashConv beside OpenSpiel C++ and LiteEFG.

Every peer runs on its *default* game and on the *suit-merged* one
(OpenSpiel ``leduc_poker(suit_isomorphism=True)``; LiteEFG loads the same
OpenSpiel games); Kuhn has no suits, so its two forms are one game.  Ours
always runs on the compiled deal table (suit-merged), measured as users run
it: ``Solver(game, "cfr+").step()`` (the fused numba kernel, the default
backend) and ``toypoker.engines.rows.values.nash_conv`` on the average (the fused
best-response kernel); the vector layout (issue 21) as users run it,
``VectorSolver.step`` on one hand per rank and its own NashConv; beside it the
bare kernel call (``toypoker.engines.rows``,
no state objects: the solver's overhead floor) and the numpy reference
(``backend="numpy"``, ``evaluate.evaluate``).

All contenders of a game are timed in interleaved rounds in one process
(each round gives every contender a time slice, in rotating order); the
tables show medians over rounds and the machine load (``os.getloadavg``) at
start and end.  The memory-bandwidth floor of a workload is the bytes our
kernel must touch per call (int32 indices, float64 values, each array
streamed once) divided by the copy bandwidth measured here with a numpy copy
of a 128 MB array; the ratio column is our time over that floor.

Single-threaded everywhere (LiteEFG ``set_threads(1)``, numba and BLAS at 1
thread).  Usage::

    python benchmarks/bench_peers.py            # a few minutes
    python benchmarks/bench_peers.py --quick    # about a minute: fewer rounds, no unmerged 3p Leduc
    python benchmarks/bench_peers.py --full     # adds the slow peers (unmerged 3-player Leduc
                                                # in LiteEFG, OpenSpiel nash_conv on 3p Leduc)
    python benchmarks/bench_peers.py --targets 20   # adds time to NashConv 1e-3/1e-5/1e-6
                                                    # (our four CFR+ kinds, LiteEFG)
    python benchmarks/bench_peers.py --mccfr        # adds ES-/OS-MCCFR on 3-player Leduc
                                                    # beside OpenSpiel C++ (both forms)
    python benchmarks/bench_peers.py --workloads "Kuhn 3p" --mccfr  # only these workloads
                                                    # ("none": no CFR+/NashConv workload)

Targets (issue 11): CFR+ iteration and NashConv faster than LiteEFG and
>= 20x OpenSpiel C++ on the suit-merged games; 3-player Leduc CFR+ iteration
within 3x of its memory floor; 3-player Leduc ES-MCCFR >= 20x OpenSpiel C++
per iteration.  Our MCCFR runs as users run it, ``Solver(game, "es-mccfr",
seed=0).step(1000)`` (one compiled call per 1000 iterations), reported per
iteration; OpenSpiel's ``run_iteration()`` is one iteration per call.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from toypoker import load_game
from toypoker.engines.rows import CFRKernel, kernel_nash_conv
from toypoker.evaluation import evaluate, nash_conv
from toypoker.solvers import Solver
from toypoker.threads import limit_blas, set_numba_threads

OURS = "ours CFR+ (Solver.step)"  # the row every other is compared with

# bytes our fused kernels must touch (int32 indices, float64 values; see module doc)
CFR_BYTES_PER_ROW = 16 + 36  # forward: parent, es, cf out; backward: parent, es, term, cf, v r/w
NC_BYTES_PER_ROW = 16 + 52  # forward as above; backward carries two value arrays
BYTES_PER_TERMINAL = 8  # the player's payoff


@dataclass(frozen=True)
class Workload:
    label: str
    ours: str  # our spec (compiled deal table: suit-merged)
    default: str  # OpenSpiel's default game
    merged: str | None  # OpenSpiel's suit-merged game (None: no suits, same game)
    slow_default: bool = False  # the default form only with --full (LiteEFG setup, nash_conv)


WORKLOADS = [
    Workload("Kuhn 3p", "kuhn(players=3)", "kuhn_poker(players=3)", None),
    Workload(
        "Leduc 2p",
        "leduc(players=2)",
        "leduc_poker(players=2)",
        "leduc_poker(players=2,suit_isomorphism=True)",
    ),
    Workload(
        "Leduc 3p",
        "leduc(players=3)",
        "leduc_poker(players=3)",
        "leduc_poker(players=3,suit_isomorphism=True)",
        slow_default=True,
    ),
]


@dataclass
class Contender:
    """One solver on one game form: ``step()`` one iteration, ``nash_conv()`` one evaluation."""

    name: str
    form: str
    step: Callable[[], object]
    nash_conv: Callable[[], object] | None
    live_nash_conv: Callable[[], float] | None = None  # of the current average (targets)
    iters: list[float] = field(default_factory=list)
    evals: list[float] = field(default_factory=list)
    reps: int = 1
    eval_reps: int = 1
    per_call: int = 1  # iterations per step() call (times are reported per iteration)


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def copy_bandwidth(rounds: int = 5) -> float:
    """Bytes per second of ``np.copyto`` on a 128 MB array (read + write counted)."""
    a = np.ones(16 * 2**20)
    b = np.empty_like(a)
    np.copyto(b, a)
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        np.copyto(b, a)
        times.append(time.perf_counter() - t0)
    return 2 * a.nbytes / statistics.median(times)


# ------------------------------------------------------------------ contenders
def ours_solver(spec: str, method: str = "cfr+") -> Contender:
    """As users run it: ``Solver.step`` and ``evaluate.nash_conv`` of the average."""
    g = load_game(spec)
    s = Solver(g, method)
    s.step(1)
    profile = s.profile()
    return Contender(
        OURS if method == "cfr+" else f"ours {method.upper()} (Solver.step)",
        "merged",
        lambda: s.step(1),
        lambda: nash_conv(g, profile),
        live_nash_conv=lambda: float(nash_conv(g, s.profile())),  # type: ignore[arg-type]
    )


def ours_numpy(spec: str) -> Contender:
    """The numpy reference: ``backend="numpy"`` and ``evaluate.evaluate``."""
    g = load_game(spec)
    s = Solver(g, "cfr+", backend="numpy")
    s.step(1)
    profile = s.profile()
    return Contender(
        "ours numpy reference CFR+", "merged", lambda: s.step(1), lambda: evaluate(g, profile)
    )


def ours_kernel(spec: str, predictive: bool = False, power: float = 1.0) -> Contender:
    """Our fused kernel: CFR+ (or PCFR+), iteration ``t`` averaged with weight ``t**power``."""
    g = load_game(spec)
    k = CFRKernel(g)
    sigma, regrets, ssum = k.uniform(), np.zeros(g.n_sigma), np.zeros(g.n_sigma)
    t = [0]

    def step() -> None:
        t[0] += 1
        k.iteration(sigma, regrets, ssum, weight=float(t[0]) ** power, predictive=predictive)

    def average() -> np.ndarray:
        sums = np.bincount(g.sigma_infoset, weights=ssum, minlength=g.n_infosets)
        s = sums[g.sigma_infoset]
        return np.ascontiguousarray(np.where(s > 0, ssum / np.where(s > 0, s, 1), sigma))

    step()
    profile = average()
    name = "ours bare kernel PCFR+" if predictive else "ours bare kernel CFR+"
    if power != 1.0:
        name += f" (t^{power:g} average)"
    return Contender(
        name,
        "merged",
        step,
        lambda: kernel_nash_conv(k, profile),
        live_nash_conv=lambda: kernel_nash_conv(k, average()),
    )


def ours_vector(spec: str) -> Contender:
    """The vector layout as users run it: ``VectorSolver.step`` on one hand per rank
    (``rank_hands``), NashConv of the average as ``VectorSolver`` checks it
    (``vector_evaluate``: the fused best-response kernel)."""
    from toypoker.engines import as_game
    from toypoker.engines.evaluation import vector_evaluate
    from toypoker.engines.vectors import compile_vector
    from toypoker.engines.vectors.layout import rank_hands
    from toypoker.solvers import Solver

    vg = rank_hands(compile_vector(load_game(spec)))
    s = Solver(as_game(vg), "cfr+")
    s.step(1)
    probs = s.profile().probs
    return Contender(
        "ours vector CFR+ (VectorSolver.step)",
        "merged",
        lambda: s.step(1),
        lambda: vector_evaluate(vg, probs).nash_conv,
        live_nash_conv=lambda: vector_evaluate(vg, s.profile().probs).nash_conv,
    )


def openspiel_cfr_plus(game_text: str, form: str, with_nash_conv: bool) -> Contender:
    import pyspiel

    game = pyspiel.load_game(game_text)
    solver = pyspiel.CFRPlusSolver(game)
    solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    nc = (lambda: pyspiel.nash_conv(game, policy)) if with_nash_conv else None
    return Contender("OpenSpiel C++ CFR+", form, solver.evaluate_and_update_policy, nc)


def liteefg(game_text: str, form: str, method: str) -> Contender:
    import LiteEFG
    import pyspiel
    from LiteEFG.baselines import PCFR, CFRplus

    LiteEFG.set_threads(1)
    game = pyspiel.load_game(game_text)
    with contextlib.redirect_stdout(io.StringIO()):  # the baselines print a banner
        env = LiteEFG.OpenSpielEnv(game, traverse_type="Enumerate", regenerate=False)
        graph = (PCFR if method == "PCFR+" else CFRplus).graph()
        env.set_graph(graph)
    n = game.num_players()

    def step() -> None:  # every player (the baselines' update_graph does players 1 and 2)
        for p in range(1, n + 1):
            env.update(graph.strategy, upd_player=p)
        env.update_strategy(graph.current_strategy(), update_best=False)

    def nash_conv() -> float:  # its per-player exploitabilities sum to NashConv
        return sum(env.exploitability(graph.current_strategy(), "linear-avg-iterate"))

    step()
    return Contender(f"LiteEFG {method}", form, step, nash_conv, live_nash_conv=nash_conv)


def contenders(w: Workload, quick: bool, full: bool, have_os: bool, have_leg: bool):
    out = [
        ours_solver(w.ours),
        ours_vector(w.ours),
        ours_kernel(w.ours),
        ours_solver(w.ours, "pcfr+"),
        ours_numpy(w.ours),
    ]
    forms = [("default", w.default)] if w.merged is None else [
        ("default", w.default),
        ("suit-merged", w.merged),
    ]  # fmt: skip
    for form, text in forms:
        slow = w.slow_default and form == "default"
        if slow and quick:
            continue
        if have_os:
            out.append(openspiel_cfr_plus(text, form, with_nash_conv=not (slow and not full)))
            if w.slow_default and not full:  # nash_conv of 3p Leduc takes seconds to minutes
                out[-1].nash_conv = None
        if have_leg and (not slow or full):
            out.append(liteefg(text, form, "CFR+"))
            out.append(liteefg(text, form, "PCFR+"))
    return out


# ---------------------------------------------------------------------- timing
def calibrate(fn: Callable[[], object], slice_seconds: float) -> int:
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    return max(1, int(slice_seconds / max(one, 1e-7)))


def ours_mccfr(spec: str, method: str) -> Contender:
    """``Solver(game, method, seed=0).step(1000)``: sampling methods step in compiled batches."""
    s = Solver(load_game(spec), method, seed=0)
    s.step(1000)  # compile (or load) and leave the uniform start
    return Contender(f"ours {method.upper()}", "merged", lambda: s.step(1000), None, per_call=1000)


def openspiel_mccfr(game_text: str, form: str, method: str) -> Contender:
    import pyspiel

    game = pyspiel.load_game(game_text)
    cls = {"es-mccfr": "ExternalSamplingMCCFRSolver", "os-mccfr": "OutcomeSamplingMCCFRSolver"}
    solver = getattr(pyspiel, cls[method])(game)
    for _ in range(1000):
        solver.run_iteration()
    return Contender(f"OpenSpiel C++ {method.upper()}", form, solver.run_iteration, None)


def mccfr_rows(rounds: int, slice_seconds: float, have_os: bool) -> list[list[str]]:
    """ES- and OS-MCCFR per iteration on 3-player Leduc: ours beside OpenSpiel C++."""
    rows = []
    for method in ("es-mccfr", "os-mccfr"):
        cs = [ours_mccfr("leduc(players=3)", method)]
        if have_os:
            merged = "leduc_poker(players=3,suit_isomorphism=True)"
            cs += [
                openspiel_mccfr("leduc_poker(players=3)", "default", method),
                openspiel_mccfr(merged, "suit-merged", method),
            ]
        run_rounds(cs, rounds, slice_seconds)
        ours = med(cs[0].iters) / cs[0].per_call
        for c in cs:
            it = med(c.iters) / c.per_call
            rows.append(["Leduc 3p", c.name, c.form, fmt(it), f"{it / ours:.3g}x"])
    return rows


def timed(fn: Callable[[], object], reps: int) -> float:
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps


def run_rounds(cs: list[Contender], rounds: int, slice_seconds: float) -> None:
    for c in cs:
        c.reps = calibrate(c.step, slice_seconds)
        if c.nash_conv is not None:
            c.eval_reps = calibrate(c.nash_conv, slice_seconds)
    for r in range(rounds):
        order = cs[r % len(cs) :] + cs[: r % len(cs)]
        for c in order:
            c.iters.append(timed(c.step, c.reps))
            if c.nash_conv is not None:
                c.evals.append(timed(c.nash_conv, c.eval_reps))


TARGETS = (1e-3, 1e-5, 1e-6)


def time_to_targets(c: Contender, targets: tuple[float, ...], budget: float) -> dict:
    """Seconds and iterations until NashConv of the average <= each target.

    NashConv is checked at geometrically spaced iterations (about 25 per
    decade); the checks are excluded from the time.
    """
    assert c.live_nash_conv is not None
    spent, it, nxt, reached = 0.0, 1, 2, {}  # the contender already ran one iteration
    while spent < budget and len(reached) < len(targets):
        t0 = time.perf_counter()
        for _ in range(nxt - it):
            c.step()
        spent += time.perf_counter() - t0
        it = nxt
        nc = c.live_nash_conv()
        for target in targets:
            if target not in reached and nc <= target:
                reached[target] = (spent, it)
        nxt = max(it + 1, int(it * 1.1))
    return reached


def target_rows(quick: bool, have_leg: bool, budget: float) -> list[list[str]]:
    """Time to NashConv targets: ours (Solver.step) and LiteEFG on the suit-merged games."""
    runs = [
        ("Leduc 2p", "leduc(players=2)", "leduc_poker(players=2,suit_isomorphism=True)", TARGETS),
        ("Leduc 3p", "leduc(players=3)", "leduc_poker(players=3,suit_isomorphism=True)", (1e-3,)),
    ]
    rows = []
    for label, ours, theirs, targets in runs:
        cs = [ours_solver(ours, m) for m in ("cfr+", "pcfr+", "dcfr+", "pdcfr+")]
        if have_leg and not (quick and "players=3" in ours):
            cs += [liteefg(theirs, "suit-merged", "CFR+"), liteefg(theirs, "suit-merged", "PCFR+")]
        for c in cs:
            reached = time_to_targets(c, targets, budget)
            cells = []
            for target in TARGETS:
                if target not in targets:
                    cells.append("")
                elif target in reached:
                    sec, it = reached[target]
                    cells.append(f"{fmt(sec)} ({it} it)")
                else:
                    cells.append(f"> {budget:g} s")
            rows.append([label, c.name, c.form, *cells])
    return rows


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


def med(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def table(title: str, header: list[str], rows: list[list[str]]) -> str:
    lines = [f"### {title}", "", "| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="about a minute")
    ap.add_argument("--full", action="store_true", help="include the slow peer runs")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument(
        "--targets",
        type=float,
        default=None,
        metavar="SECONDS",
        help="also time each solver to NashConv 1e-3/1e-5/1e-6, this budget each",
    )
    ap.add_argument("--mccfr", action="store_true", help="add ES-/OS-MCCFR on 3-player Leduc")
    ap.add_argument(
        "--workloads",
        default=None,
        help="comma-separated workload labels to run (e.g. 'Kuhn 3p'); 'none' for none",
    )
    args = ap.parse_args()
    workloads = WORKLOADS
    if args.workloads is not None:
        wanted = {x.strip() for x in args.workloads.split(",")}
        workloads = [w for w in WORKLOADS if w.label in wanted]
    rounds = args.rounds or (3 if args.quick else 5)
    slice_seconds = 0.1 if args.quick else 0.25
    try:
        import pyspiel  # noqa: F401

        have_os = True
    except ImportError:
        have_os = False
    try:
        import LiteEFG  # noqa: F401

        have_leg = True
    except ImportError:
        have_leg = False
    set_numba_threads(1)
    start_load = load()
    with limit_blas(1):
        bw = copy_bandwidth()
        results = []
        for w in workloads:
            cs = contenders(w, args.quick, args.full, have_os, have_leg)
            run_rounds(cs, rounds, slice_seconds)
            results.append((w, cs))
        targets = target_rows(args.quick, have_leg, args.targets) if args.targets else []
        mccfr = mccfr_rows(rounds, slice_seconds, have_os) if args.mccfr else []
    end_load = load()
    print("## toypoker vs OpenSpiel C++ and LiteEFG, like for like\n")
    print(
        f"load average (1/5/15 min) at start {start_load}, at end {end_load} on "
        f"{os.cpu_count()} CPUs; medians of {rounds} interleaved rounds; "
        f"copy bandwidth {bw / 1e9:.1f} GB/s; peers: OpenSpiel {'yes' if have_os else 'no'}, "
        f"LiteEFG {'yes' if have_leg else 'no'}\n"
    )
    it_rows, nc_rows, floor_rows = [], [], []
    for w, cs in results:
        kern = next(c for c in cs if c.name == OURS)
        k_it, k_nc = med(kern.iters), med(kern.evals)
        for c in cs:
            it, nc = med(c.iters), med(c.evals)
            it_rows.append([w.label, c.name, c.form, fmt(it), f"{it / k_it:.3g}x" if it else "-"])
            if not c.name.startswith(("ours PCFR+", "ours bare")):
                nc_rows.append(
                    [w.label, c.name, c.form, fmt(nc), f"{nc / k_nc:.3g}x" if nc else "-"]
                )
        g = load_game(w.ours)
        terms = len(g.term_rows)
        cfr_bytes = g.n_players * (CFR_BYTES_PER_ROW * g.n_rows + BYTES_PER_TERMINAL * terms)
        nc_bytes = g.n_players * (NC_BYTES_PER_ROW * g.n_rows + BYTES_PER_TERMINAL * terms)
        numpy_it = med(next(c for c in cs if c.name == "ours numpy reference CFR+").iters)
        for what, nbytes, ours_t, np_t in (
            ("CFR+ iteration", cfr_bytes, k_it, numpy_it),
            ("NashConv", nc_bytes, k_nc, None),
        ):
            floor = nbytes / bw
            floor_rows.append(
                [
                    w.label,
                    what,
                    f"{g.n_rows}",
                    f"{nbytes / 1e6:.3g} MB",
                    fmt(floor),
                    fmt(ours_t),
                    f"{ours_t / floor:.2g}x",
                    f"{np_t / floor:.2g}x" if np_t else "-",
                ]
            )
    if mccfr:
        print(
            table(
                "MCCFR iteration (median time per iteration; ours in batches of 1000)",
                ["game", "solver", "game form", "time / iteration", "vs ours"],
                mccfr,
            )
        )
    if not results:
        return
    print(
        table(
            "CFR+ iteration (median time per iteration)",
            ["game", "solver", "game form", "time / iteration", "vs ours"],
            it_rows,
        )
    )
    print(
        table(
            "NashConv evaluation of the average strategy",
            ["game", "solver", "game form", "time / evaluation", "vs ours"],
            nc_rows,
        )
    )
    print(
        table(
            "Memory-bandwidth floor of our kernel's workload",
            [
                "game",
                "workload",
                "rows",
                "bytes / call",
                "floor",
                "ours (Solver)",
                "ours / floor",
                "numpy / floor",
            ],
            floor_rows,
        )  # fmt: skip
    )
    if targets:
        print(
            table(
                f"Time to NashConv targets (average strategy; budget {args.targets:g} s each)",
                ["game", "solver", "game form", *(f"NashConv {x:g}" for x in TARGETS)],
                targets,
            )
        )
    print(
        "'-': not measured (OpenSpiel nash_conv and LiteEFG on unmerged 3-player Leduc "
        "need --full). 'vs ours' = that time / ours (Solver.step; evaluate.nash_conv). LiteEFG's "
        "NashConv is its env.exploitability of the linear average."
    )


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
