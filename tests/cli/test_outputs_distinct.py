"""Outputs go where the user means (issue 35, the new-user round of this session):
``/dev/stdout`` (a link whose target is a pipe) is written through, two output
options naming one file are refused, and a full device is named in the error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

RUN = [sys.executable, "-m", "toypoker"]


def _run(args: list[str], cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(RUN + args, cwd=cwd, capture_output=True, text=True, timeout=300, **kw)


def test_dev_stdout_is_written_through(tmp_path: Path) -> None:
    done = _run(["export", "kuhn(players=2)", "--format", "efg", "-o", "/dev/stdout"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("EFG 2 R"), done.stdout[:40]  # Gambit's header


@pytest.mark.parametrize(
    ("a", "b", "name"),
    [("-o", "--checkpoint", "same.npz"), ("-o", "--result", "same.json"), ("--csv", "-o", "x")],
)
def test_two_outputs_naming_one_file_are_refused(tmp_path: Path, a: str, b: str, name: str):
    done = _run(["solve", "kuhn(players=2)", "--iterations", "20", a, name, b, name], tmp_path)
    assert done.returncode == 2 and not (tmp_path / name).exists()
    assert done.stderr.strip().endswith(f"name the same file {name}")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_a_full_device_is_named(tmp_path: Path) -> None:
    dev = tmp_path / "full"
    os.mknod(dev, 0o666 | 0o020000, os.makedev(1, 7))  # like /dev/full, in tmp_path
    done = _run(["export", "kuhn(players=2)", "--format", "efg", "-o", "full"], tmp_path)
    assert done.returncode == 2 and "cannot write full: No space left on device" in done.stderr
    assert dev.is_char_device()  # written in place, never replaced
