"""``toypoker dynamics``."""

import json

import pytest


@pytest.mark.slow
def test_dynamics_ode_and_play(cli, one_line_error, tmp_path):
    code, out, _ = cli("dynamics", "ode", "--outdir", tmp_path, "--t-end", "100", "--json")
    data = json.loads(out)
    assert code == 0 and [f["name"] for f in data["fixed_points"]] == ["S1", "S2", "S3"]
    assert (tmp_path / "fig7_limit_cycles.png").exists() and (tmp_path / "ode.csv").exists()
    code, out, _ = cli(
        "dynamics", "play", "--rounds", "20000", "--record-every", "1000",
        "--outdir", tmp_path,
    )  # fmt: skip
    assert code == 0 and "np.float64" not in out and "expectation" in out
    assert (tmp_path / "play.csv").read_text().count("\n") == 21
    code, out, _ = cli(
        "dynamics", "play", "--rounds", "20000", "--record-every", "1000",
        "--outdir", tmp_path, "--json",
    )  # fmt: skip
    assert code == 0 and len(json.loads(out)["expectation"]) == 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "--pot", "-1"], "positive"),
        (["play", "--L", "0"], "at least 1"),
        (["play", "--k", "nan"], "--k"),
        (["play", "--seed", "-1"], "--seed"),
        (["play", "--record-every", "0"], "--record-every"),
        (["play", "--y0", "2,3,4"], "[0, 1]"),
        (["play", "--y0", "0.1,0.2"], "--y0"),
        (["ode", "--t-end", "-5"], "--t-end"),
        (["ode", "--basins-grid", "0"], "--basins-grid"),
        (["ode", "--basins-grid", "100000"], "--basins-grid"),
        (["ode", "--y0", "2,3,4"], "--y0"),
        (["estimators", "--L", "0"], "at least 1"),
        (["table1", "--seed", "-1"], "--seed"),
        (["table1", "--k", "0"], "--k"),
    ],
)
def test_bad_dynamics_options(one_line_error, tmp_path, args, message):
    assert message in one_line_error("dynamics", *args, "--outdir", tmp_path)


