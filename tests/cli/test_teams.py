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
    assert "team 12 (MILP)" in out and "exceeds the target 0.001" in out
    code, out, _ = cli("solve", spec, "--target-nash-conv", "1e-3", "--json")
    res = json.loads(out)
    gain = res["team"]["gain"]
    assert res["nash_conv"] <= 1e-3 < gain
    # eval of the written profile gives the same gain; --team picks other seats
    code, out, _ = cli("eval", spec, path, "--json")
    assert code == 0 and json.loads(out)["team"]["gain"] == pytest.approx(gain, abs=1e-9, rel=0)
    code, out, _ = cli("eval", spec, path, "--team", "13", "--json")
    assert json.loads(out)["team"]["team"] == "13"
    # verify certifies exactly: the team's exact joint gain as a fraction
    code, out, _ = cli("verify", spec, path, "--json")
    assert code == 1 and "/" in json.loads(out)["team"]["gain"]["exact"]
    code, out, err = cli("eval", spec, path, "--team", "1")
    assert code == 2 and "team" in err and err.count("\n") == 1
