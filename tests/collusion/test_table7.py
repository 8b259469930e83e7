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


# ------------------------------------------------------------------ interrupted studies
# issue 47, audit case R196: a Ctrl-C in the 2 n + 1 solves loses none that finished;
# solve_collusion_profiles takes them back and solves only the missing games


def _interrupted_after(k: int, **kw) -> CollusionProfiles:
    """The equilibria a study had solved when a Ctrl-C came after its ``k``-th solve
    (raised from the checkpoint callback: deterministic)."""
    kept: list[CollusionProfiles] = []

    def checkpoint(so_far: CollusionProfiles) -> None:
        kept.append(so_far)
        if len(kept) == k:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_collusion_profiles("kuhn(players=3)", (1, 2), checkpoint=checkpoint, **kw)
    assert [len(p.sigma) for p in kept] == list(range(1, k + 1))
    return kept[-1]


def test_a_resumed_study_solves_only_the_missing_games_and_equals_an_uninterrupted_one():
    # issue 47, audit case R196: 3 of 7 solved, then resumed: 4 solves (counted by the
    # progress callback), the same vectors bit for bit and the same table
    part = _interrupted_after(3, iterations=20)
    assert not part.complete and part.progress() == "3 of 7" and len(part.missing) == 4
    solves: list[str] = []
    resumed = solve_collusion_profiles("kuhn(players=3)", (1, 2), iterations=20,
                                       progress=solves.append, solved=part)  # fmt: skip
    assert len(solves) == 4 and resumed.complete
    assert all(k.split(" ", 1)[1] in part.missing for k in solves)
    whole = solve_collusion_profiles("kuhn(players=3)", (1, 2), iterations=20)
    assert list(resumed.sigma) == list(whole.sigma) and resumed.how == whole.how
    assert all(resumed.sigma[k].tobytes() == whole.sigma[k].tobytes() for k in whole.sigma)
    assert resumed.measured == whole.measured
    assert collusion_table_from(resumed) == collusion_table_from(whole)
    # a complete study: nothing to solve
    solves.clear()
    again = solve_collusion_profiles("kuhn(players=3)", (1, 2), iterations=20,
                                     progress=solves.append, solved=whole)  # fmt: skip
    assert solves == [] and again == whole


def test_no_table_from_an_incomplete_study_nor_a_resume_with_another_budget():
    # issue 47, audit case R196: a table is never evaluated from missing equilibria, and
    # the missing ones are not solved with another budget (the table would equal no
    # uninterrupted run); both refused in one line
    part = _interrupted_after(2, iterations=20)
    with pytest.raises(ToypokerError, match="only 2 of 7 equilibria are stored") as info:
        collusion_table_from(part)
    assert "\n" not in str(info.value)
    with pytest.raises(ToypokerError, match="solved with cfr\\+, at most 20 iterations") as info:
        solve_collusion_profiles("kuhn(players=3)", (1, 2), iterations=30, solved=part)
    assert "not cfr+, at most 30 iterations" in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(ToypokerError, match="team 12"):
        solve_collusion_profiles("kuhn(players=3)", (0, 1), iterations=20, solved=part)


def test_a_sampling_method_is_seeded_by_game():
    # issue 47, audit case R196: every solve deterministic, so that a resumed study
    # equals an uninterrupted one with a sampling method too (game k seeded k)
    a = solve_collusion_profiles("kuhn(players=3)", (1, 2), method="es-mccfr", iterations=30)
    b = solve_collusion_profiles("kuhn(players=3)", (1, 2), method="es-mccfr", iterations=30)
    assert "seeded 0 to 6 by game" in a.how
    assert all(a.sigma[k].tobytes() == b.sigma[k].tobytes() for k in a.sigma)
