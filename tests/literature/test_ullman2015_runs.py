"""Which of Ullman's (2015) runs gives each two-player bet table its printed digits
(src/toypoker/literature/claims/ullman2015_runs.py; issue 22 item 5)."""

import pytest

from toypoker.literature.claims import check
from toypoker.literature.claims.ullman2015_runs import PASSES, TABLES, _spans
from toypoker.literature.papers import ullman2015

from .claim_parts import part_rows


def test_spans_name_runs_of_consecutive_iterations():
    assert _spans([3, 4, 5, 9]) == "3-5, 9"
    assert _spans([1901]) == "1901"
    assert _spans(list(range(1, 30, 2))).endswith("... (15 in all)")


def test_every_pass_tries_his_code_run():
    # his output files: 2P-SMH at eps 0.001, 2P-MMH at eps 0.01 (poker-nasheq output/)
    for name, _table in TABLES:
        code = next(r for r in ullman2015.CODE_RUNS if r.game == name)
        epss, length = PASSES[name]
        assert code.eps in epss and length > code.iterations


@pytest.mark.slow
@pytest.mark.xdist_group("claims-ullman-2p")
def test_tables_2_and_3_are_his_2p_mmh_run_and_table_1_is_no_run():
    """Expected, by brute force over one pass of his fictitious play per game (~100 s):
    Tables 2 and 3 (34 cells) match his 2P-MMH run (eps 0.01, 1901 iterations, his
    output file) at that iteration and at no other of the first 2500; Table 1 matches 4
    of 6 cells at his 2P-SMH run (eps 0.001, 704 iterations) and no iteration of the first
    8500 gives all six (the printed profile is an equilibrium: ullman-2p-smh-profile)."""
    import json

    # the claim's rows from the literature check's two-player part (claim_parts)
    checked = [r for r in part_rows("ullman-2p") if r.claim == "ullman-runs"]
    json.dumps([r.to_dict() for r in checked])  # plain JSON types (`literature check --json`)
    rows = {r.params.split(" (")[0]: r for r in checked}
    assert set(rows) == {"Table 1", "Table 2", "Table 3"}
    t1, t2, t3 = rows["Table 1"], rows["Table 2"], rows["Table 3"]
    assert t1.status == "disagrees" and t1.exact["matched"] == 4 and t1.exact["stop"] == 704
    assert t1.exact["whole"] == []
    for row, n in ((t2, 18), (t3, 16)):
        assert row.status == "verified"
        assert (row.exact["matched"], row.exact["cells"], row.exact["stop"]) == (n, n, 1901)
        assert row.exact["whole"] == [1901]


def test_tables_4_to_8_are_his_eps_01_runs_and_table_7_is_not():
    """Data against data (no game is solved): his 3P-MMH output files
    (rjullman/poker-nasheq output/mmh3p, commit a7c3214; run.sh: eps 0.1) against the
    printed Tables 4-6, 8 and 7.  Expected: every bet cell is his run's to the printed
    digit except the cells printed '100', which his files give as 99.7 % (1 - 1/(2 * 186)
    rounded: fictitious play's floor after 185 iterations); Table 7's rotation averages
    of his six collusion runs match none of its 18 cells (strong Public A: -0.1416 by
    hand from the three summary files, printed -0.178)."""
    import json

    rows = check(["ullman-mmh-runs", "ullman-mmh-table7-runs", "ullman-tree-sizes"])
    json.dumps([r.to_dict() for r in rows])  # plain JSON types (`literature check --json`)
    tables = {r.params.split(" (")[0]: r for r in rows if r.claim == "ullman-mmh-runs"}
    assert {k: (v.status, v.exact["same"], v.exact["always"]) for k, v in tables.items()} == {
        "Table 4": ("verified", 16, 4),
        "Table 5": ("verified", 28, 2),
        "Table 6": ("verified", 18, 2),
        "Table 8": ("verified", 53, 7),
    }
    (t7,) = [r for r in rows if r.claim == "ullman-mmh-table7-runs"]
    assert t7.status == "disagrees" and t7.exact["same"] == 0
    assert "his -0.1416, printed -0.178" in t7.detail
    # by hand: (-0.3830037 + -0.2569417 + 0.2151695) / 3 = -0.1415920
    assert t7.exact["largest_gap"] > ullman2015.TABLE7_ERROR
    sizes = [r for r in rows if r.claim == "ullman-tree-sizes"]
    assert [r.status for r in sizes] == ["verified", "verified"]
    assert "8,887" in sizes[0].detail and "5,001,562" in sizes[1].detail


def test_his_mmh_runs_are_zero_sum_and_stop_below_their_eps():
    # each run's payoffs sum to 0 (a zero-sum game) and its last gain is below 0.1
    for r in ullman2015.MMH3_COLLUSION_RUNS:
        for vals in (r.public, r.private, r.suspicious):
            assert abs(sum(vals)) < 1e-12
        assert r.last_gain < r.eps == ullman2015.MMH3_CODE_EPS
    for table in (ullman2015.TABLE4, ullman2015.TABLE5, ullman2015.TABLE6, ullman2015.TABLE8):
        his = ullman2015.MMH3_RUN_BETS[table.name]
        assert set(his) == set(table.rows)
        assert all(len(v) == len(table.columns) for v in his.values())
