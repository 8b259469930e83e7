"""Table 7 of Ullman (2015) on the report's page (:mod:`toypoker.report.figures`'s
``fig-ullman2015-collusion`` item): the collusion command's payoffs read per strength,
the team-optimal brackets (strong from the evaluation, weak from the TMECor brackets
stored with the package), the bars drawn, the table and its notes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from toypoker.collusion.brackets import SHIPPED, stored_weak_brackets
from toypoker.collusion.table7 import rotated_brackets
from toypoker.games.team_transform import seat_digits
from toypoker.literature.figures_ullman import collusion_bars
from toypoker.report.model import RunContext, Table


def table7_ours(data: dict, scen: Sequence[str]) -> dict[str, dict[str, list[float]]]:
    """The collusion command's payoffs per hand: ``{strength: {player: per scenario}}``."""
    ours: dict[str, dict[str, list[float]]] = {"strong": {}, "weak": {}}
    for block in data["payoffs"]:
        for p, v in enumerate(block["payoffs"]):
            ours[block["collusion"]].setdefault(chr(65 + p), [0.0] * len(scen))
            k = [s.lower() for s in scen].index(block["scenario"])
            ours[block["collusion"]][chr(65 + p)][k] = float(v)
    return ours


def table7_optimal(
    data: dict, spec: str
) -> tuple[dict[str, dict[str, tuple[float, float]] | None], list]:
    """The team-optimal brackets per player (Public only) of each strength -- strong from
    the evaluation's brackets, weak from the stored TMECor brackets (every placement
    needed: the cells average over the seat rotations), ``None`` where missing -- and
    the stored weak rows."""
    bracket = data.get("team_values_payoffs")
    optimal: dict[str, dict[str, tuple[float, float]] | None] = {"strong": None, "weak": None}
    if bracket is not None:
        pairs = zip(bracket["low"], bracket["high"], strict=True)
        optimal["strong"] = {chr(65 + p): (lo, hi) for p, (lo, hi) in enumerate(pairs)}
    weak_rows = stored_weak_brackets(spec, (1, 2), 3)
    if all(r is not None for r in weak_rows):
        rows = [(r.members, float(r.low), float(r.high)) for r in weak_rows if r]
        optimal["weak"] = {chr(65 + p): b for p, b in enumerate(rotated_brackets(rows, 3))}
    return optimal, weak_rows


def stored_text(weak_rows: list) -> str:
    """The stored weak brackets, one per placement, as the notes say them."""
    return "; ".join(
        f"team {{{seat_digits(r.members)}}} "
        + (f"{float(r.low):+.6f} (exact)" if r.exact
           else f"[{float(r.low):+.6f}, {float(r.high):+.6f}]")
        + f" ({r.how})"
        for r in weak_rows if r is not None
    )  # fmt: skip


def table7_bars(
    ctx: RunContext,
    ours: dict[str, dict[str, list[float]]],
    optimal: dict[str, dict[str, tuple[float, float]] | None],
    printed: dict[str, dict[str, list[float]]],
    scen: Sequence[str],
    game: str,
) -> None:
    """``table7_strong.png`` and ``table7_weak.png``: printed, Nash and team-optimal."""
    for strength in ("strong", "weak"):
        opt = optimal[strength]
        sources: dict[str, dict[str, list[float]]] = {
            "printed": printed[strength],
            "3-player Nash": ours[strength],
        }
        if opt is not None:  # Public only: the other scenarios have no team-optimal bar
            sources["team-optimal"] = {
                p: [(lo + hi) / 2, math.nan, math.nan] for p, (lo, hi) in opt.items()
            }
        left = "" if opt else "; team-optimal not computed"
        collusion_bars(
            sources,
            ctx.folder / f"table7_{strength}.png",
            scenarios=scen,
            title=f"Table 7, {strength} collusion by B and C ({game}){left}",
        )


def table7_table(data: dict, cells: list[tuple[str, ...]]) -> Table:
    """Table 7 as the report shows it, the equilibria's NashConv in its title."""
    nc = data["nash_conv"]
    return Table(
        f"Table 7: payoffs per hand, printed, the three-player Nash and the team-optimal "
        f"({data['spec']}, team BC, {data['how']}; NashConv of the equilibria used: "
        f"none {nc['none']:.2g}, strong {nc['strong']:.2g}, weak {nc['weak']:.2g})",
        (
            "collusion",
            "scenario",
            "printed A",
            "printed B",
            "printed C",
            "Nash A",
            "Nash B",
            "Nash C",
            "team-optimal A",
            "team-optimal B",
            "team-optimal C",
        ),  # fmt: skip
        tuple(cells),
    )


def table7_notes(tmecor: str, stored_text: str, weak_complete: bool) -> str:
    """The notes under Table 7: the team, the team-optimal values and where the weak
    ones come from (``tmecor``: the game of the command that made them)."""
    return (
        "The team is B and C: the rows the printed table shows equal under win sharing "
        "(its caption says A and B). Payoffs are averaged over the seat rotations. "
        "Team-optimal (Public: the team plays its optimal plan, the outsider "
        "best-responds): strong collusion is the merged team's value, bracketed "
        "[team's guarantee, team's best response] by the stored equilibrium (exact value "
        "inside). Weak collusion's team-optimal value (TMECor) is read from the brackets "
        f"stored with the package ({SHIPPED}, made by `toypoker collusion tmecor "
        f'"{tmecor}" --team 23 ... --save FILE` or `benchmarks/run_tmecor_large.py` for '
        "each placement, the commands kept in the file; a bar shows a bracket's "
        "midpoint): per placement, "
        + (stored_text or "none stored")
        + ("" if weak_complete else "; the weak cells need every placement")
        + "."
    )
