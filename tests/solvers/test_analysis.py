"""Saved comparisons (:mod:`toypoker.solvers.analysis`): the format, and the layout
before it still read (issue 46, item 8: a changed format gets a new version and the
old one is still read)."""

from __future__ import annotations

import json

import pytest

import toypoker as tp
from toypoker.errors import ToypokerError
from toypoker.solvers.analysis import COMPARISON_FORMAT, compare, read_comparison

SPEC = "kuhn(players=2)"


@pytest.fixture(scope="module")
def saved():
    g = tp.load_game(SPEC)
    return compare(g, ["cfr+", "fp"], seconds=0.3)


def test_a_comparison_reads_back_with_the_same_runs(saved, tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(saved.to_json_dict()))
    assert json.loads(path.read_text())["format"] == COMPARISON_FORMAT
    back = read_comparison(path, saved.game.spec, 0.3)
    assert tuple(back.values()) == saved.runs  # every number, the traces included


def test_the_unversioned_layout_before_it_is_read_with_the_same_runs(saved, tmp_path):
    """The file ``toypoker compare --result`` wrote before the format (this layout,
    key for key: no format, target or skipped; ``seconds_to_1e-3``; the plot)."""
    old = {
        "game": saved.game.spec, "seconds": 0.3, "seed": 0, "plot": "compare-kuhn-2p.png",
        "methods": [
            {**r.to_json_dict(), "seconds_to_1e-3": None} for r in saved.runs
        ],
    }  # fmt: skip
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    assert tuple(read_comparison(path, saved.game.spec, 0.3).values()) == saved.runs


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"format": "toypoker-comparison/2"}, "written by a newer toypoker"),
        ({"game": "kuhn(players=3,ante=1,bet=1)"}, "compares kuhn(players=3"),
        ({"seconds": 8.0}, "for 8.0 s, not"),
        ({"methods": [{"method": "cfr+"}]}, "is not the results of a compare"),
    ],
)
def test_another_file_is_refused_in_one_line(saved, tmp_path, change, says):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({**saved.to_json_dict(), **change}))
    with pytest.raises(ToypokerError) as err:
        read_comparison(path, saved.game.spec, 0.3)
    assert says in str(err.value) and "\n" not in str(err.value)
