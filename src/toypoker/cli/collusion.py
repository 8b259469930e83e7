"""``toypoker collusion``: Ullman's (2015) collusion scenarios (Table 7) for any game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ..errors import ToypokerError
from ..games.collusion import SCENARIOS, CollusionTable, collusion_table
from .common import JsonOpt, SpecArg, at_least, check_file, new_app, out, print_json

app = new_app("Collusion: Ullman's (2015) Table 7 scenarios for any game.")


def _plot(t: CollusionTable, path: Path) -> None:
    """Grouped bars: one panel per strength, one group per scenario, one bar per player."""
    from ..plots import save_figure, subplots

    n = len(next(iter(t.payoffs.values())))
    fig, axes = subplots(1, 2, figsize=(10, 3.6), layout="constrained")
    width = 0.8 / n
    for ax, strength in zip(axes, ("strong", "weak"), strict=True):
        for p in range(n):
            ys = [t.payoffs[(strength, c)][p] for c in SCENARIOS]
            xs = [i + (p - (n - 1) / 2) * width for i in range(len(SCENARIOS))]
            ax.bar(xs, ys, width, label=f"player {chr(65 + p)}")
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xticks(range(len(SCENARIOS)), [c.capitalize() for c in SCENARIOS])
        ax.set_title(f"{strength} collusion")
        ax.set_ylabel("expected payoff (chips per hand)")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"{t.spec}, team {''.join(chr(65 + p) for p in t.team)}", fontsize=9)
    save_figure(fig, path)


def table7(
    spec: SpecArg,
    team: Annotated[
        str, typer.Option(help="The colluding players A, B, ... as 1-based seats, e.g. 12.")
    ] = "12",
    sharing: Annotated[str, typer.Option(help="win or pot sharing.")] = "win",
    method: Annotated[str, typer.Option(help="Solver for every equilibrium.")] = "cfr+",
    iterations: Annotated[int, typer.Option(help="Iterations of each solve.")] = 1000,
    plot: Annotated[Path | None, typer.Option(help="Bar chart (PNG/PDF/SVG).")] = None,
    json_: JsonOpt = False,
) -> None:
    """Payoffs of every player under Public, Private and Suspicious collusion, weak and
    strong, averaged over the seat rotations (the dealer rotates), with the NashConv of
    the equilibria used (Ullman 2015, Table 7)."""
    at_least("--iterations", iterations, 1)
    if not team.isdigit() or "0" in team:
        raise ToypokerError(f"--team must be 1-based seats written as digits, got {team!r}")
    if sharing not in ("win", "pot"):
        raise ToypokerError(f"--sharing must be win or pot, got {sharing!r}")
    check_file(plot, "--plot")
    seats = tuple(int(c) - 1 for c in team)
    t = collusion_table(spec, seats, sharing=sharing, method=method, iterations=iterations)
    if plot:
        _plot(t, plot)
    if json_:
        print_json(t.to_json_dict())
        return
    n = len(next(iter(t.payoffs.values())))
    names = "".join(chr(65 + p) for p in t.team)
    tab = Table(
        title=f"Collusion payoffs, {t.spec}, team {names} ({t.sharing} sharing), "
        f"averaged over {n} seat rotations; {t.method} x {t.iterations}",
        title_justify="left",
    )
    tab.add_column("player")
    for strength in ("strong", "weak"):
        for c in SCENARIOS:
            tab.add_column(f"{strength}\n{c}", justify="right")
    for p in range(n):
        role = "team" if p in t.team else "out"
        tab.add_row(
            f"{chr(65 + p)} ({role})",
            *(f"{t.payoffs[(s, c)][p]:+.5f}" for s in ("strong", "weak") for c in SCENARIOS),
        )
    out.print(tab)
    nc = t.nash_conv
    out.print(
        f"NashConv of the equilibria used: no collusion {nc['none']:.2g}, "
        f"strong {nc['strong']:.2g}, weak {nc['weak']:.2g} (largest over placements)"
    )
    if plot:
        out.print(f"bar chart written to {plot}")


app.command("table7")(table7)
