"""Teams in ``toypoker solve``, ``eval`` and ``verify``: the team's joint gain beside
NashConv (src/toypoker/cli/tables.py team_lines)."""

import json

import pytest


def test_solve_eval_verify_show_the_team_gain(cli, tmp_path):
    # kuhn(players=3, team=12), weak: CFR+ stops at NashConv <= 1e-3 while the members,
    # playing jointly, would gain ~0.039 (the MILP of tests/test_team_response.py)
    path = tmp_path / "p.json"
    spec = "kuhn(players=3,team=12)"
    code, out, err = cli("solve", spec, "--target-nash-conv", "1e-3", "-o", path, "--no-table")
    assert code == 0, err
    assert "team P1+P2 (enumeration)" in out and "exceeds the target 0.001" in out
    code, out, _ = cli("solve", spec, "--target-nash-conv", "1e-3", "--json")
    res = json.loads(out)
    gain = res["team"]["gain"]
    assert res["nash_conv"] <= 1e-3 < gain
    # eval of the written profile gives the same gain; --team picks the seats of a game
    # without a team of its own (test_a_team_option_conflicting_with_the_specs_team...)
    code, out, _ = cli("eval", spec, path, "--json")
    assert code == 0 and json.loads(out)["team"]["gain"] == pytest.approx(gain, abs=1e-9, rel=0)
    # verify certifies exactly: the team's exact joint gain as a fraction
    code, out, _ = cli("verify", spec, path, "--json")
    assert code == 1 and "/" in json.loads(out)["team"]["gain"]["exact"]
    code, out, err = cli("eval", spec, path, "--team", "1")
    assert code == 2 and "team" in err and err.count("\n") == 1


def test_a_team_option_conflicting_with_the_specs_team_is_refused(cli, one_line_error, tmp_path):
    """Audit of issue 22: ``eval "kuhn(players=3,team=12)" p --team 23`` (and solve,
    verify) evaluated team 23 in the game whose payoffs team 12 shares, without a word.
    Now one line, exit 2; the spec's own seats (in any order) are fine, as is --team on a
    spec without a team (test failed before: exit 0)."""
    spec = "kuhn(players=3,team=12)"
    path = tmp_path / "p.json"
    assert cli("solve", spec, "--iterations", "10", "-o", path, "--no-table")[0] == 0
    for args in (("eval", spec, path), ("verify", spec, path), ("solve", spec)):
        err = one_line_error(*args, "--team", "23")
        assert "--team 23" in err and "team=12" in err, err
    code, out, err = cli("eval", spec, path, "--team", "21", "--json")
    assert code == 0 and json.loads(out)["team"]["team"] == "12", err
    plain = tmp_path / "plain.json"
    assert cli("solve", "kuhn(players=3)", "--iterations", "10", "-o", plain, "--no-table")[0] == 0
    code, out, err = cli("eval", "kuhn(players=3)", plain, "--team", "23", "--json")
    assert code == 0 and json.loads(out)["team"]["team"] == "23", err


def test_a_team_seat_out_of_range_says_so(cli, one_line_error, tmp_path):
    """Audit of issue 22: ``--team 9`` on a three-player game said "at least 2 distinct
    seats"; it names a seat the game does not have (seats 1..3).  Test failed before."""
    path = tmp_path / "p.json"
    assert cli("solve", "kuhn(players=3)", "--iterations", "10", "-o", path, "--no-table")[0] == 0
    for args in (("eval", "kuhn(players=3)", path), ("verify", "kuhn(players=3)", path),
                 ("solve", "kuhn(players=3)")):  # fmt: skip
        for team, seat in (("9", "9"), ("14", "4")):
            err = one_line_error(*args, "--team", team)
            assert f"seat {seat} is out of range (seats 1..3)" in err, err
        assert "at least 2 distinct seats" in one_line_error(*args, "--team", "2")


def test_a_largest_gain_target_also_says_the_team_gains_more(cli):
    """Audit item 3: with --target-max-gain the run stopped by its target while the team
    gained ~0.167 (the MILP joint response printed beside it), and no line said so (only
    --target-nash-conv had it).  Issue 22: any run whose team gain exceeds its target."""
    code, out, err = cli("solve", "kuhn(players=3)", "--team", "12", "--target-max-gain", "1e-3",
                         "--no-table")  # fmt: skip
    assert code == 0, err
    assert "team P1+P2 (" in out and "exceeds the target 0.001" in out, out


def test_seeds_show_each_seeds_team_evaluation(cli):
    """Audit item 4: ``--team 12 --seeds 2`` accepted the team and ignored it (no team
    line, no team fields in the JSON).  Now each seed's joint best-response gain; a
    strong team's seeds say they were solved merged.  The gains are the exact joint
    response's of each seed's profile (tests/test_team_response.py checks it against
    brute force); what answered (MILP, enumeration...) is not this test's concern."""
    args = ("--method", "es-mccfr", "--seeds", "2", "--iterations", "300", "--no-table")
    code, out, err = cli("solve", "kuhn(players=3)", "--team", "12", *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [t["seed"] for t in data["team"]] == [0, 1]
    assert all(t["team"] == "12" and t["how"] and t["gain"] > 0 for t in data["team"])
    code, out, err = cli("solve", "kuhn(players=3)", "--team", "12", *args)
    assert code == 0, err
    assert "seed 0: team P1+P2 (" in out and "seed 1: team P1+P2 (" in out, out
    code, out, err = cli("solve", "kuhn(players=3,team=12,strong=true)", *args)
    assert code == 0, err
    assert "solved as the merged team" in out and "seed 1: team P1+P2" in out, out


def test_lp_on_a_strong_pot_sharing_team_hints_at_merge(one_line_error, cli):
    """Audit item 14: ``solve "kuhn(players=3,team=12,strong=true,sharing=pot)" --method
    lp`` said only "the sequence-form LP is for two-player games"; now the way out, and
    that way works (exit 0)."""
    spec = "kuhn(players=3,team=12,strong=true,sharing=pot)"
    err = one_line_error("solve", spec, "--method", "lp")
    assert "merge=true to solve the strong team 12 as one player" in err, err
    code, _, err = cli("solve", spec[:-1] + ",merge=true)", "--method", "lp", "--no-table")
    assert code == 0, err


def test_team_line_has_no_nested_parentheses():
    """Audit item 24: "team 123 (alternating (lower bound: ...))"; now "team 123 by
    alternating (lower bound: ...)" (an exact line keeps "team 12 (MILP)" or the like)."""
    import dataclasses

    from toypoker import load_game
    from toypoker.cli.tables import team_lines
    from toypoker.evaluation import evaluate
    from toypoker.profile import Profile

    g = load_game("kuhn(players=3)")
    te = evaluate(g, Profile.uniform(g), team=(0, 1)).team
    assert "(" not in te.how and team_lines(te)[0].startswith(f"team P1+P2 ({te.how}): value")
    slow = dataclasses.replace(te, how="alternating (lower bound)")
    assert team_lines(slow)[0].startswith("team P1+P2 by alternating (lower bound): value")
