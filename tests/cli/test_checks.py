"""``toypoker.cli.checks``: the option and output-path checks every command makes first
(their use on the command line: tests/cli/test_common.py, tests/cli/test_sturdy*.py)."""

from __future__ import annotations

import pytest

from toypoker.cli import checks
from toypoker.errors import ToypokerError


def test_window_must_be_finite_and_ordered():
    assert checks.window("0.5:20", "--pot") == (0.5, 20.0)
    for bad in ["1:inf", "nan:2", "3:1", "1:1", "x"]:
        with pytest.raises(ToypokerError):
            checks.window(bad, "--pot")


def test_counts_and_lists_are_checked():
    assert checks.integers("1,2,3", "--players") == [1, 2, 3]
    assert checks.floats("0.5, 1", name="--pot") == [0.5, 1.0]
    with pytest.raises(ToypokerError, match="--players"):
        checks.integers("0", "--players")
    with pytest.raises(ToypokerError, match="--seconds"):
        checks.positive("--seconds", -1.0)
    with pytest.raises(ToypokerError, match="finite"):
        checks.finite("--pot", float("nan"))
