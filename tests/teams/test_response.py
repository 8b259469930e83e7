"""A team's joint best response (src/toypoker/team_response.py, evaluate.team_evaluation):
the MILP against brute-force enumeration of the members' pure plans, and the strong
team's backward induction against the merged game's best response."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from toypoker import Profile
from toypoker.engines.rows.values import (
    counterfactual_reach,
    edge_probabilities,
    expected_values,
    reaches,
)
from toypoker.errors import ToypokerError
from toypoker.evaluation import best_response, evaluate, nash_conv
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.games.team_transform import Team
from toypoker.teams import plans as team_plans
from toypoker.teams.beliefs import joint_plan_by_beliefs
from toypoker.teams.evaluation import team_evaluation
from toypoker.teams.response import joint_plan, joint_plan_alternating, last_sequences
from toypoker.teams.transfer import transfer_profile

F = Fraction


def _rational_profile(game, seed: int) -> Profile:
    """A fixed exact profile with small denominators (every action between 1/6 and 5/6)."""
    rng = np.random.default_rng(seed)
    probs = np.empty(game.n_sigma, dtype=object)
    for inf in game.infosets:
        k = len(inf.actions)
        w = [int(x) for x in rng.integers(1, 6, size=k)]
        probs[inf.offset : inf.offset + k] = [F(x, sum(w)) for x in w]
    return Profile(game, probs)


def _plans(game, p: int) -> np.ndarray:
    """Every pure plan of seat ``p`` as the 0/1 reach of each terminal row, duplicates
    (plans differing only where ``p`` never arrives) removed."""
    infos = [i for i in game.infosets if i.player == p]
    seqs = last_sequences(game, (p,))[0]
    # the seat's sequences on the path to each terminal row
    paths = []
    for r in game.term_rows:
        on_path, row = [], int(r)
        while row >= 0:
            s = game.edge_sigma[row]
            if s >= 0 and game.sigma_player[s] == p:
                on_path.append(int(s))
            row = int(game.parent_row[row])
        assert not on_path or on_path[0] == seqs[r]
        paths.append(on_path)
    combos = np.array(list(itertools.product(*(range(len(i.actions)) for i in infos))))
    chosen = np.zeros((len(combos), game.n_sigma), dtype=bool)
    for k, inf in enumerate(infos):
        chosen[np.arange(len(combos)), inf.offset + combos[:, k]] = True
    reach = np.stack([chosen[:, path].all(axis=1) for path in paths], axis=1)
    return np.unique(reach.astype(np.int64), axis=0)


def _brute_force_team_value(game, profile: Profile, team: tuple[int, int]) -> Fraction:
    """max over pairs of pure plans of the team's summed payoff, exactly: integer
    matrix products over the reduced plans of both members."""
    eprob = edge_probabilities(game, profile.probs)
    cf = counterfactual_reach(game, reaches(game, eprob), team)[game.term_rows]
    coef = [c * (game.term_u_exact[team[0], j] + game.term_u_exact[team[1], j])
            for j, c in enumerate(cf)]  # fmt: skip
    den = math.lcm(*(c.denominator for c in coef))
    scaled = np.array([int(c * den) for c in coef], dtype=np.int64)
    a, b = _plans(game, team[0]), _plans(game, team[1])
    return F(int(((a * scaled) @ b.T).max()), den)


@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_milp_team_response_is_the_brute_force_optimum(team, monkeypatch):
    # kuhn(players=3, cards=3), no card sharing: the best of every pair of pure plans
    # (independent path: enumeration, 2^12 plans per member) is the value of the plan of
    # the default path (the enumeration of team_plans) and of the LP path
    g = load_rows("kuhn(players=3,cards=3)")
    p = _rational_profile(g, 7)
    monkeypatch.setattr(team_plans, "USE_ENUMERATION", False)
    lp = team_evaluation(g, p, team)
    monkeypatch.setattr(team_plans, "USE_ENUMERATION", True)
    te = team_evaluation(g, p, team)
    assert (te.how, lp.how) == ("enumeration", "certified LP")
    assert te.br_value == lp.br_value == _brute_force_team_value(g, p, team)
    assert te.gain == te.br_value - te.value and te.gain > 0
    # the plan is a pure plan of the members only
    seats = np.isin(g.sigma_player, team)
    assert set(te.response.choice[seats].tolist()) <= {0, 1}
    assert not te.response.choice[~seats].any()


def test_strong_team_backward_induction_is_the_merged_best_response():
    # a strong team is one player with perfect recall: its joint best response by
    # backward induction equals (independent path 1) the merged game's best response to
    # the same profile and (independent path 2) the MILP over the members' plans
    gs = load_rows("kuhn(players=3,team=12,strong=true,merge=false)")
    gm = load_rows("kuhn(players=3,team=12,strong=true,merge=true)")
    p = _rational_profile(gs, 3)
    te = team_evaluation(gs, p, (0, 1))
    assert te.how == "backward induction"
    merged = best_response(gm, transfer_profile(p, gm).probs, 0)
    assert te.br_value == merged.value
    eprob = edge_probabilities(gs, p.probs)
    cf = counterfactual_reach(gs, reaches(gs, eprob), (0, 1))[gs.term_rows]
    coef = cf.astype(float) * gs.term_u[[0, 1]].sum(axis=0)
    choice = joint_plan(gs, (0, 1), coef)
    probs = p.probs.copy()
    mask = np.isin(gs.sigma_player, (0, 1))
    probs[mask] = [F(int(x)) for x in choice[mask]]
    vals = expected_values(gs, probs)
    assert vals[0] + vals[1] == te.br_value


def test_team_evaluation_in_evaluate_and_nash_conv():
    g = load_rows("kuhn(players=3,team=13)")
    p = _rational_profile(g, 11)
    ev = evaluate(g, p, team=Team.parse("13"))
    te = ev.team
    assert te is not None and te.team == (0, 2) and te.outsiders == (1,)
    # the team value is the members' summed values; the outsider's gain is its own
    assert te.value == ev.values[0] + ev.values[2]
    assert te.outsider_gains == (ev.gains[1],)
    # the team game's NashConv: the team's joint gain plus the outsider's
    assert nash_conv(g, p, team=(0, 2)) == te.gain + ev.gains[1] == te.nash_conv
    # the joint gain is at least each member's own (a member alone is a joint plan)
    assert te.gain >= max(ev.gains[0], ev.gains[2])
    d = ev.to_dict()["team"]
    assert d["team"] == "13" and d["gain"]["exact"] == str(te.gain)
    fl = evaluate(g, p.to_float(), team=(0, 2)).team
    assert fl.gain == pytest.approx(float(te.gain), abs=1e-12, rel=0)
    with pytest.raises(ToypokerError, match="every player"):
        team_evaluation(g, p, (0, 1, 2))


def _plan_value(game, profile: Profile, team: tuple[int, ...], choice: np.ndarray) -> Fraction:
    """The team's exact summed payoff of a joint pure plan against ``profile``."""
    probs = profile.probs.copy()
    seats = np.isin(game.sigma_player, team)
    probs[seats] = [F(int(x)) for x in choice[seats]]
    vals = expected_values(game, probs)
    return sum((vals[p] for p in team), F(0))


