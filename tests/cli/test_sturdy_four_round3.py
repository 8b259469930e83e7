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
