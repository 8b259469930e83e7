"""``toypoker detect``: hands until an observer's sequential test spots collusion."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.table import Table

from toypoker.cli.checks import at_least, check_figure, check_readable, positive
from toypoker.cli.common import (
    Bar,
    JsonOpt,
    SpecArg,
    StrongSolveOpt,
    interrupted,
    out,
    plain,
    plot_option,
    print_json,
)
from toypoker.cli.evaluate import load_profile
from toypoker.cli.tables import team_option
from toypoker.collusion import STRONG_SOLVES, CollusionProfiles, solve_team_game
from toypoker.collusion.detection import (
    Detection,
    check_same_table,
    check_sprt_size,
    check_test,
    members_game,
    team_optimal_play,
)
from toypoker.collusion.detection import detect as detect_collusion
from toypoker.errors import Interrupted, ToypokerError
from toypoker.evaluation import nash_conv
from toypoker.game import Game
from toypoker.games import load_rows
from toypoker.games.team_transform import Team
from toypoker.profile import Profile
from toypoker.teams.transfer import splice


def _profile(
    g: Game,
    path: Path | None,
    stored: CollusionProfiles | None,
    method: str,
    iterations: int,
    target: float | None,
    strong_solve: str,
    what: str,
) -> tuple[Profile, str]:
    """A profile file, a stored profile (``--profiles``), or ``method`` on the game (the
    merged team's game for strong win-sharing collusion with ``strong_solve="merged"``)."""
    if path is not None:
        return load_profile(path, g, exact=False).to_float(), f"{path}"
    if stored is not None and stored.has(g):
        prof = stored.profile(g)
        return prof, f"stored ({stored.how}), NashConv {float(nash_conv(g, prof)):.2g}"
    try:
        with Bar(f"{what}: {method} {g.spec}", iterations) as bar:
            sol = solve_team_game(
                g, method, merged=strong_solve == "merged", iterations=iterations,
                target_nash_conv=target, progress=lambda t, nc: bar.update(t),
            )  # fmt: skip
    except Interrupted as exc:  # the signal the solver deferred to the end of a step
        raise interrupted(
            f"{what} solve stopped after {exc.result.iterations} iterations; no result "
            "written (detect keeps no partial state: run the command again)",
            None,
        ) from None
    res = sol.result
    if sol.merged:
        return sol.profile, (
            f"{method} {res.iterations} iterations on the merged team, NashConv "
            f"{float(nash_conv(g, sol.profile)):.2g} in {g.spec}"
        )
    return sol.profile, f"{method} {res.iterations} iterations, NashConv {res.nash_conv:.2g}"


CollusionOpt = Annotated[
    str,
    typer.Option(
        help="The game the team plays in (H1), e.g. the same spec with "
        "team=12,sharing=win,strong=true."
    ),
]
H0Opt = Annotated[
    Path | None, typer.Option(help="Honest profile (H0) file; default: CFR+ on GAME.")
]
H1Opt = Annotated[
    Path | None,
    typer.Option(
        help="Collusion profile (H1) file (a merged team's profile is read on the "
        "seats); default: --method on the collusion game (a strong win-sharing team: "
        "its merged game, see --strong-solve)."
    ),
]
H1PlayOpt = Annotated[
    str,
    typer.Option(
        help="equilibrium: H1 is a solve of the collusion game; team-optimal: the "
        "team's optimal play (strong win sharing: the merged team's LP equilibrium; "
        "otherwise the TMECor plan, one joint pure plan drawn per hand)."
    ),
]
TeamSecondsOpt = Annotated[
    float, typer.Option(help="Time budget of the TMECor for --h1-play team-optimal.")
]
ScenarioOpt = Annotated[
    str,
    typer.Option(
        help="public: everybody plays the collusion equilibrium; private: the outsiders "
        "keep the honest one (needs --team)."
    ),
]
TeamOpt = Annotated[
    str | None,
    typer.Option(
        help="The colluding seats (1-based digits, e.g. 12; default: the --collusion "
        "spec's team).  Needed by --scenario private (the outsiders keep the honest "
        "play); checked against the spec's team in both scenarios."
    ),
]
TargetOpt = Annotated[
    float | None, typer.Option(help="Stop a solve at this NashConv (or --iterations).")
]
ProfilesOpt = Annotated[
    Path | None,
    typer.Option(
        help="Equilibria stored by `toypoker collusion table7 --save` (used for the "
        "games they hold)."
    ),
]
TrembleOpt = Annotated[
    float,
    typer.Option(
        help="The observer mixes every choice of both profiles with uniform play at this "
        "rate (an action honest play never takes is then strong evidence, not proof)."
    ),
]


def detect(
    spec: SpecArg,
    collusion: CollusionOpt,
    h0: H0Opt = None,
    h1: H1Opt = None,
    h1_play: H1PlayOpt = "equilibrium",
    team_seconds: TeamSecondsOpt = 60.0,
    scenario: ScenarioOpt = "public",
    team: TeamOpt = None,
    method: Annotated[str, typer.Option(help="Solver for a missing profile.")] = "cfr+",
    iterations: Annotated[int, typer.Option(help="Iterations for a missing profile.")] = 2000,
    target_nash_conv: TargetOpt = None,
    strong_solve: StrongSolveOpt = "merged",
    profiles: ProfilesOpt = None,
    alpha: Annotated[float, typer.Option(help="False-alarm probability of the test.")] = 0.05,
    beta: Annotated[float, typer.Option(help="Miss probability (power = 1 - beta).")] = 0.05,
    runs: Annotated[int, typer.Option(help="Simulated test sequences.")] = 2000,
    max_hands: Annotated[int, typer.Option(help="Give up on a sequence after this.")] = 1_000_000,
    seed: Annotated[int, typer.Option(help="Random seed of the simulation.")] = 0,
    tremble: TrembleOpt = 0.01,
    plot: Annotated[Path | None, plot_option("Power curve (PNG/PDF/SVG).")] = None,
    json_: JsonOpt = False,
) -> None:
    """How many hands an observer (public actions, showdown cards) needs to tell
    collusion from honest play: Wald's sequential likelihood-ratio test, exact
    per-hand evidence, simulated stopping times and the hands for 95 % power."""
    _check_options(iterations, target_nash_conv, strong_solve, profiles, runs, max_hands, seed,
                   h1_play, h1, team_seconds, scenario, plot)  # fmt: skip
    check_test(alpha, beta, tremble)  # before any solve
    g0, g1, seats = _games(spec, collusion, scenario, team, h0, h1)
    stored = CollusionProfiles.load(profiles) if profiles is not None else None
    opts = (method, iterations, target_nash_conv, strong_solve)
    p0, how0 = _profile(g0, h0, stored, *opts, "H0")
    h1_law, how1 = _h1_law(g1, p0, seats, scenario, h1_play, h1, stored, opts, team_seconds)
    d = detect_collusion(
        g0,
        p0,
        g1,
        h1_law,
        alpha=alpha,
        beta=beta,
        runs=runs,
        max_hands=max_hands,
        seed=seed,
        tremble=tremble,
    )
    if d.kl == 0:
        raise ToypokerError(
            f"H0 and H1 ({g1.spec}) show the observer the same distribution: nothing to "
            "detect; give profiles (or games) that differ"
        )
    if plot:
        from toypoker.collusion.detection import plot_power

        plot_power(d, plot)
    if json_:
        print_json(plain({**d.to_json_dict(), "scenario": scenario, "h0_profile": how0,
                          "h1_profile": how1, "h1_play": h1_play,
                          "tremble": tremble}))  # fmt: skip
        return
    _print_detection(d, g0, g1, scenario, how0, how1, runs, alpha)
    if plot:
        out.print(f"power curve written to {plot}")


def _check_options(
    iterations: int, target_nash_conv: float | None, strong_solve: str, profiles: Path | None,
    runs: int, max_hands: int, seed: int, h1_play: str, h1: Path | None, team_seconds: float,
    scenario: str, plot: Path | None,
) -> None:  # fmt: skip
    """Refuse bad options in one line, before any game is built or solved."""
    at_least("--iterations", iterations, 1)
    positive("--target-nash-conv", target_nash_conv)
    if strong_solve not in STRONG_SOLVES:
        raise ToypokerError(
            f"--strong-solve must be {' or '.join(STRONG_SOLVES)}, got {strong_solve!r}"
        )
    check_readable(profiles, "--profiles")
    at_least("--runs", runs, 1)
    at_least("--max-hands", max_hands, 1)
    check_sprt_size(runs, max_hands, "--runs")  # before any solve
    at_least("--seed", seed, 0)
    if h1_play not in ("equilibrium", "team-optimal"):
        raise ToypokerError(f"--h1-play must be equilibrium or team-optimal, not {h1_play!r}")
    if h1_play == "team-optimal" and h1 is not None:
        raise ToypokerError("give --h1 or --h1-play team-optimal, not both")
    positive("--team-seconds", team_seconds)
    if scenario not in ("public", "private"):
        raise ToypokerError(f"--scenario must be public or private, not {scenario!r}")
    check_figure(plot)


def _games(
    spec: str, collusion: str, scenario: str, team: str | None, h0: Path | None,
    h1: Path | None,
) -> tuple[Game, Game, tuple[int, ...]]:  # fmt: skip
    """The honest game, the collusion game (on the members' seats) and the colluding
    seats whose outsiders keep the honest play (none in the public scenario)."""
    g0, g1 = load_rows(spec), load_rows(collusion)
    g1 = members_game(g1) or g1  # a merged team plays on its members' seats
    own = Team.of_params(g1.params)
    if scenario == "private" and team is None and own is None:
        raise ToypokerError("--scenario private needs a team: --team 12 or a team= in --collusion")
    if g0.spec == g1.spec and h0 == h1:  # both solved (or read) alike
        raise ToypokerError(
            f"H0 and H1 are the same game {g0.spec} played the same way: nothing to detect; "
            "give --collusion a team (e.g. team=12,sharing=win) or different --h0/--h1"
        )
    check_same_table(g0, g1)  # before any solve
    seats = own.seats if own is not None else ()
    if team is not None:  # checked alike in both scenarios; the colluders when private
        seats = team_option(team, g1.n_players, own).seats
    if scenario == "public":
        seats = ()
    return g0, g1, seats


def _h1_law(
    g1: Game, p0: Profile, seats: tuple[int, ...], scenario: str, h1_play: str,
    h1: Path | None, stored: CollusionProfiles | None, opts: tuple, team_seconds: float,
) -> tuple[Profile | list[tuple[float, Profile]], str]:  # fmt: skip
    """The collusion play (H1): a profile, or the team-optimal mixture of profiles, the
    outsiders keeping ``p0`` when private; and how it was found."""
    outsiders = set(range(g1.n_players)) - set(seats)
    h1_law: Profile | list[tuple[float, Profile]]
    if h1_play == "team-optimal":
        with Bar(f"H1: team-optimal play in {g1.spec}", None, fields=("plans",)) as bar:
            play = team_optimal_play(
                g1, team_seconds, progress=lambda k, _v, _b: bar.update(k, plans=k)
            )
        if play.interrupted:
            raise interrupted("H1 team-optimal solve stopped; no result written (detect keeps "
                              "no partial state: run the command again)", None)  # fmt: skip
        how1 = play.how
        h1_law = [(w, splice(p, p0, outsiders) if scenario == "private" else p)
                  for w, p in play.mixture]  # fmt: skip
    else:
        p1, how1 = _profile(g1, h1, stored, *opts, "H1")
        # private: the outsiders keep the honest strategy
        h1_law = splice(p1, p0, outsiders) if scenario == "private" else p1
    return h1_law, how1


def _print_detection(
    d: Detection, g0: Game, g1: Game, scenario: str, how0: str, how1: str, runs: int,
    alpha: float,
) -> None:  # fmt: skip
    """Print the detection's table: the profiles, the evidence and the hands it takes."""
    t = Table(title=f"Detecting collusion ({scenario}): {g1.spec} against {g0.spec}",
              title_justify="left")  # fmt: skip
    t.add_column("quantity")
    t.add_column("value", justify="right")
    h95 = "not within --max-hands" if d.hands_95 is None else f"{d.hands_95:,}"
    for name, value in (
        ("H0 profile", how0),
        ("H1 profile", how1),
        ("evidence per hand under H1 (KL, nats)", f"{d.kl:.4g}"),
        (f"hands to detection, 95 % of {runs} runs", h95),
        ("median hands to a decision", f"{np.median(d.stops):,.0f}"),
        ("Wald's average hands under H1", f"{d.asn1:,.0f}"),
        ("fixed-size test, same errors", f"{d.fixed_n:,.0f}"),
        (f"false alarms under H0 (alpha = {alpha:g})", f"{d.false_alarms:.3f}"),
    ):
        t.add_row(name, value)
    out.print(t)
