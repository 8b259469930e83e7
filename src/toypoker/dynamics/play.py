"""Repeated play of SKP with frequency estimators (Billingham Sec. 4.2, App. D).

Each round deals one of the twelve deals in which P3 holds A or J (the others
involve no decision), plays SKP with the current frequencies ``(b, c, d)``,
records the betting sequence ``B1..B5`` and deal ``D1..D10`` (eqs. 42-43;
``AJK``, ``AQK`` carry no information), and each player ``p`` re-estimates the
others' frequencies from the last ``L_p`` rounds with the unbiased estimators
(44)-(47) before adjusting its own by the difference equations (27)-(29).

The kernel is compiled with numba: one pass, a ring buffer of outcomes and
per-player windowed counts, about 10^7 rounds in a few seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

# deals as (P3, P1, P2) ranks, J=1 Q=2 K=3 A=4; D1..D10 of eq. (42), then AJK, AQK
DEALS = np.array(
    [
        [4, 1, 2],
        [4, 2, 1],
        [4, 3, 2],
        [4, 3, 1],
        [1, 4, 3],
        [1, 4, 2],
        [1, 3, 4],
        [1, 2, 4],
        [1, 3, 2],
        [1, 2, 3],
        [4, 1, 3],
        [4, 2, 3],
    ],
    dtype=np.int64,
)
SEQUENCES = ("k", "bff", "bcf", "bfc", "bcc")  # B1..B5, eq. (43)


@njit(cache=True)
def _n(counts, i, j):
    """N_{i,j} with the paper's 1-based betting sequence i and deal j."""
    return counts[(i - 1) * 12 + (j - 1)]


@njit(cache=True)
def _estimates(cp, out_prev):
    """(b1, b2, c2, d3, c3) from each player's counts cp[p] (eqs. 44-47)."""
    res = out_prev.copy()
    for p in range(2):  # (44): Players 1 and 2 estimate b
        c = cp[p]
        num = _n(c, 3, 5) + _n(c, 3, 6) + _n(c, 4, 7) + _n(c, 5, 7) + _n(c, 4, 8) + _n(c, 4, 10)
        chk = 0.0
        for j in range(5, 11):
            chk += _n(c, 1, j)
        den = num + 5.0 / 6.0 * chk
        if den > 0:
            res[p] = num / den
    c = cp[1]  # (46): Player 2's estimate of c
    a = _n(c, 3, 3) + _n(c, 3, 4) + _n(c, 3, 9) + _n(c, 5, 7)
    den = a + 2.0 * (_n(c, 2, 2) + _n(c, 2, 4)) + _n(c, 4, 7) + _n(c, 4, 8)
    if den > 0:
        res[2] = 2.0 * a / den
    c = cp[2]  # (45): Player 3's estimate of d
    x = _n(c, 4, 1) + _n(c, 4, 3)
    den = x + _n(c, 2, 1) + _n(c, 2, 2) + _n(c, 2, 3) + _n(c, 2, 4) + _n(c, 2, 9) + _n(c, 4, 9)
    if den > 0:
        res[3] = (2.0 * x + _n(c, 4, 9)) / den
    # (47): Player 3's estimate of c
    num = 2.0 * (_n(c, 3, 3) + _n(c, 3, 4)) + 1.5 * (_n(c, 3, 9) + _n(c, 5, 7))
    den = (
        _n(c, 3, 3)
        + _n(c, 3, 4)
        + _n(c, 3, 9)
        + _n(c, 5, 7)
        + _n(c, 2, 1)
        + _n(c, 2, 2)
        + _n(c, 2, 3)
        + _n(c, 2, 4)
        + _n(c, 4, 1)
        + _n(c, 4, 3)
        + _n(c, 2, 9)
        + _n(c, 4, 7)
        + _n(c, 4, 8)
        + _n(c, 4, 9)
    )
    if den > 0:
        res[4] = num / den
    return res


