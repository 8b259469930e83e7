"""A sweep's Dask faults (issue 35, item 6), with real processes and real signals:
Ctrl-C on a LocalCluster sweep prints toypoker's line only, and a sweep whose workers
are all gone says so in one line and keeps what finished."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from toypoker.sweeps import cluster

pytest.importorskip("distributed", reason='pip install "toypoker[dask]"')

SPEC = "leduc(players=2)"
# the first Ctrl-C, said at once; a second waits until the finished jobs are said kept
# (a second one that stopped "at once" left only "toypoker: interrupted" when it came
# before the wait had seen the first)
ACK = (
    "toypoker: interrupted: finishing the step and saving the finished jobs... "
    "(Ctrl-C again is ignored until it is written)"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _sweep(args: list[str], cwd: Path, **kw: object) -> tuple[subprocess.Popen, list[str]]:
    """``python -m toypoker sweep ARGS`` in ``cwd`` (its own process group, as a
    terminal's foreground job) and the stderr lines as they come."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200",
           "TOYPOKER_PROGRESS_EVERY": "0"}  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "toypoker", "sweep", *args], cwd=cwd, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw,
    )  # fmt: skip
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, "")),
                     daemon=True).start()  # fmt: skip
    return proc, lines


def _wait_for(proc: subprocess.Popen, lines: list[str], pattern: str) -> None:
    t0 = time.monotonic()
    while not any(re.search(pattern, line) for line in list(lines)):
        assert proc.poll() is None, f"ended before {pattern!r}: {''.join(lines)}"
        assert time.monotonic() - t0 < 300, f"no {pattern!r} in 300 s: {''.join(lines)}"
        time.sleep(0.05)


def _finish(proc: subprocess.Popen, lines: list[str], timeout: float) -> str:
    """The whole stderr once the process ended (killed, and a failure, after ``timeout``)."""
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"still running {timeout:g} s later: {''.join(lines)}")
    finally:
        proc.stdout.close()
    time.sleep(0.5)  # the reader's last lines
    return "".join(lines)


def _deaf_to_sigint(pid: int) -> bool:
    """Whether process ``pid`` blocks or ignores SIGINT (/proc/PID/status)."""
    status = Path(f"/proc/{pid}/status").read_text()
    masks = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
    bit = 1 << (signal.SIGINT - 1)
    return any(int(masks[k].strip(), 16) & bit for k in ("SigBlk", "SigIgn"))


def _jobs_kept(folder: Path) -> list[dict]:
    return [json.loads(f.read_text()) for f in (folder / "jobs").glob("*.json")]


