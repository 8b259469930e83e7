"""``toypoker solve`` and ``toypoker compare``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated

import typer
from rich.table import Table

from toypoker.archive import is_archive, write_archive
from toypoker.cli.common import (
    Bar,
    FractionsOpt,
    JsonOpt,
    MilpSecondsOpt,
    ResumeHintError,
    SpecArg,
    Stage,
    TeamOpt,
    at_least,
    at_most,
    check_distinct,
    check_figure,
    check_file,
    check_readable,
    emit,
    err,
    hold,
    interrupted,
    milp_option,
    non_negative,
    num,
    one_line,
    out,
    output_option,
    plain,
    plot_option,
    positive,
    print_json,
    resume_hint,
    said,
    stopped_name,
    temp_checkpoint,
)
from toypoker.cli.layouts import build_on_layout
from toypoker.cli.tables import WrappedColumns, strategy_table, team_lines, team_of, values_table
from toypoker.dask_client import local_workers
from toypoker.engines import load_game
from toypoker.engines.evaluation import VectorEvaluation
from toypoker.engines.registry import layout_for, team_gain_note
from toypoker.engines.sharded import ShardLostError, shard_bytes
from toypoker.errors import ToypokerError
from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.games.collusion import Team
from toypoker.io import size_text
from toypoker.locks import run_lock
from toypoker.plots import plot_convergence
from toypoker.profile import Profile
from toypoker.result import Result
from toypoker.solvers import solve as solve_game
from toypoker.solvers.analysis import Comparison, MethodRun, SeedSpread, time_to_target
from toypoker.solvers.analysis import compare as compare_methods
from toypoker.solvers.checkpoint import checkpoint_head, refuse_reuse
from toypoker.solvers.registry import get_method
from toypoker.spec import parse_value

COMPARE_TARGET = 1e-3  # the NashConv whose time to reach compare tabulates
DEFAULT_ITERATIONS = 2000  # the budget when neither a budget nor a target is given
TABLE_INFOSETS = 2000  # more infosets than this: no strategy table (-o or --csv writes them)
MAX_DECIMALS = 30  # beyond a double's 17 significant digits already; a billion would hang

DecimalsOpt = Annotated[
    int | None,
    typer.Option(
        help="Print probabilities with this many decimals (default: 3 for floats; exact "
        "ones as short fractions like 2/3 or 6 decimals, --fractions in full)."
    ),
]


def method_of(name: str):
    """The registry entry of ``name`` (one-line error for an unknown method)."""

    m = get_method(name)
    if m.name == "enumerate":
        raise ToypokerError("--method enumerate lists every equilibrium: use toypoker equilibria")
    return m


def _check_sharding(
    spec: str, scheduler: str | None, workers: int | None, vector: bool, seeds: int
) -> None:
    """One line for a sharded run that cannot be; else say, before anything is built,
    how much memory each worker's shard needs."""
    if scheduler is None:
        raise ToypokerError("--workers sizes the LocalCluster of --scheduler local: give both")
    if scheduler != "local" and "://" not in scheduler:
        raise ToypokerError(
            f"--scheduler {scheduler[:60]!r}: give local or a scheduler address such as "
            "tcp://host:8786"
        )
    at_least("--workers", workers, 1)
    if scheduler != "local" and workers is not None:  # the scheduler's workers are its own
        raise ToypokerError(
            f"--workers sizes the LocalCluster of --scheduler local; the scheduler at "
            f"{scheduler} brings its own workers: drop --workers"
        )
    if scheduler == "local":
        workers = local_workers(workers, "--workers")  # bounded by the machine's CPUs
    if seeds > 1:
        raise ToypokerError("--scheduler runs one solve: give --seeds 1")
    if not vector:
        raise ToypokerError(
            f"--scheduler shards the vector layout's CFR kernel; {spec} runs on the deal "
            "table here (--layout vector to force hand vectors)"
        )
    where = f"{scheduler} ({workers} workers)" if workers else f"{scheduler} (its workers)"
    k = workers  # as open_client: the local cluster's; a scheduler's are not counted here
    need = shard_bytes(spec, k or 1)
    if need is None:
        size = ""
    elif k is None:  # a scheduler's workers, not counted here
        size = f" (~{size_text(need)} over all of them)"
    else:
        size = f" (~{size_text(need)} each, besides the worker process)"
    err.print(
        f"sharded over dask at {where}: this process builds the game and sends each "
        f"worker its share of the subtrees{size}: about 1/workers of the game, plus "
        "the part above the cut",
        highlight=False,
        soft_wrap=True,
    )


