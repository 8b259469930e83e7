"""Issue 47, the second round of cases tried as a new user (197 cases, 31 failures): the
command-line and Python fixes outside the dynamics and sweeps (those are in
tests/cli/test_sturdy_four_signals.py).  Each test failed on the code before the round;
the case numbers are the round's table's.  Expected numbers: Kuhn's two-player game has
12 infosets (Kuhn 1950); a run's iteration count is what it was asked for."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import toypoker as tp
from toypoker.errors import UnknownNameError

K2 = "kuhn(players=2)"


def _checkpoint(cli, path: Path, iterations: int = 20) -> None:
    code, _, err = cli("solve", K2, "--iterations", iterations, "--checkpoint", path,
                       "--overwrite", "--no-table")  # fmt: skip
    assert code == 0, err


# ---------------------------------------------------------- nothing replaced silently
def test_a_trace_curve_is_not_replaced_without_resume_or_overwrite(
    cli, one_line_error, tmp_path, monkeypatch
):
    """Cases 70-71: a rerun into a folder holding a (stopped) curve replaced it."""
    monkeypatch.chdir(tmp_path)
    args = ("trace", "kuhn(players=3)", "--pot", "2:2.2", "--no-gif", "--out-dir", "t")
    code, _, err = cli(*args)
    assert code == 0, err
    before = Path("t/curve.csv").read_bytes()
    err = one_line_error(*args)
    assert "the curve t/curve.csv exists (it holds a traced curve): give --resume" in err
    assert Path("t/curve.csv").read_bytes() == before
    assert cli(*args, "--overwrite")[0] == 0


def test_literature_rows_and_compare_results_are_not_replaced(
    cli, one_line_error, tmp_path, monkeypatch
):
    """Cases 73 and 77: ``-o rows.json`` and ``--result cmp.json``, kept by a stopped
    run for ``--resume``, were replaced by the next run without a word."""
    monkeypatch.chdir(tmp_path)
    Path("rows.json").write_text("[]\n")
    err = one_line_error("literature", "check", "--claim", "kuhn-basic", "-o", "rows.json")
    assert "-o rows.json exists (it holds checked rows): give --resume rows.json" in err
    Path("cmp.json").write_text("{}\n")
    err = one_line_error("compare", K2, "--methods", "cfr+", "--seconds", "0.2",
                         "--result", "cmp.json")  # fmt: skip
    assert "--result cmp.json exists (it holds methods' traces)" in err
    assert Path("cmp.json").read_text() == "{}\n"


def test_no_output_option_writes_over_a_checkpoint(cli, one_line_error, tmp_path, monkeypatch):
    """Cases 170, 171, 193: ``-o``, ``--result`` and ``export -o`` on a checkpoint
    replaced it (only ``--checkpoint`` was guarded)."""
    monkeypatch.chdir(tmp_path)
    _checkpoint(cli, Path("ck.npz"))
    before = Path("ck.npz").read_bytes()
    for args in (("solve", K2, "--iterations", "5", "-o", "ck.npz"),
                 ("solve", K2, "--iterations", "5", "--result", "ck.npz"),
                 ("export", "kuhn", "-o", "ck.npz")):  # fmt: skip
        err = one_line_error(*args)
        assert "ck.npz is a solver checkpoint" in err, err
    assert Path("ck.npz").read_bytes() == before


# ----------------------------------------------------------------- true messages
def test_a_checkpoint_read_as_a_profile_is_named_a_checkpoint(
    cli, one_line_error, tmp_path, monkeypatch
):
    """Cases 33-34: "is not a toypoker archive (no meta.json)" -- it is toypoker's own
    checkpoint."""
    monkeypatch.chdir(tmp_path)
    _checkpoint(cli, Path("ck.npz"))
    err = one_line_error("eval", K2, "ck.npz")
    assert "ck.npz is a solver checkpoint, not a profile: resume the run from it" in err
    with pytest.raises(tp.ToypokerError, match="is a solver checkpoint, not a profile"):
        tp.load_profile("ck.npz", tp.load_game(K2))


@pytest.mark.parametrize("value", ["1.3", "-0.2", '"4/3"'])
def test_a_single_probability_out_of_range_is_named_as_written(
    one_line_error, tmp_path, value
):
    """Case 43: ``"P1:1:": 1.3`` was refused as "negative probability" (its complement)."""
    p = tmp_path / "p.json"
    p.write_text(f'{{"infosets": {{"P1:1:": {value}}}}}')
    err = one_line_error("eval", K2, p)
    assert "the probability of 'b' at P1:1: must be in [0, 1], got" in err, err
    assert "negative" not in err


def test_tmecor_on_two_players_says_no_team_can_exist(one_line_error):
    """Case 128: the command line advised ``--team 23`` on a two-player game."""
    err = one_line_error("collusion", "tmecor", K2)
    assert "needs at least three players" in err and "23" not in err


def test_a_missing_profile_is_said_before_the_build(one_line_error, monkeypatch):
    """Case 188: ``eval`` built the game (the whole build on Rhode Island) before it said
    the profile file did not exist."""
    import toypoker.cli.evaluate as evaluate_cli

    def no_build(*_a: object, **_k: object) -> None:
        raise AssertionError("the game was built before the profile was looked for")

    monkeypatch.setattr(evaluate_cli, "build_on_layout", no_build)
    monkeypatch.setattr(evaluate_cli, "load_rows", no_build)
    assert "cannot read profile nope.json: no such file" in one_line_error("eval", K2, "nope.json")


def test_unknown_names_are_listed_whole(one_line_error):
    """Cases 174-175: the known ids were cut out of the line; now listed whole."""
    err = one_line_error("literature", "check", "--claim", "nosuch")
    assert err.startswith("toypoker: error: unknown claim 'nosuch'; known: ")
    known = err.split("; known: ")[1].strip().split(", ")
    assert "..." not in err and len(known) > 20
    assert str(UnknownNameError("x", ["a", "b"])) == "x; known: a, b"


def test_long_messages_keep_the_path_to_resume(cli, one_line_error, tmp_path, monkeypatch):
    """Cases 108-109: a refusal naming an ordinary path was cut in the middle, losing
    the path to give ``--resume``."""
    monkeypatch.chdir(tmp_path)
    folder = Path("a_rather_long_folder_name_for_runs/another_level_of_folders")
    folder.mkdir(parents=True)
    ck = folder / "rhode_island_run.npz"
    args = ("solve", "rhode_island(ranks=3,suits=2,cap=1)", "--iterations", "2",
            "--checkpoint", ck)  # fmt: skip
    assert cli(*args, "--no-table")[0] == 0
    err = one_line_error(*args)
    assert f"give --resume {ck} to continue it" in err and "..." not in err, err


# ----------------------------------------------------------------------- seeds
def test_a_seed_batch_names_its_own_checkpoint_and_says_what_it_resumes(
    cli, one_line_error, tmp_path, monkeypatch
):
    """Cases 82 and 192: an existing ``sd-seed0.npz`` was refused with "give --resume
    sd-seed0.npz", which was refused in turn; a resumed batch never said where each seed
    starts."""
    monkeypatch.chdir(tmp_path)
    args = ("solve", "kuhn(players=3)", "--method", "es-mccfr", "--seeds", "2",
            "--checkpoint", "sd.npz", "--no-table")  # fmt: skip
    assert cli(*args, "--iterations", "30")[0] == 0
    err = one_line_error(*args, "--iterations", "30")
    assert "sd-seed0.npz exists (seed 0 of a batch): give --resume sd.npz" in err
    code, _, err = cli(*args, "--iterations", "40", "--resume", "sd.npz")
    assert code == 0, err
    assert "resuming seed 0: sd-seed0.npz at iteration 30" in err
    assert "resuming seed 1: sd-seed1.npz at iteration 30" in err


def test_a_python_resume_past_its_budget_warns(tmp_path):
    """Case 93: ``tp.solve(..., iterations=10, resume=ck)`` on a 60-iteration checkpoint
    returned 60 iterations in silence (the command line says so)."""
    g = tp.load_game(K2)
    ck = tmp_path / "ck.npz"
    tp.solve(g, "cfr+", iterations=60, checkpoint=ck)
    with pytest.warns(UserWarning, match="has 60 iterations already, iterations=10"):
        r = tp.solve(g, "cfr+", iterations=10, resume=ck)
    assert r.iterations == 60
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tp.solve(g, "cfr+", iterations=70, resume=ck).iterations == 70


def test_a_literature_rows_file_is_locked(one_line_error, tmp_path, monkeypatch):
    """Case 74: two ``literature check -o rows.json`` at once were both accepted."""
    from tests.test_locks import _holder, _release

    monkeypatch.chdir(tmp_path)
    other = _holder(Path("rows.json"), False)
    try:
        err = one_line_error("literature", "check", "--claim", "kuhn-basic", "-o", "rows.json")
        assert "in use" in err or "pid" in err, err
    finally:
        _release(other)
    assert not Path("rows.json").exists()


def test_python_outputs_never_replace_a_checkpoint(tmp_path):
    """Re-run cases N47, N54: ``Result.save`` over a checkpoint replaced it in silence
    (``load_checkpoint`` then said "not a toypoker checkpoint")."""
    g = tp.load_game(K2)
    ck = tmp_path / "ck.npz"
    tp.solve(g, "cfr+", iterations=30, checkpoint=ck)
    before = ck.read_bytes()
    r = tp.solve(g, "cfr+", iterations=10)
    for path in (ck, str(ck)):
        with pytest.raises(tp.ToypokerError, match="is a solver checkpoint"):
            r.save(path)
    from toypoker.archive import save_profile

    with pytest.raises(tp.ToypokerError, match="is a solver checkpoint"):
        save_profile(r.profile, ck)
    assert ck.read_bytes() == before and tp.load_checkpoint(ck).state.iteration == 30


def test_many_sprt_runs_draw_in_bounded_steps(monkeypatch):
    """Re-run case N17: ``detect --runs 2000000`` drew 256 hands of every run at once (a
    4 GB array a step).  Now at most MAX_SPRT_ENTRIES draws a step; below that the
    steps, and so the numbers for a seed, are as before (the default 2,000 runs)."""
    import numpy as np

    import toypoker.collusion.detection as det

    class Spy:  # a generator that records the size of each draw
        def __init__(self) -> None:
            self.rng, self.sizes = np.random.default_rng(0), []

        def random(self, size):
            self.sizes.append(int(np.prod(size)))
            return self.rng.random(size)

    monkeypatch.setattr(det, "MAX_SPRT_ENTRIES", 4096)
    p = np.array([0.2, 0.3, 0.5])
    llr = np.log(np.array([0.25, 0.3, 0.45]) / p)
    rng = Spy()
    stop, up = det._sprt(p, llr, np.log(19.0), np.log(1 / 19.0), 1000, 500, rng)
    sizes = rng.sizes
    assert max(sizes) <= 4096 and len(stop) == 1000

