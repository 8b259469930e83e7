"""Every method behind one protocol: documented tolerances, exact LP, resumability.

Documented tolerances (NashConv after the given iterations; README, "Solvers"):

=========  ==================  ===================
method     kuhn(players=3)     leduc(players=2)
=========  ==================  ===================
cfr        1e-2 @ 1000         5e-2 @ 1000
cfr+       1e-3 @ 2000         1e-2 @ 400
lcfr       1e-3 @ 1500         2e-2 @ 1000
dcfr       1e-3 @ 2000         1e-2 @ 400
fp         2e-2 @ 1000         0.2 @ 1000
es-mccfr   0.1 @ 4000          1.0 @ 4000
os-mccfr   0.3 @ 4000          3.0 @ 4000  (uniform: 4.747)
lp         --                  exact (0)
=========  ==================  ===================
"""

from fractions import Fraction as F

import numpy as np
import pytest

from tests.conftest import game
from toypoker.errors import ToypokerError
from toypoker.solvers import load_checkpoint, solve
from toypoker.solvers.lp import solve_lp

TOL = {
    "kuhn(players=3)": {
        "cfr": (1e-2, 1000),
        "cfr+": (1e-3, 2000),
        "lcfr": (1e-3, 1500),
        "dcfr": (1e-3, 2000),
        "fp": (2e-2, 1000),
        "es-mccfr": (0.1, 4000),
        "os-mccfr": (0.3, 4000),
    },
    "leduc(players=2)": {
        "cfr": (5e-2, 1000),
        "cfr+": (1e-2, 400),
        "lcfr": (2e-2, 1000),
        "dcfr": (1e-2, 400),
        "fp": (0.2, 1000),
        "es-mccfr": (1.0, 4000),
        "os-mccfr": (3.0, 4000),
    },
}
CASES = [(spec, m) for spec, ms in TOL.items() for m in ms]


@pytest.mark.parametrize("spec, method", CASES)
def test_method_reaches_documented_tolerance(spec, method):
    tol, its = TOL[spec][method]
    r = solve(game(spec), method=method, iterations=its, seed=0)
    assert r.nash_conv < tol
    assert r.iterations == its
    assert abs(sum(r.values)) < 1e-12  # zero-sum


def test_lp_kuhn_value_exact():
    # Kuhn (1950): the value of Simplified Poker is -1/18
    r = solve(game("kuhn(players=2)"), method="lp")
    assert r.extra["certified"] and F(r.extra["value_exact"]) == F(-1, 18)
    assert r.nash_conv == 0 and r.profile.exact


def test_lp_kuhn_general_ante_bet():
    # Kuhn (1950), case 3 (a <= b <= 2a): value -(b/6)(2a-b)/(2a+b); a=1, b=3/2 -> -1/28
    r = solve_lp(game("kuhn(players=2,ante=1,bet=3/2)"))
    assert r.certified and r.value_bounds[0] == F(-1, 28)


def test_lp_leduc_value():
    # OpenSpiel's published test value for leduc_poker: -0.085606424078 (player 1)
    r = solve_lp(game("leduc(players=2)"))
    assert r.value == pytest.approx(-0.085606424078, abs=1e-9)
    # ... and recovered exactly, certified by exact best responses (both gains 0)
    assert r.certified
    assert float(r.value_bounds[0]) == pytest.approx(-0.085606424078, abs=1e-12)
    assert r.value_bounds[0] == F(
        -1454920850547486749701863871533, 16995463438839962469905132501930
    )


def test_lp_needs_two_players():
    with pytest.raises(ToypokerError, match="two-player"):
        solve(game("kuhn(players=3)"), method="lp")


@pytest.mark.parametrize("method", ["cfr+", "dcfr", "fp", "es-mccfr", "os-mccfr"])
def test_resume_is_bit_for_bit(tmp_path, method):
    g = game("kuhn(players=3)")
    full = solve(g, method=method, iterations=120, seed=5)
    ck = tmp_path / "ck.npz"
    half = solve(g, method=method, iterations=50, seed=5, checkpoint=ck)
    assert half.iterations == 50 and ck.exists()
    resumed = solve(g, method=method, iterations=120, resume=ck)
    assert resumed.iterations == 120 and resumed.seed == 5
    assert np.array_equal(resumed.profile.probs, full.profile.probs)
    assert [p.iteration for p in resumed.trace] == [p.iteration for p in full.trace]
    assert [p.nash_conv for p in resumed.trace] == [p.nash_conv for p in full.trace]


