"""``toypoker compare``: several methods for the same time on one game, NashConv against
time plotted, the time each needs to reach NashConv 1e-3; resumable after Ctrl-C."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from toypoker.archive import COMPARISON
from toypoker.cli.checks import at_least, check_figure, check_file, positive, refuse_replacing
from toypoker.cli.common import (
    Bar,
    JsonOpt,
    OverwriteOpt,
    SpecArg,
    Stage,
    emit,
    err,
    hold,
    interrupted,
    out,
    plain,
    plot_option,
    resume_hint,
    said,
)
from toypoker.cli.solve import method_of
from toypoker.engines import load_game
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.locks import run_lock
from toypoker.plots import plot_convergence
from toypoker.solvers.analysis import Comparison, MethodRun, read_comparison, time_to_target
from toypoker.solvers.analysis import compare as compare_methods
from toypoker.solvers.registry import get_method, iterative_methods

COMPARE_TARGET = 1e-3  # the NashConv whose time to reach compare tabulates

ITERATIVE = ",".join(iterative_methods())
"""compare's default methods: every iterative method of the registry, in its order
(the exact one-shot methods have no curve against time)."""


def compare(
    spec: SpecArg,
    methods: Annotated[
        str, typer.Option(help="Comma-separated methods: by default every iterative one.")
    ] = ITERATIVE,
    seconds: Annotated[float, typer.Option(help="Time budget of each method.")] = 8.0,
    seed: Annotated[int, typer.Option(help="Seed of the sampling methods.")] = 0,
    plot: Annotated[Path | None, plot_option("Plot file (PNG); default compare-<game>.png")] = None,
    result: Annotated[
        Path | None, typer.Option(help="Write all traces as JSON (also on Ctrl-C).")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Keep the methods finished in this --result JSON.")
    ] = None,
    overwrite: OverwriteOpt = False,
    json_: JsonOpt = False,
) -> None:
    """Run several methods for the same time and plot NashConv against time (log-log)."""

    names = [m.strip() for m in methods.split(",") if m.strip()]
    if not names:
        raise ToypokerError("--methods names no method")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ToypokerError(f"--methods names {', '.join(twice)} more than once")
    for n in names:
        method_of(n)
    positive("--seconds", seconds)
    at_least("--seed", seed, 0)
    check_figure(plot)
    check_file(result, "--result", own=COMPARISON)
    refuse_replacing(result, "--result", resume, overwrite, "methods' traces")
    if result is not None:  # a second compare writing the same results is refused
        hold(run_lock(result, "results file"))
    g = load_game(spec)
    plot = plot or Path(f"compare-{g.name}-{g.n_players}p.png")
    check_figure(plot)
    done = _previous_runs(resume, g.spec, seconds) if resume else {}
    with _MethodBars(g) as bars:
        cmp = compare_methods(
            g, names, seconds=seconds, seed=seed, target=COMPARE_TARGET, progress=bars,
            done=done,
        )  # fmt: skip
    if not cmp.runs and cmp.interrupted is None:
        reasons = "; ".join(f"{m}: {why}" for m, why in cmp.skipped)
        raise ToypokerError(f"no method of --methods applies to {g.spec} ({reasons})")
    for m, why in cmp.skipped:
        err.print(f"skipping {m}: {why}", highlight=False, markup=False, soft_wrap=True)
    if cmp.interrupted is not None:
        saved = result or Path(f"compare-{g.name}-{g.n_players}p.json")
        emit(_compare_data(cmp, plot), saved, False)
        raise interrupted(
            f"{cmp.interrupted} cut (not reported); {len(cmp.runs)} finished "
            f"methods saved in {saved}",
            resume_hint(
                drop=("--resume", "--result"),
                add=("--result", str(saved), "--resume", str(saved)),
            ),
        )
    plot_convergence(cmp.runs, plot, title=f"{g.spec}: NashConv against time")
    data = _compare_data(cmp, plot)
    if emit(plain(data), result, json_):
        return
    t = Table(title=f"{g.spec}: {seconds:g} s per method", title_justify="left")
    for c in ["method", "iterations", "s/iteration", "final NashConv", "time to 1e-3"]:
        t.add_column(c, justify="right")
    for r in cmp.runs:
        to_target = time_to_target(r, COMPARE_TARGET)
        one = get_method(r.method).one_shot  # the LP: one solve, its time in the last column
        t.add_row(
            r.method,
            "one solve" if one else str(r.iterations),
            "-" if one else f"{r.seconds / max(r.iterations, 1):.3g}",
            f"{r.nash_conv:.3g}",
            "-" if to_target is None else f"{to_target:.2f} s",
        )
    out.print(t)
    said(f"plot written to {plot}")
    if result:
        said(f"results written to {result}")


class _MethodBars:
    """A progress bar per method of a comparison: ``progress(method, t, nash_conv)``;
    a one-shot method (the LP) shows a spinner while it solves (:class:`Stage`)."""

    def __init__(self, game: Game):
        self.game, self.name, self.last = game, "", None
        self.bar: Bar | Stage | None = None

    def __enter__(self) -> _MethodBars:
        return self

    def __call__(self, name: str, t: int, nc: float | None) -> None:
        if name != self.name:
            self.close()
            self.name, self.last = name, None
            if get_method(name).one_shot:
                self.bar = Stage(f"{name} {self.game.spec}: solving")
            else:
                self.bar = Bar(f"{name} {self.game.spec}", None, fields=("NashConv",))
            self.bar.__enter__()
        if nc is not None:
            self.last = nc
        if isinstance(self.bar, Bar):
            self.bar.update(t, NashConv="-" if self.last is None else f"{self.last:.3g}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def __exit__(self, *exc: object) -> None:
        self.close()


def _compare_data(cmp: Comparison, plot: Path) -> dict:
    """What ``compare --json`` prints and ``--result`` holds (``--resume`` reads it):
    the comparison (:data:`~toypoker.solvers.analysis.COMPARISON_FORMAT`) and its plot."""
    return {**cmp.to_json_dict(), "plot": str(plot)}


def _previous_runs(path: Path, spec: str, seconds: float) -> dict[str, MethodRun]:
    """The finished methods of an earlier (interrupted) ``compare --result`` file
    (:func:`~toypoker.solvers.analysis.read_comparison`); another command's kept work
    refused in one line saying what it is."""
    from toypoker.archive import kept_work

    kind = kept_work(path)
    if kind is not None and kind != COMPARISON:
        what, how = kind
        raise ToypokerError(
            f"--resume {path} is not the results of a compare (the JSON its --result "
            f"writes): it holds {what} ({how} continues it)"
        )
    try:
        return read_comparison(path, spec, seconds)
    except ToypokerError as exc:
        raise ToypokerError(f"--resume {exc}") from None
