"""``toypoker trace``: the curve of (regularized) equilibria along a parameter."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import numpy as np
import typer
from rich.table import Table

from toypoker.cli.checks import (
    at_least,
    at_most,
    check_folder,
    check_readable,
    floats,
    positive,
    refuse_replacing,
    window,
)
from toypoker.cli.common import (
    Bar,
    JsonOpt,
    OverwriteOpt,
    SpecArg,
    interrupted,
    one_line,
    out,
    out_dir_option,
    print_json,
    resume_hint,
)
from toypoker.continuation import figures
from toypoker.continuation.crossings import multiplicity, system_for
from toypoker.continuation.curves import EquilibriumCurve, resume_curve, trace_curve
from toypoker.errors import Interrupted, ToypokerError
from toypoker.games import load_rows
from toypoker.interrupts import deferred_interrupts
from toypoker.locks import run_lock

if TYPE_CHECKING:
    from toypoker.continuation.records import Multiplicity
    from toypoker.game import Game
    from toypoker.result import Result

INCOMPLETE = 1  # exit status of a curve that stopped before its window's ends


def _slug(text: str) -> str:
    """A folder name from a spec and window: letters, digits, ``.=-`` only."""
    return re.sub(r"[^A-Za-z0-9.=-]+", "_", text).strip("_")


GIF_FRAMES = 40  # frames of the range-bar animation
MAX_FRAMES = figures.MAX_FRAMES  # more is no useful GIF, and the frames are held at once


PotOpt = Annotated[str | None, typer.Option(help="Trace in the pot over LO:HI, e.g. 0.5:20.")]
ParamOpt = Annotated[
    str | None,
    typer.Option(help="Another parameter to trace in: ante, bet, or eps (the logit branch)."),
]
StartOpt = Annotated[
    float | None, typer.Option(help="Parameter value of the first point (default LO).")
]
SeedOpt = Annotated[
    int | None, typer.Option(help="Random start for the first solve (default: all 1/2).")
]
KeepDominatedOpt = Annotated[
    bool,
    typer.Option("--keep-dominated/--fix-dominated", help="Do not fix dominated choices."),
]
AtOpt = Annotated[
    str | None, typer.Option(help="Parameter values to list certified equilibria at (a,b,..).")
]
FramesOpt = Annotated[
    int,
    typer.Option(
        help=f"Frames of the animation, in equal steps along the curve (2 to {MAX_FRAMES:,})."
    ),
]
OutdirOpt = Annotated[
    Path | None,
    out_dir_option("Folder for CSV and figures (default: trace/<game>-<param>-<lo>-<hi>)."),
]
CheckpointEveryOpt = Annotated[
    float, typer.Option(help="Seconds between saves of the curve so far.")
]
ResumeOpt = Annotated[
    Path | None, typer.Option(help="Continue an interrupted curve (its curve.csv).")
]


def trace(
    spec: SpecArg,
    pot: PotOpt = None,
    param: ParamOpt = None,
    window_: Annotated[str | None, typer.Option("--range", help="LO:HI for --param.")] = None,
    eps: Annotated[float, typer.Option(help="Regularization eps (units of dE/dx).")] = 1e-6,
    start: StartOpt = None,
    seed: SeedOpt = None,
    response: Annotated[str, typer.Option(help="arctan, algebraic or logistic.")] = "arctan",
    keep_dominated: KeepDominatedOpt = False,
    ds_max: Annotated[float, typer.Option(help="Largest arclength step.")] = 0.25,
    at: AtOpt = None,
    log: Annotated[bool, typer.Option("--log/--linear", help="Log scale for the axis.")] = False,
    gif: Annotated[bool, typer.Option("--gif/--no-gif", help="Write the animation.")] = True,
    frames: FramesOpt = GIF_FRAMES,
    outdir: OutdirOpt = None,
    checkpoint_every: CheckpointEveryOpt = 30.0,
    resume: ResumeOpt = None,
    overwrite: OverwriteOpt = False,
    json_: JsonOpt = False,
) -> None:
    """Trace the curve of (regularized) equilibria in the pot or another parameter
    (Billingham, N cards): CSV, plots, range bars, animation, multiplicity.
    Exit status 1 when the curve stopped before the end of its window."""

    _check_options(eps, ds_max, checkpoint_every, frames, seed, start, outdir, resume)
    if outdir is None and resume is not None:
        outdir = resume.parent  # a resumed curve stays in its folder
    previous = EquilibriumCurve.load(resume) if resume is not None else None
    g = load_rows(spec)
    parameter, lo, hi, eps, keep_dominated = _window(
        previous, g, resume, pot, param, window_, eps, keep_dominated
    )
    if outdir is None:  # each run its own folder
        outdir = Path("trace") / _slug(f"{g.spec}-{parameter}-{lo:g}-{hi:g}")
        check_folder(outdir, "--out-dir")
    # a curve there is another run's (an interrupted one's to continue)
    refuse_replacing(outdir / "curve.csv", "the curve", resume, overwrite, "a traced curve")
    at_values = floats(at, None, "--at") if at else []
    for v in at_values:
        if not lo <= v <= hi:
            raise ToypokerError(f"--at value {v} is outside [{lo}, {hi}]")
    # a folder in use by a live trace is not another's to write (as sweep and report
    # folders): the second run refuses in one line naming the first's pid
    with run_lock(outdir, "trace folder", folder=True):
        outdir.mkdir(parents=True, exist_ok=True)
        rng = np.random.default_rng(seed) if seed is not None else None
        ckpt = outdir / "curve.csv"
        res = _run_trace(g, previous, parameter, lo, hi, eps, at_values, start, response,
                         keep_dominated, rng, ds_max, ckpt, checkpoint_every)  # fmt: skip
        curve = res.curve
        csv_path = curve.save(outdir / "curve.csv")
        mult, listed = _draw_figures(res, g, parameter, at_values, keep_dominated, outdir, log,
                                     gif, frames)  # fmt: skip
        rows = mult.rows()
        complete = all(r.strip() == "reached" for r in curve.reason.split(" / "))
        data = _trace_json(g, curve, parameter, lo, hi, eps, complete, csv_path, mult, rows,
                           listed, outdir)  # fmt: skip
        if json_:
            print_json(data)
        else:
            _summary(g, curve, parameter, lo, hi, eps, rows, listed, outdir, gif=gif)
        if not complete:
            one_line(
                f"the curve stopped early ({curve.reason}) at {parameter} = {curve.theta[-1]:.6g}; "
                f"the partial curve is in {outdir}/ (try a smaller --ds-max or another --start)",
                kind="warning",
            )
            raise typer.Exit(INCOMPLETE)


def _check_options(
    eps: float, ds_max: float, checkpoint_every: float, frames: int, seed: int | None,
    start: float | None, outdir: Path | None, resume: Path | None,
) -> None:  # fmt: skip
    """Refuse bad numbers, folders and files in one line, before any game is built."""
    positive("--eps", eps)
    positive("--ds-max", ds_max)
    positive("--checkpoint-every", checkpoint_every)
    at_least("--frames", frames, 2)
    at_most("--frames", frames, MAX_FRAMES)  # checked before any allocation
    at_least("--seed", seed, 0)
    if start is not None and not np.isfinite(start):
        raise ToypokerError(f"--start must be finite, got {start}")
    check_folder(outdir, "--out-dir")
    check_readable(resume, "--resume")


def _window(
    previous: EquilibriumCurve | None, g: Game, resume: Path | None, pot: str | None,
    param: str | None, window_: str | None, eps: float, keep_dominated: bool,
) -> tuple[str, float, float, float, bool]:  # fmt: skip
    """The parameter traced, its window, eps and whether dominated choices are kept: a
    resumed curve's own, else the options'."""
    if previous is not None:
        if previous.spec != g.spec:
            raise ToypokerError(f"{resume} traces {previous.spec}, not {g.spec}")
        parameter, (lo, hi) = previous.parameter, previous.info["window"]
        eps, keep_dominated = previous.eps, not previous.info.get("dominated", True)
    else:
        if (pot is None) == (param is None):
            raise ToypokerError("give --pot LO:HI, or --param NAME with --range LO:HI")
        if param is not None and window_ is None:
            raise ToypokerError("--param needs --range LO:HI")
        parameter = "pot" if pot is not None else param
        lo, hi = window(
            pot if pot is not None else window_, "--pot" if pot is not None else "--range"
        )
    return parameter, lo, hi, eps, keep_dominated  # type: ignore[return-value]


def _run_trace(
    g: Game, previous: EquilibriumCurve | None, parameter: str, lo: float, hi: float,
    eps: float, at_values: list[float], start: float | None, response: str,
    keep_dominated: bool, rng: np.random.Generator | None, ds_max: float, ckpt: Path,
    checkpoint_every: float,
) -> Result:  # fmt: skip
    """Trace (or continue) the curve under a progress bar, saved every
    ``checkpoint_every`` seconds; a Ctrl-C keeps the curve so far in ``ckpt`` and ends
    the command with the line that resumes it."""
    # a signal is acknowledged at once and heard at the next step; a second one
    # waits until the curve so far is saved
    with (
        deferred_interrupts("the curve") as flag,
        Bar(f"trace {g.spec}", fields=("at", "step")) as bar,
    ):

        def progress(stage: str, lam: float, ds: float) -> None:
            bar.update(advance=1, at=f"{stage} = {lam:.6g}", step=f"{ds:.2e}")
            if flag.requested:
                raise KeyboardInterrupt  # the tracer keeps the branch so far

        try:  # an interrupt: the curve so far, kept below
            if previous is not None:
                res = resume_curve(
                    previous,
                    g,
                    at=at_values,
                    ds_max=ds_max,
                    progress=progress,
                    checkpoint=ckpt,
                    checkpoint_every=checkpoint_every,
                )
            else:
                res = trace_curve(
                    g,
                    parameter,
                    lo,
                    hi,
                    eps=eps,
                    at=at_values,
                    start=start,
                    response=response,
                    dominated=not keep_dominated,
                    rng=rng,
                    ds_max=ds_max,
                    progress=progress,
                    checkpoint=ckpt,
                    checkpoint_every=checkpoint_every,
                )
        except Interrupted as exc:
            res = exc.result
        curve = res.curve
        if curve.reason.endswith("interrupted"):
            curve.save(ckpt)  # inside the block: a second signal waits for it
    if curve.reason.endswith("interrupted"):
        hint = resume_hint(drop=("--resume",), add=("--resume", str(ckpt)))
        where = f"{len(curve.theta)} points saved in {ckpt}"
        raise interrupted(f"at {parameter} = {curve.theta[-1]:.6g}; {where}", hint)
    return res


def _draw_figures(
    res: Result, g: Game, parameter: str, at_values: list[float], keep_dominated: bool,
    outdir: Path, log: bool, gif: bool, frames: int,
) -> tuple[Multiplicity, list[tuple[float, list]]]:  # fmt: skip
    """Draw the curve's figures into ``outdir`` (and write multiplicity.csv) under a
    progress bar; the multiplicity along the branch and the equilibria at each ``--at``."""
    curve = res.curve
    total = 3 + len(at_values) + (frames if gif else 0)
    with Bar("drawing figures", total, fields=("figure",)) as bar:
        figures.plot_expectations(curve, outdir / "expectations.png", log=log)
        bar.update(advance=1, figure="frequencies")
        figures.plot_frequencies(curve, g, outdir / "frequencies.png", log=log)
        bar.update(advance=1, figure="multiplicity")
        system = system_for(curve, dominated=not keep_dominated, game=g)
        mult = multiplicity(curve, system)
        figures.plot_multiplicity(mult, curve, outdir / "multiplicity.png")
        mult.to_csv(outdir / "multiplicity.csv")
        bar.update(advance=1, figure="ranges")
        listed = []
        for v in at_values:
            eqs = [e for e in res.equilibria if e.theta == v]
            figures.plot_ranges(
                system.exact_game(v),
                eqs[0].sigma if eqs else curve.sigma[0],
                f"{g.spec}: {parameter} = {v:g} (equilibrium 1 of {len(eqs)})",
                outdir / f"ranges_{parameter}{v:g}.png",
            )
            listed.append((v, eqs))
            bar.update(advance=1)
        if gif:
            done = 3 + len(at_values)
            figures.animate_ranges(
                curve, g, outdir / "animation.gif", frames=frames,
                progress=lambda k: bar.update(done + k, figure=f"GIF frame {k}/{frames}"),
            )  # fmt: skip
    return mult, listed


def _trace_json(
    g: Game, curve: EquilibriumCurve, parameter: str, lo: float, hi: float, eps: float,
    complete: bool, csv_path: Path, mult: Multiplicity, rows: list[tuple],
    listed: list[tuple[float, list]], outdir: Path,
) -> dict[str, object]:  # fmt: skip
    """The run as ``--json`` prints it: the curve, its multiplicity and the ``--at`` lists."""
    return {
        "spec": g.spec,
        "parameter": parameter,
        "window": [lo, hi],
        "eps": None if parameter == "eps" else eps,
        "points": len(curve.theta),
        "steps": curve.steps,
        "seconds": round(curve.seconds, 3),
        "reason": curve.reason,
        "complete": complete,
        "csv": str(csv_path),
        "max_equilibria": int(mult.distinct.max()) if rows else 0,
        "unpolished": int(mult.unpolished.max()) if rows else 0,
        "multiplicity": [
            {"from": a, "to": b, "crossings": c, "distinct": d, "unpolished": u}
            for a, b, c, d, u in rows
        ],
        "equilibria": [
            {
                parameter: v,
                "list": [
                    {
                        "expectations": [float(x) for x in e.expectations],
                        "nash_conv": float(e.nash_conv),
                        "raw_nash_conv": float(e.raw_nash_conv),
                        "certified": bool(e.certified),
                    }
                    for e in eqs
                ],
            }
            for v, eqs in listed
        ],
        "outdir": str(outdir),
    }


def _summary(
    g, curve, parameter, lo, hi, eps, rows, listed, outdir: Path, gif: bool = True
) -> None:
    """The human summary: the run, where the branch holds several equilibria, the lists."""
    reg = "tracing eps itself" if parameter == "eps" else f"eps = {eps:g}"
    out.print(
        f"{g.spec}: {len(curve.theta)} points over {parameter} in [{lo:g}, {hi:g}] "
        f"({curve.steps} steps, {curve.seconds:.1f} s, {reg}, {curve.reason})"
    )
    if rows and parameter != "eps":
        top = max(r[3] for r in rows)
        multi = [r for r in rows if r[3] > 1 or r[4] > 0]
        bad = sum(1 for r in rows if r[4] > 0)
        note = f"; {bad} intervals with unpolished crossings" if bad else ""
        found = (
            f"up to {top} distinct equilibria on the branch"
            if top
            else "no crossing polished to an equilibrium anywhere on the branch"
        )
        out.print(f"{found}{note} (all in {outdir / 'multiplicity.csv'})")
        for a, b, c, d, u in multi:
            if (d == top and d) or u:
                where = f"  {parameter} in ({a:.6g}, {b:.6g}): "
                if d:
                    more = f" + {u} unpolished" if u else ""
                    out.print(f"{where}{d} distinct{more} ({c} branch points)")
                else:  # nothing certified here: not a count of equilibria
                    out.print(f"{where}no crossing polished to an equilibrium ({u} unpolished)")
    for v, eqs in listed:
        if not eqs:
            out.print(f"{parameter} = {v:g}: no equilibrium polished at this value")
            continue
        t = Table(
            title=f"{parameter} = {v:g}: {len(eqs)} distinct equilibria", title_justify="left"
        )
        t.add_column("#")
        for p in range(g.n_players):
            t.add_column(f"E{p + 1}", justify="right")
        t.add_column("NashConv (polished)", justify="right")
        t.add_column("NashConv (regularized)", justify="right")
        t.add_column("certified")
        for k, e in enumerate(eqs):
            t.add_row(
                str(k + 1),
                *(f"{float(x):+.6f}" for x in e.expectations),
                f"{float(e.nash_conv):.2e}",
                f"{float(e.raw_nash_conv):.2e}",
                "yes" if e.certified else "NO (unpolished)",
            )
        out.print(t)
    # only what was written: range bars for --at, the animation unless --no-gif
    written = ["CSV", "plots"] + ["range bars"] * bool(listed) + ["animation"] * gif
    out.print(f"{', '.join(written[:-1])} and {written[-1]} in {outdir}/")
