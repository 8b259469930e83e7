"""Warnings during a command: one line each, and none that repeats what the command says.

Source: a helper's before/after check of ``solve`` (this session): resuming a checkpoint
with ``--iterations`` below what it holds printed Python's raw ``UserWarning`` (the
source path, line number and code) before the command's own note saying the same.
"""

from __future__ import annotations

import warnings

from toypoker.cli import common


def test_a_resume_asking_for_fewer_iterations_says_it_once(cli, tmp_path):
    ck = tmp_path / "ck.npz"
    args = ("solve", "kuhn(players=2)", "--method", "cfr+", "--no-table")
    assert cli(*args, "--iterations", "20", "--checkpoint", ck)[0] == 0
    code, _, err = cli(*args, "--iterations", "10", "--resume", ck)
    assert code == 0
    assert "Warning" not in err and ".py:" not in err, err
    assert err.count("has 20 iterations already") == 1, err


def test_a_warning_raised_during_a_command_is_one_line(cli, monkeypatch):
    def warn() -> None:
        warnings.warn("something odd\nand its details", RuntimeWarning, stacklevel=1)

    monkeypatch.setattr(common, "release_held", warn)  # runs inside the command's call
    code, _, err = cli("info", "kuhn(players=2)")
    assert code == 0
    assert err.splitlines() == ["toypoker: warning: something odd"], err