@njit(cache=True)
def _simulate(P, k, L, x0, n_rounds, rng, record_every, adapt, n_batches):
    b, c, d = x0[0], x0[1], x0[2]
    Lmax = max(L[0], max(L[1], L[2]))
    ring = np.zeros(Lmax, dtype=np.int64)
    cp = np.zeros((3, 60))
    est = np.array([b, b, c, d, c])  # estimates start at the initial frequencies
    n_rec = n_rounds // record_every
    freqs = np.zeros((n_rec, 3))
    ests = np.zeros((n_rec, 5))
    stacks = np.zeros(3)
    batch = np.zeros((n_batches, 3))
    est_sum = np.zeros(5)
    est_sq = np.zeros(5)
    est_n = 0
    batch_len = max(n_rounds // n_batches, 1)
    ante = P / 3.0
    for i in range(n_rounds):
        di = int(12.0 * rng.random())  # uniform over the twelve deals
        r3, r1, r2 = DEALS_[di, 0], DEALS_[di, 1], DEALS_[di, 2]
        bet = r3 == 4 or (r3 == 1 and rng.random() < b)
        pay = np.full(3, -ante)  # players 1, 2, 3
        if not bet:
            seq = 0
            w = 0 if (r1 > r2 and r1 > r3) else (1 if r2 > r3 else 2)
            pay[w] += P
        else:
            pay[2] -= 1.0
            call1 = r1 == 4 or (r1 == 3 and rng.random() < c)
            if call1:
                call2 = r2 == 4
            else:
                call2 = r2 == 4 or r2 == 3 or (r2 == 2 and rng.random() < d)
            pot = P + 1.0
            best, w = r3, 2
            if call1:
                pay[0] -= 1.0
                pot += 1.0
                if r1 > best:
                    best, w = r1, 0
            if call2:
                pay[1] -= 1.0
                pot += 1.0
                if r2 > best:
                    best, w = r2, 1
            pay[w] += pot
            seq = 1 + (1 if call1 else 0) + (2 if call2 else 0)  # bff, bcf, bfc, bcc
        # ex-showdown: minus what the deal pays if everybody checks (Billingham
        # reports these; over the twelve deals simulated they are twice eqs. 15-17)
        w0 = 0 if (r1 > r2 and r1 > r3) else (1 if r2 > r3 else 2)
        pay[w0] -= P
        for p in range(3):
            pay[p] += ante
        stacks += pay
        bi = min(i // batch_len, n_batches - 1)
        batch[bi] += pay
        # observation, windowed counts per player
        o = seq * 12 + di if di < 10 else -1
        slot = i % Lmax
        for p in range(3):
            if i >= L[p]:
                old = ring[(i - L[p]) % Lmax]
                if old >= 0:
                    cp[p, old] -= 1.0
        ring[slot] = o
        if o >= 0:
            for p in range(3):
                cp[p, o] += 1.0
        est = _estimates(cp, est)
        if i >= Lmax:
            est_sum += est
            est_sq += est * est
            est_n += 1
        if adapt:
            # (27)-(29)
            nb = b + k[2] * ((P - 5) / (P + 1) - est[3] - est[4] + est[3] * est[4])
            nc = c + k[0] * (est[0] - 2 / P)
            nd = d + k[1] * ((est[2] - 2) / (P + 1) + est[1] * (1 - est[2]))
            b = min(1.0, max(0.0, nb))
            c = min(1.0, max(0.0, nc))
            d = min(1.0, max(0.0, nd))
        if (i + 1) % record_every == 0:
            freqs[(i + 1) // record_every - 1, 0] = b
            freqs[(i + 1) // record_every - 1, 1] = c
            freqs[(i + 1) // record_every - 1, 2] = d
            ests[(i + 1) // record_every - 1] = est
    return freqs, ests, stacks, batch, est_sum, est_sq, est_n


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


def play(
    P: float = 9.0,
    k=(0.001, 0.001, 0.001),
    L=(24, 24, 24),
    x0=None,
    rounds: int = 1_100_000,
    seed: int = 0,
    record_every: int = 1000,
    adapt: bool = True,
    n_batches: int = 100,
) -> PlayResult:
    """Simulate ``rounds`` rounds of repeated SKP (eqs. 27-29 with 44-47).

    ``k`` and ``L`` are per player (P1, P2, P3); ``x0`` the initial
    ``(b, c, d)`` (default: Solution 3 at ``P``, slightly perturbed).
    ``adapt=False`` keeps the frequencies fixed (the estimator study).
    """
    k = tuple(float(x) for x in np.broadcast_to(k, 3))
    L = tuple(int(x) for x in np.broadcast_to(L, 3))
    if min(L) < 1:
        raise ValueError("memory L must be at least 1")
    if x0 is None:
        x0 = (2 / P + 0.01, 2 / (P + 2), (P * P - 5 * P - 12) / (P * (P + 1)))
    record_every = max(1, min(record_every, rounds))
    freqs, ests, stacks, batch, es, eq, en = _simulate(
        float(P),
        np.array(k),
        np.array(L, dtype=np.int64),
        np.array(x0, dtype=float),
        int(rounds),
        np.random.default_rng(seed),
        int(record_every),
        bool(adapt),
        int(n_batches),
    )
    per_batch = batch / (rounds / n_batches)
    mean = stacks / rounds
    se = per_batch.std(axis=0, ddof=1) / np.sqrt(n_batches)
    em = es / max(en, 1)
    estd = np.sqrt(np.maximum(eq / max(en, 1) - em**2, 0.0))
    return PlayResult(
        float(P),
        k,
        L,
        tuple(x0),
        int(rounds),
        int(seed),
        record_every,
        freqs,
        ests,
        mean,
        se,
        em,
        estd,
    )


# --------------------------------------------------------------- experiments
TABLE1 = {  # Billingham Table 1: (L, k) -> (E1, E2, E3), P = 9, started near S3
    (6, 0.001): (-0.132, -0.098, 0.230),
    (6, 0.01): (-0.134, -0.101, 0.235),
    (12, 0.001): (-0.130, -0.103, 0.234),
    (12, 0.01): (-0.132, -0.105, 0.237),
    (24, 0.001): (-0.129, -0.105, 0.234),
    (24, 0.01): (-0.133, -0.107, 0.241),
    (48, 0.001): (-0.129, -0.105, 0.234),
    (48, 0.01): (-0.138, -0.110, 0.248),
    (96, 0.001): (-0.129, -0.106, 0.235),
    (96, 0.01): (-0.143, -0.112, 0.255),
    (192, 0.001): (-0.130, -0.107, 0.237),
    (192, 0.01): (-0.139, -0.115, 0.254),
}
TABLE1_SOLUTION2 = (-0.130, -0.104, 0.233)  # "the corresponding values for Solution 2"


def _run_one(args: tuple) -> PlayResult:
    P, k, L, rounds, seed, record_every = args
    return play(P=P, k=(k,) * 3, L=(L,) * 3, rounds=rounds, seed=seed, record_every=record_every)


def sweep(
    P: float,
    ks,
    Ls,
    rounds: int,
    seed: int = 0,
    workers: int = 2,
    record_every: int = 10000,
    progress=None,
) -> dict[tuple[int, float], PlayResult]:
    """Repeated play over a (k, L) grid, in parallel on the local cores."""
    from concurrent.futures import ProcessPoolExecutor

    jobs = [
        (float(P), float(k), int(L), int(rounds), seed + 1000 * i + j, record_every)
        for i, L in enumerate(Ls)
        for j, k in enumerate(ks)
    ]
    out = {}
    if workers <= 1:
        for a in jobs:
            out[(a[2], a[1])] = _run_one(a)
            if progress:
                progress()
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for a, r in zip(jobs, pool.map(_run_one, jobs), strict=True):
            out[(a[2], a[1])] = r
            if progress:
                progress()
    return out


def estimator_study(
    P: float = 9.0, Ls=(6, 12, 24, 48, 96, 192), rounds: int = 1_100_000, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Means and standard deviations of the five estimates at fixed Solution 3
    frequencies (App. D, Figs. 16-17); returns (means, stds, truth)."""
    s3 = (2 / P, 2 / (P + 2), (P * P - 5 * P - 12) / (P * (P + 1)))
    means, stds = [], []
    for i, L in enumerate(Ls):
        r = play(
            P=P, L=(L,) * 3, x0=s3, adapt=False, rounds=rounds, seed=seed + i, record_every=rounds
        )
        means.append(r.estimator_mean)
        stds.append(r.estimator_std)
    truth = np.array([s3[0], s3[0], s3[1], s3[2], s3[1]])
    return np.array(means), np.array(stds), truth


def estimator_limits(b: float, c: float, d: float) -> np.ndarray:
    """The large-L limits of the estimates (44)-(47), from the probabilities of
    Table 2 of App. D: what each printed estimator converges to."""
    b1 = 5 * b / (5 * b + 5.0 / 6.0 * 6 * (1 - b))  # (44)
    n33 = n34 = c
    n39 = n57 = b * c
    n22, n24 = 1.0, 1 - c
    n47, n48 = b * (1 - c), b
    c2 = 2 * (n33 + n34 + n39 + n57) / (n33 + n34 + n39 + n57 + 2 * (n22 + n24) + n47 + n48)
    n41, n43, n49 = d, (1 - c) * d, b * (1 - c) * d
    n21, n23, n29 = 1 - d, (1 - c) * (1 - d), b * (1 - c) * (1 - d)
    d3 = (2 * (n41 + n43) + n49) / (n41 + n43 + n21 + n22 + n23 + n24 + n29 + n49)
    c3 = (2 * (n33 + n34) + 1.5 * (n39 + n57)) / (
        n33 + n34 + n39 + n57 + n21 + n22 + n23 + n24 + n41 + n43 + n29 + n47 + n48 + n49
    )
    return np.array([b1, b1, c2, d3, c3])
