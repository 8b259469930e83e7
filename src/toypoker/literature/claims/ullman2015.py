"""The claims of Ullman (2015), Mercer Hold'em under fictitious play.

Every printed number is computed from our games ``mercer(players=2|3,
variant=smh|mmh)``: two-player games exactly (the sequence-form LP,
``solve(game, "lp")``, an exact certificate), 3P-SMH by CFR+ run to NashConv
<= 1e-4, and his own algorithm (:func:`toypoker.solvers.ullman.run_ullman`,
fictitious play as his code runs it) at the eps his runs used, to explain the
printed approximations: on 2P-SMH, 3P-SMH and 2P-MMH, and on his 3P-SMH
collusion runs, it reproduces his output files' iteration counts, last gains and
values to 1e-9.

3P-MMH and the collusion games use equilibria stored in
``toypoker/literature/data/`` (``ullman_collusion_3p_{smh,mmh}.npz``, made by
``toypoker collusion table7 "mercer(players=3,variant=mmh)" --team 23 --method
pdcfr+ --iterations 8000 --target-nash-conv 1e-4 --save FILE``): the file saves
the solve and the NashConv each equilibrium reached (recorded in 2026 for these two
files, from before the store kept it: ``CollusionProfiles.with_measures``); every
value, best response and NashConv is evaluated here, at check time, and the rows say
the NashConv found.  Strong collusion (win sharing)
is solved as the merged team (two-sided zero-sum: the team's value is unique and
bracketed by the best responses of both sides), its strategy played by the
members.

Status ``verified``: the printed number is what the game gives, to the printed
digits (values: within half a unit of the last printed digit; his code's values:
reproduced to 1e-9 by his algorithm here and, for 2 players, within its eps of
the exact value; Table 7: within its stated error).  ``disagrees``: with our
exact/certified value and the likely cause (his fictitious play's output where it
reproduces the printed digit).

Bet-percentage tables: equilibria need not be unique (in particular in 3-player
games), so a printed percentage that differs from our equilibrium's is not by
itself wrong: Table 1, which with the Sec. 4.2 text gives a whole profile, is
verified when that profile is an equilibrium to the printed digits.

Not re-run: his fictitious play on 3P-MMH (3600 iterations, 8500 under collusion, on
5.9 M rows; one iteration's time is in ``benchmarks/results/peers.md``);
:mod:`.ullman2015_runs` compares the 3P-MMH tables with his own output files instead
(eps 0.1 runs) and names the run behind each table.

The paper's data (its printed numbers) are in
:mod:`toypoker.literature.papers.ullman2015`; the solved games, stored equilibria
and runs of his algorithm the claims share are in :mod:`.ullman2015_solved`; the
claims of his Sec. 5 (collusion, Table 7) in :mod:`.ullman2015_collusion`.
"""

from __future__ import annotations

from collections.abc import Iterator

from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.games.team_transform import collusion_spec
from toypoker.literature.claims.base import Claim, Context, Row
from toypoker.literature.claims.ullman2015_cells import bet_probability, digits, norm, table_cells
from toypoker.literature.claims.ullman2015_collusion import (
    footnote6,
    smh3_collusion_code,
    table7_printed,
    table7_values,
)
from toypoker.literature.claims.ullman2015_solved import (
    BET8_SPEC,
    COLLUSION_DATA,
    LARGE_ROWS,
    MIXED,
    PRINTED_ROUNDING,
    TABLE7_TEAM,
    Solved,
    checked_solution,
    claim_row,
    equilibrium_of,
    fp_eps,
    fp_run,
    stored_profiles,
)
from toypoker.literature.papers import ullman2015
from toypoker.profile import Profile

__all__ = ["BET8_SPEC", "CLAIMS", "COLLUSION_DATA", "TABLE7_TEAM", "stored_profiles"]


