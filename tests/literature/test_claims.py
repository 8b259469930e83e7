"""The literature check: every row asserted with the exact values involved.

The check runs in the parts of :mod:`.claim_parts` (one ``check`` call each, rows equal
to the whole run's: see there), each part one ``xdist_group`` so that the two workers
share the minutes it takes; each part's rows are asserted in full below, the catalogue's
and the findings page's counts (docs/findings.md) from the parts' counts.
"""

from fractions import Fraction as F
from pathlib import Path

import pytest

from toypoker.errors import ToypokerError
from toypoker.literature.claims import CLAIMS, check, claim_ids
from toypoker.literature.papers import billingham, kuhn1950

from .claim_parts import PARTS, part_rows

FINDINGS = Path(__file__).resolve().parents[2] / "docs" / "findings.md"

# the whole check certifies 476 rows (minutes: 788 s at load 6-9): CI, not the quick part
pytestmark = pytest.mark.slow

#: rows per part: 476 in all.  190 before issue 15, + Table 1 caption, Table 2 (10),
#: estimators (5); + Ullman (190); + Table 8's collusion rows (30), Table 7's values (19),
#: his 3P-SMH collusion runs (20), footnote 6 (1); + which of his runs gives each table
#: (3 + 4 + 1) and his tree sizes (2).  Per part as run on 2026-11-26 (they sum to 476)
ROWS = {"papers": 206, "ullman-2p": 68, "ullman-3p-smh": 32, "ullman-3p-mmh": 170}

#: the disagreements, counted per claim (seed 0), per part
BAD: dict[str, dict[str, int]] = {
    # Kuhn (1950) I and J, case 1's value, case 3's printed eta; Szafron's Sec. 5 text
    # b33; Billingham eq. (3) at P = 5, eq. (11) without 1/24, the alliance's o_K,
    # eq. (4)'s 6.67, Table 2's (B4, D9) and eq. (46) as printed
    "papers": {
        "kuhn-basic": 2,
        "kuhn-general": 7,
        "szafron-text-b33": 2,
        "billingham-third-street": 1,
        "billingham-solution-b": 6,
        "billingham-alliance": 1,
        "billingham-p-star": 1,
        "billingham-table2": 1,
        "billingham-estimators": 1,
    },
    # Ullman (2015): Tables 2-3 (his FP at eps 0.01, not the LP equilibrium); Table 1 is
    # no run of his fictitious play
    "ullman-2p": {
        "ullman-table2": 16,
        "ullman-table3": 14,
        "ullman-runs": 1,
    },
    # the 3P-SMH text values (bet 8, not 4), the mixed situations of 3P-SMH, footnote 6
    # (10^-4)
    "ullman-3p-smh": {
        "ullman-3p-smh-values": 3,
        "ullman-smh-shape": 1,
        "ullman-footnote6": 1,
    },
    # Tables 4-6 and 8 (FP leftovers against CFR+), Table 7's caption (the equal rows
    # are B, C), Table 7's strong Public/Private outsider and weak payoffs; Table 7 is
    # not his published runs
    "ullman-3p-mmh": {
        "ullman-table4": 16,
        "ullman-table5": 28,
        "ullman-table6": 18,
        "ullman-table7": 4,
        "ullman-table8": 53,
        "ullman-table7-values": 10,
        "ullman-mmh-table7-runs": 1,
    },
}


def find(rows, claim, params):
    hits = [r for r in rows if r.claim == claim and r.params == params]
    assert hits, f"no row {claim} / {params}"
    return hits[0]


def test_the_parts_are_the_catalogue_and_the_readme_counts():
    ids = claim_ids()
    assert isinstance(CLAIMS, tuple) and len(set(ids)) == len(CLAIMS)
    every = [c for part in PARTS.values() for c in part]
    assert sorted(every) == sorted(ids) and len(every) == len(ids)  # each claim in one part
    # the first part is the catalogue's prefix: it draws what the whole run draws
    assert PARTS["papers"] == ids[: len(PARTS["papers"])]
    assert set(ROWS) == set(BAD) == set(PARTS)
    for part, bad in BAD.items():
        assert set(bad) <= set(PARTS[part])
    n_rows = sum(ROWS.values())
    assert n_rows == 476
    # the docs' findings page gives the same count (issue 24: the README said ~190 long after)
    n_bad = sum(n for bad in BAD.values() for n in bad.values())
    text = " ".join(FINDINGS.read_text(encoding="utf-8").split())
    assert f"Of the {n_rows} checks" in text
    assert f"{n_rows - n_bad} verify and {n_bad} disagree" in text


