"""The claims of Ullman (2015), Sec. 5: collusion in Mercer Hold'em (Table 7, footnote 6).

Table 7's payoffs against ours (3P-MMH, from the stored equilibria), what the table
says of itself, his 3P-SMH collusion runs reproduced by his algorithm on our
collusion games, and footnote 6's order of magnitude.  Part of the paper's claims
(:mod:`.ullman2015`, which lists them all in ``CLAIMS``).
"""

from __future__ import annotations

from collections.abc import Iterator

from toypoker.engines.rows.values import expected_values
from toypoker.games.team_transform import collusion_spec, seat_digits
from toypoker.literature.claims.base import Claim, Context, Row
from toypoker.literature.claims.ullman2015_solved import (
    REPRODUCED,
    claim_row,
    collusion_table_of,
    fp_run,
)
from toypoker.literature.papers import ullman2015
from toypoker.teams.transfer import splice


def table7_printed(c: Claim, ctx: Context) -> Iterator[Row]:
    """What Table 7 says of itself: zero-sum columns (within the stated error) and,
    under win sharing, equal payoffs for the two colluders."""
    blocks = (
        ("strong", ullman2015.TABLE7_STRONG, 1.0),
        ("weak", ullman2015.TABLE7_WEAK_PRINTED, 1e-3),
    )
    for name, block, factor in blocks:
        for k, scen in enumerate(ullman2015.TABLE7_SCENARIOS):
            total = sum(block[p][k] * factor for p in "ABC")
            yield claim_row(
                c,
                f"Table 7 {name} {scen}: payoffs sum to 0",
                abs(total) <= ullman2015.TABLE7_ERROR,
                f"sum {total:.3g} (stated error {ullman2015.TABLE7_ERROR})",
            )
        for k, scen in enumerate(ullman2015.TABLE7_SCENARIOS[:2]):
            pairs = [ab for ab in ("AB", "AC", "BC") if block[ab[0]][k] == block[ab[1]][k]]
            yield claim_row(
                c,
                f"Table 7 {name} {scen}: colluders A and B share equally",
                pairs == ["AB"],
                f"equal payoffs: {', '.join(pairs) or 'none'}; under win sharing the "
                "colluders' payoffs are equal, so the colluders are "
                + (pairs[0] if pairs else "unclear")
                + " (the caption says A and B)",
            )


def table7_values(c: Claim, ctx: Context) -> Iterator[Row]:
    """Table 7's payoffs against ours (3P-MMH, seat-rotation average, A the outsider)."""
    t = collusion_table_of(ctx, "3P-MMH")
    nc = t.nash_conv
    cert = (
        f"NashConv of the equilibria (evaluated now): no collusion {nc['none']:.1e}, "
        f"strong {nc['strong']:.1e}, weak {nc['weak']:.1e}"
    )
    brackets = "; ".join(
        f"team {{{','.join(seat_digits(m))}}} in [{lo:.5f}, {hi:.5f}]"
        for m, lo, hi in t.team_values
    )
    blocks = (
        ("strong", ullman2015.TABLE7_STRONG, 1.0),
        ("weak", ullman2015.TABLE7_WEAK_PRINTED, 1e-3),
    )
    for strength, block, factor in blocks:
        for k, scen in enumerate(ullman2015.TABLE7_SCENARIOS):
            ours = t.payoffs[(strength, scen.lower())]
            for p, letter in enumerate("ABC"):
                printed = block[letter][k] * factor
                ok = abs(ours[p] - printed) <= ullman2015.TABLE7_ERROR
                detail = f"ours {ours[p]:+.5f} (printed {printed:+.6g}); {cert}"
                if strength == "strong" and scen == "Public":
                    detail += f"; the merged team's exact values: {brackets}"
                if not ok and strength == "strong":
                    detail += (
                        "; likely cause: his fictitious play stops at eps 0.01 short of the "
                        "team's optimum (on 3P-SMH his code's strong-collusion team values "
                        "are 0.002-0.007 below the exact ones: ullman-3p-smh-collusion-code)"
                    )
                elif ok and strength == "weak":
                    detail += "; the stated error 0.00577 exceeds every weak payoff"
                elif strength == "weak":
                    detail += (
                        "; likely cause: under weak collusion the members do not see each "
                        "other's cards, and the equilibria of such a team game need not share "
                        "a value (ours is one of them, his fictitious play may reach another); "
                        "his weak payoffs are also ten times below his own stated error"
                    )
                yield claim_row(
                    c, f"Table 7 {strength} {scen}, player {letter}: {printed:+.6g}", ok, detail
                )
    loss = -t.payoffs[("strong", "public")][0]
    yield claim_row(
        c,
        "Sec. 5: the noncolluding player loses over "
        f"{ullman2015.NONCOLLUDER_LOSS_AT_LEAST} an ante",
        loss > ullman2015.NONCOLLUDER_LOSS_AT_LEAST,
        f"ours: {loss:.5f} per hand under public strong collusion (seat-rotation average; "
        f"{brackets}; {cert})",
    )


