"""A two-member team's best response by the terminal-pairs LP (src/toypoker/team_pairs.py),
the default of ``joint_plan`` and ``team_evaluation``: its plans against brute-force
enumeration and against the lifted model (the path before it), its certificate, its
two HiGHS front ends, the outside weights with restricted member actions, and the
kernel path of ``team_evaluation``."""

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest

from toypoker import Profile, solve
from toypoker.engines.protocol import BestResponse
from toypoker.engines.rows import kernel_for
from toypoker.engines.rows.values import (
    counterfactual_reach,
    edge_probabilities,
    expected_values,
    reaches,
)
from toypoker.evaluation import evaluate
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.teams import pairs as tp
from toypoker.teams import plans as team_plans
from toypoker.teams.evaluation import team_evaluation, team_weights
from toypoker.teams.response import joint_plan, joint_response

from .test_response import _brute_force_team_value, _rational_profile

TEAMS = [(0, 1), (0, 2), (1, 2)]


def _coef(game, profile, team) -> np.ndarray:
    return team_weights(game, profile.probs, team) * game.term_u[list(team)].sum(axis=0)


def _exact_plan_value(game, profile, team, choice) -> Fraction:
    """The team's summed payoff of a joint pure plan, exactly (the numpy passes)."""
    vals = expected_values(game, BestResponse(team, None, choice).as_profile(profile))
    return sum((vals[p] for p in team), Fraction(0))


def _lp_path(monkeypatch) -> None:
    """The LP path for the games whose member plans are few (team_plans' enumeration,
    the default there, off)."""
    monkeypatch.setattr(team_plans, "USE_ENUMERATION", False)


@pytest.mark.parametrize("team", TEAMS)
def test_terminal_pairs_plan_is_the_brute_force_optimum(team, monkeypatch):
    # kuhn(players=3, cards=3), exact profiles: the LP path's best-response value is
    # the best of every pair of the members' pure plans (independent path: enumeration)
    _lp_path(monkeypatch)
    g = load_rows("kuhn(players=3,cards=3)")
    for seed in (7, 8, 9):
        p = _rational_profile(g, seed)
        assert tp.certified_plan(g, team, _coef(g, p, team)) is not None
        te = team_evaluation(g, p, team)
        assert te.br_value == _brute_force_team_value(g, p, team)
        assert te.how == "certified LP"  # what answered (it said "MILP" before)


@pytest.mark.parametrize("enumerate_", [True, False], ids=["enumeration", "LP"])
@pytest.mark.parametrize("team", TEAMS)
def test_default_path_equals_the_lifted_model_on_four_card_kuhn(team, enumerate_, monkeypatch):
    # kuhn(players=3, cards=4): the exact gain of the default path (team_plans'
    # enumeration) and of the LP path equals the gain of the lifted model's plan
    # (independent path: the code before, joint_plan(model="lifted"), its plan evaluated
    # exactly) on random exact profiles and CFR+ iterates
    monkeypatch.setattr(team_plans, "USE_ENUMERATION", enumerate_)
    g = load_rows("kuhn(players=3)")
    profiles = [_rational_profile(g, s) for s in (3, 5, 11)]
    profiles += [solve(g, "cfr+", iterations=it).profile.to_exact() for it in (20, 200)]
    for p in profiles:
        eprob = edge_probabilities(g, p.probs)
        cf = counterfactual_reach(g, reaches(g, eprob), team)[g.term_rows].astype(np.float64)
        lifted = joint_plan(g, team, cf * g.term_u[list(team)].sum(axis=0), model="lifted")
        te = team_evaluation(g, p, team)
        assert te.br_value == _exact_plan_value(g, p, team, lifted)


def test_a_fractional_relaxation_goes_to_the_milp_then_the_lifted_model(monkeypatch):
    # kuhn(players=3, team=23) after 20 CFR+ iterations: the terminal-pairs LP comes out
    # fractional (measured), so no certificate; the same model's MILP certifies a plan
    # worth the lifted model's own (independent path); and were that refused too,
    # joint_plan's default solves the lifted model
    _lp_path(monkeypatch)
    g = load_rows("kuhn(players=3,team=23)")
    p = solve(g, "cfr+", iterations=20, team=False).profile.to_exact()
    c = _coef(g, p, (1, 2))
    model = tp.per_team(g, tp.TerminalPairs, (1, 2))
    assert model.plan(c) is None
    lifted = _exact_plan_value(g, p, (1, 2), joint_plan(g, (1, 2), c, model="lifted"))
    plan = tp.certified_plan(g, (1, 2), c)
    assert plan is not None and _exact_plan_value(g, p, (1, 2), plan) == lifted
    # ... and says so (issue 22 leftover: every answer was called "MILP")
    assert joint_response(g, (1, 2), c)[2] == "certified MILP"
    assert team_evaluation(g, p, (1, 2)).how == "certified MILP"
    monkeypatch.setattr(model, "plan", lambda coef, time_limit=None, integral=False: None)
    assert tp.certified_plan(g, (1, 2), c) is None
    assert _exact_plan_value(g, p, (1, 2), joint_plan(g, (1, 2), c)) == lifted
    assert joint_response(g, (1, 2), c)[1:] == (None, "lifted MILP")  # (measured)
    assert team_evaluation(g, p, (1, 2)).how == "lifted MILP"