# ----------------------------------------------------------------- values
def _values(c: Claim, ctx: Context, name: str) -> Iterator[Row]:
    game = ctx.game(ullman2015.SPEC[name])
    sol = equilibrium_of(game)
    ours = tuple(round(v, 6) for v in sol.values)
    for g, _source, printed, _eps in ullman2015.TEXT_VALUES:
        if g != name:
            continue
        for seat, (v, x) in enumerate(zip(sol.values, printed, strict=True)):
            ok = abs(v - x) <= digits(x)
            detail = f"ours {v:.6f} by {sol.how}"
            if not ok and name == "3P-SMH":
                detail += "; likely cause: " + _smh3_bet8(ctx, seat)
            yield claim_row(c, f"{name} text, seat {seat + 1}: {x}", ok, detail, {"values": ours})
    for run in ullman2015.CODE_RUNS:
        if run.game != name:
            continue
        fp = fp_run(game, run.eps)
        for seat, (v, x, y) in enumerate(zip(sol.values, run.values, fp.values, strict=True)):
            # a 2-player eps-equilibrium is worth the value within eps; 3 players: no bound
            same = abs(x - y) <= 1e-9
            ok = same and (game.n_players > 2 or abs(v - x) <= run.eps)
            yield claim_row(
                c,
                f"{name} code, seat {seat + 1}: {x:.6g}",
                ok,
                f"equilibrium {v:.6f} by {sol.how}; his fictitious play (eps {run.eps}) "
                f"in our game: {y:.15g}" + (" = printed" if same else " (differs)"),
            )
        yield claim_row(
            c,
            f"{name} code: {run.iterations} iterations to eps {run.eps}",
            fp.iterations == run.iterations,
            f"his fictitious play in our game stops after {fp.iterations} iterations",
        )
        g_last = fp.options["last_check_gain"]
        yield claim_row(
            c,
            f"{name} code: last largest gain {run.last_gain:.10g}",
            abs(g_last - run.last_gain) <= 1e-9,
            f"ours {g_last:.15g}",
        )


def _smh3_bet8(ctx: Context, seat: int) -> str:
    """The text's 3P-SMH values fit bet 8 (not 4): our equilibrium there."""
    game = ctx.game(BET8_SPEC)
    sol = equilibrium_of(game)
    fp = fp_run(game, 0.01)
    return (
        f"the text's figures fit (within 0.01) 8-chip bets, not 4 (his Fig. 3 example "
        "tree bets 8 chips too): "
        f"{BET8_SPEC} is worth {sol.values[seat]:.4f} to this seat ({sol.how}); his "
        f"fictitious play there at eps 0.01 gives {fp.values[seat]:.4f}"
    )


def _values_2p_smh(c: Claim, ctx: Context) -> Iterator[Row]:
    yield from _values(c, ctx, "2P-SMH")


def _values_2p_mmh(c: Claim, ctx: Context) -> Iterator[Row]:
    yield from _values(c, ctx, "2P-MMH")


def _values_3p_smh(c: Claim, ctx: Context) -> Iterator[Row]:
    yield from _values(c, ctx, "3P-SMH")


# ----------------------------------------------------------------- tables
def _table(
    c: Claim,
    ctx: Context,
    table: ullman2015.BetTable,
    rows: tuple[str, ...] = (),
    solved: tuple[Game, Solved] | None = None,
) -> Iterator[Row]:
    """One row per printed cell; ``solved``: another game and its equilibrium (Table 8's
    collusion rows) instead of ``table.game``'s."""
    game, sol = solved or (ctx.game(ullman2015.SPEC[table.game]), None)
    sol = sol or equilibrium_of(game)
    # his fictitious play is not re-run above LARGE_ROWS (3P-MMH: 3600 iterations)
    fp = fp_run(game, fp_eps(table.game)) if game.n_rows <= LARGE_ROWS else None
    printed_gain = None
    if table is ullman2015.TABLE1:  # the only table that gives a whole profile (with Sec. 4.2)
        printed_gain = max(float(g) for g in evaluate(game, _printed_smh2_profile(game)).gains)
    for row, col, player, hand, hist, pct in table_cells(table):
        if rows and row not in rows:
            continue
        ours = bet_probability(game, sol.profile, player, hand, hist)
        theirs = bet_probability(game, fp.profile, player, hand, hist) if fp else None
        params = f"{table.name} {row} {hand}" + (f" flop {col}" if table.hole else "")
        if ours is None:
            yield claim_row(c, params, False, f"no decision {hist!r} for {hand} in our game")
            continue
        tol = max(digits(pct), 0.05)
        ok = abs(100 * ours - pct) <= tol
        detail = f"printed {pct}%, ours {100 * ours:.1f}% ({sol.how})"
        if fp is not None and theirs is not None:
            detail += (
                f"; his FP (eps {fp_eps(table.game)}, {fp.iterations} it.) {100 * theirs:.1f}%"
            )
        if not ok and printed_gain is not None and printed_gain <= PRINTED_ROUNDING:
            ok = True  # another equilibrium: the printed profile is one (to rounding)
            detail += (
                f"; another equilibrium: the printed profile is a "
                f"{printed_gain:.1e}-equilibrium (ullman-2p-smh-profile)"
            )
        elif not ok and theirs is not None and abs(100 * theirs - pct) <= tol:
            detail += (
                "; likely cause: the printed value is his fictitious play's output "
                "at that eps (reproduced here), not an equilibrium's"
            )
        elif not ok:
            detail += (
                "; likely cause: fictitious play stopped at a loose eps (equilibria "
                "need not be unique"
                + (", and our CFR+ profile is itself approximate)" if sol.nash_conv else ")")
            )
        yield claim_row(c, params, ok, detail, {"ours": ours, "ullman_fp": theirs})


