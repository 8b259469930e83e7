"""``toypoker.solvers.seeds``: a sampling method's seeds as one library call (issue 46
item 5: the seeds loop, its checkpoints, resumes and team evaluations were the CLI's).

Expected numbers: Kuhn's three-player game is zero-sum, so each run's values sum to 0
(Szafron et al. 2013, Sec. 2); a resumed seed ends on the same iterate as one run
straight through (the checkpoint holds the sampler's state)."""

from __future__ import annotations

import numpy as np
import pytest

import toypoker.solvers.seeds as seeds_module
from toypoker.errors import ToypokerError
from toypoker.result import Stopped
from toypoker.solvers.seeds import SeedSpread, seed_spread, seeded


def test_seed_spread_summarises_consecutive_seeds(game):
    g = game("kuhn(players=3)")
    spread = seed_spread(g, "es-mccfr", 3, first=2, iterations=100)
    d = spread.to_json_dict()
    assert [r["seed"] for r in d["runs"]] == [2, 3, 4] and d["seeds"] == 3
    assert spread.stopped is None
    assert np.allclose(spread.values.sum(axis=1), 0.0)  # zero-sum
    assert spread.to_csv().splitlines()[0] == "seed,nash_conv,value_P1,value_P2,value_P3"
    with pytest.raises(ToypokerError, match="deterministic"):
        seed_spread(g, "cfr+", 2)
    with pytest.raises(ToypokerError, match="at least 1"):
        seed_spread(g, "es-mccfr", 0)


def test_each_seed_is_checkpointed_and_an_interrupted_batch_resumes(game, tmp_path, monkeypatch):
    g = game("kuhn(players=3)")
    ck = tmp_path / "ck.npz"
    straight = seed_spread(g, "es-mccfr", 2, iterations=60)
    real = seeds_module.solve

    def ctrl_c_in_seed_1(*a, seed, **k):  # Ctrl-C at seed 1's check after iteration 20
        def progress(t, nc):
            if seed == 1 and t >= 20:
                raise KeyboardInterrupt

        return real(*a, seed=seed, progress=progress, check_every=10, **k)

    monkeypatch.setattr(seeds_module, "solve", ctrl_c_in_seed_1)
    part = seed_spread(g, "es-mccfr", 2, iterations=60, checkpoint=ck)
    assert part.stopped is not None and part.stopped.stopped == Stopped.INTERRUPTED
    assert [r.seed for r in part.runs] == [0] and part.stopped.seed == 1
    assert 20 <= part.stopped.iterations < 60
    assert seeded(ck, 0).exists() and seeded(ck, 1).exists()
    monkeypatch.undo()
    # the same call with resume: seed 0 is done, seed 1 goes on from its state
    done = seed_spread(g, "es-mccfr", 2, iterations=60, checkpoint=ck, resume=ck)
    assert done.stopped is None and [r.seed for r in done.runs] == [0, 1]
    for a, b in zip(done.runs, straight.runs, strict=True):
        assert np.array_equal(a.profile.probs, b.profile.probs)


def test_stopped_in_the_first_seed_is_an_empty_spread(game):
    g = game("kuhn(players=3)")
    stopped = seed_spread(g, "es-mccfr", 1, iterations=5)
    empty = SeedSpread.from_runs(g, "es-mccfr", 5, [], stopped=stopped.runs[0])
    assert empty.runs == () and empty.stopped is stopped.runs[0]
