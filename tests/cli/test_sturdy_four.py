"""Issue 47, "Sturdy, round four", on the command line: nothing replaced without
``--resume`` or ``--overwrite``, every folder a command writes locked, printed
commands whole, ``--threads`` after the command, worker counts bounded by the machine,
targets met without an overflow, and resumes that say where they start.  Each test
failed on the code before the issue (what it did is in the docstring)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_locks import _holder, _release  # another process holding a lock
from toypoker.solvers.checkpoint import load_checkpoint

K2 = "kuhn(players=2)"


# ------------------------------------------------------------- reused paths
def test_an_existing_checkpoint_is_not_replaced_without_resume_or_overwrite(
    cli, one_line_error, tmp_path, monkeypatch
):
    """Before: ``--checkpoint ck.npz`` without ``--resume`` replaced an existing
    checkpoint silently, even another game's.  Now refused in one line naming what it
    holds and the two ways on; ``--overwrite`` replaces it."""
    monkeypatch.chdir(tmp_path)  # a short path: the one line is not shortened
    ck = Path("ck.npz")
    assert cli("solve", K2, "--iterations", "20", "--checkpoint", ck, "--no-table")[0] == 0
    before = ck.read_bytes()
    err = one_line_error("solve", "leduc(players=2)", "--iterations", "5", "--checkpoint", ck)
    assert f"checkpoint {ck} exists (cfr+ on kuhn(players=2,cards=3,ante=1,bet=1), 20" in err
    assert f"give --resume {ck} to continue it, --overwrite to replace it" in err
    assert ck.read_bytes() == before
    code, _, err = cli("solve", K2, "--iterations", "7", "--checkpoint", ck, "--overwrite",
                       "--no-table")  # fmt: skip
    assert code == 0, err
    assert load_checkpoint(ck).state.iteration == 7
    # resuming it into itself is what the interrupt's resume line does: allowed
    code, _, err = cli("solve", K2, "--iterations", "9", "--checkpoint", ck, "--resume", ck,
                       "--no-table")  # fmt: skip
    assert code == 0 and "resuming" in err and "at iteration 7" in err, err


def test_a_checkpoint_in_use_is_refused_before_the_game_is_built(
    one_line_error, tmp_path, monkeypatch
):
    """Before: the lock refusal came after the game was built (12-14 s on Rhode Island).
    Now the lock is taken first: the build is never reached."""
    import toypoker.cli.solve as solve_cli

    def no_build(*_a: object, **_k: object) -> None:
        raise AssertionError("the game was built before the lock was asked")

    monkeypatch.setattr(solve_cli, "build_on_layout", no_build)
    ck = tmp_path / "ck.npz"
    other = _holder(ck, False)
    try:
        err = one_line_error("solve", K2, "--iterations", "5", "--checkpoint", ck)
    finally:
        _release(other)
    assert f"is in use by another run (pid {other.pid})" in err


def test_two_traces_into_one_folder_are_refused(tmp_path):
    """Before: two ``toypoker trace`` runs into one ``--out-dir`` both ran; the second's
    curve was replaced by the first's unfinished one while it said it wrote it.  Trace
    folders are now locked as sweep and report folders are."""
    other = _holder(tmp_path / "t", True)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "toypoker", "trace", "skp", "--pot", "2:3", "--no-gif",
             "--out-dir", "t"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        _release(other)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"toypoker: error: trace folder t is in use by another run (pid {other.pid}); "
        "wait for it to end, or give another path\n"
    )
    assert not (tmp_path / "t" / "curve.csv").exists()


# ------------------------------------------------------------ whole commands
def test_the_resume_command_after_a_lost_worker_is_printed_whole(cli, tmp_path, monkeypatch):
    """Before: after a lost worker or scheduler the resume command was cut at 200
    characters (``...resu...791 --checkpoint ...``): it could not be pasted."""
    import toypoker.cli.solve as solve_cli
    from toypoker.engines.sharded import ShardLostError

    def lost(*_a: object, **_k: object) -> None:
        raise ShardLostError("shard 0 on dask worker tcp://127.0.0.1:40000 failed (step): gone")

    monkeypatch.setattr(solve_cli, "solve_game", lost)
    ck = tmp_path / ("a-long-folder-name-" * 6) / "ck.npz"
    ck.parent.mkdir()
    code, _, err = cli("solve", K2, "--iterations", "50", "--checkpoint", ck, "--no-table",
                       "--checkpoint-seconds", "30")  # fmt: skip
    assert code == 2 and err.count("\n") == 1, err
    command = err.split("; resume with: ", 1)[1].strip()
    assert command.endswith(f"--resume {ck}") and "..." not in command, command
    assert len(err) > 200  # longer than one_line's limit, and whole


# --------------------------------------------------------------- counts
def test_threads_is_taken_after_the_command_too(cli, one_line_error):
    """Before: ``toypoker solve ... --threads 2`` (as docs/howto/clusters.md writes it)
    was refused "No such option: --threads"; ``--threads 0`` answered about "BLAS
    threads"."""
    code, out, err = cli("solve", K2, "--iterations", "5", "--threads", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["iterations"] == 5
    err = one_line_error("solve", K2, "--threads", "0")
    assert "--threads must be a whole number >= 1, not 0" in err and "BLAS" not in err
    err = one_line_error("--threads", "0", "games")
    assert "--threads must be a whole number >= 1, not 0" in err


def test_workers_are_bounded_by_the_machine(one_line_error, monkeypatch):
    """Before: ``--workers 1000`` on a 2-core machine was accepted (dask tracebacks,
    hundreds of "interrupted" lines); ``--workers N`` with a tcp scheduler was taken
    silently and the header claimed N workers."""
    import toypoker.dask_client as dc

    monkeypatch.setattr(dc, "machine_cpus", lambda: 2)
    spec = "kuhn(players=2,cards=13)"
    err = one_line_error("solve", spec, "--layout", "vector", "--scheduler", "local",
                         "--workers", "1000")  # fmt: skip
    want = "--workers 1000: a local cluster runs one worker process a CPU and this machine has 2"
    assert want in err and "give at most 2" in err, err
    err = one_line_error("solve", spec, "--layout", "vector", "--scheduler",
                         "tcp://127.0.0.1:9", "--workers", "3")  # fmt: skip
    assert "brings its own workers: drop --workers" in err, err


# ------------------------------------------------------------------ targets
def test_a_far_target_ends_without_an_overflow(cli):
    """Before: ``solve --target-nash-conv 1e-8`` ended in an uncaught OverflowError in the
    aimed check (a power law through two nearly equal checks aims past any float).  Here
    a budget ends the run; the checks made on the way aimed nowhere absurd."""
    code, _, err = cli("solve", K2, "--target-nash-conv", "1e-30", "--iterations", "3000",
                       "--no-table")  # fmt: skip
    assert code == 1 and "OverflowError" not in err and "the budget ended first" in err, err


def test_a_resume_says_where_it_starts_and_when_nothing_is_left(cli, tmp_path, monkeypatch):
    """Before: ``--iterations 100 --resume`` of a 200-iteration checkpoint said nothing
    and returned the 200-iteration run; a resume never said the iteration it starts
    from; a checkpoint refused for "other options" printed a cut repr."""
    monkeypatch.chdir(tmp_path)  # a short path: the one line is not shortened
    ck = Path("ck.npz")
    assert cli("solve", K2, "--iterations", "200", "--checkpoint", ck, "--no-table")[0] == 0
    code, out, err = cli("solve", K2, "--iterations", "100", "--resume", ck, "--no-table")
    assert code == 0
    assert (
        f"note: {ck} has 200 iterations already, --iterations 100 asks for no more: nothing was run"
        in err
    )
    code, _, err = cli("solve", K2, "--iterations", "300", "--resume", ck, "--no-table")
    assert code == 0 and f"resuming {ck} at iteration 200 (cfr+ on kuhn(" in err, err
    code, _, err = cli("solve", K2, "--iterations", "300", "--resume", ck, "--option",
                       "delay=5", "--no-table")  # fmt: skip
    assert code == 2 and err.endswith(f"checkpoint {ck} was run with delay=0, not delay=5\n"), err


# ------------------------------------------------------------ older files
@pytest.mark.parametrize("what", ["-o", "--result"])
def test_json_an_older_version_wrote_under_a_npz_name_is_read(cli, tmp_path, what):
    """Before: a profile or result older versions wrote as JSON under a ``.npz`` name
    failed with "File is not a zip file", no hint.  It is read as the JSON it is."""
    js = tmp_path / "p.json"
    assert cli("solve", K2, "--iterations", "50", what, js, "--no-table")[0] == 0
    old = js.rename(tmp_path / "p.npz")
    code, out, err = cli("eval", K2, old, "--json")
    assert code == 0, err
    assert json.loads(out)["nash_conv"] > 0


@pytest.mark.slow  # a scheduler, a worker and a sharded solve in processes of their own
def test_a_killed_live_scheduler_is_named_in_one_line(tmp_path):
    """Before: killing a ``tcp://`` scheduler mid-run printed distributed's reconnection
    traceback and blamed a worker ("shard 0 on dask worker ... failed").  Now, against a
    real scheduler killed with SIGKILL: one line naming the scheduler, no traceback, the
    checkpoint kept and the resume command printed."""
    import re
    import signal
    import socket
    import time

    from tests.cli.conftest import toypoker_process

    with socket.socket() as s:  # a free port
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [*dask[:2], "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
         str(port), "--no-dashboard"], **quiet)  # fmt: skip
    worker = subprocess.Popen(
        [*dask[:2], "distributed.cli.dask_worker", address, "--nthreads", "1",
         "--no-dashboard"], **quiet)  # fmt: skip
    proc = None
    try:
        proc = toypoker_process(
            "solve", "rhode_island(ranks=3,suits=4)", "--iterations", "100000000",
            "--checkpoint", "ck.npz", "--no-table", "--scheduler", address,
            cwd=tmp_path, env={"TOYPOKER_PROGRESS_EVERY": "0"},
        )  # fmt: skip
        t0 = time.monotonic()
        seen = ""
        while not re.search(r"cfr\+ rhode_island.*: [1-9]\d*/", seen):
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() - t0 < 240, seen
            seen += proc.stderr.readline()
        scheduler.send_signal(signal.SIGKILL)
        _, err = proc.communicate(timeout=180)
    finally:
        for p in (proc, worker, scheduler):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
    lines = [ln for ln in (seen + err).splitlines() if ln.strip()]
    assert proc.returncode not in (0, 130) and "Traceback" not in err, err
    assert lines[-1].startswith(f"toypoker: error: the dask scheduler at {address} went away"), err
    assert "on dask worker" not in lines[-1], lines[-1]  # no worker blamed (dask's own
    # reason may say "Unable to contact Actor's worker": the scheduler relayed it)
    assert "--resume ck.npz" in lines[-1] and (tmp_path / "ck.npz").stat().st_size > 0


