"""``toypoker collusion``: Ullman's (2015) collusion scenarios (Table 7) for any game."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from toypoker.archive import BRACKETS, STUDY
from toypoker.cli.checks import (
    at_least,
    check_figure,
    check_file,
    check_readable,
    positive,
    same_file,
)
from toypoker.cli.collusion_tables import table7_tables
from toypoker.cli.common import (
    Bar,
    JsonOpt,
    SpecArg,
    StrongSolveOpt,
    err,
    hold,
    interrupted,
    new_app,
    num,
    out,
    plot_option,
    print_json,
    resume_hint,
    seat_names,
)
from toypoker.cli.tables import team_option
from toypoker.cli.tmecor import save_bracket_of
from toypoker.collusion import (
    STRENGTHS,
    STRONG_SOLVES,
    CollusionProfiles,
    CollusionTable,
    collusion_table_from,
    solve_collusion_profiles,
)
from toypoker.collusion.table7 import study_how
from toypoker.errors import ToypokerError
from toypoker.games import canonical_spec
from toypoker.games.team_transform import Team, placements, seat_digits
from toypoker.highs import silence_banner
from toypoker.interrupts import deferred_interrupts
from toypoker.io import exact_text
from toypoker.locks import run_lock
from toypoker.spec import parse_spec

if TYPE_CHECKING:
    from toypoker.game import Game
    from toypoker.teams.tmecor import TMECor

app = new_app(
    "Collusion: Ullman's (2015) Table 7 scenarios for any game (table7) and a team's "
    "TMECor bracket against one outsider (tmecor).  How many hands an observer needs to "
    "spot collusion: toypoker detect."
)


TeamOpt = Annotated[
    str, typer.Option(help="The colluding players A, B, ... as 1-based seats, e.g. 12.")
]
TargetOpt = Annotated[
    float | None, typer.Option(help="Stop each solve at this NashConv (or the cap).")
]
ProfilesOpt = Annotated[
    Path | None,
    typer.Option(
        help="Take the equilibria from this file (--save) instead of solving; the "
        "NashConv they reached when solved is shown (with --save, recorded if missing). "
        "A file an interrupted run kept: the missing equilibria are solved first, with "
        "the same --method and budget."
    ),
]
SaveOpt = Annotated[
    Path | None,
    typer.Option(
        help="Store the equilibria (.npz) for --profiles, written after each solve: "
        "Ctrl-C keeps those solved and prints the command that resumes."
    ),
]
TeamOptimalOpt = Annotated[
    bool,
    typer.Option(
        help="Also the team-optimal values (one outsider): a strong team with win "
        "sharing, the merged team's exact LP value; otherwise (weak, or pot sharing) "
        "the TMECor bracket within --team-seconds (a strong team's oracle is exact: backward "
        "induction).  The "
        "team-optimal column gives each member an equal share of the team's value."
    ),
]
TeamSecondsOpt = Annotated[float, typer.Option(help="Time budget of each weak placement's TMECor.")]


def table7(
    spec: SpecArg,
    team: TeamOpt = "12",
    sharing: Annotated[str, typer.Option(help="win or pot sharing.")] = "win",
    method: Annotated[str, typer.Option(help="Solver for every equilibrium.")] = "cfr+",
    iterations: Annotated[int, typer.Option(help="Iteration cap of each solve.")] = 1000,
    target_nash_conv: TargetOpt = None,
    strong_solve: StrongSolveOpt = "merged",
    profiles: ProfilesOpt = None,
    save: SaveOpt = None,
    plot: Annotated[Path | None, plot_option("Bar chart (PNG/PDF/SVG).")] = None,
    team_optimal: TeamOptimalOpt = True,
    team_seconds: TeamSecondsOpt = 60.0,
    json_: JsonOpt = False,
) -> None:
    """Payoffs of every player under Public, Private and Suspicious collusion, weak and
    strong, averaged over the seat rotations (the dealer rotates), with the NashConv of
    the equilibria used and, for strong collusion with win sharing, each placement's
    team value bracketed (Ullman 2015, Table 7).  Each cell shows Ullman's printed value
    (3P-MMH, team 23, win sharing), the three-player Nash payoff and, for Public, the
    team-optimal payoff (the team plays its optimal plan, the outsider best-responds)."""
    the_team = _check_table7_options(spec, team, sharing, iterations, target_nash_conv,
                                     strong_solve, profiles, save, plot, team_seconds)  # fmt: skip
    silence_banner()  # HiGHS's, printed on stdout by its first model (toypoker.highs)
    seats = the_team.seats
    study = _Study(spec, seats, sharing, method, iterations, target_nash_conv, strong_solve)
    stored = _equilibria(study, profiles, save, team)
    if save is not None:
        stored.save(save)
    optimal = team_optimal and len(seats) == n_players(spec) - 1
    t = _evaluate(stored, spec, seats, optimal, team_seconds, save)
    if plot:
        from toypoker.collusion.figures import table_bars

        table_bars(t, plot)
    if json_:
        print_json(t.to_json_dict())
        if t.interrupted:
            raise _team_optimal_stopped()
        return
    _print_table7(t, save, plot)
    if t.interrupted:
        raise _team_optimal_stopped()


def _check_table7_options(
    spec: str, team: str, sharing: str, iterations: int, target_nash_conv: float | None,
    strong_solve: str, profiles: Path | None, save: Path | None, plot: Path | None,
    team_seconds: float,
) -> Team:  # fmt: skip
    """The team, with every option checked and the ``--save`` file locked, in one line
    each, before any solve."""
    at_least("--iterations", iterations, 1)
    positive("--team-seconds", team_seconds)
    positive("--target-nash-conv", target_nash_conv)
    the_team = Team.parse(team_option(team, n_players(spec)).digits, sharing)
    if strong_solve not in STRONG_SOLVES:
        raise ToypokerError(
            f"--strong-solve must be {' or '.join(STRONG_SOLVES)}, got {strong_solve!r}"
        )
    check_figure(plot)
    # an unfinished study's file is replaced only by the run that resumes it
    resumes = profiles is not None and save is not None and same_file(profiles, save)
    check_file(save, "--save", own=STUDY if resumes else None)
    if save is not None:  # a second run saving to the same file is refused
        hold(run_lock(save, "--save file"))
    check_readable(profiles, "--profiles")
    return the_team


def _equilibria(
    study: _Study, profiles: Path | None, save: Path | None, team: str
) -> CollusionProfiles:
    """The study's equilibria: read from ``--profiles`` (its missing ones solved, an older
    file's NashConv recorded for ``--save``), or all solved."""
    if profiles is not None:
        stored = _stored(profiles, study, team)
        if not stored.complete:  # an interrupted run's: its missing games solved first
            stored = _solve(study, save, profiles, stored)
        elif save is not None and not stored.measured:  # an older file: upgraded on --save
            with Bar("recording NashConv", len(stored.sigma), fields=("game",)) as bar:
                stored = stored.with_measures(lambda s: bar.update(advance=1, game=s))
    else:
        stored = _solve(study, save, None, None)
    return stored