def check_part(part, rows):
    """Every claim of ``part`` ran, in the catalogue's order, and is classified; its rows
    and disagreements counted."""
    firsts = [r.claim for r in rows if r.claim not in {x.claim for x in rows[: rows.index(r)]}]
    assert firsts == [c for c in claim_ids() if c in PARTS[part]]
    assert {r.status for r in rows} <= {"verified", "disagrees"}
    assert len(rows) == ROWS[part]
    bad: dict[str, int] = {}
    for r in rows:
        if r.status == "disagrees":
            bad[r.claim] = bad.get(r.claim, 0) + 1
    assert bad == BAD[part]


#: the tests of the first part's rows: one worker, one run
PAPERS = pytest.mark.xdist_group("claims-papers")


@pytest.fixture(scope="module")
def rows():
    """The first part's rows (Kuhn, Szafron et al., Billingham)."""
    return part_rows("papers")


@PAPERS
def test_papers_claims_run_and_are_classified(rows):
    check_part("papers", rows)


@pytest.mark.xdist_group("claims-ullman-2p")
def test_ullman_2p_claims_run_and_are_classified():
    check_part("ullman-2p", part_rows("ullman-2p"))


@pytest.mark.xdist_group("claims-ullman-3p-smh")
def test_ullman_3p_smh_claims_run_and_are_classified():
    check_part("ullman-3p-smh", part_rows("ullman-3p-smh"))


@pytest.mark.xdist_group("claims-ullman-3p-mmh")
def test_ullman_3p_mmh_claims_run_and_are_classified():
    check_part("ullman-3p-mmh", part_rows("ullman-3p-mmh"))


def test_check_validates_ids_and_runs_a_subset():
    with pytest.raises(ToypokerError, match="unknown claim 'nope'"):
        check(["nope"])
    rows = check(["billingham-p-star"])
    assert [(r.params, r.status) for r in rows] == [
        ("abstract and Sec. 2.1: 6.77", "verified"),
        ("eq. (4): 6.67", "disagrees"),
    ]


@PAPERS
def test_billingham_estimator_rows(rows):
    # App. D: (44), (45), (47) converge to b_J, d_Q, c_K; (46) as printed to
    # 4c(1+b)/(4+2b+bc); the corrected (46) to c_K (exact limits, sympy)
    assert find(rows, "billingham-estimators", "eq. (44), b_p").exact == {"limit": "b_J"}
    assert find(rows, "billingham-estimators", "eq. (45), d").exact == {"limit": "d_Q"}
    assert find(rows, "billingham-estimators", "eq. (47), c_3").exact == {"limit": "c_K"}
    r = find(rows, "billingham-estimators", "eq. (46), c_2 as printed")
    assert r.status == "disagrees" and "biased" in r.detail
    assert r.exact == {
        "limit_printed": "4*c_K*(b_J + 1)/(b_J*c_K + 2*b_J + 4)",
        "limit_corrected": "c_K",
    }
    r = find(
        rows,
        "billingham-estimators",
        "eq. (46) corrected: 2(N33+N34+N39+N57)/(N33+N34+N39+N57+2(N22+N24+N47+N48))",
    )
    assert r.status == "verified" and r.exact == {"limit": "c_K"}
    # App. D Table 2: (B4, D9) is printed b_J(1 - c_K); the column then sums to more than 1
    r = find(rows, "billingham-table2", "D9 = JKQ, (B4, D9) printed b_J(1 - c_K)")
    assert r.status == "disagrees"
    assert r.exact == {"sum_printed": "b_J*(c_K - 1)*(d_Q - 1) + 1", "sum_corrected": "1"}
    # Table 1's caption: Solution 2 at P = 9 is twice eq. (16) = (-7/54, -14/135, 7/30)
    r = find(rows, "billingham-table1-solution2", "P=9, Solution 2, twice eq. (16)")
    assert r.status == "verified" and r.exact == {"values": ["-7/54", "-14/135", "7/30"]}


@PAPERS
def test_kuhn_family_and_matrices_verified(rows):
    # Kuhn (1950): the family is optimal with value -1/18; payoff scheme and 8x4 matrix
    fam = [r for r in rows if r.claim == "kuhn-family"]
    assert fam and all(
        r.status == "verified" and r.exact["values"] == ["-1/18", "1/18"] for r in fam
    )
    assert find(rows, "kuhn-matrices", "full 27x64 normal form").status == "verified"
    assert find(rows, "kuhn-matrices", "reduced 8x4 matrix (x6)").status == "verified"


@PAPERS
def test_kuhn_basic_strategies_i_and_j_misprinted(rows):
    # Kuhn (1950) table of basic strategies: I, J printed (1/4, 5/12, 3/4);
    # the mixtures give beta = 7/12 = gamma/3 + 1/3 (on the family), and are optimal
    assert kuhn1950.mixed_to_behaviour_I(kuhn1950.BASIC["I"]) == (F(1, 4), F(7, 12), F(3, 4))
    for name in "IJ":
        r = find(rows, "kuhn-basic", name)
        assert r.status == "disagrees"
        assert r.exact["behaviour"] == ["1/4", "7/12", "3/4"]
        assert r.exact["gains"] == ["0", "0"]
    for name in "ABCDEFGHKL":
        assert find(rows, "kuhn-basic", name).status == "verified"


