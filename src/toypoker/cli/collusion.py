"""``toypoker collusion``: Ullman's (2015) collusion scenarios (Table 7) for any game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ..collusion import (
    SCENARIOS,
    STRENGTHS,
    STRONG_SOLVES,
    CollusionProfiles,
    collusion_table_from,
    solve_collusion_profiles,
)
from ..errors import ToypokerError
from ..games import canonical_spec
from ..games.collusion import Team, seat_digits
from ..spec import parse_spec
from .common import (
    Bar,
    JsonOpt,
    SpecArg,
    StrongSolveOpt,
    at_least,
    check_figure,
    check_file,
    check_readable,
    new_app,
    out,
    plot_option,
    positive,
    print_json,
)

app = new_app("Collusion: Ullman's (2015) Table 7 scenarios for any game.")


def table7(
    spec: SpecArg,
    team: Annotated[
        str, typer.Option(help="The colluding players A, B, ... as 1-based seats, e.g. 12.")
    ] = "12",
    sharing: Annotated[str, typer.Option(help="win or pot sharing.")] = "win",
    method: Annotated[str, typer.Option(help="Solver for every equilibrium.")] = "cfr+",
    iterations: Annotated[int, typer.Option(help="Iteration cap of each solve.")] = 1000,
    target_nash_conv: Annotated[
        float | None, typer.Option(help="Stop each solve at this NashConv (or the cap).")
    ] = None,
    strong_solve: StrongSolveOpt = "merged",
    profiles: Annotated[
        Path | None,
        typer.Option(help="Take the equilibria from this file (--save) instead of solving."),
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="Store the equilibria (.npz) for --profiles.")
    ] = None,
    plot: Annotated[Path | None, plot_option("Bar chart (PNG/PDF/SVG).")] = None,
    json_: JsonOpt = False,
) -> None:
    """Payoffs of every player under Public, Private and Suspicious collusion, weak and
    strong, averaged over the seat rotations (the dealer rotates), with the NashConv of
    the equilibria used and, for strong collusion with win sharing, each placement's
    team value bracketed (Ullman 2015, Table 7)."""
    at_least("--iterations", iterations, 1)
    positive("--target-nash-conv", target_nash_conv)
    the_team = Team.parse(team, sharing)
    if strong_solve not in STRONG_SOLVES:
        raise ToypokerError(
            f"--strong-solve must be {' or '.join(STRONG_SOLVES)}, got {strong_solve!r}"
        )
    check_figure(plot)
    check_file(save, "--save")
    check_readable(profiles, "--profiles")
    seats = the_team.seats
    if profiles is not None:
        stored = CollusionProfiles.load(profiles)
        if stored.spec != canonical_spec(spec) or stored.team != seats:
            raise ToypokerError(
                f"{profiles} holds the equilibria of {stored.spec} with team "
                f"{seat_digits(stored.team)}, not of {spec} with team {team}"
            )
        if stored.sharing != sharing:
            raise ToypokerError(f"{profiles} is for {stored.sharing} sharing, not {sharing}")
    else:
        # 2 n + 1 solves: no collusion, then strong and weak for each seat placement
        n_solves = 2 * int(parse_spec(canonical_spec(spec)).as_dict()["players"]) + 1
        with Bar("collusion solves", n_solves, fields=("game",)) as bar:

            def step(message: str) -> None:
                bar.update(advance=0 if bar.values["game"] == "-" else 1, game=message)

            stored = solve_collusion_profiles(
                spec, seats, sharing, method, iterations, target_nash_conv, strong_solve, step
            )
    if save is not None:
        stored.save(save)
    with Bar("collusion evaluations", len(stored.sigma), fields=("game",)) as bar:

        def seen(message: str) -> None:
            bar.update(advance=0 if bar.values["game"] == "-" else 1, game=message)

        t = collusion_table_from(stored, progress=seen)
    if plot:
        from ..collusion.figures import table_bars

        table_bars(t, plot)
    if json_:
        print_json(t.to_json_dict())
        return
    n = len(next(iter(t.payoffs.values())))
    names = "".join(chr(65 + p) for p in t.team)
    tab = Table(
        title=f"Collusion payoffs, {t.spec}, team {names} ({t.sharing} sharing), "
        f"averaged over {n} seat rotations; {t.how}",
        title_justify="left",
    )
    tab.add_column("player")
    for strength in STRENGTHS:
        for c in SCENARIOS:
            tab.add_column(f"{strength}\n{c}", justify="right")
    for p in range(n):
        role = "team" if p in t.team else "out"
        tab.add_row(
            f"{chr(65 + p)} ({role})",
            *(f"{t.payoffs[(s, c)][p]:+.5f}" for s in STRENGTHS for c in SCENARIOS),
        )
    out.print(tab)
    nc = t.nash_conv
    out.print(
        f"NashConv of the equilibria used: no collusion {nc['none']:.2g}, "
        f"strong {nc['strong']:.2g}, weak {nc['weak']:.2g} (largest over placements)"
    )
    for members, lo, hi in t.team_values:
        digits = seat_digits(members)
        out.print(f"strong team {{{','.join(digits)}}}: value in [{lo:+.6f}, {hi:+.6f}]")
    if save is not None:
        out.print(f"equilibria written to {save}")
    if plot:
        out.print(f"bar chart written to {plot}")


app.command("table7")(table7)
