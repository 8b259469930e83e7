"""The literature check: every row asserted with the exact values involved."""

from fractions import Fraction as F

import pytest

from toypoker.literature import billingham as B
from toypoker.literature import kuhn1950 as K
from toypoker.literature.claims import CLAIMS, check


@pytest.fixture(scope="module")
def rows():
    return check()


def find(rows, claim, params):
    hits = [r for r in rows if r.claim == claim and r.params == params]
    assert hits, f"no row {claim} / {params}"
    return hits[0]


def test_every_claim_runs_and_is_classified(rows):
    assert {r.claim for r in rows} == set(CLAIMS)
    assert {r.status for r in rows} <= {"verified", "disagrees"}
    assert len(rows) > 150


def test_kuhn_family_and_matrices_verified(rows):
    # Kuhn (1950): the family is optimal with value -1/18; payoff scheme and 8x4 matrix
    fam = [r for r in rows if r.claim == "kuhn-family"]
    assert fam and all(
        r.status == "verified" and r.exact["values"] == ["-1/18", "1/18"] for r in fam
    )
    assert find(rows, "kuhn-matrices", "full 27x64 normal form").status == "verified"
    assert find(rows, "kuhn-matrices", "reduced 8x4 matrix (x6)").status == "verified"


def test_kuhn_basic_strategies_i_and_j_misprinted(rows):
    # Kuhn (1950) table of basic strategies: I, J printed (1/4, 5/12, 3/4);
    # the mixtures give beta = 7/12 = gamma/3 + 1/3 (on the family), and are optimal
    assert K.mixed_to_behaviour_I(K.BASIC["I"]) == (F(1, 4), F(7, 12), F(3, 4))
    for name in "IJ":
        r = find(rows, "kuhn-basic", name)
        assert r.status == "disagrees"
        assert r.exact["behaviour"] == ["1/4", "7/12", "3/4"]
        assert r.exact["gains"] == ["0", "0"]
    for name in "ABCDEFGHKL":
        assert find(rows, "kuhn-basic", name).status == "verified"


def test_kuhn_case1_value_formula(rows):
    # Kuhn (1950) case 1 prints -b/(6(2a+b)); exact value is -b^2/(6(2a+b))
    r = find(rows, "kuhn-general", "case 1: a=1, b=1/2")
    assert r.status == "disagrees" and r.exact["values"] == ["-1/60", "1/60"]
    assert r.exact["gains"] == ["0", "0"]  # the stated strategies are optimal
    assert (
        find(rows, "kuhn-general", "case 1 corrected value -b^2/(6(2a+b)): a=3, b=1").status
        == "verified"
    )


def test_kuhn_case3_eta_interval(rows):
    # printed eta in [b/(2a+b), (a+b)/(2a+b)]; exact [(2a-b)/(2a+b), b/(2a+b)]
    r = find(rows, "kuhn-general", "case 3: a=1, b=3/2, printed upper eta=5/7")
    assert r.status == "disagrees" and r.exact["gains"] == ["1/14", "0"]
    for eta in ("1/7", "3/7", "2/7"):
        ok = find(
            rows,
            "kuhn-general",
            f"case 3 corrected eta in [(2a-b)/(2a+b), b/(2a+b)]: a=1, b=3/2, eta={eta}",
        )
        assert ok.status == "verified" and ok.exact["values"] == ["-1/28", "1/28"]


def test_szafron_rows(rows):
    assert all(r.status == "verified" for r in rows if r.claim == "szafron-table3")
    t4 = find(rows, "szafron-table4", "beta=1/4")
    # Table 4 values; P2 gains k*beta = 1/96 (Sec. 6) and P1 gains 1/12
    assert t4.exact["values"] == ["-1/48", "-1/32", "5/96"]
    assert t4.exact["gains"] == ["1/12", "1/96", "0"]
    bad = find(rows, "szafron-text-b33", "c11=1/2: b11=1/5, b21=1/10, b23=1/36")
    assert bad.status == "disagrees" and bad.exact["gains"] == ["0", "0", "1/480"]
    assert find(rows, "szafron-robust", "P2 with b11 = b21").status == "verified"


def test_billingham_rows(rows):
    # eqs (30)-(32), (38)-(40) are polynomial identities with our expected values
    assert all(r.status == "verified" for r in rows if r.claim == "billingham-expectations")
    # eq (3) at P = 5 misses b_J <= 1/3
    r = find(rows, "billingham-third-street", "P=5, (3), (9): b_J=2/5, d_K=1")
    assert r.status == "disagrees" and r.exact["gains"] == ["0", "1/60", "0"]
    # eq (11) lacks 1/24 on c_Q: P = 9, c_Q = 1/13
    r = find(rows, "billingham-solution-b", "P=9, c_Q=1/13")
    assert r.status == "disagrees"
    assert r.exact["values"] == ["-7/108", "-773/14040", "187/1560"]
    assert "lacks a factor 1/24" in r.detail
    assert find(rows, "billingham-solution-b", "P=9, c_Q=0").status == "verified"
    assert find(rows, "billingham-p-star", "eq. (4): 6.67").status == "disagrees"
    # SKP: all three solutions exact equilibria with (15)-(17)
    for k in (1, 2, 3):
        assert find(rows, "billingham-skp", f"P=9, Solution {k}").status == "verified"


def test_skp_maxmin_regimes_exact():
    # Billingham Sec. 3: P2 switches from Solution 1 to 2 at P = 7; computed exactly,
    # Solution 3 ties with 2 up to (7 + sqrt 97)/2
    import sympy as sp

    regimes = B.skp_maxmin_regimes()
    bounds = [(sp.simplify(a), sp.simplify(b)) for a, b, _ in regimes]
    assert bounds[0] == (B.P_STAR, 7)
    assert sp.simplify(bounds[1][1] - (7 + sp.sqrt(97)) / 2) == 0
    assert [c[2] for _, _, c in regimes] == [[1, 2, 3], [2, 3], [2]]
    assert all(c[1] == [1, 2, 3] and c[3] == [1, 2, 3] for _, _, c in regimes)
