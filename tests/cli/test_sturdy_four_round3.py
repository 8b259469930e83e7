"""Issue 47, what the second round's re-run still found (its table's case numbers): a
Ctrl-C in a script that loops over solves (R191), outputs written over another run's
resumable work (N44, N45, N54).  Each test failed on the code before.  Expected
numbers: Kuhn's two-player game has 12 infosets (Kuhn 1950)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toypoker as tp
from toypoker.archive import COMPARISON, CURVE, ROWS, kept_work

K2 = "kuhn(players=2)"


def _curve(cli, folder: Path) -> Path:
    """A traced curve: ``toypoker trace`` over a short window (its curve.csv + .json)."""
    code, _, err = cli("trace", "kuhn(players=3)", "--pot", "3:3.05", "--no-gif",
                       "--outdir", folder)  # fmt: skip
    assert code == 0, err
    return folder / "curve.csv"


def _rows(path: Path) -> Path:
    """The rows a literature check keeps (its -o file; the fields of cli/literature.py)."""
    row = {"claim": "kuhn1950-value", "source": "Kuhn 1950", "params": {}, "status":
           "verified", "detail": "-1/18", "exact": True}  # fmt: skip
    path.write_text(json.dumps([row]))
    return path


def test_export_does_not_write_over_a_traced_curve(cli, one_line_error, tmp_path):
    # N44: `export kuhn -o tr2/curve.csv` replaced a 2,804-point curve with a .efg
    curve = _curve(cli, tmp_path / "tr")
    before = curve.read_bytes()
    line = one_line_error("export", K2, "-o", curve)
    assert "is a traced equilibrium curve" in line and "trace --resume" in line, line
    assert curve.read_bytes() == before


def test_solve_does_not_write_over_a_literature_checks_rows(cli, one_line_error, tmp_path):
    # N45: `solve ... -o rows.json` replaced the 181 kept rows of a literature check
    rows = _rows(tmp_path / "rows.json")
    before = rows.read_bytes()
    line = one_line_error("solve", K2, "--iterations", "10", "--no-table", "-o", rows)
    assert "is the rows of a literature check" in line, line
    assert rows.read_bytes() == before


def test_result_save_does_not_write_over_a_traced_curve(cli, tmp_path):
    # N54: Result.save("tr3/curve.csv") replaced a 994-point curve with a result's JSON
    curve = _curve(cli, tmp_path / "tr")
    before = curve.read_bytes()
    r = tp.solve(tp.load_game(K2), "cfr+", iterations=10)
    with pytest.raises(tp.ToypokerError, match="is a traced equilibrium curve"):
        r.save(curve)
    assert curve.read_bytes() == before


def test_kept_work_tells_each_kind_and_nothing_else(cli, tmp_path):
    # the kinds an output of another kind never replaces; a profile is none of them
    assert kept_work(_curve(cli, tmp_path / "tr")) == CURVE
    assert kept_work(_rows(tmp_path / "rows.json")) == ROWS
    (tmp_path / "c.json").write_text(json.dumps({"game": K2, "seconds": 1, "methods": []}))
    assert kept_work(tmp_path / "c.json") == COMPARISON
    code, _, err = cli("solve", K2, "--iterations", "10", "--no-table", "-o", tmp_path / "p.json")
    assert code == 0, err
    assert kept_work(tmp_path / "p.json") is None
    assert kept_work(tmp_path / "none.json") is None
    # and a command may replace its own kind (a rerun of solve -o p.json)
    code, _, err = cli("solve", K2, "--iterations", "10", "--no-table", "-o", tmp_path / "p.json")
    assert code == 0, err


def test_eval_refuses_a_file_that_is_no_profile_of_the_game_before_building(cli, tmp_path):
    # R188: a truncated .npz and another game's profile were refused only after the
    # build ("building (deal-free)... built in 0.3 s" first; minutes on a large game)
    trunc = tmp_path / "trunc.npz"
    trunc.write_bytes(b"xx")
    other = tmp_path / "k.json"
    tp.solve(tp.load_game(K2), "cfr+", iterations=5).save(other)
    spec = "rhode_island(ranks=3,suits=4)"
    for path, said in ((trunc, "File is not a zip file"), (other, "holds a profile of kuhn(")):
        code, _, err = cli("eval", spec, path)
        assert code == 2 and said in err, err
        assert "build" not in err, err  # refused before the game was built


_HOLD = """
import sys, time
from toypoker.locks import run_lock
with run_lock(sys.argv[1], "test", folder=sys.argv[2] == "folder"):
    print("held", flush=True)
    time.sleep(60)
