"""A generic pseudo-arclength path tracer (knows nothing about games).

Follows the solution curve of ``G(y, lam) = 0`` (``n`` equations, ``n + 1``
unknowns): tangent from the null space of ``[G_y | G_lam]``, a quadratic
predictor from the last three points (linear at the start), a Newton corrector
on the augmented system ``G = 0``, ``t . (u - u_k) = ds``, and an adaptive
step that halves on Newton failure or a large jump and grows slowly up to a
maximum.  Turning points (folds in ``lam``) are passed naturally because the
curve is parameterised by arclength.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Branch:
    """A traced branch: points ``u = (y, lam)`` and their arclength."""

    points: np.ndarray  # (m, n + 1)
    arclength: np.ndarray  # (m,)
    reason: str  # why tracing stopped
    steps: int
    info: dict = field(default_factory=dict)

    @property
    def lam(self) -> np.ndarray:
        return self.points[:, -1]

    @property
    def y(self) -> np.ndarray:
        return self.points[:, :-1]


def _tangent(J: np.ndarray, prev: np.ndarray | None) -> np.ndarray:
    """Unit null vector of the n x (n+1) Jacobian, oriented like ``prev``."""
    _, _, vt = np.linalg.svd(J)
    t = vt[-1]
    if prev is not None and t @ prev < 0:
        t = -t
    return t / np.linalg.norm(t)


def trace(
    G: Callable[[np.ndarray], np.ndarray],
    J: Callable[[np.ndarray], np.ndarray],
    u0: np.ndarray,
    lam_end: float,
    ds: float = 0.05,
    ds_min: float = 1e-8,
    ds_max: float = 0.5,
    max_steps: int = 5000,
    tol: float = 1e-10,
    newton_max: int = 8,
    max_jump: float = 5.0,
    direction: float | None = None,
    progress: Callable[[np.ndarray, float], None] | None = None,
) -> Branch:
    """Trace from the solution ``u0 = (y0, lam0)`` until ``lam`` reaches ``lam_end``.

    ``G(u)`` is the residual (``n`` values), ``J(u)`` its ``n x (n+1)`` Jacobian
    (last column: derivative in ``lam``).  ``direction`` (+1/-1) sets the initial
    sense of ``lam`` (default: towards ``lam_end``).
    """
    u = np.asarray(u0, dtype=float)
    pts, arc = [u.copy()], [0.0]
    t = _tangent(J(u), None)
    sense = np.sign(lam_end - u[-1]) if direction is None else direction
    if t[-1] * sense < 0:
        t = -t
    reason, steps = "max_steps", 0
    while steps < max_steps:
        steps += 1
        if len(pts) >= 3:  # quadratic extrapolation in arclength
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
        for _ in range(newton_max):
            g = G(v)
            A = np.vstack([J(v), t])
            r = np.concatenate([g, [t @ (v - u) - ds]])
            try:
                dv = np.linalg.solve(A, -r)
            except np.linalg.LinAlgError:
                break
            v = v + dv
            if np.linalg.norm(dv) < tol * (1 + np.linalg.norm(v)) and np.linalg.norm(G(v)) < 1e-8:
                ok = True
                break
        if ok and np.linalg.norm(v - pred) > max_jump * ds:
            ok = False  # too large a jump: probably another branch
        if not ok:
            ds /= 2
            if ds < ds_min:
                reason = "step too small"
                break
            continue
        t_new = _tangent(J(v), t)
        arc.append(arc[-1] + float(np.linalg.norm(v - u)))
        pts.append(v.copy())
        if progress is not None:
            progress(v, ds)
        if (u[-1] - lam_end) * (v[-1] - lam_end) <= 0 and v[-1] != u[-1]:
            # crossed lam_end between u and v: interpolate, then correct at fixed lam
            w = (lam_end - u[-1]) / (v[-1] - u[-1])
            z = u + w * (v - u)
            z[-1] = lam_end
            for _ in range(newton_max):
                Jz = J(z)[:, :-1]
                try:
                    dz = np.linalg.solve(Jz, -G(z))
                except np.linalg.LinAlgError:
                    break
                z[:-1] += dz
                if np.linalg.norm(dz) < tol:
                    break
            pts[-1] = z
            arc[-1] = arc[-2] + float(np.linalg.norm(z - u))
            reason = "reached"
            break
        u, t = v, t_new
        ds = min(ds * 1.3, ds_max)
    return Branch(np.array(pts), np.array(arc), reason, steps)