@pytest.mark.slow  # a trace in a process of its own, two real signals
def test_trace_keeps_its_curve_through_a_second_ctrl_c(tmp_path):
    """Before (issue 47's second round): two SIGINTs 0.1 s apart during ``trace`` printed
    only ``toypoker: interrupted`` -- no acknowledgment, no curve.csv, no resume
    command.  Now the first is acknowledged, the second waits for the save."""
    import re
    import signal
    import time

    from tests.cli.conftest import toypoker_process

    proc = toypoker_process(
        "trace", "kuhn(players=3,cards=5)", "--pot", "2:100", "--ds-max", "0.002", "--no-gif",
        "--out-dir", "t", cwd=tmp_path, env={"TOYPOKER_PROGRESS_EVERY": "0"},
    )  # fmt: skip
    seen, t0 = "", time.monotonic()
    while not re.search(r"toypoker: trace .*, at pot = ", seen):
        assert proc.poll() is None and time.monotonic() - t0 < 240, seen
        seen += proc.stderr.readline()
    proc.send_signal(signal.SIGINT)
    time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "finishing the step and saving the curve" in err and "Traceback" not in err, err
    assert "points saved in t/curve.csv" in err and "--resume t/curve.csv" in err, err
    assert (tmp_path / "t" / "curve.csv").read_text().count("\n") >= 2
