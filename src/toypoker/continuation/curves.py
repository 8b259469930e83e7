"""Equilibrium curves: first point, continuation in a parameter, multiplicity.

:func:`trace_curve` is the whole method of Billingham (N cards, Sec. 3): a
robust solve at a large ``eps`` from a random (or given) start, continuation
in ``log eps`` down to the target ``eps``, then pseudo-arclength continuation
in the game parameter over a window.  The result, :class:`EquilibriumCurve`,
carries every point (parameter, arclength, expectations, every action
probability) and writes/reads the CSV the paper published (plus a JSON
sidecar with the settings).  :func:`equilibria_at` lists the distinct
equilibria the curve crosses at a parameter value, each polished and
certified on the unregularized game; :func:`multiplicity` counts them along
the window.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ToypokerError
from ..io import atomic_write_text
from .regularized import RegularizedSystem, spec_at
from .tracer import newton_at, trace

Progress = Callable[[str, float, float], None]  # (stage, lam, ds)


@dataclass(frozen=True)
class EquilibriumCurve:
    """A traced branch of regularized equilibria.

    Attributes
    ----------
    spec, parameter, eps, response : the settings (``parameter`` e.g. ``"pot"``)
    theta : (m,) parameter values; arclength : (m,) along the branch (in ``(x, theta)``)
    expectations : (m, n_players)
    sigma : (m, n_sigma) every action probability of the game at each point
    sigma_labels : (n_sigma,) ``infoset label=action``
    reason, steps, seconds : how tracing ended, accepted+rejected steps, wall time
    """

    spec: str
    parameter: str
    eps: float
    response: str
    theta: np.ndarray
    arclength: np.ndarray
    expectations: np.ndarray
    sigma: np.ndarray
    sigma_labels: tuple[str, ...]
    reason: str
    steps: int
    seconds: float
    info: dict = field(default_factory=dict)

    # ------------------------------------------------------------------ csv
    def frequency_columns(self) -> list[tuple[str, int]]:
        """CSV columns of the frequencies: binary infosets give the aggressive action only."""
        out, by_inf = [], {}
        for k, lab in enumerate(self.sigma_labels):
            inf, _, _ = lab.rpartition("=")
            by_inf.setdefault(inf, []).append(k)
        for inf, ks in by_inf.items():
            if len(ks) == 2:
                out.append((inf, ks[1]))
            else:
                out += [(self.sigma_labels[k], k) for k in ks]
        return out

    def to_csv(self) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        n = self.expectations.shape[1]
        freq = self.frequency_columns()
        w.writerow(
            [self.parameter, "arclength"] + [f"E{p + 1}" for p in range(n)] + [c for c, _ in freq]
        )
        idx = [k for _, k in freq]
        for i in range(len(self.theta)):
            row = [self.theta[i], self.arclength[i], *self.expectations[i], *self.sigma[i, idx]]
            w.writerow([f"{v:.12g}" for v in row])
        return buf.getvalue()

    def metadata(self) -> dict[str, object]:
        return {
            "spec": self.spec,
            "parameter": self.parameter,
            "eps": self.eps,
            "response": self.response,
            "reason": self.reason,
            "steps": self.steps,
            "seconds": self.seconds,
            "points": len(self.theta),
            "sigma_labels": list(self.sigma_labels),
            "info": self.info,
        }

    def save(self, path: str | Path) -> Path:
        """Write ``path`` (CSV) and ``path.json`` (settings), atomically."""
        path = Path(path)
        atomic_write_text(path, self.to_csv())
        meta = path.with_suffix(path.suffix + ".json")
        atomic_write_text(meta, json.dumps(self.metadata(), indent=1))
        return path

    @classmethod
    def load(cls, path: str | Path) -> EquilibriumCurve:
        path = Path(path)
        meta_path = path.with_suffix(path.suffix + ".json")
        try:
            meta = json.loads(meta_path.read_text())
            rows = list(csv.reader(path.read_text().splitlines()))
            return cls._from_rows(meta, rows[0], np.array(rows[1:], dtype=float))
        except (OSError, ValueError, KeyError, IndexError) as e:
            raise ToypokerError(f"cannot read curve {path}: {e!r}") from None

    @classmethod
    def _from_rows(cls, meta: dict, header: list[str], data: np.ndarray) -> EquilibriumCurve:
        labels = tuple(meta["sigma_labels"])
        n = sum(1 for h in header if h.startswith("E") and h[1:].isdigit())
        sigma = np.zeros((len(data), len(labels)))
        by_label = {lab: k for k, lab in enumerate(labels)}
        by_infoset: dict[str, list[int]] = {}
        for k, lab in enumerate(labels):
            by_infoset.setdefault(lab.rpartition("=")[0], []).append(k)
        for c, name in enumerate(header[2 + n :], start=2 + n):
            if name in by_label:
                sigma[:, by_label[name]] = data[:, c]
            else:  # binary infoset: the aggressive action's column
                passive, aggressive = by_infoset[name]
                sigma[:, aggressive] = data[:, c]
                sigma[:, passive] = 1.0 - data[:, c]
        return cls(
            spec=meta["spec"],
            parameter=meta["parameter"],
            eps=meta["eps"],
            response=meta["response"],
            theta=data[:, 0],
            arclength=data[:, 1],
            expectations=data[:, 2 : 2 + n],
            sigma=sigma,
            sigma_labels=labels,
            reason=meta["reason"],
            steps=meta["steps"],
            seconds=meta["seconds"],
            info=meta.get("info", {}),
        )

    # ------------------------------------------------------------------ queries
    def crossings(self, value: float) -> list[int]:
        """Indices ``i`` with ``theta`` crossing ``value`` between points ``i`` and ``i + 1``."""
        d = self.theta - value
        out = np.nonzero((d[:-1] == 0) | (d[:-1] * d[1:] < 0))[0].tolist()
        if len(d) and d[-1] == 0:
            out.append(len(d) - 1)
        return out

    def at_arclength(self, s: float) -> tuple[float, np.ndarray, np.ndarray]:
        """Linear interpolation ``(theta, expectations, sigma)`` at arclength ``s``."""
        a = self.arclength
        i = int(np.clip(np.searchsorted(a, s) - 1, 0, len(a) - 2))
        w = 0.0 if a[i + 1] == a[i] else (s - a[i]) / (a[i + 1] - a[i])
        lerp = lambda v: (1 - w) * v[i] + w * v[i + 1]  # noqa: E731
        return float(lerp(self.theta)), lerp(self.expectations), lerp(self.sigma)


def system_for(curve: EquilibriumCurve, dominated: bool = True) -> RegularizedSystem:
    return RegularizedSystem(
        curve.spec, curve.parameter, eps=curve.eps, response=curve.response, dominated=dominated
    )


def trace_curve(
    spec: str,
    lo: float,
    hi: float,
    parameter: str = "pot",
    eps: float = 1e-6,
    start: float | None = None,
    eps_start: float = 1.0,
    response: str = "arctan",
    dominated: bool = True,
    x0: np.ndarray | None = None,
    rng: np.random.Generator | None = None,
    ds_max: float = 0.25,
    max_steps: int = 200_000,
    progress: Progress | None = None,
    checkpoint: Path | None = None,
    checkpoint_every: float = 30.0,
) -> EquilibriumCurve:
    """Trace the branch of regularized equilibria of ``spec`` for ``parameter`` in ``[lo, hi]``.

    The first point is found at ``start`` (default ``lo``) and ``eps_start`` by a
    trust-region solve from ``x0`` (default: uniform random from ``rng``, or 1/2
    without one), followed by continuation in ``log eps`` down to ``eps``.  If
    ``start`` lies inside the window the branch is traced both ways and joined.
    With ``checkpoint`` the curve so far is written there (CSV + JSON, atomically)
    every ``checkpoint_every`` seconds; Ctrl-C returns the curve so far (reason
    ``"interrupted"``), which :func:`resume_curve` continues.
    """
    if not lo < hi:
        raise ToypokerError(f"empty window [{lo}, {hi}]")
    if parameter in ("pot", "ante", "bet") and lo <= 0:
        raise ToypokerError(f"{parameter} must stay positive, got the window [{lo}, {hi}]")
    if parameter != "eps" and not 0 < eps < eps_start:
        raise ToypokerError(f"need 0 < eps < eps_start, got eps={eps}, eps_start={eps_start}")
    t0 = time.perf_counter()
    if parameter == "eps":
        return _trace_eps(spec, lo, hi, response, dominated, x0, rng, max_steps, progress, t0)
    start = lo if start is None else float(start)
    if not lo <= start <= hi:
        raise ToypokerError(f"start {start} outside [{lo}, {hi}]")
    sys_eps = RegularizedSystem(
        spec_at(spec, parameter, start), "eps", response=response, dominated=dominated
    )
    system = RegularizedSystem(spec, parameter, eps=eps, response=response, dominated=dominated)
    x0 = _start_vector(system, x0, rng)

    def report(stage: str):
        if progress is None:
            return None
        return lambda v, ds: progress(
            stage, float(np.exp(v[-1])) if stage == "eps" else float(v[-1]), ds
        )

    br = eps_branch(sys_eps, x0, eps_start, eps, max_steps, report("eps"))
    if br.reason == "interrupted":
        raise KeyboardInterrupt
    if br.reason != "reached" or br.info.get("edge") != "min":
        raise ToypokerError(
            f"eps-continuation failed ({br.reason}) at eps={np.exp(br.lam[-1]):.3g}"
        )
    u = np.append(br.points[-1][:-1], start)
    ends = (["last"] if start < hi else []) + (["first"] if start > lo else [])
    info = {"window": [lo, hi], "start": start, "eps_start": eps_start, "dominated": dominated}
    acc = _Accumulator(system, spec, parameter, eps, response, info, t0)
    acc.extend(np.array([u]), "last")
    return _continue(
        acc, ends, lo, hi, ds_max, max_steps, report(parameter), checkpoint, checkpoint_every
    )


def resume_curve(
    curve: EquilibriumCurve,
    ds_max: float = 0.25,
    max_steps: int = 200_000,
    progress: Progress | None = None,
    checkpoint: Path | None = None,
    checkpoint_every: float = 30.0,
) -> EquilibriumCurve:
    """Continue an interrupted (or checkpointed) curve from where it stopped."""
    todo = list(curve.info.get("todo", []))
    if curve.parameter == "eps" or not todo:
        raise ToypokerError(f"nothing to resume: the curve ended with {curve.reason!r}")
    system = system_for(curve, dominated=curve.info.get("dominated", True))
    lo, hi = curve.info["window"]
    t0 = time.perf_counter() - curve.seconds
    acc = _Accumulator(
        system,
        curve.spec,
        curve.parameter,
        curve.eps,
        curve.response,
        {k: v for k, v in curve.info.items() if k != "todo"},
        t0,
    )
    acc.steps = curve.steps
    acc.reasons = [r for r in curve.reason.split(" / ") if r not in ("interrupted", "partial")]
    pts = np.array(
        [np.append(system.unknowns(s), th) for s, th in zip(curve.sigma, curve.theta, strict=True)]
    )
    acc.extend(pts, "last")
    cb = None
    if progress is not None:
        cb = lambda v, ds: progress(curve.parameter, float(v[-1]), ds)  # noqa: E731
    return _continue(acc, todo, lo, hi, ds_max, max_steps, cb, checkpoint, checkpoint_every)


class _Accumulator:
    """The curve's points in order, with their expectations and profiles computed once."""

    def __init__(self, system, spec, parameter, eps, response, info, t0):
        self.system, self.spec, self.parameter, self.eps = system, spec, parameter, eps
        self.response, self.info, self.t0 = response, info, t0
        self.pts = np.zeros((0, system.n + 1))
        self.E = np.zeros((0, system.game.n_players))
        self.sig = np.zeros((0, system.game.n_sigma))
        self.steps, self.reasons = 0, []

    def _rows(self, pts):
        E = np.array([self.system.expectations(p[:-1], p[-1]) for p in pts]).reshape(len(pts), -1)
        sig = np.array([self.system.sigma(p[:-1]) for p in pts]).reshape(len(pts), -1)
        return E, sig

    def extend(self, pts: np.ndarray, end: str) -> None:
        if not len(pts):
            return
        E, sig = self._rows(pts)
        if end == "last":
            self.pts, self.E, self.sig = (
                np.vstack([a, b]) for a, b in ((self.pts, pts), (self.E, E), (self.sig, sig))
            )
        else:
            self.pts, self.E, self.sig = (
                np.vstack([b[::-1], a]) for a, b in ((self.pts, pts), (self.E, E), (self.sig, sig))
            )

    def curve(self, reason: str, todo: list[str], extra=None) -> EquilibriumCurve:
        pts, E, sig = self.pts, self.E, self.sig
        if extra is not None:  # points of the branch in progress, not yet accumulated
            end, more = extra
            mE, msig = self._rows(more)
            if end == "last":
                pts, E, sig = np.vstack([pts, more]), np.vstack([E, mE]), np.vstack([sig, msig])
            else:
                pts = np.vstack([more[::-1], pts])
                E, sig = np.vstack([mE[::-1], E]), np.vstack([msig[::-1], sig])
        arc = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(pts, axis=0), axis=1))])
        g = self.system.game
        return EquilibriumCurve(
            spec=self.spec,
            parameter=self.parameter,
            eps=self.eps,
            response=self.response,
            theta=pts[:, -1].copy(),
            arclength=arc,
            expectations=E,
            sigma=sig,
            sigma_labels=tuple(f"{i.label}={a}" for i in g.infosets for a in i.actions),
            reason=" / ".join(self.reasons + ([reason] if reason else [])),
            steps=self.steps,
            seconds=time.perf_counter() - self.t0,
            info={**self.info, "todo": todo},
        )


