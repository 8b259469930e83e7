"""Ullman's Table 7 study (src/toypoker/collusion/table7.py, store.py) and its CLI."""

from fractions import Fraction

import pytest

from toypoker.collusion import CollusionProfiles, collusion_table_from, solve_collusion_profiles
from toypoker.errors import ToypokerError
from toypoker.games import load_rows  # the deal table: these tests read its rows

F = Fraction


def test_stored_profiles_round_trip_and_recompute_the_table(tmp_path):
    # kuhn(players=3): strong collusion's team values are the merged LP's 0 (team {1,2}),
    # 5/78 ({1,3}) and 1/12 ({2,3}) (tests/cli/test_collusion.py); the stored equilibria
    # give the same table when read back, and each bracket [low, high] holds the value
    prof = solve_collusion_profiles(
        "kuhn(players=3)", (0, 1), method="pdcfr+", iterations=3000, target_nash_conv=1e-6
    )
    assert len(prof.sigma) == 7  # no collusion, strong and weak for 3 placements
    t = collusion_table_from(prof)
    prof.save(tmp_path / "p.npz")
    back = CollusionProfiles.load(tmp_path / "p.npz")
    assert back.how == prof.how and back.team == (0, 1)
    assert collusion_table_from(back) == t
    exact = {(0, 1): F(0), (0, 2): F(5, 78), (1, 2): F(1, 12)}
    assert len(t.team_values) == 3
    for members, lo, hi in t.team_values:
        assert lo <= float(exact[members]) <= hi and hi - lo <= 2e-6
    # Public strong payoff of the team, averaged over the rotations (win sharing: equal)
    a, b, c = t.payoffs[("strong", "public")]
    assert a == pytest.approx(b, abs=1e-12) and a + b + c == pytest.approx(0, abs=1e-12)
    assert a + b == pytest.approx(float(sum(exact.values()) / 3), abs=2e-6)
    assert t.nash_conv["none"] <= 1e-6 and t.nash_conv["weak"] <= 1e-5  # 3-player: cap
    # the brackets as players' Public payoffs (team AB, rotating): A and B each get half
    # of the mean team value, C minus it; exact: (0 + 5/78 + 1/12)/3 = 23/156 / 3
    mean = float(sum(exact.values()) / 3)
    per = t.team_value_payoffs()
    assert per is not None and len(per) == 3
    for (lo, hi), want in zip(per, (mean / 2, mean / 2, -mean), strict=True):
        assert lo <= want + 1e-12 and want - 1e-12 <= hi and hi - lo <= 4e-6
    assert t.to_json_dict()["team_values_payoffs"]["low"] == [lo for lo, _ in per]
    # a stored vector is tied to its game's infosets
    g = load_rows("kuhn(players=3,cards=5)")
    with pytest.raises(ToypokerError, match="no stored profile"):
        back.profile(g)
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(ToypokerError, match="cannot read"):
        CollusionProfiles.load(tmp_path / "bad.npz")


def _cli(capsys, *args):
    from toypoker.cli import main

    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_table7_cli_saves_and_reuses_the_equilibria(capsys, tmp_path):
    # `toypoker collusion table7 --save` then `--profiles`: the same table without
    # solving; the strong team values are bracketed around the merged LP's (0, 5/78,
    # 1/12 for kuhn(players=3), test_stored_profiles_round_trip_and_recompute_the_table)
    import json

    store = tmp_path / "k.npz"
    args = ("collusion", "table7", "kuhn(players=3)", "--team", "23", "--no-team-optimal",
            "--json")  # fmt: skip
    code, out, err = _cli(capsys, *args, "--method", "pdcfr+", "--iterations", "2000",
                          "--target-nash-conv", "1e-6", "--save", store)  # fmt: skip
    assert code == 0, err
    first = json.loads(out)
    code, out, err = _cli(capsys, *args, "--profiles", store)
    assert code == 0, err
    assert json.loads(out) == first
    vals = {v["team"]: (v["low"], v["high"]) for v in first["team_values"]}
    assert set(vals) == {"12", "13", "23"}
    assert vals["13"][0] <= 5 / 78 <= vals["13"][1] and vals["23"][0] <= 1 / 12 <= vals["23"][1]
    # a store of another team or game is refused in one line
    code, out, err = _cli(capsys, "collusion", "table7", "kuhn(players=3)", "--team", "12",
                          "--profiles", store)  # fmt: skip
    assert code == 2 and "team 23" in err and err.count("\n") == 1
    code, out, err = _cli(capsys, "collusion", "table7", "kuhn(players=3)", "--strong-solve", "x")
    assert code == 2 and "--strong-solve" in err