"""


@pytest.mark.parametrize(
    "args,held,folder",
    [
        (("compare", K2, "--methods", "cfr", "--seconds", "1", "--result", "r.json",
          "--plot", "r.png"), "r.json", False),
        (("collusion", "table7", "kuhn(players=3,cards=4)", "--iterations", "20",
          "--no-team-optimal", "--save", "t7.npz"), "t7.npz", False),
        (("dynamics", "estimators", "--rounds", "10000", "--L", "6", "--out-dir", "d"),
         "d/estimators-runs", True),
        (("dynamics", "table1", "--rounds", "10000", "--out-dir", "d"), "d/table1-runs", True),
    ],
    ids=["compare-result", "table7-save", "estimators-runs", "table1-runs"],
)  # fmt: skip
def test_a_second_run_writing_the_same_file_or_folder_is_refused(
    cli, tmp_path, monkeypatch, args, held, folder
):
    # the round's re-run (LK3b, LK4b, LK5b): two runs started together into one
    # --result / --save file or run folder both wrote it, the later replacing the other's
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, held, "folder" if folder else "file"],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert holder.stdout.readline() == "held\n"
        code, _, err = cli(*args)
        assert code == 2 and "is in use by another run (pid" in err, err
    finally:
        holder.kill()
        holder.wait()


def test_a_collusion_study_is_replaced_only_by_the_run_that_resumes_it(
    cli, one_line_error, tmp_path, monkeypatch
):
    # R196's store: an interrupted table7 --save keeps the equilibria solved; another
    # study's --save (N60) or any other output must not write over it, its resume may
    from toypoker.archive import STUDY, kept_work
    from toypoker.collusion import table7

    monkeypatch.chdir(tmp_path)
    real, calls = table7.solve_team_game, [0]

    def stop_at_third(*args, **kwargs):
        calls[0] += 1
        if calls[0] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(table7, "solve_team_game", stop_at_third)
    k4 = "kuhn(players=3,cards=4)"
    code, _, err = cli("collusion", "table7", k4, "--iterations", "20", "--no-team-optimal",
                       "--save", "t7.npz")  # fmt: skip
    assert code == 130 and "2 of 7 equilibria solved, kept in t7.npz" in err, err
    assert kept_work(tmp_path / "t7.npz") == STUDY
    monkeypatch.setattr(table7, "solve_team_game", real)
    before = (tmp_path / "t7.npz").read_bytes()
    line = one_line_error("collusion", "table7", "kuhn(players=3,cards=5)", "--iterations",
                          "20", "--no-team-optimal", "--save", "t7.npz")  # fmt: skip
    assert "is the equilibria of a collusion table7" in line, line
    assert "table7 --profiles t7.npz)" in line, line  # the file named, not a placeholder
    line = one_line_error("solve", "kuhn(players=2)", "--iterations", "5", "-o", "t7.npz")
    assert "is the equilibria of a collusion table7" in line, line
    assert (tmp_path / "t7.npz").read_bytes() == before
    code, _, err = cli("collusion", "table7", k4, "--iterations", "20", "--no-team-optimal",
                       "--save", "t7.npz", "--profiles", "t7.npz")  # fmt: skip
    assert code == 0, err
    assert kept_work(tmp_path / "t7.npz") == STUDY  # complete: reused with --profiles


def test_every_kind_of_kept_work_is_recognised(cli, tmp_path, monkeypatch):
    # audit round 3 (N54b/c/s/d, X1, V3, V5): solve -o and Result.save replaced a
    # collusion store, a dynamics run, a curve's settings file and a sweep's record
    from toypoker.archive import PLAY_RUN, SWEEP

    monkeypatch.chdir(tmp_path)
    code, _, err = cli("trace", "kuhn(players=3)", "--pot", "3:3.05", "--no-gif", "--outdir", "tr")
    assert code == 0, err
    assert kept_work(tmp_path / "tr" / "curve.csv.json") == CURVE  # V3: the curve's settings
    code, _, err = cli("dynamics", "table1", "--rounds", "10000", "--L", "6", "--k", "0.01",
                       "--out-dir", "dy")  # fmt: skip
    assert code == 0, err
    (run,) = (tmp_path / "dy" / "table1-runs").glob("run-*.npz")
    assert kept_work(run) == PLAY_RUN  # X1
    code, _, err = cli("sweep", "solve", K2, "--param", "iterations=10", "--scheduler", "serial",
                       "--out-dir", "sw")  # fmt: skip
    assert code == 0, err
    assert kept_work(tmp_path / "sw" / "sweep.json") == SWEEP  # V5
    r = tp.solve(tp.load_game(K2), "cfr+", iterations=5)
    for path in (tmp_path / "tr" / "curve.csv.json", run, tmp_path / "sw" / "sweep.json"):
        before = path.read_bytes()
        with pytest.raises(tp.ToypokerError, match="not to be replaced"):
            r.save(path)
        code, _, err = cli("solve", K2, "--iterations", "5", "--no-table", "-o", path)
        assert code == 2 and "not to be replaced" in err, err
        # O3, API-c1/c2: "exists: give overwrite=True to replace it" destroyed a curve
        with pytest.raises(tp.ToypokerError, match="not to be replaced"):
            tp.solve(tp.load_game(K2), "cfr+", iterations=5, checkpoint=path, overwrite=True)
        assert path.read_bytes() == before


def test_an_interrupted_lp_says_nothing_was_written(cli, tmp_path, monkeypatch):
    # S16: `solve ... --method lp -o lp.json` stopped by Ctrl-C printed only
    # "toypoker: interrupted", not that lp.json was not written
    from toypoker.solvers import lp

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(lp, "solve_lp", ctrl_c)
    code, _, err = cli("solve", K2, "--method", "lp", "--no-table", "-o", tmp_path / "lp.json")
    assert code == 130, err
    assert "lp stopped before it solved kuhn(players=2" in err and "nothing written" in err, err
    assert not (tmp_path / "lp.json").exists()