def _continue(acc, ends, lo, hi, ds_max, max_steps, progress, checkpoint, checkpoint_every):
    """Trace each pending end of the curve ("last": onward, "first": backward)."""
    ends = list(ends)
    while ends:
        end = ends[0]
        base = acc.pts[-1] if end == "last" else acc.pts[0]
        nxt = (acc.pts[-2] if end == "last" else acc.pts[1]) if len(acc.pts) > 1 else None
        orient = None if nxt is None else base - nxt

        def save(points: np.ndarray, end: str = end) -> None:
            acc.curve("partial", list(ends), (end, points[1:])).save(checkpoint)

        b = trace(
            acc.system.GJ,
            base,
            lo,
            hi,
            direction=1.0 if end == "last" else -1.0,
            ds=0.01,
            ds_max=ds_max,
            max_steps=max_steps,
            progress=progress,
            orient=orient,
            checkpoint=save if checkpoint is not None else None,
            checkpoint_every=checkpoint_every,
        )
        acc.extend(b.points[1:], end)
        acc.steps += b.steps
        if b.reason == "interrupted":
            curve = acc.curve("interrupted", ends)
            if checkpoint is not None:
                curve.save(checkpoint)
            return curve
        acc.reasons.append(b.reason)
        ends.pop(0)
    return acc.curve("", [])


