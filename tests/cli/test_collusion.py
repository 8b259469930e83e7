"""``toypoker collusion table7`` (issue 12 item 4; Ullman 2015, Table 7 scenarios)."""

import json
from fractions import Fraction

import pytest

# kuhn(players=3), strong collusion, win sharing: the merged team's exact LP values
# (tests/games/test_collusion.py computes them; `toypoker solve ... --method lp`):
# team {1,2}: 0, team {1,3}: 5/78, team {2,3}: 1/12.  Public strong collusion is the
# equilibrium of the collusion game, so the team's payoff averaged over the three seat
# rotations is (0 + 5/78 + 1/12) / 3 per team, half of it per member.
TEAM_MEAN = (Fraction(0) + Fraction(5, 78) + Fraction(1, 12)) / 3


def test_table7_json_and_plot(cli, tmp_path):
    code, out, err = cli(
        "collusion", "table7", "kuhn(players=3)", "--team", "12", "--iterations", "1500",
        "--plot", tmp_path / "t7.png", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    rows = {(r["collusion"], r["scenario"]): r["payoffs"] for r in data["payoffs"]}
    assert len(rows) == 6
    a, b, c = rows[("strong", "public")]
    assert a == pytest.approx(b, abs=1e-12)  # win sharing: members get equal payoffs
    assert a + b + c == pytest.approx(0, abs=1e-12)  # still zero-sum
    assert a + b == pytest.approx(float(TEAM_MEAN), abs=2e-3)
    assert data["nash_conv"]["strong"] < 5e-3
    assert (tmp_path / "t7.png").read_bytes()[:4] == b"\x89PNG"


def test_table7_prints_table(cli):
    code, out, err = cli("collusion", "table7", "kuhn(players=3)", "--iterations", "50")
    assert code == 0, err
    assert "suspicious" in out.replace("\n", " ") or "suspici" in out
    assert "NashConv of the equilibria used" in out


@pytest.mark.parametrize(
    "args",
    [
        ["kuhn(players=3)", "--team", "1"],
        ["kuhn(players=3)", "--team", "x2"],
        ["kuhn(players=3)", "--sharing", "all"],
        ["kuhn(players=3,team=12)"],
    ],
)
def test_table7_bad_input(one_line_error, args):
    one_line_error("collusion", "table7", *args, "--iterations", "10")
