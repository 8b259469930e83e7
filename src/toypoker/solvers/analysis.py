"""Analyses over solver runs, for Python users and the CLI alike.

* :func:`seed_spread` -- run a sampling method with seeds ``0..N-1`` and
  summarise the spread of the solutions found (the experiment that led
  Szafron et al. 2013 to their family of equilibria);
* :func:`time_to_target` and :func:`compare` -- several methods for the same
  time budget, NashConv against time and the time each needs to reach a target;
* :func:`deviations` -- an exact certificate of a profile: every player's gain
  and, where it is positive, the infosets where a best response differs.

Each returns a frozen object with ``to_json_dict()`` and ``to_csv()``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from toypoker.engines.protocol import Evaluation
from toypoker.errors import ToypokerError
from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.io import atomic_write_text
from toypoker.profile import Profile
from toypoker.result import Result, Stopped, TracePoint
from toypoker.solvers.registry import get_method
from toypoker.solvers.solver import Solver


def _csv(rows: Sequence[Sequence[object]], path: str | Path | None) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    text = buf.getvalue()
    if path is not None:
        atomic_write_text(path, text)
    return text


# ---------------------------------------------------------------- seed spread
@dataclass(frozen=True)
class VaryingInfoset:
    """An infoset whose strategy varies across seeds (probability of its last action)."""

    infoset: str
    action: str
    min: float
    max: float
    mean: float


@dataclass(frozen=True)
class SeedSpread:
    """Runs of one method with seeds ``0..N-1`` and the spread of their solutions."""

    game: Game
    method: str
    iterations: int | None
    runs: tuple[Result, ...]
    varying: tuple[VaryingInfoset, ...]  # spread above the threshold, largest first

    @property
    def values(self) -> np.ndarray:
        """Expected values, shape (seeds, players)."""
        return np.array([r.values for r in self.runs])

    @property
    def nash_convs(self) -> np.ndarray:
        """Final NashConv of each run."""
        return np.array([r.nash_conv for r in self.runs], dtype=float)

    def to_json_dict(self) -> dict[str, object]:
        """The summary the CLI prints with ``solve --seeds N --json``."""
        values, nash = self.values, self.nash_convs
        return {
            "game": self.game.spec,
            "method": self.method,
            "seeds": len(self.runs),
            "iterations": self.iterations,
            "nash_conv": {"max": float(nash.max()), "mean": float(nash.mean())},
            "values": [
                {
                    "player": p + 1,
                    "mean": float(values[:, p].mean()),
                    "std": float(values[:, p].std()),
                    "min": float(values[:, p].min()),
                    "max": float(values[:, p].max()),
                }
                for p in range(self.game.n_players)
            ],
            "varying_infosets": [
                {"infoset": v.infoset, "action": v.action, "min": v.min, "max": v.max,
                 "mean": v.mean}
                for v in self.varying
            ],
            "runs": [
                {"seed": r.seed, "values": list(r.values), "nash_conv": r.nash_conv}
                for r in self.runs
            ],
        }  # fmt: skip

    @classmethod
    def from_runs(
        cls,
        game: Game,
        method: str,
        iterations: int | None,
        runs: Sequence[Result],
        threshold: float = 0.02,
    ) -> SeedSpread:
        """The spread of runs made elsewhere (e.g. one at a time, resumable).

        An infoset "varies" when the probability of its last action spans more
        than ``threshold`` across the runs; restricted infosets never vary.
        """
        if not runs:
            raise ToypokerError("a seed spread needs at least one run")
        probs = np.array([r.profile.probs for r in runs], dtype=float)  # type: ignore[union-attr]
        spread = []
        for info in game.infosets:
            if info.restricted:
                continue
            col = probs[:, info.offset + len(info.actions) - 1]
            spread.append((float(col.max() - col.min()), info, col))
        spread.sort(key=lambda x: -x[0])
        varying = tuple(
            VaryingInfoset(i.label, i.actions[-1], float(c.min()), float(c.max()), float(c.mean()))
            for w, i, c in spread
            if w > threshold
        )
        return cls(game, method, iterations, tuple(runs), varying)

    def to_csv(self, path: str | Path | None = None) -> str:
        """One row per seed: seed, NashConv, each player's value."""
        head = ["seed", "nash_conv"] + [f"value_P{p + 1}" for p in range(self.game.n_players)]
        rows = [[r.seed, r.nash_conv, *r.values] for r in self.runs]
        return _csv([head, *rows], path)


