"""Fixtures of the command-line tests: run ``toypoker`` in-process or as a user would."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

from toypoker.cli import main


@pytest.fixture
def cli(capsys) -> Callable[..., tuple[int, str, str]]:
    """``cli(*args) -> (exit status, stdout, stderr)``, in this process."""

    def run(*args: str) -> tuple[int, str, str]:
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def one_line_error(cli) -> Callable[..., str]:
    """Run ``toypoker`` expecting bad input: exit 2 and exactly one line, no traceback."""

    def run(*args: str) -> str:
        code, out, err = cli(*args)
        assert code == 2, (code, out, err)
        assert err.startswith("toypoker: error: ") and err.count("\n") == 1, err
        assert "Traceback" not in err
        return err

    return run


def toypoker_process(*args: str, cwd=None, env=None, **kw) -> subprocess.Popen:
    """``python -m toypoker ARGS`` as a separate process (pipes for stdout/stderr);
    ``env`` adds to the environment."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200", **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "toypoker", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=env,
        **kw,
    )


def signal_when(
    args: tuple[str, ...],
    started: str,
    sig: int,
    cwd: Path,
    *,
    settle: float = 0.0,
    start_within: float = 300.0,
) -> tuple[int, str, float]:
    """Start ``toypoker ARGS`` in ``cwd`` (progress lines at every update), wait for a
    stderr line matching ``started`` (and ``settle`` seconds more), send ``sig``: the
    exit status, the whole stderr and the seconds from the signal to the exit.  The
    command's own processes (dask's workers...) must end with it."""
    proc = toypoker_process(*args, cwd=cwd, env={"TOYPOKER_PROGRESS_EVERY": "0"})
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(proc.stderr.readline, "")))
    reader.start()
    t0 = time.monotonic()
    try:
        while not any(re.search(started, line) for line in list(seen)):
            assert proc.poll() is None, f"ended before {started!r}: {''.join(seen)}"
            assert time.monotonic() - t0 < start_within, f"no {started!r}: {''.join(seen)}"
            time.sleep(0.02)
        time.sleep(settle)
        helpers = psutil.Process(proc.pid).children(recursive=True)
        proc.send_signal(sig)
        t_sig = time.monotonic()
        proc.wait(timeout=120)
        took = time.monotonic() - t_sig
        _, alive = psutil.wait_procs(helpers, timeout=30)
        assert not alive, [p.cmdline() for p in alive]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        reader.join(timeout=60)
    return proc.returncode, "".join(seen), took