def run_with_bar(g: Game, method: str, started: str | None = None, **kw: object):
    """``solvers.solve`` with a progress bar (plain lines every few seconds when piped);
    ``started``: a line said on stderr at the run's first step (a resume's start)."""

    spec = g.spec
    if get_method(method).one_shot:  # one solve (the LP): a spinner, no iteration count
        with Stage(f"{method} {spec}: solving"):
            return solve_game(g, method=method, **kw)
    with Bar(f"{method} {spec}", kw.get("iterations"), fields=("NashConv",)) as bar:
        last: list[float | None] = [None]

        said = [started is None]

        def progress(t: int, nc: float | None) -> None:
            if not said[0]:
                said[0] = True
                err.print(started, highlight=False, markup=False, soft_wrap=True)
            if nc is not None:
                last[0] = nc
            bar.update(t, NashConv="-" if last[0] is None else f"{last[0]:.3g}")

        return solve_game(g, method=method, progress=progress, **kw)


def vector_values(res: Result | VectorEvaluation) -> SimpleNamespace:
    """The values table's numbers from a vector-layout result or evaluation (its own
    best responses)."""
    br = tuple(v + g for v, g in zip(res.values, res.gains, strict=True))
    return SimpleNamespace(
        values=res.values, br_values=br, gains=res.gains, nash_conv=res.nash_conv
    )


def save_profile(profile: Profile, path: Path) -> None:
    """Write a profile as JSON (streamed: :meth:`~toypoker.profile.Profile.write_json`),
    or as the compact archive for a name ending in ``.npz`` (:mod:`toypoker.archive`)."""
    if is_archive(path):
        write_archive(path, profile)
    else:
        profile.write_json(path)


def value_text(res: object) -> str:
    """The value for the summary line: an exact method's, or -- a two-player zero-sum
    game -- player 1's value bracketed by the two best responses
    (:attr:`~toypoker.result.Result.value_bracket`; its width is NashConv)."""
    if res.value_exact:
        return f"; exact value {num(res.value_exact[0])} (P1), certified: {res.certified}"
    b = res.value_bracket
    if b is not None:
        return f"; P1's value in [{b.lower:.6f}, {b.upper:.6f}]"
    return ""


def method_options(items: list[str]) -> dict[str, object]:
    """``--option KEY=VALUE`` items as typed values (numbers, true/false, words); the
    method checks names and values."""
    out: dict[str, object] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ToypokerError(f"--option takes KEY=VALUE, not {item!r}")
        v = parse_value(text.strip())
        if isinstance(v, Fraction):
            v = int(v) if v.denominator == 1 else float(v)
        out[key.strip()] = v
    return out


def seeded(path: Path | None, seed: int) -> Path | None:
    """``p.json`` -> ``p-seed3.json``: the file of one seed of a ``--seeds`` batch."""
    return None if path is None else path.with_name(f"{path.stem}-seed{seed}{path.suffix}")


