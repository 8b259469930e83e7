"""The relevant-pairs relaxation of a two-member team's best response
(src/toypoker/team_relaxation.py): its certified bound against brute-force enumeration
of the members' pure plans and against the full lifted MILP."""

import math
from fractions import Fraction

import numpy as np
import pytest

from toypoker.engines.rows.values import counterfactual_reach, edge_probabilities, reaches
from toypoker.errors import ToypokerError
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.teams.relaxation import certified_bound, pair_model, relaxed_response
from toypoker.teams.response import joint_plan

from .test_response import _brute_force_team_value, _rational_profile

F = Fraction


def _exact_coef(game, profile, team):
    """Per terminal row: chance x the outsider's reach x the team's payoff, as integers
    over one denominator (exact, from the profile's Fractions)."""
    cf = counterfactual_reach(game, reaches(game, edge_probabilities(game, profile.probs)), team)
    u = game.term_u_exact[team[0]] + game.term_u_exact[team[1]]
    coef = [c * v for c, v in zip(cf[game.term_rows], u, strict=True)]
    den = math.lcm(*(c.denominator for c in coef))
    return np.array([int(c * den) for c in coef], dtype=object), den


def _plan_value(game, team, plan, num, den) -> Fraction:
    """The exact value of a joint pure plan: the rows both members' plans reach."""
    sigma = np.ones(game.n_sigma)
    mine = np.isin(game.sigma_player, team)
    sigma[mine] = plan[mine]
    reach = reaches(game, edge_probabilities(game, sigma))[list(team)][:, game.term_rows]
    on = reach.prod(axis=0) > 0.5
    return F(int(sum(num[on])), den)


@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_certified_bound_holds_the_brute_force_optimum(team):
    # kuhn(players=3, cards=3): the best pair of pure plans by enumeration (independent
    # path) lies under the certified bound, for the LP's duals and for any others
    g = load_rows("kuhn(players=3,cards=3)")
    p = _rational_profile(g, 11)
    best = _brute_force_team_value(g, p, team)
    num, den = _exact_coef(g, p, team)
    model = pair_model(g, team)
    rel = relaxed_response(g, model, np.array([float(F(int(x), den)) for x in num]))
    bound = certified_bound(model, rel.duals, num, den)
    assert best <= bound <= best + F(1, 10**8)
    if rel.integral:  # the rounded plan is then a best response
        assert _plan_value(g, team, rel.plan, num, den) == best
    rng = np.random.default_rng(0)
    for duals in (np.zeros(model.n_constraints), rng.normal(size=model.n_constraints)):
        assert certified_bound(model, duals, num, den) >= best


@pytest.mark.slow
def test_relevant_pairs_on_smh_match_the_lifted_milp():
    # 3P-SMH team {2,3}: 1,365 pairs meet at the terminals, 2,851 are kept of the full
    # model's 61 x 91 = 5,551; the relaxation is integral and its plan worth the full
    # lifted MILP's optimum (independent path: team_response.joint_plan).  The objective
    # is the float one, read exactly as multiples of 2**-80
    g = load_rows("mercer(players=3,variant=smh)")
    team = (1, 2)
    sigma = np.asarray(_rational_profile(g, 5).to_float().probs, dtype=np.float64)
    cf = counterfactual_reach(g, reaches(g, edge_probabilities(g, sigma)), team)
    coef = cf[g.term_rows] * (g.term_u[1] + g.term_u[2])
    den = 2**80
    num = np.array([int(F(float(c)) * den) for c in coef], dtype=object)
    model = pair_model(g, team)
    assert (model.terminal_pairs, model.n_vars) == (1365, 2851)
    rel = relaxed_response(g, model, coef)
    milp = _plan_value(g, team, joint_plan(g, team, coef, model="lifted"), num, den)
    assert rel.integral and _plan_value(g, team, rel.plan, num, den) == milp
    assert milp <= certified_bound(model, rel.duals, num, den) <= milp + F(1, 10**8)
    assert math.isclose(rel.value, float(milp), rel_tol=1e-9)


def test_pair_model_needs_two_members():
    with pytest.raises(ToypokerError, match="two members"):
        pair_model(load_rows("kuhn(players=3)"), (0,))
