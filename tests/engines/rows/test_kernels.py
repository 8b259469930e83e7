"""The compiled kernels equal the numpy reference passes to 1e-12 on every built-in game."""

from __future__ import annotations

import numpy as np
import pytest

from toypoker.engines.rows import CFRKernel, GameKernel, kernel_evaluate, kernel_nash_conv, prepare
from toypoker.engines.rows.best_response import kernel_best_response
from toypoker.engines.rows.cfr import regret_tolerance
from toypoker.engines.rows.values import (
    backward_values,
    best_response,
    counterfactual_reach,
    edge_probabilities,
    expected_values,
    reaches,
    root_value,
)

TOL = {"rtol": 1e-12, "atol": 1e-12}

GAMES = [
    "kuhn(players=2)",
    "kuhn(players=3)",
    "kuhn(players=4)",
    "kuhn(players=3,cards=5)",
    "kuhn_third_street",
    "kuhn_third_street(rational=true)",
    "skp",
    "leduc(players=2)",
    "leduc(players=3)",
]
SMALL = [g for g in GAMES if g != "leduc(players=3)"]

_KERNELS: dict[str, CFRKernel] = {}

# the named CFR schedules (solvers.cfr), as (floor, alpha, beta, gamma)
SCHEDULES = {
    "cfr": {"floor": False, "gamma": 0.0},
    "cfr+": {"floor": True, "gamma": 1.0},
    "lcfr": {"alpha": 1.0, "beta": 1.0, "gamma": 1.0},
    "dcfr": {"alpha": 1.5, "beta": 0.0, "gamma": 2.0},
}


def reference_cfr():
    """The reference solver module, imported when a test needs it."""
    from toypoker.solvers import cfr

    return cfr


def schedule(**fields):
    """The reference's schedule object on the numpy backend (the reference traversal)."""
    C = reference_cfr()
    return C.CFROptions(**fields, backend="numpy")


def initial_state(g):
    C = reference_cfr()
    return C.init(g) if hasattr(C, "init") else C.initial_state(g)


def kernel_of(game, spec: str) -> CFRKernel:
    if spec not in _KERNELS:
        _KERNELS[spec] = CFRKernel(game(spec))
    return _KERNELS[spec]


def random_sigma(g, rng: np.random.Generator, zeros: float = 0.2) -> np.ndarray:
    """A random profile with some exact zeros (ties, unreached rows); fixed entries kept."""
    x = rng.random(g.n_sigma)
    x[rng.random(g.n_sigma) < zeros] = 0.0
    sums = np.bincount(g.sigma_infoset, weights=x, minlength=g.n_infosets)[g.sigma_infoset]
    uniform = 1.0 / g.infoset_n_actions[g.sigma_infoset]
    sigma = np.where(sums > 0, x / np.where(sums > 0, sums, 1.0), uniform)
    sigma[g.sigma_fixed] = g.fixed_values[g.sigma_fixed]
    return np.ascontiguousarray(sigma)


def reference_instant_regrets(g, sigma: np.ndarray, player: int) -> np.ndarray:
    """Counterfactual regrets of ``player``'s free actions, from the reference passes."""
    eprob = edge_probabilities(g, sigma)
    cf = counterfactual_reach(g, reaches(g, eprob), player)
    v = backward_values(g, eprob, [player])[0]
    actor = g.row_actor[g.parent_row.clip(0)]
    es = g.edge_sigma
    idx = np.nonzero((es >= 0) & (actor == player))[0]
    idx = idx[~g.sigma_fixed[es[idx]]]
    par = g.parent_row[idx]
    return np.bincount(es[idx], weights=cf[par] * (v[idx] - v[par]), minlength=g.n_sigma)


@pytest.fixture(params=["uniform", "random"])
def sigma_kind(request):
    return request.param


def make_sigma(g, k, kind, rng):
    return k.uniform() if kind == "uniform" else random_sigma(g, rng)


@pytest.mark.parametrize("spec", GAMES)
def test_prepare_is_frozen_and_typed(game, spec):
    a = prepare(game(spec))
    assert a.parent.dtype == np.int64 and a.es.dtype == np.int64
    assert not a.parent.flags.writeable and not a.term_u.flags.writeable
    with pytest.raises(AttributeError):
        a.n_rows = 0  # frozen


def test_uniform_equals_initial_state(game):
    for spec in GAMES:
        g = game(spec)
        np.testing.assert_array_equal(kernel_of(game, spec).uniform(), initial_state(g).sigma)


