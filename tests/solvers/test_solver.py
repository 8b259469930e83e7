"""The run loop's NashConv checks (``toypoker.solvers.solver``): the geometric marks,
and with a target the check aimed where the target is predicted to be met."""

import math

import numpy as np
import pytest

from toypoker.errors import Interrupted
from toypoker.solvers import solve
from toypoker.solvers.solver import AIM_MIN_STEP, Checks, check_schedule


def run_checks(checks: Checks, nash_conv, target: float, limit: int = 10**6) -> list[int]:
    """The iterations ``checks`` checks at, up to the first at or below ``target``, on a
    run whose NashConv at ``t`` is ``nash_conv(t)``."""
    made = []
    for t in range(1, limit):
        if checks(t):
            made.append(t)
            checks.observe(t, nash_conv(t))
            if nash_conv(t) <= target:
                return made
    raise AssertionError("the target was never checked")


def test_an_aimed_check_lands_where_a_power_law_meets_the_target():
    # NashConv = 5 / t meets 1e-3 at t = 5000; the geometric marks (25 a decade) are
    # at 4802 and 5265, so without aims the run would stop at 5265
    marks = check_schedule(None)
    assert [t for t in range(4700, 5300) if marks(t)] == [4802, 5265]
    made = run_checks(Checks(marks, 1e-3), lambda t: 5.0 / t, 1e-3)
    assert made[-1] == 5000
    # every check before is a mark or an aim, the aim once the two first are made
    assert made[:-1] == [t for t in range(1, 5000) if marks(t)]
    # without a target (or a zero one) no check is aimed
    assert run_checks(Checks(marks), lambda t: 5.0 / t, 1e-3)[-1] == 5265
    assert run_checks(Checks(marks, 0.0), lambda t: 5.0 / t, 1e-3)[-1] == 5265


def test_an_aim_is_never_closer_than_the_minimum_step_nor_made_without_progress():
    checks = Checks(lambda t: False, 1.0)
    checks.observe(100, 2.0)
    assert checks.aim is None  # one check: no line yet
    checks.observe(200, 1.0 + 1e-9)  # the target is predicted at 200.0000003
    assert checks.aim == 200 + math.ceil(AIM_MIN_STEP * 200)
    checks.observe(300, 1.5)  # no progress since the last check: no aim
    assert checks.aim is None
    checks.observe(400, 1.499)  # a crossing far beyond a decade: no aim
    assert checks.aim is None


def test_a_run_with_a_target_stops_at_an_aimed_check_and_resumes_there(tmp_path, game):
    # three-player Kuhn with CFR+ to NashConv 1e-4 (measured 2026-11-28): checks aimed
    # at 539 and 550 miss, the mark at 577 meets it; without aims the same run stops
    # at 577 too, so a resumed run must replay the aims to end on the same trace
    g = game("kuhn(players=3)")
    full = solve(g, "cfr+", target_nash_conv=1e-4, iterations=None)
    marks = check_schedule(None)
    aimed = [p.iteration for p in full.trace if not marks(p.iteration)]
    assert aimed, "no check was aimed"
    assert full.nash_conv <= 1e-4 < full.trace[-2].nash_conv
    ck = tmp_path / "ck.npz"

    before = max(p.iteration for p in full.trace if p.iteration < aimed[0])

    def ctrl_c(t, nc):  # Ctrl-C at the check the first aim is predicted from
        if t == before:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stop:
        solve(g, "cfr+", target_nash_conv=1e-4, iterations=None, checkpoint=ck,
              progress=ctrl_c)  # fmt: skip
    half = stop.value.result
    assert half.stopped == "interrupted" and half.iterations == before
    resumed = solve(g, "cfr+", target_nash_conv=1e-4, iterations=None, resume=ck)
    assert resumed.iterations == full.iterations
    assert [p.iteration for p in resumed.trace] == [p.iteration for p in full.trace]
    assert np.array_equal(resumed.profile.probs, full.profile.probs)


def test_check_every_is_kept_as_given_with_a_target(game):
    # check_every: checks at its multiples only, no aim
    r = solve(game("kuhn(players=2)"), "cfr+", target_nash_conv=1e-3, iterations=400,
              check_every=7)  # fmt: skip
    assert r.nash_conv <= 1e-3 and r.iterations % 7 == 0
    assert all(p.iteration % 7 == 0 for p in r.trace)


def test_a_run_steps_in_place_and_an_interrupt_between_iterations_keeps_the_count(
    game, monkeypatch
):
    # after its first step a run steps its own state in place (solvers.cfr.steps_in_place):
    # the same profile as a run of copies; a state the caller holds is not touched; an
    # interrupt inside a batch (between two kernel iterations) leaves the state's
    # iteration count equal to the iterations its arrays hold
    from toypoker.engines.rows.cfr import CFRKernel
    from toypoker.solvers import cfr as C
    from toypoker.solvers.registry import METHODS

    g = game("leduc(players=2)")
    opts = METHODS["cfr+"].defaults
    full = solve(g, "cfr+", iterations=120)
    assert np.array_equal(
        full.profile.probs, C.output(g, C.step_many(g, C.init(g), opts, 120), opts)
    )
    calls = [0]
    real = CFRKernel.iteration

    def stop_at_105(self, *args, **kwargs):
        calls[0] += 1  # call 1: init's warm-up (solvers.cfr.init), call t + 1: iteration t
        if calls[0] == 106:  # iteration 105: inside the batch from the check at 100 to 110
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(CFRKernel, "iteration", stop_at_105)
    with pytest.raises(Interrupted) as stop:
        solve(g, "cfr+", iterations=120)
    cut = stop.value.result
    assert cut.stopped == "interrupted" and cut.iterations == 104
    assert np.array_equal(
        cut.profile.probs, C.output(g, C.step_many(g, C.init(g), opts, 104), opts)
    )
