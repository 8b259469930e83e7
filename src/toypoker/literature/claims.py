"""The catalogue of the papers' closed-form claims, each checked exactly.

A :class:`Claim` knows its source and how to instantiate itself over a grid of
its parameters (and random members of every family); :func:`check` certifies
each instance with the exact evaluator and returns :class:`Row` objects:
``verified``, or ``disagrees`` with the exact value beside the printed one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import sympy as sp

from ..evaluate import Evaluation, evaluate
from ..games import load_game
from ..profile import Profile
from . import billingham as B
from . import kuhn1950 as K
from . import szafron2013 as S

F = Fraction
HALF_ = F(1, 2)


@dataclass(frozen=True)
class Row:
    """One checked instance of a claim."""

    claim: str
    source: str
    params: str
    status: str  # "verified" or "disagrees"
    detail: str = ""
    exact: dict = field(default_factory=dict)  # exact values involved, as strings

    def to_dict(self) -> dict[str, object]:
        return {
            "claim": self.claim,
            "source": self.source,
            "params": self.params,
            "status": self.status,
            "detail": self.detail,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class Claim:
    id: str
    source: str
    statement: str
    run: Callable[[np.random.Generator], Iterator[Row]]


@functools.cache
def _game(spec: str):
    return load_game(spec)


def _fmt(values) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")"


def certify_instance(
    claim: Claim,
    params: str,
    spec: str,
    mapping: dict,
    printed: tuple | None,
    equilibrium: bool = True,
) -> Row:
    """Evaluate exactly; verified iff (equilibrium => all gains 0) and values == printed."""
    g = _game(spec)
    ev = evaluate(g, Profile.from_mapping(g, mapping, exact=True))
    problems = []
    if equilibrium and any(x != 0 for x in ev.gains):
        problems.append(f"not an equilibrium: gains {_fmt(ev.gains)}")
    if printed is not None and tuple(ev.values) != tuple(printed):
        problems.append(f"values {_fmt(ev.values)}, printed {_fmt(printed)}")
    exact = {"values": [str(v) for v in ev.values], "gains": [str(v) for v in ev.gains]}
    if problems:
        return Row(claim.id, claim.source, params, "disagrees", "; ".join(problems), exact)
    return Row(claim.id, claim.source, params, "verified", f"values {_fmt(ev.values)}", exact)


# =================================================================== Kuhn 1950
def _kuhn_family(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["kuhn-family"]
    gammas = [F(0), F(1, 3), F(1, 2), F(1)] + [F(int(rng.integers(0, 97)), 96) for _ in range(4)]
    for gm in gammas:
        yield certify_instance(
            c, f"gamma={gm}", "kuhn(players=2)", K.family(gm), (F(-1, 18), F(1, 18))
        )


def _kuhn_basic(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["kuhn-basic"]
    for name, mix in K.BASIC.items():
        got = K.mixed_to_behaviour_I(mix)
        want = K.BASIC_BEHAVIOUR[name]
        if got != want:
            cert = certify_instance(
                c,
                name,
                "kuhn(players=2)",
                K.behaviour(*got, F(1, 3), F(1, 3)),
                (F(-1, 18), F(1, 18)),
            )
            on_family = got[0] == got[2] / 3 and got[1] == got[2] / 3 + F(1, 3)
            yield Row(
                c.id,
                c.source,
                name,
                "disagrees",
                f"the mixture's behaviour is {_fmt(got)}, printed {_fmt(want)}; "
                f"{_fmt(got)} {'lies on' if on_family else 'is off'} the family "
                f"(alpha = gamma/3, beta = gamma/3 + 1/3) and is {cert.status} optimal "
                f"(value -1/18)",
                {"behaviour": [str(x) for x in got], **cert.exact},
            )
            continue
        prof = K.behaviour(*got, F(1, 3), F(1, 3))
        row = certify_instance(c, name, "kuhn(players=2)", prof, (F(-1, 18), F(1, 18)))
        yield Row(
            c.id,
            c.source,
            name,
            row.status,
            f"(alpha, beta, gamma) = {_fmt(got)}; {row.detail}",
            row.exact,
        )
    for i, mix in enumerate(K.II_OPTIMAL):
        got = K.mixed_to_behaviour_II(mix)
        status = "verified" if got == (F(1, 3), F(1, 3)) else "disagrees"
        yield Row(c.id, c.source, f"II optimal #{i + 1}", status, f"(xi, eta) = {_fmt(got)}")


def _kuhn_matrices(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["kuhn-matrices"]
    g = _game("kuhn(players=2)")
    bad = []
    for i, x in enumerate(K.REDUCED_ROWS):
        for j, y in enumerate(K.REDUCED_COLS):
            v = 6 * evaluate(g, K.pure_profile(g, x, y)).values[0]
            if v != K.REDUCED[i][j]:
                bad.append(f"{x} vs {y}: {v}, printed {K.REDUCED[i][j]}")
    yield Row(
        c.id,
        c.source,
        "reduced 8x4 matrix (x6)",
        "disagrees" if bad else "verified",
        "; ".join(bad[:3]) or "all 32 entries equal",
    )
    bad = []
    for x in K.PURE_I:
        for y in K.PURE_II:
            v = evaluate(g, K.pure_profile(g, x, y)).values[0]
            if v != K.scheme_payoff(x, y):
                bad.append(f"{x} vs {y}")
    yield Row(
        c.id,
        c.source,
        "full 27x64 normal form",
        "disagrees" if bad else "verified",
        f"{len(bad)} entries differ" if bad else "all 1728 entries equal the payoff scheme",
    )
    # value of the reduced matrix game with the printed optimal strategies
    xs = K.BASIC["A"]
    ys = [(F(1, 3), (0, 0, 3)), (F(1, 3), (0, 1, 3)), (F(1, 3), (2, 0, 3))]
    val = (
        sum(
            wx * wy * K.REDUCED[K.REDUCED_ROWS.index(x)][K.REDUCED_COLS.index(y)]
            for wx, x in xs
            for wy, y in ys
        )
        / 6
    )
    yield Row(
        c.id,
        c.source,
        "value of the reduced game",
        "verified" if val == F(-1, 18) else "disagrees",
        f"(A) vs II's first optimal strategy: {val}",
    )


def _kuhn_general(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["kuhn-general"]
    grid = [
        (F(1), F(1, 2)),
        (F(2), F(1)),
        (F(3), F(1)),
        (F(1), F(1)),
        (F(1), F(3, 2)),
        (F(2), F(3)),
        (F(1), F(5, 4)),
        (F(1), F(2)),
        (F(3, 2), F(3)),
    ]
    for a, b in grid:
        case, prof, value = K.general_case(a, b)
        spec = f"kuhn(players=2,ante={a},bet={b})"
        row = certify_instance(c, f"{case}: a={a}, b={b}", spec, prof, (value, -value))
        if case == "case 1" and row.status == "disagrees":
            fixed = -b * b / (6 * (2 * a + b))
            ok = row.exact["values"][0] == str(fixed) and set(row.exact["gains"]) == {"0"}
            row = Row(
                row.claim,
                row.source,
                row.params,
                row.status,
                row.detail
                + (
                    f"; the strategies are optimal and the exact value is -b^2/(6(2a+b)) = {fixed} "
                    "(the printed -b/(6(2a+b)) does not scale with the stakes)"
                    if ok
                    else ""
                ),
                row.exact,
            )
        yield row
        if case == "case 1":
            fixed = -b * b / (6 * (2 * a + b))
            yield certify_instance(
                c,
                f"case 1 corrected value -b^2/(6(2a+b)): a={a}, b={b}",
                spec,
                prof,
                (fixed, -fixed),
            )
        if case == "case 3":
            s = 2 * a + b
            for eta in ((a + b) / s,):
                _, prof, value = K.general_case(a, b, eta)
                yield certify_instance(
                    c, f"{case}: a={a}, b={b}, printed upper eta={eta}", spec, prof, (value, -value)
                )
            # I's indifference: bluffing a 1 needs eta >= (2a-b)/(2a+b), betting a 3
            # needs eta <= b/(2a+b) (= xi); the exact interval
            for eta in ((2 * a - b) / s, b / s, (2 * a - b + b) / (2 * s)):
                _, prof, value = K.general_case(a, b, eta)
                yield certify_instance(
                    c,
                    f"{case} corrected eta in [(2a-b)/(2a+b), b/(2a+b)]: a={a}, b={b}, eta={eta}",
                    spec,
                    prof,
                    (value, -value),
                )


# ============================================================ Szafron et al.
def _szafron_family(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["szafron-table3"]
    for sub in S.SUBFAMILIES:
        for _ in range(12):
            _, p = S.sample_member(rng, sub)
            params = (
                f"{sub}: b11={p['b11']}, b21={p['b21']}, b23={p['b23']}, "
                f"b32={p['b32']}, c11={p['c11']}, c33={p['c33']}"
            )
            yield certify_instance(
                c,
                params,
                S.GAME_SPEC,
                {S.label(k): v for k, v in p.items()},
                S.table3_utilities(p["b11"], p["b21"]),
            )


def _szafron_text_b33(rng: np.random.Generator) -> Iterator[Row]:
    """Sec. 5 text for c11 = 1/2 prints b33 = (1 + b11 + 2 b21)/2; Table 3 (and the
    proof) use b33 = 1/2 + (b11+b21)/2 + beta/2 - b23(1-b21)."""
    c = CLAIMS["szafron-text-b33"]
    for b11, b21, b23 in [
        (F(1, 4), F(0), F(1, 8)),
        (F(1, 5), F(1, 10), F(1, 36)),
        (F(1, 6), F(1, 12), F(0)),
        (F(1, 8), F(1, 8), F(0)),
    ]:
        b32 = F(1, 2)
        c33 = HALF_ - b32 + (4 * b11 + 3 * b21) / 8  # mid-range (Sec. 5)
        p = S.table3(b11, b21, b23, b32, F(1, 2), c33)
        p["b33"] = (1 + b11 + 2 * b21) / 2
        row = certify_instance(
            c,
            f"c11=1/2: b11={b11}, b21={b21}, b23={b23}",
            S.GAME_SPEC,
            {S.label(k): v for k, v in p.items()},
            S.table3_utilities(b11, b21),
        )
        table = S.table3(b11, b21, b23, b32, F(1, 2), c33)["b33"]
        detail = row.detail + f"; text b33={p['b33']}, Table 3 b33={table}"
        yield Row(c.id, c.source, row.params, row.status, detail, row.exact)


def _szafron_table4(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["szafron-table4"]
    g = _game(S.GAME_SPEC)
    ev: Evaluation = evaluate(g, S.profile(g, S.table4()))
    ok_values = tuple(ev.values) == S.TABLE4_UTILITIES
    ok_p2 = ev.gains[1] == S.KAPPA * F(1, 4)
    detail = (
        f"values {_fmt(ev.values)}; gains {_fmt(ev.gains)}: P2 gains k*beta = 1/96 as "
        f"stated, and P1 gains {ev.gains[0]} (not mentioned by the paper)"
    )
    brs = []
    for p, br in enumerate(ev.best_responses):
        if ev.gains[p] > 0:
            dev = [
                i.label
                for i in g.infosets_of(p)
                if br.choice[i.offset : i.offset + 2].tolist()
                != [int(x) for x in S.profile(g, S.table4()).probs[i.offset : i.offset + 2]]
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


def _szafron_robust(rng: np.random.Generator) -> Iterator[Row]:
    """Sec. 6: P2 with b11 = b21 guarantees -k/2, P3 with c11 = 0 guarantees k, when all
    play Table 2-3 strategies; checked against many sampled opponents (and extremes)."""
    c = CLAIMS["szafron-robust"]
    g = _game(S.GAME_SPEC)
    members = [S.sample_member(rng, sub)[1] for sub in S.SUBFAMILIES for _ in range(10)]
    p3_keys = ("c11", "c21", "c33", "c34")
    p2_keys = tuple(k for k in members[0] if k.startswith("b"))
    worst2, worst3 = None, None
    for mine in [m for m in members if m["b11"] == m["b21"]][:6]:
        for other in members:
            p = {**other, **{k: mine[k] for k in p2_keys}}
            v = evaluate(g, S.profile(g, p)).values[1]
            worst2 = v if worst2 is None else min(worst2, v)
    for mine in [m for m in members if m["c11"] == 0][:6]:
        for other in members:
            p = {**other, **{k: mine[k] for k in p3_keys}}
            v = evaluate(g, S.profile(g, p)).values[2]
            worst3 = v if worst3 is None else min(worst3, v)
    yield Row(
        c.id,
        c.source,
        "P2 with b11 = b21",
        "verified" if worst2 == -S.KAPPA / 2 else "disagrees",
        f"worst u2 over sampled Table 3 opponents: {worst2}",
    )
    yield Row(
        c.id,
        c.source,
        "P3 with c11 = 0",
        "verified" if worst3 == S.KAPPA else "disagrees",
        f"worst u3 over sampled Table 3 opponents: {worst3}",
    )


# =================================================================== Billingham
def _third_street(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["billingham-third-street"]
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
        splits = [F(0), F(1), F(int(rng.integers(1, 12)), 12)]
        for split in splits:
            totals = [None]
            if P == 2:
                totals = [F(0), F(2, 3), F(1, 3)]
            if P == 5:
                totals = [F(1, 3), F(2, 5)]
            for total in totals:
                eq, p, e = B.third_street_solution(P, split=split, total=total)
                row = certify_instance(
                    c,
                    f"P={P}, {eq}: " + ", ".join(f"{k}={v}" for k, v in p.items() if v),
                    B.third_street_spec(P),
                    B.mapping(p),
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


def _third_street_b(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["billingham-solution-b"]
    for P in [F(7), F(9), F(20)]:
        for cQ in [F(0), F(1, P + 4), 2 / (P + 4)]:
            eq, p, e = B.third_street_solution(P, cQ=cQ, solution="B")
            row = certify_instance(c, f"P={P}, c_Q={cQ}", B.third_street_spec(P), B.mapping(p), e)
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


def _alliance(rng: np.random.Generator) -> Iterator[Row]:
    """Sec. 2.1 at P = 5 with P2 (d_Q, d_K, o_K) = (0, 1, 0) and b_J + b_Q = 2/5."""
    from ..symbolic import symbolic_values

    c = CLAIMS["billingham-alliance"]
    bJ, cQ, cK = sp.symbols("b_J c_Q c_K")
    g = _game(B.third_street_spec(F(5)))
    assign = {
        B.LABELS["b_J"]: bJ,
        B.LABELS["b_Q"]: sp.Rational(2, 5) - bJ,
        B.LABELS["c_Q"]: cQ,
        B.LABELS["c_K"]: cK,
        B.LABELS["d_Q"]: 0,
        B.LABELS["d_K"]: 1,
        B.LABELS["o_K"]: 0,
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
        B.LABELS["b_J"]: sp.Rational(1, 3),
        B.LABELS["b_Q"]: 0,
        B.LABELS["c_Q"]: 0,
        B.LABELS["c_K"]: 0,
        B.LABELS["d_Q"]: dQ,
        B.LABELS["d_K"]: dK,
        B.LABELS["o_K"]: oK,
    }
    E = symbolic_values(g, assign)
    free = all(not e.has(dQ, dK, oK) for e in E)
    free_d = all(not e.has(dQ, dK) for e in E)
    detail = f"E = {_fmt(E)}"
    if not free and free_d:
        detail += (
            "; independent of d_Q and d_K but not of P2's overcall o_K (an overcall "
            "with K against P1's A only costs P2)"
        )
    yield Row(
        c.id, c.source, "b_J=1/3, b_Q=0, c_K=c_Q=0", "verified" if free else "disagrees", detail
    )


def _expectation_polynomials(rng: np.random.Generator) -> Iterator[Row]:
    from ..symbolic import values_in_pot

    c = CLAIMS["billingham-expectations"]
    P = sp.symbols("P")
    sy = {k: sp.symbols(k) for k in B.THIRD_STREET_PARAMS}
    bJ, bQ, cQ, cK, dQ, dK, oK = (sy[k] for k in B.THIRD_STREET_PARAMS)
    E = values_in_pot(
        lambda p: _game(B.third_street_spec(p)),
        {B.LABELS[k]: sy[k] for k in B.THIRD_STREET_PARAMS},
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
    yield from _identity_rows(
        c, E, printed, [f"eq. ({q}), E{k + 1}(P, 7 parameters)" for k, q in enumerate((30, 31, 32))]
    )
    E = values_in_pot(lambda p: _game(B.skp_spec(p)), {B.LABELS[k]: sy[k] for k in B.SKP_PARAMS}, P)
    printed = list(B.skp_expectations(P, bJ, cK, dQ))  # eqs. (38)-(40)
    yield from _identity_rows(
        c,
        E,
        printed,
        [f"eq. ({q}), SKP E{k + 1}(P, b_J, c_K, d_Q)" for k, q in enumerate((38, 39, 40))],
    )


def _identity_rows(c: Claim, E: list, printed: list, params: list[str]) -> Iterator[Row]:
    """One row per expected value: verified when ours equals the printed polynomial."""
    for e, q, label in zip(E, printed, params, strict=True):
        ok = sp.expand(e - q) == 0
        yield Row(
            c.id,
            c.source,
            label,
            "verified" if ok else "disagrees",
            "polynomial identity" if ok else f"difference {sp.factor(e - q)}",
        )


def _p_star(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["billingham-p-star"]
    val = float(B.P_STAR)
    for where, printed in (("abstract and Sec. 2.1: 6.77", 6.77), ("eq. (4): 6.67", 6.67)):
        ok = abs(val - printed) < 0.005
        yield Row(
            c.id,
            c.source,
            where,
            "verified" if ok else "disagrees",
            f"(5 + sqrt(73))/2 = {val:.6f}" + ("" if ok else f", printed {printed}"),
        )


def _skp(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["billingham-skp"]
    for P in [F(11, 2), F(6), F(27, 4), F(68, 10), F(7), F(9), F(20), F(100)]:
        for k in (1, 2, 3):
            if k > 1 and not B.above_p_star(P):
                continue
            p, e = B.skp_solution(P, k)
            yield certify_instance(c, f"P={P}, Solution {k}", B.skp_spec(P), B.mapping(p), e)
    # Solution 2 below P*: not an equilibrium (footnote 2)
    for P in [F(6), F(27, 4)]:
        p, e = B.skp_solution(P, 2)
        row = certify_instance(c, f"P={P} < P*, Solution 2", B.skp_spec(P), B.mapping(p), e)
        ok = row.status == "disagrees"
        yield Row(
            c.id,
            c.source,
            row.params + " (claimed: no equilibrium)",
            "verified" if ok else "disagrees",
            row.detail,
            row.exact,
        )


def _skp_maxmin(rng: np.random.Generator) -> Iterator[Row]:
    c = CLAIMS["billingham-maxmin"]
    regimes = B.skp_maxmin_regimes()
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


CLAIMS: dict[str, Claim] = {}


def _add(id_: str, source: str, statement: str, run: Callable) -> None:
    CLAIMS[id_] = Claim(id_, source, statement, run)


_add(
    "kuhn-family",
    "Kuhn (1950), behaviour parameters",
    "alpha = gamma/3, beta = gamma/3 + 1/3, (xi, eta) = (1/3, 1/3) are optimal; value -1/18",
    _kuhn_family,
)
_add(
    "kuhn-basic",
    "Kuhn (1950), strategies (A)-(L)",
    "the basic optimal strategies and their behaviour parameters",
    _kuhn_basic,
)
_add(
    "kuhn-matrices",
    "Kuhn (1950), payoff scheme and reduced matrix",
    "the 27x64 normal form from the payoff scheme and the reduced 8x4 matrix",
    _kuhn_matrices,
)
_add(
    "kuhn-general",
    "Kuhn (1950), cases 1-4",
    "solutions and values for ante a and bet b",
    _kuhn_general,
)
_add(
    "szafron-table3",
    "Szafron et al. (2013), Tables 2-3",
    "every member of the three sub-families is an equilibrium with the Table 3 utilities",
    _szafron_family,
)
_add(
    "szafron-text-b33",
    "Szafron et al. (2013), Sec. 5 (c11 = 1/2 text)",
    "b33 = (1 + b11 + 2 b21)/2 in the c11 = 1/2 sub-family",
    _szafron_text_b33,
)
_add(
    "szafron-table4",
    "Szafron et al. (2013), Table 4 and Sec. 6",
    "the mixed profile's utilities; P2 gains k*beta by deviating",
    _szafron_table4,
)
_add(
    "szafron-robust",
    "Szafron et al. (2013), Sec. 6",
    "P2 with b11 = b21 guarantees -k/2; P3 with c11 = 0 guarantees k",
    _szafron_robust,
)
_add(
    "billingham-expectations",
    "Billingham, eqs. (30)-(32), (38)-(40)",
    "the expectations as polynomials in the strategy parameters and P",
    _expectation_polynomials,
)
_add(
    "billingham-third-street",
    "Billingham, eqs. (1)-(5), (7)-(10)",
    "the one-third street equilibria and expectations in every regime of P",
    _third_street,
)
_add(
    "billingham-solution-b",
    "Billingham, eqs. (6), (11)",
    "Solution B for P >= P* and its expectations",
    _third_street_b,
)
_add("billingham-alliance", "Billingham, Sec. 2.1", "the alliance expectations at P = 5", _alliance)
_add("billingham-p-star", "Billingham, Sec. 2", "P* = (5 + sqrt 73)/2 ~ 6.77", _p_star)
_add(
    "billingham-skp",
    "Billingham, eqs. (12)-(17)",
    "the three SKP solutions and their expectations",
    _skp,
)
_add(
    "billingham-maxmin",
    "Billingham, Sec. 3",
    "maxmin: P1 and P3 Solution 1; P2 Solution 1 below P = 7, Solution 2 above",
    _skp_maxmin,
)


def check(
    claims: list[str] | None = None, seed: int = 0, progress: Callable[[str], None] | None = None
) -> list[Row]:
    """Run the claims (all by default) and return one row per checked instance."""
    rng = np.random.default_rng(seed)
    rows: list[Row] = []
    for cid, claim in CLAIMS.items():
        if claims and cid not in claims:
            continue
        if progress:
            progress(cid)
        rows.extend(claim.run(rng))
    return rows
