"""Repeated play with estimators (Billingham Sec. 4.2, App. D)."""

import numpy as np
import pytest

from toypoker.dynamics.estimators import estimator_limits
from toypoker.dynamics.play import play, solution3_start
from toypoker.dynamics.table1 import table1
from toypoker.errors import ToypokerError

P = 9.0
S3 = (2 / P, 2 / (P + 2), (P * P - 5 * P - 12) / (P * (P + 1)))  # eq. (14)


@pytest.fixture(scope="module")
def fixed_s3():
    # eq. (46) as printed (the paper's simulation as written)
    return play(
        P=P,
        L=(1000,) * 3,
        x0=S3,
        adapt=False,
        rounds=1_000_000,
        seed=11,
        record_every=1000,
        estimator="printed",
    )


@pytest.fixture(scope="module")
def fixed_s3_corrected():
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
    lim = estimator_limits(*S3, estimator="printed")
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


def test_corrected_46_converges_to_c(fixed_s3, fixed_s3_corrected):
    # Issue 15: the corrected (46) converges to c_K; the other four estimates are the
    # same numbers whichever form of (46) P2 uses (nothing adapts here)
    r = fixed_s3_corrected
    se = r.estimator_std / np.sqrt(r.rounds / 1000)
    assert abs(r.estimator_mean[2] - S3[1]) < 4 * se[2]
    assert estimator_limits(*S3)[2] == pytest.approx(S3[1], rel=1e-12)
    others = [0, 1, 3, 4]
    assert np.array_equal(r.estimator_mean[others], fixed_s3.estimator_mean[others])


def test_clipped_estimates_stay_in_the_unit_interval():
    r = play(P=P, L=6, x0=S3, adapt=False, rounds=50_000, seed=3, record_every=1, clip=True)
    assert r.estimates.min() >= 0.0 and r.estimates.max() <= 1.0
    u = play(P=P, L=6, x0=S3, adapt=False, rounds=50_000, seed=3, record_every=1)
    assert u.estimates.max() > 1.0  # unclipped ratio estimators exceed 1 at small L


def test_bad_options_are_errors():
    with pytest.raises(ToypokerError, match="unknown estimator"):
        play(rounds=1000, estimator="nope")
    with pytest.raises(ToypokerError, match="at least 1"):
        play(rounds=1000, L=0)
    assert solution3_start(9.0) == (2 / 9 + 0.01, 2 / 11, (81 - 45 - 12) / 90)


def test_table1_comparison_object():
    # a small grid: rows in (L, k) order, errors from 2 independent seeds, JSON and CSV
    res = table1(ks=(0.01,), Ls=(6, 12), rounds=100_000, seeds=2, workers=1)
    assert [(r.L, r.k, r.seeds) for r in res.rows] == [(6, 0.01, 2), (12, 0.01, 2)]
    row = res.rows[0]
    assert row.published == (-0.134, -0.101, 0.235)  # Billingham Table 1
    runs = res.runs[(6, 0.01)]
    vals = np.array([x.expectation for x in runs])
    assert np.allclose(row.ours, vals.mean(axis=0), rtol=0, atol=1e-15)
    assert np.allclose(row.se, vals.std(axis=0, ddof=1) / np.sqrt(2), rtol=0, atol=1e-15)
    assert row.diff[0] == pytest.approx(row.ours[0] + 0.134, rel=1e-12)
    d = res.to_json_dict()
    assert d["estimator"] == "corrected" and len(d["rows"]) == 2 and "rows within" in d["reading"]
    csv = res.to_csv().splitlines()
    assert csv[0] == "L,k,player,ours,se,run_sd,published,diff,z" and len(csv) == 7
    assert csv[1].startswith("6,0.01,P1,") and ",-0.134," in csv[1]
    # the same seeds give the same rows; a different estimator different ones
    again = table1(ks=(0.01,), Ls=(6,), rounds=100_000, seeds=2, workers=1)
    assert again.rows[0] == row


def test_seeded_and_reproducible():
    a = play(rounds=20000, seed=5, record_every=100)
    b = play(rounds=20000, seed=5, record_every=100)
    c = play(rounds=20000, seed=6, record_every=100)
    assert np.array_equal(a.freqs, b.freqs) and not np.array_equal(a.freqs, c.freqs)
    assert a.freqs.shape == (200, 3) and np.all((a.freqs >= 0) & (a.freqs <= 1))


