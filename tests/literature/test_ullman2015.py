"""Ullman (2015): the transcribed tables, his fictitious play reproduced on our
Mercer Hold'em, and the claims' rows.

Sources of the expected numbers: the thesis's tables (Tables 1-8, transcribed
in :mod:`toypoker.literature.papers.ullman2015`) and his code's output files
(rjullman/poker-nasheq, ``output/smh2p/smh2p.out`` and ``smh2p-summary.payoffs``:
704 iterations, last gain 9.9963959053187E-4, values -/+0.10400376104349932;
``output/smh3p/wc/12.out``: 116 iterations, values (-0.0905026..., 0.0027976...,
0.0877050...)).  The exact 2P-SMH value -19688/188955 is our LP's, cross-checked
by CFR+ (the issue's "the LP value of 2P-SMH equals the CFR limit").
"""

from fractions import Fraction as F

import numpy as np
import pytest

from toypoker.errors import SpecError
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.literature import figures_ullman
from toypoker.literature.papers import ullman2015
from toypoker.solvers import solve
from toypoker.solvers.ullman import run_ullman

from .claim_parts import part_rows


def _mercer(players, variant):
    try:
        return load_rows(f"mercer(players={players},variant={variant})")
    except SpecError as e:  # H1's games not registered in this checkout
        pytest.skip(str(e))


# ------------------------------------------------------------------ the data
def test_holdings_partition_in_2p_smh():
    # Sec. 4.2: 10 always, 2 never, Table 1's three mixed: the 15 holdings
    assert len(ullman2015.HANDS) == 15
    assert sorted(
        ullman2015.SMH2_ALWAYS + ullman2015.SMH2_NEVER + ullman2015.TABLE1.columns
    ) == sorted(ullman2015.HANDS)
    assert sorted(ullman2015.TEN + ullman2015.ALWAYS_BET_3P_MMH) == sorted(ullman2015.HANDS)


def test_tables_repeat_each_other():
    # Table 5's 2nd player row is Table 4's "1st Player Bets"; Table 8's "No Col"
    # rows are Table 5's 3rd player and Table 6's rows
    assert ullman2015.TABLE5.rows["2nd Player"] == ullman2015.TABLE4.rows["1st Player Bets"]
    assert ullman2015.TABLE8.rows["No Col, No Folding"] == ullman2015.TABLE5.rows["3rd Player"]
    assert (
        ullman2015.TABLE8.rows["No Col, 1st Player Folds"]
        == ullman2015.TABLE6.rows["1st Player Folds"]
    )
    assert (
        ullman2015.TABLE8.rows["No Col, 2nd Player Folds"]
        == ullman2015.TABLE6.rows["2nd Player Folds"]
    )
    for t in ullman2015.BET_TABLES:
        assert set(t.rows) == set(t.situations)
        assert all(len(v) == len(t.columns) for v in t.rows.values())
        assert all(0 <= x <= 100 for v in t.rows.values() for x in v)


def test_table7_is_zero_sum_within_its_error_and_b_c_share():
    # Table 7: each column sums to 0 within the stated error 0.00577; under win
    # sharing the colluders get equal payoffs, and the equal rows are B and C
    # (Public, Private), although the caption names A and B
    for block, factor in (
        (ullman2015.TABLE7_STRONG, 1.0),
        (ullman2015.TABLE7_WEAK_PRINTED, ullman2015.TABLE7_WEAK_FACTOR),
    ):
        for k in range(3):
            assert abs(sum(block[p][k] * factor for p in "ABC")) <= ullman2015.TABLE7_ERROR
        for k in range(2):
            assert block["B"][k] == block["C"][k] != block["A"][k]
    assert -ullman2015.TABLE7_STRONG["A"][0] > ullman2015.NONCOLLUDER_LOSS_AT_LEAST  # "over 17.5%"


def test_code_runs_are_the_notes_values_rounded():
    for run in ullman2015.CODE_RUNS:
        notes = ullman2015.NOTES_VALUES[run.game]
        assert all(abs(a - b) < 5e-4 for a, b in zip(run.values, notes, strict=True))
        assert run.last_gain < run.eps


def test_figures(tmp_path):
    figures_ullman.bet_heatmap(ullman2015.TABLE5, tmp_path / "t5.png", ours=ullman2015.TABLE5.rows)
    figures_ullman.collusion_bars(
        {"printed": ullman2015.TABLE7_STRONG}, tmp_path / "t7.png", title="Table 7 (strong)"
    )
    assert (tmp_path / "t5.png").stat().st_size > 0 and (tmp_path / "t7.png").stat().st_size > 0
    # a CollusionTable's payoffs in Table 7's layout: Table 7 itself, read back
    table = {
        (strength, c.lower()): tuple(block[p][k] for p in "ABC")
        for strength, block in (
            ("strong", ullman2015.TABLE7_STRONG),
            ("weak", ullman2015.TABLE7_WEAK_PRINTED),
        )
        for k, c in enumerate(ullman2015.TABLE7_SCENARIOS)
    }
    assert figures_ullman.table_payoffs(table, "strong") == ullman2015.TABLE7_STRONG
    assert figures_ullman.table_payoffs(table, "weak") == ullman2015.TABLE7_WEAK_PRINTED