def _table1(c: Claim, ctx: Context) -> Iterator[Row]:
    yield from _table(c, ctx, ullman2015.TABLE1)


def _table2(c: Claim, ctx: Context) -> Iterator[Row]:
    yield from _table(c, ctx, ullman2015.TABLE2)


def _table3(c: Claim, ctx: Context) -> Iterator[Row]:
    yield from _table(c, ctx, ullman2015.TABLE3)


def _table4(c: Claim, ctx: Context) -> Iterator[Row]:
    yield from _table(c, ctx, ullman2015.TABLE4)


def _table5(c: Claim, ctx: Context) -> Iterator[Row]:
    yield from _table(c, ctx, ullman2015.TABLE5)


def _table6(c: Claim, ctx: Context) -> Iterator[Row]:
    yield from _table(c, ctx, ullman2015.TABLE6)


def _weak_first_two(game: Game) -> Solved:
    """The stored equilibrium of 3P-MMH with the first two players weakly colluding."""
    return checked_solution(game, stored_profiles("3P-MMH"))


def _table8(c: Claim, ctx: Context) -> Iterator[Row]:
    no_col = tuple(r for r in ullman2015.TABLE8.rows if r.startswith("No Col"))
    yield from _table(c, ctx, ullman2015.TABLE8, no_col)
    # "with ... weak collusion by the first two players": team {1, 2}, win sharing
    weak = ctx.game(collusion_spec(ullman2015.SPEC["3P-MMH"], (0, 1), "win", "weak"))
    col = tuple(r for r in ullman2015.TABLE8.rows if r.startswith("Col"))
    yield from _table(c, ctx, ullman2015.TABLE8, col, (weak, weak.derived(_weak_first_two)))


def _printed_smh2_profile(game: Game) -> Profile:
    """2P-SMH as printed: Table 1 plus the Sec. 4.2 'always'/'never' holdings."""
    mapping: dict[str, dict[str, float]] = {}
    table = dict(
        zip(
            ullman2015.TABLE1.columns,
            zip(*ullman2015.TABLE1.rows.values(), strict=True),
            strict=True,
        )
    )
    for player, history in ((0, ""), (1, "b")):
        for info in game.infosets_of(player):
            if norm(info.history) != history:
                continue
            hand = "".join(str(r + 1) for r in info.private)
            if hand in table:
                p = table[hand][player] / 100
            else:
                p = 1.0 if hand in ullman2015.SMH2_ALWAYS else 0.0
            mapping[info.label] = {a: (1 - p if a == "f" else p) for a in info.actions}
    return Profile.from_mapping(game, mapping, exact=False, fill="uniform")


def _smh2_printed_profile(c: Claim, ctx: Context) -> Iterator[Row]:
    game = ctx.game(ullman2015.SPEC["2P-SMH"])
    ev = evaluate(game, _printed_smh2_profile(game))
    gains = tuple(round(float(g), 5) for g in ev.gains)
    vals = tuple(round(float(v), 5) for v in ev.values)
    yield claim_row(
        c,
        "Table 1 + Sec. 4.2 holdings as one profile",
        max(ev.gains) <= PRINTED_ROUNDING,
        f"values {vals}, gains {gains}: a {max(gains):.4f}-equilibrium "
        "(verified means within the printed integer percentages' rounding, 0.005)",
        {"values": vals, "gains": gains},
    )
    sol = equilibrium_of(game)
    for hand in ullman2015.SMH2_ALWAYS + ullman2015.SMH2_NEVER:
        want = 1.0 if hand in ullman2015.SMH2_ALWAYS else 0.0
        got = [bet_probability(game, sol.profile, p, hand, h) for p, h in ((0, ""), (1, "b"))]
        ok = all(g is not None and abs(g - want) <= 1e-9 for g in got)
        yield claim_row(
            c,
            f"2P-SMH {hand} {'always' if want else 'never'} bet",
            ok,
            f"LP equilibrium bets {got[0]:.4f} (1st), {got[1]:.4f} (2nd)",
        )