def test_table1_compares_with_the_paper(cli, tmp_path):
    code, out, err = cli(
        "dynamics", "table1", "--rounds", "20000", "--k", "0.001", "--L", "6", "--workers", "1",
        "--outdir", tmp_path, "--csv", tmp_path / "t1.csv", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0, err
    (row,) = data["rows"]
    assert row["L"] == 6 and row["published"] is not None and "reading" in data
    assert (tmp_path / "t1.csv").read_text().startswith("L,k,player")
    assert (tmp_path / "play_k0.001.png").exists()


def test_estimators_draws_figure_16_with_both_forms_of_eq_46(cli, tmp_path):
    # issue 15: Fig. 16 redrawn with the corrected and the printed eq. (46); the JSON
    # limits are the exact large-L limits (corrected: c itself, Billingham App. D)
    code, out, _ = cli(
        "dynamics", "estimators", "--L", "6,48", "--rounds", "20000",
        "--outdir", tmp_path, "--json",
    )  # fmt: skip
    assert code == 0
    for name in ("fig16_estimator_means.png", "fig16_both_estimators.png"):
        assert (tmp_path / name).stat().st_size > 10_000
    data = json.loads(out)
    assert data["estimator"] == "corrected"
    assert data["limits"][2] == pytest.approx(data["truth"][2], rel=1e-12)


@pytest.mark.slow
def test_ctrl_c_during_table1_keeps_finished_runs_and_resumes(cli, tmp_path):
    # issue 14 item 4: one Ctrl-C stops the sweep, keeps the finished runs, prints the
    # command that resumes; the resumed table equals an uninterrupted one
    import json
    import signal
    import time

    from .conftest import toypoker_process
    from .test_solve import _resume_args

    # six runs of ~0.4 s each: the signal lands well before the last one ends
    args = ["dynamics", "table1", "--rounds", "2000000", "--k", "0.01", "--L", "6,12,24,48,96,192",
            "--workers", "1", "--json"]  # fmt: skip
    proc = toypoker_process(*args, "--outdir", tmp_path / "a", cwd=tmp_path)
    runs = tmp_path / "a" / "table1-runs"
    t0 = time.monotonic()
    while not list(runs.glob("run-*.npz")) if runs.exists() else True:
        assert proc.poll() is None and time.monotonic() - t0 < 120, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "finished run(s) kept in" in err
    hint = _resume_args(err)
    assert hint[hint.index("--checkpoint") + 1] == str(runs)
    code, out, err = cli(*hint)
    assert code == 0, err
    code, out2, err = cli(*args, "--outdir", tmp_path / "b")
    assert code == 0, err
    a, b = json.loads(out), json.loads(out2)
    assert a["rows"] == b["rows"]


# ------------------------------------------------- estimators: a run store that resumes
# issue 47, audit case N12: `dynamics estimators --rounds 100000000`, SIGINT after 5 s,
# threw its finished run away ("1 of 12 runs done; no figure written") and had no
# --checkpoint: each finished run is now kept in OUT_DIR/estimators-runs, the line says
# how many and the command that resumes, and that command gives the uninterrupted numbers
ESTIMATORS_ARGS = ("dynamics", "estimators", "--L", "6,12", "--rounds", "20000", "--json")


def _signal_after_runs(monkeypatch, n: int) -> list[int]:
    """The library's runs counted; a SIGINT (as a Ctrl-C) as the ``n``-th one ends (the
    count goes on over later commands; none other is signalled)."""
    import importlib
    import os
    import signal

    module = importlib.import_module("toypoker.dynamics.play")
    real, calls = module.play, []

    def play_then_signal(**kw):
        r = real(**kw)
        calls.append(1)
        if len(calls) == n:
            os.kill(os.getpid(), signal.SIGINT)
        return r

    monkeypatch.setattr(module, "play", play_then_signal)
    return calls


def test_an_interrupted_estimators_study_resumes_with_the_uninterrupted_numbers(
    cli, tmp_path, monkeypatch
):
    # issue 47, audit case N12: the finished runs survive the interrupt; the printed
    # command runs only the rest, and its JSON is the uninterrupted run's, bit for bit
    from .test_solve import _resume_args

    monkeypatch.chdir(tmp_path)
    code, whole, err = cli(*ESTIMATORS_ARGS, "--out-dir", "whole")
    assert code == 0, err
    calls = _signal_after_runs(monkeypatch, 2)
    code, _, err = cli(*ESTIMATORS_ARGS, "--out-dir", "part")
    assert code == 130, err
    runs = tmp_path / "part" / "estimators-runs"
    assert sorted(f.name for f in runs.glob("run-*.npz")) == [
        "run-L12-corrected-seed1.npz", "run-L6-corrected-seed0.npz"
    ]  # fmt: skip
    code, resumed, err = cli(*_resume_args(err))
    assert code == 0, err
    assert len(calls) == 4  # then the two printed-form runs; the kept ones not run again
    assert json.loads(resumed) == json.loads(whole) and resumed == whole
    for name in ("fig16_estimator_means.png", "fig16_both_estimators.png"):
        assert (tmp_path / "part" / name).stat().st_size > 10_000


def test_the_interrupted_estimators_line_names_the_runs_kept_and_the_resume_command(
    cli, tmp_path, monkeypatch
):
    # issue 47, audit case N12: the line said "1 of 12 runs done; no figure written" and
    # the run was lost; now it says how many runs are kept, where, and how to resume
    monkeypatch.chdir(tmp_path)
    _signal_after_runs(monkeypatch, 3)
    code, out, err = cli(*ESTIMATORS_ARGS, "--out-dir", "part")
    assert code == 130 and out == "", err
    assert err.strip().splitlines()[-1] == (
        "toypoker: interrupted: 3 of 4 runs done and kept in part/estimators-runs; no figure "
        "written (they need every run); resume with: toypoker dynamics estimators --L 6,12 "
        "--rounds 20000 --json --out-dir part --checkpoint part/estimators-runs"
    )
    assert len(list((tmp_path / "part" / "estimators-runs").glob("run-*.npz"))) == 3
    assert not list((tmp_path / "part").glob("*.png"))


def test_an_estimators_run_store_of_other_options_is_refused(
    cli, one_line_error, tmp_path, monkeypatch
):
    # issue 47, audit case N12: a store of runs of other options (here another --rounds,
    # --pot or --L) is refused in one line, exit 2, before anything runs
    monkeypatch.chdir(tmp_path)
    code, _, err = cli("dynamics", "estimators", "--L", "6", "--rounds", "20000",
                       "--out-dir", "o")  # fmt: skip
    assert code == 0, err
    store = "o/estimators-runs keeps runs of other options"
    tail = "resume with the options they were made with, or use another folder"
    err = one_line_error("dynamics", "estimators", "--L", "6", "--rounds", "30000",
                         "--out-dir", "o")  # fmt: skip
    assert f"{store} (run-L6-corrected-seed0.npz has rounds 20,000, not 30,000): {tail}" in err
    err = one_line_error("dynamics", "estimators", "--L", "6", "--rounds", "20000",
                         "--pot", "10", "--out-dir", "o")  # fmt: skip
    assert f"{store} (run-L6-corrected-seed0.npz has pot 9.0, not 10.0)" in err
    err = one_line_error("dynamics", "estimators", "--L", "12", "--rounds", "20000",
                         "--checkpoint", "o/estimators-runs", "--out-dir", "p")  # fmt: skip
    assert f"{store} (run-L6-corrected-seed0.npz is none of these runs)" in err
    assert not (tmp_path / "p").exists()