@pytest.mark.parametrize("spec", GAMES)
def test_reaches_values_and_regrets(game, spec, sigma_kind, rng):
    g = game(spec)
    k = kernel_of(game, spec)
    sigma = make_sigma(g, k, sigma_kind, rng)
    eprob = edge_probabilities(g, sigma)
    reach = reaches(g, eprob)
    for p in range(g.n_players):
        np.testing.assert_allclose(
            k.counterfactual_reach(p, sigma), counterfactual_reach(g, reach, p), **TOL
        )
        mine = g.infoset_player == p
        np.testing.assert_allclose(
            k.own_reach(p, sigma)[mine], reach[p][g.infoset_rep_row[mine]], **TOL
        )
        inst, v, value = k.regrets_and_values(p, sigma)
        ref_v = backward_values(g, eprob, [p])[0]
        np.testing.assert_allclose(v, ref_v, **TOL)
        np.testing.assert_allclose(value, root_value(g, ref_v), **TOL)
        np.testing.assert_allclose(inst, reference_instant_regrets(g, sigma, p), **TOL)


@pytest.mark.parametrize("spec", GAMES)
def test_regrets_after_one_update(game, spec, rng):
    """One alternating update of each player from a random state: regrets, sums, sigma."""
    g = game(spec)
    k = kernel_of(game, spec)
    for p in range(g.n_players):
        sigma = random_sigma(g, rng)
        regrets = rng.normal(size=g.n_sigma)
        ssum = rng.random(g.n_sigma)
        ref_sigma, ref_regrets, ref_sum = sigma.copy(), regrets.copy(), ssum.copy()
        sigma_before = sigma.copy()
        # reference (the numpy passes, as solvers.cfr.step does for one player, CFR+)
        mask = (g.sigma_player == p) & ~g.sigma_fixed
        own = reaches(g, edge_probabilities(g, sigma))[p]
        ref_sum[mask] += 3.0 * own[g.infoset_rep_row[g.sigma_infoset]][mask] * sigma[mask]
        inst = reference_instant_regrets(g, sigma, p)
        ref_regrets[mask] = np.maximum(ref_regrets[mask] + inst[mask], 0.0)
        ref_sigma = reference_cfr().regret_matching(g, ref_regrets, ref_sigma, mask)
        value = k.update(p, sigma, regrets, ssum, 3.0, floor=True)
        np.testing.assert_allclose(regrets, ref_regrets, **TOL)
        np.testing.assert_allclose(ssum, ref_sum, **TOL)
        np.testing.assert_allclose(sigma, ref_sigma, **TOL)
        np.testing.assert_allclose(value, expected_values(g, sigma_before)[p], **TOL)


@pytest.mark.parametrize("spec", GAMES)
def test_nash_conv_and_best_responses(game, spec, sigma_kind, rng):
    g = game(spec)
    k = kernel_of(game, spec)
    sigma = make_sigma(g, k, sigma_kind, rng)
    ev = kernel_evaluate(k, sigma)
    values = expected_values(g, sigma)
    np.testing.assert_allclose(ev.values, values, **TOL)
    gains = []
    for p in range(g.n_players):
        ref = best_response(g, sigma, p)
        np.testing.assert_allclose(ev.br_values[p], ref.value, **TOL)
        br_value, value, choice = kernel_best_response(k, sigma, p)
        np.testing.assert_allclose(br_value, ref.value, **TOL)
        np.testing.assert_allclose(value, values[p], **TOL)
        # the kernel's pure response attains the best-response value
        mask = (g.sigma_player == p) & ~g.sigma_fixed
        played = np.where(mask, choice, sigma)
        np.testing.assert_allclose(expected_values(g, played)[p], ref.value, **TOL)
        gains.append(max(float(ref.value - values[p]), 0.0))
    np.testing.assert_allclose(ev.nash_conv, sum(gains), **TOL)
    np.testing.assert_allclose(kernel_nash_conv(k, sigma), sum(gains), **TOL)


@pytest.mark.parametrize("spec", [*SMALL, "mercer(players=3,variant=smh)"])
def test_fictitious_plays_responses_equal_the_numpy_reference(game, spec, rng):
    # independent path: toypoker.engines.rows.values.best_response (numpy) with the same tie rules
    # (the game's action order or Ullman's; the first maximum or within TIE_RTOL), on
    # the uniform profile (exact ties everywhere) and a random one
    from toypoker.engines.rows.best_response import responses
    from toypoker.solvers.fictitious import TIE_RTOL, ullman_order

    g = game(spec)
    k = GameKernel(g)
    for sigma in (k.uniform(), make_sigma(g, k, "random", rng)):
        values = expected_values(g, sigma)
        for order in (g.infoset_actions_padded, ullman_order(g)):
            for rtol in (0.0, TIE_RTOL):
                v, best, choice = responses(k, sigma, order, rtol)
                np.testing.assert_allclose(v, values, **TOL)
                for p in range(g.n_players):
                    ref = best_response(g, sigma, p, order=order, tie_rtol=rtol)
                    np.testing.assert_allclose(best[p], ref.value, **TOL)
                    mine = (g.sigma_player == p) & (choice == 1)
                    assert np.array_equal(mine, (g.sigma_player == p) & (ref.choice == 1))
                    assert not choice[(g.sigma_player == p) & g.sigma_fixed].any()


