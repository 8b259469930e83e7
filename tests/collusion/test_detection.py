"""Collusion detection by a sequential likelihood-ratio test (src/toypoker/collusion/detection.py);
issue 12 item 7 (beyond Ullman 2015)."""

import math

import numpy as np
import pytest

from toypoker.collusion.detection import detect, observation_keys, terminal_probabilities
from toypoker.errors import ToypokerError
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.profile import Profile


def _kuhn2(bet_with_king: float) -> tuple:
    """Kuhn 2p: P1 checks J and Q, bets K with ``bet_with_king``; P2 checks behind and
    calls a bet; P1 never faces a bet."""
    g = load_rows("kuhn()")
    rows = {
        "P1:1:": [1, 0], "P1:2:": [1, 0], "P1:3:": [1 - bet_with_king, bet_with_king],
        **{f"P2:{c}:k": [1, 0] for c in (1, 2, 3)}, **{f"P2:{c}:b": [0, 1] for c in (1, 2, 3)},
        **{f"P1:{c}:kb": [1, 0] for c in (1, 2, 3)},
    }  # fmt: skip
    sigma = np.array([x for inf in g.infosets for x in rows[inf.label]], dtype=float)
    return g, Profile(g, sigma)


def test_observations_hide_folded_cards_and_show_showdowns():
    g, prof = _kuhn2(0.5)
    key, n = observation_keys(g)
    p = terminal_probabilities(g, prof)
    assert p.sum() == pytest.approx(1.0, abs=1e-15)
    # Kuhn 2p: 5 terminal nodes; showdowns (kk, bc, kbc) show both cards (6 deals each),
    # folds (bf, kbf) show nothing: 3 * 6 + 2 = 20 observations
    assert n == 20


def test_kl_divergence_is_the_hand_computed_one():
    # H0 bets K 1/4 of the time, H1 half: observations 'bc' with (K, x) have 1/24 vs
    # 1/12, 'kk' with (K, x) 1/8 vs 1/12, the rest equal, so
    # KL(H1 || H0) = 2/12 log 2 + 2/12 log(2/3) = log(4/3) / 6
    g, h0 = _kuhn2(0.25)
    _, h1 = _kuhn2(0.5)
    d = detect(g, h0, g, h1, runs=400, rng=np.random.default_rng(1))
    assert d.kl == pytest.approx(math.log(4 / 3) / 6, rel=1e-12)
    # Wald's average sample number under H1 against the simulated SPRT (400 runs)
    upper, lower = math.log(0.95 / 0.05), math.log(0.05 / 0.95)
    assert d.asn1 == pytest.approx((0.95 * upper + 0.05 * lower) / d.kl, rel=1e-12)
    assert np.mean(d.stops) == pytest.approx(d.asn1, rel=0.2)
    assert d.detected.mean() > 0.9 and d.false_alarms < 0.1
    assert d.hands_95 is not None and d.hands_95 > np.median(d.stops)
    hands, share = d.power_curve()
    assert share[-1] == pytest.approx(d.detected.mean()) and np.all(np.diff(share) >= 0)


def test_identical_play_is_never_detected():
    g, h0 = _kuhn2(0.25)
    d = detect(g, h0, g, h0, runs=20, max_hands=500, seed=3)
    assert d.kl == 0 and d.hands_95 is None and not d.detected.any()


def test_games_of_different_trees_are_refused():
    g, h0 = _kuhn2(0.25)
    g3 = load_rows("kuhn(players=3)")
    with pytest.raises(ToypokerError, match="do not share the public tree"):
        detect(g, h0, g3, Profile.uniform(g3))
    with pytest.raises(ToypokerError, match="alpha"):
        detect(g, h0, g, h0, alpha=0.7)


def test_a_trembling_observer_weighs_never_taken_actions_finitely():
    # H0 never bets a King, H1 always does: with exact zeros one such hand decides
    # (log-ratio ~690 nats); mixing both with uniform play at rate 0.01 makes a bet with
    # the King, seen at showdown, worth log(p1/p0) of the trembled models instead
    g, h0 = _kuhn2(0.0)
    _, h1 = _kuhn2(1.0)
    exact = detect(g, h0, g, h1, runs=50, seed=0)
    soft = detect(g, h0, g, h1, runs=50, seed=0, tremble=0.01)
    assert exact.kl > 100 and 0 < soft.kl < 5
    with pytest.raises(ToypokerError, match="tremble"):
        detect(g, h0, g, h1, tremble=1.0)


