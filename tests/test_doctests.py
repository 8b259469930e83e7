"""The docstring examples of every module and the README's Python example run as doctests.

They run against the installed package (``pip install .`` in CI), so the examples a
user reads are the examples that work.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import toypoker

README = Path(__file__).resolve().parents[1] / "README.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules() -> list[str]:
    names = [toypoker.__name__]
    for info in pkgutil.walk_packages(toypoker.__path__, prefix="toypoker."):
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


@pytest.mark.slow
def test_readme_python_example() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 0, "the README has no Python example (>>> lines)"
    assert result.failed == 0
