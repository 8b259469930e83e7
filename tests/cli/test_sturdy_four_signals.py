"""Issue 47, "Sturdy, round four": long ``dynamics`` runs hear Ctrl-C and SIGTERM.

``dynamics play`` was one compiled call for every round: a signal 5 s into an 83 s run
was taken when the run had ended, and the finished run was then thrown away ("the
run is not written").  ``dynamics table1`` on a pool waited for its workers, which
ignored the signals, after a second Ctrl-C: never exited, workers left orphaned.
"""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from pathlib import Path

import psutil
import pytest

from .conftest import toypoker_process

ACK = "toypoker: interrupted: stopping after the current step... (Ctrl-C again stops at once)"


def _signal_twice(args: tuple[str, ...], started: str, first: int, cwd: Path, workers: int = 0):
    """Run ``toypoker ARGS``; once a stderr line matches ``started`` (``^$``: at once) and
    ``workers`` children run, send ``first``, then SIGINT 50 ms later (while the first
    is taken: a signal after the command's last line lands in the interpreter's own
    exit, which ends by it).  Returns (exit status, stderr, seconds from the first signal to the
    exit, the children still alive 5 s after the exit)."""
    proc = toypoker_process(*args, cwd=cwd, env={"TOYPOKER_PROGRESS_EVERY": "0"})
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(proc.stderr.readline, "")))
    reader.start()
    try:
        t0 = time.monotonic()
        while not any(re.search(started, line) for line in list(seen) + [""]) or (
            len(psutil.Process(proc.pid).children(recursive=True)) < workers
        ):
            assert proc.poll() is None and time.monotonic() - t0 < 120, "".join(seen)
            time.sleep(0.05)
        time.sleep(0.5)  # into the work
        helpers = psutil.Process(proc.pid).children(recursive=True)
        t1 = time.monotonic()
        proc.send_signal(first)
        time.sleep(0.05)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        took = time.monotonic() - t1
        _, alive = psutil.wait_procs(helpers, timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        reader.join(timeout=60)
    return proc.returncode, "".join(seen), took, alive


@pytest.mark.slow
def test_a_signal_stops_dynamics_play_within_a_chunk(tmp_path: Path) -> None:
    # 800 million rounds: 80 s in one call; stopped within a chunk, said at once, and
    # the line says truthfully that the rounds done are not written
    args = ("dynamics", "play", "--rounds", "800000000", "--out-dir", "dy1")
    code, err, took, _ = _signal_twice(args, r"repeated play: 0/", signal.SIGTERM, tmp_path)
    assert code == 130 and took < 5.0, (code, took, err)
    assert ACK in err and "Traceback" not in err, err
    last = err.strip().splitlines()[-1]
    assert re.match(r"toypoker: interrupted: the run is not written: stopped after [\d,]+ of "
                    r"800,000,000 rounds", last), err  # fmt: skip
    assert not (tmp_path / "dy1").exists()


def test_a_run_that_finished_as_the_signal_came_is_written(cli, tmp_path, monkeypatch) -> None:
    # the signal lands in the run's last chunk: the run finished, so it is written
    from toypoker.cli import dynamics

    real = dynamics.play

    def play_then_signal(**kw):
        r = real(**kw)
        os.kill(os.getpid(), signal.SIGINT)
        return r

    monkeypatch.setattr(dynamics, "play", play_then_signal)
    code, out, err = cli("dynamics", "play", "--rounds", "20000", "--record-every", "1000",
                         "--out-dir", tmp_path / "d")  # fmt: skip
    assert code == 130, err
    assert (tmp_path / "d" / "play.csv").read_text().count("\n") == 21
    assert (tmp_path / "d" / "play.png").stat().st_size > 0
    assert "20,000 rounds in" in out
    last = err.strip().splitlines()[-1]
    assert last.startswith("toypoker: interrupted: the run had finished: its CSV and figure")


@pytest.mark.slow
def test_two_signals_stop_table1_on_a_pool_at_once_and_leave_no_worker(tmp_path: Path) -> None:
    # two workers each in a 200-million-round run (20 s): both ended, exit 130 in seconds
    args = ("dynamics", "table1", "--rounds", "200000000", "--k", "0.001", "--L", "6,12,24",
            "--workers", "2", "--out-dir", "dt2")  # fmt: skip
    code, err, took, alive = _signal_twice(args, "^$", signal.SIGINT, tmp_path, workers=2)
    assert code == 130 and took < 10.0, (code, took, err)
    assert not alive, [p.cmdline() for p in alive]
    assert ACK in err and "Traceback" not in err, err
    last = err.strip().splitlines()[-1]
    assert re.match(r"toypoker: interrupted: 0 finished run\(s\) kept in dt2/table1-runs", last)
    assert "; resume with: toypoker dynamics table1 " in last, err