def solve(
    spec: SpecArg,
    method: Annotated[
        str,
        typer.Option(
            help="cfr, cfr+, lcfr, dcfr, pcfr+, dcfr+, pdcfr+, fp, es-mccfr, os-mccfr, "
            "pcs-cfr+ (public chance sampling, vector layout), lp or enumerate."
        ),
    ] = "cfr+",
    iterations: Annotated[
        int | None,
        typer.Option(
            help=f"Maximum iterations (default {DEFAULT_ITERATIONS}; with a target and no "
            "--iterations or --seconds, none: the run goes on to the target)."
        ),
    ] = None,
    target_nash_conv: Annotated[
        float | None,
        typer.Option(
            help="Stop once NashConv (chips per hand, summed over the players) is at or "
            "below this; for a strong win-sharing team solved merged, NashConv of the "
            "merged game."
        ),
    ] = None,
    seconds: Annotated[float | None, typer.Option(help="Stop after this many seconds.")] = None,
    target_max_gain: Annotated[
        float | None,
        typer.Option(
            help="Stop once every best-response gain (chips per hand) is at or below this "
            "(eps); for a strong win-sharing team solved merged, in the merged game."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of sampling methods (with --seeds: the first seed).")
    ] = None,
    seeds: Annotated[
        int, typer.Option(help="Run this many seeds (SEED..SEED+N-1) and summarise their spread.")
    ] = 1,
    output: Annotated[
        Path | None,
        output_option(
            "Write the profile as JSON (with --seeds: -seedK); a name ending in .npz writes "
            "the compact archive (arrays and labels, streamed: big games)."
        ),
    ] = None,
    result: Annotated[
        Path | None,
        typer.Option(
            help="Write the whole result (or the seed summary) as JSON; .npz: the compact "
            "archive (toypoker eval/verify read both)."
        ),
    ] = None,
    csv: Annotated[
        Path | None, typer.Option(help="Write the profile as CSV (with --seeds: -seedK).")
    ] = None,
    checkpoint: Annotated[
        Path | None,
        typer.Option(help="Checkpoint file (.npz), written atomically (with --seeds: -seedK)."),
    ] = None,
    checkpoint_seconds: Annotated[float, typer.Option(help="Seconds between checkpoints.")] = 60.0,
    resume: Annotated[Path | None, typer.Option(help="Continue from a checkpoint.")] = None,
    overwrite: Annotated[
        bool,
        typer.Option(
            "--overwrite",
            help="Replace an existing --checkpoint file (without it, or --resume, an "
            "existing one is refused: it holds another run's work).",
        ),
    ] = False,
    table: Annotated[bool, typer.Option("--table/--no-table", help="Print the strategy.")] = True,
    decimals: DecimalsOpt = None,
    fractions: FractionsOpt = False,
    option: Annotated[
        list[str] | None,
        typer.Option(
            help="A method option KEY=VALUE (repeatable), e.g. ullman=true for fp (Ullman's "
            "variant; with --target-max-gain it stops by his rule), alpha=1.5 for dcfr."
        ),
    ] = None,
    team: TeamOpt = None,
    milp_seconds: MilpSecondsOpt = None,
    layout: Annotated[
        str,
        typer.Option(
            help="auto, rows or vector. With auto the game is counted first and runs on "
            "the vector layout where a CFR+ iteration is predicted faster there among the "
            "layouts that fit (rhode_island, kuhn with many cards, three-player Mercer "
            "Hold'em), else on the deal table; a method or --team the vector layout does "
            "not run goes to the deal table where it fits.  vector runs any catalogue game "
            "without strong collusion (compiled first where it has no deal-free builder)."
        ),
    ] = "auto",
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Shard the iterations over Dask workers: local (a LocalCluster of "
            "--workers processes) or tcp://host:port.  The CFR family on hand vectors; the "
            "iterates equal the in-process run's."
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="With --scheduler local: its worker processes.")
    ] = None,
    json_: JsonOpt = False,
) -> None:
    """Solve a game (CFR+ by default) and print the strategy, values and NashConv.

    For a team, also its joint best-response gain; a strong win-sharing team is
    solved merged unless the spec says merge=false."""
    m = method_of(method)
    options = method_options(option or [])
    at_least("--iterations", iterations, 1)
    at_least("--seeds", seeds, 1)
    at_least("--seed", seed, 0)
    at_least("--decimals", decimals, 0)
    at_most("--decimals", decimals, MAX_DECIMALS)
    non_negative("--target-nash-conv", target_nash_conv)
    non_negative("--target-max-gain", target_max_gain)
    positive("--milp-seconds", milp_seconds)
    positive("--seconds", seconds)
    positive("--checkpoint-seconds", checkpoint_seconds)
    for path, option in ((output, "-o"), (result, "--result"), (csv, "--csv")):
        check_file(path, option)
    check_file(checkpoint, "--checkpoint")
    check_distinct(
        (output, "-o"), (result, "--result"), (csv, "--csv"), (checkpoint, "--checkpoint")
    )
    check_readable(resume, "--resume")
    if m.one_shot and (checkpoint or resume or seeds > 1):
        raise ToypokerError(f"--method {method} takes no --checkpoint, --resume or --seeds")
    if m.name == "tmecor":  # team-optimal play: what `toypoker collusion tmecor` prints
        from toypoker.cli.collusion import solve_tmecor  # the team commands load with it

        solve_tmecor(spec, team, seconds, options, output or csv or result, json_)
        return
    if seeds > 1 and not m.stochastic:
        raise ToypokerError(f"--seeds needs a sampling method; {method} is deterministic")
    if seeds > 1 and resume is not None:
        first = seed or 0
        if not any(seeded(resume, first + k).exists() for k in range(seeds)):
            raise ToypokerError(
                f"--resume {resume}: no checkpoint of seeds {first}..{first + seeds - 1} "
                f"(e.g. {seeded(resume, first).name}); give the --checkpoint of the batch"
            )
    target = target_nash_conv is not None or target_max_gain is not None
    budget = iterations is not None or seconds is not None
    if iterations is None and seconds is None and (not target or seeds > 1):
        iterations = DEFAULT_ITERATIONS
    _claim_checkpoints(checkpoint, resume, overwrite, seeds, seed or 0)
    started, nothing = _resume_lines(resume if seeds == 1 else None, iterations)
    choice = layout_for(spec, method, layout, team=team is not None)
    vector = choice.layout == "vector"
    if scheduler is not None or workers is not None:  # a refusal in one line, said first
        _check_sharding(spec, scheduler, workers, vector, seeds)
    if vector or layout != "auto":  # the layout shows where it matters: hand vectors
        err.print(
            f"layout: {'vector' if vector else 'rows'} ({choice.why})",
            highlight=False,
            soft_wrap=True,
        )
    g = build_on_layout(spec, choice)
    the_team = None if vector else team_of(g, team)
    kw = {
        **options,
        "iterations": iterations,
        "target_nash_conv": target_nash_conv,
        "target_max_gain": target_max_gain,
        "seconds": seconds,
        "checkpoint_seconds": checkpoint_seconds,
        "overwrite": True,  # an existing --checkpoint was refused above, or may be replaced
        **({"cluster": scheduler, "workers": workers} if scheduler is not None else {}),
    }
    if seeds > 1:
        base = checkpoint or resume or temp_checkpoint("seeds")
        kw_seeds = {**kw, "team": the_team or False, **milp_option(milp_seconds)}
        _solve_seeds(
            g, method, seeds, seed or 0, kw_seeds, output, csv, result, base, resume, json_
        )
        if checkpoint is None and resume is None:
            for k in range(seeds):
                seeded(base, (seed or 0) + k).unlink(missing_ok=True)
        return
    ck = None if m.one_shot else checkpoint or temp_checkpoint("solve")
    try:
        res = run_with_bar(
            g,
            method,
            seed=seed,
            checkpoint=ck,
            resume=resume,
            team=the_team or False,
            started=started,
            **kw,
            **milp_option(milp_seconds),
        )
    except ShardLostError as exc:  # the state before the lost batch is in ck
        hint = resume_hint(drop=("--resume",), add=("--resume", str(ck)))
        raise ResumeHintError(str(exc), hint) from None
    except ToypokerError as exc:
        raise ToypokerError(_merge_hint(g, str(exc))) from None
    if nothing is not None:
        one_line(nothing, kind="note")
    stopped = stopped_name(res.stopped)
    if checkpoint is None and ck is not None and stopped != "interrupted":
        ck.unlink(missing_ok=True)
        if resume is not None and resume.name.startswith("toypoker-solve-"):
            resume.unlink(missing_ok=True)  # our own temporary state, now used up
    if output:
        save_profile(res.profile, output)
    if csv:
        res.profile.to_csv(csv)
    if result:
        res.save(result)
    if json_:
        print_json(res.to_json_dict())
    else:
        if table and res.game.n_infosets > TABLE_INFOSETS:
            out.print(
                f"(strategy table omitted: {res.game.n_infosets:,} infosets; "
                "-o or --csv writes the profile)"
            )
        elif table:
            out.print(strategy_table(res.profile, decimals, fractions=fractions))
        out.print(
            values_table(
                vector_values(res) if vector else evaluate(g, res.profile),
                decimals,
                game=None if vector else g,
            )
        )
        seed_txt = f", seed {res.seed}" if res.seed is not None else ""
        if not m.one_shot:
            ran = (
                f"{res.iterations} iterations in {res.seconds:.2f} s "
                f"({'interrupted' if stopped == 'interrupted' else f'stopped by {stopped}'}"
                f"{seed_txt})"
            )
        elif stopped == "solved":
            ran = f"solved in {res.seconds:.2f} s"  # one solve: no iterations to count
        else:
            ran = f"stopped by {stopped} after {res.seconds:.2f} s"
        out.print(f"{res.method}: {ran}; NashConv {res.nash_conv:.3g}{value_text(res)}")
        if res.solved_as is not None:
            out.print(f"solved as the merged team: {res.solved_as}")
        if res.team is not None:
            aim = target_nash_conv if target_nash_conv is not None else target_max_gain
            out.print(*team_lines(res.team, aim), sep="\n")
        elif vector and "team=" in spec:  # weak collusion: the lifted team response reads rows
            out.print(team_gain_note(spec))
        if output:
            said(f"profile written to {output}")
        if csv:
            said(f"CSV written to {csv}")
        if result:
            said(f"result written to {result}")
        if checkpoint:
            said(f"checkpoint written to {checkpoint}")
    if target and budget and stopped in ("iterations", "seconds"):
        aim = (
            f"NashConv {target_nash_conv:.3g}"
            if target_nash_conv is not None
            else f"largest gain {target_max_gain:.3g}"
        )
        one_line(
            f"the budget ended first: {res.iterations} iterations in {res.seconds:.2f} s "
            f"reached NashConv {res.nash_conv:.3g}, not the target {aim}",
            kind="note",
        )
        raise typer.Exit(1)
    if stopped == "interrupted":
        if ck is None or not ck.exists():  # a scratch state that could not be written
            raise interrupted(f"stopped after {res.iterations} iterations; state not kept", None)
        raise interrupted(
            f"stopped after {res.iterations} iterations; state saved in {ck}",
            resume_hint(drop=("--resume",), add=("--resume", str(ck))),
        )


