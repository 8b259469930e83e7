"""What a traced curve crosses: the distinct equilibria at a parameter value
(:func:`equilibria_at`, each polished and certified on the unregularized game),
how many along the window (:func:`multiplicity`), the turning points, and the
regularized system a curve belongs to (:func:`system_for`).
"""

from __future__ import annotations

import numpy as np

from toypoker.continuation.records import Equilibrium, EquilibriumCurve, Multiplicity
from toypoker.continuation.regularized import RegularizedSystem
from toypoker.continuation.tracer import newton_at
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.games import load_rows

__all__ = ["equilibria_at", "multiplicity", "system_for", "turning_points"]


def system_for(
    curve: EquilibriumCurve, dominated: bool | None = None, game: Game | None = None
) -> RegularizedSystem:
    """The regularized system of a curve: the one that traced it when it is attached
    (``curve.system``) and ``dominated`` agrees; else built from ``game`` (compiled
    from ``curve.spec`` only when no game is given, e.g. for a curve read from disk).
    """
    if dominated is None:
        dominated = curve.info.get("dominated", True)
    system = curve.system
    if isinstance(system, RegularizedSystem) and bool(system.pins) == bool(dominated):
        return system
    if game is None:
        game = load_rows(curve.spec)
    elif game.spec != curve.spec:
        raise ToypokerError(f"the curve traces {curve.spec}, not {game.spec}")
    return RegularizedSystem(
        game, curve.parameter, eps=curve.eps, response=curve.response, dominated=dominated
    )


def _point_at(curve: EquilibriumCurve, i: int, value: float, system: RegularizedSystem):
    """The regularized point where the branch crosses ``value`` between points ``i``
    and ``i + 1``: interpolated, then corrected at fixed ``value`` (damped Newton)."""
    j = min(i + 1, len(curve.theta) - 1)
    a, b = curve.theta[i], curve.theta[j]
    w = 0.0 if a == b else (value - a) / (b - a)
    x = system.unknowns((1 - w) * curve.sigma[i] + w * curve.sigma[j])
    z = newton_at(system.GJ, np.append(x, value), 1e-10, 10)
    return x if z is None else z[:-1]


def equilibria_at(
    curve: EquilibriumCurve,
    value: float,
    system: RegularizedSystem | None = None,
    tol: float = 1e-6,
) -> list[Equilibrium]:
    """Every distinct equilibrium the curve crosses at ``parameter = value``.

    Each crossing is corrected onto the regularized system at ``value``,
    polished (:meth:`RegularizedSystem.certify`), certified by its NashConv on
    the unregularized game, and deduplicated (sequence forms within ``tol``: two
    profiles that differ only where their owner never arrives are one equilibrium;
    nearby members of one continuum with equal expectations count once).
    """
    system = system or system_for(curve)
    out: list[Equilibrium] = []
    keys: list[tuple] = []
    for i in curve.crossings(value):
        sig, nc, raw = system.certify(_point_at(curve, i, value, system), value)
        key = (sig, system.model.expectations(sig, value), system.realization(sig))
        if any(_same(k, key, tol) for k in keys):
            continue
        keys.append(key)
        out.append(Equilibrium(float(value), sig, key[1], nc, raw))
    return out


def turning_points(curve: EquilibriumCurve) -> np.ndarray:
    """Parameter values where the branch folds back (local extrema of ``theta``)."""
    th = curve.theta
    d = np.diff(th)
    i = np.nonzero(d[:-1] * d[1:] < 0)[0] + 1
    return th[i]


def multiplicity(curve: EquilibriumCurve, system: RegularizedSystem | None = None) -> Multiplicity:
    """How many equilibria the branch holds along its window (between turning points)."""
    system = system or system_for(curve)
    lo, hi = float(curve.theta.min()), float(curve.theta.max())
    cuts = np.unique(np.concatenate([[lo, hi], turning_points(curve)]))
    rows: list[list] = []
    for a, b in zip(cuts[:-1], cuts[1:], strict=True):
        v = 0.5 * (a + b)
        k = len(curve.crossings(v))
        good, bad = _polished(curve, v, system)
        d, u = len(good), bad
        if rows and rows[-1][2:] == [k, d, u]:
            rows[-1][1] = b
            continue
        rows.append([a, b, k, d, u])
    cols = np.array(rows, dtype=float).T if rows else np.zeros((5, 0))
    return Multiplicity(
        cols[0], cols[1], *(cols[i].astype(int) for i in (2, 3, 4)), parameter=curve.parameter
    )


def _same(a: tuple, b: tuple, tol: float) -> bool:
    """One equilibrium, or two members of one continuum met by adjacent crossings:
    ``(sigma, E, sequence form)`` triples with sequence forms within ``tol``, or within
    1e-3 with expectations within 1e-6."""
    d = np.abs(a[2] - b[2]).max()
    return bool(d < tol or (d < 1e-3 and np.abs(np.asarray(a[1]) - b[1]).max() < 1e-6))


def _polished(
    curve: EquilibriumCurve, value: float, system: RegularizedSystem
) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray]], int]:
    """Distinct polished equilibria at ``value`` (regret sum below 1e-6) and the
    number of crossings that did not polish."""
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    failed = 0
    for i in curve.crossings(value):
        s = system.polish(system.sigma(_point_at(curve, i, value, system)), value, 1e-2, rounds=2)
        if system.gap(s, value) > 1e-6:
            failed += 1
            continue
        key = (s, system.model.expectations(s, value), system.realization(s))
        if not any(_same(k, key, 1e-6) for k in out):
            out.append(key)
    return out, failed
