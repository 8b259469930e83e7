"""Shared checks of the vector tests: closeness as the backends are compared, and one
iteration map against another from the reference's own state at every iteration."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from toypoker.solvers.cfr import CFRState


def close(a: np.ndarray, b: np.ndarray, tol: float = 1e-12) -> bool:
    """|a - b| <= tol * max(1, |b|_max), as tests/solvers/test_cfr.py compares backends."""
    return float(np.abs(a - b).max()) <= tol * max(1.0, float(np.abs(b).max()))


def assert_same_map(
    reference: Callable[[CFRState], CFRState],
    other: Callable[[CFRState], CFRState],
    state: CFRState,
    iterations: int,
) -> None:
    """``other`` equals ``reference`` (regrets and average to 1e-12) from each state of
    the reference's own run of ``iterations`` iterations."""
    for _ in range(iterations):
        nxt = reference(state)
        out = other(state)
        assert close(out.regrets, nxt.regrets)
        assert close(out.average, nxt.average)
        state = nxt
