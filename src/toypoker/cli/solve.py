"""``toypoker solve`` and ``toypoker compare``."""

from __future__ import annotations

import warnings
from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer

from toypoker.cli.checks import (
    at_least,
    at_most,
    check_distinct,
    check_file,
    check_readable,
    non_negative,
    positive,
    temp_checkpoint,
)
from toypoker.cli.common import (
    Bar,
    FractionsOpt,
    JsonOpt,
    MilpSecondsOpt,
    ResumeHintError,
    SpecArg,
    Stage,
    TeamOpt,
    err,
    hold,
    interrupted,
    milp_option,
    one_line,
    output_option,
    resume_hint,
    stopped_name,
)
from toypoker.cli.layouts import build_on_layout
from toypoker.cli.seeds import check_batch, solve_batch
from toypoker.cli.solve_report import report
from toypoker.cli.tables import team_of
from toypoker.dask_client import local_workers
from toypoker.engines.registry import engine_of, layout_for
from toypoker.engines.sharded import ShardLostError, shard_bytes
from toypoker.errors import Interrupted, ToypokerError
from toypoker.game import Game
from toypoker.games.team_transform import Team
from toypoker.io import size_text
from toypoker.locks import run_lock
from toypoker.result import Result
from toypoker.solvers import solve as solve_game
from toypoker.solvers.checkpoint import checkpoint_head, refuse_reuse
from toypoker.solvers.registry import METHODS, get_method
from toypoker.solvers.seeds import seeded
from toypoker.spec import parse_value

DEFAULT_ITERATIONS = 2000  # the budget when neither a budget nor a target is given
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

    try:
        return _run_with_bar(g, method, started, **kw)
    except Interrupted as exc:  # what the run kept: saved and reported by the caller
        return exc.result


def _run_with_bar(g: Game, method: str, started: str | None, **kw: object):
    spec = g.spec
    if get_method(method).one_shot:  # one solve (the LP): a spinner, no iteration count
        try:
            with Stage(f"{method} {spec}: solving"):
                return solve_game(g, method=method, **kw)
        except KeyboardInterrupt:  # one step: nothing to keep, nothing written
            raise interrupted(
                f"{method} stopped before it solved {spec}: nothing written (a single "
                "solve keeps no partial state; run it again)",
                None,
            ) from None
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


