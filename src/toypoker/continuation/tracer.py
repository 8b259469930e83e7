"""A generic pseudo-arclength path tracer (knows nothing about games).

Follows the solution curve of ``G(y, lam) = 0`` (``n`` equations, ``n + 1``
unknowns ``u = (y, lam)``): the tangent is the null vector of ``[G_y | G_lam]``
(one bordered linear solve), the predictor is quadratic in arclength through
the last three points (linear at the start), the corrector is Newton's method
on ``G = 0`` plus the pseudo-arclength condition ``t . (u - u_k) = ds``
(Billingham, N cards, eq. 7), and the step halves on Newton failure or on a
jump much larger than ``ds`` and otherwise grows slowly up to ``ds_max``.
Turning points (folds in ``lam``) are passed naturally because the curve is
parameterised by arclength.  Tracing stops when ``lam`` leaves
``[lam_min, lam_max]`` (the last point is then corrected onto the boundary).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

Residual = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class Branch:
    """A traced branch: points ``u = (y, lam)`` and their arclength."""

    points: np.ndarray  # (m, n + 1)
    arclength: np.ndarray  # (m,)
    reason: str  # why tracing stopped: "reached", "left", "step too small", "max_steps"
    steps: int
    info: dict = field(default_factory=dict)

    @property
    def lam(self) -> np.ndarray:
        return self.points[:, -1]

    @property
    def y(self) -> np.ndarray:
        return self.points[:, :-1]


def tangent(Jm: np.ndarray, prev: np.ndarray | None) -> np.ndarray:
    """Unit null vector of the ``n x (n+1)`` Jacobian, oriented like ``prev``."""
    if prev is not None:
        A = np.vstack([Jm, prev])
        rhs = np.zeros(len(prev))
        rhs[-1] = 1.0
        try:
            t = np.linalg.solve(A, rhs)
            if np.all(np.isfinite(t)):
                return t / np.linalg.norm(t)
        except np.linalg.LinAlgError:
            pass
    _, _, vt = np.linalg.svd(Jm)
    t = vt[-1]
    if prev is not None and t @ prev < 0:
        t = -t
    return t / np.linalg.norm(t)


def _newton_fixed_lam(GJ: Residual, z: np.ndarray, tol: float, iters: int) -> np.ndarray:
    for _ in range(iters):
        g, Jm = GJ(z)
        try:
            dz = np.linalg.solve(Jm[:, :-1], -g)
        except np.linalg.LinAlgError:
            break
        z = z.copy()
        z[:-1] += dz
        if np.linalg.norm(dz) < tol * (1 + np.linalg.norm(z)):
            break
    return z


def trace(
    GJ: Residual,
    u0: np.ndarray,
    lam_min: float,
    lam_max: float,
    direction: float = 1.0,
    ds: float = 0.05,
    ds_min: float = 1e-9,
    ds_max: float = 0.5,
    grow: float = 1.2,
    max_steps: int = 100_000,
    tol: float = 1e-10,
    newton_max: int = 8,
    max_jump: float = 4.0,
    progress: Callable[[np.ndarray, float], None] | None = None,
) -> Branch:
    """Trace from the solution ``u0 = (y0, lam0)`` until ``lam`` leaves ``[lam_min, lam_max]``.

    Parameters
    ----------
    GJ : callable
        ``u -> (G(u), J(u))``: the ``n`` residuals and the ``n x (n+1)``
        Jacobian (last column: the derivative in ``lam``).
    u0 : ndarray
        A point on the curve.
    lam_min, lam_max : float
        The window; tracing stops at its boundary.
    direction : float
        Initial sense of ``lam`` (+1 increasing, -1 decreasing).
    ds, ds_min, ds_max, grow : float
        Initial, smallest and largest step, and the growth factor after a success.
    progress : callable, optional
        Called as ``progress(u, ds)`` after each accepted step.
    """
    u = np.asarray(u0, dtype=float)
    pts, arc = [u.copy()], [0.0]
    _, Jm = GJ(u)
    t = tangent(Jm, None)
    if t[-1] * direction < 0:
        t = -t
    reason, steps, info = "max_steps", 0, {}
    while steps < max_steps:
        steps += 1
        if len(pts) >= 3:  # quadratic extrapolation in arclength (Lagrange form)
            s0, s1, s2 = arc[-3], arc[-2], arc[-1]
            s = s2 + ds
            l0 = (s - s1) * (s - s2) / ((s0 - s1) * (s0 - s2))
            l1 = (s - s0) * (s - s2) / ((s1 - s0) * (s1 - s2))
            l2 = (s - s0) * (s - s1) / ((s2 - s0) * (s2 - s1))
            pred = l0 * pts[-3] + l1 * pts[-2] + l2 * pts[-1]
        else:
            pred = u + ds * t
        v = pred.copy()
        ok = False
        Jv = None
        for _ in range(newton_max):
            g, Jv = GJ(v)
            A = np.vstack([Jv, t])
            r = np.concatenate([g, [t @ (v - u) - ds]])
            try:
                dv = np.linalg.solve(A, -r)
            except np.linalg.LinAlgError:
                break
            if not np.all(np.isfinite(dv)):
                break
            v = v + dv
            if np.linalg.norm(dv) < tol * (1 + np.linalg.norm(v)):
                g, Jv = GJ(v)
                ok = np.linalg.norm(g) < 1e-8
                break
        if ok and np.linalg.norm(v - u) > max_jump * ds:
            ok = False  # too large a jump: probably onto another part of the curve
        if not ok:
            ds /= 2
            if ds < ds_min:
                reason = "step too small"
                break
            continue
        t_new = tangent(Jv, t)
        arc.append(arc[-1] + float(np.linalg.norm(v - u)))
        pts.append(v.copy())
        if progress is not None:
            progress(v, ds)
        lam = v[-1]
        if lam > lam_max or lam < lam_min:
            edge = lam_max if lam > lam_max else lam_min
            w = (edge - u[-1]) / (lam - u[-1])
            z = u + w * (v - u)
            z[-1] = edge
            z = _newton_fixed_lam(GJ, z, tol, newton_max)
            pts[-1] = z
            arc[-1] = arc[-2] + float(np.linalg.norm(z - u))
            reason, info = "reached", {"edge": "max" if edge == lam_max else "min"}
            break
        u, t = v, t_new
        ds = min(ds * grow, ds_max)
    return Branch(np.array(pts), np.array(arc), reason, steps, info)