# ------------------------------------------------------------------ the games
@pytest.mark.slow
def test_2p_smh_lp_value_and_cfr_limit():
    g = _mercer(2, "smh")
    r = solve(g, "lp")
    assert r.value_exact == (F(-19688, 188955), F(19688, 188955))
    c = solve(g, "cfr+", iterations=3000, target_nash_conv=1e-5)
    assert abs(c.values[0] - float(r.value_exact[0])) < 1e-4


def test_his_fictitious_play_reproduces_his_2p_smh_run():
    # poker-nasheq output/smh2p: 704 iterations, last printed gain 9.9963959053187E-4,
    # values -/+0.10400376104349932: reproduced bit for bit up to float summation order
    g = _mercer(2, "smh")
    run = next(r for r in ullman2015.CODE_RUNS if r.game == "2P-SMH")
    r = run_ullman(g, run.eps)
    assert r.iterations == run.iterations == 704
    assert r.options["last_check_gain"] == pytest.approx(run.last_gain, abs=1e-12)
    np.testing.assert_allclose(r.values, run.values, rtol=0, atol=1e-12)


@pytest.mark.slow
def test_his_fictitious_play_reproduces_his_3p_smh_run():
    g = _mercer(3, "smh")
    run = next(r for r in ullman2015.CODE_RUNS if r.game == "3P-SMH")
    r = run_ullman(g, run.eps)
    assert r.iterations == run.iterations == 116
    np.testing.assert_allclose(r.values, run.values, rtol=0, atol=1e-10)


@pytest.mark.slow
@pytest.mark.xdist_group("claims-ullman-2p")
def test_claim_rows_2p_smh():
    # the two claims' rows from the literature check's two-player part (run once a
    # worker process for test_claims.py too: claim_parts)
    rows = [
        r for r in part_rows("ullman-2p") if r.claim in ("ullman-2p-smh-values", "ullman-table1")
    ]
    assert {r.status for r in rows} == {"verified"}
    assert len(rows) == 6 + 6  # 2 text + 2 code values + iterations + last gain; 6 cells


# ------------------------------------------------------------------ collusion
def test_collusion_runs_are_win_sharing_and_zero_sum():
    # poker-nasheq output/smh3p/{sc,wc}/*-summary.payoffs: win sharing gives the two
    # colluders equal payoffs in the collusion game and in "mixed (collusion)"; every
    # line sums to 0 (float rounding); each run stopped below its eps
    for run in ullman2015.COLLUSION_RUNS:
        members = [int(c) - 1 for c in run.team]
        for vals in (run.public, run.private):
            assert vals[members[0]] == vals[members[1]]
        for vals in (run.public, run.private, run.suspicious):
            assert abs(sum(vals)) < 1e-15
        assert run.last_gain < run.eps == 0.01 and run.iterations > 0
    assert [r.team for r in ullman2015.COLLUSION_RUNS if r.strength == "strong"] == [
        "12",
        "13",
        "23",
    ]


@pytest.mark.slow
def test_his_fictitious_play_reproduces_his_strong_collusion_run():
    # poker-nasheq output/smh3p/sc/12.out and 12-summary.payoffs (his 0-based players 1
    # and 2 = our seats 2, 3): 68 iterations, last gain 0.009904884298550937, values
    # (-0.19202163996787378, 0.09601081998393689, 0.09601081998393689): his collusion
    # evaluator and card sharing are our team=23, sharing=win, strong=true
    _mercer(3, "smh")
    g = load_rows("mercer(players=3,variant=smh,team=23,strong=true,merge=false)")
    run = next(r for r in ullman2015.COLLUSION_RUNS if r.strength == "strong" and r.team == "23")
    r = run_ullman(g, run.eps)
    assert r.iterations == run.iterations == 68
    assert r.options["last_check_gain"] == pytest.approx(run.last_gain, abs=1e-12)
    np.testing.assert_allclose(r.values, run.public, rtol=0, atol=1e-10)


@pytest.mark.slow
def test_stored_equilibria_fit_the_games():
    # toypoker/literature/data: the stored 3P-SMH equilibria (Table 7 placements, team
    # of seats 2, 3 first) belong to the games compiled now and are equilibria to 1e-4
    from toypoker.evaluation import nash_conv
    from toypoker.literature.claims import ullman2015 as claims_ullman

    _mercer(3, "smh")
    prof = claims_ullman.stored_profiles("3P-SMH")
    assert prof.spec == ullman2015.SPEC["3P-SMH"] and prof.team == claims_ullman.TABLE7_TEAM == (
        1,
        2,
    )
    assert len(prof.sigma) == 7
    for spec in prof.sigma:
        g = load_rows(spec)
        assert nash_conv(g, prof.profile(g)) <= 1e-4


@pytest.mark.slow
@pytest.mark.xdist_group("claims-ullman-3p-smh")
def test_footnote6_row():
    # footnote 6: strong collusion gains "on the order of 10^-4" in 3P-SMH; the exact
    # gain is 0.0663 per member (the merged LP team values 0.06281, 0.13557, 0.19927
    # for teams {1,2}, {1,3}, {2,3}, over 6 members; their CFR bracket here to 1e-4)
    # the claim's row from the literature check's 3P-SMH part (claim_parts)
    (row,) = [r for r in part_rows("ullman-3p-smh") if r.claim == "ullman-footnote6"]
    assert row.status == "disagrees"
    assert "ours 0.066" in row.detail and "weak collusion" in row.detail
