"""Billingham, "Simplified three player Kuhn poker": the one-third street game
(Sec. 2, eqs. 1-11), the alliance expectations at ``P = 5`` (Sec. 2.1), SKP
(Sec. 3, eqs. 12-17) and its maxmin choice.

Parameters (his notation; cards J < Q < K < A are ranks 1..4):
``b_J, b_Q`` P3's bluffs; ``c_Q, c_K`` P1's calls; ``d_Q, d_K`` P2's calls
after P1 folds; ``o_K`` P2's overcall after P1 calls.  Expectations are
"ex-showdown"; with each player having put ``P/3`` into the pot they equal our
expected values (checked as polynomials against eqs. 30-32 and 38-40).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

F = Fraction
SOURCE = "Billingham, simplified three-player Kuhn poker"

LABELS = {
    "b_J": "P3:1:kk",
    "b_Q": "P3:2:kk",
    "c_Q": "P1:2:kkb",
    "c_K": "P1:3:kkb",
    "d_Q": "P2:2:kkbf",
    "d_K": "P2:3:kkbf",
    "o_K": "P2:3:kkbc",
}
SKP_PARAMS = ("b_J", "c_K", "d_Q")
THIRD_STREET_PARAMS = ("b_J", "b_Q", "c_Q", "c_K", "d_Q", "d_K", "o_K")

P_STAR = (5 + sp.sqrt(73)) / 2  # the positive root of 12 + 5P - P^2 (Sec. 2)


def third_street_spec(P: Fraction) -> str:
    return f"kuhn_third_street(pot={P},rational=true)"


def skp_spec(P: Fraction) -> str:
    return f"skp(pot={P})"


def mapping(params: dict[str, Fraction]) -> dict[str, Fraction]:
    """Infoset label -> probability of the aggressive action."""
    return {LABELS[k]: v for k, v in params.items()}


def above_p_star(P: Fraction) -> bool:
    return bool(sp.Rational(P.numerator, P.denominator) > P_STAR)


# --------------------------------------------------- one-third street, eqs 1-11
def third_street_solution(
    P: Fraction,
    split: Fraction = F(1, 2),
    cQ: Fraction | None = None,
    total: Fraction | None = None,
    solution: str = "A",
) -> tuple[str, dict[str, Fraction], tuple[Fraction, ...]]:
    """The equilibrium of eqs. (1)-(6) for pot ``P`` and the expectations (7)-(11).

    ``split`` is the share of P3's total bluffing frequency put on J (only the
    total is prescribed, except in Solution B); ``total`` picks the total where
    an interval is allowed (P = 2, P = 5); ``cQ`` is Solution B's free ``c_Q``.
    Returns ``(equation, parameters, (E1, E2, E3))``.
    """
    z = F(0)
    base = dict(b_J=z, b_Q=z, c_Q=z, c_K=z, d_Q=z, d_K=z, o_K=z)
    if P < 2:
        return "(7), P < 2", {**base, "o_K": split}, (z, z, z)
    if P == 2:
        t = F(1, 3) if total is None else total
        return "(1), (7)", {**base, "b_J": t * split, "b_Q": t * (1 - split)}, (z, z, z)
    if P < 5:
        t = 2 / (P + 1)
        p = {**base, "b_J": t * split, "b_Q": t * (1 - split), "d_K": (2 * P - 4) / (P + 1)}
        e = (-(P - 2) / (12 * (P + 1)), -(P - 2) / (12 * (P + 1)), (P - 2) / (6 * (P + 1)))
        return "(2), (8)", p, e
    if P == 5:
        t = F(11, 30) if total is None else total
        p = {**base, "b_J": t * split, "b_Q": t * (1 - split), "d_K": F(1)}
        return "(3), (9)", p, (-t / 8, -F(1, 12) + t / 8, F(1, 12))
    e10 = (-(P - 2) / (12 * P), -(P - 1) * (P - 2) / (12 * P * (P + 1)), (P - 2) / (6 * (P + 1)))
    cK = (P - 5) / (P + 1)
    if solution == "B":
        c = F(1, P + 4) if cQ is None else cQ
        p = {**base, "b_J": 2 / P, "c_Q": c, "c_K": cK, "d_K": F(1)}
        return "(6), (11)", p, (e10[0], -c + e10[1], c + e10[2])
    t = 2 / P
    if not above_p_star(P):
        # (4): b_Q > (12 + 5P - P^2) / (6P(P+1)); put the rest on J
        bound = (12 + 5 * P - P * P) / (6 * P * (P + 1))
        bQ = min(t, bound + (t - bound) * (1 - split)) if bound < t else t
        p = {**base, "b_J": t - bQ, "b_Q": bQ, "c_K": cK, "d_K": F(1)}
        return "(4), (10)", p, e10
    p = {**base, "b_J": t * split, "b_Q": t * (1 - split), "c_K": cK, "d_K": F(1)}
    return "(5), (10)", p, e10


# ----------------------------------------------------------------- SKP 12-17
def skp_solution(P: Fraction, k: int) -> tuple[dict[str, Fraction], tuple[Fraction, ...]]:
    """Solution ``k`` (1, 2, 3) of SKP, eqs. (12)-(14), with expectations (15)-(17)."""
    if k == 1:
        p = dict(b_J=2 / (P + 1), c_K=F(0), d_Q=(P - 5) / (P + 1))
        e = (-(P - 2) / (12 * (P + 1)), -(P - 2) / (12 * (P + 1)), (P - 2) / (6 * (P + 1)))
    elif k == 2:
        p = dict(b_J=2 / P, c_K=(P - 5) / (P + 1), d_Q=F(0))
        e = (-(P - 2) / (12 * P), -(P - 1) * (P - 2) / (12 * P * (P + 1)), (P - 2) / (6 * (P + 1)))
    elif k == 3:
        p = dict(b_J=2 / P, c_K=2 / (P + 2), d_Q=(P * P - 5 * P - 12) / (P * (P + 1)))
        e = (
            -(P - 2) / (12 * P),
            -(P * P - P - 8) / (12 * P * (P + 2)),
            (2 * P * P - P - 12) / (12 * P * (P + 2)),
        )
    else:
        raise ValueError("SKP has solutions 1, 2, 3")
    return p, e


def skp_expectations(
    P: Fraction, bJ: Fraction, cK: Fraction, dQ: Fraction
) -> tuple[Fraction, Fraction, Fraction]:
    """Eqs. (38)-(40)."""
    e1 = (cK * (P * bJ - 2) - (P - 2) * bJ) / 24
    e2 = (dQ * (cK - 2 + bJ * (1 - cK) * (P + 1)) + bJ * (cK + 3) - 2) / 24
    e3 = (bJ * (P - 5 - (P + 1) * (dQ + (1 - dQ) * cK)) + 2 * cK + (2 - cK) * dQ + 2) / 24
    return e1, e2, e3


def skp_maxmin(P: Fraction) -> dict[int, list[int]]:
    """Each player's maxmin choice among the SKP solutions' strategies.

    Each player picks the strategy of one of the three solutions (P3 has two
    distinct ones, ``2/(P+1)`` and ``2/P``); a choice's worth is its worst
    expectation over the others' choices.  Returns, per player (1-based), the
    solutions (1-based) whose strategy attains the best worst case.
    """
    sols = {k: skp_solution(P, k)[0] for k in (1, 2, 3)}
    opts = {
        1: {k: s["c_K"] for k, s in sols.items()},
        2: {k: s["d_Q"] for k, s in sols.items()},
        3: {k: s["b_J"] for k, s in sols.items()},
    }
    best: dict[int, list[int]] = {}
    for player in (1, 2, 3):
        worth = {}
        for k in opts[player]:
            worst = None
            for k1, c in opts[1].items():
                for k2, d in opts[2].items():
                    for k3, b in opts[3].items():
                        choice = {1: k1, 2: k2, 3: k3}
                        if choice[player] != k:
                            continue
                        e = skp_expectations(P, b, c, d)[player - 1]
                        worst = e if worst is None else min(worst, e)
            worth[k] = worst
        top = max(worth.values())
        best[player] = sorted(k for k, v in worth.items() if v == top)
    return best


def skp_maxmin_regimes(
    p_min: Fraction = F(5), p_max: Fraction = F(100)
) -> list[tuple[sp.Expr, sp.Expr, dict[int, list[int]]]]:
    """The maxmin choices of every player as exact intervals of ``P`` (above ``P*``,
    where the three solutions exist).

    Each player's worth of an option is the minimum of finitely many rational
    functions of ``P``; the set of maxmin options can only change where two of
    them are equal.  Those roots are found exactly (sympy) and the choice is
    evaluated at a rational point inside every interval between them.
    """
    P = sp.symbols("P", positive=True)
    sol = {
        1: dict(b_J=2 / (P + 1), c_K=sp.Integer(0), d_Q=(P - 5) / (P + 1)),
        2: dict(b_J=2 / P, c_K=(P - 5) / (P + 1), d_Q=sp.Integer(0)),
        3: dict(b_J=2 / P, c_K=2 / (P + 2), d_Q=(P**2 - 5 * P - 12) / (P * (P + 1))),
    }

    def expect(b, c, d):
        return [
            (c * (P * b - 2) - (P - 2) * b) / 24,
            (d * (c - 2 + b * (1 - c) * (P + 1)) + b * (c + 3) - 2) / 24,
            (b * (P - 5 - (P + 1) * (d + (1 - d) * c)) + 2 * c + (2 - c) * d + 2) / 24,
        ]

    exprs = {pl: set() for pl in (1, 2, 3)}
    for k1 in sol:
        for k2 in sol:
            for k3 in sol:
                e = expect(sol[k3]["b_J"], sol[k1]["c_K"], sol[k2]["d_Q"])
                for pl in (1, 2, 3):
                    exprs[pl].add(sp.cancel(sp.together(e[pl - 1])))
    lo_bound = P_STAR
    roots = set()
    for pl in (1, 2, 3):
        ex = list(exprs[pl])
        for i in range(len(ex)):
            for j in range(i + 1, len(ex)):
                num = sp.numer(sp.together(ex[i] - ex[j]))
                if num == 0 or not num.has(P):
                    continue
                for r in sp.Poly(sp.expand(num), P).real_roots():
                    if lo_bound < r < p_max:
                        roots.add(r)
    points = sorted(
        [lo_bound, *roots, sp.Rational(p_max.numerator, p_max.denominator)], key=lambda x: float(x)
    )
    regimes = []
    for a, b in zip(points, points[1:], strict=False):
        mid = sp.nsimplify(sp.Rational(str(round(float((a + b) / 2), 9))))
        choice = skp_maxmin(F(int(mid.p), int(mid.q)))
        if regimes and regimes[-1][2] == choice:
            regimes[-1] = (regimes[-1][0], b, choice)
        else:
            regimes.append((a, b, choice))
    return regimes