def seed_spread(
    game: Game,
    method: str,
    seeds: int,
    *,
    iterations: int | None = 1000,
    target_nash_conv: float | None = None,
    seconds: float | None = None,
    threshold: float = 0.02,
    progress: Callable[[int], None] | None = None,
    **options: object,
) -> SeedSpread:
    """Run a sampling ``method`` with seeds ``0..seeds-1`` and summarise the spread.

    Parameters
    ----------
    game, method
        The game and a sampling method (``es-mccfr``, ``os-mccfr``).
    seeds
        Number of seeds (at least 1).
    iterations, target_nash_conv, seconds, **options
        Budgets and options of every run (see :func:`~toypoker.solvers.solve`).
    threshold
        An infoset "varies" when its last action's probability spans more than this.
    progress
        Called with the number of finished runs.
    """
    m = get_method(method)
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise ToypokerError(f"seeds must be at least 1, got {seeds}")
    if not m.stochastic:
        raise ToypokerError(f"{method} is deterministic: every seed gives the same run")
    runs = []
    for s in range(seeds):
        solver = Solver(game, method, seed=s, **options)
        runs.append(solver.run(iterations, target_nash_conv=target_nash_conv, seconds=seconds))
        if progress is not None:
            progress(s + 1)
    return SeedSpread.from_runs(game, method, iterations, runs, threshold)


# -------------------------------------------------------------------- compare
def time_to_target(result: Result | MethodRun, target: float = 1e-3) -> float | None:
    """Seconds until the first NashConv check at or below ``target`` (None: never)."""
    return next((p.seconds for p in result.trace if p.nash_conv <= target), None)


@dataclass(frozen=True)
class MethodRun:
    """One method's run in a comparison: what is kept of its :class:`Result` (the
    NashConv checks against time), so a comparison can be saved and resumed."""

    method: str
    iterations: int
    seconds: float
    nash_conv: float
    trace: tuple[TracePoint, ...]

    @classmethod
    def from_result(cls, result: Result) -> MethodRun:
        """The run of a solver's result."""
        return cls(
            result.method, int(result.iterations), float(result.seconds),
            float(result.nash_conv), tuple(result.trace),
        )  # fmt: skip

    def to_json_dict(self) -> dict[str, object]:
        """Method, iterations, seconds, final NashConv, trace ``[[iteration, seconds,
        nash_conv], ...]``."""
        return {
            "method": self.method,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "nash_conv": self.nash_conv,
            "trace": [[p.iteration, p.seconds, p.nash_conv] for p in self.trace],
        }

    @classmethod
    def from_json_dict(cls, data: Mapping[str, object]) -> MethodRun:
        """The run :meth:`to_json_dict` wrote (other keys are ignored).

        Raises
        ------
        ToypokerError
            For anything else (one line).
        """
        try:
            trace = tuple(
                TracePoint(int(i), float(t), float(nc))
                for i, t, nc in data["trace"]  # type: ignore[union-attr]
            )
            return cls(
                str(data["method"]), int(data["iterations"]),  # type: ignore[call-overload]
                float(data["seconds"]), float(data["nash_conv"]),  # type: ignore[arg-type]
                trace,
            )  # fmt: skip
        except (KeyError, TypeError, ValueError) as exc:
            raise ToypokerError(f"not a method run of a comparison: {exc!r}") from None


@dataclass(frozen=True)
class Comparison:
    """Several methods on one game for the same time budget.

    ``skipped`` holds ``(method, reason)`` of the methods that cannot run on the
    game; ``interrupted`` the method cut by Ctrl-C (not in ``runs``: a run cut short
    is not comparable), or ``None``.
    """

    game: Game
    seconds: float
    seed: int
    target: float
    runs: tuple[MethodRun, ...]
    skipped: tuple[tuple[str, str], ...] = ()
    interrupted: str | None = None

    def rows(self) -> list[dict[str, object]]:
        """One summary per method (what ``toypoker compare`` tabulates)."""
        return [
            {**r.to_json_dict(), "seconds_to_target": time_to_target(r, self.target)}
            for r in self.runs
        ]

    def to_json_dict(self) -> dict[str, object]:
        """Game, budget, seed, the skipped methods and one row per method."""
        return {
            "game": self.game.spec,
            "seconds": self.seconds,
            "seed": self.seed,
            "target": self.target,
            "skipped": [{"method": m, "reason": why} for m, why in self.skipped],
            "methods": self.rows(),
        }

    def to_csv(self, path: str | Path | None = None) -> str:
        """All traces in one table: method, iteration, seconds, nash_conv."""
        rows: list[list[object]] = [["method", "iteration", "seconds", "nash_conv"]]
        for r in self.runs:
            rows += [[r.method, p.iteration, p.seconds, p.nash_conv] for p in r.trace]
        return _csv(rows, path)