def _evaluate(
    stored: CollusionProfiles, spec: str, seats: tuple[int, ...], optimal: bool,
    team_seconds: float, save: Path | None,
) -> CollusionTable:  # fmt: skip
    """The table of ``stored`` under a progress bar; a Ctrl-C says no cell is complete
    and, with ``--save``, where the equilibria are kept."""
    # one message a game evaluated (each placement, strong and weak), as many again for
    # the team-optimal values: the bar's count never passes its total
    n_games = len(placements(n_players(spec), seats)) * len(STRENGTHS) * (2 if optimal else 1)
    with Bar("collusion evaluations", n_games, fields=("game",)) as bar:

        def seen(message: str) -> None:
            bar.update(advance=0 if bar.values["game"] == "-" else 1, game=message)

        try:
            return collusion_table_from(
                stored,
                progress=seen,
                team_optimal=optimal,
                team_seconds=team_seconds,
            )
        except KeyboardInterrupt:
            kept = f"; the equilibria are kept in {save}" if save is not None else ""
            raise interrupted(
                "while evaluating the equilibria: no cell of the table is complete" + kept,
                _resume(save),
            ) from None


def _print_table7(t: CollusionTable, save: Path | None, plot: Path | None) -> None:
    """Print the tables, the equilibria's NashConv, the team values and the files written."""
    for line in table7_tables(t):
        out.print(line)
    nc = t.nash_conv
    out.print(
        f"NashConv of the equilibria used: no collusion {nc['none']:.2g}, "
        f"strong {nc['strong']:.2g}, weak {nc['weak']:.2g} (largest over placements)"
    )
    for members, lo, hi in t.team_values:
        out.print(f"strong team {seat_names(members)}: value in [{lo:+.6f}, {hi:+.6f}]")
    for r in t.team_optimal:
        value = num(r.low) if r.exact else f"[{num(r.low)}, {num(r.high)}]"
        stop = ", interrupted" if r.interrupted else ""
        team = seat_names(r.members)
        out.print(f"{r.strength} team {team} team-optimal ({r.how}, {r.seconds:.1f} s{stop}): "
                  f"{value}")  # fmt: skip
    if save is not None:
        out.print(f"equilibria written to {save}")
    if plot:
        out.print(f"bar chart written to {plot}")