def test_slow_adaptation_settles_near_solution_2():
    # Sec. 4.2: for k = 0.001 the solution lies close to S2 = (2/9, 0.4, 0) (Table 1's
    # values ~ Solution 2's).  Over the second half of this run (seed 1, printed (46))
    # the means are (b, c, d) = (0.222, 0.380, 0.015); seeds 2 and 3 give d_Q 0.024
    # and 0.026, c_K 0.384 and 0.385: the bounds are that scatter with some room.
    r = play(
        P=P,
        k=(0.001,) * 3,
        L=(24,) * 3,
        rounds=2_000_000,
        seed=1,
        record_every=10000,
        estimator="printed",
    )
    late = r.freqs[len(r.freqs) // 2 :].mean(axis=0)
    assert 0 <= late[2] < 0.04  # d_Q near 0
    assert abs(late[1] - (P - 5) / (P + 1)) < 0.04  # c_K near S2's 0.4
    assert abs(late[0] - 2 / P) < 0.01  # b_J near S2's 2/9


def test_interrupted_table1_resumes_with_the_same_runs(tmp_path):
    # issue 14 item 4: Ctrl-C during a (k, L) sweep keeps every finished run; the same
    # call again runs only the rest, and the table equals an uninterrupted one exactly
    args = dict(P=P, ks=(0.01,), Ls=(6, 12, 24), rounds=60_000, workers=1, record_every=1000)
    whole = table1(**args)
    calls = {"n": 0}

    def stop_after_two() -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt

    ck = tmp_path / "runs"
    with pytest.raises(KeyboardInterrupt):
        table1(**args, checkpoint=ck, progress=stop_after_two)
    assert len(list(ck.glob("run-*.npz"))) == 2
    seen = []
    resumed = table1(**args, checkpoint=ck, progress=lambda: seen.append(1))
    assert len(seen) == 3 and len(list(ck.glob("run-*.npz"))) == 3
    for a, b in zip(whole.rows, resumed.rows, strict=True):
        assert a.ours == b.ours and a.se == b.se
    for key, runs in whole.runs.items():
        np.testing.assert_array_equal(runs[0].freqs, resumed.runs[key][0].freqs)


def test_a_saved_run_of_other_arguments_is_refused_not_replaced(tmp_path):
    from toypoker.dynamics.estimators import play_sweep
    from toypoker.dynamics.play import PlayResult

    ck = tmp_path / "runs"
    runs = play_sweep(P, (0.01,), (6,), 20_000, workers=1, record_every=1000, checkpoint=ck)
    (a,) = runs[(6, 0.01)]
    (f,) = ck.glob("run-*.npz")
    back = PlayResult.load(f)
    np.testing.assert_array_equal(back.batch_means, a.batch_means)
    assert back.k == a.k and back.L == a.L and back.estimator == a.estimator
    # a run of other options in the folder is refused, not replaced (issue 47, fourth
    # audit round, N232: table1 --checkpoint wrote into another batch's store)
    with pytest.raises(ToypokerError, match=r"has estimator corrected, not printed"):
        play_sweep(P, (0.01,), (6,), 20_000, workers=1, record_every=1000, checkpoint=ck,
              estimator="printed")  # fmt: skip
    assert PlayResult.load(f).estimator == "corrected"
    f.write_bytes(b"not a zip")
    with pytest.raises(ToypokerError, match="cannot read the play run"):
        play_sweep(P, (0.01,), (6,), 20_000, workers=1, record_every=1000, checkpoint=ck)


# ----------------------------------------------------------------------------- format
# issue 46, item 8: a saved run (what table1 --checkpoint keeps and reuses) carries its
# format; written and read back bit for bit, a run saved before the format (none) reused
# with the same numbers, another format refused in one line


def _rewrite(path, edit) -> None:
    with np.load(path, allow_pickle=False) as z:
        arrays = edit({k: z[k] for k in z.files})
    np.savez(path, **arrays)


def _same_run(a, b) -> None:
    from dataclasses import fields

    for f in fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()
        else:
            assert x == y and type(x) is type(y), f.name


def test_a_saved_run_names_its_format_and_reads_back_bit_for_bit(tmp_path):
    from toypoker.dynamics.play import PLAY_RUN_FORMAT, PlayResult

    r = play(P=P, rounds=20_000, record_every=1000, seed=3)
    r.save(tmp_path / "run.npz")
    with np.load(tmp_path / "run.npz", allow_pickle=False) as z:
        assert bytes(z["format"]).decode() == PLAY_RUN_FORMAT == "toypoker-play-run/1"
        kept = set(z.files) - {"format"}
    assert kept == {"meta", "freqs", "estimates", "expectation", "expectation_se",
                    "estimator_mean", "estimator_std", "batch_means"}  # fmt: skip
    _same_run(r, PlayResult.load(tmp_path / "run.npz"))


def test_runs_saved_before_the_format_are_reused_with_the_same_numbers(tmp_path):
    from toypoker.dynamics.play import PlayResult

    args = dict(P=P, ks=(0.01,), Ls=(6, 12), rounds=20_000, workers=1, record_every=1000)
    ck = tmp_path / "runs"
    first = table1(**args, checkpoint=ck)
    files = sorted(ck.glob("run-*.npz"))
    assert len(files) == 2
    for f in files:  # the layout toypoker wrote before: no format entry
        _rewrite(f, lambda a: {k: v for k, v in a.items() if k != "format"})
    old = {f: f.read_bytes() for f in files}
    again = table1(**args, checkpoint=ck)
    assert {f: f.read_bytes() for f in files} == old  # reused, not run and saved again
    for a, b in zip(first.rows, again.rows, strict=True):
        assert a.ours == b.ours and a.se == b.se
    for key, runs in first.runs.items():
        _same_run(runs[0], again.runs[key][0])
    (six,) = ck.glob("run-L6-*.npz")
    _same_run(PlayResult.load(six), first.runs[(6, 0.01)][0])


def test_a_run_of_another_format_is_refused_in_one_line(tmp_path):
    from toypoker.dynamics.play import PLAY_RUN_FORMAT, PlayResult

    args = dict(P=P, ks=(0.01,), Ls=(6,), rounds=20_000, workers=1, record_every=1000)
    ck = tmp_path / "runs"
    table1(**args, checkpoint=ck)
    (f,) = ck.glob("run-*.npz")
    newer = np.frombuffer(b"toypoker-play-run/2", dtype=np.uint8)
    _rewrite(f, lambda a: {**a, "format": newer})
    for attempt in (lambda: PlayResult.load(f), lambda: table1(**args, checkpoint=ck)):
        with pytest.raises(ToypokerError) as info:
            attempt()
        text = str(info.value)
        assert "\n" not in text and str(f) in text and "format 'toypoker-play-run/2'" in text
        assert f"this toypoker reads {PLAY_RUN_FORMAT}" in text and "newer toypoker" in text


# ------------------------------------------------------------ estimator study's run store
# issue 47, audit case N12: `dynamics estimators` lost its finished runs on an interrupt;
# estimator_studies keeps each in a folder as it ends, and the same call resumes


def test_an_interrupted_estimator_study_resumes_with_the_same_runs(tmp_path):
    # issue 47, audit case N12: the kept runs and the rest give the numbers of one
    # uninterrupted batch, bit for bit; memory Ls[i] is run with seed seed + i in each form
    from toypoker.dynamics.estimators import estimator_studies, estimator_study

    args = dict(P=P, Ls=(6, 12), rounds=20_000, seed=4)
    whole = estimator_studies(**args)
    calls = {"n": 0}

    def stop_after_three() -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt

    ck = tmp_path / "runs"
    with pytest.raises(KeyboardInterrupt):
        estimator_studies(**args, checkpoint=ck, progress=stop_after_three)
    assert len(list(ck.glob("run-*.npz"))) == 3
    resumed = estimator_studies(**args, checkpoint=ck)
    assert len(list(ck.glob("run-*.npz"))) == 4
    for form in ("corrected", "printed"):
        for a, b in zip(whole[form], resumed[form], strict=True):
            assert a.tobytes() == b.tobytes()
    alone = estimator_study(P, (6, 12), 20_000, seed=4, estimator="printed")
    assert all(a.tobytes() == b.tobytes() for a, b in zip(alone, whole["printed"], strict=True))
    x = (S3[0], S3[1], S3[2])
    r = play(P=P, L=(12,) * 3, x0=x, adapt=False, rounds=20_000, seed=5, record_every=20_000)
    assert r.estimator_mean.tobytes() == whole["corrected"][0][1].tobytes()


def test_an_estimator_run_store_of_other_arguments_is_refused(tmp_path):
    # issue 47, audit case N12: a resume must give one uninterrupted batch's numbers, so a
    # store of runs of other arguments is refused in one line (not mixed in, not replaced)
    from toypoker.dynamics.estimators import estimator_studies

    ck = tmp_path / "runs"
    estimator_studies(P, (6,), 20_000, estimators=("corrected",), checkpoint=ck)
    kept = {f: f.read_bytes() for f in ck.glob("run-*.npz")}
    for kw, why in [
        (dict(clip=True), "run-L6-corrected-seed0.npz has clip False, not True"),
        (dict(seed=1), "run-L6-corrected-seed0.npz is none of these runs"),
    ]:
        with pytest.raises(ToypokerError) as info:
            estimator_studies(P, (6,), 20_000, estimators=("corrected",), checkpoint=ck, **kw)
        text = str(info.value)
        assert "\n" not in text and f"{ck} keeps runs of other options ({why})" in text
    assert {f: f.read_bytes() for f in ck.glob("run-*.npz")} == kept