@pytest.mark.parametrize("ullman", [False, True])
def test_fictitious_play_on_the_kernel_equals_the_numpy_run(game, ullman):
    # the row layout's fictitious play on the kernel (the default for floats) against
    # its numpy reference (fused=False), 30 steps on three-player Leduc
    from toypoker.engines.rows.responses import RowsResponses
    from toypoker.solvers.fictitious import FPOptions, layout_init, layout_step

    g = game("leduc(players=3)")
    options = FPOptions(ullman=ullman)
    runs = []
    for fused in (True, False):
        layout = RowsResponses(g, fused=fused)
        state = layout_init(g, options, layout)
        for _ in range(30):
            state = layout_step(g, state, options, layout)
        runs.append(state)
    np.testing.assert_allclose(runs[0].sigma, runs[1].sigma, **TOL)
    np.testing.assert_allclose(runs[0].average, runs[1].average, **TOL)
    assert abs(runs[0].gain - runs[1].gain) <= 1e-12


def run_reference(g, sched, iterations: int) -> list:
    C = reference_cfr()
    state, out = initial_state(g), []
    for _ in range(iterations):
        state = C.reference_step(g, state, sched)
        out.append(state)
    return out


def kernel_args(sched, t: int) -> dict[str, object]:
    """The kernel arguments of iteration ``t`` under ``sched`` (as solvers.cfr.step)."""
    weight = float(t) ** sched.gamma if t > sched.delay else 0.0
    pos = neg = 1.0
    if sched.alpha is not None:
        ta, tb = float(t) ** sched.alpha, float(t) ** sched.beta
        pos, neg = ta / (ta + 1.0), tb / (tb + 1.0)
    return {
        "weight": weight,
        "floor": sched.floor,
        "pos_discount": pos,
        "neg_discount": neg,
        "alternating": sched.alternating,
    }


def assert_same_iterates(g, k, sched, iterations):
    ref = run_reference(g, sched, iterations)
    st = initial_state(g)
    sigma, regrets, ssum = st.sigma.copy(), st.regrets.copy(), st.average.copy()
    for t, r in enumerate(ref, start=1):
        tol = regret_tolerance(k.payoff_scale, t)  # the reference's (solvers.cfr)
        k.iteration(sigma, regrets, ssum, **kernel_args(sched, t), tolerance=tol)
        np.testing.assert_allclose(sigma, r.sigma, **TOL, err_msg=f"sigma, iteration {t}")
        np.testing.assert_allclose(regrets, r.regrets, **TOL, err_msg=f"regrets, iteration {t}")
        np.testing.assert_allclose(ssum, r.average, **TOL, err_msg=f"average, iteration {t}")


@pytest.mark.parametrize("spec", ["leduc(players=2)", "leduc(players=3)"])
def test_cfr_plus_iterates_equal_solver_on_leduc(game, spec):
    g = game(spec)
    assert_same_iterates(g, kernel_of(game, spec), schedule(**SCHEDULES["cfr+"]), 10)


@pytest.mark.parametrize("spec", SMALL)
@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_every_schedule_iterates_equal_solver(game, spec, name):
    g = game(spec)
    assert_same_iterates(g, kernel_of(game, spec), schedule(**SCHEDULES[name]), 10)


@pytest.mark.parametrize("spec", ["kuhn(players=3)", "leduc(players=2)"])
def test_simultaneous_and_delay_equal_solver(game, spec):
    g = game(spec)
    sched = schedule(floor=True, gamma=2.0, alternating=False, delay=3)
    assert_same_iterates(g, kernel_of(game, spec), sched, 10)