MethodOpt = Annotated[
    str,
    typer.Option(
        help="pcs-cfr+ (public chance sampling, on hand vectors) or another of the "
        f"registry's methods (tp.METHODS): {', '.join(METHODS)}; the methods page says "
        "what each does."
    ),
]
IterationsOpt = Annotated[
    int | None,
    typer.Option(
        help=f"Maximum iterations (default {DEFAULT_ITERATIONS}; with a target and no "
        "--iterations or --seconds, none: the run goes on to the target)."
    ),
]
TargetNashConvOpt = Annotated[
    float | None,
    typer.Option(
        help="Stop once NashConv (chips per hand, summed over the players) is at or "
        "below this; for a strong win-sharing team solved merged, NashConv of the "
        "merged game."
    ),
]
SecondsOpt = Annotated[float | None, typer.Option(help="Stop after this many seconds.")]
TargetMaxGainOpt = Annotated[
    float | None,
    typer.Option(
        help="Stop once every best-response gain (chips per hand) is at or below this "
        "(eps); for a strong win-sharing team solved merged, in the merged game."
    ),
]
SeedOpt = Annotated[
    int | None, typer.Option(help="Seed of sampling methods (with --seeds: the first seed).")
]
SeedsOpt = Annotated[
    int, typer.Option(help="Run this many seeds (SEED..SEED+N-1) and summarise their spread.")
]
OutputOpt = Annotated[
    Path | None,
    output_option(
        "Write the profile as JSON (with --seeds: -seedK); a name ending in .npz writes "
        "the compact archive (arrays and labels, streamed: big games)."
    ),
]
ResultOpt = Annotated[
    Path | None,
    typer.Option(
        help="Write the whole result (or the seed summary) as JSON; .npz: the compact "
        "archive (toypoker eval/verify read both)."
    ),
]
CsvOpt = Annotated[
    Path | None, typer.Option(help="Write the profile as CSV (with --seeds: -seedK).")
]
CheckpointOpt = Annotated[
    Path | None,
    typer.Option(help="Checkpoint file (.npz), written atomically (with --seeds: -seedK)."),
]
CheckpointSecondsOpt = Annotated[float, typer.Option(help="Seconds between checkpoints.")]
ResumeOpt = Annotated[Path | None, typer.Option(help="Continue from a checkpoint.")]
CheckpointOverwriteOpt = Annotated[
    bool,
    typer.Option(
        "--overwrite",
        help="Replace an existing --checkpoint file (without it, or --resume, an "
        "existing one is refused: it holds another run's work).",
    ),
]
TableOpt = Annotated[bool, typer.Option("--table/--no-table", help="Print the strategy.")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option(
        help="A method option KEY=VALUE (repeatable), e.g. ullman=true for fp (Ullman's "
        "variant; with --target-max-gain it stops by his rule), alpha=1.5 for dcfr."
    ),
]
LayoutOpt = Annotated[
    str,
    typer.Option(
        help="auto, rows or vector. With auto the game is counted first and runs on "
        "the vector layout where a CFR+ iteration is predicted faster there among the "
        "layouts that fit (rhode_island, kuhn with many cards, three-player Mercer "
        "Hold'em), else on the deal table; a method or --team the vector layout does "
        "not run goes to the deal table where it fits.  vector runs any catalogue game "
        "without strong collusion (compiled first where it has no deal-free builder)."
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        help="Shard the iterations over Dask workers: local (a LocalCluster of "
        "--workers processes) or tcp://host:port.  The CFR family on hand vectors; the "
        "iterates equal the in-process run's."
    ),
]
WorkersOpt = Annotated[
    int | None, typer.Option(help="With --scheduler local: its worker processes.")
]


