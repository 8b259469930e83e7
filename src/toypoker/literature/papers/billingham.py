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
from typing import Any

import numpy as np
import sympy as sp

from toypoker.errors import ToypokerError

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
def skp_solution3_d(P: Any) -> Any:
    """Solution 3's ``d_Q = (P^2 - 5P - 12)/(P(P+1))``, eq. (14); positive iff ``P > P*``.

    Written once: every other module (the ODE's fixed points, the repeated
    play's start, the claims) calls this.  ``P`` may be a Fraction, a float,
    a numpy array or a sympy expression.
    """
    return (P * P - 5 * P - 12) / (P * (P + 1))


def skp_solution(P: Any, k: int) -> tuple[dict[str, Any], tuple[Any, Any, Any]]:
    """Solution ``k`` (1, 2, 3) of SKP, eqs. (12)-(14), with expectations (15)-(17).

    Parameters
    ----------
    P
        The pot: a Fraction (exact), a float, or a sympy expression.
    k
        The solution number, 1, 2 or 3.

    Returns
    -------
    (params, expectations)
        ``{"b_J", "c_K", "d_Q"}`` and the printed ``(E1, E2, E3)``.
    """
    zero = P - P  # 0 of P's own type (Fraction, float, sympy)
    if k == 1:
        p = dict(b_J=2 / (P + 1), c_K=zero, d_Q=(P - 5) / (P + 1))  # (12)
        e = (-(P - 2) / (12 * (P + 1)), -(P - 2) / (12 * (P + 1)), (P - 2) / (6 * (P + 1)))  # (15)
    elif k == 2:
        p = dict(b_J=2 / P, c_K=(P - 5) / (P + 1), d_Q=zero)  # (13)
        e = (-(P - 2) / (12 * P), -(P - 1) * (P - 2) / (12 * P * (P + 1)), (P - 2) / (6 * (P + 1)))
    elif k == 3:
        p = dict(b_J=2 / P, c_K=2 / (P + 2), d_Q=skp_solution3_d(P))  # (14)
        e = (  # (17)
            -(P - 2) / (12 * P),
            -(P * P - P - 8) / (12 * P * (P + 2)),
            (2 * P * P - P - 12) / (12 * P * (P + 2)),
        )
    else:
        raise ToypokerError(f"SKP has solutions 1, 2, 3, not {k!r}")
    return p, e


def skp_expectations(P: Any, bJ: Any, cK: Any, dQ: Any) -> tuple[Any, Any, Any]:
    """SKP's expectations ``(E1, E2, E3)``, eqs. (38)-(40).

    The integrands of the ODE's expectation integrals (24)-(26) are these
    times 24.  Works on Fractions, floats, numpy arrays and sympy expressions.
    """
    e1 = (cK * (P * bJ - 2) - (P - 2) * bJ) / 24  # (38)
    e2 = (dQ * (cK - 2 + bJ * (1 - cK) * (P + 1)) + bJ * (cK + 3) - 2) / 24  # (39)
    e3 = (bJ * (P - 5 - (P + 1) * (dQ + (1 - dQ) * cK)) + 2 * cK + (2 - cK) * dQ + 2) / 24  # (40)
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
    sol = {k: skp_solution(P, k)[0] for k in (1, 2, 3)}

    exprs = {pl: set() for pl in (1, 2, 3)}
    for k1 in sol:
        for k2 in sol:
            for k3 in sol:
                e = skp_expectations(P, sol[k3]["b_J"], sol[k1]["c_K"], sol[k2]["d_Q"])
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


# ------------------------------------------------------- node numbers (Sec. 2)
# Billingham's node numbers 1-12 of three-player Kuhn poker's public tree, keyed by
# the public history (k check, b bet, c call, f fold); Sec. 2's game-tree figure.
NODE_NUMBERS: dict[str, int] = {
    "": 1, "k": 2, "kk": 3, "kkb": 4, "kkbf": 5, "kkbc": 6,
    "kb": 7, "kbf": 8, "kbc": 9, "b": 10, "bf": 11, "bc": 12,
}  # fmt: skip


def node_number(history: str) -> int | None:
    """The paper's node number (1-12) of a decision node of three-player Kuhn
    poker given by its public history, or ``None`` if the paper numbers none."""
    return NODE_NUMBERS.get(history)


