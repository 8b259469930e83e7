"""Issue 47, the third round of cases (part b): bad input gets one clear line and exit 2,
sizes are checked before anything is allocated, and messages say what is true.  Each
test failed on the code before the round; the case ids are the round's audit table's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import toypoker.cli.seeds as cli_seeds
import toypoker.cli.trace as cli_trace
import toypoker.dynamics.estimators as batch_module
from toypoker.errors import ToypokerError

K2 = "kuhn(players=2)"
K3 = "kuhn(players=3)"
K3_TEAM = "kuhn(players=3,team=12,sharing=win,strong=true)"


def _never(what: str):
    def fail(*_a, **_k):
        raise AssertionError(what)

    return fail


# ---------------------------------------------------------------- trace (K5, T1)
def test_trace_frames_is_bounded_before_tracing(one_line_error, tmp_path, monkeypatch):
    """issue 47, audit case K5: --frames 1000000000 had no upper bound (7.9 GB in 30 s
    for the animation's arclengths); refused in one line before the curve is traced."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli_trace, "trace_curve", _never("traced before checking --frames"))
    err = one_line_error("trace", "kuhn", "--pot", "1:3", "--frames", "1000000000",
                         "--out-dir", "k5")  # fmt: skip
    assert "--frames must be at most 10000, got 1000000000" in err
    assert not Path("k5").exists()


def test_animate_ranges_refuses_frames_before_allocating():
    """issue 47, audit case K5: the Python function behind --frames bounds it too."""
    from toypoker.continuation import figures

    assert figures.MAX_FRAMES == 10_000
    with pytest.raises(ToypokerError, match="frames must be 2 to 10,000, got 1000000000"):
        figures.animate_ranges(None, None, "never.gif", frames=10**9)  # type: ignore[arg-type]


def test_trace_says_only_what_it_wrote(cli, tmp_path, monkeypatch):
    """issue 47, audit case T1: --no-gif without --at said 'CSV, plots, range bars and
    animation in tr/', though neither range bars nor an animation were written."""
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("trace", "kuhn", "--pot", "1:3", "--out-dir", "tr", "--no-gif")
    assert code == 0, err
    assert "CSV and plots in tr/" in out
    assert "range bars" not in out and "animation" not in out
    assert not Path("tr/animation.gif").exists()
    assert not list(Path("tr").glob("ranges_*.png"))


# ---------------------------------------------------------------- dynamics (W1)
def test_dynamics_workers_bounded_by_the_cpus(one_line_error, tmp_path, monkeypatch):
    """issue 47, audit case W1: --workers 100000 was accepted (--workers 40 forked 40
    processes on 2 CPUs)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("toypoker.cli.dynamics.machine_cpus", lambda: 2)
    err = one_line_error("dynamics", "table1", "--rounds", "1000", "--L", "6", "--k", "0.01",
                         "--workers", "100000", "--out-dir", "w1")  # fmt: skip
    assert "--workers 100000: more processes than this machine's 2 CPUs; give at most 2" in err
    assert not Path("w1").exists()


def test_dynamics_pool_never_larger_than_the_runs(monkeypatch):
    """issue 47, audit case W1: workers=40 for 2 runs started a pool of 40 processes."""
    sizes = []
    real = batch_module.ProcessPoolExecutor

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, max_workers=None, **kw):
            sizes.append(max_workers)
            super().__init__(max_workers=max_workers, **kw)

    monkeypatch.setattr(batch_module, "ProcessPoolExecutor", Recording)
    runs = batch_module.play_sweep(9.0, [0.01], [6], 200, workers=40, seeds=2, record_every=100)
    assert len(runs[(6, 0.01)]) == 2
    assert sizes == [2]


# ---------------------------------------------------------------- detect (H3)
def test_detect_runs_counted_before_allocating(one_line_error, monkeypatch):
    """issue 47, audit case H3: --runs 99999999999999 ended in a MemoryError reported
    as the game's being too large; refused in one line naming --runs and the bytes,
    before any solve."""
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "1e9")
    monkeypatch.setattr("toypoker.cli.detect._profile", _never("solved before --runs"))
    err = one_line_error("detect", K3, "--collusion", K3_TEAM, "--runs", "99999999999999")
    assert "--runs 99,999,999,999,999: the simulated tests would need 12.0 PB" in err
    assert "more than the budget 1.0 GB (TOYPOKER_MAX_BYTES allows more)" in err
    assert "game" not in err and "--layout" not in err


def test_sprt_size_counts_runs_and_hands():
    """issue 47, audit case H3: the count the check uses (the default 2000 runs of a
    million hands fit in well under a gigabyte)."""
    from toypoker.collusion.detection import check_sprt_size, sprt_bytes

    assert sprt_bytes(2000, 1_000_000) < 2e8
    assert sprt_bytes(10, 5) < sprt_bytes(10, 1_000_000)
    check_sprt_size(2000, 1_000_000, max_bytes=10**9)
    with pytest.raises(ToypokerError, match=r"^runs 10,000,000,000: the simulated tests"):
        check_sprt_size(10**10, 100, max_bytes=10**9)


# ---------------------------------------------------------------- files of other kinds
@pytest.fixture(scope="module")
def kept_files(tmp_path_factory):
    """A solver checkpoint, a profile archive and a literature rows file."""
    from toypoker.cli import main

    d = tmp_path_factory.mktemp("kept")
    assert main(["solve", K2, "--iterations", "5", "--checkpoint", str(d / "ck.npz"),
                 "--no-table"]) == 0  # fmt: skip
    assert main(["solve", K2, "--iterations", "5", "-o", str(d / "kprof.npz"), "--no-table"]) == 0
    row = {"claim": "c", "detail": "", "exact": True, "params": {}, "source": "s", "status": "ok"}
    (d / "rows.json").write_text(json.dumps([row]) + "\n")
    return d


def test_compare_resume_says_what_the_file_is_not(one_line_error, kept_files, tmp_path):
    """issue 47, audit cases F6 and F7: --resume of a literature rows file said 'list
    indices must be integers or slices, not str', of a checkpoint "'utf-8' codec can't
    decode byte 0xc8"."""
    res = tmp_path / "cpx.json"
    run = ("compare", K2, "--methods", "cfr+", "--seconds", "0.2", "--result", res, "--resume")
    not_it = "is not the results of a compare (the JSON its --result writes)"
    err = one_line_error(*run, kept_files / "rows.json")  # F6
    assert f"rows.json {not_it}: it holds the rows of a literature check" in err
    assert "(literature check --resume continues it)" in err
    err = one_line_error(*run, kept_files / "ck.npz")  # F7
    assert f"ck.npz {not_it}: it holds a solver checkpoint (solve --resume continues it)" in err
    junk = tmp_path / "junk.json"
    junk.write_text('{"a": 1}\n')
    err = one_line_error(*run, junk)  # neither: what it is not, no low-level words
    assert err.rstrip().endswith(f"junk.json {not_it}")
    assert not res.exists()


def test_collusion_profiles_say_what_the_file_is(one_line_error, kept_files, tmp_path):
    """issue 47, audit cases F13 and F17: a checkpoint or a profile archive given to
    --profiles was answered "'meta is not a file in the archive'"."""
    store = "not a collusion store written by `toypoker collusion table7 --save`"
    err = one_line_error(
        "collusion", "table7", K3, "--profiles", kept_files / "ck.npz", "--no-team-optimal"
    )  # fmt: skip  (F13)
    assert f"ck.npz is a solver checkpoint, {store} (solve --resume continues it)" in err
    err = one_line_error(
        "detect", K3, "--collusion", K3_TEAM, "--profiles", kept_files / "kprof.npz"
    )  # fmt: skip  (F17)
    assert f"kprof.npz is a profile archive (solve -o or --result), {store}" in err
    other = tmp_path / "other.npz"  # an archive of arrays, none of them a store's
    np.savez(other, x=np.zeros(2))
    err = one_line_error("collusion", "table7", K3, "--profiles", other, "--no-team-optimal")
    assert err.rstrip().endswith(f"other.npz is {store}")


# ---------------------------------------------------------------- seeds (H8c, H8d)
def test_kept_seeds_lists_the_folder_once(tmp_path, monkeypatch):
    """issue 47, audit case H8c: the kept seeds of a batch of 100 million were found by
    stat-ing every seed's file; one listing of the folder now, at once."""
    for name in ("b-seed0.npz", "b-seed7.npz", "b-seed99.npz", "b-seed07.npz", "c-seed1.npz",
                 "b-seed3.npz.tmp"):  # fmt: skip
        (tmp_path / name).write_bytes(b"")
    monkeypatch.setattr(Path, "exists", _never("a seed's file stat-ed"))
    assert cli_seeds.kept_seeds(tmp_path / "b.npz", 0, 100_000_000) == [0, 7, 99]
    assert cli_seeds.kept_seeds(tmp_path / "b.npz", 5, 10) == [7]
    assert cli_seeds.kept_seeds(tmp_path / "none" / "b.npz", 0, 10) == []


def test_interrupt_while_reading_kept_seeds_says_how_to_resume(cli, tmp_path, monkeypatch):
    """issue 47, audit case H8d: a Ctrl-C while the kept seeds were read printed only
    'toypoker: interrupted', without the command that resumes."""
    monkeypatch.chdir(tmp_path)
    run = ("solve", "kuhn", "--method", "es-mccfr", "--iterations", "10", "--no-table")
    code, _, err = cli(*run, "--seeds", "2", "--checkpoint", "b.npz")
    assert code == 0, err
    assert Path("b-seed0.npz").exists()

    def ctrl_c(*_a):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_seeds, "checkpoint_head", ctrl_c)
    code, _, err = cli(*run, "--seeds", "5", "--resume", "b.npz")
    assert code == 130, err
    assert "toypoker: interrupted: before the first seed ran" in err
    assert "resume with: toypoker solve kuhn --method es-mccfr" in err
    assert err.rstrip().endswith("--seeds 5 --resume b.npz"), err