def solve(
    spec: SpecArg,
    method: MethodOpt = "cfr+",
    iterations: IterationsOpt = None,
    target_nash_conv: TargetNashConvOpt = None,
    seconds: SecondsOpt = None,
    target_max_gain: TargetMaxGainOpt = None,
    seed: SeedOpt = None,
    seeds: SeedsOpt = 1,
    output: OutputOpt = None,
    result: ResultOpt = None,
    csv: CsvOpt = None,
    checkpoint: CheckpointOpt = None,
    checkpoint_seconds: CheckpointSecondsOpt = 60.0,
    resume: ResumeOpt = None,
    overwrite: CheckpointOverwriteOpt = False,
    table: TableOpt = True,
    decimals: DecimalsOpt = None,
    fractions: FractionsOpt = False,
    option: OptionOpt = None,
    team: TeamOpt = None,
    milp_seconds: MilpSecondsOpt = None,
    layout: LayoutOpt = "auto",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Solve a game (CFR+ by default) and print the strategy, values and NashConv.

    For a team, also its joint best-response gain; a strong win-sharing team is
    solved merged unless the spec says merge=false."""
    m = method_of(method)
    options = method_options(option or [])
    _check_numbers(iterations, seeds, seed, decimals, target_nash_conv, target_max_gain,
                   milp_seconds, seconds, checkpoint_seconds)  # fmt: skip
    _check_files(method, m.one_shot, seeds, output, result, csv, checkpoint, resume)
    if m.name == "tmecor":  # team-optimal play: what `toypoker collusion tmecor` prints
        _solve_tmecor(spec, options, team, seconds, json_, output or csv or result)
        return
    check_batch(method, m.stochastic, seeds, seed or 0, resume)
    target = target_nash_conv is not None or target_max_gain is not None
    budget = iterations is not None or seconds is not None
    if iterations is None and seconds is None and (not target or seeds > 1):
        iterations = DEFAULT_ITERATIONS
    _claim_checkpoints(checkpoint, resume, overwrite, seeds, seed or 0)
    started, nothing = _resume_lines(resume if seeds == 1 else None, iterations)
    g, deals = _build_game(spec, method, layout, team, scheduler, workers, seeds)
    the_team = team_of(g, team) if deals else None  # a team's gain reads the deal table
    kw = _run_keywords(options, iterations, target_nash_conv, target_max_gain, seconds,
                       checkpoint_seconds, scheduler, workers, the_team, milp_seconds)  # fmt: skip
    if seeds > 1:
        solve_batch(g, method, seeds, seed or 0, kw, output, csv, result, checkpoint, resume,
                    json_)  # fmt: skip
        return
    res, ck = _solve_once(g, method, m.one_shot, kw, seed, checkpoint, resume, started, nothing)
    aim = target_nash_conv if target_nash_conv is not None else target_max_gain
    report(res, g, spec, m.one_shot, deals, json_, table, decimals, fractions, aim,
           (output, csv, result, checkpoint))  # fmt: skip
    if target and budget:
        _check_target(res, target_nash_conv, target_max_gain)
    _check_interrupted(res, ck)


def _check_numbers(
    iterations: int | None,
    seeds: int,
    seed: int | None,
    decimals: int | None,
    target_nash_conv: float | None,
    target_max_gain: float | None,
    milp_seconds: float | None,
    seconds: float | None,
    checkpoint_seconds: float,
) -> None:
    """One line for a count or a number out of its range (each option's own refusal)."""
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


def _check_files(
    method: str,
    one_shot: bool,
    seeds: int,
    output: Path | None,
    result: Path | None,
    csv: Path | None,
    checkpoint: Path | None,
    resume: Path | None,
) -> None:
    """One line for a file option that cannot be: a path not writable as a file, two
    options naming one file, an unreadable ``--resume``, or a checkpoint, resume or
    seed batch of a method that solves in one step."""
    for path, name in ((output, "-o"), (result, "--result"), (csv, "--csv")):
        check_file(path, name)
    check_file(checkpoint, "--checkpoint")
    check_distinct(
        (output, "-o"), (result, "--result"), (csv, "--csv"), (checkpoint, "--checkpoint")
    )
    check_readable(resume, "--resume")
    if one_shot and (checkpoint or resume or seeds > 1):
        raise ToypokerError(f"--method {method} takes no --checkpoint, --resume or --seeds")


def _solve_tmecor(
    spec: str,
    options: dict[str, object],
    team: str | None,
    seconds: float | None,
    json_: bool,
    files: Path | None,
) -> None:
    """``solve --method tmecor``: its options checked (``files``: a profile file asked
    for, refused), then what ``toypoker collusion tmecor`` prints."""
    from toypoker.cli.collusion import tmecor  # the team commands load with it
    from toypoker.cli.tmecor import check_tmecor_options

    check_tmecor_options(options, files)
    tmecor(spec, team=team, seconds=seconds, json_=json_, **options)  # type: ignore[arg-type]


def _build_game(
    spec: str,
    method: str,
    layout: str,
    team: str | None,
    scheduler: str | None,
    workers: int | None,
    seeds: int,
) -> tuple[Game, bool]:
    """``(game, deals)``: the layout the library chooses
    (:func:`~toypoker.engines.registry.layout_for`), a sharded run that cannot be
    refused and the choice said where it matters, then the game built on it;
    ``deals``: whether it runs on the deal table."""
    choice = layout_for(spec, method, layout, team=team is not None)
    if scheduler is not None or workers is not None:  # a refusal in one line, said first
        _check_sharding(spec, scheduler, workers, not choice.deals, seeds)
    where = choice.said(layout)  # where it matters: hand vectors, or asked
    if where is not None:
        err.print(where, highlight=False, soft_wrap=True)
    return build_on_layout(spec, choice), choice.deals


def _run_keywords(
    options: dict[str, object],
    iterations: int | None,
    target_nash_conv: float | None,
    target_max_gain: float | None,
    seconds: float | None,
    checkpoint_seconds: float,
    scheduler: str | None,
    workers: int | None,
    team: Team | None,
    milp_seconds: float | None,
) -> dict[str, object]:
    """The keywords of each run (one solve, or each seed of a batch): the method's
    options, the budgets and targets, the cluster, the team and its MILP's time limit."""
    return {
        **options,
        "iterations": iterations,
        "target_nash_conv": target_nash_conv,
        "target_max_gain": target_max_gain,
        "seconds": seconds,
        "checkpoint_seconds": checkpoint_seconds,
        "overwrite": True,  # an existing --checkpoint was refused above, or may be replaced
        **({"cluster": scheduler, "workers": workers} if scheduler is not None else {}),
        "team": team or False,
        **milp_option(milp_seconds),
    }


def _solve_once(
    g: Game,
    method: str,
    one_shot: bool,
    kw: dict[str, object],
    seed: int | None,
    checkpoint: Path | None,
    resume: Path | None,
    started: str | None,
    nothing: str | None,
) -> tuple[Result, Path | None]:
    """``(result, state)``: one run with a progress bar
    (:func:`~toypoker.cli.solve.run_with_bar`), its state kept in ``checkpoint`` or else
    a scratch file (none for a method that solves in one step), removed with the scratch
    state it resumed from unless the run was interrupted.  A lost worker's error carries
    the command that resumes from the state; a two-player method refused on a strong
    team's game says how to merge it; ``nothing``, a resume's note that nothing more was
    run, is said after the run."""
    ck = None if one_shot else checkpoint or temp_checkpoint("solve")
    try:
        with warnings.catch_warnings():  # said below, in the command's own terms
            warnings.filterwarnings("ignore", r"checkpoint .* iterations already", UserWarning)
            res = run_with_bar(
                g, method, seed=seed, checkpoint=ck, resume=resume, started=started, **kw
            )
    except ShardLostError as exc:  # the state before the lost batch is in ck
        hint = resume_hint(drop=("--resume",), add=("--resume", str(ck)))
        raise ResumeHintError(str(exc), hint) from None
    except ToypokerError as exc:
        raise ToypokerError(_merge_hint(g, str(exc))) from None
    if nothing is not None:
        one_line(nothing, kind="note")
    if checkpoint is None and ck is not None and stopped_name(res.stopped) != "interrupted":
        _remove_scratch(ck, resume)
    return res, ck


def _remove_scratch(ck: Path, resume: Path | None) -> None:
    """Remove a run's scratch state ``ck`` (not asked for, not needed once the run was not
    interrupted) and the scratch state it resumed from, now used up."""
    ck.unlink(missing_ok=True)
    if resume is not None and resume.name.startswith("toypoker-solve-"):
        resume.unlink(missing_ok=True)  # our own temporary state, now used up


def _check_target(
    res: Result, target_nash_conv: float | None, target_max_gain: float | None
) -> None:
    """Exit status 1, with a note, when the budget given ended the run before the
    target."""
    if stopped_name(res.stopped) not in ("iterations", "seconds"):
        return
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


def _check_interrupted(res: Result, ck: Path | None) -> None:
    """Exit status 130 for an interrupted run, with the command that resumes it from
    its state ``ck`` (or a line that its state was not kept)."""
    if stopped_name(res.stopped) != "interrupted":
        return
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
    if seeds == 1:
        hold(run_lock(checkpoint, "checkpoint"))
        refuse_reuse(checkpoint, resume, overwrite, "--resume ", "--overwrite")
        return
    for k in range(seeds):  # each seed's file; the batch resumes by its --checkpoint
        path = seeded(checkpoint, first + k)
        hold(run_lock(path, "checkpoint"))
        if path.is_file() and resume is None and not overwrite:
            raise ToypokerError(
                f"checkpoint {path} exists (seed {first + k} of a batch): give --resume "
                f"{checkpoint} to continue the batch, --overwrite to replace it, or another "
                "--checkpoint"
            )


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
    team = Team.of_params(g.params) if "deals" in engine_of(g).provides else None
    if "two-player" not in message or team is None or not team.strong:
        return message
    if g.n_players - len(team.seats) != 1:  # merged, still more than two players
        return message
    return (
        f"this method is for two-player games and {g.n_players} players remain: give the spec "
        f"merge=true to solve the strong team {team.digits} as one player (a two-player game)"
    )