def _start_vector(system: RegularizedSystem, x0, rng) -> np.ndarray:
    """The first solve's start: given, uniform random from ``rng``, or 1/2; logit blocks
    normalised onto the simplex."""
    if x0 is None:
        x0 = rng.random(system.n) if rng is not None else np.full(system.n, 0.5)
    x0 = np.asarray(x0, dtype=float)
    if x0.shape != (system.n,):
        raise ToypokerError(f"start vector needs {system.n} entries, got {x0.shape}")
    return system.normalize(x0)


def eps_branch(system: RegularizedSystem, x0, eps_hi: float, eps_lo: float, max_steps, progress):
    """Robust solve at ``eps_hi`` (trust region), then continuation in ``log eps`` to ``eps_lo``."""
    u = system.solve(x0, np.log(eps_hi))
    return trace(
        system.GJ,
        u,
        np.log(eps_lo),
        np.log(eps_hi) + 1.0,
        direction=-1.0,
        ds=0.2,
        ds_max=1.0,
        max_steps=max_steps,
        progress=progress,
    )


def _trace_eps(spec, lo, hi, response, dominated, x0, rng, max_steps, progress, t0):
    """The branch in ``eps`` itself (e.g. Leduc, with no numeric parameter: its logit branch)."""
    if lo <= 0:
        raise ToypokerError(f"eps must stay positive, got the window [{lo}, {hi}]")
    system = RegularizedSystem(spec, "eps", response=response, dominated=dominated)
    cb = None if progress is None else (lambda v, ds: progress("eps", float(np.exp(v[-1])), ds))
    br = eps_branch(system, _start_vector(system, x0, rng), hi, lo, max_steps, cb)
    pts = br.points
    E = np.array([system.expectations(p[:-1], None) for p in pts])
    sig = np.array([system.sigma(p[:-1]) for p in pts])
    labels = tuple(f"{inf.label}={a}" for inf in system.game.infosets for a in inf.actions)
    return EquilibriumCurve(
        spec=spec,
        parameter="eps",
        eps=float(lo),
        response=response,
        theta=np.exp(pts[:, -1]),
        arclength=br.arclength,
        expectations=E,
        sigma=sig,
        sigma_labels=labels,
        reason=br.reason,
        steps=br.steps,
        seconds=time.perf_counter() - t0,
        info={"window": [lo, hi], "dominated": dominated},
    )


