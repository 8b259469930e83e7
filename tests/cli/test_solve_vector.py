"""``toypoker solve`` on the vector layout (``rhode_island``): counted and built without
a deal table, solved through the normal run loop; its NashConv checked by the row
layout's independent best response on a deck small enough for both."""

from __future__ import annotations

import json
import shlex
import signal

import numpy as np
import pytest

from toypoker.archive import read_profile
from toypoker.evaluation import evaluate
from toypoker.games import load_rows
from toypoker.profile import Profile
from toypoker.solvers import load_checkpoint

from .conftest import toypoker_process
from .test_solve import _wait_for

SMALL = "rhode_island(ranks=3,suits=2,cap=1)"


@pytest.mark.slow  # ~15 s: the row game and its evaluation, the independent check
def test_solve_rhode_island_runs_on_the_vector_layout(cli, tmp_path):
    prof = tmp_path / "p.json"
    code, out, err = cli(
        "solve", SMALL, "--method", "pdcfr+", "--iterations", "40", "--json", "-o", prof
    )  # fmt: skip
    assert code == 0, err
    assert "vector layout:" in err and "built in" in err  # size said before building
    data = json.loads(out)
    assert data["iterations"] == 40 and data["method"] == "pdcfr+"
    # independent path: the row layout's evaluation of the profile written
    g = load_rows(SMALL)
    ev = evaluate(g, Profile.from_json(prof, g))
    np.testing.assert_allclose(data["values"], ev.values, atol=1e-9, rtol=0)
    assert abs(data["nash_conv"] - float(ev.nash_conv)) <= 1e-9


def test_solve_rhode_island_table_and_refusals(cli, one_line_error):
    code, out, err = cli("solve", SMALL, "--method", "cfr+", "--iterations", "5")
    assert code == 0, err
    assert "strategy table omitted" in out and "NashConv" in out
    assert "vector layout" in one_line_error("solve", SMALL, "--team", "12")
    assert "vector layout" in one_line_error("solve", SMALL, "--method", "os-mccfr")
    for method in (["fp"], ["pcs-cfr+", "--seed", "1"]):  # the other methods of one engine
        code, out, err = cli("solve", SMALL, "--method", *method, "--iterations", "3", "--json")
        assert code == 0, err
        data = json.loads(out)
        assert data["method"] == method[0] and data["iterations"] == 3


