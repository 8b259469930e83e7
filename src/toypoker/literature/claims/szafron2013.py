"""The claims of Szafron, Gibson, Sturtevant (2013), three-player Kuhn poker."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from toypoker.engines.protocol import Evaluation
from toypoker.engines.rows.values import expected_values
from toypoker.evaluation import evaluate
from toypoker.literature.claims.base import Claim, Context, Row, certify, fmt
from toypoker.literature.papers import szafron2013

F = Fraction
HALF_ = F(1, 2)


def _szafron_family(c: Claim, ctx: Context) -> Iterator[Row]:
    for sub in szafron2013.SUBFAMILIES:
        for _ in range(12):
            _, p = szafron2013.sample_member(ctx.rng, sub)
            params = (
                f"{sub}: b11={p['b11']}, b21={p['b21']}, b23={p['b23']}, "
                f"b32={p['b32']}, c11={p['c11']}, c33={p['c33']}"
            )
            yield certify(
                c,
                params,
                ctx.game(szafron2013.GAME_SPEC),
                {szafron2013.label(k): v for k, v in p.items()},
                szafron2013.table3_utilities(p["b11"], p["b21"]),
            )


def _szafron_text_b33(c: Claim, ctx: Context) -> Iterator[Row]:
    """Sec. 5 text for c11 = 1/2 prints b33 = (1 + b11 + 2 b21)/2; Table 3 (and the
    proof) use b33 = 1/2 + (b11+b21)/2 + beta/2 - b23(1-b21)."""
    for b11, b21, b23 in [
        (F(1, 4), F(0), F(1, 8)),
        (F(1, 5), F(1, 10), F(1, 36)),
        (F(1, 6), F(1, 12), F(0)),
        (F(1, 8), F(1, 8), F(0)),
    ]:
        b32 = F(1, 2)
        c33 = HALF_ - b32 + (4 * b11 + 3 * b21) / 8  # mid-range (Sec. 5)
        p = szafron2013.table3(b11, b21, b23, b32, F(1, 2), c33)
        p["b33"] = (1 + b11 + 2 * b21) / 2
        row = certify(
            c,
            f"c11=1/2: b11={b11}, b21={b21}, b23={b23}",
            ctx.game(szafron2013.GAME_SPEC),
            {szafron2013.label(k): v for k, v in p.items()},
            szafron2013.table3_utilities(b11, b21),
        )
        table = szafron2013.table3(b11, b21, b23, b32, F(1, 2), c33)["b33"]
        detail = row.detail + f"; text b33={p['b33']}, Table 3 b33={table}"
        yield Row(c.id, c.source, row.params, row.status, detail, row.exact)


def _szafron_table4(c: Claim, ctx: Context) -> Iterator[Row]:
    g = ctx.game(szafron2013.GAME_SPEC)
    ev: Evaluation = evaluate(g, szafron2013.profile(g, szafron2013.table4()))
    ok_values = tuple(ev.values) == szafron2013.TABLE4_UTILITIES
    ok_p2 = ev.gains[1] == szafron2013.KAPPA * F(1, 4)
    detail = (
        f"values {fmt(ev.values)}; gains {fmt(ev.gains)}: P2 gains k*beta = 1/96 as "
        f"stated, and P1 gains {ev.gains[0]} (not mentioned by the paper)"
    )
    brs = []
    for p, br in enumerate(ev.best_responses):
        if ev.gains[p] > 0:
            dev = [
                i.label
                for i in g.infosets_of(p)
                if br.choice[i.offset : i.offset + 2].tolist()
                != [
                    int(x)
                    for x in szafron2013.profile(g, szafron2013.table4()).probs[
                        i.offset : i.offset + 2
                    ]
                ]
            ]
            brs.append(f"P{p + 1} deviates at {', '.join(dev)}")
    yield Row(
        c.id,
        c.source,
        "beta=1/4",
        "verified" if ok_values and ok_p2 else "disagrees",
        detail + "; " + "; ".join(brs),
        {"values": [str(v) for v in ev.values], "gains": [str(v) for v in ev.gains]},
    )


def _szafron_robust(c: Claim, ctx: Context) -> Iterator[Row]:
    """Sec. 6: P2 with b11 = b21 guarantees -k/2, P3 with c11 = 0 guarantees k, when all
    play Table 2-3 strategies; checked against many sampled opponents (and extremes).
    Only the values are needed: :func:`~toypoker.engines.rows.values.expected_values`, exact, not a
    whole evaluation with best responses (a third of the time)."""
    g = ctx.game(szafron2013.GAME_SPEC)
    members = [
        szafron2013.sample_member(ctx.rng, sub)[1]
        for sub in szafron2013.SUBFAMILIES
        for _ in range(10)
    ]
    p3_keys = ("c11", "c21", "c33", "c34")
    p2_keys = tuple(k for k in members[0] if k.startswith("b"))
    worst2, worst3 = None, None
    for mine in [m for m in members if m["b11"] == m["b21"]][:6]:
        for other in members:
            p = {**other, **{k: mine[k] for k in p2_keys}}
            v = expected_values(g, szafron2013.profile(g, p))[1]
            worst2 = v if worst2 is None else min(worst2, v)
    for mine in [m for m in members if m["c11"] == 0][:6]:
        for other in members:
            p = {**other, **{k: mine[k] for k in p3_keys}}
            v = expected_values(g, szafron2013.profile(g, p))[2]
            worst3 = v if worst3 is None else min(worst3, v)
    yield Row(
        c.id,
        c.source,
        "P2 with b11 = b21",
        "verified" if worst2 == -szafron2013.KAPPA / 2 else "disagrees",
        f"worst u2 over sampled Table 3 opponents: {worst2}",
    )
    yield Row(
        c.id,
        c.source,
        "P3 with c11 = 0",
        "verified" if worst3 == szafron2013.KAPPA else "disagrees",
        f"worst u3 over sampled Table 3 opponents: {worst3}",
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "szafron-table3",
        "Szafron et al. (2013), Tables 2-3",
        "every member of the three sub-families is an equilibrium with the Table 3 utilities",
        _szafron_family,
    ),
    Claim(
        "szafron-text-b33",
        "Szafron et al. (2013), Sec. 5 (c11 = 1/2 text)",
        "b33 = (1 + b11 + 2 b21)/2 in the c11 = 1/2 sub-family",
        _szafron_text_b33,
    ),
    Claim(
        "szafron-table4",
        "Szafron et al. (2013), Table 4 and Sec. 6",
        "the mixed profile's utilities; P2 gains k*beta by deviating",
        _szafron_table4,
    ),
    Claim(
        "szafron-robust",
        "Szafron et al. (2013), Sec. 6",
        "P2 with b11 = b21 guarantees -k/2; P3 with c11 = 0 guarantees k",
        _szafron_robust,
    ),
)
