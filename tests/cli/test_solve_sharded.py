"""``toypoker solve --scheduler local --workers N`` (issue 36): the sharded solve from the
command line, its memory said before anything is built, its numbers the in-process run's
(expected: the same command without ``--scheduler``), and its refusals in one line."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("distributed")

SPEC = "rhode_island(ranks=3,suits=2,cap=1)"


@pytest.mark.slow  # a LocalCluster of two processes
def test_a_sharded_solve_prints_what_the_in_process_one_does(cli, tmp_path):
    args = ("solve", SPEC, "--method", "pdcfr+", "--iterations", "30", "--json")
    code, out, err = cli(*args)
    assert code == 0, err
    here = json.loads(out)
    code, out, err = cli(*args, "--scheduler", "local", "--workers", "2")
    assert code == 0, err
    assert "sharded over dask at local (2 workers): this process builds the game" in err
    assert "sends each worker its share of the subtrees (~" in err
    there = json.loads(out)
    assert there["iterations"] == here["iterations"] == 30
    assert abs(there["nash_conv"] - here["nash_conv"]) <= 1e-12
    assert max(abs(a - b) for a, b in zip(there["values"], here["values"], strict=True)) <= 1e-12


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("kuhn(players=2)", "--scheduler", "local"), "--scheduler shards the vector layout"),
        ((SPEC, "--workers", "2"), "--workers sizes the LocalCluster of --scheduler local"),
        ((SPEC, "--scheduler", "local", "--workers", "0"), "--workers"),
        ((SPEC, "--scheduler", "local", "--method", "pcs-cfr+", "--seeds", "2"), "--seeds 1"),
        ((SPEC, "--scheduler", "nowhere"), "give local or a scheduler address"),
    ],
)
def test_what_cannot_be_sharded_is_one_line(cli, args, said):
    code, out, err = cli("solve", *args)
    assert code != 0 and said in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2
