"""Billingham's data (literature.papers.billingham): SKP solutions, App. D's Table 2
and the estimators (44)-(47), their large-L limits exactly."""

from fractions import Fraction as F

import numpy as np
import pytest
import sympy as sp

from toypoker.errors import ToypokerError
from toypoker.literature.papers import billingham


def limit(pair):
    return sp.factor(sp.nsimplify(pair[0] / pair[1]))


def test_corrected_46_converges_to_c_and_printed_to_4c_1_plus_b_over_4_2b_bc():
    # App. D, Table 2 as expected counts; the limit of each ratio estimator, symbolically
    b, c, d = sp.symbols("b c d", positive=True)
    N = billingham.table2_counts(b, c, d)
    assert sp.simplify(limit(billingham.c2_estimator(N, corrected=True)) - c) == 0
    printed = limit(billingham.c2_estimator(N, corrected=False))
    assert sp.simplify(printed - 4 * c * (1 + b) / (4 + 2 * b + b * c)) == 0
    assert sp.simplify(printed - billingham.printed_c2_limit(b, c)) == 0
    # (44), (45), (47) are unbiased as printed
    assert sp.simplify(limit(billingham.b_estimator(N)) - b) == 0
    assert sp.simplify(limit(billingham.d_estimator(N)) - d) == 0
    assert sp.simplify(limit(billingham.c3_estimator(N)) - c) == 0


def test_limits_at_many_random_frequencies():
    rng = np.random.default_rng(46)
    for b, c, d in rng.uniform(0.01, 0.99, size=(500, 3)):
        N = billingham.table2_counts(float(b), float(c), float(d)).astype(float)
        num, den = billingham.c2_estimator(N, corrected=True)
        assert num / den == pytest.approx(c, rel=1e-12, abs=1e-15)
        num, den = billingham.c2_estimator(N, corrected=False)
        want = 4 * c * (1 + b) / (4 + 2 * b + b * c)
        assert num / den == pytest.approx(want, rel=1e-12, abs=1e-15)


def test_table2_columns_are_distributions():
    # each deal D1..D10 has some betting sequence: the columns sum to 1 (with the
    # (B4, D9) entry b_J (1 - c_K) d_Q; printed without d_Q)
    b, c, d = sp.symbols("b c d")
    T = billingham.table2(b, c, d)
    assert [sp.expand(sum(T[i][j] for i in range(5))) for j in range(10)] == [1] * 10
    assert T[3][8] == b * (1 - c) * d
    assert T[3][2] == (1 - c) * d  # the text's example: D3 = AKQ, B4 = bfc


def test_skp_solutions_written_once():
    P = F(9)
    assert billingham.skp_solution3_d(P) == F(
        81 - 45 - 12, 90
    )  # (P^2 - 5P - 12)/(P(P+1)), eq. (14)
    p, e = billingham.skp_solution(P, 3)
    assert p == {"b_J": F(2, 9), "c_K": F(2, 11), "d_Q": F(4, 15)}
    # eqs. (38)-(40) at a solution equal the printed (15)-(17)
    for k in (1, 2, 3):
        p, e = billingham.skp_solution(P, k)
        assert billingham.skp_expectations(P, p["b_J"], p["c_K"], p["d_Q"]) == e
    Ps = sp.symbols("P", positive=True)
    assert (
        sp.simplify(
            billingham.skp_solution(Ps, 3)[0]["d_Q"] - (Ps**2 - 5 * Ps - 12) / (Ps * (Ps + 1))
        )
        == 0
    )
    assert billingham.skp_solution(9.0, 1)[0]["c_K"] == 0.0
    with pytest.raises(ToypokerError):
        billingham.skp_solution(P, 4)


def test_node_numbers_and_table1():
    # Sec. 2: nodes 1-12 of three-player Kuhn poker's public tree
    assert sorted(billingham.NODE_NUMBERS.values()) == list(range(1, 13))
    assert (
        billingham.node_number("") == 1
        and billingham.node_number("kkbc") == 6
        and billingham.node_number("bc") == 12
    )
    assert billingham.node_number("x") is None
    # Table 1: 6 memories x 2 rates, E1 + E2 + E3 = 0 to the printed precision
    assert len(billingham.TABLE1) == 12 and billingham.TABLE1[(192, 0.01)] == (
        -0.139,
        -0.115,
        0.254,
    )
    assert all(abs(sum(v)) <= 0.0015 for v in billingham.TABLE1.values())