def test_a_solution_that_is_not_its_plans_products_is_no_certificate(monkeypatch):
    # the certificate: integral own plans AND the plan's value reaching the LP's optimum.
    # An LP answer whose optimum exceeds its own plan's value (pairs left below their
    # product) must not be returned as the best response
    g = load_rows("kuhn(players=3,cards=3)")
    team = (0, 1)
    model = tp.TerminalPairs(g, team)
    coef = _coef(g, _rational_profile(g, 7), team)
    value, w = model.solve(model.objective(coef))
    assert model.plan(coef) is not None  # the honest answer certifies
    monkeypatch.setattr(model, "solve", lambda c, time_limit=None: (value + 1e-3, w))
    assert model.plan(coef) is None
    w2 = w.copy()
    w2[model.cols_x[0]] = 0.5  # a fractional own plan
    monkeypatch.setattr(model, "solve", lambda c, time_limit=None: (value, w2))
    assert model.plan(coef) is None


@pytest.mark.parametrize("team", TEAMS)
def test_highspy_and_scipy_give_the_same_lp(team, monkeypatch):
    # the LP through highspy (the kept model) and through scipy's linprog (independent
    # front end to HiGHS): equal optima, plans of equal exact value
    _lp_path(monkeypatch)
    pytest.importorskip("highspy", reason="highspy is not installed: one front end only")
    g = load_rows("kuhn(players=3)")
    for seed in (2, 4):
        p = _rational_profile(g, seed)
        model = tp.TerminalPairs(g, team)
        c = model.objective(_coef(g, p, team))
        assert model.solve(c)[0] == pytest.approx(model._solve_scipy(c, None)[0], abs=1e-12,
                                                  rel=0)  # fmt: skip
        fast = joint_plan(g, team, _coef(g, p, team))
        monkeypatch.setattr(tp, "USE_HIGHSPY", False)
        slow = joint_plan(g, team, _coef(g, p, team))
        monkeypatch.setattr(tp, "USE_HIGHSPY", True)
        assert _exact_plan_value(g, p, team, fast) == _exact_plan_value(g, p, team, slow)


def test_a_time_limit_counts_from_each_solve():
    # HiGHS's run clock adds up over the solves of one kept model: a 30 s limit on a
    # model that had already run 30 s stopped at once (3-player hold'em, team 13,
    # after solve's own team gain).  Each solve gets its limit from its start
    pytest.importorskip("highspy", reason="highspy is not installed: linprog has no clock")
    g = load_rows("kuhn(players=3)")
    model = tp.TerminalPairs(g, (0, 1))
    c = model.objective(_coef(g, _rational_profile(g, 7), (0, 1)))
    first = model.solve(c)[0]
    h = model._model()
    while h.getRunTime() < 0.3:  # the clock past the limit below
        model.solve(c)
    assert model.solve(c, time_limit=0.15)[0] == first


@pytest.mark.parametrize("enumerate_", [True, False], ids=["enumeration", "LP"])
@pytest.mark.parametrize("spec", ["skp(team=12)", "skp(team=13)", "skp(team=23)"])
def test_restricted_member_actions_weigh_the_team_response(spec, enumerate_, monkeypatch):
    # skp (Billingham's game with restricted actions): a member's fixed probabilities
    # belong to the outside weight.  The best response is the best of every pair of the
    # members' free pure plans, each evaluated exactly with the restrictions in place
    # (independent path: enumeration + expected_values).  The code before this left
    # them out and fell short on 29 of these 60 cases (e.g. seed 0, team 13: 1/18
    # instead of 13/144)
    # (both paths: team_plans' enumeration, the default here, and the LP)
    monkeypatch.setattr(team_plans, "USE_ENUMERATION", enumerate_)
    g = load_rows(spec)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        probs = Profile.uniform(g, exact=True).probs.copy()  # restrictions in place
        for inf in g.infosets:
            if not inf.restricted:
                w = [int(x) for x in rng.integers(1, 6, size=len(inf.actions))]
                probs[inf.offset : inf.offset + len(w)] = [Fraction(x, sum(w)) for x in w]
        p = Profile(g, probs)
        for team in TEAMS:
            free = [i for i in g.infosets if i.player in team and not i.restricted]
            best = None
            for combo in itertools.product(*(range(len(i.actions)) for i in free)):
                choice = np.zeros(g.n_sigma, dtype=np.int8)
                for inf, a in zip(free, combo, strict=True):
                    choice[inf.offset + a] = 1
                v = _exact_plan_value(g, p, team, choice)
                best = v if best is None else max(best, v)
            assert team_evaluation(g, p, team).br_value == best