@PAPERS
def test_kuhn_case1_value_formula(rows):
    # Kuhn (1950) case 1 prints -b/(6(2a+b)); exact value is -b^2/(6(2a+b))
    r = find(rows, "kuhn-general", "case 1: a=1, b=1/2")
    assert r.status == "disagrees" and r.exact["values"] == ["-1/60", "1/60"]
    assert r.exact["gains"] == ["0", "0"]  # the stated strategies are optimal
    assert (
        find(rows, "kuhn-general", "case 1 corrected value -b^2/(6(2a+b)): a=3, b=1").status
        == "verified"
    )


@PAPERS
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


@PAPERS
def test_szafron_rows(rows):
    t3 = [r for r in rows if r.claim == "szafron-table3"]
    assert len(t3) == 36 and all(
        r.status == "verified" and r.source.startswith("Szafron") for r in t3
    )
    t4 = find(rows, "szafron-table4", "beta=1/4")
    # Table 4 values; P2 gains k*beta = 1/96 (Sec. 6) and P1 gains 1/12
    assert t4.exact["values"] == ["-1/48", "-1/32", "5/96"]
    assert t4.exact["gains"] == ["1/12", "1/96", "0"]
    bad = find(rows, "szafron-text-b33", "c11=1/2: b11=1/5, b21=1/10, b23=1/36")
    assert bad.status == "disagrees" and bad.exact["gains"] == ["0", "0", "1/480"]
    assert find(rows, "szafron-robust", "P2 with b11 = b21").status == "verified"


@PAPERS
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
    # eqs. (15)-(17) at P = 9, exactly
    for k, values in (
        (1, ["-7/120", "-7/120", "7/60"]),
        (2, ["-7/108", "-7/135", "7/60"]),
        (3, ["-7/108", "-16/297", "47/396"]),
    ):
        r = find(rows, "billingham-skp", f"P=9, Solution {k}")
        assert r.status == "verified" and r.exact["values"] == values
        assert r.exact["gains"] == ["0", "0", "0"] and r.source == "Billingham, eqs. (12)-(17)"


def test_skp_maxmin_regimes_exact():
    # Billingham Sec. 3: P2 switches from Solution 1 to 2 at P = 7; computed exactly,
    # Solution 3 ties with 2 up to (7 + sqrt 97)/2
    import sympy as sp

    regimes = billingham.skp_maxmin_regimes()
    bounds = [(sp.simplify(a), sp.simplify(b)) for a, b, _ in regimes]
    assert bounds[0] == (billingham.P_STAR, 7)
    assert sp.simplify(bounds[1][1] - (7 + sp.sqrt(97)) / 2) == 0
    assert [c[2] for _, _, c in regimes] == [[1, 2, 3], [2, 3], [2]]
    assert all(c[1] == [1, 2, 3] and c[3] == [1, 2, 3] for _, _, c in regimes)


def test_a_rows_file_of_the_previous_version_reads_back_with_the_same_rows(tmp_path):
    """The rows file ``literature check -o`` wrote before this version (a JSON list of
    the six fields, key for key; text as json.dumps(..., indent=1) wrote it) is read
    back through the library (:func:`toypoker.literature.claims.read_rows`), row for
    row; a row of another claim or with a missing field is refused in one line."""
    from toypoker.errors import ToypokerError
    from toypoker.literature.claims import Row, read_rows

    old = (
        '[\n {\n  "claim": "kuhn1950.value",\n  "source": "Kuhn (1950), Sec. 3",\n'
        '  "params": "a=1, b=1",\n  "status": "verified",\n  "detail": "",\n'
        '  "exact": {\n   "value": "-1/18"\n  }\n }\n]\n'
    )
    path = tmp_path / "rows.json"
    path.write_text(old)
    assert read_rows(path, {"kuhn1950.value"}) == [
        Row("kuhn1950.value", "Kuhn (1950), Sec. 3", "a=1, b=1", "verified", "",
            {"value": "-1/18"})  # fmt: skip
    ]
    with pytest.raises(ToypokerError, match=r"row 1 is of claim 'kuhn1950.value'.*not one"):
        read_rows(path, {"szafron2013.family"})
    path.write_text(old.replace('  "detail": "",\n', ""))
    with pytest.raises(ToypokerError, match="row 1 is not a row of literature check -o"):
        read_rows(path, {"kuhn1950.value"})
