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
