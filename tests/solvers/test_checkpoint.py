"""Checkpoints a run keeps (issue 35 items 2 and 4): the user's locked while the run
lives, the command line's scratch one written only to resume, best-effort."""

from __future__ import annotations

import os

from toypoker import load_game
from toypoker.locks import lock_path
from toypoker.solvers import Solver
from toypoker.solvers.checkpoint import ScratchCheckpoint


def test_a_scratch_checkpoint_is_not_written_by_a_run_that_finishes(tmp_path):
    # before: every iterative solve of the CLI wrote its hidden temporary checkpoint at
    # the end (then deleted it): a full or read-only TMPDIR failed a run asking no file
    scratch = ScratchCheckpoint(tmp_path) / "toypoker-solve-1.npz"
    res = Solver(load_game("kuhn(players=2)"), "cfr+").run(20, checkpoint=scratch)
    assert res.iterations == 20
    assert os.listdir(tmp_path) == []  # no state, no lock


def test_a_scratch_checkpoint_that_cannot_be_written_never_fails_the_run(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    scratch = ScratchCheckpoint(blocker) / "ck.npz"  # under a file: ENOTDIR, root or not
    solver = Solver(load_game("kuhn(players=2)"), "cfr+")
    solver._save(scratch, ())  # what an interrupted run does: best-effort, silent
    assert solver.run(5, checkpoint=scratch, checkpoint_seconds=1e-9).iterations == 5


def test_a_users_checkpoint_is_locked_while_the_run_lives(tmp_path):
    ck = tmp_path / "ck.npz"
    seen = []

    def progress(t: int, nc: float | None) -> None:
        seen.append(lock_path(ck).read_text())

    Solver(load_game("kuhn(players=2)"), "cfr+").run(5, checkpoint=ck, progress=progress)
    assert seen and set(seen) == {f"{os.getpid()}\n"}  # the lock names this run
    assert sorted(os.listdir(tmp_path)) == ["ck.npz"]  # released and removed at the end
