"""Fixtures of the command-line tests: run ``toypoker`` in-process or as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable

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