# ----------------------------------------------------------------- shape of 3P-SMH
def _bets(game: Game, profile: Profile) -> list[float]:
    return [
        float(1 - profile.probs[i.offset + i.actions.index("f")])
        for i in game.infosets
        if "f" in i.actions
    ]


def _mixed(bets: list[float]) -> int:
    return sum(MIXED < b < 1 - MIXED for b in bets)


def _shape(c: Claim, ctx: Context) -> Iterator[Row]:
    g2 = ctx.game(ullman2015.SPEC["2P-SMH"])
    lp = _mixed(_bets(g2, equilibrium_of(g2).profile))
    printed = _mixed(_bets(g2, _printed_smh2_profile(g2)))
    yield claim_row(
        c,
        f"2P-SMH mixed situations: {ullman2015.SMH2_MIXED_SITUATIONS}",
        ullman2015.SMH2_MIXED_SITUATIONS in (lp, printed),
        f"{printed} in the printed profile (Table 1), {lp} in our LP equilibrium "
        f"(betting strictly between {MIXED:.0%} and {1 - MIXED:.0%})",
    )
    g3 = ctx.game(ullman2015.SPEC["3P-SMH"])
    sol = equilibrium_of(g3)
    ours = _bets(g3, sol.profile)
    fp = fp_run(g3, 0.01)
    his = _bets(g3, fp.profile)
    yield claim_row(
        c,
        f"3P-SMH mixed situations: {ullman2015.SMH3_MIXED_SITUATIONS}",
        _mixed(ours) == ullman2015.SMH3_MIXED_SITUATIONS,
        f"ours {_mixed(ours)} ({sol.how}); his fictitious play (eps 0.01, "
        f"{fp.iterations} it.) {_mixed(his)}; likely cause: the residue of fictitious "
        "play (every action keeps weight >= 1/(2(t+1)))",
    )
    worst = max(min(b, 1 - b) for b in ours)
    yield claim_row(
        c,
        f"3P-SMH: bet or fold at least {ullman2015.SMH3_DECISIVE_AT_LEAST:.0%} everywhere",
        worst <= 1 - ullman2015.SMH3_DECISIVE_AT_LEAST,
        f"ours: the least decisive situation mixes {worst:.3f} ({sol.how}); his "
        f"fictitious play: {max(min(b, 1 - b) for b in his):.3f}",
    )


