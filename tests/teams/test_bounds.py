"""The information-sharing upper bound on a weak team's TMECor value
(src/toypoker/solvers/team_bounds.py): at least the exact weak value on every placement
of three-player Kuhn (3 and 4 cards) and 3P-SMH, equal to the strong team's merged LP
value against the merged LP's outsider, in the team's summed units; and the
relevant-pairs bound (PDLP multipliers, certified), between the weak team's exact best
response and the sharing bound."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker import solve
from toypoker.engines.protocol import BestResponse
from toypoker.engines.rows.values import expected_values
from toypoker.errors import ToypokerError
from toypoker.evaluation import evaluate
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.profile import Profile
from toypoker.teams.bounds import (
    RelaxedBound,
    SharingBound,
    merged_outsider,
    mixture_lower,
    projected_starts,
    relaxed_bound,
    sharing_bound,
    strong_game,
    tighten,
)
from toypoker.teams.evaluation import team_best_response
from toypoker.teams.tmecor import tmecor

F = Fraction
TEAMS = [(0, 1), (0, 2), (1, 2)]

# exact weak TMECor values of kuhn(players=3) (4 cards): tests/solvers/test_tmecor.py
# (width-0 brackets, the mixture evaluated plan by plan); strong (merged LP) values:
# tests/collusion/test_table7.py (solvers/lp.py on the merged game)
WEAK4 = {(0, 1): F(-1, 24), (0, 2): F(7, 264), (1, 2): F(5, 132)}
STRONG4 = {(0, 1): F(0), (0, 2): F(5, 78), (1, 2): F(1, 12)}


def _merged_lp_value(spec: str, team: tuple[int, int]) -> Fraction:
    """The strong team's value by the merged game's exact LP (independent path:
    solvers/lp.py; the merged team sits at its lowest member's place)."""
    digits = "".join(str(p + 1) for p in team)
    res = solve(load_rows(f"{spec[:-1]},team={digits},strong=true,merge=true)"), "lp")
    return res.value_exact[0 if team[0] == 0 else 1]


@pytest.mark.parametrize("team", TEAMS)
def test_bound_at_the_merged_outsider_is_the_strong_value_on_four_cards(team):
    g = load_rows("kuhn(players=3)")
    h = strong_game(g, team)
    eq = merged_outsider(h, "lp")  # exact: the merged LP's equilibrium on the seats
    b = sharing_bound(g, team, eq, h)
    # the strong team's exact value (independent LP) and, in the same units, the team's
    # summed exact payoff under the whole equilibrium profile (the exact evaluator)
    assert b.value == STRONG4[team] == _merged_lp_value("kuhn(players=3)", team)
    assert b.value == sum(expected_values(h, eq.probs)[list(team)])
    # the bound holds, strictly here: seeing the partner's card is worth something
    assert b.value > WEAK4[team]


@pytest.mark.parametrize("team", TEAMS)
def test_bound_on_three_cards_is_the_exact_weak_value(team):
    # kuhn(players=3, cards=3): weak TMECor 0 on every placement (test_tmecor.py); the
    # strong team's merged LP value is 0 too (independent path), so the bound is exact
    g = load_rows("kuhn(players=3,cards=3)")
    b = sharing_bound(g, team, merged_outsider(strong_game(g, team), "lp"))
    assert b.value == _merged_lp_value("kuhn(players=3,cards=3)", team) == 0
    assert tmecor(g, team).lower == b.value


def test_any_outsider_strategy_gives_a_bound_at_least_the_strong_value():
    # against any outsider strategy the strong team's best response is at least
    # min_y BR_strong(y) (the strong value) >= the weak value: uniform, and random
    # float strategies rounded to the 2**-20 grid
    g = load_rows("kuhn(players=3)")
    rng = np.random.default_rng(7)
    for team in TEAMS:
        probs = rng.random(g.n_sigma)
        for inf in g.infosets:
            block = probs[inf.offset : inf.offset + len(inf.actions)]
            block /= block.sum()
        for prof in (Profile(g, probs), Profile(g, _uniform(g))):
            b = sharing_bound(g, team, prof)
            assert b.value >= STRONG4[team] >= WEAK4[team]
            # the rounded strategy is a strategy: each infoset sums to 1 exactly
            assert all(sum(row) == 1 and min(row) >= 0 for row in b.outsider.values())
        # the rounding moves the bound by little: against the same float strategy
        # solved exactly (Fractions of its floats) the value differs by < 1e-5
        exact = np.array([F(float(x)) for x in probs], dtype=object)
        for inf in g.infosets:
            block = exact[inf.offset : inf.offset + len(inf.actions)]
            exact[inf.offset : inf.offset + len(inf.actions)] = block / sum(block)
        exact = Profile(g, exact)
        gap = sharing_bound(g, team, exact).value - sharing_bound(g, team, Profile(g, probs)).value
        assert abs(gap) < F(1, 10**5)


def _uniform(g) -> np.ndarray:
    probs = np.empty(g.n_sigma)
    for inf in g.infosets:
        probs[inf.offset : inf.offset + len(inf.actions)] = 1.0 / len(inf.actions)
    return probs


def test_tighten_takes_the_smaller_valid_upper_end():
    # kuhn(players=3), team {2,3}: a one-column TMECor bracket, then the bound at the
    # merged LP's outsider (1/12): the upper end becomes 1/12, the value 5/132 stays inside
    g = load_rows("kuhn(players=3)")
    r = tmecor(g, (1, 2), max_columns=1, oracle="alternating",
               upper_game=strong_game(g, (1, 2)))  # fmt: skip
    b = sharing_bound(g, (1, 2), merged_outsider(strong_game(g, (1, 2)), "lp"))
    t = tighten(r, b)
    assert t.upper == min(r.upper, F(1, 12)) and t.lower == r.lower <= F(5, 132) <= t.upper
    if t.upper < r.upper:
        assert "sharing bound" in t.how
        # the outsider's strategy stored in the result is the one the bound answered
        inf = next(iter(b.outsider))
        i = g.infosets[inf]
        assert list(t.profile.probs[i.offset : i.offset + len(i.actions)]) == b.outsider[inf]
    fake = SharingBound(r.lower - 1, b.outsider, b.strong_spec, 0.0)
    with pytest.raises(ToypokerError, match="not a valid bound"):
        tighten(r, fake)
    # a "strong" game with other stakes: same rows, not the same team payoff
    other = load_rows("kuhn(players=3,ante=2,team=23,strong=true,merge=false)")
    with pytest.raises(ToypokerError, match="does not pay the team"):
        sharing_bound(g, (1, 2), Profile(g, _uniform(g)), other)
    with pytest.raises(ToypokerError, match="one outsider"):
        sharing_bound(load_rows("kuhn(players=4)"), (0, 1), Profile(g, _uniform(g)))


@pytest.mark.slow
def test_bound_on_three_player_smh_team_23():
    # 3P-SMH: the bound at the merged LP's outsider is the strong team's value (the
    # issue's table: outsider -0.06281/-0.13557/-0.19927, README's exact values) and at
    # least the shipped exact weak TMECor values (collusion/brackets.py's records).
    # One placement (seats 2 and 3; each merged LP takes a minute or two): four-card Kuhn
    # above checks every placement, tests/test_teams.py the merged team 12 of 3P-SMH
    base = "mercer(players=3,variant=smh)"
    g = load_rows(base)
    weak = {(0, 1): F(-4638311027186, 55208102538225), (0, 2): F(-24603977, 18064098000),
            (1, 2): F(89108, 944775)}  # fmt: skip
    strong = {(0, 1): F(6975112709, 111053690748), (0, 2): F(34838639, 256978800),
              (1, 2): F(46509628561, 233400995100)}  # fmt: skip
    for team in [(1, 2)]:
        h = strong_game(g, team)
        b = sharing_bound(g, team, merged_outsider(h, "lp"), h)
        assert b.value == strong[team] > weak[team]


@pytest.mark.parametrize("team", TEAMS)
def test_relaxed_bound_lies_between_the_weak_best_response_and_the_sharing_bound(team):
    # kuhn(players=3) (4 cards), the merged LP's outsider y: the relevant-pairs bound is
    # at least the weak team's exact best response to y (the lifted MILP's plan valued
    # exactly: an independent path), so at least the weak TMECor value (WEAK4); the
    # relaxation is integral here, so it is within the certificate's rounding of it --
    # below the sharing bound (the strong team's, STRONG4) where seeing the partner's
    # card pays against y: teams 12 (-1/24 < 0) and 13 (17/312 < 5/78)
    pytest.importorskip("highspy", reason="HiGHS's PDLP is reached through highspy")
    g = load_rows("kuhn(players=3)")
    h = strong_game(g, team)
    share = sharing_bound(g, team, merged_outsider(h, "lp"), h)
    b = relaxed_bound(g, team, share.outsider, seconds=10.0)
    assert isinstance(b, RelaxedBound) and isinstance(b.value, Fraction)
    probs = Profile.uniform(g, exact=True).probs.copy()
    for i, row in b.outsider.items():
        inf = g.infosets[i]
        probs[inf.offset : inf.offset + len(inf.actions)] = row
    weak_br = team_best_response(g, Profile(g, probs), team, together=False).value
    assert isinstance(weak_br, Fraction)
    assert WEAK4[team] <= weak_br <= b.value < weak_br + F(1, 10**6)
    assert (b.value < share.value) == (team != (1, 2))
    assert share.value == STRONG4[team]
    # as an upper end: tighten takes it and names it
    r = tighten(tmecor(g, team, max_columns=1), b)
    assert r.upper == min(b.value, tmecor(g, team, max_columns=1).upper)
    assert r.lower <= WEAK4[team] <= r.upper


def test_relaxed_bound_needs_a_team_of_two():
    g = load_rows("kuhn(players=4)")
    with pytest.raises(ToypokerError, match="team of two and one outsider"):
        relaxed_bound(g, (0, 1), {}, seconds=1.0)


@pytest.mark.parametrize("team", TEAMS)
def test_projected_starts_are_joint_plans_and_keep_the_bracket(team):
    # four-card Kuhn: each start is a joint pure plan (one action at every free infoset of
    # the members, none elsewhere); with them the alternating oracle's bracket still holds
    # the exact weak TMECor value (WEAK4, from the MILP column generation)
    g = load_rows("kuhn(players=3)")
    h = strong_game(g, team)
    more = projected_starts(g, h, team, np.random.default_rng(0), 2)
    plans = more(Profile.uniform(g))
    assert len(plans) == 3
    for plan in plans:
        for inf in g.infosets:
            picked = int(plan[inf.offset : inf.offset + len(inf.actions)].sum())
            assert picked == (1 if inf.player in team and not inf.restricted else 0)
    r = tmecor(g, team, oracle="alternating", upper_game=h, more_starts=more)
    assert r.lower <= WEAK4[team] <= r.upper
    with pytest.raises(ToypokerError, match="rng"):
        projected_starts(g, h, team, None, 1)


@pytest.mark.parametrize("team", TEAMS)
def test_projection_in_a_game_that_sees_the_cards_is_the_strong_best_response(team):
    # when the team already sees its cards (the strong game projected on itself) the
    # projected plan is the strong team's best response: worth exactly the best-response
    # value (independent path: the backward induction of team_best_response), against
    # an exact random outsider strategy
    from toypoker.teams.forms import Columns, Outsider

    h = strong_game(load_rows("kuhn(players=3)"), team)
    (o,) = {0, 1, 2} - set(team)
    rng = np.random.default_rng(5)
    out = Outsider(h, (o,))
    behaviour = {}
    for inf in out.infosets:
        w = [F(int(x)) for x in rng.integers(1, 9, size=len(inf.actions))]
        behaviour[inf.index] = [x / sum(w) for x in w]
    probs = np.empty(h.n_sigma, dtype=object)
    for inf in h.infosets:
        probs[inf.offset : inf.offset + len(inf.actions)] = [F(1, len(inf.actions))] * len(
            inf.actions
        )
    for i, row in behaviour.items():
        inf = h.infosets[i]
        probs[inf.offset : inf.offset + len(inf.actions)] = row
    prof = Profile(h, probs)
    (plan,) = projected_starts(h, h, team)(prof.to_float())
    best = team_best_response(h, prof, team, together=True).value
    assert Columns(h, out, team).value(plan, behaviour) == best


@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_a_mixture_is_worth_the_lower_end_of_its_bracket(team):
    # four-card Kuhn: the exact TMECor values -1/24, 7/264, 5/132 (tests/solvers/
    # test_tmecor.py, by the MILP column generation) recomputed from the mixture alone;
    # a pure plan of the mixture alone is worth no more (the mixture is optimal)
    g = load_rows("kuhn(players=3)")
    r = tmecor(g, team)
    assert r.exact
    assert mixture_lower(g, team, r.plans, r.weights) == r.lower
    assert mixture_lower(g, team, r.plans, r.weights) == {
        (0, 1): Fraction(-1, 24), (0, 2): Fraction(7, 264), (1, 2): Fraction(5, 132)
    }[team]  # fmt: skip
    # one pure plan against an independent path: the outsider's exact best response by
    # toypoker.engines.rows.values (zero-sum: the team gets minus the outsider's
    # best-response value)
    (o,) = [p for p in range(3) if p not in team]
    for x in r.plans:
        prof = BestResponse(team, None, x).as_profile(Profile.uniform(g, exact=True))
        ev = evaluate(g, prof)
        assert mixture_lower(g, team, [x], [1]) == -(ev.values[o] + ev.gains[o]) <= r.lower


def test_a_mixture_that_is_not_a_correlated_plan_is_refused():
    g = load_rows("kuhn(players=3)")
    r = tmecor(g, (1, 2))
    plans, weights = list(r.plans), list(r.weights)
    with pytest.raises(ToypokerError, match="summing to 1"):
        mixture_lower(g, (1, 2), plans, [w * 2 for w in weights])
    with pytest.raises(ToypokerError, match="one nonnegative weight per plan"):
        mixture_lower(g, (1, 2), plans, weights[:-1])
    two = plans[0].copy()
    two[np.flatnonzero(np.isin(g.sigma_player, (1, 2)))[:2]] = 1  # both actions of an infoset
    with pytest.raises(ToypokerError, match="not a pure plan"):
        mixture_lower(g, (1, 2), [two, *plans[1:]], weights)
    with pytest.raises(ToypokerError, match="not a pure plan"):
        mixture_lower(g, (1, 2), [plans[0][:-1], *plans[1:]], weights)
    for bad in (["x"] * len(weights), [float("nan")] * len(weights), [None] * len(weights)):
        with pytest.raises(ToypokerError, match="weights must be exact numbers"):
            mixture_lower(g, (1, 2), plans, bad)
    for bad in (["x"] * len(weights), [float("nan")] * len(weights), [None] * len(weights)):
        with pytest.raises(ToypokerError, match="weights must be exact numbers"):
            mixture_lower(g, (1, 2), plans, bad)
    with pytest.raises(ToypokerError, match="one outsider"):
        mixture_lower(load_rows("kuhn(players=4)"), (1, 2), plans, weights)
