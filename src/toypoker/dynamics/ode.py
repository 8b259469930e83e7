"""Billingham's ODE model of adapting players in SKP (Sec. 4.1, eqs. 18-26).

State ``y = (b_J, c_K, d_Q)`` (P3's bluff with J, P1's call with K, P2's call
with Q).  Eqs. (18)-(20)::

    b_J' = g(b_J) f_3((P-5)/(P+1) - d_Q - c_K + d_Q c_K)
    c_K' = g(c_K) f_1(b_J - 2/P)
    d_Q' = g(d_Q) f_2((c_K - 2)/(P+1) + b_J (1 - c_K))

with the defaults ``g(x) = x(1-x)`` and ``f_i(x) = k_i x`` (eqs. 21-23).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp
from scipy.integrate import cumulative_trapezoid, solve_ivp

from toypoker.errors import ToypokerError
from toypoker.literature.papers import billingham


def integrated(sol: Any, y0: object, t_end: float) -> Any:
    """``sol``, a ``solve_ivp`` result, when the integration reached its end (or a
    terminal event); else one line saying where it failed and scipy's reason (a step
    size below the spacing of floats: the rates ``k`` so large, or ``y0`` so close to
    the simplex's edge, that the system is too stiff for the explicit solver).  Without
    this check the callers read an empty trajectory and crashed."""
    if sol.status == -1:
        start = ", ".join(f"{float(v):.6g}" for v in np.ravel(np.asarray(y0, dtype=float)))
        reached = f"{float(sol.t[-1]):.6g}" if len(sol.t) else "its start"
        raise ToypokerError(
            f"the ODE from y0 = ({start}) could not be integrated to t = {t_end:g} (it "
            f"stopped at {reached}): {' '.join(str(sol.message).split())}"
        )
    return sol


def default_g(x: np.ndarray) -> np.ndarray:
    return x * (1.0 - x)


@dataclass(frozen=True)
class SKPDynamics:
    """The ODE (18)-(20) for pot ``P`` with rates ``k = (k1, k2, k3)``.

    ``g`` and ``f`` (a triple of callables for P1, P2, P3) override the
    defaults of eqs. (21)-(23).
    """

    P: float = 9.0
    k: tuple[float, float, float] = (1.0, 1.0, 1.0)
    g: Callable[[np.ndarray], np.ndarray] = default_g
    f: tuple | None = None

    def brackets(self, y: np.ndarray) -> np.ndarray:
        """The arguments of ``f_3, f_1, f_2`` in (18)-(20), as (b, c, d) rows."""
        b, c, d = y
        P = self.P
        return np.array(
            [
                (P - 5) / (P + 1) - d - c + d * c,  # (18)
                b - 2 / P,  # (19)
                (c - 2) / (P + 1) + b * (1 - c),  # (20)
            ]
        )

    def rhs(self, t: float, y: np.ndarray) -> np.ndarray:
        k1, k2, k3 = self.k
        br = self.brackets(y)
        if self.f is None:
            fv = np.array([k3 * br[0], k1 * br[1], k2 * br[2]])
        else:
            f1, f2, f3 = self.f
            fv = np.array([f3(br[0]), f1(br[1]), f2(br[2])])
        return self.g(np.asarray(y)) * fv

    def integrate(
        self,
        y0,
        t_end: float,
        t_eval=None,
        backward: bool = False,
        rtol: float = 1e-9,
        atol: float = 1e-11,
        events=None,
    ):
        """``solve_ivp`` (DOP853) from ``y0`` over ``[0, t_end]`` (or backwards); a
        failed integration refused in one line (:func:`integrated`)."""
        span = (0.0, -t_end) if backward else (0.0, t_end)
        sol = solve_ivp(
            self.rhs,
            span,
            np.asarray(y0, dtype=float),
            method="DOP853",
            t_eval=t_eval,
            rtol=rtol,
            atol=atol,
            events=events,
            dense_output=False,
        )
        return integrated(sol, y0, t_end)

    # ---------------------------------------------------------------- points
    def fixed_points(self) -> dict[str, np.ndarray]:
        """The interior equilibria S1, S2 and (for P > P*) S3 of eqs. (12)-(14)."""
        pts = {}
        for k in (1, 2, 3):
            sol, _ = billingham.skp_solution(float(self.P), k)
            if k == 3 and sol["d_Q"] <= 0:  # S3 exists only for P > P*
                continue
            pts[f"S{k}"] = np.array([sol["b_J"], sol["c_K"], sol["d_Q"]], dtype=float)
        return pts

    def jacobian(self, y: np.ndarray, h: float = 1e-7) -> np.ndarray:
        """Jacobian of the right-hand side (central differences)."""
        J = np.zeros((3, 3))
        for j in range(3):
            e = np.zeros(3)
            e[j] = h
            J[:, j] = (self.rhs(0, y + e) - self.rhs(0, y - e)) / (2 * h)
        return J


def exact_jacobian(P: sp.Expr, k: tuple = (1, 1, 1)) -> tuple[sp.Matrix, dict]:
    """The Jacobian of (21)-(23) symbolically and at S1, S2, S3 exactly."""
    b, c, d = sp.symbols("b_J c_K d_Q")
    k1, k2, k3 = (sp.nsimplify(x) for x in k)
    F = sp.Matrix(
        [
            k3 * b * (1 - b) * ((P - 5) / (P + 1) - d - c + d * c),
            k1 * c * (1 - c) * (b - 2 / P),
            k2 * d * (1 - d) * ((c - 2) / (P + 1) + b * (1 - c)),
        ]
    )
    J = F.jacobian([b, c, d])
    pts = {}
    for n in (1, 2, 3):
        sol, _ = billingham.skp_solution(P, n)  # eqs. (12)-(14)
        pts[f"S{n}"] = {b: sol["b_J"], c: sol["c_K"], d: sol["d_Q"]}
    return J, {name: sp.simplify(J.subs(pt)) for name, pt in pts.items()}


@dataclass(frozen=True)
class StabilityReport:
    """Eigen-decomposition of one fixed point."""

    name: str
    point: np.ndarray
    eigenvalues: np.ndarray
    stable: int  # eigenvalues with negative real part
    unstable: int  # positive real part
    centre: int  # (numerically) zero real part
    kind: str = field(default="")


def classify(dyn: SKPDynamics, tol: float = 1e-9) -> list[StabilityReport]:
    """Stable/unstable/centre dimensions at each fixed point (Sec. 4.1's list)."""
    out = []
    for name, pt in dyn.fixed_points().items():
        ev = np.linalg.eigvals(dyn.jacobian(pt))
        s = int(np.sum(ev.real < -tol))
        u = int(np.sum(ev.real > tol))
        c = 3 - s - u
        kind = f"{s}-dim stable, {u}-dim unstable, {c}-dim centre"
        out.append(StabilityReport(name, pt, ev, s, u, c, kind))
    return out


# ------------------------------------------------------------ limit cycles
@dataclass(frozen=True)
class LimitCycle:
    """A periodic orbit found on a Poincare section."""

    period: float
    amplitude: np.ndarray  # max - min of each coordinate over one period
    section_point: np.ndarray
    converged: bool
    crossings: int


def poincare(
    dyn: SKPDynamics,
    y0,
    t_end: float = 2000.0,
    coord: int = 0,
    level: float | None = None,
    tol: float = 1e-6,
) -> LimitCycle:
    """Period and amplitude of the orbit from ``y0``, from upward crossings of the
    section ``y[coord] = level`` (default: the coordinate's mean over the second half
    of the run, so the section cuts the cycle); converged when successive crossing
    points agree to ``tol``."""
    n = 40001
    sol = dyn.integrate(y0, t_end, t_eval=np.linspace(0, t_end, n))
    y, t = sol.y, sol.t
    if level is None:
        level = float(y[coord, n // 2 :].mean())
    z = y[coord] - level
    idx = np.nonzero((z[:-1] < 0) & (z[1:] >= 0))[0]
    if len(idx) < 4:
        return LimitCycle(float("nan"), np.full(3, np.nan), np.asarray(y0), False, len(idx))
    frac = -z[idx] / (z[idx + 1] - z[idx])
    times = t[idx] + frac * (t[idx + 1] - t[idx])
    pts = y[:, idx] + frac * (y[:, idx + 1] - y[:, idx])
    period = float(times[-1] - times[-2])
    last = (t >= times[-2]) & (t <= times[-1])
    amp = y[:, last].max(axis=1) - y[:, last].min(axis=1)
    converged = bool(np.linalg.norm(pts[:, -1] - pts[:, -2]) < tol)
    return LimitCycle(period, amp, pts[:, -1], converged, len(idx))


def stable_manifold_s3(
    dyn: SKPDynamics, n: int = 24, radius: float = 1e-3, t_end: float | None = None
) -> list[np.ndarray]:
    """Trajectories in the 2-d stable manifold of S3, by backward integration from a
    small circle around S3 in its stable eigenspace (Fig. 8)."""
    s3 = dyn.fixed_points()["S3"]
    ev, vec = np.linalg.eig(dyn.jacobian(s3))
    stable = [i for i in range(3) if ev[i].real < 0]
    if len(stable) != 2:
        raise ValueError("S3 does not have a two-dimensional stable manifold here")
    if np.iscomplexobj(vec) and abs(ev[stable[0]].imag) > 0:
        u, w = vec[:, stable[0]].real, vec[:, stable[0]].imag
    else:
        u, w = vec[:, stable[0]].real, vec[:, stable[1]].real
    if t_end is None:  # the stable directions decay slowly: follow them ~8 e-foldings back
        t_end = 8.0 / max(abs(ev[stable[0]].real), 1e-3)
    paths = []
    for th in np.linspace(0, 2 * np.pi, n, endpoint=False):
        y0 = s3 + radius * (np.cos(th) * u + np.sin(th) * w)

        def leave(t, y):
            return min(y.min(), 1 - y.max())

        leave.terminal = True
        sol = dyn.integrate(
            y0, t_end, backward=True, events=leave, t_eval=np.linspace(0, -t_end, 6001)
        )
        paths.append(sol.y)
    return paths


def basin(dyn: SKPDynamics, y0, t_end: float = 400.0) -> str:
    """Which attracting plane a trajectory ends near: ``c_K = 0`` (around S1) or
    ``d_Q = 0`` (around S2)."""
    sol = dyn.integrate(y0, t_end, t_eval=[t_end])
    b, c, d = sol.y[:, -1]
    return "S1 (c_K = 0)" if c < d else "S2 (d_Q = 0)"


def basins(
    dyn: SKPDynamics, n: int = 9, t_end: float = 400.0, b: float | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Classify a grid of initial ``(c_K, d_Q)`` at fixed ``b_J`` (default S3's)."""
    b = dyn.fixed_points().get("S3", [2 / dyn.P])[0] if b is None else b
    grid = np.linspace(0.05, 0.95, n)
    out = np.zeros((n, n), dtype=int)
    for i, c in enumerate(grid):
        for j, d in enumerate(grid):
            out[i, j] = 1 if basin(dyn, (b, c, d), t_end).startswith("S1") else 2
    return grid, grid, out


def expectations(dyn: SKPDynamics, sol) -> np.ndarray:
    """The expectation integrals (24)-(26) along a solution, shape (3, len(t))."""
    b, c, d = sol.y
    # the integrands of (24)-(26) are 24 times the expectations (38)-(40)
    e = billingham.skp_expectations(dyn.P, b, c, d)
    return np.array([cumulative_trapezoid(x, sol.t, initial=0.0) for x in e])
