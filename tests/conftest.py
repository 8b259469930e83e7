"""Shared fixtures.

Compiled games are immutable, so each spec is compiled once per test session:
tests take the ``game`` fixture and call it with a spec string.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from toypoker import Game, load_game

_COMPILED: dict[str, Game] = {}


@pytest.fixture(scope="session")
def game() -> Callable[[str], Game]:
    """``game(spec)``: the compiled game, compiled once per session."""

    def get(spec: str) -> Game:
        if spec not in _COMPILED:
            _COMPILED[spec] = load_game(spec)
        return _COMPILED[spec]

    return get


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261121)
