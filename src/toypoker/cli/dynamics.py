"""``toypoker dynamics``: the adaptation ODE and repeated play (Billingham)."""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.table import Table

from toypoker.cli.checks import (
    at_least,
    at_most,
    check_file,
    check_folder,
    floats,
    integers,
    positive,
)
from toypoker.cli.common import (
    Bar,
    JsonOpt,
    hold,
    interrupted,
    new_app,
    out,
    out_dir_option,
    plain,
    print_json,
    resume_hint,
)
from toypoker.cli.dynamics_table1 import print_table1, table1_runs
from toypoker.dask_client import machine_cpus
from toypoker.dynamics import figures
from toypoker.dynamics.estimators import estimator_limits, estimator_studies
from toypoker.dynamics.general import GameDynamics
from toypoker.dynamics.ode import (
    LimitCycle,
    SKPDynamics,
    StabilityReport,
    basin,
    basins,
    classify,
    expectations,
    poincare,
)
from toypoker.dynamics.play import MAX_MEMORY, PlayResult, play
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.interrupts import deferred_interrupts
from toypoker.io import atomic_write_text
from toypoker.literature.papers import billingham
from toypoker.locks import run_lock

app = new_app("Learning dynamics: the adaptation ODE and repeated play.", no_args_is_help=True)

MAX_BASINS_GRID = 200  # n x n integrations of the ODE
OutdirOpt = Annotated[Path, out_dir_option("Folder for CSV and figures.")]
ClipOpt = Annotated[bool, typer.Option("--clip/--no-clip", help="Clip every estimate to [0, 1].")]
EstimatorOpt = Annotated[
    str,
    typer.Option(help="Player 2's c_K estimate (46): corrected (unbiased) or printed."),
]


# sanity bounds of the ODE's inputs: the paper studies P in (5, 20], rates k ~ 1e-3..1 and
# times ~ 1e3; far beyond these the integration is stiff or endless, not informative
MAX_POT = 1e6
MAX_RATE = 1e3
MAX_T_END = 1e7


def _pot(pot: float) -> float:
    if not (np.isfinite(pot) and 0 < pot <= MAX_POT):
        raise ToypokerError(f"--pot must be positive and at most {MAX_POT:g}, got {pot}")
    return float(pot)


def _rates(text: str, n: int | None) -> list[float]:
    ks = floats(text, n, "--k")
    for x in ks:
        positive("--k", x)
        if x > MAX_RATE:
            raise ToypokerError(f"--k must be at most {MAX_RATE:g} (an adaptation rate), got {x}")
    return ks


def _y0(text: str, n: int) -> list[float]:
    y = floats(text, n, "--y0")
    if not all(0 <= v <= 1 for v in y):
        raise ToypokerError(f"--y0 frequencies must lie in [0, 1], got {text!r}")
    return y


