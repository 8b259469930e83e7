"""The job kinds of a sweep: one pure function per kind, parameters in, flat columns out.

A *job* is a kind (:data:`JOB_KINDS`: ``solve``, ``eval``, ``verify``,
``equilibria``, ``trace``, ``play``, ``ode``) and a flat dict of parameters;
its kind's function is pure and returns a flat dict of result columns, each the
library call behind the ``toypoker`` command of the same name.  :func:`run_job`
is what a Dask worker runs: it records a failure instead of raising.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from toypoker.continuation.crossings import multiplicity, system_for
from toypoker.continuation.curves import trace_curve
from toypoker.dynamics.ode import SKPDynamics, basin, classify, poincare
from toypoker.dynamics.play import play
from toypoker.engines import load_game, rows_of
from toypoker.errors import ToypokerError
from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.interrupts import InterruptFlag, caused_by_interrupt
from toypoker.literature.papers import billingham
from toypoker.profile import Profile
from toypoker.solvers import solve
from toypoker.solvers.analysis import deviations
from toypoker.solvers.enumerate import game_equilibria
from toypoker.solvers.enumerate_method import check_free_choices
from toypoker.solvers.registry import get_method
from toypoker.spec import format_spec, parse_spec, parse_value
from toypoker.threads import set_default_blas_threads, set_numba_threads

REQUIRED = object()  # a parameter without a default


@dataclass(frozen=True)
class Param:
    """A parameter of a job kind: its name, type (int, float, str, bool), default."""

    name: str
    type: type
    default: object = REQUIRED
    optional: bool = False  # None allowed


@dataclass(frozen=True)
class JobKind:
    """A registered job kind: ``run(game_params, params) -> flat result dict``."""

    name: str
    run: Callable[[dict], dict]
    params: tuple[Param, ...]
    help: str


@lru_cache(maxsize=8)
def _compiled(spec: str) -> Game:
    return load_game(spec)


def _game(p: dict) -> Game:
    """The job's game: its base spec with the game parameters of the job applied
    (structural ones by recompiling, cached per process; numeric ones by ``Game.at``)."""
    base = parse_spec(p["spec"])
    over = dict(p["game"])
    numeric = _compiled(p["spec"]).numeric_params
    structural = {k: parse_value(v) for k, v in over.items() if k not in numeric}
    g = _compiled(format_spec(base.name, {**base.as_dict(), **structural}))
    values = {k: v for k, v in over.items() if k in numeric}
    return g.at(**values) if values else g


_STOP: list[InterruptFlag | None] = [None]  # the flag of the serial sweep running a job


def _poll(*_: object) -> None:
    """A long job's progress callback (a trace's steps, a play run's chunks): raise
    ``KeyboardInterrupt`` -- the job is cut -- once the serial sweep running it was asked
    to stop (:func:`run_job`'s ``stop``).  The signal itself raises in the job too; this
    is for one whose ``KeyboardInterrupt`` CPython dropped (inside numba's compiler)."""
    flag = _STOP[0]
    if flag is not None and flag.requested:
        raise KeyboardInterrupt


def _per_player(prefix: str, xs: Sequence[object]) -> dict[str, object]:
    return {f"{prefix}_P{i + 1}": float(x) for i, x in enumerate(xs)}


def _profile(g: Game, text: str, exact: bool) -> Profile:
    if text == "uniform":
        return Profile.uniform(g, exact=exact)
    if not Path(text).is_file():
        raise ToypokerError(f"profile {text!r}: not 'uniform' nor a profile file")
    return Profile.from_json(text, g, exact=exact or None)


def _job_solve(p: dict) -> dict:
    g = _game(p)
    m = get_method(p["method"])
    r = solve(
        g, p["method"], iterations=p["iterations"], target_nash_conv=p["target_nash_conv"],
        seed=p["seed"] if m.stochastic else None,
    )  # fmt: skip
    out: dict[str, object] = {"game": g.spec, **_per_player("value", r.values)}
    out.update(_per_player("gain", r.gains))
    out.update(nash_conv=r.nash_conv, iterations_run=r.iterations, solve_seconds=r.seconds)
    out.update(stopped=str(r.stopped.value), exact=r.exact, certified=r.certified)
    if r.value_exact:
        out["value_exact_P1"] = str(r.value_exact[0])
    if r.method == "enumerate":
        out["equilibria"] = len(r.equilibria)
    return out


def _job_eval(p: dict) -> dict:
    g = _game(p)
    ev = evaluate(g, _profile(g, p["profile"], p["exact"]))
    out: dict[str, object] = {"game": g.spec, **_per_player("value", ev.values)}
    out.update(_per_player("br_value", ev.br_values))
    out.update(_per_player("gain", ev.gains))
    out["nash_conv"] = float(ev.nash_conv)
    if ev.exact:
        out["nash_conv_exact"] = str(ev.nash_conv)
    return out


def _job_verify(p: dict) -> dict:
    g = rows_of(_game(p), "verify")  # the exact certificate reads the deal table
    found = deviations(g, _profile(g, p["profile"], True))
    ev = found.evaluation
    out: dict[str, object] = {"game": g.spec, "equilibrium": found.equilibrium}
    out.update(_per_player("value", ev.values))
    out.update(_per_player("gain", ev.gains))
    out.update(nash_conv=float(ev.nash_conv), nash_conv_exact=str(ev.nash_conv))
    out["deviating_infosets"] = sum(len(v) for v in found.deviations.values())
    return out


def _job_equilibria(p: dict) -> dict:
    g = _game(p)
    check_free_choices(g)
    pot = billingham.P_STAR if p["at_p_star"] else None
    pieces, _ = game_equilibria(g, pot=pot)
    return {
        "game": g.spec,
        "pieces": len(pieces),
        "isolated": sum(not pc.free for pc in pieces),
        "equilibria": _labelled(g, " | ".join(pc.describe() for pc in pieces)),
    }


def _labelled(game: Game, text: str) -> str:
    """The enumerator's symbols (``P3_1_kk``) written as the infoset labels they stand
    for (``P3:1:kk``), the form profiles and the README use."""
    names = {i.label.replace(":", "_"): i.label for i in game.infosets}
    return re.sub(r"\bP\d+_\w+", lambda m: names.get(m.group(0), m.group(0)), text)


def _job_trace(p: dict) -> dict:
    g = _game(p)
    r = trace_curve(
        g, p["parameter"], p["lo"], p["hi"], eps=p["eps"], ds_max=p["ds_max"],
        response=p["response"], dominated=p["dominated"], seed=p["seed"],
        max_steps=p["max_steps"], progress=_poll,
    )  # fmt: skip
    curve = r.curve
    mult = multiplicity(curve, system_for(curve, dominated=p["dominated"], game=g))
    rows = mult.rows()
    return {
        "game": g.spec,
        "points": len(curve.theta),
        "steps": curve.steps,
        "trace_seconds": float(curve.seconds),
        "reason": curve.reason,
        "complete": all(s.strip() == "reached" for s in curve.reason.split(" / ")),
        "max_equilibria": int(mult.distinct.max()) if rows else 0,
        "unpolished": int(mult.unpolished.max()) if rows else 0,
    }


def _skp_pot(p: dict) -> float:
    g = _game(p)
    if g.name != "skp":
        raise ToypokerError(f"the dynamics jobs are Billingham's SKP; give 'skp', not {g.spec}")
    return float(g.params["pot"])


def _job_play(p: dict) -> dict:
    pot = _skp_pot(p)
    r = play(
        P=pot, k=p["k"], L=p["L"], rounds=p["rounds"], seed=p["seed"],
        record_every=p["record_every"], estimator=p["estimator"], clip=p["clip"],
        progress=_poll,
    )  # fmt: skip
    e = r.expectation_after(p["burn_in"]) if p["burn_in"] else r.expectation
    out: dict[str, object] = _per_player("E", e)
    out.update(_per_player("se", r.expectation_se))
    out.update(zip(("final_b", "final_c", "final_d"), map(float, r.freqs[-1]), strict=True))
    pub = billingham.TABLE1.get((p["L"], p["k"])) if pot == billingham.TABLE1_P else None
    if pub is not None:
        out.update(_per_player("published", pub))
    return out


def _job_ode(p: dict) -> dict:
    dyn = SKPDynamics(P=_skp_pot(p), k=(p["k"],) * 3)
    y0 = (p["b0"], p["c0"], p["d0"])
    lc = poincare(dyn, y0, t_end=p["t_end"])
    return {
        "fixed_points": " ".join(f"{r.name}:{r.kind}" for r in classify(dyn)),
        "basin": basin(dyn, y0, p["t_end"]),
        "cycle_converged": bool(lc.converged),
        "cycle_period": float(lc.period),
        **{f"amplitude_{c}": float(a) for c, a in zip("bcd", lc.amplitude, strict=True)},
    }


_SEED = Param("seed", int, None, optional=True)
JOB_KINDS: dict[str, JobKind] = {
    k.name: k
    for k in (
        JobKind("solve", _job_solve, (
            Param("method", str, "cfr+"), Param("iterations", int, 1000),
            Param("target_nash_conv", float, None, optional=True), _SEED,
        ), "toypoker solve: values, gains, NashConv (seed only for sampling methods)"),
        JobKind("eval", _job_eval, (Param("profile", str, "uniform"), Param("exact", bool, False)),
                "toypoker eval: values, best-response values, gains of a profile"),
        JobKind("verify", _job_verify, (Param("profile", str, "uniform"),),
                "toypoker verify: exact gains; equilibrium true/false"),
        JobKind("equilibria", _job_equilibria, (Param("at_p_star", bool, False),),
                "toypoker equilibria: every equilibrium piece, exactly"),
        JobKind("trace", _job_trace, (
            Param("parameter", str, "pot"), Param("lo", float), Param("hi", float),
            Param("eps", float, 1e-6), Param("ds_max", float, 0.25),
            Param("response", str, "arctan"), Param("dominated", bool, True),
            Param("max_steps", int, 200_000), _SEED,
        ), "toypoker trace: the curve's points, completeness, most equilibria on it"),
        JobKind("play", _job_play, (
            Param("k", float, 0.001), Param("L", int, 24), Param("rounds", int, 1_100_000),
            Param("seed", int, 0), Param("record_every", int, 10_000),
            Param("estimator", str, "corrected"), Param("clip", bool, False),
            Param("burn_in", float, 0.0),
        ), "toypoker dynamics play/table1: one repeated-play run of SKP (Table 1 cell)"),
        JobKind("ode", _job_ode, (
            Param("k", float, 1.0), Param("b0", float, 0.25), Param("c0", float, 0.2),
            Param("d0", float, 0.25), Param("t_end", float, 400.0),
        ), "toypoker dynamics ode: fixed points, basin and limit cycle of SKP's ODE"),
    )
}  # fmt: skip


def _flat(x: object) -> object:
    """A JSON scalar: numpy numbers as Python ones, non-finite floats as None."""
    if x is None or isinstance(x, bool | int | str):
        return x
    if isinstance(x, Fraction):
        return str(x)
    try:
        f = float(x)
    except (TypeError, ValueError):
        return str(x)
    return f if math.isfinite(f) else None


def run_job(
    kind: str, params: dict, single_thread: bool = False, stop: InterruptFlag | None = None
) -> dict:
    """Run one job and return its record: ``status`` ``"ok"`` with ``result``, or
    ``"failed"`` with ``error`` (any exception is caught and recorded).

    A ``KeyboardInterrupt`` (a Ctrl-C, ``toypoker.Interrupted``) is not caught: the job
    is cut, with no record.  With ``stop`` (a serial sweep's flag) a long job (trace,
    play) also raises it at its next progress step once ``stop.requested`` is set."""
    t0 = time.perf_counter()
    outer, _STOP[0] = _STOP[0], stop
    try:
        if single_thread:
            set_default_blas_threads(1)
            set_numba_threads(1)
        result = {k: _flat(v) for k, v in JOB_KINDS[kind].run(params).items()}
        rec: dict[str, object] = {"status": "ok", "result": result, "error": None}
    except Exception as exc:  # noqa: BLE001 - recorded, the sweep goes on
        if caused_by_interrupt(exc):  # a Ctrl-C surfacing from a compiled kernel: stop
            raise KeyboardInterrupt from None
        text = str(exc) if isinstance(exc, ToypokerError) else f"{type(exc).__name__}: {exc}"
        rec = {"status": "failed", "result": {}, "error": " ".join(text.split())}
    finally:
        _STOP[0] = outer
    rec["seconds"] = time.perf_counter() - t0
    return rec