# ---------------------------------------------------------- Table 1 (Sec. 4.2)
# Ex-showdown expectations (E1, E2, E3) of repeated play at P = 9 started near S3,
# keyed by (L, k); the twelve deals with P3 holding A or J only.
TABLE1: dict[tuple[int, float], tuple[float, float, float]] = {
    (6, 0.001): (-0.132, -0.098, 0.230),
    (6, 0.01): (-0.134, -0.101, 0.235),
    (12, 0.001): (-0.130, -0.103, 0.234),
    (12, 0.01): (-0.132, -0.105, 0.237),
    (24, 0.001): (-0.129, -0.105, 0.234),
    (24, 0.01): (-0.133, -0.107, 0.241),
    (48, 0.001): (-0.129, -0.105, 0.234),
    (48, 0.01): (-0.138, -0.110, 0.248),
    (96, 0.001): (-0.129, -0.106, 0.235),
    (96, 0.01): (-0.143, -0.112, 0.255),
    (192, 0.001): (-0.130, -0.107, 0.237),
    (192, 0.01): (-0.139, -0.115, 0.254),
}
TABLE1_P = 9
# Table 1's caption: "The corresponding values for Solution 2 are -0.130, -0.104 and 0.233"
# (twice eq. (16) at P = 9: only 12 of the 24 deals are played).
TABLE1_SOLUTION2 = (-0.130, -0.104, 0.233)


# ------------------------------------------------- App. D, eqs. (42)-(47), Table 2
DEALS = ("AJQ", "AQJ", "AKQ", "AKJ", "JAK", "JAQ", "JKA", "JQA", "JKQ", "JQK")  # D1..D10, (42)
SEQUENCES = ("k", "bff", "bcf", "bfc", "bcc")  # B1..B5, (43)


def table2(b: Any, c: Any, d: Any) -> list[list[Any]]:
    """App. D's Table 2 (one entry corrected, see below): the probability of betting
    sequence ``B_i`` given deal ``D_j``, as ``T[i-1][j-1]``, for P3's bluff ``b = b_J``,
    P1's call ``c = c_K`` and P2's call ``d = d_Q`` (any numeric or sympy type)."""
    zero = b - b
    one = zero + 1
    T = [[zero] * 10 for _ in range(5)]
    for j in range(4, 10):
        T[0][j] = 1 - b  # B1 = k: P3 checks J
    T[1][:4] = [1 - d, one, (1 - c) * (1 - d), 1 - c]  # B2 = bff
    T[1][8] = b * (1 - c) * (1 - d)
    T[2][2:6] = [c, c, b, b]  # B3 = bcf
    T[2][8] = b * c
    T[3][0], T[3][2] = d, (1 - c) * d  # B4 = bfc
    # (B4, D9) is printed b_J(1 - c_K); P2 then calls with Q, so it is b_J(1 - c_K)d_Q,
    # as the paper's own derivation of (45) uses ("N_{4,9} ~ b_J(1 - c_K)d_Q")
    T[3][6:10] = [b * (1 - c), b, b * (1 - c) * d, b]
    T[4][6] = b * c  # B5 = bcc
    return T


def table2_counts(b: Any, c: Any, d: Any) -> np.ndarray:
    """Table 2 as the counts array of the estimators, ``N[i, j] = T[i-1][j-1]``
    (shape (6, 11), object dtype): the expected counts per 12 rounds, so each
    estimator's large-L limit is its ratio at these counts."""
    N = np.full((6, 11), b - b, dtype=object)
    N[1:, 1:] = np.array(table2(b, c, d), dtype=object)
    return N


def b_estimator(N: Any) -> tuple[Any, Any]:
    """Eq. (44), Players 1 and 2's estimate of ``b_J`` as ``(numerator, denominator)``.

    ``N`` is the player's counts indexed as printed, ``N[i, j] = N_{i,j}`` for
    betting sequence ``B_i`` (1-5) and deal ``D_j`` (1-10): an array of shape
    (6, 11) (row and column 0 unused), float or object (sympy).  Written with
    plain indexing and arithmetic only, so the simulator compiles these very
    functions with numba.
    """
    num = N[3, 5] + N[3, 6] + N[4, 7] + N[5, 7] + N[4, 8] + N[4, 10]
    chk = N[1, 5] + N[1, 6] + N[1, 7] + N[1, 8] + N[1, 9] + N[1, 10]
    return num, num + 5.0 / 6.0 * chk


