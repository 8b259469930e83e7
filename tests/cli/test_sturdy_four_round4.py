"""Issue 47, the fourth audit round's findings (its table's case numbers): sizes counted
before anything is listed or built, refusals that carry the estimate `info` prints, and
options that cannot give a number refused instead of printing a zero.  Each test failed
on the code before."""

from __future__ import annotations

import pytest

import toypoker as tp
from toypoker.dynamics.estimators import estimator_studies
from toypoker.engines.choice import choose_layout, rows_refusal
from toypoker.errors import SpecError, ToypokerError
from toypoker.sweeps.run import MAX_JOBS

#: a 52-card, two-hole-card, four-round hold'em: more boards than are counted before
#: building, and 2,334,488,579,280 deals (suit-isomorphic; the count `toypoker info`
#: prints for it)
HOLDEM = "holdem(players=2,ranks=13,suits=4,hole=2,rounds=4,board2=3,evaluator=standard)"


def test_a_billion_seeds_are_refused_before_they_are_listed(one_line_error, tmp_path):
    # N117: `sweep solve kuhn --seeds 1000000000` listed the seeds (13.5 GB in 60 s) before
    # the grid's count was checked
    line = one_line_error(
        "sweep", "solve", "kuhn", "--seeds", "1000000000", "--methods", "es-mccfr",
        "--scheduler", "serial", "--out-dir", tmp_path / "s",
    )  # fmt: skip
    assert f"the grid has 1,000,000,000 jobs; at most {MAX_JOBS:,} a sweep" in line, line


@pytest.mark.parametrize("seeds", [range(10**9), 10**9, range(5, 10**9)])
def test_the_api_counts_a_range_of_seeds_before_listing_it(seeds):
    with pytest.raises(ToypokerError, match="jobs; at most"):
        tp.sweep("solve", "kuhn", {"iterations": [10]}, seeds=seeds, methods=["es-mccfr"])


def test_a_negative_seed_in_a_range_is_named():
    with pytest.raises(ToypokerError, match="a seed must be at least 0, got -2"):
        tp.sweep("solve", "kuhn", {"iterations": [10]}, seeds=range(-2, 3), methods=["es-mccfr"])


def test_estimators_with_a_memory_longer_than_the_play_are_refused(one_line_error, tmp_path):
    # N139: `--L 1000000 --rounds 100` printed every estimator's mean as 0.0000 +- 0.000
    # (no estimate was ever averaged: the first L rounds fill the memory)
    line = one_line_error("dynamics", "estimators", "--L", "1000000", "--rounds", "100",
                          "--out-dir", tmp_path / "e")  # fmt: skip
    assert "rounds (100) must exceed the longest memory L (1,000,000)" in line, line
    with pytest.raises(ToypokerError, match="must exceed the longest memory"):
        estimator_studies(Ls=(6, 12), rounds=12)


def test_a_game_too_large_to_count_is_refused_with_the_deal_tables_estimate():
    # N142/N144: solve and eval refused it without the size `info` prints
    with pytest.raises(SpecError) as caught:
        choose_layout(HOLDEM)
    message = str(caught.value)
    refused = rows_refusal(HOLDEM)
    assert refused is not None and "2,334,488,579,280 deals" in refused
    assert message.startswith(refused) and "more than 20,000 boards at one depth" in message


def test_detect_refuses_bad_error_rates_before_any_solve(one_line_error, monkeypatch):
    # N81: `--alpha 1.5` was refused only after both CFR+ solves (12.6 s)
    def solved(*_a: object, **_k: object) -> None:
        raise AssertionError("a profile was solved before the options were checked")

    monkeypatch.setattr("toypoker.cli.detect._profile", solved)
    spec, coll = "kuhn(players=3)", "kuhn(players=3,team=12,strong=true)"
    line = one_line_error("detect", spec, "--collusion", coll, "--alpha", "1.5")
    assert line.strip() == "toypoker: error: alpha must be in (0, 0.5), got 1.5"
    line = one_line_error("detect", spec, "--collusion", coll, "--tremble", "1")
    assert line.strip() == "toypoker: error: tremble must be in [0, 1), got 1.0"


def test_ode_of_a_game_starts_from_its_own_default(cli, tmp_path):
    # N197: `dynamics ode --game G` without --y0 applied SKP's three numbers to G and
    # blamed --y0 ("--y0 needs 7 numbers (or one for all), got 3"); now every choice
    # starts at 1/2.  The third-street game has 7 binary choices (Billingham, Sec. 2).
    code, out, err = cli("dynamics", "ode", "--game", "kuhn_third_street(rational=true)",
                         "--t-end", "1", "--outdir", tmp_path)  # fmt: skip
    assert code == 0, err
    assert "integrated 7 variables to t = 1" in out
    header, first = (tmp_path / "trajectory.csv").read_text().splitlines()[:2]
    assert header.count(",") == 7 and first.split(",")[1:] == ["0.5"] * 7