def smh3_collusion_code(c: Claim, ctx: Context) -> Iterator[Row]:
    """His 3P-SMH collusion runs (values, iterations, last gain) by his algorithm on our
    collusion games, beside the exact team values."""
    g0 = ctx.game(ullman2015.SPEC["3P-SMH"])
    fp0 = fp_run(g0, 0.01)
    exact = {m: (lo, hi) for m, lo, hi in collusion_table_of(ctx, "3P-SMH").team_values}
    for run in ullman2015.COLLUSION_RUNS:
        members = tuple(int(ch) - 1 for ch in run.team)
        others = set(range(3)) - set(members)
        g = ctx.game(collusion_spec(ullman2015.SPEC["3P-SMH"], members, "win", run.strength))
        fp = fp_run(g, run.eps)
        ours = {
            "public": fp.values,
            "private": expected_values(g, splice(fp.profile, fp0.profile, others)),
            "suspicious": expected_values(g0, splice(fp0.profile, fp.profile, others)),
        }
        name = f"{run.strength} team {{{','.join(run.team)}}}"
        for scen in ("public", "private", "suspicious"):
            printed = getattr(run, scen)
            got = tuple(float(v) for v in ours[scen])
            diff = max(abs(a - b) for a, b in zip(got, printed, strict=True))
            detail = f"his fictitious play (eps {run.eps}) in our game: " + ", ".join(
                f"{v:.12g}" for v in got
            )
            if scen == "public" and run.strength == "strong":
                lo, hi = exact[members]
                team = sum(got[q] for q in members)
                detail += (
                    f"; team total {team:.5f}, the team's exact value (merged game, "
                    f"certified) in [{lo:.5f}, {hi:.5f}]"
                )
            yield claim_row(
                c,
                f"{run.source.split(' and ')[0]}: {name} {scen} "
                + ", ".join(f"{v:.6g}" for v in printed),
                diff <= REPRODUCED,
                detail,
            )
        last = fp.options["last_check_gain"]
        yield claim_row(
            c,
            f"{name}: {run.iterations} iterations, last gain {run.last_gain:.10g}",
            fp.iterations == run.iterations and abs(last - run.last_gain) <= REPRODUCED,
            f"ours {fp.iterations} iterations, last gain {last:.15g}",
        )


def footnote6(c: Claim, ctx: Context) -> Iterator[Row]:
    """Footnote 6: strong collusion gains 'on the order of 10^-4' in 3P-SMH."""
    t = collusion_table_of(ctx, "3P-SMH")
    # seat-rotation averages: without collusion every player averages 0, so the Public
    # payoff of a member is the mean gain per member
    strong = t.payoffs[("strong", "public")][1]
    weak = t.payoffs[("weak", "public")][1]
    none = next(r.values for r in ullman2015.CODE_RUNS if r.game == "3P-SMH")

    def gains(strength: str) -> list[float]:
        out = []
        for run in ullman2015.COLLUSION_RUNS:
            if run.strength == strength:
                m = [int(ch) - 1 for ch in run.team]
                out.append(sum(run.public[q] - none[q] for q in m) / len(m))
        return out

    order = ullman2015.FOOTNOTE6_GAIN_ORDER
    yield claim_row(
        c,
        f"3P-SMH strong collusion gains on the order of {order:g}",
        order / 10 <= strong <= order * 10,
        f"ours {strong:.5f} per member (seat-rotation average, the merged team's "
        f"equilibrium, NashConv {t.nash_conv['strong']:.1e}); his own code's strong runs "
        "gain " + ", ".join(f"{g:.4f}" for g in gains("strong")) + " per member (team "
        "{1,2}, {1,3}, {2,3}; reproduced in ullman-3p-smh-collusion-code); likely cause: "
        f"the footnote gives weak collusion's size: ours {weak:.1e} per member, his code's "
        "weak runs " + ", ".join(f"{g:+.1e}" for g in gains("weak")) + " (teams {1,3}, {2,3})",
    )
