"""``toypoker eval`` and ``verify``."""

import json
from fractions import Fraction as F

import pytest

# Kuhn (1950), gamma = 1 member (K, L): (alpha, beta, gamma) = (1/3, 2/3, 1)
KUHN_GAMMA_1 = {
    "game": "kuhn(players=2)",
    "infosets": {
        "P1:1:": {"k": "2/3", "b": "1/3"},
        "P1:2:": {"k": 1, "b": 0},
        "P1:3:": {"k": 0, "b": 1},
        "P1:1:kb": {"f": 1, "c": 0},
        "P1:2:kb": {"f": "1/3", "c": "2/3"},
        "P1:3:kb": {"f": 0, "c": 1},
        "P2:1:k": {"k": "2/3", "b": "1/3"},
        "P2:2:k": {"k": 1, "b": 0},
        "P2:3:k": {"k": 0, "b": 1},
        "P2:1:b": {"f": 1, "c": 0},
        "P2:2:b": {"f": "2/3", "c": "1/3"},
        "P2:3:b": {"f": 0, "c": 1},
    },
}


def test_solve_writes_profile_and_eval_reads_it(cli, tmp_path):
    path = tmp_path / "k3.json"
    code, out, _ = cli("solve", "kuhn(players=3)", "--iterations", "1500", "-o", path, "--json")
    assert code == 0
    res = json.loads(out)
    assert res["nash_conv"] < 1e-3 and res["iterations"] == 1500
    code, out, _ = cli("eval", "kuhn(players=3)", path, "--json")
    ev = json.loads(out)
    assert code == 0 and ev["nash_conv"] == pytest.approx(res["nash_conv"], abs=1e-12)


def test_profiles_written_by_solve_load_in_verify_and_eval_exact(cli, tmp_path):
    """issue 14, item 1: decimals written by an iterative solver read exactly."""
    path = tmp_path / "p.json"
    assert cli("solve", "kuhn(players=3)", "--iterations", "300", "-o", path, "--json")[0] == 0
    code, out, err = cli("eval", "kuhn(players=3)", path, "--exact", "--json")
    assert code == 0, err
    assert F(json.loads(out)["nash_conv"]["exact"]) > 0
    code, out, err = cli("verify", "kuhn(players=3)", path, "--json")
    assert code == 1, err  # a 300-iteration profile is not an exact equilibrium
    assert json.loads(out)["equilibrium"] is False


def test_lp_profile_verifies(cli, tmp_path):
    path = tmp_path / "lp.json"
    assert cli("solve", "kuhn(players=2)", "--method", "lp", "-o", path, "--json")[0] == 0
    code, out, _ = cli("verify", "kuhn(players=2)", path)
    assert code == 0 and "certified" in out


def test_eval_exact(cli, tmp_path):
    # Kuhn (1950), gamma = 1 member (K, L): (alpha, beta, gamma) = (1/3, 2/3, 1)
    path = tmp_path / "kuhn.json"
    profile = KUHN_GAMMA_1
    path.write_text(json.dumps(profile))
    code, out, _ = cli("eval", "kuhn(players=2)", path, "--exact", "--json")
    ev = json.loads(out)
    assert code == 0
    assert F(ev["values"][0]["exact"]) == F(-1, 18)
    assert ev["nash_conv"]["exact"] == "0"


def test_verify_certifies_and_reports_best_responses(cli, tmp_path):
    from toypoker.games import load_rows
    from toypoker.literature import szafron2013

    g = load_rows(szafron2013.GAME_SPEC)
    path = tmp_path / "t4.json"
    szafron2013.profile(g, szafron2013.table4()).to_json(path)
    code, out, _ = cli("verify", "kuhn(players=3)", path, "--json")
    data = json.loads(out)
    # Szafron et al. Table 4: not an equilibrium; P1 gains 1/12, P2 gains 1/96
    assert code == 1 and data["equilibrium"] is False
    assert [x["exact"] for x in data["gains"]] == ["1/12", "1/96", "0"]
    assert set(data["best_response_deviations"]) == {"P1", "P2"}
    code, out, _ = cli("verify", "kuhn(players=3)", path)
    assert code == 1 and "not an equilibrium" in out and "best response" in out