def test_predictive_cfr_plus_converges_on_kuhn(game):
    """PCFR+ support (Farina, Kroer & Sandholm 2021): the average converges on 2-player Kuhn."""
    g = game("kuhn(players=2)")
    k = kernel_of(game, "kuhn(players=2)")
    sigma, regrets, ssum = k.uniform(), np.zeros(g.n_sigma), np.zeros(g.n_sigma)
    for t in range(1, 2001):
        k.iteration(sigma, regrets, ssum, weight=float(t) ** 2, predictive=True)
    sums = np.bincount(g.sigma_infoset, weights=ssum, minlength=g.n_infosets)[g.sigma_infoset]
    assert np.all(sums > 0)
    assert kernel_nash_conv(k, np.ascontiguousarray(ssum / sums)) < 1e-4


def test_kernel_rejects_bad_arrays(game):
    from toypoker.errors import ToypokerError

    k = GameKernel(game("kuhn(players=2)"))
    with pytest.raises(ToypokerError):
        kernel_nash_conv(k, np.zeros(3))
    with pytest.raises(ToypokerError):
        kernel_nash_conv(k, k.uniform().astype(np.float32))


def test_unfloored_predictive_uses_the_sign_dependent_pair(game):
    """Unfloored predictive DCFR: the kernel's (predict_discount, predict_neg_discount)
    pair equals the reference's ``d(t+1)`` applied by sign."""
    C = reference_cfr()
    g = game("leduc(players=2)")
    k = kernel_of(game, "leduc(players=2)")
    sched = schedule(alpha=1.5, beta=0.5, gamma=2.0, predictive=True)
    ref = run_reference(g, sched, 10)
    st = initial_state(g)
    sigma, regrets, ssum = st.sigma.copy(), st.regrets.copy(), st.average.copy()
    for t, r in enumerate(ref, start=1):
        k.iteration(sigma, regrets, ssum, **C.kernel_schedule(sched, t, k.payoff_scale))
        np.testing.assert_allclose(sigma, r.sigma, **TOL, err_msg=f"sigma, iteration {t}")
        np.testing.assert_allclose(regrets, r.regrets, **TOL, err_msg=f"regrets, iteration {t}")


def test_kernel_for_is_per_game_and_per_thread(game):
    import threading

    from toypoker.engines.rows import kernel_for

    g = game("kuhn(players=3)")
    k = kernel_for(g)
    assert kernel_for(g) is k and isinstance(k, CFRKernel)
    other: list[CFRKernel] = []
    t = threading.Thread(target=lambda: other.append(kernel_for(g)))
    t.start()
    t.join()
    # another thread: its own scratch buffers over the same read-only arrays
    assert other[0] is not k and other[0].arrays is k.arrays and other[0].cf is not k.cf


def test_regret_tolerance_keeps_rounding_ties_uniform(game):
    """A tie broken by rounding (``[0, 4e-17]``, as the vector layout's sums left it on
    ``holdem(players=2,ranks=4,suits=2,hole=2,...)``) stays a tie: uniform play in the
    kernel and in the numpy reference, and CFR+'s floor sets the residue to 0; a
    regret above the tolerance still counts."""
    from toypoker.engines.rows.cfr import payoff_scale, update_regrets_and_match

    C = reference_cfr()
    g = game("kuhn(players=2)")
    # the largest pot: both players' ante 1 and bet 1 (Kuhn 1950)
    assert payoff_scale(g) == 4.0
    tol = regret_tolerance(payoff_scale(g), 3)
    assert tol == 1e-13 * 4.0 * 3
    p = int(g.infoset_player[0])
    mask = (g.sigma_player == p) & ~g.sigma_fixed
    lo = int(g.infoset_offset[0])
    for residue, want in [(4e-17, [0.5, 0.5]), (2 * tol, [0.0, 1.0])]:
        inst = np.zeros(g.n_sigma)
        inst[lo + 1] = residue
        regrets, sigma = np.zeros(g.n_sigma), np.full(g.n_sigma, 0.25)
        update_regrets_and_match(
            p, sigma, regrets, inst, 1.0, 1.0, True, False, 1.0, 1.0, tol, g.infoset_player,
            ~np.asarray(g.infoset_restricted, dtype=bool), g.infoset_offset,
        )  # fmt: skip
        assert sigma[lo : lo + 2].tolist() == want
        assert regrets[lo + 1] == (0.0 if residue < tol else residue)
        ref = C.regret_matching(g, inst, np.full(g.n_sigma, 0.25), mask, tol)
        assert ref[lo : lo + 2].tolist() == want
    # without a tolerance (plain signs) the residue decides: the old behaviour
    ref = C.regret_matching(g, np.where(np.arange(g.n_sigma) == lo + 1, 4e-17, 0.0),
                            np.full(g.n_sigma, 0.25), mask)  # fmt: skip
    assert ref[lo : lo + 2].tolist() == [0.0, 1.0]