def _claim_checkpoints(
    checkpoint: Path | None, resume: Path | None, overwrite: bool, seeds: int, first: int
) -> None:
    """Before the game is built (a build can take seconds): lock each checkpoint file the
    run writes (a live run's refusal comes at once) and refuse one that exists unless
    the run resumes or may overwrite it -- it holds another run's work."""
    if checkpoint is None:
        return
    paths = [checkpoint] if seeds == 1 else [seeded(checkpoint, first + k) for k in range(seeds)]
    for path in paths:
        hold(run_lock(path, "checkpoint"))
        refuse_reuse(path, resume, overwrite, "--resume ", "--overwrite")


def _resume_lines(resume: Path | None, iterations: int | None) -> tuple[str | None, str | None]:
    """What a resumed run says: ``(started, nothing)`` -- the iteration it starts from,
    said once it runs (a checkpoint refused is one line, alone), and when
    ``--iterations`` asks for no more than the checkpoint has, a note that nothing more
    was run, said after the run."""
    head = None if resume is None else checkpoint_head(resume)
    if head is None:  # none, or not readable as one: the run's own load says why
        return None, None
    method, spec, done = head
    if iterations is not None and done >= iterations:
        return None, (
            f"{resume} has {done} iterations already, --iterations {iterations} asks for no "
            f"more: nothing was run, and its state is the result (give --iterations above "
            f"{done} to go on)"
        )
    return f"resuming {resume} at iteration {done} ({method} on {spec})", None


