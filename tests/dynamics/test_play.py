"""Repeated play with estimators (Billingham Sec. 4.2, App. D)."""

import numpy as np
import pytest

from toypoker.dynamics.play import estimator_limits, play

P = 9.0
S3 = (2 / P, 2 / (P + 2), (P * P - 5 * P - 12) / (P * (P + 1)))  # eq. (14)


@pytest.fixture(scope="module")
def fixed_s3():
    return play(
        P=P, L=(1000,) * 3, x0=S3, adapt=False, rounds=1_000_000, seed=11, record_every=1000
    )


def test_estimators_converge_within_sampling_error(fixed_s3):
    r = fixed_s3
    # sampling error of the mean of a window estimate: std / sqrt(independent windows)
    se = r.estimator_std / np.sqrt(r.rounds / 1000)
    truth = np.array([S3[0], S3[0], S3[1], S3[2], S3[1]])
    # (44), (45), (47) converge to Solution 3's frequencies (App. D, Fig. 16)
    for j in (0, 1, 3, 4):
        assert abs(r.estimator_mean[j] - truth[j]) < 4 * se[j]
    # (46) as printed converges to 4c(1+b)/(4+2b+bc) (from App. D's Table 2), not to c:
    lim = estimator_limits(*S3)
    assert lim[2] == pytest.approx(4 * S3[1] * (1 + S3[0]) / (4 + 2 * S3[0] + S3[0] * S3[1]))
    assert abs(r.estimator_mean[2] - lim[2]) < 4 * se[2]
    assert abs(r.estimator_mean[2] - truth[2]) > 8 * se[2]


def test_fixed_frequencies_give_twice_eq_17(fixed_s3):
    # only the 12 deals with P3 holding A or J are played: ex-showdown values double
    want = 2 * np.array(
        [
            -(P - 2) / (12 * P),
            -(P * P - P - 8) / (12 * P * (P + 2)),
            (2 * P * P - P - 12) / (12 * P * (P + 2)),
        ]
    )
    r = fixed_s3
    assert np.all(np.abs(r.expectation - want) < 4 * r.expectation_se)


def test_seeded_and_reproducible():
    a = play(rounds=20000, seed=5, record_every=100)
    b = play(rounds=20000, seed=5, record_every=100)
    c = play(rounds=20000, seed=6, record_every=100)
    assert np.array_equal(a.freqs, b.freqs) and not np.array_equal(a.freqs, c.freqs)
    assert a.freqs.shape == (200, 3) and np.all((a.freqs >= 0) & (a.freqs <= 1))


def test_slow_adaptation_settles_near_solution_2():
    # Sec. 4.2: for k = 0.001 the solution lies close to S2 (Table 1's values ~ Solution 2's)
    r = play(P=P, k=(0.001,) * 3, L=(24,) * 3, rounds=2_000_000, seed=1, record_every=10000)
    late = r.freqs[len(r.freqs) // 2 :].mean(axis=0)
    assert abs(late[2]) < 0.1  # d_Q near 0
    assert late[1] == pytest.approx((P - 5) / (P + 1), abs=0.1)  # c_K near S2's 0.4
