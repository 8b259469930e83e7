"""Shared fixtures: compiled games are immutable, so compile each once per session."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from toypoker import load_game
from toypoker.profile import Profile


@functools.cache
def game(spec: str):
    return load_game(spec)


def random_profile(g, rng: np.random.Generator) -> Profile:
    """A random behaviour profile (Dirichlet per free infoset, restrictions kept)."""
    probs = np.concatenate([rng.dirichlet(np.ones(len(i.actions))) for i in g.infosets])
    probs[g.sigma_fixed] = g.fixed_values[g.sigma_fixed]
    return Profile(g, probs)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261121)
