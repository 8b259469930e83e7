"""``toypoker sweep``: ``--param`` ranges, an error naming the rule broken (issue 35
item 5); a serial sweep stopped by a signal whatever its job kind (issue 47)."""

from __future__ import annotations

import csv
import io
import json
import signal
from pathlib import Path

import pytest

from .conftest import signal_when, toypoker_process


@pytest.mark.parametrize(
    "grid, rule",
    [
        ("pot=2:4:0", "STEPS is how many values, a whole number of at least 1, not '0'"),
        ("pot=2:4:0.5", "STEPS is how many values, a whole number of at least 1, not '0.5'"),
        ("pot=2:4:x", "STEPS is how many values, a whole number of at least 1, not 'x'"),
        ("pot=a:4:3", "LO must be an exact number (like 2, -1.5, 3/2 or 2e-3), not 'a'"),
        ("pot=2:nan:3", "HI must be an exact number (like 2, -1.5, 3/2 or 2e-3), not 'nan'"),
        ("pot=2:4", "a range is LO:HI:STEPS, three parts separated by ':', not 2"),
    ],
)
def test_a_bad_range_names_the_rule_it_breaks(one_line_error, grid, rule):
    # before: every one of these said "LO:HI:STEPS needs exact numbers" -- a wrong STEPS
    # blamed the exact numbers
    err = one_line_error("sweep", "solve", "kuhn()", "--param", grid, "--scheduler", "serial")
    assert err == f"toypoker: error: --param {grid}: {rule}\n"


# ---------------------------------------------------------------------------------------
# Issue 47, audit cases G4, G6, G7: a serial sweep heard its first Ctrl-C/SIGTERM only
# when the running job ended (a trace, play or ode job never looked at the deferred
# flag), 22 s to forever later.  Each grid below has a short first job and a long second
# one; the signal is sent once the first is recorded ("1/2"), i.e. while the long one
# runs (its kernels compiled by the first).

K3 = "kuhn(players=3)"
SERIAL_CUTS = {
    # issue 47, audit case G4: the trace over [1, 50] with ds_max=0.001 runs for minutes
    "trace": ("trace", K3, "--param", "ds_max=0.001", "--param", "lo=1",
              "--param", "hi=1.2,50"),
    # issue 47, audit case G6: 500 million rounds of play, minutes
    "play": ("play", "skp", "--param", "rounds=200000,500000000"),
    # issue 47, audit case G7: the ODE over t_end=1e9, forever
    "ode": ("ode", "skp", "--param", "t_end=1,1e9"),
}  # fmt: skip


def _signal_sweep(
    args: tuple[str, ...], started: str, cwd: Path, sig: int = signal.SIGINT
) -> tuple[int, str, float]:
    """``toypoker sweep ARGS`` signalled 0.3 s after ``started`` (the long job under way):
    exit status, stderr, seconds from the signal to the exit."""
    return signal_when(("sweep", *args), started, sig, cwd, settle=0.3, start_within=60)


def _one_kept(cwd: Path, err: str, kind: str) -> dict:
    """The first (short) job is recorded, finished; the cut one is not recorded at all."""
    records = [json.loads(f.read_text()) for f in (cwd / "sw" / "jobs").glob("*.json")]
    assert len(records) == 1 and records[0]["status"] == "ok", records
    assert not (cwd / "sw" / "results.csv").exists()
    assert "Traceback" not in err and "SystemError" not in err, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("toypoker: interrupted: 1 finished job(s) kept in sw"), err
    assert f"resume with: toypoker sweep {kind} " in last, err
    return records[0]


@pytest.mark.parametrize("kind", list(SERIAL_CUTS))
def test_a_serial_sweep_stops_within_a_second_of_a_signal(kind: str, tmp_path: Path) -> None:
    # issue 47, audit cases G4 (trace), G6 (play), G7 (ode): before, the first SIGINT
    # was acknowledged and then ignored until the job ended (killed after 15 s here)
    args = (*SERIAL_CUTS[kind], "--scheduler", "serial", "--out-dir", "sw")
    code, err, took = _signal_sweep(args, rf"sweep {kind}: 1/2", tmp_path)
    assert code == 130, (code, took, err)
    assert took < 5, (took, err)  # a fresh interpreter's exit included
    _one_kept(tmp_path, err, kind)


def test_a_cut_serial_sweep_keeps_its_finished_jobs_and_a_rerun_resumes(
    tmp_path: Path,
) -> None:
    # issue 47, audit case G6: stopped by SIGTERM (what SIGINT does), the finished job is
    # kept and the cut one discarded; the rerun skips the kept job and runs the rest
    args = ("play", "skp", "--param", "rounds=200000,500000000", "--scheduler", "serial",
            "--out-dir", "sw")  # fmt: skip
    code, err, took = _signal_sweep(args, r"sweep play: 1/2", tmp_path, signal.SIGTERM)
    assert code == 130 and took < 5, (code, took, err)
    kept = _one_kept(tmp_path, err, "play")
    assert kept["params"]["rounds"] == 200000, kept
    before = {f.name: f.read_bytes() for f in (tmp_path / "sw" / "jobs").iterdir()}
    # the same folder, the long job replaced by a short one: only that one runs
    again = toypoker_process(
        "sweep", "play", "skp", "--param", "rounds=200000,300000", "--scheduler", "serial",
        "--out-dir", "sw", cwd=tmp_path, env={"TOYPOKER_PROGRESS_EVERY": "0"},
    )  # fmt: skip
    out, err = again.communicate(timeout=60)
    assert again.returncode == 0, err
    assert "sweep play: 1/2" in err and "2 play jobs: 2 done, 0 failed" in out, (out, err)
    after = {f.name: f.read_bytes() for f in (tmp_path / "sw" / "jobs").iterdir()}
    assert len(after) == 2 and all(after[name] == data for name, data in before.items())
    rows = list(csv.DictReader(io.StringIO((tmp_path / "sw" / "results.csv").read_text())))
    assert sorted(int(r["rounds"]) for r in rows) == [200000, 300000], rows