def ode(
    pot: Annotated[float, typer.Option(help="Pot P.")] = 9.0,
    k: Annotated[str, typer.Option(help="Rates k1,k2,k3 (or one value).")] = "1",
    y0: Annotated[
        str | None,
        typer.Option(
            help="Initial b_J,c_K,d_Q (default 0.25,0.2,0.25); with --game one value per "
            "binary choice, or one for all (default 0.5 each)."
        ),
    ] = None,
    t_end: Annotated[float, typer.Option(help="Integration time.")] = 400.0,
    basins_grid: Annotated[int, typer.Option(help="Basin grid size (n x n).")] = 9,
    game: Annotated[
        str | None, typer.Option(help="Any game with binary choices instead of SKP's ODE.")
    ] = None,
    outdir: OutdirOpt = Path("dynamics"),
    json_: JsonOpt = False,
) -> None:
    """The ODE model (eqs. 18-26): fixed points and stability, limit cycle, basin,
    expectation integrals; CSV and Figures 7-10."""

    positive("--t-end", t_end)
    if t_end > MAX_T_END:
        raise ToypokerError(f"--t-end must be at most {MAX_T_END:g}, got {t_end:g}")
    at_least("--basins-grid", basins_grid, 1)
    if basins_grid > MAX_BASINS_GRID:
        raise ToypokerError(f"--basins-grid must be at most {MAX_BASINS_GRID}, got {basins_grid}")
    check_folder(outdir, "--out-dir")
    hold(run_lock(outdir, "output folder", folder=True))  # a second run into it is refused
    if game is not None:
        g = load_rows(game)
        gd = GameDynamics(g, k=_rates(k, None)[0])
        x0 = _y0("0.5" if y0 is None else y0, len(gd.labels))
        outdir.mkdir(parents=True, exist_ok=True)
        sol = gd.integrate(x0, t_end, t_eval=np.linspace(0, t_end, 2001))
        rows = ["t," + ",".join(gd.labels)]
        rows += [",".join(f"{v:.10g}" for v in (t, *sol.y[:, i])) for i, t in enumerate(sol.t)]
        atomic_write_text(outdir / "trajectory.csv", "\n".join(rows) + "\n")
        final = {lbl: float(v) for lbl, v in zip(gd.labels, sol.y[:, -1], strict=True)}
        if json_:
            print_json({"game": g.spec, "final": final, "csv": str(outdir / "trajectory.csv")})
        else:
            out.print(f"{g.spec}: integrated {len(gd.labels)} variables to t = {t_end:g}")
            for lbl, v in final.items():
                out.print(f"  {lbl}: {v:.6f}")
        return
    dyn = SKPDynamics(P=_pot(pot), k=tuple(_rates(k, 3)))
    y = _y0("0.25,0.2,0.25" if y0 is None else y0, 3)
    outdir.mkdir(parents=True, exist_ok=True)
    try:  # each file is written whole (atomically): an interrupt keeps those written
        with Bar("dynamics ode", len(ODE_STEPS), fields=("step",)) as bar:
            data, reports, cycle = _ode_steps(dyn, y, t_end, basins_grid, outdir, bar)
    except KeyboardInterrupt:
        raise interrupted(f"the files written so far are kept in {outdir}/", None) from None
    if json_:
        print_json(plain(data))
        return
    _print_ode(dyn, y, t_end, basins_grid, data, reports, cycle)


#: the steps of ``dynamics ode`` (SKP), as its progress shows them
ODE_STEPS = ("fixed points", "limit cycle", "basin", "Figures 9-10", "Figure 7", "basins")


def _ode_steps(
    dyn: SKPDynamics, y: list[float], t_end: float, basins_grid: int, outdir: Path, bar: Bar
) -> tuple[dict, list[StabilityReport], LimitCycle]:
    """The work of ``dynamics ode`` on SKP, step by step (``bar`` told before each):
    files written to ``outdir``; returns the JSON data, the fixed points' reports and
    the limit cycle."""
    step = iter(ODE_STEPS)
    bar.update(step=next(step))
    reports = classify(dyn)
    bar.update(advance=1, step=next(step))
    lc = poincare(dyn, y, t_end=t_end)
    bar.update(advance=1, step=next(step))
    b = basin(dyn, y, t_end)
    bar.update(advance=1, step=next(step))
    sols = figures.fig_solutions(
        dyn, [y], outdir / "fig9_solution.png", outdir / "fig10_expectations.png", t_end
    )
    sol = sols[0]
    e = expectations(dyn, sol)
    rows = ["t,b_J,c_K,d_Q,E1,E2,E3"]
    rows += [
        ",".join(f"{v:.10g}" for v in (t, *sol.y[:, i], *e[:, i])) for i, t in enumerate(sol.t)
    ]
    atomic_write_text(outdir / "ode.csv", "\n".join(rows) + "\n")
    bar.update(advance=1, step=next(step))
    figures.fig_limit_cycles(dyn, outdir / "fig7_limit_cycles.png")
    bar.update(advance=1, step=next(step))
    basin_counts = None
    if "S3" in dyn.fixed_points():
        figures.fig_manifold(dyn, outdir / "fig8_stable_manifold.png")
        cs, ds, which = basins(dyn, n=basins_grid, t_end=t_end)
        b_fix = dyn.fixed_points()["S3"][0]
        figures.fig_basins(cs, ds, which, b_fix, outdir / "basins.png")
        grid_rows = ["b_J,c_K,d_Q,attractor"] + [
            f"{b_fix:.6f},{c:.6f},{d:.6f},{'S1' if which[i, j] == 1 else 'S2'}"
            for i, c in enumerate(cs)
            for j, d in enumerate(ds)
        ]
        atomic_write_text(outdir / "basins.csv", "\n".join(grid_rows) + "\n")
        basin_counts = {"S1": int((which == 1).sum()), "S2": int((which == 2).sum())}
    data = {
        "P": dyn.P,
        "k": list(dyn.k),
        "fixed_points": [
            {
                "name": r.name,
                "point": r.point.tolist(),
                "eigenvalues": [[float(z.real), float(z.imag)] for z in r.eigenvalues],
                "kind": r.kind,
            }
            for r in reports
        ],
        "limit_cycle": {
            "period": lc.period,
            "amplitude": lc.amplitude.tolist(),
            "converged": lc.converged,
        },
        "basin": b,
        "basin_grid": basin_counts,
        "outdir": str(outdir),
    }
    bar.update(advance=1)
    return data, reports, lc


