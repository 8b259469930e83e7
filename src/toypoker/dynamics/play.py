"""Repeated play of SKP with frequency estimators (Billingham Sec. 4.2, App. D).

Each round deals one of the twelve deals in which P3 holds A or J (the others
involve no decision), plays SKP with the current frequencies ``(b, c, d)``,
records the betting sequence ``B1..B5`` and deal ``D1..D10`` (eqs. 42-43;
``AJK``, ``AQK`` carry no information), and each player ``p`` re-estimates the
others' frequencies from the last ``L_p`` rounds with the estimators (44)-(47)
before adjusting its own by the difference equations (27)-(29).

Player 2's estimate of ``c_K`` is eq. (46) corrected by default (the printed
form is biased: :func:`toypoker.literature.papers.billingham.c2_estimator`);
``estimator="printed"`` reproduces the paper as printed.

The kernel is compiled with numba: one pass, a ring buffer of outcomes and
per-player windowed counts, run in chunks of rounds (:data:`CHUNK_ROUNDS`: progress and
Ctrl-C are heard between them) that carry the state and the random stream on, so the
run is the same however it is cut; the round loop allocates nothing (its rounds per second
are in ``benchmarks/results/peers.md``, from ``benchmarks/bench_dynamics.py``).  The
estimators are the very functions of :mod:`toypoker.literature.papers.billingham`,
compiled.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.formats import FormatError, check_format
from toypoker.io import atomic_write_bytes, npz_reason
from toypoker.jit import njit
from toypoker.literature.papers import billingham

ESTIMATORS = ("corrected", "printed")  # Player 2's c_K estimate: eq. (46) corrected / as printed

#: the format of a saved run (:meth:`PlayResult.save`: the ``.npz``'s ``format`` entry,
#: UTF-8 bytes as ``meta``); a run without one (written before toypoker versioned it) is
#: read as it was
PLAY_RUN_FORMAT = "toypoker-play-run/1"

# deals as (P3, P1, P2) ranks, J=1 Q=2 K=3 A=4; D1..D10 of eq. (42), then AJK, AQK
DEALS = np.array(
    [[4, 1, 2], [4, 2, 1], [4, 3, 2], [4, 3, 1], [1, 4, 3], [1, 4, 2], [1, 3, 4], [1, 2, 4],
     [1, 3, 2], [1, 2, 3], [4, 1, 3], [4, 2, 3]], dtype=np.int64,
)  # fmt: skip

# App. D's estimators (44)-(47), compiled from their one definition
_b_est = njit()(billingham.b_estimator)
_d_est = njit()(billingham.d_estimator)
_c2_est = njit()(billingham.c2_estimator)
_c3_est = njit()(billingham.c3_estimator)


@njit
def _ratio(num, den, prev, clip):
    """``num/den`` (the previous estimate while ``den`` is 0), clipped to [0, 1] if asked."""
    if den <= 0:
        return prev
    x = num / den
    if clip:
        x = min(1.0, max(0.0, x))
    return x


@njit
def _estimates(cp, est, corrected, clip):
    """(b1, b2, c2, d3, c3) from each player's counts ``cp[p][i, j] = N^p_{i,j}``, into ``est``.

    ``est`` holds the previous estimates (kept where a denominator is 0).
    """
    for p in range(2):  # (44): Players 1 and 2 estimate b
        num, den = _b_est(cp[p])
        est[p] = _ratio(num, den, est[p], clip)
    num, den = _c2_est(cp[1], corrected)  # (46): Player 2's estimate of c
    est[2] = _ratio(num, den, est[2], clip)
    num, den = _d_est(cp[2])  # (45): Player 3's estimate of d
    est[3] = _ratio(num, den, est[3], clip)
    num, den = _c3_est(cp[2])  # (47): Player 3's estimate of c
    est[4] = _ratio(num, den, est[4], clip)


@njit
def _simulate(P, k, L, n_rounds, stop, rng, record_every, adapt, n_batches, corrected, clip,
              now, ring, cp, est, freqs, ests, stacks, batch, est_sum, est_sq, pos):  # fmt: skip
    # Kept whole: one compiled loop (numba); splitting it costs a call and the unboxing
    # of its arguments per call.  Rounds pos[0]..stop-1 of a run of n_rounds, from the
    # state the rounds before left (now: b, c, d; the arrays and counters of _start),
    # updated in place; rng goes on with its stream: cut anywhere, the run is the same.
    # The round loop allocates nothing and divides nothing: payoffs are three
    # scalars, the estimates are updated in place, and the ring slot, batch and
    # record positions are counters (the same numbers as
    # ``i % Lmax``, ``i // batch_len`` and ``(i + 1) % record_every``).
    b, c, d = now[0], now[1], now[2]
    Lmax = ring.shape[0]
    cpf = cp.reshape((3, 66))  # the same counts, flat index 11 i + j
    batch_len = max(n_rounds // n_batches, 1)
    ante = P / 3.0
    slot, bi, in_batch = pos[1], pos[2], pos[3]  # i % Lmax, batch, i % batch_len
    rec, to_rec, est_n = pos[4], pos[5], pos[6]  # records, rounds to the next one, means
    for i in range(pos[0], stop):
        di = int(12.0 * rng.random())  # uniform over the twelve deals
        r3, r1, r2 = DEALS_[di, 0], DEALS_[di, 1], DEALS_[di, 2]
        bet = r3 == 4 or (r3 == 1 and rng.random() < b)
        pay0 = -ante  # players 1, 2, 3
        pay1 = -ante
        pay2 = -ante
        if not bet:
            seq = 0
            if r1 > r2 and r1 > r3:
                pay0 += P
            elif r2 > r3:
                pay1 += P
            else:
                pay2 += P
        else:
            pay2 -= 1.0
            call1 = r1 == 4 or (r1 == 3 and rng.random() < c)
            if call1:
                call2 = r2 == 4
            else:
                call2 = r2 == 4 or r2 == 3 or (r2 == 2 and rng.random() < d)
            pot = P + 1.0
            best, w = r3, 2
            if call1:
                pay0 -= 1.0
                pot += 1.0
                if r1 > best:
                    best, w = r1, 0
            if call2:
                pay1 -= 1.0
                pot += 1.0
                if r2 > best:
                    best, w = r2, 1
            if w == 0:
                pay0 += pot
            elif w == 1:
                pay1 += pot
            else:
                pay2 += pot
            seq = 1 + (1 if call1 else 0) + (2 if call2 else 0)  # bff, bcf, bfc, bcc
        # ex-showdown: minus what the deal pays if everybody checks (Billingham
        # reports these; over the twelve deals simulated they are twice eqs. 15-17)
        if r1 > r2 and r1 > r3:
            pay0 -= P
        elif r2 > r3:
            pay1 -= P
        else:
            pay2 -= P
        pay0 += ante
        pay1 += ante
        pay2 += ante
        stacks[0] += pay0
        stacks[1] += pay1
        stacks[2] += pay2
        batch[bi, 0] += pay0
        batch[bi, 1] += pay1
        batch[bi, 2] += pay2
        in_batch += 1
        if in_batch == batch_len and bi < n_batches - 1:
            bi += 1
            in_batch = 0
        # observation, windowed counts per player
        o = (seq + 1) * 11 + di + 1 if di < 10 else -1  # flat index of N_{seq+1, di+1}
        for p in range(3):
            if i >= L[p]:
                j = slot - L[p]  # (i - L[p]) % Lmax
                if j < 0:
                    j += Lmax
                old = ring[j]
                if old >= 0:
                    cpf[p, old] -= 1.0
        ring[slot] = o
        slot += 1
        if slot == Lmax:
            slot = 0
        if o >= 0:
            cpf[0, o] += 1.0
            cpf[1, o] += 1.0
            cpf[2, o] += 1.0
        _estimates(cp, est, corrected, clip)
        if i >= Lmax:
            for x in range(5):
                est_sum[x] += est[x]
                est_sq[x] += est[x] * est[x]
            est_n += 1
        if adapt:
            # (27)-(29)
            nb = b + k[2] * ((P - 5) / (P + 1) - est[3] - est[4] + est[3] * est[4])
            nc = c + k[0] * (est[0] - 2 / P)
            nd = d + k[1] * ((est[2] - 2) / (P + 1) + est[1] * (1 - est[2]))
            b = min(1.0, max(0.0, nb))
            c = min(1.0, max(0.0, nc))
            d = min(1.0, max(0.0, nd))
        to_rec -= 1
        if to_rec == 0:
            to_rec = record_every
            freqs[rec, 0] = b
            freqs[rec, 1] = c
            freqs[rec, 2] = d
            for x in range(5):
                ests[rec, x] = est[x]
            rec += 1
    now[0], now[1], now[2] = b, c, d
    pos[0], pos[1], pos[2], pos[3] = max(pos[0], stop), slot, bi, in_batch
    pos[4], pos[5], pos[6] = rec, to_rec, est_n


DEALS_ = DEALS  # a module-level array numba can freeze


@dataclass(frozen=True)
class PlayResult:
    """A repeated-play run; ``freqs[t] = (b, c, d)`` every ``record_every`` rounds."""

    P: float
    k: tuple[float, float, float]
    L: tuple[int, int, int]
    x0: tuple[float, float, float]
    rounds: int
    seed: int
    record_every: int
    freqs: np.ndarray
    estimates: np.ndarray  # (b1, b2, c2, d3, c3) at the same times
    expectation: np.ndarray  # realised ex-showdown payoff per round, P1..P3
    expectation_se: np.ndarray  # Monte Carlo standard error (batch means)
    estimator_mean: np.ndarray
    estimator_std: np.ndarray
    batch_means: np.ndarray  # (n_batches, 3): mean payoff per round in each batch, in order
    estimator: str = "corrected"
    clip: bool = False

    def expectation_after(self, burn_in: float) -> np.ndarray:
        """The mean payoff per round without the first ``burn_in`` fraction of the run
        (whole batches)."""
        if not 0 <= burn_in < 1:
            raise ToypokerError("burn-in must be a fraction in [0, 1)")
        skip = int(round(burn_in * len(self.batch_means)))
        return self.batch_means[skip:].mean(axis=0)

    def save(self, path: str | Path) -> None:
        """Write the run to ``path`` (``.npz``: arrays, the scalars as JSON and the format
        :data:`PLAY_RUN_FORMAT`), atomically."""
        arrays, meta = {}, {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, np.ndarray):
                arrays[f.name] = v
            else:
                meta[f.name] = list(v) if isinstance(v, tuple) else v
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
        arrays["format"] = np.frombuffer(PLAY_RUN_FORMAT.encode(), dtype=np.uint8)
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        atomic_write_bytes(path, buf.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> PlayResult:
        """A run written by :meth:`save`; ToypokerError (one line) if the file is not one,
        or is of a format other than :data:`PLAY_RUN_FORMAT` (a file without one is read
        as it was)."""
        try:
            with np.load(path, allow_pickle=False) as z:
                if "format" in z.files:
                    check_format(bytes(z["format"]).decode(), PLAY_RUN_FORMAT, path, "the play run")
                meta = json.loads(bytes(z["meta"]).decode())
                kw = {f.name: z[f.name] for f in fields(cls) if f.name in z.files}
            for name in ("k", "L", "x0"):
                meta[name] = tuple(meta[name])
            return cls(**meta, **kw)
        except FormatError:
            raise  # one line naming the file already
        except Exception as exc:  # a zip, JSON or field error: one line naming the file
            raise ToypokerError(f"cannot read the play run {path}: {npz_reason(exc)}") from None


MAX_MEMORY = 10**6
"""Longest memory ``L`` (rounds) :func:`play` keeps (a ring buffer of ``L`` rounds)."""

MAX_RECORDS = 10**7
"""Most records :func:`play` keeps (``rounds // record_every`` of them, 64 bytes each)."""


def solution3_start(P: float) -> tuple[float, float, float]:
    """The default start of repeated play: Solution 3 (eq. 14) with ``b_J`` raised by
    0.01 ("initial conditions close to S3", Sec. 4.2)."""
    s3, _ = billingham.skp_solution(float(P), 3)
    return (s3["b_J"] + 0.01, s3["c_K"], s3["d_Q"])


CHUNK_ROUNDS = 1 << 21
"""Rounds :func:`play` simulates in one compiled call (about a fifth of a second): between
two calls it reports progress, and a Ctrl-C or SIGTERM is taken."""


def _start(
    x0: Sequence[float], L: tuple[int, ...], n_rec: int, n_batches: int, record_every: int
) -> tuple[np.ndarray, ...]:
    """A run's state before its first round (``_simulate``'s last arguments, carried from
    chunk to chunk): frequencies, ring, counts, estimates, records, sums and counters (next
    round, ring slot, batch, rounds in it, records, rounds to the next, rounds averaged)."""
    b, c, d = (float(v) for v in x0)
    return (
        np.array([b, c, d]), np.zeros(max(L), dtype=np.int64), np.zeros((3, 6, 11)),
        np.array([b, b, c, d, c]), np.zeros((n_rec, 3)), np.zeros((n_rec, 5)), np.zeros(3),
        np.zeros((n_batches, 3)), np.zeros(5), np.zeros(5),
        np.array([0, 0, 0, 0, 0, record_every, 0], dtype=np.int64),
    )  # fmt: skip


def play(
    P: float = 9.0,
    k: float | Sequence[float] = (0.001, 0.001, 0.001),
    L: int | Sequence[int] = (24, 24, 24),
    x0: Sequence[float] | None = None,
    rounds: int = 1_100_000,
    seed: int = 0,
    record_every: int = 1000,
    adapt: bool = True,
    n_batches: int = 100,
    estimator: str = "corrected",
    clip: bool = False,
    progress: Callable[[int], None] | None = None,
    chunk: int = CHUNK_ROUNDS,
) -> PlayResult:
    """Simulate ``rounds`` rounds of repeated SKP (eqs. 27-29 with 44-47).

    Parameters
    ----------
    P
        The pot.
    k, L
        Adaptation rates and memories per player (P1, P2, P3), or one for all.
    x0
        The initial ``(b, c, d)``; default :func:`solution3_start`.
    rounds, seed
        Length of the run and the seed of its random stream.
    record_every
        Record frequencies and estimates every this many rounds.
    adapt
        ``False`` keeps the frequencies fixed (the estimator study).
    n_batches
        Batches for the batch-means standard error of the expectations.
    estimator
        Player 2's estimate of ``c_K``: ``"corrected"`` (unbiased, the default)
        or ``"printed"`` (eq. (46) as printed).
    clip
        Clip every estimate to [0, 1] (the ratio estimators can exceed 1 at small L).
    progress
        Called as ``progress(rounds_done)`` after each chunk of rounds but the last; it
        may raise (e.g. ``KeyboardInterrupt``) to stop the run there.
    chunk
        Rounds simulated in one compiled call (default :data:`CHUNK_ROUNDS`).  The
        random stream goes on from chunk to chunk: the run is the same, bit for bit,
        whatever the chunk.

    Returns
    -------
    PlayResult
    """
    if estimator not in ESTIMATORS:
        raise ToypokerError(f"unknown estimator {estimator!r}; known: {', '.join(ESTIMATORS)}")
    k = tuple(float(x) for x in np.broadcast_to(k, 3))
    L = tuple(int(x) for x in np.broadcast_to(L, 3))
    if not 1 <= min(L) <= max(L) <= MAX_MEMORY:
        raise ToypokerError(
            f"memory L must be at least 1 and at most {MAX_MEMORY:,} rounds, got {L}"
        )
    if rounds < n_batches:
        raise ToypokerError(f"need at least {n_batches} rounds (one per batch)")
    record_every = max(1, min(record_every, rounds))
    if rounds // record_every > MAX_RECORDS:  # the arrays are allocated at once
        raise ToypokerError(
            f"{rounds:,} rounds recorded every {record_every:,} make "
            f"{rounds // record_every:,} records; at most {MAX_RECORDS:,} (record less often)"
        )
    if x0 is None:
        x0 = solution3_start(P)
    state = _start(x0, L, rounds // record_every, n_batches, record_every)
    pos = state[-1]  # pos[0]: the rounds done
    rng = np.random.default_rng(seed)
    args = (float(P), np.array(k), np.array(L, dtype=np.int64), int(rounds))
    options = (int(record_every), bool(adapt), int(n_batches), estimator == "corrected",
               bool(clip))  # fmt: skip
    step = max(1, int(chunk))
    while pos[0] < rounds:
        if pos[0] and progress is not None:
            progress(int(pos[0]))
        _simulate(*args, min(rounds, int(pos[0]) + step), rng, *options, *state)
    freqs, ests, stacks, batch, est_sum, est_sq, _ = state[4:]
    per_batch = batch / (rounds / n_batches)
    em, en = est_sum / max(pos[6], 1), max(pos[6], 1)
    return PlayResult(
        float(P), k, L, tuple(float(v) for v in x0), int(rounds), int(seed), record_every,
        freqs, ests, stacks / rounds, per_batch.std(axis=0, ddof=1) / np.sqrt(n_batches), em,
        np.sqrt(np.maximum(est_sq / en - em**2, 0.0)), per_batch, estimator, bool(clip),
    )  # fmt: skip


_RUN_FIELDS = {
    "P": "pot", "k": "rates k", "L": "memories L", "x0": "start", "rounds": "rounds",
    "seed": "seed", "record_every": "record interval", "estimator": "estimator", "clip": "clip",
}  # fmt: skip


def _asked(job: dict) -> dict[str, object]:
    """The fields of the run ``play(**job)`` returns that a run store compares, as that
    run holds them (``x0`` ``None``: any start)."""
    rounds = int(job["rounds"])
    return {
        "P": float(job["P"]),
        "k": tuple(float(x) for x in np.broadcast_to(job["k"], 3)),
        "L": tuple(int(x) for x in np.broadcast_to(job["L"], 3)),
        "x0": None if job["x0"] is None else tuple(float(v) for v in job["x0"]),
        "rounds": rounds,
        "seed": int(job["seed"]),
        "record_every": max(1, min(int(job["record_every"]), rounds)),
        "estimator": job["estimator"],
        "clip": bool(job["clip"]),
    }


def run_differs(r: PlayResult, job: dict) -> str | None:
    """What makes the kept run ``r`` another run than ``play(**job)`` (``job``: its
    keywords ``P, k, L, x0, rounds, seed, record_every, estimator, clip``), in a few words
    (``"rounds 20,000, not 30,000"``); ``None`` when it is that run."""

    def shown(v: object) -> str:
        return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else f"{v}"

    for name, want in _asked(job).items():
        have = getattr(r, name)
        if want is not None and have != want:
            return f"{_RUN_FIELDS[name]} {shown(have)}, not {shown(want)}"
    return None
