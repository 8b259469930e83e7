"""Table 7 as ``toypoker collusion table7`` prints it: one table per strength, Ullman's
printed values beside ours where the table is his."""

from __future__ import annotations

from rich.table import Table

from toypoker.cli.common import seat_names
from toypoker.collusion import SCENARIOS, STRENGTHS, CollusionTable
from toypoker.collusion.table7 import STRONG_MERGED
from toypoker.games import canonical_spec


def _printed(spec: str, team: tuple[int, ...], sharing: str) -> dict[str, dict[str, tuple]] | None:
    """Ullman's printed Table 7 (per strength, player: Public, Private, Suspicious) when
    the table is his (3P-MMH, team B, C = seats 2, 3, win sharing), else ``None``."""
    from toypoker.literature.papers import ullman2015

    if canonical_spec(spec) != canonical_spec(ullman2015.SPEC["3P-MMH"]):
        return None
    if team != (1, 2) or sharing != "win":
        return None
    weak = {p: tuple(x * ullman2015.TABLE7_WEAK_FACTOR for x in v)
            for p, v in ullman2015.TABLE7_WEAK_PRINTED.items()}  # fmt: skip
    return {"strong": dict(ullman2015.TABLE7_STRONG), "weak": weak}


def table7_tables(t: CollusionTable) -> list[Table]:
    """One table per strength, three columns per scenario where known: Ullman's printed
    value, the three-player Nash payoff, the team-optimal payoff (Public only; a
    bracket ``[lo, hi]`` when the TMECor did not close)."""
    n = len(next(iter(t.payoffs.values())))
    names = seat_names(t.team)
    printed = _printed(t.spec, t.team, t.sharing)
    tables = []
    for strength in STRENGTHS:
        optimal = t.team_optimal_payoffs(strength)
        closed = all(r.exact for r in t.team_optimal if r.strength == strength)
        note = None
        if optimal is not None and t.sharing != "win":
            note = ("team-optimal: the team's value split equally between its members "
                    "(with pot sharing a member's own payoff may differ); the outsider "
                    "gets minus the team's value")  # fmt: skip
        how = t.how if strength == "strong" else t.how.replace(STRONG_MERGED, "")
        tab = Table(
            title=f"{strength.capitalize()} collusion payoffs, {t.spec}, team {names} "
            f"({t.sharing} sharing), averaged over {n} seat rotations; {how}",
            title_justify="left",
            caption=note,
            caption_justify="left",
        )
        tab.add_column("player")
        for c in SCENARIOS:
            if printed is not None:
                tab.add_column(f"{c}\nUllman", justify="right")
            tab.add_column(f"{c}\nNash", justify="right")
            if c == "public" and optimal is not None:
                tab.add_column(f"{c}\nteam-optimal", justify="right")
        for p in range(n):
            role = "team" if p in t.team else "out"
            cells = []
            for k, c in enumerate(SCENARIOS):
                if printed is not None:
                    cells.append(f"{printed[strength][chr(65 + p)][k]:+.5f}")
                cells.append(f"{t.payoffs[(strength, c)][p]:+.5f}")
                if c == "public" and optimal is not None:
                    lo, hi = optimal[p]
                    cells.append(f"{lo:+.5f}" if closed else f"[{lo:+.5f}, {hi:+.5f}]")
            tab.add_row(f"P{p + 1} ({role})", *cells)
        tables.append(tab)
    return tables