def _coef(game, profile: Profile, team: tuple[int, ...]) -> np.ndarray:
    eprob = edge_probabilities(game, profile.probs)
    cf = counterfactual_reach(game, reaches(game, eprob), team)[game.term_rows]
    return cf.astype(np.float64) * game.term_u[list(team)].sum(axis=0)


@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_belief_state_response_is_the_brute_force_optimum(team):
    # backward induction over the team's public belief states: its plan is worth the
    # brute-force optimum (independent path: every pair of pure plans) on
    # kuhn(players=3, cards=3), and the MILP's plan's value on 4 cards
    g = load_rows("kuhn(players=3,cards=3)")
    p = _rational_profile(g, 7)
    choice = joint_plan_by_beliefs(g, team, _coef(g, p, team))
    assert _plan_value(g, p, team, choice) == _brute_force_team_value(g, p, team)
    seats = np.isin(g.sigma_player, team)
    assert set(choice[seats].tolist()) <= {0, 1} and not choice[~seats].any()
    g4 = load_rows("kuhn(players=3,cards=4)")
    for seed in (3, 11):
        p4 = _rational_profile(g4, seed)
        c = _coef(g4, p4, team)
        assert _plan_value(g4, p4, team, joint_plan_by_beliefs(g4, team, c)) == _plan_value(
            g4, p4, team, joint_plan(g4, team, c)
        )


@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_lifted_and_product_models_agree(team):
    # the two MILPs of team_response.joint_plan: the lifted model (pairs of sequences,
    # the default for two members) and the product model (independent path: one
    # variable per product at the terminals) give plans of equal exact value on
    # kuhn(players=3, cards=4), and on 3 cards the brute-force optimum
    g = load_rows("kuhn(players=3,cards=4)")
    for seed in (5,):
        p = _rational_profile(g, seed)
        c = _coef(g, p, team)
        lifted = joint_plan(g, team, c, model="lifted")
        product = joint_plan(g, team, c, model="product")
        assert _plan_value(g, p, team, lifted) == _plan_value(g, p, team, product)
    g3 = load_rows("kuhn(players=3,cards=3)")
    p3 = _rational_profile(g3, 7)
    plan = joint_plan(g3, team, _coef(g3, p3, team), model="product")
    assert _plan_value(g3, p3, team, plan) == _brute_force_team_value(g3, p3, team)


def test_joint_plan_model_errors():
    g = load_rows("kuhn(players=3,cards=3)")
    c = np.zeros(len(g.term_rows))
    with pytest.raises(ToypokerError, match="two members"):
        joint_plan(load_rows("kuhn(players=4)"), (0, 1, 2), np.zeros(1), model="lifted")
    with pytest.raises(ToypokerError, match="unknown team best-response model"):
        joint_plan(g, (0, 1), c, model="bogus")