# ----------------------------------------------------------------- sizes
def _sizes(c: Claim, ctx: Context) -> Iterator[Row]:
    game = ctx.game(ullman2015.SPEC["2P-MMH"])
    top = max(sum(n.committed) for n in game.nodes if n.kind == "terminal")
    yield claim_row(
        c,
        f"2P-MMH largest pot: {ullman2015.MMH2_MAX_POT} chips",
        top == ullman2015.MMH2_MAX_POT,
        f"largest pot {top} chips",
    )
    bets = (top - 2) / 4
    yield claim_row(
        c,
        f"2P-MMH most bets: {ullman2015.MMH2_MAX_BETS}",
        bets == ullman2015.MMH2_MAX_BETS,
        f"{bets} bets of 4 chips",
    )
    g3 = ctx.game(ullman2015.SPEC["3P-MMH"])
    yield claim_row(
        c,
        f"3P-MMH information sets: {ullman2015.MMH3_INFOSETS}",
        g3.n_infosets == ullman2015.MMH3_INFOSETS,
        f"{g3.n_infosets} infosets; ours compiles {g3.n_rows} rows (public node x deal), "
        f"his tree has {ullman2015.TREE_NODES['3P-MMH']} nodes "
        f"(about {ullman2015.MMH3_NODES_ABOUT} printed)",
    )
    fig = ullman2015.RUN_FIGURES
    yield claim_row(
        c,
        f"3P-MMH tree nodes: about {ullman2015.MMH3_NODES_ABOUT}",
        abs(ullman2015.TREE_NODES["3P-MMH"] - ullman2015.MMH3_NODES_ABOUT)
        <= 0.05 * ullman2015.MMH3_NODES_ABOUT,
        f"his code builds {ullman2015.TREE_NODES['3P-MMH']} nodes (NOTES.md); his run: "
        f"{fig['3P-MMH iterations to eps 0.01'][0]:g} iterations, "
        f"{fig['3P-MMH hours to eps 0.01'][0]:g} hours on {fig['cores'][0]:g} cores "
        "(not re-run: see benchmarks)",
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "ullman-2p-smh-values",
        "Ullman (2015), Sec. 4.2; poker-nasheq output",
        "2P-SMH is worth -0.1 / +0.1 (text) and -0.104 / +0.104 (his code, eps 0.001)",
        _values_2p_smh,
    ),
    Claim(
        "ullman-table1",
        "Ullman (2015), Sec. 4.2, Table 1",
        "2P-SMH bet percentages of 25, 34, 35 by position",
        _table1,
    ),
    Claim(
        "ullman-2p-smh-profile",
        "Ullman (2015), Sec. 4.2, Table 1 and text",
        "the printed 2P-SMH strategy (always/never holdings, Table 1) is an equilibrium",
        _smh2_printed_profile,
    ),
    Claim(
        "ullman-2p-mmh-values",
        "Ullman (2015), Sec. 4.2; poker-nasheq output",
        "2P-MMH is worth -0.4 / +0.4 (text) and -0.418 / +0.418 (his code, eps 0.01)",
        _values_2p_mmh,
    ),
    Claim(
        "ullman-table2",
        "Ullman (2015), Sec. 4.2, Table 2",
        "2P-MMH first-bet percentages by holding and position",
        _table2,
    ),
    Claim(
        "ullman-table3",
        "Ullman (2015), Sec. 4.2, Table 3",
        "2P-MMH first post-flop bet percentages holding 45, by flop",
        _table3,
    ),
    Claim(
        "ullman-3p-smh-values",
        "Ullman (2015), Sec. 4.3; poker-nasheq output",
        "3P-SMH is worth (-0.29, 0.008, 0.282) (text); (-0.0905, 0.0028, 0.0877) (code)",
        _values_3p_smh,
    ),
    Claim(
        "ullman-table4",
        "Ullman (2015), Sec. 4.3, Table 4",
        "3P-MMH second player's first-bet percentages after the first folds or bets",
        _table4,
    ),
    Claim(
        "ullman-table5",
        "Ullman (2015), Sec. 4.3, Table 5",
        "3P-MMH first-bet percentages by position, nobody folded",
        _table5,
    ),
    Claim(
        "ullman-table6",
        "Ullman (2015), Sec. 4.3, Table 6",
        "3P-MMH third player's first-bet percentages after one fold",
        _table6,
    ),
    Claim(
        "ullman-table8",
        "Ullman (2015), Sec. 5, Table 8",
        "3P-MMH third player's first bet without and with weak collusion of the first two",
        _table8,
    ),
    Claim(
        "ullman-table7",
        "Ullman (2015), Sec. 5, Table 7",
        "collusion payoffs: zero-sum within the stated error; A and B collude",
        table7_printed,
    ),
    Claim(
        "ullman-table7-values",
        "Ullman (2015), Sec. 5, Table 7 and text",
        "3P-MMH collusion payoffs (Public, Private, Suspicious; strong, weak), dealer "
        "rotating, error 0.00577; the noncolluding player loses over 17.5% of an ante",
        table7_values,
    ),
    Claim(
        "ullman-3p-smh-collusion-code",
        "poker-nasheq output/smh3p/sc, wc (Ullman 2015, Sec. 5)",
        "his code's 3P-SMH collusion values (eps 0.01), iterations and last gains",
        smh3_collusion_code,
    ),
    Claim(
        "ullman-footnote6",
        "Ullman (2015), Sec. 5, footnote 6",
        "strong collusion gains in 3P-SMH are on the order of 10^-4",
        footnote6,
    ),
    Claim(
        "ullman-smh-shape",
        "Ullman (2015), Sec. 4.3",
        "mixed situations: 15 in 3P-SMH, 3 in 2P-SMH; 3P-SMH bets or folds >= 90% everywhere",
        _shape,
    ),
    Claim(
        "ullman-sizes",
        "Ullman (2015), Sec. 3.4 and 4.2; NOTES.md",
        "2P-MMH: at most 8 bets, pot 34; 3P-MMH: 9,720 information sets",
        _sizes,
    ),
)
