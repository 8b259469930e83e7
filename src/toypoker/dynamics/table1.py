"""Billingham's Table 1 reproduced: repeated play over (L, k) beside the published
ex-showdown expectations, with Monte Carlo errors and z-scores.

:func:`table1` runs the grid (a process pool; ``seeds`` independent runs per
cell) and returns a frozen :class:`Table1Comparison` with one
:class:`Table1Row` per cell, a plain-language reading, ``to_json_dict()`` and
``to_csv()``.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from toypoker.dynamics.estimators import play_sweep
from toypoker.dynamics.play import ESTIMATORS, PlayResult
from toypoker.errors import ToypokerError
from toypoker.io import atomic_write_text
from toypoker.literature.papers import billingham

ROUNDING = 0.0005  # Table 1 is printed to three decimals
AGREE = 0.005  # agreement: within 0.005 of the published value
Z_AGREE = 2.0  # "within error": |diff| <= 2 combined standard errors


@dataclass(frozen=True)
class Table1Row:
    """One (L, k) cell: our mean ex-showdown expectations (P1, P2, P3) and the paper's.

    ``se`` is the standard error of ``ours`` (from independent seeds when there
    are two or more, else batch means of the one run); ``run_sd`` the spread of
    a single run (standard deviation over seeds; ``nan`` with one seed).
    ``z = |ours - published| / sqrt(se^2 + 0.0005^2/3)`` (the paper's rounding
    as a uniform error).
    """

    L: int
    k: float
    ours: tuple[float, float, float]
    se: tuple[float, float, float]
    run_sd: tuple[float, float, float]
    published: tuple[float, float, float] | None
    seeds: int

    @property
    def diff(self) -> tuple[float, float, float] | None:
        """``ours - published`` per player."""
        if self.published is None:
            return None
        return tuple(o - p for o, p in zip(self.ours, self.published, strict=True))

    @property
    def z(self) -> tuple[float, float, float] | None:
        """``|ours - published|`` in combined standard errors, per player."""
        if self.published is None:
            return None
        return tuple(
            abs(d) / float(np.hypot(s, ROUNDING / np.sqrt(3)))
            for d, s in zip(self.diff, self.se, strict=True)
        )

    @property
    def within_0005(self) -> bool | None:
        """Every player's value within 0.005 of the published one."""
        return None if self.published is None else all(abs(d) <= AGREE for d in self.diff)

    @property
    def within_error(self) -> bool | None:
        """Every player's ``z`` at most 2."""
        return None if self.published is None else all(z <= Z_AGREE for z in self.z)


@dataclass(frozen=True)
class Table1Comparison:
    """Table 1 recomputed beside the published values.

    ``runs`` holds every run, ``{(L, k): (run per seed, ...)}`` (for figures;
    left out of :meth:`to_json_dict`).
    """

    P: float
    rounds: int
    seeds: int
    estimator: str
    clip: bool
    burn_in: float
    common_seed: bool
    rows: tuple[Table1Row, ...]
    runs: dict[tuple[int, float], tuple[PlayResult, ...]] = field(repr=False, compare=False)

    @property
    def reading(self) -> str:
        """A plain-language reading: which rows agree within 0.005 and within error."""
        pub = [r for r in self.rows if r.published is not None]
        if not pub:
            return f"no published values to compare with (Table 1 is for P = {billingham.TABLE1_P})"
        cell = [f"(L={r.L}, k={r.k:g})" for r in pub]
        near = [c for c, r in zip(cell, pub, strict=True) if r.within_0005]
        err = [c for c, r in zip(cell, pub, strict=True) if r.within_error]

        def others(good: list[str]) -> str:
            rest = [c for c in cell if c not in good]
            return f"; not: {', '.join(rest)}" if rest else ""

        lines = [
            f"{self.estimator} estimator of (46){', clipped to [0, 1]' if self.clip else ''}, "
            f"{self.rounds:,} rounds x {self.seeds} seed(s) per row:",
            f"{len(near)} of {len(pub)} rows within 0.005 of Table 1 in every player"
            + others(near),
            f"{len(err)} of {len(pub)} rows within error (|z| <= 2 for every player)" + others(err),
        ]
        diffs = np.array([r.diff for r in pub])
        zs = np.array([r.z for r in pub])
        for p in range(3):
            pos = int(np.sum(diffs[:, p] > 0))
            lines.append(
                f"P{p + 1}: mean difference {diffs[:, p].mean():+.4f}, largest "
                f"|difference| {np.abs(diffs[:, p]).max():.4f} (z up to {zs[:, p].max():.1f}); "
                f"ours above the paper in {pos} of {len(pub)} rows"
            )
        return "\n".join(lines)

    def to_json_dict(self) -> dict[str, object]:
        """Everything but the runs, as plain JSON types."""
        return {
            "P": self.P,
            "rounds": self.rounds,
            "seeds": self.seeds,
            "estimator": self.estimator,
            "clip": self.clip,
            "burn_in": self.burn_in,
            "common_seed": self.common_seed,
            "rows": [
                {
                    "L": r.L,
                    "k": r.k,
                    "ours": list(r.ours),
                    "se": list(r.se),
                    "run_sd": [None if np.isnan(x) else x for x in r.run_sd],
                    "published": None if r.published is None else list(r.published),
                    "diff": None if r.diff is None else list(r.diff),
                    "z": None if r.z is None else list(r.z),
                    "within_0005": r.within_0005,
                    "within_error": r.within_error,
                }
                for r in self.rows
            ],
            "reading": self.reading,
        }

    def to_csv(self, path: str | Path | None = None) -> str:
        """One line per (L, k, player); written atomically to ``path`` if given."""
        buf = io.StringIO()
        buf.write("L,k,player,ours,se,run_sd,published,diff,z\n")
        for r in self.rows:
            for p in range(3):
                pub = "" if r.published is None else f"{r.published[p]:.3f}"
                diff = "" if r.diff is None else f"{r.diff[p]:.6f}"
                z = "" if r.z is None else f"{r.z[p]:.3f}"
                buf.write(
                    f"{r.L},{r.k:g},P{p + 1},{r.ours[p]:.6f},{r.se[p]:.6f},"
                    f"{r.run_sd[p]:.6f},{pub},{diff},{z}\n"
                )
        text = buf.getvalue()
        if path is not None:
            atomic_write_text(path, text)
        return text