@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_alternating_plan_is_a_lower_bound_no_member_improves(team):
    # joint_plan_alternating on kuhn(players=3, cards=3): its value is the plan's exact
    # value (independent path: the exact evaluator) up to float rounding, at most the
    # brute-force optimum, and a fixed point: restarting from it changes nothing (no
    # member alone improves)
    g = load_rows("kuhn(players=3,cards=3)")
    p = _rational_profile(g, 7)
    c = _coef(g, p, team)
    plan, value = joint_plan_alternating(g, team, c)
    exact = _plan_value(g, p, team, plan)
    assert value == pytest.approx(float(exact), abs=1e-12, rel=0)
    assert exact <= _brute_force_team_value(g, p, team)
    again, value2 = joint_plan_alternating(g, team, c, starts=[plan])
    assert value2 == pytest.approx(value, abs=1e-12, rel=0)
    assert _plan_value(g, p, team, again) == exact
    seats = np.isin(g.sigma_player, team)
    assert set(plan[seats].tolist()) <= {0, 1} and not plan[~seats].any()


def test_team_evaluation_alternating_is_a_lower_bound():
    # evaluate(..., method="alternating"): the team gain from alternating best
    # responses is at most the MILP's (independent path), and says how it was found
    g = load_rows("kuhn(players=3)")
    p = _rational_profile(g, 11)
    alt = team_evaluation(g, p, (0, 2), method="alternating")
    ex = team_evaluation(g, p, (0, 2))
    assert alt.how == "alternating (lower bound)" and ex.how == "enumeration"
    assert 0 <= alt.gain <= ex.gain and alt.value == ex.value
    with pytest.raises(ToypokerError, match="unknown team best-response method"):
        team_evaluation(g, p, (0, 2), method="bogus")


@pytest.mark.slow
def test_a_team_milp_past_its_time_limit_gives_a_lower_bound_not_a_hang(monkeypatch):
    """Audit (2026-11-26): the team gain of 100 PDCFR+ iterations on this weak team ran
    HiGHS's MILP for over 10 minutes, deaf to Ctrl-C and SIGTERM.  Now HiGHS gets
    ``milp_seconds`` (default ``TEAM_MILP_SECONDS``); past it the members' alternating best
    responses give the gain's lower bound, said in ``how``.  Expected numbers: the same
    profile's ``team_evaluation(method="alternating")`` (the independent path it falls back
    to)."""
    import toypoker

    g = load_rows("holdem(players=3,ranks=4,suits=2,team=13)")
    res = toypoker.solve(g, "pdcfr+", iterations=100, milp_seconds=0.01)  # its team line too
    assert "lower bound" in res.team.how
    prof = res.profile
    te = team_evaluation(g, prof, Team.parse("13"), milp_seconds=0.01)
    assert "lower bound" in te.how and "did not finish in 0.01 s" in te.how
    alt = team_evaluation(g, prof, Team.parse("13"), method="alternating")
    assert te.br_value == alt.br_value and te.gain == alt.gain and te.gain >= 0
    assert te.gain == res.team.gain


def test_the_milp_limit_is_an_argument_not_a_global(monkeypatch):
    """The time limit reached HiGHS through a module global that the command line
    rebound for the length of a command (not safe beside another thread's evaluation).
    Now ``milp_seconds=`` on evaluate/team_evaluation/solve, passed to the team's exact
    response (seen by a spy on the call); the default is ``TEAM_MILP_SECONDS``."""
    import importlib

    import toypoker as tp

    ev_mod = importlib.import_module("toypoker.teams.evaluation")  # the team wing's module
    real, limits = ev_mod.team_best_response, []

    def spy(*a, **k):
        limits.append(k.get("time_limit"))
        return real(*a, **k)

    monkeypatch.setattr(ev_mod, "team_best_response", spy)
    g = load_rows("kuhn(players=3)")
    uniform = tp.Profile.uniform(g)
    tp.evaluate(g, uniform, team="12", milp_seconds=7.5)
    assert limits[-1] == 7.5
    team_evaluation(g, uniform, (0, 1), milp_seconds=2)
    assert limits[-1] == 2
    tp.solve(g, "cfr+", iterations=3, team="12", milp_seconds=4.5)
    assert limits[-1] == 4.5
    tp.evaluate(g, uniform, team="12")
    assert limits[-1] == ev_mod.TEAM_MILP_SECONDS == 30.0


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), "5", True])
def test_a_bad_milp_limit_is_one_clear_error(bad):
    import toypoker as tp

    g = load_rows("kuhn(players=3)")
    uniform = tp.Profile.uniform(g)
    for call in (
        lambda: tp.evaluate(g, uniform, team="12", milp_seconds=bad),
        lambda: tp.evaluate(g, uniform, milp_seconds=bad),  # checked with no team too
        lambda: tp.nash_conv(g, uniform, team="12", milp_seconds=bad),
        lambda: team_evaluation(g, uniform, (0, 1), milp_seconds=bad),
        lambda: tp.solve(g, "cfr+", iterations=3, milp_seconds=bad),
    ):
        with pytest.raises(ToypokerError, match="milp_seconds"):
            call()
