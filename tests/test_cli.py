"""The toypoker command line, run as a user would."""

import json
import subprocess
import sys
from fractions import Fraction as F

import pytest

from toypoker.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_builtins(capsys):
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    names = [g["name"] for g in json.loads(out)]
    assert names == ["kuhn", "kuhn_third_street", "skp", "leduc"]


def test_info_json(capsys):
    code, out, _ = run(capsys, "info", "kuhn(players=3)", "--json")
    data = json.loads(out)
    # Szafron et al.: 24 deals, 48 information sets
    assert code == 0 and data["deals"] == 24 and data["infosets"] == 48 and data["players"] == 3


def test_solve_writes_profile_and_eval_reads_it(capsys, tmp_path):
    path = tmp_path / "k3.json"
    code, out, _ = run(
        capsys, "solve", "kuhn(players=3)", "--iterations", "1500", "-o", str(path), "--json"
    )
    assert code == 0
    res = json.loads(out)
    assert res["nash_conv"] < 1e-3 and res["iterations"] == 1500
    code, out, _ = run(capsys, "eval", "kuhn(players=3)", str(path), "--json")
    ev = json.loads(out)
    assert code == 0 and ev["nash_conv"] == pytest.approx(res["nash_conv"], abs=1e-12)


def test_solve_prints_table_values_and_nash_conv(capsys):
    code, out, _ = run(capsys, "solve", "kuhn(players=2)", "--iterations", "300")
    assert code == 0
    assert "NashConv" in out and "P1" in out and "expected value" in out