def compare(
    game: Game,
    methods: Sequence[str],
    *,
    seconds: float,
    seed: int = 0,
    target: float = 1e-3,
    progress: Callable[[str, int, float | None], None] | None = None,
    done: Mapping[str, MethodRun] | None = None,
) -> Comparison:
    """Run every method for ``seconds`` (the seed goes to the sampling ones).

    Methods that cannot run on ``game`` (``lp`` beyond two players) are skipped
    with their reason in :attr:`Comparison.skipped`.  ``done`` holds runs finished
    earlier (an interrupted comparison's): those methods are not run again.  A
    run stopped by Ctrl-C ends the comparison: the methods finished so far are
    returned with :attr:`Comparison.interrupted` naming the one cut short.
    """
    ms = [get_method(m) for m in methods]
    if not seconds > 0:
        raise ToypokerError(f"seconds must be positive, got {seconds}")
    finished = dict(done or {})
    skipped = []
    for m in ms:
        if m.name in finished:
            continue

        def report(t: int, nc: float | None, name: str = m.name) -> None:
            if progress is not None:
                progress(name, t, nc)

        try:
            try:
                solver = Solver(game, m.name, seed=seed if m.stochastic else None)
            except ToypokerError as exc:
                skipped.append((m.name, str(exc)))
                continue
            report(0, None)  # the method starts (a one-shot LP reports nothing until solved)
            result = solver.run(None, seconds=seconds, progress=report)
            cut = result.stopped is Stopped.INTERRUPTED
        except KeyboardInterrupt:  # before the run's own handling began (its set-up, a
            cut = True  # first compile): the methods finished are kept all the same
        if cut:
            runs = tuple(finished[n.name] for n in ms if n.name in finished)
            return Comparison(
                game, float(seconds), seed, target, runs, tuple(skipped), interrupted=m.name
            )
        finished[m.name] = MethodRun.from_result(result)
    runs = tuple(finished[m.name] for m in ms if m.name in finished)
    return Comparison(game, float(seconds), seed, target, runs, tuple(skipped))


# ----------------------------------------------------------------- deviations
@dataclass(frozen=True)
class Deviations:
    """An exact certificate of a profile: gains, and best responses where they gain.

    ``deviations`` maps ``"P1"``... to ``{infoset label: {action: "p/q"}}``,
    only the infosets where the best response differs from the profile.
    """

    profile: Profile
    evaluation: Evaluation
    deviations: dict[str, dict[str, dict[str, str]]]

    @property
    def equilibrium(self) -> bool:
        """Every gain is 0 (exactly, for an exact profile)."""
        return all(x == 0 for x in self.evaluation.gains)

    def to_json_dict(self) -> dict[str, object]:
        """What ``toypoker verify --json`` prints."""
        return {
            "game": self.profile.game.spec,
            "equilibrium": self.equilibrium,
            **self.evaluation.to_dict(),
            "best_response_deviations": self.deviations,
        }

    def to_csv(self, path: str | Path | None = None) -> str:
        """One row per deviating action probability: player, infoset, action, probability."""
        rows: list[list[object]] = [["player", "infoset", "action", "probability"]]
        for player, infos in self.deviations.items():
            for label, row in infos.items():
                rows += [[player, label, a, x] for a, x in row.items()]
        return _csv(rows, path)


def deviations(game: Game, profile: Profile, evaluation: Evaluation | None = None) -> Deviations:
    """Each player's best response where it gains, at the infosets where it differs.

    Parameters
    ----------
    game, profile
        The game and a profile of it (exact for a certificate).
    evaluation
        ``evaluate(game, profile)`` if already at hand.
    """
    ev = evaluation if evaluation is not None else evaluate(game, profile)
    out: dict[str, dict[str, dict[str, str]]] = {}
    for p, br in enumerate(ev.best_responses):
        if not ev.gains[p] > 0:
            continue
        q = br.as_profile(profile)
        out[f"P{p + 1}"] = {
            i.label: {a: str(q.probs[i.offset + k]) for k, a in enumerate(i.actions)}
            for i in game.infosets_of(p)
            if not i.restricted
            and any(
                q.probs[i.offset + k] != profile.probs[i.offset + k] for k in range(len(i.actions))
            )
        }
    return Deviations(profile, ev, out)


__all__ = [
    "Comparison",
    "Deviations",
    "SeedSpread",
    "VaryingInfoset",
    "compare",
    "deviations",
    "seed_spread",
    "time_to_target",
]
