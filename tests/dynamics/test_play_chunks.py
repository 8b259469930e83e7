"""Repeated play in chunks of rounds (issue 47: one compiled call for every round left a
run deaf to Ctrl-C until it ended): the same run, bit for bit, however it is cut, and a
stop between two chunks."""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import fields

import numpy as np
import pytest

from toypoker.dynamics.estimators import play_sweep
from toypoker.dynamics.play import PlayResult, play


def _same(a: PlayResult, b: PlayResult) -> bool:
    return all(
        np.array_equal(getattr(a, f.name), getattr(b, f.name))
        if isinstance(getattr(a, f.name), np.ndarray)
        else getattr(a, f.name) == getattr(b, f.name)
        for f in fields(PlayResult)
    )


@pytest.mark.parametrize("adapt", [True, False])
def test_a_run_cut_in_chunks_is_the_run_in_one_call(adapt: bool) -> None:
    # the random stream goes on from chunk to chunk (numba draws from the Generator
    # itself): every array and scalar equal, whatever the cut -- even a round a chunk
    kw = dict(L=(6, 12, 24), rounds=30_011, seed=7, record_every=10, adapt=adapt, k=0.01)
    whole = play(**kw, chunk=30_011)
    for chunk in (1, 977, 10_000):
        assert _same(play(**kw, chunk=chunk), whole), chunk


def test_progress_is_told_between_chunks_and_may_stop_the_run() -> None:
    seen: list[int] = []
    play(rounds=10_000, chunk=3_000, progress=seen.append)
    assert seen == [3_000, 6_000, 9_000]  # not after the last: the run is done then

    def stop(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play(rounds=10_000, chunk=3_000, progress=stop)


def test_a_signal_stops_a_serial_sweep_within_a_chunk(tmp_path) -> None:
    # 100 million rounds: ten seconds in one call; a signal a second in stops it at the
    # end of the chunk under way, and nothing unfinished is kept
    threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        play_sweep(9.0, [0.001], [24], 100_000_000, workers=1, checkpoint=tmp_path / "runs")
    assert time.monotonic() - t0 < 4.0
    assert not list((tmp_path / "runs").glob("*.npz"))
