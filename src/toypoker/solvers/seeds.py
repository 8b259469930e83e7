"""Seeds of a sampling method: :func:`seed_spread` runs one method with consecutive
seeds (each checkpointed and resumable, with a team's evaluation if asked) and
:class:`SeedSpread` summarises how far the solutions spread."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from toypoker.errors import Interrupted, ToypokerError
from toypoker.game import Game
from toypoker.interrupts import deferred_interrupts
from toypoker.io import csv_text
from toypoker.result import Result, Stopped
from toypoker.solvers.registry import get_method
from toypoker.solvers.run import solve

__all__ = ["SeedSpread", "VaryingInfoset", "seed_spread", "seeded"]


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
    """Runs of one method with consecutive seeds and the spread of their solutions.

    ``stopped`` is the run an interrupt stopped (its state in its checkpoint, when the
    batch has one): the spread is then over the seeds finished before it."""

    game: Game
    method: str
    iterations: int | None
    runs: tuple[Result, ...]
    varying: tuple[VaryingInfoset, ...]  # spread above the threshold, largest first
    stopped: Result | None = None

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
        stopped: Result | None = None,
    ) -> SeedSpread:
        """The spread of runs made elsewhere (e.g. one at a time, resumable).

        An infoset "varies" when the probability of its last action spans more
        than ``threshold`` across the runs; restricted infosets never vary.
        """
        if not runs:
            if stopped is not None:  # stopped in the first seed: nothing to spread
                return cls(game, method, iterations, (), (), stopped)
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
        return cls(game, method, iterations, tuple(runs), varying, stopped)

    def to_csv(self, path: str | Path | None = None) -> str:
        """One row per seed: seed, NashConv, each player's value."""
        head = ["seed", "nash_conv"] + [f"value_P{p + 1}" for p in range(self.game.n_players)]
        rows = [[r.seed, r.nash_conv, *r.values] for r in self.runs]
        return csv_text([head, *rows], path)


def seeded(path: str | Path | None, seed: int) -> Path | None:
    """``p.npz`` -> ``p-seed3.npz``: the file of one seed of a batch."""
    return (
        None
        if path is None
        else Path(path).with_name(f"{Path(path).stem}-seed{seed}{Path(path).suffix}")
    )


def seed_spread(
    game: Game,
    method: str,
    seeds: int,
    *,
    first: int = 0,
    iterations: int | None = 1000,
    target_nash_conv: float | None = None,
    seconds: float | None = None,
    threshold: float = 0.02,
    checkpoint: str | Path | None = None,
    resume: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    on_run: Callable[[Result], None] | None = None,
    **options: object,
) -> SeedSpread:
    """Run a sampling ``method`` with seeds ``first .. first + seeds - 1`` and
    summarise the spread of the solutions (the experiment behind Szafron et al.'s
    family of equilibria).

    Parameters
    ----------
    game, method
        The game and a sampling method (``es-mccfr``, ``os-mccfr``, ``pcs-cfr+``).
    seeds
        Number of seeds (at least 1).
    first
        The first seed.
    iterations, target_nash_conv, seconds, **options
        Budgets and options of every run, a team's evaluation included (see
        :func:`~toypoker.solvers.solve`).
    threshold
        An infoset "varies" when its last action's probability spans more than this.
    checkpoint
        Each seed ``s`` is checkpointed as ``seeded(checkpoint, s)`` (``ck-seed3.npz``).
    resume
        Continue each seed from ``seeded(resume, s)`` where that file exists (a seed
        without one starts afresh): after an interrupt, the same call goes on.
    progress
        Called with the number of finished runs.
    on_run
        Called with each finished run (e.g. to save its profile).

    Returns
    -------
    SeedSpread
        Its ``stopped`` is the run an interrupt (Ctrl-C, SIGTERM) stopped, when one
        did (or the run that was ending as the signal came, its budget met): the seeds
        after it were not run, and its checkpoint resumes it.
    """
    m = get_method(method)
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise ToypokerError(f"seeds must be at least 1, got {seeds}")
    if not m.stochastic:
        raise ToypokerError(f"{method} is deterministic: every seed gives the same run")
    runs: list[Result] = []
    # a signal that lands as a seed's run ends (its budget met first) still stops the
    # batch: the enclosing block hears every signal the run's own block hears
    with deferred_interrupts() as flag:
        for s in range(first, first + seeds):
            previous = seeded(resume, s)
            try:
                r = solve(
                    game, method, iterations, target_nash_conv, seconds, seed=s,
                    checkpoint=seeded(checkpoint, s),
                    resume=previous if previous is not None and previous.exists() else None,
                    **options,
                )  # fmt: skip
            except Interrupted as exc:  # the batch stops with the runs it finished
                r = exc.result
            if r.stopped == Stopped.INTERRUPTED or flag.requested:
                return SeedSpread.from_runs(game, method, iterations, runs, threshold, stopped=r)
            runs.append(r)
            if on_run is not None:
                on_run(r)
            if progress is not None:
                progress(len(runs))
    return SeedSpread.from_runs(game, method, iterations, runs, threshold)