def test_detect_cli_reads_stored_equilibria_or_solves_the_merged_team(capsys, tmp_path):
    # strong collusion in kuhn(players=3) (team {2,3}, win sharing): H1 from the store
    # `toypoker collusion table7 --save` wrote, or solved as the merged team (default);
    # both give an H1 whose NashConv in the 3-player game is small, and the observer's
    # evidence per hand is positive
    import json

    from toypoker.cli import main

    store = tmp_path / "k.npz"
    assert main(["collusion", "table7", "kuhn(players=3)", "--team", "23", "--method",
                 "pdcfr+", "--iterations", "2000", "--target-nash-conv", "1e-6",
                 "--save", str(store), "--no-team-optimal", "--json"]) == 0  # fmt: skip
    capsys.readouterr()
    base = ["detect", "kuhn(players=3)", "--collusion", "kuhn(players=3,team=23,strong=true)",
            "--runs", "200", "--json"]  # fmt: skip
    assert main([*base, "--profiles", str(store)]) == 0
    stored = json.loads(capsys.readouterr().out)
    assert stored["h1_profile"].startswith("stored")
    assert main([*base, "--method", "pdcfr+", "--iterations", "2000"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert "merged team" in solved["h1_profile"]
    for d in (stored, solved):
        assert float(d["h1_profile"].rsplit("NashConv ", 1)[1].split()[0]) < 1e-4
        assert d["kl_per_hand"] > 0 and d["hands_to_detection_95"] > 0
    assert main([*base, "--strong-solve", "x"]) == 2
    assert "--strong-solve" in capsys.readouterr().err


def test_identical_hypotheses_are_answered_at_once():
    """Issue 24: H0 == H1 gives zero evidence per hand, so no simulated test ever stops;
    2000 runs x 10^6 hands hung at 4.4 GB. The answer (never detected) is exact without
    simulating."""
    import time

    g, prof = _kuhn2(0.5)
    t0 = time.monotonic()
    d = detect(g, prof, g, prof, runs=2000, max_hands=1_000_000)
    assert time.monotonic() - t0 < 5
    assert d.kl == 0 and d.hands_95 is None and not d.detected.any()
    assert (d.stops == 1_000_001).all()


def test_team_optimal_h1_weak_is_the_tmecor_mixture_drawn_per_hand():
    """Issue 22 item 5: H1 = the weak team's TMECor plan in kuhn(players=3), team {2,3}.
    Expected: the mixture's weights sum to 1 exactly, it is worth the TMECor value 5/132
    (README, `toypoker collusion tmecor "kuhn(players=3)" --team 23`) against the
    outsider's TMECor strategy (a saddle point: independent path, the float evaluator on
    each pure plan), and its observation law is the weighted sum of the plans' laws."""
    from fractions import Fraction

    from toypoker.collusion.detection import mixture_probabilities, team_optimal_play
    from toypoker.engines.rows.values import expected_values

    g1 = load_rows("kuhn(players=3,team=23)")
    play = team_optimal_play(g1)
    assert (play.low, play.high) == (Fraction(5, 132), Fraction(5, 132))
    assert len(play.mixture) > 1 and "TMECor" in play.how
    assert math.isclose(sum(w for w, _ in play.mixture), 1.0, rel_tol=0, abs_tol=1e-12)
    value = sum(w * sum(float(expected_values(g1, p)[s]) for s in (1, 2)) for w, p in play.mixture)
    assert math.isclose(value, 5 / 132, rel_tol=0, abs_tol=1e-9)
    law = mixture_probabilities(g1, play.mixture)
    by_hand = sum(w * terminal_probabilities(g1, p) for w, p in play.mixture)
    assert np.array_equal(law, by_hand)
    assert math.isclose(law.sum(), 1.0, rel_tol=0, abs_tol=1e-12)
    g0 = load_rows("kuhn(players=3)")
    uniform = Profile(g0, np.concatenate([np.full(len(i.actions), 1 / len(i.actions))
                                          for i in g0.infosets]))  # fmt: skip
    d = detect(g0, uniform, g1, play.mixture, runs=100, seed=1, tremble=0.01)
    assert d.kl > 0
    with pytest.raises(ToypokerError, match="at least one"):
        mixture_probabilities(g1, [])


def test_team_optimal_h1_strong_is_the_merged_lp_equilibrium():
    """Strong win-sharing team {2,3} in kuhn(players=3): one profile, the merged game's LP
    equilibrium on the seats; the team's exact value 1/12 (README, `toypoker solve
    "kuhn(players=3,team=23,strong=true)" --method lp`)."""
    from fractions import Fraction

    from toypoker.collusion.detection import team_optimal_play

    play = team_optimal_play(load_rows("kuhn(players=3,team=23,strong=true)"))
    assert (play.low, play.high) == (Fraction(1, 12), Fraction(1, 12))
    assert len(play.mixture) == 1 and play.mixture[0][0] == 1.0
    with pytest.raises(ToypokerError, match="no team"):
        team_optimal_play(load_rows("kuhn(players=3)"))
    with pytest.raises(ToypokerError, match="exactly one player outside"):
        team_optimal_play(load_rows("kuhn(players=4,cards=5,team=12)"))


def test_merged_and_members_games_are_partners():
    """A merged team's game (merge=true) and its members' game: each the other's partner
    (both spellings of the members' spec), the same public tree and deals (what
    detect and transfer_profile need); other games have none."""
    from toypoker.collusion.detection import (
        check_same_table,
        members_game,
        merge_partners,
        spec_difference,
    )

    merged = load_rows("kuhn(players=3,team=23,strong=true,merge=true)")
    members = members_game(merged)
    assert members is not None and members.n_players == 3 and merged.n_players == 2
    assert members.spec in {load_rows(s).spec for s in merge_partners(merged)}
    assert merge_partners(members) == (merged.spec,)
    assert members_game(members) is None and merge_partners(load_rows("kuhn()")) == ()
    check_same_table(load_rows("kuhn(players=3)"), members)
    assert spec_difference("kuhn(players=3,cards=4)", "kuhn(players=3,cards=5)") == (
        "cards=4 vs cards=5"
    )
    assert spec_difference("kuhn(players=3)", "leduc(players=3,team=23)") == "kuhn vs leduc"
