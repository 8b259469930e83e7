"""The report's figure items: each runs the command that draws it -- ``toypoker
trace``, ``dynamics ...``, ``compare``, ``collusion table7`` -- with ``--json``
and its output folder inside the report, through the command runner the report
is handed (:attr:`~toypoker.report.model.RunContext.run_command`), so the
command shown recreates exactly those files; the Ullman heatmaps and collusion
bars are drawn by :mod:`toypoker.literature.figures_ullman` from the claims' rows
and the ``collusion table7`` numbers.  ``quick`` swaps in coarser grids and fewer
rounds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
from collections.abc import Callable, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable

from toypoker.collusion.brackets import SHIPPED
from toypoker.io import atomic_write_text
from toypoker.literature.claims import Row
from toypoker.literature.figures_ullman import bet_heatmap
from toypoker.literature.papers import ullman2015
from toypoker.report.catalogue import SLOW_CLAIMS, command_line, folder_of, item_key
from toypoker.report.model import ItemOutput, RunContext, Table, Task
from toypoker.report.table7 import (
    stored_text,
    table7_bars,
    table7_notes,
    table7_optimal,
    table7_ours,
    table7_table,
)
from toypoker.solvers.registry import iterative_methods


def _signed(x: float, digits: int = 4) -> str:
    """``x`` with its sign and ``digits`` decimals; ``-`` for a missing number."""
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:+.{digits}f}"


FOLDER = "{folder}"  # stands for the item's folder in an argv template


def _cli_task(
    item: str,
    paper: str,
    title: str,
    argv: Sequence[str],
    collect: Callable[[dict, RunContext], ItemOutput],
    inputs: Sequence[Traversable] = (),
) -> Task:
    """A figure item that runs ``toypoker ARGV`` (``{folder}`` = the item's folder);
    ``compare``, ``trace`` and ``dynamics table1`` show their own progress bars.

    ``inputs``: files shipped with the package that the command reads, copied into the
    item's folder before it runs (``ARGV`` names them ``{folder}/NAME``), so the command
    shown names no install path and can be pasted in the report's folder; the cache key
    holds their digests, not their place."""

    def shown(folder: str) -> list[str]:
        return [a.replace(FOLDER, folder) for a in argv]

    def run(ctx: RunContext) -> ItemOutput:
        for source in inputs:
            (ctx.folder / source.name).write_bytes(source.read_bytes())
        data = ctx.run_command(shown(str(ctx.folder)))
        data_text = json.dumps(data, indent=1) + "\n"
        atomic_write_text(ctx.folder / "output.json", data_text)
        got = collect(data, ctx)
        return dataclasses.replace(got, files=("output.json", *got.files))

    digests = [f"{s.name} sha256:{hashlib.sha256(s.read_bytes()).hexdigest()}" for s in inputs]
    key = item_key(command_line(shown("FOLDER")), *digests)
    own = argv[0] in ("compare", "trace") or list(argv[:2]) == ["dynamics", "table1"]
    cmd = command_line(shown(folder_of(item, key)))
    return Task(item, paper, "figure", title, cmd, key, run, own_progress=own)


def _images(ctx: RunContext, pairs: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The pairs whose file exists (a command may skip a figure, e.g. no S3 below P*)."""
    return tuple((f, c) for f, c in pairs if (ctx.folder / f).exists())


def _compare(paper: str, spec: str, quick: bool) -> Task:
    seconds = "0.5" if quick else "4"
    methods = "cfr,cfr+,pdcfr+,fp,es-mccfr" if quick else ",".join(iterative_methods())
    # --result: a stopped run's finished methods stay in the item's folder, not the cwd
    # (--overwrite: a rerun of the item replaces what a stopped one left there)
    argv = ["compare", spec, "--methods", methods, "--seconds", seconds, "--seed", "0",
            "--plot", f"{FOLDER}/convergence.png", "--result", f"{FOLDER}/compare.json",
            "--overwrite", "--json"]  # fmt: skip

    def collect(data: dict, ctx: RunContext) -> ItemOutput:
        rows = tuple(
            (
                m["method"],
                str(m["iterations"]),
                f"{m['nash_conv']:.3g}",
                "-" if m["seconds_to_target"] is None else f"{m['seconds_to_target']:.3g} s",
            )
            for m in data["methods"]
        )
        table = Table(
            f"{spec}: {seconds} s per method (time-based: the curves vary with the machine)",
            ("method", "iterations", "final NashConv", "time to NashConv 1e-3"),
            rows,
        )
        cap = f"NashConv against time, {spec} (log-log), every solver for {seconds} s"
        return ItemOutput(images=_images(ctx, [("convergence.png", cap)]), tables=(table,))

    return _cli_task(
        f"fig-{paper}-convergence",
        paper,
        f"Convergence of the solvers on {spec}",
        argv,
        collect,
    )


def _ode(quick: bool) -> Task:
    grid = "7" if quick else "15"
    argv = ["dynamics", "ode", "--pot", "9", "--basins-grid", grid, "--out-dir", FOLDER, "--json"]

    def collect(data: dict, ctx: RunContext) -> ItemOutput:
        fixed = tuple(
            (
                f["name"],
                ", ".join(f"{v:.4f}" for v in f["point"]),
                ", ".join(f"{a:.4f}{b:+.4f}i" for a, b in f["eigenvalues"]),
                f["kind"],
            )
            for f in data["fixed_points"]
        )
        lc = data["limit_cycle"]
        notes = (
            f"From (0.25, 0.2, 0.25): attracted to {data['basin']}; limit cycle "
            + (
                f"period {lc['period']:.3f}"
                if lc["converged"]
                else "not converged in the integration time"
            )
            + (
                f"; basins over a {grid} x {grid} grid: {data['basin_grid']['S1']} -> S1, "
                f"{data['basin_grid']['S2']} -> S2"
                if data.get("basin_grid")
                else ""
            )
            + "."
        )
        imgs = _images(
            ctx,
            [
                ("fig7_limit_cycles.png", "Fig. 7: nested limit cycles in the plane c_K = 0"),
                ("fig8_stable_manifold.png", "Fig. 8: the stable manifold of S3 (the separatrix)"),
                ("fig9_solution.png", "Fig. 9: a solution of the ODE (18)-(23)"),
                ("fig10_expectations.png", "Fig. 10: its expectation integrals (24)-(26)"),
                ("basins.png", f"Basins of attraction over a {grid} x {grid} grid of (c_K, d_Q)"),
            ],
        )
        table = Table(
            "Fixed points of the ODE (18)-(23), P = 9",
            ("point", "(b_J, c_K, d_Q)", "eigenvalues", "manifolds"),
            fixed,
        )
        return ItemOutput(images=imgs, tables=(table,), files=("ode.csv",), notes=notes)

    return _cli_task(
        "fig-billingham-ode",
        "billingham",
        "The adaptation ODE at P = 9: fixed points, limit cycles, basins (Figs. 7-10)",
        argv,
        collect,
    )


def _play(quick: bool) -> Task:
    rounds = "1100000" if quick else "11000000"
    argv = ["dynamics", "play", "--pot", "9", "--k", "0.001", "--L", "24", "--rounds", rounds,
            "--seed", "0", "--out-dir", FOLDER, "--json"]  # fmt: skip

    def collect(data: dict, ctx: RunContext) -> ItemOutput:
        table = Table(
            f"Realised ex-showdown expectations, {int(rounds):,} rounds (k = 0.001, L = 24)",
            ("player", "expectation", "Monte Carlo error"),
            tuple(
                (f"P{p + 1}", _signed(e), f"{s:.4f}")
                for p, (e, s) in enumerate(
                    zip(data["expectation"], data["standard_error"], strict=True)
                )
            ),
        )
        cap = "Figs. 11-15: frequencies (b, c, d) against rounds of repeated play; dashed: S3"
        return ItemOutput(
            images=_images(ctx, [("play.png", cap)]), tables=(table,), files=("play.csv",)
        )

    return _cli_task(
        "fig-billingham-play",
        "billingham",
        "Repeated play with estimators (eqs. 27-29, 44-47)",
        argv,
        collect,
    )


def _table1(quick: bool) -> Task:
    rounds, seeds = ("1100000", "1") if quick else ("5500000", "4")
    argv = ["dynamics", "table1", "--rounds", rounds, "--seeds", seeds, "--workers", "2",
            "--seed", "0", "--out-dir", FOLDER, "--csv", f"{FOLDER}/table1.csv",
            "--json"]  # fmt: skip
    source = "Billingham, App. D, Table 1"

    def collect(data: dict, ctx: RunContext) -> ItemOutput:
        rows, cells = [], []
        for r in data["rows"]:
            for p in range(3):
                pub = None if r["published"] is None else r["published"][p]
                z = None if r["z"] is None else abs(r["z"][p])
                cells.append(
                    (
                        str(r["L"]),
                        f"{r['k']:g}",
                        f"P{p + 1}",
                        f"{_signed(r['ours'][p])} +- {r['se'][p]:.4f}",
                        "-" if pub is None else f"{pub:+.3f}",
                        "-" if z is None else f"{z:.1f}",
                    )
                )
                if pub is None:
                    continue
                diff = r["ours"][p] - pub
                ok = abs(diff) <= 0.005
                rows.append(
                    Row(
                        "fig-billingham-table1",
                        source,
                        f"L={r['L']}, k={r['k']:g}, P{p + 1}: printed {pub:+.3f}",
                        "verified" if ok else "disagrees",
                        f"ours {r['ours'][p]:+.4f} +- {r['se'][p]:.4f} (Monte Carlo), "
                        f"difference {diff:+.4f} (tolerance 0.005: the printed 3 decimals)",
                        {"ours": r["ours"][p], "se": r["se"][p]},
                    )
                )
        table = Table(
            f"Table 1: ex-showdown expectations at P = 9, {int(rounds):,} rounds x {seeds} "
            "seed(s) per row; |diff|/error in Monte Carlo standard errors",
            ("L", "k", "player", "ours +- error", "printed", "|diff|/error"),
            tuple(cells),
        )
        imgs = _images(
            ctx,
            [
                ("play_k0.001.png", "Frequencies in the runs of Table 1, k = 0.001, each L"),
                ("play_k0.01.png", "Frequencies in the runs of Table 1, k = 0.01, each L"),
            ],
        )
        return ItemOutput(
            rows=tuple(rows), images=imgs, tables=(table,), files=("table1.csv",),
            notes=str(data.get("reading", "")),
        )  # fmt: skip

    return _cli_task(
        "fig-billingham-table1",
        "billingham",
        "Table 1: repeated play near S3 against the printed expectations (corrected eq. 46)",
        argv,
        collect,
    )


def _estimators(quick: bool) -> Task:
    rounds = "300000" if quick else "1100000"
    argv = ["dynamics", "estimators", "--pot", "9", "--rounds", rounds, "--out-dir", FOLDER,
            "--json"]  # fmt: skip

    def collect(data: dict, ctx: RunContext) -> ItemOutput:
        names = data["names"]
        rows = [
            (str(L), *(f"{m:.4f} +- {s:.3f}" for m, s in zip(ms, ss, strict=True)))
            for L, ms, ss in zip(data["L"], data["means"], data["stds"], strict=True)
        ]
        rows.append(("true", *(f"{x:.4f}" for x in data["truth"])))
        rows.append(("limit L -> oo", *(f"{x:.4f}" for x in data["limits"])))
        table = Table(
            f"Estimators at fixed Solution 3 frequencies, P = 9, {int(rounds):,} rounds each",
            ("L", *names),
            tuple(rows),
        )
        imgs = _images(
            ctx,
            [
                ("fig16_estimator_means.png", "Fig. 16: estimator means against L"),
                ("fig17_estimator_stds.png", "Fig. 17: estimator standard deviations against L"),
                (
                    "fig16_both_estimators.png",
                    "Fig. 16 redrawn with eq. (46) as printed and corrected",
                ),
            ],
        )
        return ItemOutput(images=imgs, tables=(table,))

    return _cli_task(
        "fig-billingham-estimators",
        "billingham",
        "The estimators (44)-(47) against the memory L (Figs. 16-17)",
        argv,
        collect,
    )


def _trace(cards: int, quick: bool, gif: bool = False) -> Task:
    spec = f"kuhn(players=3,cards={cards})"
    # --overwrite: a rerun of the item replaces the curve a stopped one left there
    argv = ["trace", spec, "--pot", "0.5:20", "--at", "3", "--gif" if gif else "--no-gif",
            "--out-dir", FOLDER, "--overwrite", "--json"]  # fmt: skip

    def collect(data: dict, ctx: RunContext) -> ItemOutput:
        multi = tuple(
            (f"({m['from']:.6g}, {m['to']:.6g})", str(m["distinct"]), str(m["unpolished"]))
            for m in data["multiplicity"]
            if m["distinct"] > 1 or m["unpolished"] > 0
        )
        eqs = tuple(
            (
                str(k + 1),
                ", ".join(_signed(x) for x in e["expectations"]),
                f"{e['nash_conv']:.2g}",
                "yes" if e["certified"] else "no",
            )  # fmt: skip
            for block in data["equilibria"]
            for k, e in enumerate(block["list"])
        )
        tables = (
            Table(
                f"Where the branch holds several equilibria (eps = {data['eps']:g}; up to "
                f"{data['max_equilibria']})",
                ("P in", "distinct equilibria", "unpolished crossings"),
                multi,
            ),
            Table(
                "The equilibria at P = 3, polished onto their support and certified",
                ("#", "expectations (E1, E2, E3)", "NashConv", "certified"),
                eqs,
            ),
        )
        pairs = [
            ("expectations.png", f"Expectations against P, N = {cards} (Figs. 5, 6, 8)"),
            ("frequencies.png", f"Frequency of the aggressive action against P, N = {cards}"),
            ("ranges_pot3.png", f"Range bars at P = 3 (Fig. 10), N = {cards}"),
            ("multiplicity.png", f"Distinct equilibria on the branch against P, N = {cards}"),
        ]
        if gif:
            pairs.append(("animation.gif", f"The range bars along the curve, N = {cards}"))
        notes = f"{data['points']} points, {data['steps']} steps, {data['reason']}" + (
            "" if data.get("complete", True) else " (the curve stopped early)"
        )
        return ItemOutput(
            images=_images(ctx, pairs), tables=tables,
            files=("curve.csv", "multiplicity.csv"), notes=notes,
        )  # fmt: skip

    return _cli_task(
        f"fig-billingham-ncards-n{cards}",
        "billingham-ncards",
        f"The equilibrium curve in P of three-player Kuhn poker with N = {cards} cards",
        argv,
        collect,
    )


# ------------------------------------------------------------------ Ullman
_HOW = re.compile(r"ours [\d.]+% \((.*?)\)(?:;|$)")


def _heatmap(table: ullman2015.BetTable, claim_id: str, seed: int) -> Task:
    item = f"fig-ullman2015-{claim_id.split('-', 1)[1]}"

    def run(ctx: RunContext) -> ItemOutput:
        by_params = {r.params: r for r in ctx.rows_of(claim_id)}
        ours: dict[str, list[float]] = {}
        how = ""
        for row in table.rows:
            vals = []
            for col in table.columns:
                hand = table.hole or col
                params = f"{table.name} {row} {hand}" + (f" flop {col}" if table.hole else "")
                r = by_params.get(params)
                p = None if r is None else r.exact.get("ours")
                vals.append(math.nan if p is None else 100.0 * float(p))
                m = _HOW.search(r.detail) if r is not None else None
                how = how or (m.group(1) if m else "")
            if not all(math.isnan(v) for v in vals):
                ours[row] = vals
        shown = dataclasses.replace(
            table,
            rows={k: v for k, v in table.rows.items() if k in ours},
            situations={k: v for k, v in table.situations.items() if k in ours},
        )
        bet_heatmap(shown, ctx.folder / "heatmap.png", ours, ours_label="ours")
        cap = f"{table.name} ({table.game}): printed bet percentages beside ours ({how})"
        left = len(table.rows) - len(ours)
        notes = f"{left} printed rows not checked (see the claim)." if left else ""
        return ItemOutput(images=(("heatmap.png", cap),), notes=notes)

    argv = ["literature", "check", "--claim", claim_id, "--seed", str(seed)]
    return Task(
        item,
        "ullman2015",
        "figure",
        f"{table.name} as a heatmap, printed beside ours ({table.source}); our numbers are "
        f"the rows of {claim_id} ({command_line(argv)}), drawn by "
        "toypoker.literature.figures_ullman.bet_heatmap",
        command_line(["reproduce", "--out-dir", item, "--item", item, "--seed", str(seed)]),
        item_key(f"heatmap {table.name} of {command_line(argv)}"),
        run,
    )


def _collusion(quick: bool) -> Task:
    # the equilibria stored with the package (NashConv <= 1e-4, as the literature check
    # uses them): the table is evaluated afresh from them, nothing is solved
    variant = "smh" if quick else "mmh"
    spec = f"mercer(players=3,variant={variant})"
    stored = files("toypoker.literature") / "data" / f"ullman_collusion_3p_{variant}.npz"
    # --no-team-optimal: a fresh merged LP (3P-MMH) and the weak TMECor are out of the
    # report's budget.  The strong team-optimal column is the merged team's value
    # bracketed by the stored equilibrium's two best responses (the evaluation's
    # team_values: no solve); the weak one, the TMECor brackets stored with the package
    # (collusion/brackets.py: computed by `collusion tmecor --save`, exact on 3P-SMH).
    argv = ["collusion", "table7", spec, "--team", "23", "--profiles",
            f"{FOLDER}/{stored.name}", "--plot", f"{FOLDER}/table7_ours.png",
            "--no-team-optimal", "--json"]  # fmt: skip
    scen = ullman2015.TABLE7_SCENARIOS

    def collect(data: dict, ctx: RunContext) -> ItemOutput:
        ours = table7_ours(data, scen)
        weak_printed = {
            p: [x * ullman2015.TABLE7_WEAK_FACTOR for x in v]
            for p, v in ullman2015.TABLE7_WEAK_PRINTED.items()
        }
        optimal, weak_rows = table7_optimal(data, spec)
        game = "3P-SMH, not the paper's 3P-MMH (--quick)" if quick else "3P-MMH"
        printed = {"strong": ullman2015.TABLE7_STRONG, "weak": weak_printed}
        table7_bars(ctx, ours, optimal, printed, scen, game)
        table = table7_table(data, _table7_cells(ours, optimal, printed, scen))
        imgs = _images(
            ctx,
            [
                ("table7_strong.png", "Table 7, strong collusion, as bars: printed, Nash, "
                 "team-optimal (Public)"),
                ("table7_weak.png", "Table 7, weak collusion (printed x 1e-3), as bars, "
                 "with the team-optimal (Public) where every placement is stored"),
                ("table7_ours.png", "Ours, both strengths (the collusion command's chart)"),
            ],
        )  # fmt: skip
        tmecor = "mercer(players=3,variant=smh)" if quick else spec
        notes = table7_notes(tmecor, stored_text(weak_rows), bool(optimal["weak"]))
        return ItemOutput(images=imgs, tables=(table,), notes=notes)

    return _cli_task(
        "fig-ullman2015-collusion",
        "ullman2015",
        "Table 7: the collusion scenarios as bars, printed, three-player Nash and team-optimal",
        argv,
        collect,
        inputs=(stored, files("toypoker.literature") / "data" / SHIPPED),
    )


def _table7_cells(
    ours: dict[str, dict[str, list[float]]],
    optimal: dict[str, dict[str, tuple[float, float]] | None],
    printed: dict[str, dict[str, list[float]]],
    scen: Sequence[str],
) -> list[tuple[str, ...]]:
    """The table's rows: strength, scenario, printed, Nash and team-optimal per player."""
    cells = []
    for strength in ("strong", "weak"):
        opt = optimal[strength]
        for k, s in enumerate(scen):
            if k == 0 and opt is not None:
                team_cells = tuple(
                    f"{opt[p][0]:+.6f} (exact)" if opt[p][0] == opt[p][1]
                    else f"[{opt[p][0]:+.4f}, {opt[p][1]:+.4f}]"
                    for p in "ABC"
                )  # fmt: skip
            elif k == 0:
                team_cells = ("not computed",) * 3
            else:
                team_cells = ("-",) * 3
            cells.append(
                (
                    strength,
                    s,
                    *(f"{printed[strength][p][k]:+.4f}" for p in "ABC"),
                    *(_signed(ours[strength][p][k]) for p in "ABC"),
                    *team_cells,
                )
            )
    return cells


_HEATMAP_CLAIMS = {
    "ullman-table1": ullman2015.TABLE1,
    "ullman-table2": ullman2015.TABLE2,
    "ullman-table3": ullman2015.TABLE3,
    "ullman-table4": ullman2015.TABLE4,
    "ullman-table5": ullman2015.TABLE5,
    "ullman-table6": ullman2015.TABLE6,
    "ullman-table8": ullman2015.TABLE8,
}


def figure_tasks(quick: bool, seed: int = 0) -> list[Task]:
    """The figure items, in page order (each paper's after its claims)."""
    tasks = [
        _compare("kuhn1950", "kuhn(players=2)", quick),
        _compare("szafron2013", "kuhn(players=3)", quick),
        _ode(quick),
        _play(quick),
        _table1(quick),
        _estimators(quick),
        _trace(4, quick),
        _trace(5, quick),
    ]
    if not quick:
        tasks.append(_trace(10, quick))
    for cid, table in _HEATMAP_CLAIMS.items():
        if quick and cid in SLOW_CLAIMS:
            continue
        tasks.append(_heatmap(table, cid, seed))
    tasks.append(_collusion(quick))
    return tasks


__all__ = ["FOLDER", "figure_tasks"]