@dataclasses.dataclass(frozen=True)
class _Study:
    """What ``table7`` solves: :func:`~toypoker.collusion.solve_collusion_profiles`'s
    arguments."""

    spec: str
    seats: tuple[int, ...]
    sharing: str
    method: str
    iterations: int
    target_nash_conv: float | None
    strong_solve: str


def _stored(profiles: Path, study: _Study, team: str) -> CollusionProfiles:
    """The equilibria of ``--profiles``, refused in one line when of another study or,
    incomplete (an interrupted run's), of another method or budget than the missing
    ones would be solved with; what they reached when solved is said on stderr (the
    table evaluates it afresh)."""
    stored = CollusionProfiles.load(profiles)
    if stored.spec != canonical_spec(study.spec) or stored.team != study.seats:
        raise ToypokerError(
            f"{profiles} holds the equilibria of {stored.spec} with team "
            f"{seat_digits(stored.team)}, not of {study.spec} with team {team}"
        )
    if stored.sharing != study.sharing:
        raise ToypokerError(f"{profiles} is for {stored.sharing} sharing, not {study.sharing}")
    if not stored.complete:
        merged = study.strong_solve == "merged" and study.sharing == "win"
        n_games = 2 * n_players(study.spec) + 1
        how = study_how(study.method, study.iterations, study.target_nash_conv, merged, n_games)
        if stored.how != how:
            raise ToypokerError(
                f"{profiles} holds {stored.progress()} equilibria solved with {stored.how}, "
                f"not {how}: give the same --method, --iterations, --target-nash-conv and "
                "--strong-solve to solve the missing ones"
            )
    err.print(f"toypoker: {profiles}: {stored.summary()}", highlight=False, soft_wrap=True)
    return stored


def _solve(
    study: _Study, save: Path | None, profiles: Path | None, solved: CollusionProfiles | None
) -> CollusionProfiles:
    """The study's ``2 n + 1`` equilibria, those in ``solved`` (an interrupted run's,
    from ``--profiles``) kept.  With ``save`` the equilibria solved so far are written
    there after each solve (a Ctrl-C loses no finished solve); Ctrl-C says
    how many are kept and the command that resumes (exit 130)."""
    n_solves = 2 * n_players(study.spec) + 1
    latest = [solved]  # the equilibria solved so far (in ``save`` once it is given)
    with Bar("collusion solves", n_solves, fields=("game",)) as bar:
        bar.update(completed=0 if solved is None else len(solved.sigma))

        def kept(so_far: CollusionProfiles) -> None:
            latest[0] = so_far
            bar.update(advance=1)
            if save is not None and _save_now(so_far, save):
                raise KeyboardInterrupt  # the solves stop, the file whole

        try:
            return solve_collusion_profiles(
                study.spec, study.seats, study.sharing, study.method, study.iterations,
                study.target_nash_conv, study.strong_solve,
                lambda message: bar.update(game=message), solved, kept,
            )  # fmt: skip
        except KeyboardInterrupt:
            had = 0 if solved is None else len(solved.sigma)
            raise _solves_stopped(latest[0], had, n_solves, save, profiles) from None


def _save_now(stored: CollusionProfiles, save: Path) -> bool:
    """Write ``stored`` to ``save``, a Ctrl-C during the write taken once it is written
    (the file is whole); returns whether one came (or an earlier one was dropped)."""
    with deferred_interrupts(keeping=f"the equilibria in {save}") as late:
        stored.save(save)
    return late.requested


