"""Run locks (issue 35 item 2): a checkpoint, a sweep folder or a report folder in use
by a live run is refused to a second run, in one line naming the first run's pid."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import pytest

from toypoker.errors import ToypokerError
from toypoker.locks import LOCK_NAME, lock_path, run_lock


def _holder(path, folder: bool) -> subprocess.Popen:
    """Another process that holds the lock of ``path`` until its stdin closes."""
    code = textwrap.dedent(f"""
        import sys
        from toypoker.locks import run_lock
        with run_lock({str(path)!r}, "thing", folder={folder}):
            print("locked", flush=True)
            sys.stdin.read()
    """)
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline() == "locked\n"
    return proc


def _release(proc: subprocess.Popen) -> None:
    proc.stdin.close()
    assert proc.wait(60) == 0


def test_a_live_lock_refuses_naming_its_pid_and_is_free_after(tmp_path):
    ck = tmp_path / "ck.npz"
    other = _holder(ck, False)
    try:
        with pytest.raises(ToypokerError) as caught, run_lock(ck, "checkpoint"):
            pass
        assert str(caught.value) == (
            f"checkpoint {ck} is in use by another run (pid {other.pid}); wait for it to "
            "end, or give another path"
        )
    finally:
        _release(other)
    assert not lock_path(ck).exists()  # removed by its run
    with run_lock(ck, "checkpoint") as lock:
        assert lock.read_text() == f"{os.getpid()}\n"


def test_a_stale_lock_of_a_dead_run_is_taken_over(tmp_path):
    # a run killed by SIGKILL leaves its lock file; the OS lock died with it
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    ck = tmp_path / "ck.npz"
    lock_path(ck).write_text(dead.stdout)
    with run_lock(ck, "checkpoint") as lock:
        assert lock.read_text() == f"{os.getpid()}\n"


def test_a_folder_lock_lives_inside_the_folder_it_creates(tmp_path):
    out = tmp_path / "new" / "out"
    with run_lock(out, "sweep folder", folder=True) as lock:
        assert lock == out / LOCK_NAME and out.is_dir()
    # folders the lock alone made are gone when the run wrote nothing (issue 47, fourth
    # audit round: a refused run left empty folders); a run's files stay, lock gone
    assert not (tmp_path / "new").exists()
    with run_lock(out, "sweep folder", folder=True):
        (out / "result.json").write_text("{}")
    assert os.listdir(out) == ["result.json"]


def _cli(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toypoker", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_a_sweep_folder_in_use_is_refused_and_kept(tmp_path):
    # before: two sweeps wrote one folder's sweep.json and jobs/ at once
    other = _holder(tmp_path / "out", True)
    try:
        done = _cli("sweep", "solve", "kuhn()", "--param", "pot=2:3:1", "--scheduler",
                    "serial", "--out-dir", "out", cwd=tmp_path)  # fmt: skip
    finally:
        _release(other)
    assert done.returncode == 2
    assert done.stderr == (
        f"toypoker: error: sweep folder out is in use by another run (pid {other.pid}); "
        "wait for it to end, or give another path\n"
    )
    done = _cli("sweep", "solve", "kuhn()", "--param", "pot=2:3:1", "--scheduler", "serial",
                "--out-dir", "out", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert LOCK_NAME not in os.listdir(tmp_path / "out")


def test_a_report_folder_in_use_is_refused(tmp_path):
    # before: two `reproduce` runs in one folder; one failed with "No such file" (exit 2)
    other = _holder(tmp_path / "r", True)
    try:
        done = _cli("reproduce", "--quick", "--item", "kuhn-basic", "--out-dir", "r",
                    cwd=tmp_path)  # fmt: skip
    finally:
        _release(other)
    assert done.returncode == 2
    assert done.stderr.endswith(
        f"toypoker: error: report folder r is in use by another run (pid {other.pid}); "
        "wait for it to end, or give another path\n"
    )


@pytest.mark.parametrize("where", ["/", ".", ".."])
def test_a_file_lock_on_a_folder_is_one_line(where, tmp_path):
    """The API fuzz found it (tests/test_api.py, ``checkpoint="/"``): the lock of a
    checkpoint named ``/`` raised pathlib's "PosixPath('/') has an empty name"
    ValueError.  A checkpoint must name a file: a folder, or a name without one, is
    refused in one line, by the lock and by ``tp.solve`` alike."""
    import toypoker as tp

    said = f"checkpoint {re.escape(where)} is a folder, not a file"
    with pytest.raises(ToypokerError, match=said):
        with run_lock(where, "checkpoint"):
            pass
    with pytest.raises(ToypokerError, match="is a folder, not a file"):
        with run_lock(tmp_path, "checkpoint"):
            pass
    g = tp.load_game("kuhn(players=2)")
    with pytest.raises(ToypokerError, match="is a folder, not a file"):
        tp.solve(g, "cfr+", iterations=5, checkpoint=where)