@pytest.mark.parametrize("spec", ["kuhn(players=3)", "skp", "kuhn(players=4,cards=5)"])
def test_outside_weights_are_the_counterfactual_reach(spec):
    # team_pairs.outside_weights (the outsiders' sequence forms gathered at the
    # terminals) against counterfactual_reach (independent path: the reach pass over
    # every row), float profiles, every pair of seats; skp's outsiders have restricted
    # actions, four-player Kuhn two outsiders
    g = load_rows(spec)
    rng = np.random.default_rng(2)
    for _ in range(2):
        p = Profile.random(g, rng)
        reach = reaches(g, edge_probabilities(g, p.probs))
        for team in itertools.combinations(range(g.n_players), 2):
            expected = counterfactual_reach(g, reach, team)[g.term_rows]
            got = tp.outside_weights(g, team, p.probs)
            np.testing.assert_allclose(got, expected, atol=1e-15, rtol=0)


def test_plan_value_is_the_plans_exact_value():
    # team_pairs.plan_value (floats, from the outside weights) against the exact value
    # of the plan (independent path: the numpy passes in Fractions), random plans
    g = load_rows("kuhn(players=3)")
    rng = np.random.default_rng(5)
    for team in TEAMS:
        p = _rational_profile(g, 13)
        c = _coef(g, p, team)
        for _ in range(5):
            choice = np.zeros(g.n_sigma, dtype=np.int8)
            for inf in g.infosets:
                if inf.player in team:
                    choice[inf.offset + int(rng.integers(len(inf.actions)))] = 1
            exact = _exact_plan_value(g, p, team, choice)
            assert tp.plan_value(g, team, c, choice) == pytest.approx(float(exact), abs=1e-12,
                                                                      rel=0)  # fmt: skip


def test_team_evaluation_alone_reads_the_kernel_and_agrees(monkeypatch):
    # team_evaluation without an evaluation (what solve calls) takes the outsider's
    # best response from the fused kernel (the team's value: minus the outsider's in a
    # zero-sum game); with evaluate's numpy evaluation (independent path) every number
    # agrees to 1e-12
    g = load_rows("kuhn(players=3,team=13)")
    p = Profile.random(g, np.random.default_rng(3))
    alone = team_evaluation(g, p, (0, 2))
    numpy_path = evaluate(g, p, team=(0, 2)).team
    assert numpy_path is not None
    for a, b in [(alone.value, numpy_path.value), (alone.br_value, numpy_path.br_value),
                 (alone.gain, numpy_path.gain),
                 (alone.outsider_gains[0], numpy_path.outsider_gains[0])]:  # fmt: skip
        assert a == pytest.approx(b, abs=1e-12, rel=0)
    # the kernel path of a game it takes for general-sum (every player's values)
    k = kernel_for(g)
    monkeypatch.setattr(k, "arrays", dataclasses.replace(k.arrays, zero_sum=False))
    general = team_evaluation(g, p, (0, 2))
    assert general.value == pytest.approx(numpy_path.value, abs=1e-12, rel=0)
    assert general.outsider_gains[0] == pytest.approx(numpy_path.outsider_gains[0], abs=1e-12,
                                                      rel=0)  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("digits", ["12", "13", "23"])
def test_smh_team_gain_equals_the_lifted_path(digits):
    # 3P-SMH weak teams, every placement: the default path's gain equals the gain of the
    # lifted model's plan evaluated by the numpy passes (independent path: the code
    # before) to 1e-12, on CFR+ iterates (20 and 200) and two random profiles
    g = load_rows(f"mercer(players=3,variant=smh,team={digits})")
    team = tuple(int(d) - 1 for d in digits)
    rng = np.random.default_rng(1)
    profiles = [solve(g, "cfr+", iterations=it, team=False).profile for it in (20, 200)]
    profiles += [Profile.random(g, rng) for _ in range(2)]
    for p in profiles:
        ev = evaluate(g, p)
        eprob = edge_probabilities(g, p.probs)
        cf = counterfactual_reach(g, reaches(g, eprob), team)[g.term_rows].astype(np.float64)
        lifted = joint_plan(g, team, cf * g.term_u[list(team)].sum(axis=0), model="lifted")
        vals = expected_values(g, BestResponse(team, None, lifted).as_profile(p))
        old_br = float(vals[team[0]] + vals[team[1]])
        old_gain = max(old_br - (ev.values[team[0]] + ev.values[team[1]]), 0.0)
        te = evaluate(g, p, team=team).team
        assert te is not None and te.how in ("certified LP", "certified MILP")
        assert te.gain == pytest.approx(old_gain, abs=1e-12, rel=0)