def _print_ode(
    dyn: SKPDynamics,
    y: list[float],
    t_end: float,
    basins_grid: int,
    data: dict,
    reports: list[StabilityReport],
    lc: LimitCycle,
) -> None:
    """The table and lines ``dynamics ode`` prints for SKP."""
    b, basin_counts, outdir = data["basin"], data["basin_grid"], data["outdir"]
    t = Table(title=f"Fixed points of the ODE (18)-(23), P = {dyn.P:g}", title_justify="left")
    for c in ["point", "(b_J, c_K, d_Q)", "eigenvalues", "manifolds"]:
        t.add_column(c)
    for r in reports:
        t.add_row(
            r.name,
            ", ".join(f"{v:.4f}" for v in r.point),
            ", ".join(f"{z.real:.5f}{z.imag:+.5f}i" for z in r.eigenvalues),
            r.kind,
        )
    out.print(t)
    start = ", ".join(f"{v:g}" for v in y)
    if lc.converged:
        cycle = (
            f"limit cycle period {float(lc.period):.3f}, amplitude "
            f"{', '.join(f'{float(a):.4f}' for a in lc.amplitude)}"
        )
    else:
        cycle = f"no converged limit cycle by t = {t_end:g}"
    out.print(f"from ({start}): attracted to {b}; {cycle}")
    if basin_counts:
        out.print(
            f"basins over a {basins_grid}x{basins_grid} grid of initial (c_K, d_Q): "
            f"{basin_counts['S1']} -> c_K = 0 (S1), {basin_counts['S2']} -> d_Q = 0 (S2)"
        )
    out.print(f"CSV and Figures 7-10 (and basins.png) written to {outdir}/")


def _memories(text: str) -> list[int]:
    """``--L``: comma-separated memories, each 1..MAX_MEMORY rounds."""
    Ls = integers(text, "--L", 1)
    for x in Ls:
        at_most("--L", x, MAX_MEMORY)
    return Ls