def _solves_stopped(
    stored: CollusionProfiles | None, had: int, n_solves: int, save: Path | None,
    profiles: Path | None,
) -> typer.Exit:  # fmt: skip
    """Ctrl-C in the solves: how many equilibria are solved (``had`` of them read from
    ``--profiles``), where they are kept and the command that resumes (exit 130)."""
    done = 0 if stored is None else len(stored.sigma)
    if save is not None and stored is not None and done:
        _save_now(stored, save)  # there already, unless the Ctrl-C came within the write
        return interrupted(f"{done} of {n_solves} equilibria solved, kept in {save}",
                           _resume(save))  # fmt: skip
    if save is not None:
        return interrupted(f"0 of {n_solves} equilibria solved, none kept ({save} not "
                           "written)", resume_hint())  # fmt: skip
    if profiles is not None:  # the file read still holds its own: keep the new ones there
        return interrupted(
            f"{done} of {n_solves} equilibria solved, the {done - had} solved now not kept "
            f"(no --save; {profiles} still holds its {had})",
            resume_hint(add=("--save", str(profiles))),
        )
    return interrupted(
        f"{done} of {n_solves} equilibria solved, none kept: every cell averages all the "
        "seat rotations, so no cell of the table is complete (give --save FILE to keep the "
        "solved ones; --profiles FILE then solves only the missing ones)",
        None,
    )


def _resume(save: Path | None) -> str | None:
    """The command that resumes from the equilibria kept in ``save``: the same with
    ``--profiles SAVE`` (the stored ones read, the missing ones solved, all saved)."""
    if save is None:
        return None
    return resume_hint(drop=("--profiles",), add=("--profiles", str(save)))


def _team_optimal_stopped() -> typer.Exit:
    """Ctrl-C in the team-optimal values: what of the table stands (exit 130)."""
    return interrupted(
        "in the team-optimal values: the Nash columns are complete, the team-optimal "
        "placements listed are valid brackets, the team-optimal column is left out (it "
        "averages every placement)",
        None,
    )


app.command("table7")(table7)


def n_players(spec: str) -> int:
    """The players of a spec, without compiling it."""
    return int(parse_spec(canonical_spec(spec)).as_dict()["players"])


TMECOR_ORACLES = ("hybrid", "exact", "alternating", "relaxation")
"""The ``--oracle`` choices of ``collusion tmecor``."""


TmecorTeamOpt = Annotated[
    str | None,
    typer.Option(help="The team as 1-based seats, e.g. 23 (default: the spec's team=)."),
]
SecondsOpt = Annotated[
    float | None,
    typer.Option(
        help="Time budget of the column generation (default: no limit): it stops "
        "after the first oracle call past it with the bracket found so far (anytime). "
        "The --sharing-iterations and --pdlp-seconds stages have their own budgets."
    ),
]
TolOpt = Annotated[
    float,
    typer.Option(
        help="Stop when no plan beats the master's value by more than TOL "
        "(chips per hand, the team's summed value)."
    ),
]
OracleOpt = Annotated[
    str,
    typer.Option(
        help="hybrid (alternating best responses, the exact joint response -- "
        "enumeration, certified LP or MILP -- to certify), exact (the exact response "
        "every step), alternating (none while generating; one final exact response "
        "for the upper end) or relaxation (a weak "
        "team of two on big games: the relevant-pairs LP's plan and certified bound). "
        "With alternating or relaxation the run ends 'stopped: heuristic' when the "
        "oracle's plan no longer improves the master: the bracket stays certified, "
        "its width is what is left."
    ),  # fmt: skip
]
RelaxationSecondsOpt = Annotated[
    float | None,
    typer.Option(
        help="With --oracle relaxation: solve each relevant-pairs LP by HiGHS's PDLP "
        "stopped after this many seconds (LPs too big for the interior point, e.g. "
        "3P-MMH) instead of the interior point (default)."
    ),
]
SharingIterationsOpt = Annotated[
    int,
    typer.Option(
        help="A weak team: also bound the upper end by the team seeing its cards "
        "against the outsider of the merged game solved this many PDCFR+ iterations "
        "(0, the default: no such stage).  Ctrl-C in this stage keeps the bound of "
        "the iterations done."
    ),
]
PdlpSecondsOpt = Annotated[
    float,
    typer.Option(
        help="With --sharing-iterations, a weak team of two: also certify the "
        "relevant-pairs LP at that outsider (HiGHS PDLP, this many seconds; 0, the "
        "default: no such stage)."
    ),
]
BracketsOpt = Annotated[
    Path | None,
    typer.Option(
        help="Add the bracket to this JSON file of TMECor brackets (kept by "
        "game and team, with the command line that ran); the file must be absent or "
        "a brackets file (checked before the work)."
    ),
]