def d_estimator(N: Any) -> tuple[Any, Any]:
    """Eq. (45), Player 3's estimate of ``d_Q``, as ``(numerator, denominator)``."""
    x = N[4, 1] + N[4, 3]
    bff = N[2, 1] + N[2, 2] + N[2, 3] + N[2, 4] + N[2, 9]
    return 2.0 * x + N[4, 9], x + bff + N[4, 9]


def c2_estimator(N: Any, corrected: bool = True) -> tuple[Any, Any]:
    """Player 2's estimate of P1's call ``c_K``: eq. (46) as printed or corrected.

    Returns ``(numerator, denominator)``; ``N`` as in :func:`b_estimator`.

    Derivation (App. D, Table 2).  Player 2 sees its own card and every card
    shown down, so it can count (a sum where it cannot tell two deals apart):

    ========================  ============  ==========================================
    counts P2 observes        Table 2       when
    ========================  ============  ==========================================
    ``A = N33 + N34``         ``2 c``       P3 bets A, P1 calls with K (shown), P2 folds
    ``B = N22 + N24``         ``2 - c``     P3 bets A, P1 (Q or K, unseen) and P2 (J) fold
    ``C = N39 + N57``         ``2 b c``     P3 bluffs J, P1 calls with K (shown)
    ``D = N47 + N48``         ``b (2 - c)`` P3 bluffs J, P1 folds K or Q, P2 (A) calls
    ========================  ============  ==========================================

    each up to the same factor ``L/12``.  As ``L -> oo``, ``A/B -> 2c/(2-c)`` and
    ``C/D -> 2c/(2-c)``, so, as in the paper's derivation of (45), both
    ``2A/(A + 2B)`` and ``2C/(C + 2D)`` converge to ``c``, and so does their
    combination (numerators and denominators added)::

        c2 = 2(N33 + N34 + N39 + N57) / (N33 + N34 + N39 + N57 + 2(N22 + N24 + N47 + N48))

    whose limit is ``4c(1+b) / (2c(1+b) + 2(2-c)(1+b)) = c`` for every
    ``(b, c, d)``.  Eq. (46) as printed has ``2(N22 + N24) + N47 + N48`` in the
    denominator (the factor 2 stops before ``N47 + N48``): its limit is
    ``4c(1+b) / (4 + 2b + bc)``, which is ``c`` only when ``b = 0`` or ``c = 1``
    (at Solution 3 with ``P = 9`` it is 1.09 c).  Figure 16 and the text ("the
    estimators converge to the correct frequencies") fit the corrected form.
    """
    a = N[3, 3] + N[3, 4] + N[3, 9] + N[5, 7]  # A + C
    if corrected:
        return 2.0 * a, a + 2.0 * (N[2, 2] + N[2, 4] + N[4, 7] + N[4, 8])
    return 2.0 * a, a + 2.0 * (N[2, 2] + N[2, 4]) + N[4, 7] + N[4, 8]  # (46)


def c3_estimator(N: Any) -> tuple[Any, Any]:
    """Eq. (47), Player 3's estimate of ``c_K``, as ``(numerator, denominator)``."""
    shown = N[3, 3] + N[3, 4]
    num = 2.0 * shown + 1.5 * (N[3, 9] + N[5, 7])
    den = (
        shown
        + N[3, 9]
        + N[5, 7]
        + N[2, 1]
        + N[2, 2]
        + N[2, 3]
        + N[2, 4]
        + N[4, 1]
        + N[4, 3]
        + N[2, 9]
        + N[4, 7]
        + N[4, 8]
        + N[4, 9]
    )
    return num, den


def printed_c2_limit(b: Any, c: Any) -> Any:
    """The large-L limit of eq. (46) as printed: ``4c(1+b)/(4+2b+bc)``."""
    return 4 * c * (1 + b) / (4 + 2 * b + b * c)