def play_(
    pot: Annotated[float, typer.Option(help="Pot P.")] = 9.0,
    k: Annotated[str, typer.Option(help="Rates k1,k2,k3 (or one value).")] = "0.001",
    L: Annotated[str, typer.Option("--L", help="Memories L1,L2,L3 (or one value).")] = "24",
    rounds: Annotated[int, typer.Option(help="Rounds of play.")] = 11_000_000,
    y0: Annotated[
        str | None, typer.Option(help="Initial b,c,d (default: near Solution 3).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 0,
    record_every: Annotated[int, typer.Option(help="Record frequencies every N rounds.")] = 10000,
    estimator: EstimatorOpt = "corrected",
    clip: ClipOpt = False,
    outdir: OutdirOpt = Path("dynamics"),
    json_: JsonOpt = False,
) -> None:
    """Repeated play with estimators (eqs. 27-29, 44-47): time series CSV, realised
    ex-showdown expectations with Monte Carlo errors, and the figure."""

    at_least("--rounds", rounds, 1)
    at_least("--seed", seed, 0)
    at_least("--record-every", record_every, 1)
    Ls = _memories(L)
    if len(Ls) not in (1, 3):
        raise ToypokerError(f"--L needs 3 numbers (or one for all), got {len(Ls)}")
    x0 = None if y0 is None else tuple(_y0(y0, 3))
    ks = tuple(_rates(k, 3))
    P = _pot(pot)
    check_folder(outdir, "--out-dir")
    hold(run_lock(outdir, "output folder", folder=True))  # a second run into it is refused
    t0 = time.perf_counter()
    r, stopped = _play_run(P, ks, Ls, x0, rounds, seed, record_every, estimator, clip)
    dt = time.perf_counter() - t0
    # the run finished: it is written even if a signal came meanwhile (a second one
    # waits until the files are)
    with deferred_interrupts(keeping=f"the finished run in {outdir}/") as late:
        outdir.mkdir(parents=True, exist_ok=True)
        rows = ["round,b,c,d"] + [
            f"{(i + 1) * r.record_every},{a:.6f},{b:.6f},{c:.6f}"
            for i, (a, b, c) in enumerate(r.freqs)
        ]
        atomic_write_text(outdir / "play.csv", "\n".join(rows) + "\n")
        figures.fig_play(
            [r], outdir / "play.png", reference=(2 / P, (P - 5) / (P + 1)) if P > 5 else None
        )
    _print_play(r, estimator, clip, dt, outdir, json_)
    if late.requested or stopped:
        raise interrupted(f"the run had finished: its CSV and figure are written to {outdir}/",
                          None)  # fmt: skip


def _play_run(
    P: float, ks: tuple[float, ...], Ls: list[int], x0: tuple[float, ...] | None, rounds: int,
    seed: int, record_every: int, estimator: str, clip: bool,
) -> tuple[PlayResult, bool]:  # fmt: skip
    """``dynamics play``'s run, chunk by chunk under a progress bar, and whether a signal
    came while its last chunk ran (the run finished: it is kept).  A Ctrl-C or SIGTERM
    before stops it between two chunks (about a fifth of a second apart), a second one
    at once; the rounds done are not written (the expectations need every round), and
    the line says so."""
    done, r = [0], None
    try:
        with deferred_interrupts() as flag, Bar("repeated play", rounds) as bar:

            def step(n: int) -> None:
                done[0] = n
                bar.update(completed=n)
                if flag.requested:
                    raise KeyboardInterrupt

            bar.update(0)
            r = play(P=P, k=ks, L=tuple(Ls * 3 if len(Ls) == 1 else Ls), x0=x0, rounds=rounds,
                     seed=seed, record_every=record_every, estimator=estimator, clip=clip,
                     progress=step)  # fmt: skip
            bar.update(completed=rounds)
    except KeyboardInterrupt:
        if r is not None:  # a second signal after the last round: the run is kept
            return r, True
        raise interrupted(
            f"the run is not written: stopped after {done[0]:,} of {rounds:,} rounds (its "
            "expectations need every round: rerun it)", None,
        ) from None  # fmt: skip
    assert r is not None  # the run returned
    return r, flag.requested


def _print_play(
    r: PlayResult, estimator: str, clip: bool, dt: float, outdir: Path, json_: bool
) -> None:
    """What ``dynamics play`` prints of its finished run ``r`` (in ``dt`` seconds)."""
    data = plain({
        "P": r.P, "k": r.k, "L": r.L, "rounds": r.rounds, "seed": r.seed,
        "estimator": estimator, "clip": clip, "seconds": dt, "expectation": r.expectation,
        "standard_error": r.expectation_se, "final": r.freqs[-1],
        "csv": str(outdir / "play.csv"),
    })  # fmt: skip
    if json_:
        print_json(data)
        return
    out.print(f"{r.rounds:,} rounds in {dt:.2f} s ({r.rounds / dt:,.0f} rounds/s)")
    for p in range(3):
        out.print(
            f"  P{p + 1}: ex-showdown expectation {data['expectation'][p]:+.4f} "
            f"+- {data['standard_error'][p]:.4f}"
        )
    final = ", ".join(f"{x:.4f}" for x in data["final"])
    out.print(f"final (b, c, d) = ({final}); CSV and figure in {outdir}/")


def _estimator_runs(
    P: float, Ls: list[int], rounds: int, forms: tuple[str, str], clip: bool, runs_dir: Path
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``dynamics estimators``' runs under a progress bar, each kept in ``runs_dir`` as it
    ends (:func:`~toypoker.dynamics.estimators.estimator_studies`).  A Ctrl-C or SIGTERM stops
    within a run: the line says how many runs are kept and the command that resumes."""
    total = len(forms) * len(Ls)
    with Bar("estimator runs", total) as bar:
        bar.update(0)
        try:
            return estimator_studies(P, Ls, rounds, estimators=forms, clip=clip,
                                     progress=lambda: bar.update(advance=1),
                                     checkpoint=runs_dir)  # fmt: skip
        except KeyboardInterrupt:
            # the figures need every run: they are drawn by the same command again
            kept = len(list(runs_dir.glob("run-*.npz")))
            raise interrupted(
                f"{kept} of {total} runs done and kept in {runs_dir}; no figure written "
                "(they need every run)",
                resume_hint(drop=("--checkpoint",), add=("--checkpoint", str(runs_dir))),
            ) from None


def estimators(
    pot: Annotated[float, typer.Option(help="Pot P.")] = 9.0,
    L: Annotated[str, typer.Option("--L", help="Memories to test.")] = "6,12,24,48,96,192",
    rounds: Annotated[int, typer.Option(help="Rounds per memory.")] = 1_100_000,
    estimator: EstimatorOpt = "corrected",
    clip: ClipOpt = False,
    outdir: Annotated[Path, out_dir_option("Folder for figures.")] = Path("dynamics"),
    checkpoint: Annotated[
        Path | None,
        typer.Option(
            help="Folder keeping every finished run (default OUT_DIR/estimators-runs); the "
            "same command again continues an interrupted study."
        ),
    ] = None,
    json_: JsonOpt = False,
) -> None:
    """Figures 16-17: mean and standard deviation of each estimator against L, at fixed
    Solution 3 frequencies; beside the exact large-L limit of each estimator.
    Finished runs are kept as they end: Ctrl-C, then the same command, resumes."""

    P = _pot(pot)
    if not billingham.above_p_star(Fraction(P)):
        raise ToypokerError("Solution 3 exists only for P > P* = (5 + sqrt 73)/2")
    Ls = _memories(L)
    at_least("--rounds", rounds, 1)
    check_folder(outdir, "--out-dir")
    hold(run_lock(outdir, "output folder", folder=True))  # a second run into it is refused
    runs_dir = checkpoint if checkpoint is not None else outdir / "estimators-runs"
    check_folder(runs_dir, "--checkpoint")
    hold(run_lock(runs_dir, "run folder", folder=True))  # a second run into it is refused
    # one compiled run per memory, twice: Fig. 16 redrawn with both forms of eq. (46)
    other = "printed" if estimator == "corrected" else "corrected"
    studies = _estimator_runs(P, Ls, rounds, (estimator, other), clip, runs_dir)
    means, stds, truth = studies[estimator]
    other_means = studies[other][0]
    limits = estimator_limits(truth[0], truth[2], truth[3], estimator=estimator)
    outdir.mkdir(parents=True, exist_ok=True)
    figures.fig_estimators(
        Ls,
        means,
        stds,
        truth,
        outdir / "fig16_estimator_means.png",
        outdir / "fig17_estimator_stds.png",
    )
    corrected, printed = (means, other_means) if estimator == "corrected" else (other_means, means)
    printed_limit = estimator_limits(truth[0], truth[2], truth[3], estimator="printed")[2]
    figures.fig16_both_estimators(
        Ls, corrected, printed, truth, outdir / "fig16_both_estimators.png", printed_limit
    )
    names = ["b1 (44)", "b2 (44)", "c2 (46)", "d (45)", "c3 (47)"]
    data = {
        "P": P,
        "L": Ls,
        "estimator": estimator,
        "names": names,
        "means": means,
        "stds": stds,
        "truth": truth,
        "limits": limits,
    }
    if json_:
        print_json(plain(data))
        return
    t = Table(
        title=f"Estimators at fixed Solution 3, P = {P:g} ({rounds:,} rounds each)",
        title_justify="left",
    )
    t.add_column("L", justify="right")
    for n in names:
        t.add_column(n, justify="right")
    for i, Lv in enumerate(Ls):
        t.add_row(str(Lv), *(f"{means[i, j]:.4f} +- {stds[i, j]:.3f}" for j in range(5)))
    t.add_row("true", *(f"{x:.4f}" for x in truth))
    t.add_row("limit L->oo", *(f"{x:.4f}" for x in limits))
    out.print(t)
    out.print(f"Figures 16-17 and fig16_both_estimators.png written to {outdir}/")


def table1(
    rounds: Annotated[int, typer.Option(help="Rounds per run.")] = 11_000_000,
    ks: Annotated[str, typer.Option("--k", help="Rates.")] = "0.001,0.01",
    Ls: Annotated[str, typer.Option("--L", help="Memories.")] = "6,12,24,48,96,192",
    pot: Annotated[float, typer.Option(help="Pot P.")] = 9.0,
    seeds: Annotated[int, typer.Option(help="Independent runs per (L, k).")] = 1,
    workers: Annotated[
        int | None,
        typer.Option(help="Parallel processes (default 2; at most the machine's CPUs)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Base seed.")] = 0,
    estimator: EstimatorOpt = "corrected",
    clip: ClipOpt = False,
    csv: Annotated[Path | None, typer.Option(help="Write the comparison as CSV.")] = None,
    outdir: Annotated[Path, out_dir_option("Folder for figures.")] = Path("dynamics"),
    checkpoint: Annotated[
        Path | None,
        typer.Option(
            help="Folder keeping every finished run (default OUT_DIR/table1-runs); the same "
            "command again continues an interrupted table."
        ),
    ] = None,
    json_: JsonOpt = False,
) -> None:
    """Table 1 (and any (k, L) sweep): repeated play started near S3, realised
    ex-showdown expectations beside the published values, with Monte Carlo errors.
    Finished runs are kept as they end: Ctrl-C, then the same command, resumes."""

    k_list = _rates(ks, None)
    L_list = _memories(Ls)
    P = _pot(pot)
    at_least("--rounds", rounds, 1)
    at_least("--seeds", seeds, 1)
    workers = _table1_workers(workers)
    at_least("--seed", seed, 0)
    check_folder(outdir, "--out-dir")
    hold(run_lock(outdir, "output folder", folder=True))  # a second run into it is refused
    check_file(csv, "--csv")
    runs_dir = checkpoint if checkpoint is not None else outdir / "table1-runs"
    check_folder(runs_dir, "--checkpoint")
    hold(run_lock(runs_dir, "run folder", folder=True))  # a second run into it is refused
    cmp = table1_runs(P, k_list, L_list, rounds, seeds, seed, workers, estimator, clip, runs_dir)
    outdir.mkdir(parents=True, exist_ok=True)
    for kk in k_list:
        figures.fig_play(
            [cmp.runs[(Lv, kk)][0] for Lv in L_list],
            outdir / f"play_k{kk:g}.png",
            reference=(2 / P, (P - 5) / (P + 1)),
        )
    if csv:
        cmp.to_csv(csv)
    if json_:
        print_json(plain(cmp.to_json_dict()))
        return
    print_table1(cmp, P, rounds, seeds)


def _table1_workers(workers: int | None) -> int:
    """``--workers`` checked: at least 1, at most the machine's CPUs (default 2 or fewer)."""
    at_least("--workers", workers, 1)
    cpus = machine_cpus()
    if workers is None:
        workers = min(2, cpus)
    elif workers > cpus:  # never more processes than CPUs
        raise ToypokerError(
            f"--workers {workers}: more processes than this machine's {cpus} CPUs; "
            f"give at most {cpus}"
        )
    return workers


app.command("ode")(ode)
app.command("play")(play_)
app.command("estimators")(estimators)
app.command("table1")(table1)
