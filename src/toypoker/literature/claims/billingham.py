"""The claims of Billingham, "Simplified three player Kuhn poker"."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy as sp

from toypoker.literature.claims.base import Claim, Context, Row, certify, fmt, identity_rows
from toypoker.literature.papers import billingham
from toypoker.symbolic import symbolic_values, values_in_pot

F = Fraction


def _values_in_pot(ctx: Context, spec: Any, assignment: dict, P: sp.Symbol) -> list[sp.Expr]:
    """Expected values as polynomials in the pot ``P`` (payoffs are affine in it)."""
    return values_in_pot(ctx.game(spec(F(9))), assignment, P)


def _third_street(c: Claim, ctx: Context) -> Iterator[Row]:
    grid = [
        F(1),
        F(3, 2),
        F(2),
        F(5, 2),
        F(3),
        F(4),
        F(5),
        F(11, 2),
        F(6),
        F(13, 2),
        F(7),
        F(9),
        F(20),
    ]
    for P in grid:
        splits = [F(0), F(1), F(int(ctx.rng.integers(1, 12)), 12)]
        for split in splits:
            totals = [None]
            if P == 2:
                totals = [F(0), F(2, 3), F(1, 3)]
            if P == 5:
                totals = [F(1, 3), F(2, 5)]
            for total in totals:
                eq, p, e = billingham.third_street_solution(P, split=split, total=total)
                row = certify(
                    c,
                    f"P={P}, {eq}: " + ", ".join(f"{k}={v}" for k, v in p.items() if v),
                    ctx.game(billingham.third_street_spec(P)),
                    billingham.mapping(p),
                    e,
                )
                if P == 5 and row.status == "disagrees" and p["b_J"] > F(1, 3):
                    row = Row(
                        row.claim,
                        row.source,
                        row.params,
                        row.status,
                        row.detail + "; eq. (3) omits b_J <= 2/(P+1) = 1/3 (P2 then calls with Q; "
                        "cf. constraint 5.(b) of Appendix A and eq. (4)'s bound on b_Q)",
                        row.exact,
                    )
                yield row


def _third_street_b(c: Claim, ctx: Context) -> Iterator[Row]:
    for P in [F(7), F(9), F(20)]:
        for cQ in [F(0), F(1, P + 4), 2 / (P + 4)]:
            eq, p, e = billingham.third_street_solution(P, cQ=cQ, solution="B")
            row = certify(
                c,
                f"P={P}, c_Q={cQ}",
                ctx.game(billingham.third_street_spec(P)),
                billingham.mapping(p),
                e,
            )
            if row.status == "disagrees" and cQ:
                e2 = -cQ / 24 - (P - 1) * (P - 2) / (12 * P * (P + 1))
                e3 = cQ / 24 + (P - 2) / (6 * (P + 1))
                fixed = (e[0], e2, e3)
                note = (
                    " -- eq. (11) lacks a factor 1/24 on c_Q: exact E2 = -c_Q/24 - "
                    "(P-1)(P-2)/(12P(P+1)), E3 = c_Q/24 + (P-2)/(6(P+1))"
                )
                ok = row.exact["values"] == [str(x) for x in fixed]
                yield Row(
                    c.id,
                    c.source,
                    row.params,
                    row.status,
                    row.detail + (note if ok else ""),
                    row.exact,
                )
            else:
                yield row


def _alliance(c: Claim, ctx: Context) -> Iterator[Row]:
    """Sec. 2.1 at P = 5 with P2 (d_Q, d_K, o_K) = (0, 1, 0) and b_J + b_Q = 2/5."""
    bJ, cQ, cK = sp.symbols("b_J c_Q c_K")
    g = ctx.game(billingham.third_street_spec(F(5)))
    assign = {
        billingham.LABELS["b_J"]: bJ,
        billingham.LABELS["b_Q"]: sp.Rational(2, 5) - bJ,
        billingham.LABELS["c_Q"]: cQ,
        billingham.LABELS["c_K"]: cK,
        billingham.LABELS["d_Q"]: 0,
        billingham.LABELS["d_K"]: 1,
        billingham.LABELS["o_K"]: 0,
    }
    E = symbolic_values(g, assign)
    printed = [
        sp.Rational(5, 24) * cQ * (bJ - sp.Rational(2, 5)) - sp.Rational(1, 20),
        -sp.Rational(5, 24) * cQ * (bJ - sp.Rational(1, 5)) - sp.Rational(1, 30) + cK / 60,
        sp.Rational(1, 12) - cK / 60 + cQ / 24,
    ]
    for p in range(3):
        diff = sp.expand(E[p] - printed[p])
        yield Row(
            c.id,
            c.source,
            f"E{p + 1}(b_J, c_Q, c_K) at P=5",
            "verified" if diff == 0 else "disagrees",
            f"exact {sp.factor(E[p])}" + ("" if diff == 0 else f"; printed {printed[p]}"),
        )
    # "P3 with b_J = 1/3, b_Q = 0 and P1 with c_K = c_Q = 0: independent of P2's strategy"
    dQ, dK, oK = sp.symbols("d_Q d_K o_K")
    assign = {
        billingham.LABELS["b_J"]: sp.Rational(1, 3),
        billingham.LABELS["b_Q"]: 0,
        billingham.LABELS["c_Q"]: 0,
        billingham.LABELS["c_K"]: 0,
        billingham.LABELS["d_Q"]: dQ,
        billingham.LABELS["d_K"]: dK,
        billingham.LABELS["o_K"]: oK,
    }
    E = symbolic_values(g, assign)
    free = all(not e.has(dQ, dK, oK) for e in E)
    free_d = all(not e.has(dQ, dK) for e in E)
    detail = f"E = {fmt(E)}"
    if not free and free_d:
        detail += (
            "; independent of d_Q and d_K but not of P2's overcall o_K (an overcall "
            "with K against P1's A only costs P2)"
        )
    yield Row(
        c.id, c.source, "b_J=1/3, b_Q=0, c_K=c_Q=0", "verified" if free else "disagrees", detail
    )


def _expectation_polynomials(c: Claim, ctx: Context) -> Iterator[Row]:
    P = sp.symbols("P")
    sy = {k: sp.symbols(k) for k in billingham.THIRD_STREET_PARAMS}
    bJ, bQ, cQ, cK, dQ, dK, oK = (sy[k] for k in billingham.THIRD_STREET_PARAMS)
    E = _values_in_pot(
        ctx,
        billingham.third_street_spec,
        {billingham.LABELS[k]: sy[k] for k in billingham.THIRD_STREET_PARAMS},
        P,
    )
    printed = [
        (cQ * (-2 + bJ * (P - (P + 2) * oK)) + cK * (-2 + P * (bJ + bQ)) + (2 - P + oK) * (bJ + bQ))
        / 24,
        (
            dQ * (cK - 2 + bJ * (1 - cK) * (P + 1))
            + dK * (cQ - 2 + bJ * (1 - cQ) * (P + 1) + bQ * (P + 1))
            + oK * (-cQ - bQ + bJ * ((P + 2) * cQ - 1))
            + bJ * (2 - P + cQ + cK)
            + bQ * (2 - P + cK)
        )
        / 24,
        (
            bJ * (2 * P - 4 - (P + 1) * (cQ * (1 - dK) + dK + cK * (1 - dQ) + dQ))
            + bQ * (2 * P - 4 - (P + 1) * (cK + dK))
            + 2 * (cQ + cK)
            + (2 - cK) * dQ
            + (2 - cQ) * dK
            + cQ * oK
        )
        / 24,
    ]
    yield from identity_rows(
        c, E, printed, [f"eq. ({q}), E{k + 1}(P, 7 parameters)" for k, q in enumerate((30, 31, 32))]
    )
    E = _values_in_pot(
        ctx, billingham.skp_spec, {billingham.LABELS[k]: sy[k] for k in billingham.SKP_PARAMS}, P
    )
    printed = list(billingham.skp_expectations(P, bJ, cK, dQ))  # eqs. (38)-(40)
    yield from identity_rows(
        c,
        E,
        printed,
        [f"eq. ({q}), SKP E{k + 1}(P, b_J, c_K, d_Q)" for k, q in enumerate((38, 39, 40))],
    )


def _p_star(c: Claim, ctx: Context) -> Iterator[Row]:
    val = float(billingham.P_STAR)
    for where, printed in (("abstract and Sec. 2.1: 6.77", 6.77), ("eq. (4): 6.67", 6.67)):
        ok = abs(val - printed) < 0.005
        yield Row(
            c.id,
            c.source,
            where,
            "verified" if ok else "disagrees",
            f"(5 + sqrt(73))/2 = {val:.6f}" + ("" if ok else f", printed {printed}"),
        )


def _skp(c: Claim, ctx: Context) -> Iterator[Row]:
    for P in [F(11, 2), F(6), F(27, 4), F(68, 10), F(7), F(9), F(20), F(100)]:
        for k in (1, 2, 3):
            if k > 1 and not billingham.above_p_star(P):
                continue
            p, e = billingham.skp_solution(P, k)
            yield certify(
                c,
                f"P={P}, Solution {k}",
                ctx.game(billingham.skp_spec(P)),
                billingham.mapping(p),
                e,
            )
    # Solution 2 below P*: not an equilibrium (footnote 2)
    for P in [F(6), F(27, 4)]:
        p, e = billingham.skp_solution(P, 2)
        row = certify(
            c, f"P={P} < P*, Solution 2", ctx.game(billingham.skp_spec(P)), billingham.mapping(p), e
        )
        ok = row.status == "disagrees"
        yield Row(
            c.id,
            c.source,
            row.params + " (claimed: no equilibrium)",
            "verified" if ok else "disagrees",
            row.detail,
            row.exact,
        )


def _skp_maxmin(c: Claim, ctx: Context) -> Iterator[Row]:
    regimes = billingham.skp_maxmin_regimes()
    paper = {1: lambda a: [1], 2: lambda a: [1] if float(a) < 7 else [2], 3: lambda a: [1]}
    for lo, hi, choice in regimes:
        for player in (1, 2, 3):
            said = paper[player](lo)[0]
            got = choice[player]
            status = "verified" if said in got else "disagrees"
            note = "unique" if got == [said] else f"not unique: ties with {got}"
            yield Row(
                c.id,
                c.source,
                f"P in ({lo}, {hi}), P{player}",
                status,
                f"paper: Solution {said}; computed maxmin: {got} ({note})",
            )


def _table1_solution2(c: Claim, ctx: Context) -> Iterator[Row]:
    """Table 1's caption: Solution 2's values at P = 9 are twice eq. (16) (12 of 24 deals)."""
    P = F(billingham.TABLE1_P)
    _, e = billingham.skp_solution(P, 2)
    twice = tuple(2 * x for x in e)
    ok = all(
        abs(float(x) - y) <= 0.0005 for x, y in zip(twice, billingham.TABLE1_SOLUTION2, strict=True)
    )
    yield Row(
        c.id,
        c.source,
        "P=9, Solution 2, twice eq. (16)",
        "verified" if ok else "disagrees",
        f"2 x (16) = {fmt(twice)} = ({', '.join(f'{float(x):.4f}' for x in twice)}); "
        f"printed {fmt(billingham.TABLE1_SOLUTION2)}",
        {"values": [str(x) for x in twice]},
    )


def _table2(c: Claim, ctx: Context) -> Iterator[Row]:
    """App. D's Table 2: each deal's column sums to 1; the printed (B4, D9) entry does not."""
    b, cK, d = sp.symbols("b_J c_K d_Q")
    T = billingham.table2(b, cK, d)
    for j in range(10):
        total = sp.factor(sum(T[i][j] for i in range(5)))
        ok = total == 1
        if j != 8:
            yield Row(
                c.id,
                c.source,
                f"D{j + 1} = {billingham.DEALS[j]}: sum over B1..B5",
                "verified" if ok else "disagrees",
                f"sum {total}",
                {"sum": str(total)},
            )
            continue
        printed = 1 + sp.factor(total - T[3][8] + b * (1 - cK) - 1)
        yield Row(
            c.id,
            c.source,
            "D9 = JKQ, (B4, D9) printed b_J(1 - c_K)",
            "disagrees",
            f"with the printed entry the column sums to {printed}, not 1; the entry is "
            f"b_J(1 - c_K)d_Q (P2 calls with Q), as the derivation of (45) uses: sum {total}",
            {"sum_printed": str(printed), "sum_corrected": str(total)},
        )


def _estimators(c: Claim, ctx: Context) -> Iterator[Row]:
    """App. D: the estimators (44)-(47) "are unbiased": their large-L limits at Table 2's
    expected counts, exactly (sympy), for every (b_J, c_K, d_Q)."""
    b, cK, d = sp.symbols("b_J c_K d_Q", positive=True)
    N = billingham.table2_counts(b, cK, d)

    def limit(pair: tuple[Any, Any]) -> sp.Expr:
        return sp.factor(sp.nsimplify(pair[0] / pair[1]))

    for name, pair, truth in (
        ("(44), b_p", billingham.b_estimator(N), b),
        ("(45), d", billingham.d_estimator(N), d),
        ("(47), c_3", billingham.c3_estimator(N), cK),
    ):
        lim = limit(pair)
        yield Row(
            c.id,
            c.source,
            f"eq. {name}",
            "verified" if sp.simplify(lim - truth) == 0 else "disagrees",
            f"limit {lim}",
            {"limit": str(lim)},
        )
    printed = limit(billingham.c2_estimator(N, corrected=False))
    corrected = limit(billingham.c2_estimator(N, corrected=True))
    yield Row(
        c.id,
        c.source,
        "eq. (46), c_2 as printed",
        "verified" if sp.simplify(printed - cK) == 0 else "disagrees",
        f"eq. (46) as printed is biased: its limit is {printed} (4c(1+b)/(4+2b+bc)), not c_K; "
        "the corrected form 2(N33+N34+N39+N57)/(N33+N34+N39+N57+2(N22+N24+N47+N48)) "
        f"has limit {corrected}",
        {"limit_printed": str(printed), "limit_corrected": str(corrected)},
    )
    yield Row(
        c.id,
        c.source,
        "eq. (46) corrected: 2(N33+N34+N39+N57)/(N33+N34+N39+N57+2(N22+N24+N47+N48))",
        "verified" if sp.simplify(corrected - cK) == 0 else "disagrees",
        f"limit {corrected}, from counts Player 2 observes (its card and the cards shown)",
        {"limit": str(corrected)},
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "billingham-expectations",
        "Billingham, eqs. (30)-(32), (38)-(40)",
        "the expectations as polynomials in the strategy parameters and P",
        _expectation_polynomials,
    ),
    Claim(
        "billingham-third-street",
        "Billingham, eqs. (1)-(5), (7)-(10)",
        "the one-third street equilibria and expectations in every regime of P",
        _third_street,
    ),
    Claim(
        "billingham-solution-b",
        "Billingham, eqs. (6), (11)",
        "Solution B for P >= P* and its expectations",
        _third_street_b,
    ),
    Claim(
        "billingham-alliance",
        "Billingham, Sec. 2.1",
        "the alliance expectations at P = 5",
        _alliance,
    ),
    Claim(
        "billingham-p-star",
        "Billingham, Sec. 2",
        "P* = (5 + sqrt 73)/2 ~ 6.77",
        _p_star,
    ),
    Claim(
        "billingham-skp",
        "Billingham, eqs. (12)-(17)",
        "the three SKP solutions and their expectations",
        _skp,
    ),
    Claim(
        "billingham-maxmin",
        "Billingham, Sec. 3",
        "maxmin: P1 and P3 Solution 1; P2 Solution 1 below P = 7, Solution 2 above",
        _skp_maxmin,
    ),
    Claim(
        "billingham-table1-solution2",
        "Billingham, Table 1 caption",
        "Solution 2's ex-showdown values at P = 9 are -0.130, -0.104, 0.233",
        _table1_solution2,
    ),
    Claim(
        "billingham-table2",
        "Billingham, App. D, Table 2",
        "the probabilities of each betting sequence given each deal",
        _table2,
    ),
    Claim(
        "billingham-estimators",
        "Billingham, App. D, eqs. (44)-(47)",
        "the estimators converge to the true frequencies (unbiased); (46) as printed does not",
        _estimators,
    ),
)