def _merge_hint(g: Game, message: str) -> str:
    """``message`` of a two-player method refused on a strong team's ``n``-player game,
    said with the way out first (merge=true: the team one player); others unchanged."""
    team = None if g.layout == "vector" else Team.of_params(g.params)
    if "two-player" not in message or team is None or not team.strong:
        return message
    if g.n_players - len(team.seats) != 1:  # merged, still more than two players
        return message
    return (
        f"this method is for two-player games and {g.n_players} players remain: give the spec "
        f"merge=true to solve the strong team {team.digits} as one player (a two-player game)"
    )


def _solve_seeds(
    g: Game,
    method: str,
    seeds: int,
    first: int,
    kw: dict,
    output: Path | None,
    csv: Path | None,
    result: Path | None,
    base: Path,
    resume: Path | None,
    json_: bool,
) -> None:
    """Run seeds ``first .. first + seeds - 1`` (each checkpointed beside ``base``) and
    summarise the spread of the solutions (the experiment behind Szafron et al.'s family);
    with a team (``kw["team"]``), each seed's team evaluation.
    One Ctrl-C stops the batch; ``--resume`` continues every seed where it stopped.
    On the vector layout (``pcs-cfr+``) the hand vectors are built once for all seeds,
    each seed its own rng."""

    game = g
    runs = []
    with Bar(f"{method} {game.spec}: seeds", seeds) as bar:
        for k in range(seeds):
            s = first + k
            previous = seeded(resume, s)
            if previous is not None and not previous.exists():
                previous = None
            r = solve_game(
                g, method=method, seed=s, checkpoint=seeded(base, s), resume=previous, **kw
            )
            if stopped_name(r.stopped) == "interrupted":
                if not seeded(base, s).exists():  # a scratch state that could not be written
                    raise interrupted(f"seed {s} stopped; states not kept", None)
                raise interrupted(
                    f"seed {s} stopped after {r.iterations} iterations ({k} of {seeds} seeds "
                    f"done); states saved as {seeded(base, s).name} etc. in {base.parent}",
                    resume_hint(drop=("--resume",), add=("--resume", str(base))),
                )
            if output:
                save_profile(r.profile, seeded(output, s))
            if csv:
                r.profile.to_csv(seeded(csv, s))
            runs.append(r)
            bar.update(k + 1)
    summary = plain(SeedSpread.from_runs(game, method, kw["iterations"], runs).to_json_dict())
    if runs[0].solved_as is not None:
        summary["solved_as"] = runs[0].solved_as
    if kw.get("team"):  # each seed's team evaluation
        summary["team"] = [{"seed": r.seed, **plain(r.team.to_dict())} for r in runs if r.team]
    if emit(summary, result, json_):
        return
    _print_spread(game, method, seeds, summary)
    if runs[0].solved_as is not None:
        out.print(f"solved as the merged team: {runs[0].solved_as}")
    aim = kw["target_nash_conv"] if kw["target_nash_conv"] is not None else kw["target_max_gain"]
    for r in runs:
        if r.team is not None:
            out.print(*(f"seed {r.seed}: {line}" for line in team_lines(r.team, aim)), sep="\n")
    if output or csv:
        said(f"profiles written as {seeded(output or csv, first)} ... (one per seed)")
    if result:
        said(f"seed summary written to {result}")


