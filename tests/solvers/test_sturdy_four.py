"""Issue 47, "Sturdy, round four", in the Python API: a target means run until it,
a checkpoint holding another run's work is not replaced without ``overwrite=True``,
counts take numpy integers everywhere, messages in Python terms, the aimed check never
overflows, a lost scheduler blamed as itself.  Each test failed on the code before the
issue (what it did is in the docstring)."""

from __future__ import annotations

import numpy as np
import pytest

import toypoker as tp
from toypoker.errors import ToypokerError
from toypoker.solvers.solver import Checks

K2 = "kuhn(players=2)"


def test_a_target_without_a_budget_runs_until_it_is_met():
    """Before: ``tp.solve(g, m, target_nash_conv=1e-6)`` stopped at 1,000 iterations,
    short of its target, silently (the CLI ran on to it).  Kuhn with CFR+ first checks
    NashConv below 5e-5 at iteration 3,642 (measured here, on the default check
    schedule: past the old cap of 1,000)."""
    r = tp.solve(tp.load_game(K2), "cfr+", target_nash_conv=5e-5)
    assert r.stopped == "target" and r.nash_conv <= 5e-5
    assert r.iterations > 1000
    # without a target or seconds the default budget stays
    assert tp.solve(tp.load_game(K2), "cfr+").iterations == 1000


def test_the_aimed_check_of_a_flat_trace_does_not_overflow():
    """Before: two checks of nearly equal NashConv joined by a power law aimed past any
    float: ``OverflowError`` ended ``solve --target-nash-conv 1e-8``."""
    checks = Checks(lambda t: False, target=1e-8)
    checks.observe(100, 1.0)
    checks.observe(200, 0.9999999999)
    assert checks.aim is None  # beyond a decade: no aim, and no error


def test_an_existing_checkpoint_is_refused_without_overwrite(tmp_path):
    """Before: ``tp.solve(..., checkpoint=path)`` replaced an existing checkpoint (even
    another game's) silently."""
    ck = tmp_path / "ck.npz"
    g = tp.load_game(K2)
    tp.solve(g, "cfr+", iterations=10, checkpoint=ck)
    before = ck.read_bytes()
    with pytest.raises(ToypokerError, match=r"exists \(cfr\+ on kuhn.*10 iterations\): give "
                       r"resume=.* overwrite=True to replace it"):  # fmt: skip
        tp.solve(g, "cfr+", iterations=20, checkpoint=ck)
    assert ck.read_bytes() == before
    r = tp.solve(g, "cfr+", iterations=20, checkpoint=ck, overwrite=True)
    assert r.iterations == 20 and tp.load_checkpoint(ck).state.iteration == 20
    r = tp.solve(g, "cfr+", iterations=30, checkpoint=ck, resume=ck)
    assert r.iterations == 30


def test_threads_take_numpy_integers_as_every_count_does():
    """Before: ``threads=np.int64(2)`` was refused ("not np.int64(2)")."""
    r = tp.solve(tp.load_game(K2), "cfr+", iterations=5, threads=np.int64(2))
    assert r.iterations == 5
    with pytest.raises(ToypokerError, match="threads must be a whole number >= 1, not 2.5"):
        tp.solve(tp.load_game(K2), "cfr+", iterations=5, threads=2.5)


def test_a_wrong_cluster_is_answered_in_python_terms():
    """Before: ``cluster="nowhere"`` was answered in CLI terms (``--scheduler``)."""
    g = tp.load_game("kuhn(players=2,cards=13)", layout="vector")
    with pytest.raises(ToypokerError) as caught:
        tp.solve(g, "cfr+", iterations=5, cluster="nowhere")
    assert str(caught.value).startswith("cluster= is 'local', a scheduler address")
    assert "--scheduler" not in str(caught.value) and "'nowhere'" in str(caught.value)


def test_tmecor_on_two_players_names_no_impossible_team():
    """Before: ``tp.solve(kuhn2, "tmecor")`` suggested ``team=(1, 2), or team=23``: seats
    a two-player game does not have."""
    with pytest.raises(ToypokerError) as caught:
        tp.solve(tp.load_game(K2), "tmecor")
    text = str(caught.value)
    assert "needs at least three players" in text and "team=23" not in text, text
    with pytest.raises(ToypokerError, match=r"team=\(1, 2\), or team=23"):
        tp.solve(tp.load_game("kuhn(players=3)"), "tmecor")


def test_a_lost_scheduler_is_named_not_a_worker():
    """Before: killing the scheduler mid-run blamed a worker ("shard 0 on dask worker
    ... failed").  A client whose scheduler has gone names the scheduler."""
    from types import SimpleNamespace

    from toypoker.engines.sharded import ShardedKernel

    kernel = ShardedKernel.__new__(ShardedKernel)
    client = SimpleNamespace(status="closed", scheduler=SimpleNamespace(address="tcp://h:8786"))
    kernel.owner = (client, None, False)
    kernel.workers = ["tcp://w:1"]
    err = kernel._lost(0, "step", OSError("Stream is closed"))
    assert str(err).startswith("the dask scheduler at tcp://h:8786 went away mid-run (step:")
    assert "worker" not in str(err)
    # a running client whose scheduler still listens: the worker is the one lost
    client.status, client.scheduler.address = "running", "inproc://scheduler"
    assert "shard 0 on dask worker tcp://w:1 failed" in str(kernel._lost(0, "step", OSError()))
    # running, but nothing listens at its tcp:// address any more: the scheduler again
    # (a killed scheduler, before the client notices; tests/cli/test_sturdy_four.py)
    client.scheduler.address = "tcp://127.0.0.1:1"
    lost = str(kernel._lost(0, "x", OSError()))
    assert "the dask scheduler at tcp://127.0.0.1:1 went away" in lost
