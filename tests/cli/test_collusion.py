"""``toypoker collusion table7`` (issue 12 item 4; Ullman 2015, Table 7 scenarios)."""

import dataclasses
import json
import re
from fractions import Fraction

import pytest

from toypoker.collusion.brackets import load_brackets, stored_weak_brackets
from toypoker.collusion.store import fingerprint
from toypoker.collusion.table7 import solve_team_game  # the real one, for _solves
from toypoker.games import load_rows  # the deal table: these tests read its rows

# kuhn(players=3), strong collusion, win sharing: the merged team's exact LP values
# (tests/games/test_collusion.py computes them; `toypoker solve ... --method lp`):
# team {1,2}: 0, team {1,3}: 5/78, team {2,3}: 1/12.  Public strong collusion is the
# equilibrium of the collusion game, so the team's payoff averaged over the three seat
# rotations is (0 + 5/78 + 1/12) / 3 per team, half of it per member.
TEAM_MEAN = (Fraction(0) + Fraction(5, 78) + Fraction(1, 12)) / 3


def test_table7_json_and_plot(cli, tmp_path):
    code, out, err = cli(
        "collusion", "table7", "kuhn(players=3)", "--team", "12", "--iterations", "1500",
        "--plot", tmp_path / "t7.png", "--no-team-optimal", "--json",
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
    code, out, err = cli("collusion", "table7", "kuhn(players=3)", "--iterations", "50",
                         "--no-team-optimal")  # fmt: skip
    assert code == 0, err
    assert "suspicious" in out.replace("\n", " ") or "suspici" in out
    assert "NashConv of the equilibria used" in out
    # issue 34: one seat naming, P1..Pn and a team as P1+P2 (was "team AB", rows A, B, C)
    flat = " ".join(out.split())
    assert "team P1+P2 (win sharing)" in flat and "team AB" not in flat  # the default team
    assert "P3 (out)" in out and "P1 (team)" in out and "C (out)" not in out
    assert "strong team P2+P3: value in [" in out  # a placement of the team
    # the merged game solves only the strong profiles: said above the strong table only
    strong, weak = flat.split("Weak collusion payoffs")
    assert "strong collusion: the merged team's equilibrium" in strong
    assert "merged team's equilibrium" not in weak.split("NashConv of the equilibria")[0]


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


@pytest.mark.slow
def test_table7_team_optimal_columns(cli, tmp_path, monkeypatch):
    # kuhn(players=3), team 23: the team-optimal values per placement -- strong: the
    # merged LP's 1/12, 5/78, 0 (tests/games/test_collusion.py); weak: the TMECor values
    # 5/132, 7/264, -1/24 (tests/solvers/test_tmecor.py) -- and the Public team-optimal
    # payoffs, their rotation average split equally between the members
    monkeypatch.setenv("TOYPOKER_PROGRESS_EVERY", "0")  # every progress line
    args = ["collusion", "table7", "kuhn(players=3)", "--team", "23", "--iterations", "300"]
    code, out, err = cli(*args, "--plot", tmp_path / "t7.png", "--json")
    assert code == 0, err
    # issue 34: the progress read "evaluations: 11/7" (the 2n+1 equilibria as the total
    # of 2 n games evaluated and 2 n team-optimal solves); 3 placements x 2 x 2 = 12
    counts = re.findall(r"collusion evaluations: (\d+)/(\d+)", err)
    assert counts and {int(t) for _, t in counts} == {12}
    assert all(int(k) <= int(t) for k, t in counts)
    data = json.loads(out)
    rows = {(r["collusion"], r["team"]): r for r in data["team_optimal"]}
    want = {
        ("strong", "23"): "1/12", ("strong", "13"): "5/78", ("strong", "12"): "0",
        ("weak", "23"): "5/132", ("weak", "13"): "7/264", ("weak", "12"): "-1/24",
    }  # fmt: skip
    assert {k: (r["low_exact"], r["high_exact"]) for k, r in rows.items()} == {
        k: (v, v) for k, v in want.items()
    }
    assert rows[("strong", "23")]["how"] == "merged LP" and rows[("weak", "23")]["how"] == "TMECor"
    pay = {r["collusion"]: r for r in data["team_optimal_payoffs"]}
    for strength in ("strong", "weak"):
        mean = sum(Fraction(want[(strength, t)]) for t in ("23", "13", "12")) / 3
        low = pay[strength]["low"]
        assert low == pay[strength]["high"]
        assert low == pytest.approx([-float(mean), float(mean / 2), float(mean / 2)],
                                    rel=1e-12, abs=0)  # fmt: skip
    assert {"payoffs", "nash_conv", "team_values"} <= set(data)  # the keys claims read
    assert (tmp_path / "t7.png").read_bytes()[:4] == b"\x89PNG"
    # text: the Nash and team-optimal columns; a budget too short for the weak TMECor
    # leaves brackets, printed as [lo, hi]
    code, out, err = cli(*args, "--team-seconds", "1e-6")
    assert code == 0, err
    assert "team-optimal" in out and "Nash" in out
    weak = out[out.index("Weak collusion") :]
    assert "[" in weak.split("NashConv")[0] and "1/12 (" in out


# ---------------------------------------------------------------- collusion tmecor
@pytest.mark.parametrize("team", ["12", "13", "23"])
def test_tmecor_exact_on_three_card_kuhn(cli, team):
    # kuhn(players=3, cards=3), weak team (own cards only): TMECor value 0, bracket width 0
    # at every placement (tests/solvers/test_tmecor.py, checked plan by plan there)
    code, out, err = cli("collusion", "tmecor", "kuhn(players=3,cards=3)", "--team", team, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["lower"] == d["upper"] == "0" and d["width"] == "0" and d["exact"] is True
    assert d["team"] == team and d["stopped"] == "converged" and d["columns"] >= 1
    code, out, err = cli("collusion", "tmecor", "kuhn(players=3,cards=3)", "--team", team)
    assert code == 0, err
    assert "team value in [0, 0]" in out and "width 0 (exact)" in out
    # issue 34: one seat naming, P1..Pn and a team as P2+P3 (was "team 23 against player 1")
    names = "+".join(f"P{d}" for d in team)
    outsider = ({"1", "2", "3"} - set(team)).pop()
    assert f"TMECor of team {names} against P{outsider} in" in out


def test_tmecor_save_adds_one_record_per_game_and_team(cli, tmp_path):
    # kuhn(players=3, cards=3), weak teams: TMECor value 0 at every placement
    # (tests/solvers/test_tmecor.py); two placements saved, the third missing
    path = tmp_path / "brackets.json"
    for team in ("23", "13", "23"):  # the second 23 replaces the first
        code, _, err = cli("collusion", "tmecor", "kuhn(players=3,cards=3)", "--team", team,
                           "--save", str(path))  # fmt: skip
        assert code == 0, err
    records = load_brackets(path)
    assert len(records) == 2
    # the game as given (no team parameters): the team's summed value is the weak
    # win-sharing game's (sharing moves payoffs within the team)
    rec = records["kuhn(players=3,cards=3,ante=1,bet=1) team 23"]
    assert rec["lower"] == rec["upper"] == "0" and rec["stopped"] == "converged"
    assert rec["fingerprint"] == fingerprint(load_rows("kuhn(players=3,cards=3)"))
    assert rec["command"].startswith("toypoker collusion tmecor 'kuhn(players=3,cards=3)'")
    rows = stored_weak_brackets("kuhn(players=3,cards=3)", (1, 2), 3, source=path)
    assert [None if r is None else r.members for r in rows] == [(1, 2), (0, 2), None]
    assert rows[0] is not None and rows[0].low == rows[0].high == 0


@pytest.mark.slow
def test_tmecor_four_card_kuhn_and_anytime_bracket(cli):
    # kuhn(players=3, cards=4), team {2,3} weak: 5/132 (tests/solvers/test_tmecor.py,
    # the mixture evaluated plan by plan); capped at 3 plans the bracket still holds it
    spec = "kuhn(players=3,cards=4)"
    code, out, err = cli("collusion", "tmecor", spec, "--team", "23", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["lower"] == d["upper"] == "5/132" and d["outsider"] == 1
    code, out, err = cli("collusion", "tmecor", spec, "--team", "23", "--max-columns", "3",
                         "--json")  # fmt: skip
    assert code == 0, err
    d = json.loads(out)
    assert d["stopped"] == "columns" and d["columns"] == 3
    assert Fraction(d["lower"]) <= Fraction(5, 132) <= Fraction(d["upper"])
    assert Fraction(d["width"]) == Fraction(d["upper"]) - Fraction(d["lower"]) > 0


def test_tmecor_sharing_bound_tightens_a_capped_bracket(cli):
    # kuhn(players=3, cards=4), team {2,3} weak, one column: the upper end becomes at
    # most the strong team's value 1/12 (merged LP, tests/collusion/test_table7.py) plus
    # what 200 PDCFR+ iterations leave; the exact value 5/132 (test_tmecor.py) stays inside
    spec = "kuhn(players=3,cards=4)"
    code, out, err = cli("collusion", "tmecor", spec, "--team", "23", "--max-columns", "1",
                         "--json")  # fmt: skip
    assert code == 0, err
    loose = Fraction(json.loads(out)["upper"])
    code, out, err = cli("collusion", "tmecor", spec, "--team", "23", "--max-columns", "1",
                         "--sharing-iterations", "200", "--json")  # fmt: skip
    assert code == 0, err
    d = json.loads(out)
    assert Fraction(1, 12) <= Fraction(d["upper"]) < min(loose, Fraction(1, 12) + Fraction(1, 100))
    assert Fraction(d["lower"]) <= Fraction(5, 132) and "sharing bound" in d["oracle"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["kuhn(players=3)"], "--team"),
        (["kuhn(players=3)", "--team", "12", "--sharing-iterations", "-1"], "--sharing"),
        (["kuhn(players=3)", "--team", "1"], "2 distinct seats"),
        (["kuhn(players=3)", "--team", "12", "--seconds", "0"], "--seconds"),
        (["kuhn(players=4)", "--team", "12"], "one outsider"),
        (
            ["kuhn(players=3)", "--team", "12", "--oracle", "bogus"],
            "--oracle must be one of hybrid, exact, alternating, relaxation",
        ),  # audit item 22
        # audit item 13: the merged team's game is not TMECor's
        (["kuhn(players=3,team=13,merge=true,strong=true)"], "drop merge=true"),
        # audit items 19-22: a stage's option without the stage is refused, not ignored
        (["kuhn(players=3)", "--team", "13", "--pdlp-seconds", "3"], "give --sharing-iterations"),
        (
            ["kuhn(players=3)", "--team", "13", "--relaxation-seconds", "3"],
            "--relaxation-seconds is for --oracle relaxation",
        ),
    ],
)
def test_tmecor_bad_input(one_line_error, args, words):
    assert words in one_line_error("collusion", "tmecor", *args)


@pytest.mark.slow
def test_tmecor_ctrl_c_prints_a_valid_bracket(tmp_path):
    # a new user's run, stopped with Ctrl-C after the first progress line: the bracket so
    # far is printed and holds the exact value -1/24 (team {1,2}, kuhn(players=3,
    # cards=4): tests/solvers/test_tmecor.py), exit 130
    import signal

    from .conftest import toypoker_process

    # a progress line at every column (not every 5 s): the signal lands after the first
    # column, while the run still has columns to go, however fast the machine is
    proc = toypoker_process("collusion", "tmecor", "kuhn(players=3,cards=4)", "--team", "12",
                            "--json", cwd=tmp_path,
                            env={"TOYPOKER_PROGRESS_EVERY": "0"})  # fmt: skip
    line = proc.stderr.readline()  # plain progress (stderr is a pipe)
    assert "TMECor columns" in line, line
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    d = json.loads(out)
    assert "interrupted" in err and d["stopped"] in ("interrupted", "converged")
    assert Fraction(d["lower"]) <= Fraction(-1, 24) <= Fraction(d["upper"])


def test_tmecor_team_option_agrees_with_the_spec(cli, one_line_error):
    """Audit of issue 22: ``collusion tmecor "kuhn(players=3,team=12)" --team 23`` solved
    team 23 in the game whose payoffs team 12 shares, without a word; ``--team 9`` said
    "at least 2 distinct seats".  Now one line each (exit 2); the spec's own team given
    again is fine: three-card Kuhn, team 12 weak, TMECor value -1/24 (the bracket of
    ``collusion tmecor "kuhn(players=3,team=12)"``, exact; tests/solvers/test_tmecor.py).
    Test failed before (exit 0, then the 'at least 2' line)."""
    err = one_line_error("collusion", "tmecor", "kuhn(players=3,team=12)", "--team", "23")
    assert "--team 23" in err and "team=12" in err, err
    err = one_line_error("collusion", "tmecor", "kuhn(players=3)", "--team", "9")
    assert "seat 9 is out of range (seats 1..3)" in err, err
    code, out, err = cli("collusion", "tmecor", "kuhn(players=3,team=12)", "--team", "12",
                         "--json")  # fmt: skip
    assert code == 0, err
    d = json.loads(out)
    assert d["lower"] == d["upper"] == "-1/24" and d["team"] == "12"


def test_tmecor_prints_the_sharing_bound_exactly(cli):
    """Audit of issue 22: the sharing bound (exact: a rational on a 2^-20 grid) printed
    as 10 digits (4.975001017e-05).  Now the fraction and its decimal, as other exact
    numbers print (p/q (12 digits)); expected: the --json record's exact strings
    (independent path: the same run's JSON).  Test failed before."""
    args = ("collusion", "tmecor", "kuhn(players=3,cards=4,team=12)", "--max-columns", "2",
            "--oracle", "alternating", "--sharing-iterations", "50")  # fmt: skip
    code, out, err = cli(*args, "--json")
    assert code == 0, err
    d = json.loads(out)
    upper, width = Fraction(d["upper"]), Fraction(d["width"])
    assert "sharing bound" in d["oracle"] and upper.denominator >= 10**6
    code, out, err = cli(*args)
    assert code == 0, err
    assert f", {upper} ({float(upper):.12g})]" in out, out
    assert f"width {width} ({float(width):.12g})" in out, out


def test_tmecor_checks_the_save_file_before_the_work(one_line_error, tmp_path, monkeypatch):
    """Audit item 6: ``--save garbage.json`` computed the bracket, then failed "cannot read
    TMECor brackets" and lost it.  Now refused before the column generation starts."""
    import toypoker.teams.tmecor as tm

    def never(*a, **k):
        raise AssertionError("the column generation ran before --save was checked")

    monkeypatch.setattr(tm, "tmecor", never)
    bad = tmp_path / "garbage.json"
    bad.write_text("garbage\n")
    err = one_line_error("collusion", "tmecor", "kuhn(players=3)", "--team", "13", "--save", bad)
    assert "cannot read TMECor brackets" in err, err


def test_tmecor_reports_the_oracle_asked_and_relaxation_seconds(cli):
    """Audit items 19-22: ``--oracle alternating`` printed "oracle: MILP" (the exact oracle
    of its final upper end) as if the MILP had generated the plans; the README's
    --relaxation-seconds did not exist.  Expected bracket: four-card Kuhn, team 12
    weak, exact TMECor value -1/24 (tests/solvers/test_tmecor.py)."""
    spec = "kuhn(players=3,cards=4)"
    code, out, err = cli("collusion", "tmecor", spec, "--team", "12", "--oracle", "alternating")
    assert code == 0, err
    # the exact oracle's calls and what answered them (they were all called "MILP")
    assert "oracle: alternating (exact oracle: joint response, 2 by enumeration)" in out, out
    code, out, err = cli("collusion", "tmecor", spec, "--team", "12", "--oracle", "relaxation",
                         "--relaxation-seconds", "5", "--json")  # fmt: skip
    assert code == 0, err
    d = json.loads(out)
    assert Fraction(d["lower"]) <= Fraction(-1, 24) <= Fraction(d["upper"])
    assert d["oracle"].startswith("relaxation") and d["oracle_option"] == "relaxation"


def test_tmecor_ctrl_c_in_the_sharing_stage(cli, tmp_path, monkeypatch):
    """Audit item 5: Ctrl-C during --sharing-iterations was swallowed (exit 0, a normal
    bracket, the record's command saying 5000 iterations).  Now the bracket so far is
    printed (the sharing bound of the iterations done is valid: any outsider strategy
    bounds the team from above), marked interrupted, exit 130, and the record says the
    iterations that ran.  The deferred signal is simulated: the solve returns as after
    Ctrl-C at iteration 30 (tests/cli/test_signals.py sends real signals to the column
    generation).  Expected value inside: -1/24, team 12 of four-card Kuhn (test_tmecor.py)."""
    import toypoker.solvers as solvers

    real = solvers.solve

    def stopped_early(game, method, **kw):
        kw["iterations"] = 30
        res = real(game, method, **kw)
        return dataclasses.replace(res, stopped="interrupted")

    monkeypatch.setattr(solvers, "solve", stopped_early)
    save = tmp_path / "b.json"
    code, out, err = cli("collusion", "tmecor", "kuhn(players=3,cards=4)", "--team", "12",
                         "--sharing-iterations", "5000", "--save", save, "--json")  # fmt: skip
    assert code == 130, err
    assert "interrupted" in err and "the bracket above is valid" in err, err
    d = json.loads(out)
    assert d["stopped"] == "interrupted" and d["sharing_iterations_run"] == 30
    assert Fraction(d["lower"]) <= Fraction(-1, 24) <= Fraction(d["upper"])
    rec = next(iter(load_brackets(save).values()))
    assert "--sharing-iterations 30 " in rec["command"] and rec["stopped"] == "interrupted"


@pytest.mark.slow  # two table7 runs, ~7 s
def test_table7_ctrl_c_says_what_stands(cli, monkeypatch):
    """Audit item 16: Ctrl-C in ``collusion table7`` printed only "interrupted" (exit 130).
    Now, in the solves: how many equilibria were done and that no cell is complete; in
    the team-optimal values: the complete Nash columns, the placements done (the
    interrupted one a valid bracket), no team-optimal column.  The signals are
    simulated in-process (the solve raises as the deferred Ctrl-C does; the TMECor
    returns "interrupted" at its second call); tests/cli/test_signals.py sends real ones.
    Expected: kuhn(players=3), team 23's strong merged LP value 1/12 (test above)."""
    import toypoker.collusion.table7 as t7
    import toypoker.teams.tmecor as tm

    real_solve, real_tmecor, calls = t7.solve_team_game, tm.tmecor, []

    def solve_then_stop(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_solve(*a, **k)

    monkeypatch.setattr(t7, "solve_team_game", solve_then_stop)
    args = ("collusion", "table7", "kuhn(players=3)", "--team", "23", "--iterations", "20")
    code, out, err = cli(*args)
    assert code == 130, err
    assert "2 of 7 equilibria solved" in err and "no cell of the table is complete" in err, err
    monkeypatch.setattr(t7, "solve_team_game", real_solve)
    tm_calls = []

    def tmecor_then_stop(*a, **k):
        tm_calls.append(1)
        r = real_tmecor(*a, **k)
        return dataclasses.replace(r, stopped="interrupted") if len(tm_calls) == 2 else r

    monkeypatch.setattr(tm, "tmecor", tmecor_then_stop)
    code, out, err = cli(*args)
    assert code == 130, err
    assert "Strong collusion payoffs" in out and "team-optimal" not in out.split("NashConv of")[0]
    assert "strong team P2+P3 team-optimal (merged LP" in out and "1/12" in out, out
    assert "weak team P2+P3 team-optimal (TMECor" in out and out.count(", interrupted)") == 1
    assert "the Nash columns are complete" in err, err


@pytest.mark.slow  # a whole table with its TMECors, ~6 s
def test_table7_pot_sharing_says_the_team_optimal_split(cli):
    """Audit item 15: with --sharing pot the team-optimal column shows an equal split of
    the team's value as each member's payoff, unsaid; and strong lines said "TMECor"
    where the help said merged LP.  Now a caption says so and the help names both."""
    code, out, err = cli("collusion", "table7", "kuhn(players=3,cards=3)", "--sharing", "pot",
                         "--iterations", "20", "--team-seconds", "5")  # fmt: skip
    assert code == 0, err
    assert out.count("team-optimal: the team's value split equally") == 2, out
    assert "strong team P1+P2 team-optimal (TMECor, backward-induction oracle" in out, out
    code, out, _ = cli("collusion", "table7", "--help")
    assert "pot sharing) the TMECor bracket" in " ".join(out.split()), out


# ------------------------------------------------------------------ interrupted table7
# issue 47, audit case R196: Ctrl-C in table7's 2 n + 1 solves discarded every solved
# equilibrium ("3 of 7 equilibria solved, none kept ... (run again)"; --save not
# written).  Now --save holds those solved (an incomplete store saying which games are
# missing), the message names the count and the whole command that resumes, and the
# resume solves only the missing games.  The Ctrl-C is simulated in-process: the 4th
# solve raises as the deferred signal does (tests/cli/test_signals.py sends real ones).

T7 = ("collusion", "table7", "kuhn(players=3)", "--team", "23", "--iterations", "20",
      "--no-team-optimal", "--json")  # fmt: skip


def _solves(monkeypatch, stop_at: int | None = None) -> list[str]:
    """Count table7's solves (the specs solved); with ``stop_at``, Ctrl-C in that one
    (replaces an earlier count)."""
    import toypoker.collusion.table7 as t7

    calls: list[str] = []

    def counted(game, *a, **k):
        calls.append(game.spec)
        if len(calls) == stop_at:
            raise KeyboardInterrupt
        return solve_team_game(game, *a, **k)

    monkeypatch.setattr(t7, "solve_team_game", counted)
    return calls


def _only_complete_tables(monkeypatch) -> list[int]:
    """Make the CLI's table evaluation fail on an incomplete store (and count calls)."""
    import toypoker.cli.collusion as cc

    real, seen = cc.collusion_table_from, []

    def checked(stored, **kw):
        assert stored.complete, f"a table evaluated from {stored.progress()} equilibria"
        seen.append(len(stored.sigma))
        return real(stored, **kw)

    monkeypatch.setattr(cc, "collusion_table_from", checked)
    return seen


def test_table7_ctrl_c_keeps_the_solved_equilibria_and_prints_the_resume(
    cli, tmp_path, monkeypatch
):
    # issue 47, audit case R196: interrupted after 3 solves with --save: the file holds
    # the 3 and says it is incomplete; the line names the count and the resume command
    import numpy as np

    from toypoker.collusion import CollusionProfiles

    monkeypatch.chdir(tmp_path)  # short paths in the printed command
    _only_complete_tables(monkeypatch)
    calls = _solves(monkeypatch, stop_at=4)
    code, out, err = cli(*T7, "--save", "t7.npz")
    assert code == 130 and out == "" and len(calls) == 4, err
    hint = ("toypoker collusion table7 'kuhn(players=3)' --team 23 --iterations 20 "
            "--no-team-optimal --json --save t7.npz --profiles t7.npz")  # fmt: skip
    assert err.endswith(
        f"toypoker: interrupted: 3 of 7 equilibria solved, kept in t7.npz; resume with: {hint}\n"
    ), err
    kept = CollusionProfiles.load("t7.npz")
    assert not kept.complete and kept.progress() == "3 of 7" and len(kept.missing) == 4
    assert list(kept.sigma) == calls[:3] and set(kept.missing).isdisjoint(kept.sigma)
    with np.load("t7.npz", allow_pickle=False) as data:  # the file says it is incomplete
        meta = json.loads(str(data["meta"]))
    assert meta["format"] == "toypoker-collusion/2" and meta["missing"] == list(kept.missing)


def test_table7_resumes_only_the_missing_solves_and_equals_an_uninterrupted_run(
    cli, tmp_path, monkeypatch
):
    # issue 47, audit case R196: the printed command solves the 4 missing games (counted),
    # never evaluates a table from missing equilibria, completes the file, and its table
    # equals an uninterrupted run's exactly (every number of the --json)
    import shlex

    from toypoker.collusion import CollusionProfiles

    monkeypatch.chdir(tmp_path)
    tables = _only_complete_tables(monkeypatch)
    _solves(monkeypatch, stop_at=4)
    code, _, err = cli(*T7, "--save", "t7.npz")
    assert code == 130 and tables == [], err
    hint = err.rsplit("resume with: ", 1)[1].strip()
    calls = _solves(monkeypatch)
    code, resumed, err = cli(*shlex.split(hint)[1:])
    assert code == 0, err
    assert len(calls) == 4 and tables == [7], calls
    assert "t7.npz: 3 of 7 equilibria solved (an interrupted run)" in err, err
    calls = _solves(monkeypatch)
    code, whole, err = cli(*T7, "--save", "whole.npz")
    assert code == 0 and len(calls) == 7, err
    assert json.loads(resumed) == json.loads(whole) and resumed == whole
    a, b = CollusionProfiles.load("t7.npz"), CollusionProfiles.load("whole.npz")
    assert a.complete and list(a.sigma) == list(b.sigma) and a.measured == b.measured
    assert all(a.sigma[k].tobytes() == b.sigma[k].tobytes() for k in a.sigma)
    # complete now: --profiles solves nothing
    calls = _solves(monkeypatch)
    code, again, err = cli(*T7, "--profiles", "t7.npz")
    assert code == 0 and calls == [] and again == whole, err


def test_table7_profiles_of_an_incomplete_store_never_evaluate_missing_equilibria(
    cli, tmp_path, monkeypatch
):
    # issue 47, audit case R196: --profiles on an incomplete store either solves the
    # missing games first (here without --save: the file is left as it was) or refuses
    # in one line (another budget); no table is evaluated from part of the equilibria
    from toypoker.collusion import CollusionProfiles

    monkeypatch.chdir(tmp_path)
    tables = _only_complete_tables(monkeypatch)
    _solves(monkeypatch, stop_at=3)
    assert cli(*T7, "--save", "t7.npz")[0] == 130
    before = (tmp_path / "t7.npz").read_bytes()
    _solves(monkeypatch)
    other = [*T7[:5], "--iterations", "30", *T7[7:]]
    code, out, err = cli(*other, "--profiles", "t7.npz")
    assert code == 2 and tables == [] and out == "", err
    assert err == (
        "toypoker: error: t7.npz holds 2 of 7 equilibria solved with cfr+, at most 20 "
        "iterations; strong collusion: the merged team's equilibrium, not cfr+, at most 30 "
        "iterations; strong collusion: the merged team's equilibrium: give the same "
        "--method, --iterations, --target-nash-conv and --strong-solve to solve the "
        "missing ones\n"
    ), err
    # Ctrl-C again, without --save: the new solve is not kept, the file is as it was
    calls = _solves(monkeypatch, stop_at=2)
    code, _, err = cli(*T7, "--profiles", "t7.npz")
    assert code == 130 and len(calls) == 2 and tables == [], err
    said = ("interrupted: 3 of 7 equilibria solved, the 1 solved now not kept (no --save; "
            "t7.npz still holds its 2); resume with: toypoker collusion table7")  # fmt: skip
    assert said in err, err
    assert err.rstrip().endswith("--profiles t7.npz --save t7.npz"), err
    assert (tmp_path / "t7.npz").read_bytes() == before
    calls = _solves(monkeypatch)
    code, out, err = cli(*T7, "--profiles", "t7.npz")
    assert code == 0 and len(calls) == 5 and tables == [7], err
    assert not CollusionProfiles.load("t7.npz").complete  # no --save: not written


def test_table7_ctrl_c_without_save_says_none_kept_and_suggests_it(cli, monkeypatch):
    # issue 47, audit case R196: without --save nothing is kept: said, with --save
    _solves(monkeypatch, stop_at=3)
    code, out, err = cli(*T7)
    assert code == 130, err
    assert "interrupted: 2 of 7 equilibria solved, none kept" in err, err
    assert "give --save FILE to keep the solved ones" in err and "resume with" not in err