def _print_spread(g: Game, method: str, seeds: int, summary: dict) -> None:
    """The seeds' spread: values, then the infosets that vary (columns wrapped to the
    terminal, never cut: :class:`~toypoker.cli.tables.WrappedColumns`)."""
    nc = summary["nash_conv"]
    stats = ["mean", "std", "min", "max"]
    out.print(
        WrappedColumns(
            f"{seeds} seeds of {method} on {g.spec}: expected values",
            f"NashConv: max {nc['max']:.3g}, mean {nc['mean']:.3g}",
            "player",
            stats,
            [(f"P{v['player']}", [f"{v[k]:.5f}" for k in stats]) for v in summary["values"]],
            "statistics",
        )
    )
    out.print(
        WrappedColumns(
            "Infosets whose strategy varies across seeds (P of the last action)",
            None,
            "infoset",
            ["action", "min", "max", "mean"],
            [
                (
                    item["infoset"],
                    [item["action"], *(f"{item[k]:.3f}" for k in ("min", "max", "mean"))],
                )
                for item in summary["varying_infosets"]
            ],
            "columns",
        )
    )


# ------------------------------------------------------------------ compare
def compare(
    spec: SpecArg,
    methods: Annotated[
        str, typer.Option(help="Comma-separated methods.")
    ] = "cfr,cfr+,dcfr,lcfr,pcfr+,dcfr+,pdcfr+,fp,es-mccfr,os-mccfr",
    seconds: Annotated[float, typer.Option(help="Time budget of each method.")] = 8.0,
    seed: Annotated[int, typer.Option(help="Seed of the sampling methods.")] = 0,
    plot: Annotated[Path | None, plot_option("Plot file (PNG); default compare-<game>.png")] = None,
    result: Annotated[
        Path | None, typer.Option(help="Write all traces as JSON (also on Ctrl-C).")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Keep the methods finished in this --result JSON.")
    ] = None,
    json_: JsonOpt = False,
) -> None:
    """Run several methods for the same time and plot NashConv against time (log-log)."""

    names = [m.strip() for m in methods.split(",") if m.strip()]
    if not names:
        raise ToypokerError("--methods names no method")
    for n in names:
        method_of(n)
    positive("--seconds", seconds)
    at_least("--seed", seed, 0)
    check_figure(plot)
    check_file(result, "--result")
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
    """What ``compare --json`` prints and ``--result`` holds (``--resume`` reads it)."""
    rows = [
        {**r.to_json_dict(), "seconds_to_1e-3": time_to_target(r, COMPARE_TARGET)} for r in cmp.runs
    ]
    return {
        "game": cmp.game.spec, "seconds": cmp.seconds, "seed": cmp.seed, "plot": str(plot),
        "methods": rows,
    }  # fmt: skip


def _previous_runs(path: Path, spec: str, seconds: float) -> dict[str, MethodRun]:
    """The finished methods of an earlier (interrupted) ``compare --result`` file."""
    try:
        data = json.loads(path.read_text())
        rows = {row["method"]: MethodRun.from_json_dict(row) for row in data["methods"]}
        same = data["game"] == spec and data["seconds"] == seconds
    except (OSError, ValueError, KeyError, TypeError, ToypokerError) as exc:
        raise ToypokerError(f"cannot read compare results {path}: {exc}") from exc
    if not same:
        raise ToypokerError(f"{path} compares {data['game']} for {data['seconds']} s, not this")
    return rows