@pytest.mark.parametrize(
    "infosets, message",
    [
        ({"P1:1:": {"k": 0.5, "b": 0.6}}, "sum to"),
        ({"P7:1:": {"k": 0.5, "b": 0.5}}, "unknown infoset"),
    ],
)
def test_bad_profile_files(one_line_error, tmp_path, infosets, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "kuhn(players=2)", "infosets": infosets}))
    assert message in one_line_error("eval", "kuhn(players=2)", path)


def test_not_json_and_a_folder(one_line_error, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    assert "not valid JSON" in one_line_error("eval", "kuhn(players=2)", path)
    assert "folder" in one_line_error("verify", "kuhn(players=2)", tmp_path)


def test_eval_and_verify_compile_the_game_once(cli, tmp_path, monkeypatch):
    import toypoker.game

    path = tmp_path / "lp.json"
    assert cli("solve", "kuhn(players=2)", "--method", "lp", "-o", path, "--json")[0] == 0
    compiled = []
    init = toypoker.game.Game.__init__

    def counting(self, *a, **kw):
        compiled.append(1)
        init(self, *a, **kw)

    monkeypatch.setattr(toypoker.game.Game, "__init__", counting)
    for command in ("eval", "verify"):
        compiled.clear()
        assert cli(command, "kuhn(players=2)", path, "--json")[0] == 0
        assert len(compiled) == 1, command


def _long_profile(path):
    """Kuhn (1950)'s gamma = 1 member of test_eval_exact with P2 folding K to a bet with
    probability 1/10**30 (a costly mistake): the values become fractions of ~30 digits."""
    x = F(1, 10**30)
    profile = json.loads(json.dumps(KUHN_GAMMA_1))
    profile["infosets"]["P2:3:b"] = {"f": str(x), "c": str(1 - x)}
    path.write_text(json.dumps(profile))


@pytest.mark.parametrize("command", ["eval", "verify"])
def test_exact_numbers_print_as_decimals(cli, tmp_path, command):
    """Issue 24: decimals of 12 significant digits, not fractions of 60 digits; short
    fractions (1/18) as both; every exact fraction with --fractions and in the JSON."""
    path = tmp_path / "p.json"
    _long_profile(path)
    extra = ("--exact",) if command == "eval" else ()
    code, out, _ = cli(command, "kuhn(players=2)", path, *extra)
    assert code in (0, 1)
    longest = max((len(w) for w in out.replace("│", " ").split() if "/" in w), default=0)
    assert longest <= 12, out
    assert "-0.0555555555556" in out  # P1's value -1/18 - ~1e-31 to 12 digits
    nash_conv = "1/2000000000000000000000000000000"  # the gain of calling 1/10**30 more
    assert "NashConv = 5e-31" in out and nash_conv not in out
    code, full, _ = cli(command, "kuhn(players=2)", path, *extra, "--fractions")
    assert f"NashConv = {nash_conv} (5e-31)" in full
    code, js, _ = cli(command, "kuhn(players=2)", path, *extra, "--json")
    assert json.loads(js)["nash_conv"]["exact"] == nash_conv


def test_short_fractions_show_both(cli, tmp_path):
    path = tmp_path / "p.json"
    assert cli("solve", "kuhn(players=2)", "--method", "lp", "-o", path, "--json")[0] == 0
    code, out, _ = cli("verify", "kuhn(players=2)", path)
    assert code == 0 and "-1/18 (-0.0555555555556)" in out


def test_eval_and_verify_read_the_archive_and_the_result_file(cli, tmp_path):
    """``solve -o p.npz --result r.npz`` (the compact archive) and ``--result r.json``:
    eval reads each, and its NashConv is the solve's (independent path: eval's own
    best responses on the profile read back)."""
    spec = "kuhn(players=3)"
    p, r, rj = tmp_path / "p.npz", tmp_path / "r.npz", tmp_path / "r.json"
    code, out, err = cli("solve", spec, "--iterations", "200", "-o", p, "--result", r, "--json")
    assert code == 0, err
    nc = json.loads(out)["nash_conv"]
    assert cli("solve", spec, "--iterations", "200", "--result", rj, "--json")[0] == 0
    for path in (p, r, rj):
        code, out, err = cli("eval", spec, path, "--json")
        assert code == 0, err
        assert abs(json.loads(out)["nash_conv"] - nc) <= 1e-12
    code, out, err = cli("verify", spec, r)
    assert code == 1 and "not an equilibrium" in out  # read exactly, 200 iterations


BIG = "holdem(players=3,ranks=13,suits=4)"  # 32,873,711 rows counted (~6.6 GB), issue 21


@pytest.mark.parametrize(
    "args, what",
    [
        (["eval", "--exact"], "eval --exact"),
        (["eval", "--team", "12"], "eval --team"),
        (["verify"], "verify"),
    ],
)
def test_row_only_evaluations_refuse_a_big_game_before_building(
    one_line_error, monkeypatch, tmp_path, args, what
):
    """Audit of issue 21: these built the 6.6 GB row layout (43-134 s, then out of
    memory under a 4.5 GB cap) before refusing.  Now counted first (the rows as
    ``toypoker info`` counts them, exact against compiled decks in
    tests/games/test_layout_count.py) and refused in one line, naming the ways out;
    nothing is compiled (load_game would fail the test)."""

    def no_build(spec: str, *a: object, **k: object) -> None:
        raise AssertionError(f"built {spec}")

    monkeypatch.setattr("toypoker.cli.evaluate.load_rows", no_build)
    monkeypatch.setattr("toypoker.engines.load_rows", no_build)
    err = one_line_error(args[0], BIG, tmp_path / "p.npz", *args[1:])
    assert err.startswith(f"toypoker: error: {what} needs the row layout: 32,873,711 rows")
    # past load_game's own budget too (the same count): --layout rows is not offered
    assert "too large to compile" in err and "--layout rows" not in err, err
    assert "vector layout" in err
    assert "..." not in err  # whole, within one line
    assert "row layout only" in one_line_error(
        args[0], BIG, tmp_path / "p.npz", *args[1:], "--layout", "vector"
    )


def test_eval_on_the_vector_layout_equals_the_rows(cli, tmp_path):
    """``eval --layout vector`` on a catalogue game build_vector has no builder for
    (Leduc: compiled, then compile_vector) gives the row layout's values and NashConv
    (independent path: toypoker.engines.rows.values on the deal table)."""
    prof = tmp_path / "p.json"
    code, _, err = cli("solve", "leduc", "--iterations", "20", "-o", prof, "--no-table")
    assert code == 0, err
    code, out, err = cli("eval", "leduc", prof, "--layout", "vector", "--json")
    assert code == 0 and "layout: vector (--layout vector)" in err
    vec = json.loads(out)
    code, out, _ = cli("eval", "leduc", prof, "--json")
    rows = json.loads(out)
    # one record on either engine (tp.evaluate's), the layout named in both
    assert vec["layout"] == "vector" and rows["layout"] == "rows"
    assert vec.keys() == rows.keys()
    for a, b in zip(vec["values"], rows["values"], strict=True):
        assert a == pytest.approx(float(b), abs=1e-12, rel=0)
    assert vec["nash_conv"] == pytest.approx(float(rows["nash_conv"]), abs=1e-12, rel=0)


def test_eval_on_the_vector_layout_says_what_it_does_not_compute(cli, tmp_path):
    """Audit (2026-11-26): on the vector layout ``eval`` dropped a weak team's gain and
    ``--fractions`` without a word (solve says the first).  Now one line each."""
    spec = "kuhn(players=3,team=12)"
    prof = tmp_path / "p.json"
    code, _, err = cli("solve", spec, "--iterations", "20", "-o", prof)
    assert code == 0, err
    code, out, err = cli("eval", spec, prof, "--layout", "vector", "--fractions")
    assert code == 0, err
    assert "team gain: not computed on the vector layout (--layout rows computes it)" in out
    assert "--fractions: this evaluation is in floats (--exact computes fractions)" in err


def test_eval_strong_collusion_on_the_vector_layout_says_a_sentence(one_line_error, tmp_path):
    """Audit of issue 22: ``eval --layout vector`` of a strong-collusion spec leaked the
    library's internal prefix (``build_vector: strong collusion ... runs on --layout rows
    (kuhn(...elided...))``).  Now refused before building in the user's words, naming
    --layout rows (the rows fit: load_game builds them).  Test failed before."""
    err = one_line_error(
        "eval", "kuhn(players=3,team=12,strong=true)", tmp_path / "p.json", "--layout", "vector"
    )
    assert "build_vector" not in err and "..." not in err, err
    assert err.startswith("toypoker: error: strong collusion does not run on the vector layout")
    assert "--layout rows" in err


@pytest.mark.parametrize(
    "command, says",
    [
        ("eval", "is evaluated on the vector layout"),
        ("solve", "runs on the vector layout"),
        ("verify", "the exact certificate runs on the row layout"),
    ],
)
def test_layout_help_is_a_sentence(command, says):
    """Audit of issue 22: ``eval --help``'s --layout line had no verb ("a ... spec
    whose counted row layout needs more than 2 GB on the vector layout").  Each
    command's --layout help says what happens (test failed before for eval)."""
    from toypoker.cli import load_command

    group = load_command(command)
    cmd = group.commands[command] if hasattr(group, "commands") else group
    (layout,) = [p for p in cmd.params if p.name == "layout"]
    assert says in " ".join(layout.help.split()), layout.help


@pytest.mark.slow  # two LP solves, verify, eval and detect: ~8 s
def test_a_merged_teams_profile_maps_onto_the_seats_and_back(cli, tmp_path):
    """Audit item 12: a profile of ``merge=true`` (the strong team one player) was
    refused by eval/verify/detect of the members' game ("the profile is for ...").  Now
    mapped (same public tree and deals).  Expected numbers: the merged LP's exact team
    value 1/12 of kuhn(players=3) team 23 (the solve's own certified LP), split 1/24
    each by win sharing; and the merged table names the team's player."""
    merged = "kuhn(players=3,team=23,strong=true,merge=true)"
    members = "kuhn(players=3,team=23,strong=true)"
    code, out, err = cli("solve", merged, "--method", "lp", "--no-table", "-o", tmp_path / "m.json")
    assert code == 0, err
    assert "P2 (team P2+P3)" in out and "P1 " in out, out
    code, out, err = cli("verify", members, tmp_path / "m.json", "--json")
    assert code == 0, err
    assert "mapped onto the members' seats" in err
    data = json.loads(out)
    assert data["equilibrium"] is True
    assert [F(v["exact"]) for v in data["values"]] == [F(-1, 12), F(1, 24), F(1, 24)]
    # and back: the members' profile read for the merged game
    assert cli("solve", members, "--method", "lp", "--no-table", "-o", tmp_path / "s.json")[0] == 0
    code, out, err = cli("eval", merged, tmp_path / "s.json", "--exact")
    assert code == 0, err
    assert "P2 (team P2+P3)" in out and "1/12" in out, out
    # detect reads the merged profile as H1 on the seats
    code, out, err = cli("detect", "kuhn(players=3)", "--collusion", members, "--h1",
                         tmp_path / "m.json", "--iterations", "100", "--runs", "20",
                         "--json")  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["kl_per_hand"] > 0


def test_milp_seconds_bounds_the_team_milp(cli, one_line_error, tmp_path, monkeypatch):
    """Audit item 22: ``verify --team`` printed a lower bound after the fixed 30 s MILP limit
    with no way to raise it.  Now --milp-seconds (eval, verify, solve): the weak team's
    exact response runs with that time limit (seen by a spy on the call), and the default
    limit is restored after the run.  Profile: uniform play of kuhn(players=3), team 12."""
    import importlib

    from toypoker.games import load_rows
    from toypoker.profile import Profile

    ev_module = importlib.import_module("toypoker.teams.evaluation")
    name = "team_best_response"  # the call that receives the limit
    real, limits = getattr(ev_module, name), []

    def spy(*a, **k):
        limits.append(k.get("time_limit"))
        return real(*a, **k)

    monkeypatch.setattr(ev_module, name, spy)
    g = load_rows("kuhn(players=3)")
    Profile.uniform(g).to_json(tmp_path / "u.json")
    before = ev_module.TEAM_MILP_SECONDS
    for command in ("eval", "verify"):
        code, out, err = cli(command, "kuhn(players=3)", tmp_path / "u.json", "--team", "12",
                             "--milp-seconds", "7.5")  # fmt: skip
        assert code in (0, 1), err  # verify: 1, uniform play is not an equilibrium
        assert limits[-1] == 7.5 and ev_module.TEAM_MILP_SECONDS == before
    code, out, err = cli("solve", "kuhn(players=3)", "--team", "12", "--iterations", "5",
                         "--no-table", "--milp-seconds", "7.5")  # fmt: skip
    assert code == 0 and limits[-1] == 7.5 and ev_module.TEAM_MILP_SECONDS == before, err
    code, out, err = cli("eval", "kuhn(players=3)", tmp_path / "u.json", "--team", "12")
    assert code == 0 and limits[-1] == before, err
    assert "--milp-seconds" in one_line_error("verify", "kuhn(players=3)", tmp_path / "u.json",
                                              "--milp-seconds", "0")  # fmt: skip
