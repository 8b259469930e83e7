"""Which of Ullman's (2015) runs gives each bet-percentage table its printed digits.

His fictitious play (:func:`toypoker.solvers.ullman.run_ullman`, his code's loop,
reproducing his output files to 1e-12) stops at the first iteration whose answered
profile has largest gain below ``eps``.  One pass of that loop per game covers every
``eps`` at once: after each iteration we note the gain (so the iteration a run at any
``eps`` would stop at) and the percentage of every printed cell in the profile it
returns.  A table row is ``verified`` when his code's run (the ``eps`` of his output
files, :data:`toypoker.literature.papers.ullman2015.CODE_RUNS`) gives every cell to
the printed digits; the detail names the other stops tried and the iterations of the
pass at which every cell matches (none for Table 1).

The 3P-MMH tables are compared with his own runs' output files instead (his fictitious
play there is not re-run: ``benchmarks/results/peers.md`` times one iteration): the
repository keeps 3P-MMH runs at eps 0.1 only (``run.sh``; no collusion 185 iterations),
and Tables 4-6 and 8 are those runs' bet percentages, the cells printed 100 being 99.7 %
in his files (fictitious play keeps every action at >= 1/(2(t+1)), 0.27 % after 185
iterations).  Table 7 is not: his eps-0.1 collusion runs, averaged over the seat
rotations as the table is, give other numbers; the runs the text describes (eps 0.01, up
to 8500 iterations) are not in the repository.  Tree sizes: his ``.out`` files open with
the node count of his tree (footnote 5, Sec. 3.4).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from toypoker.game import Game
from toypoker.literature.claims.base import Claim, Context, Row
from toypoker.literature.claims.ullman2015_cells import decision, digits, table_cells
from toypoker.literature.papers import ullman2015
from toypoker.solvers.solver import Solver

#: the stopping eps tried per game (his code's run among them) and the pass's length
#: (past the smallest eps's stop: 2P-SMH at 1e-4 stops after 8406 iterations)
PASSES: dict[str, tuple[tuple[float, ...], int]] = {
    "2P-SMH": ((0.1, 0.01, 0.001, 0.0001), 8500),
    "2P-MMH": ((0.1, 0.03, 0.01), 2500),
}
#: the tables of chapters 4-5 that his runs on the two-player games print
TABLES = (
    ("2P-SMH", ullman2015.TABLE1),
    ("2P-MMH", ullman2015.TABLE2),
    ("2P-MMH", ullman2015.TABLE3),
)


@dataclass(frozen=True)
class _Pass:
    """One pass of his fictitious play: per ``eps`` the stop and, per table, the cells
    matched there; per table the iterations at which every cell matches."""

    stops: dict[float, int]
    matched: dict[tuple[str, float], int]
    values: dict[tuple[str, float], list[float]]
    whole: dict[str, list[int]]
    cells: dict[str, int]
    iterations: int


def _scan(game: Game, name: str) -> _Pass:
    epss, length = PASSES[name]
    tables = [t for g, t in TABLES if g == name]
    # per table: the cells' (offset, fold index) and printed percentage with tolerance
    where: dict[str, list[tuple[int, int, float, float]]] = {}
    for t in tables:
        where[t.name] = []
        for _row, _col, player, hand, hist, pct in table_cells(t):
            at = decision(game, player, hand, hist)
            assert at is not None and at[2] is not None, (t.name, hand, hist)
            where[t.name].append((at[0], at[2], pct, max(digits(pct), 0.05)))
    solver = Solver(game, "fp", ullman=True)
    stops: dict[float, int] = {}
    matched: dict[tuple[str, float], int] = {}
    values: dict[tuple[str, float], list[float]] = {}
    whole: dict[str, list[int]] = {t.name: [] for t in tables}
    for it in range(1, length + 1):
        solver.step(1)
        sigma = np.asarray(solver.state.sigma, dtype=float)
        gain = float(solver.state.gain)
        for t in tables:
            bets = [float(100 * (1 - sigma[o + k])) for o, k, _pct, _tol in where[t.name]]
            ok = sum(abs(b - c[2]) <= c[3] for b, c in zip(bets, where[t.name], strict=True))
            if ok == len(where[t.name]):
                whole[t.name].append(it)
            for e in epss:
                if e not in stops and gain < e:
                    matched[(t.name, e)] = ok
                    values[(t.name, e)] = bets
        for e in epss:
            if e not in stops and gain < e:
                stops[e] = it
    cells = {name: len(w) for name, w in where.items()}
    return _Pass(stops, matched, values, whole, cells, length)


def _spans(its: list[int]) -> str:
    """``[3, 4, 5, 9]`` -> ``"3-5, 9"``."""
    out: list[str] = []
    for i in its:
        if out and int(out[-1].split("-")[-1]) == i - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{i}"
        else:
            out.append(str(i))
    return ", ".join(out) if len(out) <= 6 else ", ".join(out[:6]) + f", ... ({len(its)} in all)"


def _runs(c: Claim, ctx: Context) -> Iterator[Row]:
    passes: dict[str, _Pass] = {}
    for name, table in TABLES:
        game = ctx.game(ullman2015.SPEC[name])
        if name not in passes:
            passes[name] = _scan(game, name)
        p = passes[name]
        code = next(r for r in ullman2015.CODE_RUNS if r.game == name)
        n = p.cells[table.name]
        got = p.matched.get((table.name, code.eps))
        stop = p.stops.get(code.eps)
        others = "; ".join(
            f"eps {e:g} ({p.stops[e]} it.) {p.matched[(table.name, e)]}/{n}"
            if e in p.stops
            else f"eps {e:g} not reached in {p.iterations} it."
            for e in PASSES[name][0]
            if e != code.eps
        )
        whole = p.whole[table.name]
        window = (
            f"every cell matches at iterations {_spans(whole)} of {p.iterations}"
            if whole
            else f"no iteration of the first {p.iterations} gives every cell"
        )
        ok = got == n and stop == code.iterations
        off = [
            f"{row} {col}: printed {pct:g}%, his {b:.1f}%"
            for (row, col, *_rest, pct), b in zip(
                table_cells(table), p.values.get((table.name, code.eps), []), strict=False
            )
            if abs(b - pct) > max(digits(pct), 0.05)
        ]
        if off:
            window += (
                f"; at his stop {'; '.join(off)} -- the table is not his fictitious play's "
                "output (ullman-2p-smh-profile: the printed profile is an equilibrium to "
                "rounding)"
                if table is ullman2015.TABLE1
                else f"; at his stop {'; '.join(off)}"
            )
        yield Row(
            c.id,
            c.source,
            f"{table.name} ({name}): his run at eps {code.eps:g}, {code.iterations} iterations",
            "verified" if ok else "disagrees",
            f"{got}/{n} cells to the printed digits at his stop (iteration {stop}); other "
            f"stops: {others}; {window}",
            {"cells": n, "matched": got, "stop": stop, "whole": whole[:50]},
        )


def _mmh_tables(c: Claim, _ctx: Context) -> Iterator[Row]:
    floor = 100 * (1 - 1 / (2 * (ullman2015.MMH3_NO_COLLUSION_ITERATIONS + 1)))
    for table in (ullman2015.TABLE4, ullman2015.TABLE5, ullman2015.TABLE6, ullman2015.TABLE8):
        his = ullman2015.MMH3_RUN_BETS[table.name]
        same = always = 0
        off: list[str] = []
        for row, printed in table.rows.items():
            for col, pct, theirs in zip(table.columns, printed, his[row], strict=True):
                if pct == 100 and round(floor, 1) <= theirs < 100:
                    always += 1  # printed without a decimal, unlike the other cells
                elif abs(theirs - pct) <= digits(pct):
                    same += 1
                else:
                    off.append(f"{row} {col}: printed {pct:g}%, his run {theirs:g}%")
        n = same + always + len(off)
        runs = f"no collusion {ullman2015.MMH3_NO_COLLUSION_ITERATIONS} iterations"
        if table is ullman2015.TABLE8:
            wc = next(r for r in ullman2015.MMH3_COLLUSION_RUNS
                      if r.strength == "weak" and r.team == "12")  # fmt: skip
            runs += f"; weak collusion of seats 1, 2: {wc.iterations}"
        yield Row(
            c.id,
            c.source,
            f"{table.name} (3P-MMH): his runs at eps {ullman2015.MMH3_CODE_EPS:g} ({runs})",
            "disagrees" if off else "verified",
            f"{same}/{n} cells equal his run's to the printed digit"
            + (f"; {always} printed '100' (no decimal, unlike the rest) are his "
               f"{round(floor, 1):g}% (fictitious play keeps fold at >= 1/(2(t+1)): "
               "'always bet')" if always else "")
            + (f"; {'; '.join(off)}" if off else "")
            + "; not the 0.01-equilibrium (3600 iterations) of Sec. 3.4",
            {"cells": n, "same": same, "always": always},
        )  # fmt: skip


def _mmh_table7(c: Claim, _ctx: Context) -> Iterator[Row]:
    # Table 7's players A, B, C: the team is B and C, the dealer rotates; his run of
    # team "23" has A at seat 1, of "13" at seat 2, of "12" at seat 3 (1-based)
    shift = {"23": 0, "13": 1, "12": 2}
    avg: dict[tuple[str, int, int], float] = {}
    for r in ullman2015.MMH3_COLLUSION_RUNS:
        for k, vals in enumerate((r.public, r.private, r.suspicious)):
            for p in range(3):
                key = (r.strength, k, p)
                avg[key] = avg.get(key, 0.0) + vals[(p + shift[r.team]) % 3] / 3
    cells, same, worst = [], 0, 0.0
    for strength, printed, factor in (
        ("strong", ullman2015.TABLE7_STRONG, 1.0),
        ("weak", ullman2015.TABLE7_WEAK_PRINTED, ullman2015.TABLE7_WEAK_FACTOR),
    ):
        for k, scenario in enumerate(ullman2015.TABLE7_SCENARIOS):
            for p, name in enumerate("ABC"):
                v, want = avg[(strength, k, p)], printed[name][k] * factor
                same += int(abs(v - want) <= digits(printed[name][k]) * factor)
                worst = max(worst, abs(v - want))
                if (k, p) == (0, 0):
                    cells.append(f"{strength} {scenario} A: his {v:+.4f}, printed {want:+.4g}")
    its = ", ".join(f"{r.strength} {r.team} {r.iterations}" for r in ullman2015.MMH3_COLLUSION_RUNS)
    yield Row(
        c.id,
        c.source,
        f"Table 7 (3P-MMH): his collusion runs at eps {ullman2015.MMH3_CODE_EPS:g}",
        "verified" if same == 18 else "disagrees",
        f"{same}/18 cells to the printed digits, averaged over the rotations as the table "
        f"is (largest gap {worst:.3f}, beyond the stated error "
        f"{ullman2015.TABLE7_ERROR}): {'; '.join(cells)}; iterations {its}; the runs the "
        "text describes (eps 0.01, up to 8500 iterations) are not in his repository",
        {"same": same, "largest_gap": worst},
    )


def _tree_sizes(c: Claim, _ctx: Context) -> Iterator[Row]:
    nodes = ullman2015.CODE_TREE_NODES
    about = ullman2015.RUN_FIGURES["2P-SMH nodes (about)"][0]
    yield Row(
        c.id,
        c.source,
        f"2P-SMH tree: about {about:g} nodes (footnote 5)",
        "verified"
        if round(math.log10(nodes["2P-SMH"])) == round(math.log10(about))
        else "disagrees",
        f"his code builds {nodes['2P-SMH']:,} nodes (output/smh2p/smh2p.out, first line)",
        {"nodes": nodes["2P-SMH"]},
    )
    largest = max(nodes.values())
    yield Row(
        c.id,
        c.source,
        "every variant at most 10^9 nodes (footnote 5)",
        "verified" if largest <= 10**9 else "disagrees",
        "his trees: " + ", ".join(f"{g} {n:,}" for g, n in nodes.items()),
        {"nodes": dict(nodes)},
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "ullman-runs",
        "Ullman (2015), Tables 1-3; poker-nasheq output (eps, iterations)",
        "each two-player bet table is his fictitious play's output at his code's run "
        "(2P-SMH eps 0.001, 704 iterations; 2P-MMH eps 0.01, 1901 iterations)",
        _runs,
    ),
    Claim(
        "ullman-mmh-runs",
        "Ullman (2015), Tables 4-8; poker-nasheq output/mmh3p and run.sh",
        "the 3P-MMH tables are his runs' output (Sec. 3.4: 0.01-equilibria, 3600 "
        "iterations, 8500 under collusion)",
        _mmh_tables,
    ),
    Claim(
        "ullman-mmh-table7-runs",
        "Ullman (2015), Table 7; poker-nasheq output/mmh3p/{sc,wc}",
        "Table 7 is his 3P-MMH collusion runs averaged over the seat rotations",
        _mmh_table7,
    ),
    Claim(
        "ullman-tree-sizes",
        "Ullman (2015), footnote 5; poker-nasheq output/*/.out",
        "2P-SMH has approximately 10^4 nodes; every variant at most 10^9",
        _tree_sizes,
    ),
)

__all__ = ["CLAIMS", "PASSES", "TABLES"]