@pytest.mark.slow
def test_ctrl_c_on_a_local_cluster_sweep_prints_toypokers_line_only(tmp_path: Path) -> None:
    """Issue 35: Ctrl-C on a LocalCluster sweep was followed by Dask worker and nanny
    tracebacks (seen here in 1 of 3 runs before the fix: the workers took the terminal's
    SIGINT, sent to the whole process group, and the nanny logged their deaths).  The
    workers now block SIGINT (checked first: that failed in every run before the fix)."""
    proc, lines = _sweep(
        ["solve", SPEC, "--param", "iterations=20,400000,400001", "--scheduler", "local",
         "--workers", "2", "--out", "sw"], tmp_path, start_new_session=True,
    )  # fmt: skip
    try:
        _wait_for(proc, lines, r"sweep solve: 1/3")
        workers = [c.pid for c in psutil.Process(proc.pid).children(recursive=True)
                   if "spawn_main" in " ".join(c.cmdline())]  # fmt: skip
        # the mechanism, seen without timing: the workers do not take SIGINT at all
        assert len(workers) == 2 and all(_deaf_to_sigint(w) for w in workers), workers
        os.killpg(proc.pid, signal.SIGINT)
        err = _finish(proc, lines, 120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    after = err[err.index("sweep solve: 1/3") :].splitlines()[1:]
    # the signal acknowledged at once (issue 47), then the line that says what is kept
    assert len(after) == 2 and after[0] == ACK, err
    assert after[1].startswith("toypoker: interrupted: 1 finished job(s)"), err
    assert "Traceback" not in err and "ERROR" not in err, err
    assert [r["params"]["iterations"] for r in _jobs_kept(tmp_path / "sw")] == [20]


@pytest.mark.slow
def test_two_ctrl_c_on_a_local_cluster_sweep_are_heard_at_once_and_end_it_quickly(
    tmp_path: Path,
) -> None:
    """Issue 47: on a LocalCluster sweep the first Ctrl-C was not acknowledged (2.8 s of
    silence, then the last line), and a second one 0.3 s later made the command take
    10.4 s to exit.  Now the first is said at once, and the workers, busy in a long
    solve, are ended: exit 130 within seconds, the finished job kept, no process left."""
    proc, lines = _sweep(
        ["solve", SPEC, "--param", "iterations=20,400000000,400000001", "--scheduler",
         "local", "--workers", "2", "--out", "sw"], tmp_path, start_new_session=True,
    )  # fmt: skip
    try:
        _wait_for(proc, lines, r"sweep solve: 1/3")
        helpers = psutil.Process(proc.pid).children(recursive=True)
        time.sleep(0.5)  # both workers inside their long solve
        t0 = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole group
        _wait_for(proc, lines, re.escape(ACK))
        heard = time.monotonic() - t0
        time.sleep(max(0.0, 0.3 - heard))
        os.killpg(proc.pid, signal.SIGINT)
        err = _finish(proc, lines, 30)
        took = time.monotonic() - t0
        _, alive = psutil.wait_procs(helpers, timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert heard < 1.0 and took < 6.0, (heard, took, err)
    assert not alive, [p.cmdline() for p in alive]
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("toypoker: interrupted: 1 finished job(s)")
    assert [r["params"]["iterations"] for r in _jobs_kept(tmp_path / "sw")] == [20]


@pytest.mark.slow
def test_a_sweep_whose_workers_are_all_gone_says_so(tmp_path: Path) -> None:
    """Issue 35: a sweep whose only worker died sat silent with a stale progress line
    until killed.  Now, :data:`~toypoker.sweeps.cluster.WORKERS_GONE_SECONDS` (20 s,
    under the issue's 30) after the last worker went: one line, the finished job kept,
    exit 2.  A worker without a nanny (none restarts it), killed after the first job."""
    dask = shutil.which("dask") or str(Path(sys.executable).parent / "dask")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    helpers = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                 "--no-dashboard"], **quiet)]  # fmt: skip
    proc = None
    try:
        helpers.append(subprocess.Popen([dask, "worker", address, "--nthreads", "1",
                                         "--no-nanny", "--no-dashboard"], **quiet))  # fmt: skip
        proc, lines = _sweep(["solve", SPEC, "--param", "iterations=20,100000000",
                              "--scheduler", address, "--out", "sw"], tmp_path)  # fmt: skip
        _wait_for(proc, lines, r"sweep solve: 1/2")
        helpers[1].kill()
        err = _finish(proc, lines, 20 + cluster.WORKERS_GONE_SECONDS + 60)
    finally:
        for p in [*helpers, *([proc] if proc is not None else [])]:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=30)
    assert proc.returncode == 2, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("toypoker: error: every dask worker is gone"), err
    assert "1 finished job(s) kept in sw" in last and "Traceback" not in err, err
    assert [r["params"]["iterations"] for r in _jobs_kept(tmp_path / "sw")] == [20]


def test_workers_gone_is_said_within_the_issues_30_seconds() -> None:
    """The wait, with the poll's one-second look, stays within issue 35's 30 s."""
    assert cluster.WORKERS_GONE_SECONDS + 1.0 + cluster.POLL_SECONDS < 30
