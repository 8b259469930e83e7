"""The relevant-pairs relaxation's saddle LP, certified from both sides
(src/toypoker/solvers/team_saddle.py): the exact repair of a relaxation point, the floor
below which no relaxation-based upper end can go, and the upper end at the LP's outsider,
against the exact TMECor values of three-player Kuhn (4 cards) and 3P-SMH."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker.errors import ToypokerError
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.teams.forms import Columns, Outsider
from toypoker.teams.relaxation import certified_bound, pair_model
from toypoker.teams.response import random_plans
from toypoker.teams.saddle import (
    _member_structure,
    feasible_pairs,
    floor_generation,
    relaxation_floor,
    saddle_bounds,
)

F = Fraction
pytest.importorskip("highspy", reason="the saddle LP is passed to HiGHS through highspy")

# exact weak TMECor values of kuhn(players=3) (4 cards): tests/solvers/test_tmecor.py
# (width-0 brackets by the MILP column generation, an independent path)
WEAK4 = {(0, 1): F(-1, 24), (0, 2): F(7, 264), (1, 2): F(5, 132)}


def _lifted(game, model, plan) -> np.ndarray:
    """The relaxation point of a joint pure plan: ``w(i, j) = x_i z_j`` over the kept
    pairs, ``x``, ``z`` the members' 0/1 realization plans (exactly feasible)."""
    real = []
    for k, (par, _, depth) in enumerate(_member_structure(game, model)):
        x = np.ones(len(par))
        chosen = plan[model.sigma[k]].astype(float)
        for s in np.argsort(depth)[1:]:
            x[s] = chosen[s - 1] * x[par[s]]
        real.append(x)
    i, j = model.keys // model.n_b, model.keys % model.n_b
    return real[0][i] * real[1][j]


@pytest.mark.parametrize("team", sorted(WEAK4))
def test_saddle_brackets_the_exact_value_on_four_card_kuhn(team):
    # both certified sides hold the exact TMECor value (the relaxation is tight on
    # four-card Kuhn: its saddle value is the TMECor value, to the LP's tolerance)
    g = load_rows("kuhn(players=3)")
    s = saddle_bounds(g, team, 60.0, "simplex")
    assert s.floor <= s.upper.value and WEAK4[team] <= s.upper.value
    assert abs(s.floor - WEAK4[team]) < F(1, 10**9)
    assert s.upper.value - WEAK4[team] < F(1, 10**5)
    assert s.lp.status == "Optimal"


@pytest.mark.slow
def test_saddle_floor_on_smh_is_the_exact_value():
    # 3P-SMH team {2,3}: exact weak TMECor value 89108/944775 (tests/solvers/test_tmecor.py,
    # the hybrid oracle's width-0 bracket); PDLP, both sides certified around it
    g = load_rows("mercer(players=3,variant=smh)")
    s = saddle_bounds(g, (1, 2), 60.0)
    assert s.floor <= F(89108, 944775) + F(1, 10**9) and F(89108, 944775) <= s.upper.value
    assert s.upper.value - s.floor < F(1, 10**6)


def test_feasible_pairs_repairs_any_point_exactly():
    # a random point (outside [0,1] too), far from the relaxation: the repaired integers satisfy
    # every kept equality exactly (checked here in Python integers, row by row)
    g = load_rows("kuhn(players=3,cards=3)")
    model = pair_model(g, (0, 2))
    w = np.random.default_rng(3).random(model.n_vars) * 1.5 - 0.2
    w[5] = np.nan  # an iterate may hold anything
    big = feasible_pairs(g, model, w, bits=30)
    a = model.a.tocsr()
    for r in range(model.n_constraints):
        lo, hi = a.indptr[r], a.indptr[r + 1]
        pairs = zip(a.data[lo:hi], a.indices[lo:hi], strict=True)
        lhs = sum(int(v) * int(big[c]) for v, c in pairs)
        assert lhs == (1 << 30 if r == 0 else 0)
    assert big.min() >= 0 and big.max() <= 1 << 30
    with pytest.raises(ToypokerError, match="bits"):
        feasible_pairs(g, model, w, bits=61)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_pure_plan_is_kept_and_its_floor_is_its_exact_guarantee(seed):
    # the lifted point of a joint pure plan is feasible already: the repair keeps it, and
    # the floor is the plan's exact value against the outsider's exact best response
    # (independent path: the plan's exact column, the outsider's backward induction)
    g = load_rows("kuhn(players=3)")
    team = (1, 2)
    model = pair_model(g, team)
    plan = random_plans(g, team, 1, np.random.default_rng(seed))[0]
    w = _lifted(g, model, plan)
    assert np.array_equal(feasible_pairs(g, model, w), np.round(w * 2**52).astype(np.int64))
    out = Outsider(g, (0,))
    col = Columns(g, out, team)
    guarantee = out.best_response_value(list(col(plan, exact=True)))
    assert relaxation_floor(g, team, w, model) == guarantee
    # and below the relaxation's certified bound at any outsider strategy (uniform here)
    uniform = {i.index: [F(1, len(i.actions))] * len(i.actions) for i in out.infosets}
    num, den = col.exact_coefficients(uniform)
    assert guarantee <= certified_bound(model, np.zeros(model.n_constraints), num, den)


def test_saddle_needs_a_team_of_two_and_a_fitting_iterate():
    g = load_rows("kuhn(players=3)")
    with pytest.raises(ToypokerError, match="team of two"):
        saddle_bounds(g, (0, 1, 2), 1.0)  # type: ignore[arg-type]
    s = saddle_bounds(g, (0, 1), 10.0, "simplex")
    with pytest.raises(ToypokerError, match="does not fit"):
        saddle_bounds(g, (0, 2), 10.0, lp=s.lp)


def test_floor_generation_closes_on_the_exact_value_from_one_random_plan():
    # four-card Kuhn team {2,3} (exact TMECor 5/132, WEAK4): from one random pure plan the
    # relaxation points raise the floor from that plan's own guarantee to the value; the
    # certified upper end comes down to it (the relaxation is tight here)
    g = load_rows("kuhn(players=3)")
    team = (1, 2)
    plan = random_plans(g, team, 1, np.random.default_rng(0))[0]
    out = Outsider(g, (0,))
    alone = out.best_response_value(list(Columns(g, out, team)(plan, exact=True)))
    r = floor_generation(g, team, [plan], 20.0, 2.0, tol=1e-6)
    assert r.upper is not None and r.points > 1
    assert alone < r.floor <= WEAK4[team] <= r.upper.value
    assert r.upper.value - r.floor < F(1, 10**6)
    with pytest.raises(ToypokerError, match="plans"):
        floor_generation(g, team, [], 1.0)
