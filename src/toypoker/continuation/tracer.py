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

The dense solves are small: :func:`trace` and :func:`newton_at` run with BLAS
limited to :data:`toypoker.threads.DEFAULT_BLAS_THREADS` (1 unless ``--threads``
said otherwise): OpenBLAS's own threads slow small solves down on a busy machine
(:mod:`toypoker.threads`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg

from toypoker.threads import blas_limited

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


def tangent(Jm: np.ndarray, prev: np.ndarray | None) -> np.ndarray | None:
    """Unit null vector of the ``n x (n+1)`` Jacobian, oriented like ``prev``.

    One bordered solve ``[J; prev] t = e_{n+1}`` when ``prev`` is known, else (or if
    that fails) the last right singular vector (LAPACK ``gesvd``, which converges
    where the faster ``gesdd`` occasionally does not).  None if ``Jm`` is unusable.
    """
    if not np.all(np.isfinite(Jm)):
        return None
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
    try:
        vt = scipy.linalg.svd(Jm, full_matrices=True, lapack_driver="gesvd")[2]
    except (np.linalg.LinAlgError, ValueError):
        return None
    t = vt[-1]
    if prev is not None and t @ prev < 0:
        t = -t
    return t / np.linalg.norm(t)


@blas_limited
def newton_at(GJ: Residual, z: np.ndarray, tol: float, iters: int) -> np.ndarray | None:
    """Damped Newton in ``y`` at fixed ``lam``; None unless it converges."""
    g, Jm = GJ(z)
    r = np.abs(g).max()
    for _ in range(4 * iters):
        if r < 1e-12:
            return z
        try:
            dz = np.linalg.solve(Jm[:, :-1], -g)
        except np.linalg.LinAlgError:
            break
        step = 1.0
        while step > 1e-4:  # halve until the residual decreases
            w = z.copy()
            w[:-1] += step * dz
            gw, Jw = GJ(w)
            rw = np.abs(gw).max()
            if np.isfinite(rw) and rw < r:
                break
            step /= 2
        else:
            break  # no decrease: round-off level, or failure
        z, g, Jm, r = w, gw, Jw, rw
        if np.linalg.norm(step * dz) < tol * (1 + np.linalg.norm(z)):
            break
    return z if r < 1e-8 else None


@blas_limited
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
    tol: float = 1e-8,
    gtol: float = 1e-9,
    newton_max: int = 8,
    max_jump: float = 4.0,
    progress: Callable[[np.ndarray, float], None] | None = None,
    orient: np.ndarray | None = None,
    checkpoint: Callable[[np.ndarray], None] | None = None,
    checkpoint_every: float = 30.0,
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
    tol, gtol : float
        Newton has converged when its last step is below ``tol`` relative to ``|u|``
        and the largest residual below ``gtol``.
    progress : callable, optional
        Called as ``progress(u, ds)`` after each accepted step.
    orient : ndarray, optional
        Orient the first tangent along this vector (e.g. the secant of the last two
        points when resuming) instead of by ``direction``.
    checkpoint : callable, optional
        Called with the points so far every ``checkpoint_every`` seconds.

    Ctrl-C stops tracing with the points so far (reason ``"interrupted"``).
    """
    u = np.asarray(u0, dtype=float)
    pts, arc = [u.copy()], [0.0]
    _, Jm = GJ(u)
    t = tangent(Jm, None)
    if t is None:
        return Branch(np.array(pts), np.array(arc), "singular start", 0, {})
    if (t @ orient if orient is not None else t[-1] * direction) < 0:
        t = -t
    reason, steps, info = "max_steps", 0, {}
    last_save = time.perf_counter()
    try:
        reason, steps, info = _loop(
            GJ,
            u,
            t,
            pts,
            arc,
            lam_min,
            lam_max,
            ds,
            ds_min,
            ds_max,
            grow,
            max_steps,
            tol,
            gtol,
            newton_max,
            max_jump,
            progress,
            checkpoint,
            checkpoint_every,
            last_save,
        )
    except KeyboardInterrupt:  # the steps accepted so far are the points after the first
        reason, steps, info = "interrupted", len(pts) - 1, {}
    n = min(len(pts), len(arc))
    return Branch(np.array(pts[:n]), np.array(arc[:n]), reason, steps, info)


def _correct(GJ, u, t, pred, ds, tol, gtol, newton_max):
    """Newton on ``G = 0``, ``t . (v - u) = ds`` from ``pred``: ``(v, J(v))`` or None."""
    v, dvn = pred.copy(), np.inf
    for it in range(newton_max + 1):
        g, Jv = GJ(v)
        gn = np.abs(g).max() if len(g) else 0.0
        # converged: residual small and Newton no longer moving (ill-conditioned
        # systems, eps -> 0, jiggle at round-off level, so the step test is relative)
        if it > 0 and gn < gtol and (dvn < tol * (1 + np.linalg.norm(v)) or gn < 1e-13):
            return v, Jv
        if it == newton_max or not np.isfinite(gn):
            return None
        A = np.vstack([Jv, t])
        r = np.concatenate([g, [t @ (v - u) - ds]])
        try:
            dv = np.linalg.solve(A, -r)
        except np.linalg.LinAlgError:
            return None
        if not np.all(np.isfinite(dv)):
            return None
        v = v + dv
        dvn = np.linalg.norm(dv)
    return None


def _predict(pts: list, arc: list, u: np.ndarray, t: np.ndarray, ds: float) -> np.ndarray:
    """Quadratic extrapolation in arclength through the last three points (Lagrange
    form); linear along the tangent at the start."""
    if len(pts) < 3:
        return u + ds * t
    s0, s1, s2 = arc[-3], arc[-2], arc[-1]
    s = s2 + ds
    l0 = (s - s1) * (s - s2) / ((s0 - s1) * (s0 - s2))
    l1 = (s - s0) * (s - s2) / ((s1 - s0) * (s1 - s2))
    l2 = (s - s0) * (s - s1) / ((s2 - s0) * (s2 - s1))
    return l0 * pts[-3] + l1 * pts[-2] + l2 * pts[-1]


def _land(GJ, pts, arc, u, t, edge, tol, gtol, newton_max):
    """The curve point with ``lam = edge`` just after ``u``: secant iteration on the
    arclength step (each step a robust corrector), then a fixed-``lam`` polish."""
    s0, f0 = 0.0, u[-1] - edge
    s1 = -f0 / t[-1] if t[-1] != 0 else 0.0
    best = None
    for _ in range(12):
        res = _correct(GJ, u, t, _predict(pts, arc, u, t, s1), s1, tol, gtol, newton_max)
        if res is None:
            break
        v = res[0]
        f1 = v[-1] - edge
        best = v
        if abs(f1) < 1e-12 * (1 + abs(edge)) or f1 == f0:
            break
        s0, s1, f0 = s1, s1 - f1 * (s1 - s0) / (f1 - f0), f1
    if best is None:
        return None
    z = best.copy()
    z[-1] = edge
    return newton_at(GJ, z, tol, newton_max)


def _loop(
    GJ, u, t, pts, arc, lam_min, lam_max, ds, ds_min, ds_max, grow, max_steps, tol,
    gtol, newton_max, max_jump, progress, checkpoint, checkpoint_every, last_save,
):  # fmt: skip
    """The predictor-corrector loop of :func:`trace` (appends to ``pts``, ``arc``)."""
    reason, steps, info = "max_steps", 0, {}
    while steps < max_steps:
        steps += 1
        res = _correct(GJ, u, t, _predict(pts, arc, u, t, ds), ds, tol, gtol, newton_max)
        if res is not None and np.linalg.norm(res[0] - u) > max_jump * ds:
            res = None  # too large a jump: probably onto another part of the curve
        t_new = tangent(res[1], t) if res is not None else None
        if t_new is None:
            ds /= 2
            if ds < ds_min:
                reason = "step too small"
                break
            continue
        v = res[0]
        arc.append(arc[-1] + float(np.linalg.norm(v - u)))
        pts.append(v.copy())
        if progress is not None:
            progress(v, ds)
        if checkpoint is not None and time.perf_counter() - last_save > checkpoint_every:
            checkpoint(np.array(pts))
            last_save = time.perf_counter()
        lam = v[-1]
        if lam > lam_max or lam < lam_min:
            edge = lam_max if lam > lam_max else lam_min
            done = _land(GJ, pts[:-1], arc[:-1], u, t, edge, tol, gtol, newton_max)
            if done is not None:  # else keep v, just beyond the window
                pts[-1] = done
                arc[-1] = arc[-2] + float(np.linalg.norm(done - u))
            reason, info = "reached", {"edge": "max" if edge == lam_max else "min"}
            break
        u, t = v, t_new
        ds = min(ds * grow, ds_max)
    return reason, steps, info