def tmecor(
    spec: SpecArg,
    team: TmecorTeamOpt = None,
    seconds: SecondsOpt = None,
    max_columns: Annotated[int, typer.Option(help="Cap on the joint plans generated.")] = 1000,
    tol: TolOpt = 1e-9,
    oracle: OracleOpt = "hybrid",
    relaxation_seconds: RelaxationSecondsOpt = None,
    sharing_iterations: SharingIterationsOpt = 0,
    pdlp_seconds: PdlpSecondsOpt = 0.0,
    save: BracketsOpt = None,
    json_: JsonOpt = False,
) -> None:
    """The team-maxmin equilibrium with correlation of a team against one outsider:
    the team's value bracketed exactly, [the team's mixture against the outsider's best
    response, the team's best response against the outsider's strategy] (column
    generation, Celli and Gatti 2018).  Ctrl-C or --seconds stop with a valid bracket.

    The game is the members' n-player game (a merged team's spec, merge=true, is
    refused).  In --json, "columns" counts the joint plans generated in all, "plans"
    those in the final mixture (positive weight)."""
    from toypoker.teams.bounds import sharing_stage
    from toypoker.teams.tmecor import tmecor as solve_tmecor

    _check_tmecor_options(seconds, tol, relaxation_seconds, max_columns, sharing_iterations,
                          oracle, pdlp_seconds, save)  # fmt: skip
    game, the_team = _tmecor_game(spec, team)
    with Bar("TMECor columns", None, fields=("bracket",)) as bar:

        def step(columns: int, value: float, upper: float) -> None:
            bar.update(completed=columns, bracket=f"[{value:+.6f}, {upper:+.6f}]")

        r = solve_tmecor(game, the_team, tol=tol, max_columns=max_columns, seconds=seconds,
                         progress=step, oracle=oracle,
                         relaxation_seconds=relaxation_seconds)  # fmt: skip
    ran = 0  # the sharing stage's iterations that ran (none after a Ctrl-C before it)
    if sharing_iterations > 0 and r.stopped != "interrupted":
        with Bar("sharing bound: PDCFR+ on the merged team", sharing_iterations) as bar:
            r, ran = sharing_stage(game, r, sharing_iterations, pdlp_seconds,
                                   progress=lambda t, _nc: bar.update(t))  # fmt: skip
    if save is not None:
        argv = _bracket_argv(spec, r, oracle, tol, max_columns, seconds, relaxation_seconds,
                             ran, pdlp_seconds, sharing_iterations)  # fmt: skip
        save_bracket_of(save, game, r, argv)
    if json_:
        print_json({**r.to_json_dict(), "oracle_option": oracle, "sharing_iterations_run": ran})
    else:
        _print_tmecor(r, oracle, sharing_iterations, ran)
    if r.stopped == "interrupted":
        raise interrupted("the bracket above is valid, not converged", None)


def _check_tmecor_options(
    seconds: float | None, tol: float, relaxation_seconds: float | None, max_columns: int,
    sharing_iterations: int, oracle: str, pdlp_seconds: float, save: Path | None,
) -> None:  # fmt: skip
    """Refuse bad options in one line, lock ``--save`` and read it, before the game is
    built."""
    positive("--seconds", seconds)
    positive("--tol", tol)
    positive("--relaxation-seconds", relaxation_seconds)
    at_least("--max-columns", max_columns, 1)
    at_least("--sharing-iterations", sharing_iterations, 0)
    if oracle not in TMECOR_ORACLES:
        raise ToypokerError(f"--oracle must be one of {', '.join(TMECOR_ORACLES)}, got {oracle!r}")
    silence_banner()  # HiGHS's, printed on stdout by its first model (toypoker.highs)
    if relaxation_seconds is not None and oracle != "relaxation":
        raise ToypokerError("--relaxation-seconds is for --oracle relaxation")
    if pdlp_seconds < 0:
        raise ToypokerError(f"--pdlp-seconds must be at least 0, got {pdlp_seconds:g}")
    if pdlp_seconds > 0 and sharing_iterations == 0:
        raise ToypokerError(
            "--pdlp-seconds certifies the LP at the --sharing-iterations stage's outsider: "
            "give --sharing-iterations too"
        )
    check_file(save, "--save", own=BRACKETS)  # adds a record to the brackets there
    if save is not None:  # a second run saving to the same file is refused
        hold(run_lock(save, "--save file"))
    if save is not None and save.exists():  # a brackets file, read now: not after the work
        from toypoker.collusion.brackets import load_brackets

        load_brackets(save)