@dataclass(frozen=True)
class Equilibrium:
    """A certified equilibrium crossed by a curve at one parameter value."""

    theta: float
    sigma: np.ndarray
    expectations: np.ndarray
    nash_conv: float  # of the polished profile, on the unregularized game
    raw_nash_conv: float  # of the regularized point itself

    @property
    def certified(self) -> bool:
        """NashConv of the polished profile below 1e-6 on the unregularized game."""
        return self.nash_conv < 1e-6


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
    system = system or system_for(curve, dominated=curve.info.get("dominated", True))
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


@dataclass(frozen=True)
class Multiplicity:
    """Counts along the window, exact between the curve's turning points.

    The number of branch points at a parameter value changes only at folds, so
    the window is cut at every turning point and each piece is examined at its
    midpoint: ``crossings`` is the number of regularized equilibria there,
    ``distinct`` the number of different equilibria they polish to (each with
    counterfactual regret sum, a bound on NashConv, below 1e-6), ``unpolished``
    the crossings whose polishing failed (degenerate supports; see
    :meth:`RegularizedSystem.certify` for the slower route that certifies them).
    """

    lower: np.ndarray
    upper: np.ndarray
    crossings: np.ndarray
    distinct: np.ndarray
    unpolished: np.ndarray

    def rows(self) -> list[tuple[float, float, int, int, int]]:
        return [
            (float(a), float(b), int(c), int(d), int(u))
            for a, b, c, d, u in zip(
                self.lower,
                self.upper,
                self.crossings,
                self.distinct,
                self.unpolished,
                strict=True,
            )
        ]


def turning_points(curve: EquilibriumCurve) -> np.ndarray:
    """Parameter values where the branch folds back (local extrema of ``theta``)."""
    th = curve.theta
    d = np.diff(th)
    i = np.nonzero(d[:-1] * d[1:] < 0)[0] + 1
    return th[i]


def multiplicity(curve: EquilibriumCurve, system: RegularizedSystem | None = None) -> Multiplicity:
    """How many equilibria the branch holds along its window (between turning points)."""
    system = system or system_for(curve, dominated=curve.info.get("dominated", True))
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
    return Multiplicity(cols[0], cols[1], *(cols[i].astype(int) for i in (2, 3, 4)))


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
