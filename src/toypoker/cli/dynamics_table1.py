"""The runs and the table of ``toypoker dynamics table1`` (:mod:`toypoker.cli.dynamics`)."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from toypoker.cli.common import Bar, interrupted, out, resume_hint
from toypoker.dynamics.table1 import Table1Comparison
from toypoker.dynamics.table1 import table1 as compare_table1


def table1_runs(
    P: float, k_list: list[float], L_list: list[int], rounds: int, seeds: int, seed: int,
    workers: int, estimator: str, clip: bool, runs_dir: Path,
) -> Table1Comparison:  # fmt: skip
    """``dynamics table1``'s runs under a progress bar, each kept in ``runs_dir`` as it
    ends.  A Ctrl-C or SIGTERM: the line says how many runs are kept and how to resume."""
    total = len(k_list) * len(L_list) * seeds
    with Bar("repeated play", total) as bar:
        try:
            return compare_table1(
                P,
                tuple(k_list),
                tuple(L_list),
                rounds,
                seeds=seeds,
                seed=seed,
                workers=workers,
                estimator=estimator,
                clip=clip,
                progress=lambda: bar.update(advance=1),
                checkpoint=runs_dir,
            )
        except KeyboardInterrupt:
            saved = len(list(runs_dir.glob("run-*.npz")))
            raise interrupted(
                f"{saved} finished run(s) kept in {runs_dir}",
                resume_hint(drop=("--checkpoint",), add=("--checkpoint", str(runs_dir))),
            ) from None


def print_table1(cmp: Table1Comparison, P: float, rounds: int, seeds: int) -> None:
    """Print Table 1: our expectations beside the published ones, and the reading."""
    t = Table(
        title=f"Table 1: ex-showdown expectations, P = {P:g}, {rounds:,} rounds x {seeds} "
        "seed(s) per row",
        title_justify="left",
        caption="|diff|/error: distance to the published value in Monte Carlo standard errors",
        caption_justify="left",
    )
    for c in ["L", "k", "player", "ours +- MC error", "published", "|diff|/error"]:
        t.add_column(c, justify="right")
    for row in cmp.rows:
        for p in range(3):
            pub = "-" if row.published is None else f"{row.published[p]:+.3f}"
            z = "-" if row.z is None else f"{abs(row.z[p]):.1f}"
            t.add_row(
                str(row.L) if p == 0 else "",
                f"{row.k:g}" if p == 0 else "",
                f"P{p + 1}",
                f"{row.ours[p]:+.4f} +- {row.se[p]:.4f}",
                pub,
                z,
            )
    out.print(t)
    out.print(cmp.reading)