def _tmecor_game(spec: str, team: str | None) -> tuple[Game, Team]:
    """The members' game (three players or more, not merged) and its team: ``--team``,
    else the spec's own."""
    from toypoker.games import load_rows

    if parse_spec(spec).as_dict().get("merge"):
        raise ToypokerError(
            "TMECor is for the members' n-player game, not the merged team's: drop merge=true"
        )
    game = load_rows(spec)
    if game.n_players < 3:  # before any --team advice: no team has an outsider here
        raise ToypokerError(
            f"TMECor is a team against one outsider: it needs at least three players; "
            f"{game.spec} has {game.n_players}"
        )
    the_team = Team.of_params(game.params)
    if team is not None:
        the_team = team_option(team, game.n_players, the_team)
    if the_team is None:
        seats = "".join(str(s + 1) for s in range(1, game.n_players))
        raise ToypokerError(f"{game.spec} has no team: give --team (1-based seats, e.g. {seats})")
    return game, the_team


def _bracket_argv(
    spec: str, r: TMECor, oracle: str, tol: float, max_columns: int, seconds: float | None,
    relaxation_seconds: float | None, ran: int, pdlp_seconds: float, sharing_iterations: int,
) -> list[str]:  # fmt: skip
    """The command line that ran, as the brackets file records it (only the sharing
    stage's iterations that ran)."""
    argv = ["toypoker", "collusion", "tmecor", spec, "--team", seat_digits(r.team), "--oracle",
            oracle, "--tol", f"{tol:g}", "--max-columns", str(max_columns)]  # fmt: skip
    argv += [] if seconds is None else ["--seconds", f"{seconds:g}"]
    argv += (
        [] if relaxation_seconds is None else ["--relaxation-seconds", f"{relaxation_seconds:g}"]
    )
    argv += ["--sharing-iterations", str(ran)] if ran else []
    argv += (
        ["--pdlp-seconds", f"{pdlp_seconds:g}"]
        if pdlp_seconds and ran == sharing_iterations
        else []
    )
    return argv


def _print_tmecor(r: TMECor, oracle: str, sharing_iterations: int, ran: int) -> None:
    """Print the bracket, its width, the plans and how the run went."""
    out.print(f"TMECor of team {seat_names(r.team)} against P{r.outsider + 1} in {r.spec}")
    out.print(f"team value in [{_exact(r.lower)}, {_exact(r.upper)}]")
    out.print(f"width {_exact(r.width)}{' (exact)' if r.exact else ''}")
    out.print(f"{r.columns} joint plans generated, {len(r.plans)} in the mixture")
    how = r.how if r.how.startswith(oracle) else f"{oracle} (exact oracle: {r.how})"
    if sharing_iterations:
        part = "" if ran == sharing_iterations else f" of {sharing_iterations}"
        how += f"; sharing bound: {ran}{part} PDCFR+ iterations"
    out.print(f"oracle: {how}; {r.seconds:.2f} s; stopped: {r.stopped}", soft_wrap=True)


app.command("tmecor")(tmecor)


EXACT_CHARS = 40
"""Bracket ends whose exact fraction has at most this many characters print it in full
(the sharing bound's, on a 2^-20 grid, does); longer ones their decimal alone."""


def _exact(x: Fraction) -> str:
    """An exact bracket end as other exact numbers print (:func:`~.common.num`): the
    fraction and its decimal (12 digits), the decimal alone past :data:`EXACT_CHARS`
    characters (``--json`` keeps the exact fraction)."""
    return num(x, fractions=len(exact_text(x)) <= EXACT_CHARS)
