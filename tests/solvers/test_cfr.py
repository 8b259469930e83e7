"""The CFR family behind solve(): convergence and the result object."""

import dataclasses

import numpy as np
import pytest

from toypoker.errors import ToypokerError
from toypoker.solvers import Solver, solve


def test_cfr_plus_three_player_kuhn_below_1e3(game):
    # Issue 2: CFR+ on kuhn(players=3) reaches NashConv below 1e-3
    r = solve(game("kuhn(players=3)"), method="cfr+", iterations=3000, target_nash_conv=1e-3)
    assert r.nash_conv < 1e-3
    assert r.stopped == "target"
    # Szafron et al. Table 3: every equilibrium of the family gives P2 -k/2 = -1/48
    assert r.values[1] == pytest.approx(-1 / 48, abs=2e-3)


def test_cfr_plus_two_player_kuhn_value(game):
    # Kuhn (1950): value -1/18
    r = solve(game("kuhn(players=2)"), method="cfr+", iterations=2000)
    assert r.values[0] == pytest.approx(-1 / 18, abs=1e-3)
    assert r.nash_conv < 1e-3


@pytest.mark.parametrize("method", ["cfr", "cfr+", "lcfr", "dcfr"])
def test_every_variant_converges_on_leduc(method, game):
    # NashConv after 400 iterations (deterministic: 0.0529, 0.00242, 0.0245, 0.00139)
    r = solve(game("leduc(players=2)"), method=method, iterations=400)
    tol = {"cfr": 0.06, "cfr+": 3e-3, "lcfr": 0.03, "dcfr": 2e-3}[method]
    assert r.nash_conv < tol
    # two-player zero-sum: the value lies in [v1 - gain2, v1 + gain1]; the value is
    # the LP's certified -0.085606424078 (OpenSpiel's test value; test_methods.py)
    assert r.values[0] - r.gains[1] - 1e-12 <= -0.085606424078 <= r.values[0] + r.gains[0] + 1e-12


def test_result_is_frozen_and_complete(game):
    r = solve(game("kuhn(players=2)"), iterations=50)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.iterations = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.options["floor"] = False  # type: ignore[index]
    assert r.iterations == 50 and r.trace[-1].iteration == 50
    its = [p.iteration for p in r.trace]
    assert its == sorted(its)
    d = r.to_json_dict()
    assert d["options"]["iterations"] == 50 and d["options"]["output"] == "average"
    assert d["profile"]["game"] == r.spec == r.game.spec


def test_cfr_plus_floors_regrets(game):
    # Tammelin (2014): CFR+ keeps accumulated regrets at or above 0; vanilla CFR does not
    g = game("kuhn(players=2)")
    assert Solver(g, "cfr+").step(50).state.regrets.min() >= 0
    assert Solver(g, "cfr").step(50).state.regrets.min() < 0


def test_restrictions_stay_fixed(game):
    g = game("skp(pot=9)")
    r = solve(g, iterations=200)
    assert np.array_equal(r.profile.probs[g.sigma_fixed], g.fixed_values[g.sigma_fixed])


@pytest.mark.parametrize("spec", ["skp(pot=9)", "leduc(players=2)"])
def test_average_strategy_is_the_normalised_sum(game, spec):
    # average_strategy (one compiled pass) against the numpy formula it replaced: sums
    # per infoset by bincount, sigma where nothing accumulated, fixed values kept; bit
    # for bit, on random sums with some infosets empty
    from toypoker.solvers.cfr import average_strategy

    g = game(spec)
    rng = np.random.default_rng(3)
    average = rng.random(g.n_sigma) * (rng.random(g.n_infosets) < 0.7)[g.sigma_infoset]
    sigma = rng.random(g.n_sigma)
    sums = np.bincount(g.sigma_infoset, weights=average, minlength=g.n_infosets)[g.sigma_infoset]
    want = np.where(sums > 0, average / np.where(sums > 0, sums, 1.0), sigma)
    want[g.sigma_fixed] = g.fixed_values[g.sigma_fixed]
    got = average_strategy(g, average, sigma)
    assert np.array_equal(got, want)
    assert (got != sigma).any() and (got == sigma).any()


def test_bad_arguments(game):
    with pytest.raises(ToypokerError, match="unknown method"):
        solve(game("kuhn(players=2)"), method="magic")
    with pytest.raises(ToypokerError, match="at least 1"):
        solve(game("kuhn(players=2)"), iterations=0)