@pytest.mark.parametrize("method", ["es-mccfr", "os-mccfr"])
def test_mccfr_fixed_seed_reproducible(method):
    g = game("leduc(players=2)")
    a = solve(g, method=method, iterations=200, seed=42)
    b = solve(g, method=method, iterations=200, seed=42)
    c = solve(g, method=method, iterations=200, seed=43)
    assert np.array_equal(a.profile.probs, b.profile.probs)
    assert not np.array_equal(a.profile.probs, c.profile.probs)


def test_interrupt_leaves_checkpoint_and_result(tmp_path):
    g = game("kuhn(players=3)")
    ck = tmp_path / "ck.npz"

    def ctrl_c(t, nc):
        if t == 30:
            raise KeyboardInterrupt

    r = solve(g, method="cfr+", iterations=100, checkpoint=ck, progress=ctrl_c)
    assert r.stopped == "interrupted" and r.iterations == 30
    assert (
        load_checkpoint(
            ck,
            {"CFRState": type(__import__("toypoker.solvers.cfr", fromlist=["x"]).initial_state(g))},
        ).state.iteration
        == 30
    )
    resumed = solve(g, method="cfr+", iterations=100, resume=ck)
    straight = solve(g, method="cfr+", iterations=100)
    assert np.array_equal(resumed.profile.probs, straight.profile.probs)


def test_checkpoint_for_another_game_is_refused(tmp_path):
    ck = tmp_path / "ck.npz"
    solve(game("kuhn(players=2)"), iterations=5, checkpoint=ck)
    with pytest.raises(ToypokerError, match="is for"):
        solve(game("kuhn(players=3)"), iterations=10, resume=ck)


def test_schedule_options_and_unknown_options():
    g = game("kuhn(players=2)")
    r = solve(g, method="cfr", iterations=10, alternating=True)
    assert r.params["options"]["alternating"] is True
    with pytest.raises(ToypokerError, match="unknown option"):
        solve(g, method="cfr", iterations=10, warp=9)


def test_fictitious_play_is_ullmans_averaging():
    # Ullman (2015): start uniform, best-respond to the average, average with 1/(t+1).
    # After one iteration the average is (uniform + BR) / 2 in realization weights:
    # at the root (own reach 1) that is the plain mean of the two behaviours.
    from toypoker.evaluate import best_response
    from toypoker.profile import Profile

    g = game("kuhn(players=2)")
    u = Profile.uniform(g)
    r = solve(g, method="fp", iterations=1)
    for p in (0, 1):
        br = best_response(g, u, p)
        for info in g.infosets:
            if info.player == p and info.node == g.infosets_of(p)[0].node:
                sl = slice(info.offset, info.offset + 2)
                assert np.allclose(r.profile.probs[sl], (u.probs[sl] + br.choice[sl]) / 2)


@pytest.mark.parametrize("method", ["es-mccfr", "os-mccfr"])
def test_step_many_equals_single_steps(method):
    from toypoker.solvers.base import REGISTRY

    g = game("leduc(players=2)")
    m = REGISTRY[method]
    opts = dict(m.defaults)
    a = m.init(g, opts, 9)
    b = m.init(g, opts, 9)
    for _ in range(37):
        a = m.step(g, a, opts)
    b = m.step_many(g, b, opts, 37)
    assert a.iteration == b.iteration == 37
    assert np.array_equal(a.regrets, b.regrets) and np.array_equal(a.average, b.average)
    assert a.rng == b.rng


def test_fictitious_play_stops_on_ullmans_eps():
    # Ullman (2015): stop when the largest best-response gain is below eps
    r = solve(
        game("kuhn(players=2)"), method="fp", iterations=None, target_max_gain=0.01, check_every=10
    )
    assert r.stopped == "target" and max(r.gains) <= 0.01
