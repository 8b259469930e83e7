"""Analyses over solver runs, for Python users and the CLI alike.

* :func:`time_to_target` and :func:`compare` -- several methods for the same
  time budget, NashConv against time and the time each needs to reach a target;
  :func:`read_comparison` -- the finished methods of a saved comparison (what
  ``compare --resume`` keeps), of this format or the unversioned one before it;
* :func:`deviations` -- an exact certificate of a profile: every player's gain
  and, where it is positive, the infosets where a best response differs.

Each returns a frozen object with ``to_json_dict()`` and ``to_csv()``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from toypoker.engines.protocol import Evaluation
from toypoker.errors import ToypokerError
from toypoker.evaluation import evaluate
from toypoker.formats import check_format
from toypoker.game import Game
from toypoker.io import csv_text, read_text_limited
from toypoker.profile import Profile
from toypoker.result import Result, Stopped, TracePoint
from toypoker.solvers.registry import get_method
from toypoker.solvers.solver import Solver

# -------------------------------------------------------------------- compare
COMPARISON_FORMAT = "toypoker-comparison/1"
"""The format of a saved comparison (:meth:`Comparison.to_json_dict`).  Files without a
``format`` are the layout before it (``toypoker compare --result`` until 2026-11-29:
``seconds_to_1e-3`` where this has ``seconds_to_target``, no ``target`` or
``skipped``), read by :func:`read_comparison` all the same."""

MAX_COMPARISON_BYTES = 64 * 2**20
"""The largest comparison file :func:`read_comparison` reads (a trace a check)."""


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
        """Its format (:data:`COMPARISON_FORMAT`), game, budget, seed, target, the
        skipped methods and one row per method (:meth:`rows`)."""
        return {
            "format": COMPARISON_FORMAT,
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
        return csv_text(rows, path)


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


def read_comparison(path: str | Path, spec: str, seconds: float) -> dict[str, MethodRun]:
    """The finished methods of a comparison saved in ``path`` (:meth:`Comparison.to_json_dict`,
    or the unversioned layout before :data:`COMPARISON_FORMAT`), by name: what
    :func:`compare` takes as ``done`` to run only the others.

    Raises
    ------
    ToypokerError
        One line: unreadable; another format; not a comparison; or a comparison of
        another game (``spec``, canonical) or budget (``seconds``).
    """
    not_it = f"{path} is not the results of a compare (the JSON its --result writes)"
    text = read_text_limited(Path(path), MAX_COMPARISON_BYTES, "the comparison")  # one line
    try:
        data = json.loads(text)
        found = data.get("format")
    except (ValueError, AttributeError):
        raise ToypokerError(not_it) from None
    check_format(found, COMPARISON_FORMAT, path, "the comparison")  # another: one line
    try:
        runs = {row["method"]: MethodRun.from_json_dict(row) for row in data["methods"]}
        game, budget = data["game"], data["seconds"]
    except ToypokerError as exc:  # a method run that is not one
        raise ToypokerError(f"{not_it}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise ToypokerError(not_it) from None
    if game != spec or budget != seconds:
        raise ToypokerError(f"{path} compares {game} for {budget} s, not {spec} for {seconds:g} s")
    return runs


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
        return csv_text(rows, path)


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
    "compare",
    "deviations",
    "time_to_target",
]
