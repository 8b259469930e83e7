"""A two-member team's best response by enumeration (src/toypoker/team_plans.py), the
default of ``joint_response`` on games whose member plans are few: against brute force,
against the certified LP of team_pairs, its plan counts and its limit."""

import numpy as np
import pytest

from toypoker import Profile, solve
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.teams import pairs as tp
from toypoker.teams import plans as team_plans
from toypoker.teams.response import joint_response

from .test_pairs import TEAMS, _coef, _exact_plan_value
from .test_response import _brute_force_team_value, _rational_profile


@pytest.mark.parametrize("team", TEAMS)
def test_enumeration_is_the_brute_force_optimum(team):
    # kuhn(players=3, cards=3), exact profiles: the enumeration's plan is worth the best
    # of every pair of the members' pure plans (independent path: brute force over
    # 2^12 x 2^12 plans, exact), and its float value is that plan's value
    g = load_rows("kuhn(players=3,cards=3)")
    for seed in (7, 8, 9):
        p = _rational_profile(g, seed)
        c = _coef(g, p, team)
        found = team_plans.enumerated_response(g, team, c)
        assert found is not None
        best = _brute_force_team_value(g, p, team)
        assert _exact_plan_value(g, p, team, found[0]) == best
        assert found[1] == pytest.approx(float(best), abs=1e-12, rel=0)
        assert joint_response(g, team, c)[2] == "enumeration"


@pytest.mark.parametrize("team", TEAMS)
def test_enumeration_equals_the_certified_lp_on_four_card_kuhn(team):
    # kuhn(players=3, cards=4), float profiles (CFR+ iterates, random ones): the
    # enumeration's value equals the certified LP's optimum (independent path:
    # team_pairs.certified_response) and its own plan's value (team_pairs.plan_value)
    g = load_rows("kuhn(players=3)")
    profiles = [solve(g, "cfr+", iterations=it, team=False).profile for it in (20, 200)]
    profiles += [Profile.random(g, np.random.default_rng(s)) for s in (1, 2)]
    for p in profiles:
        c = _coef(g, p, team)
        found = team_plans.enumerated_response(g, team, c)
        lp = tp.certified_response(g, team, c)
        assert found is not None and lp is not None
        assert found[1] == pytest.approx(lp[1], abs=1e-12, rel=0)
        assert tp.plan_value(g, team, c, found[0]) == pytest.approx(found[1], abs=1e-12, rel=0)
        # a plan: one action at every free infoset of the members, nothing elsewhere
        mine = np.isin(g.sigma_player, team)
        assert not found[0][~mine].any()
        chosen = np.add.reduceat(found[0].astype(np.int64), g.infoset_offset[:-1])
        assert np.array_equal(chosen[np.isin(g.infoset_player, team)], np.ones(16 * 2))


def test_plan_counts_of_four_card_kuhn():
    # by hand: seat 1 with a card bets, or checks and then answers at its three later
    # infosets (1 + 2^3 = 9 plans a card, 9^4); seat 2 facing a check bets or checks and
    # answers at two later infosets (1 + 2^2 = 5), facing a bet calls or folds (2): 10^4
    # a pair of cards; the member with fewer plans is enumerated
    g = load_rows("kuhn(players=3)")
    assert [tp.per_team(g, team_plans.PlanTable, t).plans for t in TEAMS] == [9**4, 9**4, 10**4]
    assert all(tp.per_team(g, team_plans.PlanTable, t).enumerated == 0 for t in TEAMS)


def test_games_with_many_plans_go_to_the_lp(monkeypatch):
    # 3P-SMH: too many plans (no table, the LP answers); four-card Kuhn under a smaller
    # work limit: no table either
    g = load_rows("mercer(players=3,variant=smh,team=23)")
    p = solve(g, "cfr+", iterations=20, team=False).profile
    assert team_plans.enumerated_response(g, (1, 2), _coef(g, p, (1, 2))) is None
    assert joint_response(g, (1, 2), _coef(g, p, (1, 2)))[2].startswith("certified")
    monkeypatch.setattr(team_plans, "MAX_WORK", 9**4 - 1)
    assert team_plans.PlanTable(load_rows("kuhn(players=3)"), (0, 1)).plans == 0