def test_solve_weak_collusion_on_the_vector_layout(cli, tmp_path):
    # weak collusion (a payoff map) on vectors, checked by the row layout's evaluation
    spec = "holdem(players=3,ranks=3,suits=2,team=13,sharing=pot)"
    prof = tmp_path / "p.json"
    code, out, err = cli(
        "solve", spec, "--layout", "vector", "--method", "cfr+", "--iterations", "20",
        "--json", "-o", prof,
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    g = load_rows(spec)
    ev = evaluate(g, Profile.from_json(prof, g))
    np.testing.assert_allclose(data["values"], ev.values, atol=1e-9, rtol=0)
    assert abs(data["nash_conv"] - float(ev.nash_conv)) <= 1e-9
    code, out, err = cli("solve", spec, "--layout", "vector", "--iterations", "3")
    assert code == 0, err
    assert "team gain: not computed on the vector layout" in out  # said, not left out


@pytest.mark.slow
def test_ctrl_c_saves_a_checkpoint_that_resumes(cli, tmp_path):
    ck = tmp_path / "ck.npz"
    spec = "rhode_island(ranks=4,suits=2,cap=1)"
    proc = toypoker_process(
        "solve", spec, "--method", "pdcfr+", "--iterations", "1000000", "--checkpoint", ck,
        "--checkpoint-seconds", "0.2", "--no-table", cwd=tmp_path,
    )  # fmt: skip
    _wait_for(ck, proc, timeout=600.0)  # a fresh install compiles the kernels first (~35 s quiet)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    done = load_checkpoint(ck).state.iteration
    assert done > 0 and "Traceback" not in err
    line = next(x for x in err.splitlines() if "resume with: " in x)
    args = shlex.split(line.split("resume with: ", 1)[1])[1:]
    assert args[args.index("--resume") + 1] == str(ck)
    args[args.index("--iterations") + 1] = str(done + 3)
    code, _, err = cli(*args, "--json")
    assert code == 0, err


@pytest.mark.slow  # ~20 s at load 7: the 3-player kernel and the row game's evaluation
def test_three_player_holdem_on_the_vector_layout(cli, tmp_path):
    """``--layout vector`` on a small 3-player deck (one hand a rank): the layout is
    said, and the NashConv printed is the row layout's evaluation of the profile
    written (independent path: :func:`toypoker.engines.rows.values.evaluate` on the deal table)."""
    spec = "holdem(players=3,ranks=3,suits=2)"
    prof = tmp_path / "p.npz"
    code, out, err = cli(
        "solve", spec, "--layout", "vector", "--method", "pdcfr+", "--iterations", "30",
        "--json", "-o", prof,
    )  # fmt: skip
    assert code == 0, err
    assert "layout: vector (--layout vector)" in err and "x 3 hands" in err
    data = json.loads(out)
    g = load_rows(spec)
    ev = evaluate(g, read_profile(prof, g))
    np.testing.assert_allclose(data["values"], ev.values, atol=1e-9, rtol=0)
    assert abs(data["nash_conv"] - float(ev.nash_conv)) <= 1e-9
    # auto: this small game stays on the rows, and says so
    code, _, err = cli("solve", spec, "--iterations", "3", "--no-table")
    assert code == 0  # the deal table, said only where it matters (issue 33)


def test_vector_refusals_name_the_way_out(cli, one_line_error, monkeypatch):
    """Audit of issue 21: the vector layout's refusals named no way out.  Where the rows
    fit (this deck: 21,060 rows counted) ``--layout rows`` -- and it then runs; where
    they do not (the full game: 438,275,565 rows, 87.7 GB, tests/cli/test_games.py) the
    vector layout's methods, or leaving out --team."""
    err = one_line_error("solve", SMALL, "--method", "os-mccfr")
    assert "--layout rows runs it on the rows (21,060 rows" in err
    code, out, err = cli(
        "solve", SMALL, "--method", "os-mccfr", "--layout", "rows", "--iterations", "5",
        "--no-table", "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["method"] == "os-mccfr"
    assert "--layout rows runs it on the rows" in one_line_error("solve", SMALL, "--team", "12")
    # the full game's vectors peak at about 3.2 GB, the estimate the budget is held to
    # (issue 47): the default budget (half the machine's memory) admits them, 2 GiB not
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "8e9")
    err = one_line_error("solve", "rhode_island", "--method", "es-mccfr")
    assert "438,275,565 rows, about 87.7 GB" in err and "..." not in err
    assert err.rstrip().endswith("use the CFR family, fp, pcs-cfr+ or lp")
    assert (
        one_line_error("solve", "rhode_island", "--team", "12")
        .rstrip()
        .endswith("leave out --team")
    )
    err = one_line_error("solve", "kuhn(players=3,team=12,strong=true)", "--layout", "vector")
    assert "strong collusion does not run on the vector layout; --layout rows" in err


def test_seeds_of_pcs_cfr_run_on_the_vector_layout(cli):
    """``pcs-cfr+ --seeds`` was refused on Rhode Island (audit of issue 21): the seeds
    now run on the vector layout built once, an rng a seed.  Independent path: the same
    seeds with --layout rows (the compiled deal table, then compile_vector) give the
    same values and NashConv."""
    args = ("--method", "pcs-cfr+", "--seeds", "2", "--seed", "3", "--iterations", "4", "--json")
    code, out, err = cli("solve", SMALL, *args)
    assert code == 0 and "layout: vector" in err, err
    vec = json.loads(out)
    code, out, err = cli("solve", SMALL, *args, "--layout", "rows")
    assert code == 0 and "layout: rows" in err, err
    rows = json.loads(out)
    assert [r["seed"] for r in vec["runs"]] == [r["seed"] for r in rows["runs"]] == [3, 4]
    for a, b in zip(vec["runs"], rows["runs"], strict=True):
        np.testing.assert_allclose(a["values"], b["values"], atol=1e-12, rtol=0)
        assert a["nash_conv"] == pytest.approx(b["nash_conv"], abs=1e-12, rel=0)


def test_layout_vector_compiles_catalogue_games(cli, tmp_path):
    """``solve leduc --layout vector`` was refused (build_vector has no Leduc builder):
    now compiled and run through compile_vector.  Independent path: the same CFR+ run
    on the rows (values, NashConv and the profile equal to 1e-12)."""
    runs = {}
    for layout in ("vector", "rows"):
        prof = tmp_path / f"{layout}.json"
        code, out, err = cli(
            "solve", "leduc", "--layout", layout, "--iterations", "10", "--json", "-o", prof
        )  # fmt: skip
        assert code == 0 and f"layout: {layout} (--layout {layout})" in err, err
        runs[layout] = (json.loads(out), Profile.from_json(prof, load_rows("leduc")))
    (vec, pv), (rows, pr) = runs["vector"], runs["rows"]
    np.testing.assert_allclose(vec["values"], rows["values"], atol=1e-12, rtol=0)
    assert vec["nash_conv"] == pytest.approx(rows["nash_conv"], abs=1e-12, rel=0)
    np.testing.assert_allclose(pv.probs.astype(float), pr.probs.astype(float), atol=1e-12, rtol=0)


def test_vector_memory_is_one_number_in_info_and_solve(cli):
    """``info`` said 49.9 MB (decimal) where ``solve`` said 48 MB (MiB) for the same
    layout (audit of issue 21): one function, one number.  This deck: 15,660 entries x
    91 bytes (layout_count.BYTES_PER_ENTRY) = 1.4 MB."""
    code, out, _ = cli("info", SMALL)
    assert code == 0
    line = next(x for x in out.splitlines() if "vector layout memory" in x)
    assert line.split("│")[2].strip() == "1.4 MB"
    code, _, err = cli("solve", SMALL, "--iterations", "1", "--no-table")
    assert code == 0 and "15,660 entries, about 1.4 MB;" in err, err


def test_strong_collusion_past_the_row_limit_is_refused_before_building(one_line_error):
    """Audit (2026-11-26): strong collusion on three-player Leduc's full deck went to the
    rows uncounted (3 GB in 20 s, 6.6 GB counted).  Now its rows are counted as the
    uncolluded game's (the same deals and tree; the count is toypoker info's) and the run
    is refused at once, naming the weak team's vector layout (not --layout rows: past
    load_game's own budget, the same count, they are too large to compile)."""
    err = one_line_error(
        "solve", "holdem(players=3,ranks=13,suits=4,team=12,strong=true)", "--iterations", "2"
    )
    assert "strong collusion needs the row layout: 32,873,711 rows, about 6.6 GB" in err
    assert "too large to compile" in err and "--layout rows" not in err, err
    assert "strong=false" in err
