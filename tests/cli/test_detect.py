"""``toypoker detect`` (issue 12 item 7): hands until collusion shows."""

import json
import math

import pytest

from tests.collusion.test_detection import _kuhn2


def test_detect_reads_profiles_and_prints_hands_to_detection(cli, tmp_path):
    g, h0 = _kuhn2(0.25)
    _, h1 = _kuhn2(0.5)
    h0.to_json(tmp_path / "h0.json")
    h1.to_json(tmp_path / "h1.json")
    code, out, err = cli(
        "detect", "kuhn()", "--collusion", "kuhn()", "--h0", tmp_path / "h0.json",
        "--h1", tmp_path / "h1.json", "--tremble", "0", "--runs", "300",
        "--plot", tmp_path / "p.png", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    # the hand-computed divergence of tests/collusion/test_detection.py
    assert data["kl_per_hand"] == pytest.approx(math.log(4 / 3) / 6, rel=1e-12)
    assert data["hands_to_detection_95"] > 0 and data["scenario"] == "public"
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    code, out, err = cli(
        "detect", "kuhn()", "--collusion", "kuhn()", "--h0", tmp_path / "h0.json",
        "--h1", tmp_path / "h1.json", "--runs", "50",
    )  # fmt: skip
    assert code == 0 and "hands to detection" in out


def test_detect_bad_input_is_one_line(one_line_error, tmp_path):
    assert "--scenario" in one_line_error(
        "detect", "kuhn()", "--collusion", "kuhn()", "--scenario", "x"
    )
    assert "--team" in one_line_error(
        "detect", "kuhn()", "--collusion", "kuhn()", "--scenario", "private"
    )
    assert "public tree" in one_line_error(
        "detect", "kuhn()", "--collusion", "kuhn(players=3)", "--iterations", "5"
    )


def test_identical_hypotheses_are_refused_at_once(one_line_error, tmp_path):
    """Issue 24: H0 == H1 hung at 4.4 GB (no simulated test ever stops)."""
    import time

    from toypoker.profile import Profile

    t0 = time.monotonic()
    assert "nothing to detect" in one_line_error(
        "detect", "kuhn(players=3)", "--collusion", "kuhn(players=3)", "--iterations", "100000"
    )
    assert time.monotonic() - t0 < 10, "refused before solving"
    g, prof = _kuhn2(0.5)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        Profile(g, prof.probs).to_json(path)
    assert "same distribution" in one_line_error(
        "detect", "kuhn()", "--collusion", "kuhn()", "--h0", a, "--h1", b
    )


def test_detect_takes_the_team_optimal_play_as_h1(cli, one_line_error):
    """Issue 22 item 5: `--h1-play team-optimal` (weak team: TMECor, one plan drawn per
    hand; the value 5/132 is the README's TMECor of kuhn(players=3) team 23)."""
    code, out, err = cli("detect", "kuhn(players=3)", "--collusion", "kuhn(players=3,team=23)",
                         "--h1-play", "team-optimal", "--iterations", "300", "--runs", "100",
                         "--json")  # fmt: skip
    assert code == 0, err
    d = json.loads(out)
    assert d["h1_play"] == "team-optimal"
    assert "TMECor" in d["h1_profile"] and "team value 5/132" in d["h1_profile"]
    assert d["kl_per_hand"] > 0
    base = ("detect", "kuhn(players=3)", "--collusion", "kuhn(players=3,team=23)")
    assert "--h1-play" in one_line_error(*base, "--h1-play", "best")
    assert "not both" in one_line_error(*base, "--h1-play", "team-optimal", "--h1", "x.json")


def test_detect_private_team_agrees_with_the_collusion_spec(one_line_error):
    """As for eval and tmecor (issue 22's audit): ``--scenario private --team 23`` with
    ``--collusion "kuhn(players=3,team=12)"`` took seats 2 and 3 as the colluders of a
    game whose payoffs seats 1 and 2 share.  Now one line before any solve; a seat out
    of range says so (test failed before: the run went on)."""
    args = ("detect", "kuhn(players=3)", "--collusion", "kuhn(players=3,team=12)",
            "--scenario", "private", "--runs", "1", "--max-hands", "10")  # fmt: skip
    err = one_line_error(*args, "--team", "23")
    assert "--team 23" in err and "team=12" in err, err
    assert "seat 9 is out of range (seats 1..3)" in one_line_error(*args, "--team", "9")


def test_team_optimal_play_of_a_merged_spec_plays_on_the_seats(cli):
    """Issue 22 audit item 1: ``--collusion "...,strong=true,merge=true" --h1-play
    team-optimal`` raised IndexError (the merged game has 2 players, the team's seats
    are 3-player seats).  Independent path: the same spec without ``merge=true`` (the
    merged LP is then solved by default and mapped back): the same play, the same
    evidence per hand."""
    args = ("--h1-play", "team-optimal", "--iterations", "300", "--runs", "50", "--json")
    got = []
    for spec in ("kuhn(players=3,team=23,strong=true,merge=true)",
                 "kuhn(players=3,team=23,strong=true)"):  # fmt: skip
        code, out, err = cli("detect", "kuhn(players=3)", "--collusion", spec, *args)
        assert code == 0, err
        got.append(json.loads(out))
    assert "merged-team LP" in got[0]["h1_profile"]
    assert got[0]["h1_profile"] == got[1]["h1_profile"]
    assert got[0]["kl_per_hand"] == pytest.approx(got[1]["kl_per_hand"], rel=1e-12)


def test_detect_checks_team_in_both_scenarios(one_line_error):
    """Audit item 7: ``--team`` was ignored in the public scenario (a conflicting or
    malformed team ran, exit 0); now checked as in the private one, before solving."""
    base = ("detect", "kuhn(players=3)", "--collusion", "kuhn(players=3,team=23)",
            "--runs", "1", "--max-hands", "10")  # fmt: skip
    for scenario in ("public", "private"):
        err = one_line_error(*base, "--scenario", scenario, "--team", "12")
        assert "--team 12 conflicts with the spec's team=23" in err, err
        assert "team must be 1-based seats" in one_line_error(
            *base, "--scenario", scenario, "--team", "ab"
        )


def test_detect_refuses_different_tables_before_solving(one_line_error):
    """Audit items 8 and 23: kuhn against leduc solved ~10 s before saying the games
    differ, and the shortened line hid what differs.  Now at once, naming it."""
    import time

    t0 = time.monotonic()
    err = one_line_error("detect", "kuhn(players=3)", "--collusion", "leduc(players=3,team=23)",
                         "--iterations", "100000")  # fmt: skip
    assert time.monotonic() - t0 < 10, "refused before solving"
    assert "(kuhn vs leduc)" in err and "public tree" in err, err
    err = one_line_error("detect", "kuhn(players=3)", "--collusion", "kuhn(players=3,cards=5)",
                         "--iterations", "100000")  # fmt: skip
    assert "(cards=4 vs cards=5)" in err, err


def test_help_texts_say_what_the_audit_missed(cli):
    """Audit items 19-22: the help texts named below lacked what they now say (each
    string was absent before)."""

    def helped(*args):
        code, out, err = cli(*args, "--help")
        assert code == 0, err
        return " ".join(out.split())

    assert "default: the --collusion spec's team" in helped("detect")
    assert "its merged game" in helped("detect")
    text = helped("solve")
    assert "pcs-cfr+ (public chance sampling" in text and "chips per hand" in text
    assert "NashConv of the merged game" in text and "--milp-seconds" in text
    assert "``" not in helped("eval")
    assert "--milp-seconds" in helped("verify")
    text = helped("collusion", "tmecor")
    assert "default: no limit" in text and "by more than TOL" in text
    assert "--relaxation-seconds" in text and "0, the default: no such stage" in text
    assert '"plans" those in the final mixture' in text
    text = helped("collusion")
    assert "tmecor" in text and "toypoker detect" in text


def test_private_scenario_takes_the_specs_team_by_default(cli):
    """With --scenario private and no --team, the --collusion spec's team are the
    colluders (before: "--scenario private needs --team").  Same numbers as giving the
    same team with --team (independent path)."""
    base = ("detect", "kuhn(players=3)", "--collusion", "kuhn(players=3,team=23)",
            "--scenario", "private", "--iterations", "200", "--runs", "50", "--json")  # fmt: skip
    code, out, err = cli(*base)
    assert code == 0, err
    code2, out2, err2 = cli(*base, "--team", "23")
    assert code2 == 0, err2
    assert json.loads(out)["kl_per_hand"] == json.loads(out2)["kl_per_hand"]