def _row(L: int, k: float, runs: Sequence[PlayResult], burn_in: float, P: float) -> Table1Row:
    if burn_in:
        vals = np.array([r.expectation_after(burn_in) for r in runs])
    else:
        vals = np.array([r.expectation for r in runs])
    if len(runs) >= 2:
        sd = vals.std(axis=0, ddof=1)
        se = sd / np.sqrt(len(runs))
    else:
        bm = runs[0].batch_means[int(round(burn_in * len(runs[0].batch_means))) :]
        se = bm.std(axis=0, ddof=1) / np.sqrt(len(bm))
        sd = np.full(3, np.nan)
    pub = billingham.TABLE1.get((L, k)) if P == billingham.TABLE1_P else None
    return Table1Row(
        int(L),
        float(k),
        tuple(float(x) for x in vals.mean(axis=0)),
        tuple(float(x) for x in se),
        tuple(float(x) for x in sd),
        pub,
        len(runs),
    )


def table1(
    P: float = 9.0,
    ks: Sequence[float] = (0.001, 0.01),
    Ls: Sequence[int] = (6, 12, 24, 48, 96, 192),
    rounds: int = 11_000_000,
    *,
    seeds: int = 1,
    seed: int = 0,
    workers: int = 2,
    estimator: str = "corrected",
    clip: bool = False,
    burn_in: float = 0.0,
    x0: Sequence[float] | None = None,
    common_seed: bool = False,
    record_every: int = 10000,
    progress: Callable[[], None] | None = None,
    checkpoint: str | Path | None = None,
) -> Table1Comparison:
    """Repeated play started near S3 over the (L, k) grid, beside Billingham's Table 1.

    Parameters
    ----------
    P, ks, Ls, rounds
        Pot, adaptation rates, memories and rounds per run (the paper: P = 9,
        k in {0.001, 0.01}, L in {6, ..., 192}, 1.1 x 10^7 rounds).
    seeds
        Independent runs per cell; their mean is ``ours`` and their spread gives
        the standard error (one seed: batch means of the run).
    seed
        Base seed (run ``s`` of cell ``(L_i, k_j)``: ``seed + 1000 i + j + 100000 s``).
    workers
        Processes of the pool.
    estimator, clip
        Player 2's estimate of ``c_K`` (``"corrected"`` or ``"printed"`` eq. 46) and
        whether estimates are clipped to [0, 1].
    burn_in
        Fraction of each run left out of the expectations.
    x0
        Start ``(b, c, d)`` (default: near Solution 3, as in the paper).
    common_seed
        The same random stream in every cell (common random numbers).
    record_every, progress
        Recording interval of the frequencies; a callback after each finished run.
    checkpoint
        A folder keeping each finished run (see :func:`~toypoker.dynamics.estimators.play_sweep`; a
        ``.npz`` of format :data:`~toypoker.dynamics.play.PLAY_RUN_FORMAT`): a rerun with
        the same arguments continues an interrupted table.

    Returns
    -------
    Table1Comparison
    """
    if estimator not in ESTIMATORS:
        raise ToypokerError(f"unknown estimator {estimator!r}; known: {', '.join(ESTIMATORS)}")
    if not 0 <= burn_in < 1:
        raise ToypokerError("burn-in must be a fraction in [0, 1)")
    runs = play_sweep(
        P,
        ks,
        Ls,
        rounds,
        seed=seed,
        workers=workers,
        record_every=record_every,
        progress=progress,
        estimator=estimator,
        clip=clip,
        seeds=seeds,
        x0=x0,
        common_seed=common_seed,
        checkpoint=checkpoint,
    )
    rows = tuple(
        _row(int(L), float(k), runs[(int(L), float(k))], burn_in, float(P)) for L in Ls for k in ks
    )
    return Table1Comparison(
        float(P), int(rounds), int(seeds), estimator, bool(clip), float(burn_in), common_seed,
        rows, runs,
    )  # fmt: skip