def test_eval_exact(capsys, tmp_path):
    # Kuhn (1950), gamma = 1 member (K, L): (alpha, beta, gamma) = (1/3, 2/3, 1)
    path = tmp_path / "kuhn.json"
    profile = {
        "game": "kuhn(players=2)",
        "infosets": {
            "P1:1:": {"k": 0.66666666666666663, "b": 0.33333333333333337},
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
    profile["infosets"]["P1:1:"] = {"k": "2/3", "b": "1/3"}
    path.write_text(json.dumps(profile))
    code, out, _ = run(capsys, "eval", "kuhn(players=2)", str(path), "--exact", "--json")
    ev = json.loads(out)
    assert code == 0
    assert F(ev["values"][0]["exact"]) == F(-1, 18)
    assert ev["nash_conv"]["exact"] == "0"


@pytest.mark.parametrize(
    "args, message",
    [
        (["info", "kuhn(players=1)"], "players >= 2"),
        (["info", "kuhn(players=3"], "malformed game spec"),
        (["info", "nope()"], "unknown game"),
        (["info", "kuhn(ante=-1)"], "positive"),
        (["solve", "kuhn()", "--iterations", "x"], "--iterations"),
        (["solve", "kuhn()", "--method", "magic"], "unknown method"),
        (["eval", "kuhn()", "/nonexistent/p.json"], "cannot read profile"),
        (["frobnicate"], "No such command"),
        (["trace", "kuhn(players=3)", "--pot", "-1:5"], "pot must stay positive"),
        (["trace", "kuhn(players=3)", "--pot", "5:2"], "LO < HI"),
        (["trace", "kuhn(players=3)", "--pot", "a:b"], "LO:HI"),
        (["trace", "kuhn(players=3)"], "--pot LO:HI"),
        (["trace", "kuhn(players=3)", "--param", "cards", "--range", "1:2"], "numeric parameter"),
        (["trace", "kuhn(players=3)", "--pot", "1:5", "--at", "7"], "outside"),
        (["trace", "kuhn(players=3)", "--resume", "/nonexistent/curve.csv"], "cannot read curve"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("toypoker: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "infosets, message",
    [
        ({"P1:1:": {"k": 0.5, "b": 0.6}}, "sum to"),
        ({"P7:1:": {"k": 0.5, "b": 0.5}}, "unknown infoset"),
    ],
)
def test_bad_profile_files(capsys, tmp_path, infosets, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "kuhn(players=2)", "infosets": infosets}))
    code, _, err = run(capsys, "eval", "kuhn(players=2)", str(path))
    assert code == 2 and message in err and err.count("\n") == 1


def test_not_json(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    code, _, err = run(capsys, "eval", "kuhn(players=2)", str(path))
    assert code == 2 and "not valid JSON" in err


def test_console_script_subprocess():
    proc = subprocess.run(
        [sys.executable, "-m", "toypoker", "info", "kuhn(players=0)"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == "toypoker: error: kuhn needs players >= 2, got 0"


def test_solve_lp_prints_exact_value(capsys):
    code, out, _ = run(capsys, "solve", "kuhn(players=2)", "--method", "lp", "--json")
    data = json.loads(out)
    # Kuhn (1950): value -1/18
    assert code == 0 and data["extra"]["value_exact"] == "-1/18" and data["nash_conv"] == 0


def test_solve_seeds_summarises_spread(capsys, tmp_path):
    path = tmp_path / "seeds.json"
    code, out, _ = run(
        capsys,
        "solve",
        "kuhn(players=3)",
        "--method",
        "es-mccfr",
        "--seeds",
        "3",
        "--iterations",
        "300",
        "--result",
        str(path),
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["seeds"] == 3 and len(data["runs"]) == 3
    assert [r["seed"] for r in data["runs"]] == [0, 1, 2]
    assert json.loads(path.read_text()) == data
    assert {v["player"] for v in data["values"]} == {1, 2, 3}


def test_compare_writes_table_and_plot(capsys, tmp_path):
    plot = tmp_path / "cmp.png"
    code, out, _ = run(
        capsys,
        "compare",
        "kuhn(players=2)",
        "--methods",
        "cfr+,fp,lp",
        "--seconds",
        "0.3",
        "--plot",
        str(plot),
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and [m["method"] for m in data["methods"]] == ["cfr+", "fp", "lp"]
    assert plot.exists() and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_checkpoint_and_resume_from_the_command_line(capsys, tmp_path):
    ck = tmp_path / "ck.npz"
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert (
        run(
            capsys,
            "solve",
            "kuhn(players=3)",
            "--iterations",
            "40",
            "--checkpoint",
            str(ck),
            "--json",
        )[0]
        == 0
    )
    assert (
        run(
            capsys,
            "solve",
            "kuhn(players=3)",
            "--iterations",
            "80",
            "--resume",
            str(ck),
            "-o",
            str(a),
            "--json",
        )[0]
        == 0
    )
    assert (
        run(capsys, "solve", "kuhn(players=3)", "--iterations", "80", "-o", str(b), "--json")[0]
        == 0
    )
    assert json.loads(a.read_text()) == json.loads(b.read_text())


def test_resume_missing_checkpoint_is_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "solve", "kuhn()", "--resume", str(tmp_path / "none.npz"))
    assert code == 2 and "cannot read checkpoint" in err and err.count("\n") == 1


def test_verify_certifies_and_reports_best_responses(capsys, tmp_path):
    from toypoker.games import load_game
    from toypoker.literature import szafron2013 as S

    g = load_game(S.GAME_SPEC)
    path = tmp_path / "t4.json"
    S.profile(g, S.table4()).to_json(path)
    code, out, _ = run(capsys, "verify", "kuhn(players=3)", str(path), "--json")
    data = json.loads(out)
    # Szafron et al. Table 4: not an equilibrium; P1 gains 1/12, P2 gains 1/96
    assert code == 1 and data["equilibrium"] is False
    assert [x["exact"] for x in data["gains"]] == ["1/12", "1/96", "0"]
    assert set(data["best_response_deviations"]) == {"P1", "P2"}


def test_literature_list_and_check_json(capsys):
    code, out, _ = run(capsys, "literature", "--json")
    assert code == 0 and len(json.loads(out)) >= 10
    code, out, _ = run(capsys, "literature", "check", "--claim", "billingham-p-star", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["status"] for r in rows] == ["verified", "disagrees"]


def test_export_efg(capsys, tmp_path):
    path = tmp_path / "k.efg"
    code, _, _ = run(capsys, "export", "kuhn(players=2)", "-o", str(path))
    text = path.read_text()
    assert code == 0 and text.startswith('EFG 2 R "kuhn(players=2,cards=3,ante=1,bet=1)"')
    assert text.count("\nt ") == 30  # 30 plays (Kuhn 1950)


def test_equilibria_command(capsys):
    code, out, _ = run(capsys, "equilibria", "skp", "--symbolic-pot", "--pot-min", "5", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["equilibria"]) == 3
    code, _, err = run(capsys, "equilibria", "kuhn(players=2)")
    assert code == 2 and "too many" in err


def test_dynamics_commands(capsys, tmp_path):
    code, out, _ = run(
        capsys, "dynamics", "ode", "--outdir", str(tmp_path), "--t-end", "100", "--json"
    )
    data = json.loads(out)
    assert code == 0 and [f["name"] for f in data["fixed_points"]] == ["S1", "S2", "S3"]
    assert (tmp_path / "fig7_limit_cycles.png").exists() and (tmp_path / "ode.csv").exists()
    code, out, _ = run(
        capsys,
        "dynamics",
        "play",
        "--rounds",
        "20000",
        "--record-every",
        "1000",
        "--outdir",
        str(tmp_path),
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and len(data["expectation"]) == 3
    assert (tmp_path / "play.csv").read_text().count("\n") == 21
    code, _, err = run(capsys, "dynamics", "play", "--pot", "-1")
    assert code == 2 and "positive" in err
    code, _, err = run(capsys, "dynamics", "play", "--L", "0")
    assert code == 2 and "at least 1" in err


def test_trace_writes_curve_plots_and_certified_equilibria(capsys, tmp_path):
    # Billingham (N cards), Sec. 5.1 / Szafron et al.: N = 4 at P = 3 has E2 = -1/48
    code, out, _ = run(
        capsys,
        "trace",
        "kuhn(players=3,cards=4)",
        "--pot",
        "2.5:3.5",
        "--at",
        "3",
        "--outdir",
        str(tmp_path),
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["reason"] == "reached" and data["eps"] == 1e-6
    (eq,) = data["equilibria"][0]["list"]
    assert abs(eq["expectations"][1] + 1 / 48) < 1e-12 and eq["nash_conv"] < 1e-6
    for f in [
        "curve.csv",
        "curve.csv.json",
        "expectations.png",
        "frequencies.png",
        "multiplicity.csv",
        "multiplicity.png",
        "ranges_pot3.png",
        "animation.gif",
    ]:
        assert (tmp_path / f).stat().st_size > 0, f
    assert (tmp_path / "animation.gif").read_bytes()[:3] == b"GIF"
