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
from toypoker.evaluate import evaluate
from toypoker.games import load_game
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
    g = load_game(SMALL)
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
    g = load_game(spec)
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
    _wait_for(ck, proc)
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
    written (independent path: :func:`toypoker.evaluate.evaluate` on the deal table)."""
    spec = "holdem(players=3,ranks=3,suits=2)"
    prof = tmp_path / "p.npz"
    code, out, err = cli(
        "solve", spec, "--layout", "vector", "--method", "pdcfr+", "--iterations", "30",
        "--json", "-o", prof,
    )  # fmt: skip
    assert code == 0, err
    assert "layout: vector (--layout vector)" in err and "x 3 hands" in err
    data = json.loads(out)
    g = load_game(spec)
    ev = evaluate(g, read_profile(prof, g))
    np.testing.assert_allclose(data["values"], ev.values, atol=1e-9, rtol=0)
    assert abs(data["nash_conv"] - float(ev.nash_conv)) <= 1e-9
    # auto: this small game stays on the rows, and says so
    code, _, err = cli("solve", spec, "--iterations", "3", "--no-table")
    assert code == 0 and "layout: rows (" in err