CFR_FAMILY = ["cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "dcfr+", "pdcfr+"]


def _close(a, b, tol=1e-12):
    """|a - b| <= tol * max(1, |b|_max): equal up to the kernels' summation order."""
    return float(np.abs(a - b).max()) <= tol * max(1.0, float(np.abs(b).max()))


@pytest.mark.parametrize("spec", ["kuhn(players=3)", "leduc(players=2)"])
@pytest.mark.parametrize("method", CFR_FAMILY)
@pytest.mark.parametrize("alternating", [True, False])
def test_numba_backend_equals_numpy_reference(spec, method, alternating, game):
    # issue 11: the fused kernel (default backend) runs the same schedule as the
    # numpy reference traversal, iterate by iterate
    g = game(spec)
    fast = Solver(g, method, alternating=alternating)
    ref = Solver(g, method, alternating=alternating, backend="numpy")
    assert fast.options.backend == "numba" and ref.options.backend == "numpy"
    for t in range(1, 21):
        fast.step()
        ref.step()
        a, b = fast.state, ref.state
        assert a.iteration == b.iteration == t
        assert _close(fast.profile().probs, ref.profile().probs), f"output, iteration {t}"
        assert _close(a.regrets, b.regrets), f"regrets, iteration {t}"
        assert _close(a.average, b.average), f"average, iteration {t}"
        # the current strategy divides regrets by their positive sum, which can be
        # small: measured up to 9.8e-13 apart (pdcfr+, Leduc, alternating)
        assert _close(a.sigma, b.sigma, 1e-11), f"sigma, iteration {t}"
    ra, rb = fast.result(), ref.result()
    assert abs(ra.nash_conv - rb.nash_conv) <= 1e-12


def test_step_many_and_states_unchanged(game):
    from toypoker.solvers import cfr

    g = game("leduc(players=2)")
    o = cfr.CFROptions(floor=True, gamma=1.0)
    s0 = cfr.init(g)
    before = s0.regrets.copy()
    one = s0
    for _ in range(7):
        one = cfr.step(g, one, o)
    many = cfr.step_many(g, s0, o, 7)
    assert np.array_equal(s0.regrets, before)  # states are values: never updated in place
    for f in ("regrets", "average", "sigma"):
        assert np.array_equal(getattr(one, f), getattr(many, f))
    with pytest.raises(ToypokerError, match="backend must be one of"):
        solve(g, "cfr+", backend="cuda")


def test_numpy_backend_checkpoint_resumes_bit_for_bit(tmp_path, game):
    from toypoker.solvers import load_checkpoint

    g = game("kuhn(players=3)")
    ck = tmp_path / "ck.npz"
    solve(g, "pcfr+", iterations=15, backend="numpy", checkpoint=ck)
    assert load_checkpoint(ck).options.backend == "numpy"
    s = Solver.from_checkpoint(ck, g).step(10)
    straight = Solver(g, "pcfr+", backend="numpy").step(25)
    assert np.array_equal(s.state.regrets, straight.state.regrets)
    assert np.array_equal(s.profile().probs, straight.profile().probs)


def test_result_evaluation_equals_the_reference(game):
    # the run loop and result() evaluate float profiles with the fused kernel
    from toypoker.evaluation import evaluate, nash_conv

    g = game("leduc(players=2)")
    r = solve(g, "cfr+", iterations=30)
    ev = evaluate(g, r.profile)
    assert np.allclose(r.values, ev.values, rtol=0, atol=1e-12)
    assert np.allclose(r.gains, ev.gains, rtol=0, atol=1e-12)
    assert abs(r.nash_conv - ev.nash_conv) <= 1e-12
    assert abs(float(nash_conv(g, r.profile)) - ev.nash_conv) <= 1e-12
    assert r.trace[-1].nash_conv == r.nash_conv


def test_steps_in_place_update_the_given_arrays_with_the_same_iterates(game):
    # the run loop's own state is stepped in place (no three fresh copies an iteration:
    # a tenth of a Rhode Island iteration): the same iterates as copying, bit for bit;
    # outside the block the given state is never touched
    from toypoker.solvers import cfr as C

    g = game("leduc(players=2)")
    opts = C.CFROptions(floor=True, alpha=2.3, gamma=5.0, predictive=True)
    first = C.step_many(g, C.init(g), opts, 1)
    kept = first.sigma.copy()
    copied = C.step_many(g, first, opts, 7)
    assert copied.sigma is not first.sigma and np.array_equal(first.sigma, kept)
    with C.steps_in_place() as done:
        stepped = C.step_many(g, first, opts, 7)
    assert stepped.sigma is first.sigma and stepped.regrets is first.regrets
    assert stepped.iteration == done[0] == 8
    for name in ("sigma", "regrets", "average"):
        assert np.array_equal(getattr(stepped, name), getattr(copied, name))
    read_only = dataclasses.replace(stepped, sigma=stepped.sigma.copy())
    read_only.sigma.flags.writeable = False
    with C.steps_in_place():  # an array the kernel cannot write is copied
        assert C.step_many(g, read_only, opts, 1).sigma is not read_only.sigma


def test_the_one_cfr_iteration_asks_the_game_s_engine(monkeypatch):
    """solvers/cfr.py holds the schedule and no layout: an iteration takes the regrets
    (``Engine.regrets``) and the fused kernel (``Engine.cfr_kernel``) from the engine
    the game is built on.  An engine without a kernel whose regrets are counted: CFR+
    on two-player Kuhn asks it once per player an iteration (alternating updates), and
    its iterates are the fused kernel's (equal to 1e-12 over 20 iterations: the same
    sums in another order)."""
    from types import MappingProxyType

    import toypoker as tp
    from toypoker.engines import registry

    asked: list[tuple[int, ...]] = []

    class NoKernel(registry.ENGINES["rows"]):  # type: ignore[misc,valid-type]
        def regrets(self, sigma, group):
            asked.append(tuple(group))
            return super().regrets(sigma, group)

        def cfr_kernel(self):
            return None

    spec = "kuhn(players=2,ante=3)"
    kernel = solve(tp.load_game(spec), "cfr+", iterations=20)
    engines = MappingProxyType({**registry.ENGINES, "rows": NoKernel})
    monkeypatch.setattr(registry, "ENGINES", engines)
    counted = solve(tp.load_game(spec), "cfr+", iterations=20)  # a new game: a new engine
    assert asked[:2] == [(0,), (1,)] and len(asked) >= 40
    np.testing.assert_allclose(counted.profile.probs, kernel.profile.probs, rtol=0, atol=1e-12)
