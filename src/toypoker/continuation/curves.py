"""Equilibrium curves: first point, continuation in a parameter, multiplicity.

:func:`trace_curve` is the whole method of Billingham (N cards, Sec. 3): a
robust solve at a large ``eps`` from a random (or given) start, continuation
in ``log eps`` down to the target ``eps``, then pseudo-arclength continuation
in the game parameter over a window.  It takes a compiled game (as OpenSpiel's
and pygambit's functions do) and answers with the one
:class:`~toypoker.result.Result`: ``method="trace"``, ``curve`` the
:class:`EquilibriumCurve` (every point: parameter, arclength, expectations,
every action probability; the CSV the paper published plus a JSON sidecar),
``equilibria`` the certified :class:`Equilibrium` at the ``at`` values.
:func:`~toypoker.continuation.crossings.equilibria_at` lists the distinct
equilibria the curve crosses at a parameter value, each polished and certified
on the unregularized game; :func:`~toypoker.continuation.crossings.multiplicity`
counts them along the window (``crossings.py``).  The game is compiled once by
the caller: every other parameter value is ``game.at(...)``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from toypoker.checks import check_callable, check_int, check_number, check_path, check_text, shown
from toypoker.continuation.crossings import equilibria_at, system_for
from toypoker.continuation.records import Equilibrium, EquilibriumCurve, Multiplicity
from toypoker.continuation.regularized import RegularizedSystem
from toypoker.continuation.tracer import trace
from toypoker.engines import rows_of
from toypoker.errors import Interrupted, ToypokerError
from toypoker.game import Game, check_game
from toypoker.games import load_rows
from toypoker.result import Result, Stopped

Progress = Callable[[str, float, float], None]  # (stage, lam, ds)

__all__ = ["Equilibrium", "EquilibriumCurve", "Multiplicity", "resume_curve", "trace_curve"]


def _result(
    game: Game, curve: EquilibriumCurve, at: Sequence[float], options: dict[str, object]
) -> Result:
    """The one result type for a trace: the curve and the certified equilibria at ``at``."""
    system = system_for(curve)
    eqs: list[Equilibrium] = []
    for v in at:
        eqs += equilibria_at(curve, float(v), system)
    stopped = Stopped.INTERRUPTED if curve.reason.endswith("interrupted") else Stopped.FINISHED
    res = Result(
        game=game,
        method="trace",
        options={**options, "at": [float(v) for v in at]},
        equilibria=tuple(eqs),
        nash_conv=max((e.nash_conv for e in eqs), default=None),
        certified=bool(eqs) and all(e.certified for e in eqs),
        iterations=curve.steps,
        seconds=curve.seconds,
        stopped=stopped,
        seed=options.get("seed"),  # type: ignore[arg-type]
        curve=curve,
    )
    if stopped is Stopped.INTERRUPTED:  # the caller's script stops too, the curve on it
        raise Interrupted(res, f"trace stopped by an interrupt with {len(curve.theta)} points")
    return res


def _check_at(at: Sequence[float], lo: float, hi: float) -> list[float]:
    out = [float(v) for v in at]
    for v in out:
        if not lo <= v <= hi:
            raise ToypokerError(f"at value {v} is outside [{lo}, {hi}]")
    return out


def trace_curve(
    game: Game,
    parameter: str,
    lo: float,
    hi: float,
    *,
    eps: float = 1e-6,
    at: Sequence[float] = (),
    start: float | None = None,
    eps_start: float = 1.0,
    response: str = "arctan",
    dominated: bool = True,
    x0: np.ndarray | None = None,
    rng: np.random.Generator | None = None,
    seed: int | None = None,
    ds_max: float = 0.25,
    max_steps: int = 200_000,
    progress: Progress | None = None,
    checkpoint: Path | None = None,
    checkpoint_every: float = 30.0,
) -> Result:
    """Trace the branch of regularized equilibria of ``game`` for ``parameter`` in ``[lo, hi]``.

    Parameters
    ----------
    game
        The compiled game (compiled once: other parameter values are ``game.at``).
    parameter
        A numeric parameter (``"pot"``, ``"ante"``, ``"bet"``; ``game.numeric_params``)
        or ``"eps"`` (the branch in the regularization itself, e.g. for Leduc).
    lo, hi
        The window.
    eps
        The regularization along the branch.
    at
        Parameter values at which the distinct equilibria crossed are polished and
        certified (``Result.equilibria``).
    start, eps_start, x0, rng, seed
        The first point is found at ``start`` (default ``lo``) and ``eps_start`` by a
        trust-region solve from ``x0`` (default: uniform random from ``rng``, or from
        ``numpy.random.default_rng(seed)`` if only ``seed`` is given, or 1/2),
        followed by continuation in ``log eps`` down to ``eps``.  If ``start`` lies
        inside the window the branch is traced both ways and joined.
    response, dominated
        As for :class:`RegularizedSystem`.
    ds_max, max_steps
        The tracer's largest arclength step and step budget.
    progress
        Called as ``progress(stage, lam, ds)`` after each step.
    checkpoint, checkpoint_every
        The curve so far is written there (CSV + JSON, atomically) every
        ``checkpoint_every`` seconds.

    Returns
    -------
    Result
        ``method="trace"``, ``curve`` the :class:`EquilibriumCurve`,
        ``equilibria`` the :class:`Equilibrium` list at the ``at`` values,
        ``certified`` when all of them are.

    Raises
    ------
    toypoker.Interrupted
        On Ctrl-C or SIGTERM (a :class:`KeyboardInterrupt`): its ``.result`` holds the
        curve so far (``stopped="interrupted"``), which :func:`resume_curve` continues.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=3)")
    >>> r = tp.trace_curve(g, "pot", 3.0, 3.2, eps=1e-3, seed=0)
    >>> r.method, str(r.stopped)
    ('trace', 'finished')
    """
    game = rows_of(check_game(game), "trace_curve")  # the continuation reads the deal table
    check_text(parameter, "parameter", "a parameter name (pot, ante, bet or eps)")
    lo, hi = check_number(lo, "lo"), check_number(hi, "hi")
    eps = check_number(eps, "eps", positive=True)
    eps_start = check_number(eps_start, "eps_start", positive=True)
    ds_max = check_number(ds_max, "ds_max", positive=True)
    checkpoint_every = check_number(checkpoint_every, "checkpoint_every", positive=True)
    max_steps = check_int(max_steps, "max_steps", low=1)
    check_text(response, "response", "a response name")
    if not isinstance(dominated, bool):
        raise ToypokerError(f"dominated must be True or False, not {shown(dominated)}")
    if start is not None:
        start = check_number(start, "start")
    if seed is not None:
        seed = check_int(seed, "seed", low=0)
    if rng is not None and not isinstance(rng, np.random.Generator):
        raise ToypokerError("rng must be a numpy.random.Generator (numpy.random.default_rng)")
    if not isinstance(at, list | tuple | range | np.ndarray):
        raise ToypokerError(f"at must be a list of parameter values, not {shown(at)}")
    at = [check_number(v, "an at value") for v in at]
    check_callable(progress, "progress")
    if checkpoint is not None:
        checkpoint = check_path(checkpoint, "checkpoint")
    if not lo < hi:
        raise ToypokerError(f"empty window [{lo}, {hi}]")
    at = _check_at(at, lo, hi)
    if rng is None and seed is not None:
        rng = np.random.default_rng(seed)
    options: dict[str, object] = {
        "parameter": parameter, "window": [lo, hi], "eps": eps, "start": start,
        "eps_start": eps_start, "response": response, "dominated": dominated,
        "ds_max": ds_max, "max_steps": max_steps, "seed": seed,
    }  # fmt: skip
    curve = _trace(
        game, parameter, lo, hi, eps, start, eps_start, response, dominated, x0, rng,
        ds_max, max_steps, progress, checkpoint, checkpoint_every,
    )  # fmt: skip
    return _result(game, curve, at if not curve.reason.endswith("interrupted") else [], options)


def _trace(
    game, parameter, lo, hi, eps, start, eps_start, response, dominated, x0, rng,
    ds_max, max_steps, progress, checkpoint, checkpoint_every,
) -> EquilibriumCurve:  # fmt: skip
    """The curve of :func:`trace_curve`."""
    if parameter in ("pot", "ante", "bet") and lo <= 0:
        raise ToypokerError(f"{parameter} must stay positive, got the window [{lo}, {hi}]")
    if parameter != "eps" and not 0 < eps < eps_start:
        raise ToypokerError(f"need 0 < eps < eps_start, got eps={eps}, eps_start={eps_start}")
    t0 = time.perf_counter()
    if parameter == "eps":
        return _trace_eps(
            game, lo, hi, response, dominated, x0, rng, max_steps, progress, t0,
            checkpoint, checkpoint_every,
        )  # fmt: skip
    start = lo if start is None else float(start)
    if not lo <= start <= hi:
        raise ToypokerError(f"start {start} outside [{lo}, {hi}]")
    system = RegularizedSystem(game, parameter, eps=eps, response=response, dominated=dominated)
    sys_eps = RegularizedSystem(
        system.exact_game(start), "eps", response=response, dominated=dominated
    )
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
    acc = _Accumulator(system, game.spec, parameter, eps, response, info, t0)
    acc.extend(np.array([u]), "last")
    return _continue(
        acc, ends, lo, hi, ds_max, max_steps, report(parameter), checkpoint, checkpoint_every
    )


def resume_curve(
    curve: EquilibriumCurve,
    game: Game | None = None,
    *,
    at: Sequence[float] = (),
    ds_max: float = 0.25,
    max_steps: int = 200_000,
    progress: Progress | None = None,
    checkpoint: Path | None = None,
    checkpoint_every: float = 30.0,
) -> Result:
    """Continue an interrupted (or checkpointed) curve from where it stopped.

    Parameters
    ----------
    curve
        The curve so far (e.g. ``EquilibriumCurve.load(checkpoint)``).
    game
        Its compiled game (``curve.spec``); compiled from the spec if not given.
    at, ds_max, max_steps, progress, checkpoint, checkpoint_every
        As for :func:`trace_curve`.

    Returns
    -------
    Result
        As :func:`trace_curve`'s, for the whole curve.
    """
    todo = list(curve.info.get("todo", []))
    if not todo:
        raise ToypokerError(f"nothing to resume: the curve ended with {curve.reason!r}")
    lo, hi = curve.info["window"]
    at = _check_at(at, lo, hi)
    t0 = time.perf_counter() - curve.seconds
    if curve.parameter == "eps":
        if game is None:
            game = load_rows(curve.spec)
        elif game.spec != curve.spec:
            raise ToypokerError(f"the curve traces {curve.spec}, not {game.spec}")
        done_eps = _trace_eps(
            game, lo, hi, curve.response, curve.info.get("dominated", True), None, None,
            max_steps, progress, t0, checkpoint, checkpoint_every, previous=curve,
        )  # fmt: skip
        eps_options: dict[str, object] = {
            "parameter": "eps", "window": [lo, hi], "response": curve.response,
            "dominated": curve.info.get("dominated", True), "max_steps": max_steps,
            "resumed": True,
        }  # fmt: skip
        return _result(
            game, done_eps, at if not done_eps.reason.endswith("interrupted") else [], eps_options
        )
    system = system_for(curve, game=game)
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
    done = _continue(acc, todo, lo, hi, ds_max, max_steps, cb, checkpoint, checkpoint_every)
    options: dict[str, object] = {
        "parameter": curve.parameter, "window": [lo, hi], "eps": curve.eps,
        "response": curve.response, "dominated": curve.info.get("dominated", True),
        "ds_max": ds_max, "max_steps": max_steps, "resumed": True,
    }  # fmt: skip
    return _result(
        system.source, done, at if not done.reason.endswith("interrupted") else [], options
    )


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
            system=self.system,
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
    try:
        x0 = np.asarray(x0, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ToypokerError(f"x0 must be a vector of numbers: {exc}") from None
    if x0.shape != (system.n,):
        raise ToypokerError(f"start vector needs {system.n} entries, got {x0.shape}")
    if not np.isfinite(x0).all():
        raise ToypokerError("x0 must be finite")
    return system.normalize(x0)


def eps_branch(
    system: RegularizedSystem,
    x0,
    eps_hi: float,
    eps_lo: float,
    max_steps,
    progress,
    checkpoint: Callable[[np.ndarray], None] | None = None,
    checkpoint_every: float = 30.0,
):
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
        checkpoint=checkpoint,
        checkpoint_every=checkpoint_every,
    )


def _eps_curve(system, spec, pts, arclength, reason, steps, seconds, info) -> EquilibriumCurve:
    """An eps-branch curve from its points ``(unknowns, log eps)``."""
    labels = tuple(f"{inf.label}={a}" for inf in system.game.infosets for a in inf.actions)
    return EquilibriumCurve(
        spec=spec,
        parameter="eps",
        eps=float(info["window"][0]),
        response=system.response,
        theta=np.exp(pts[:, -1]),
        arclength=np.asarray(arclength, dtype=float),
        expectations=np.array([system.expectations(p[:-1], None) for p in pts]),
        sigma=np.array([system.sigma(p[:-1]) for p in pts]),
        sigma_labels=labels,
        reason=reason,
        steps=steps,
        seconds=seconds,
        info=info,
        system=system,
    )


def _eps_points(system: RegularizedSystem, curve: EquilibriumCurve) -> np.ndarray:
    """The points ``(unknowns, log eps)`` of a saved eps curve."""
    return np.array(
        [
            np.append(system.unknowns(s), np.log(th))
            for s, th in zip(curve.sigma, curve.theta, strict=True)
        ]
    )


def _trace_eps(
    game,
    lo,
    hi,
    response,
    dominated,
    x0,
    rng,
    max_steps,
    progress,
    t0,
    checkpoint=None,
    checkpoint_every=30.0,
    previous: EquilibriumCurve | None = None,
):
    """The branch in ``eps`` itself (e.g. Leduc, with no numeric parameter: its logit
    branch), from ``hi`` down to ``lo``; continued from ``previous`` (an interrupted
    curve) when given."""
    if lo <= 0:
        raise ToypokerError(f"eps must stay positive, got the window [{lo}, {hi}]")
    system = RegularizedSystem(game, "eps", response=response, dominated=dominated)
    cb = None if progress is None else (lambda v, ds: progress("eps", float(np.exp(v[-1])), ds))
    info = {"window": [lo, hi], "dominated": dominated}
    done_pts = np.zeros((0, system.n + 1))
    done_arc = np.zeros(0)
    steps0 = 0
    if previous is not None:
        done_pts = _eps_points(system, previous)
        done_arc = np.asarray(previous.arclength, dtype=float)
        steps0 = previous.steps

    def whole(pts: np.ndarray, arc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if not len(done_pts):
            return pts, arc
        return (
            np.vstack([done_pts, pts[1:]]),
            np.concatenate([done_arc, done_arc[-1] + arc[1:] - arc[0]]),
        )

    def save(points: np.ndarray) -> None:
        arc = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(points, axis=0), axis=1))])
        pts, a = whole(points, arc)
        _eps_curve(
            system, game.spec, pts, a, "partial", steps0, time.perf_counter() - t0,
            {**info, "todo": ["eps"]},
        ).save(checkpoint)  # fmt: skip

    ck = save if checkpoint is not None else None
    if previous is None:
        br = eps_branch(
            system, _start_vector(system, x0, rng), hi, lo, max_steps, cb, ck, checkpoint_every
        )
    else:
        orient = done_pts[-1] - done_pts[-2] if len(done_pts) > 1 else None
        br = trace(
            system.GJ,
            done_pts[-1],
            np.log(lo),
            np.log(hi) + 1.0,
            direction=-1.0,
            ds=0.2,
            ds_max=1.0,
            max_steps=max_steps,
            progress=cb,
            orient=orient,
            checkpoint=ck,
            checkpoint_every=checkpoint_every,
        )
    pts, arc = whole(br.points, br.arclength)
    if br.reason == "interrupted":
        info = {**info, "todo": ["eps"]}
    curve = _eps_curve(
        system, game.spec, pts, arc, br.reason, steps0 + br.steps, time.perf_counter() - t0, info
    )
    if br.reason == "interrupted" and checkpoint is not None:
        curve.save(checkpoint)
    return curve
