"""Teams at the profile floor (src/toypoker/teams.py): a merged team's profile played by
its members and back, on three-player Kuhn poker."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker import evaluate, solve
from toypoker.errors import ToypokerError
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.teams.evaluation import team_evaluation
from toypoker.teams.transfer import transfer_profile

F = Fraction


def test_transfer_profile_maps_the_merged_team_onto_its_members_and_back():
    # kuhn(players=3, cards=6), strong collusion of seats 1, 2 (win sharing): the merged
    # team's exact LP value is 3/148 (our LP, certified); each member's infoset is the
    # team's at that node, so the LP strategy played by the members is an exact
    # equilibrium of the 3-player game with each member getting half the team value
    gm = load_rows("kuhn(players=3,cards=6,team=12,strong=true,merge=true)")
    gs = load_rows("kuhn(players=3,cards=6,team=12,strong=true)")
    lp = solve(gm, method="lp")
    assert lp.certified and lp.value_exact[0] == F(3, 148)
    p = transfer_profile(lp.profile, gs)
    ev = evaluate(gs, p)
    assert ev.gains == (0, 0, 0)
    assert ev.values == (F(3, 296), F(3, 296), F(-3, 148))
    back = transfer_profile(p, gm)
    assert np.array_equal(back.probs, lp.profile.probs)
    with pytest.raises(ToypokerError, match="public tree"):
        transfer_profile(p, load_rows("kuhn(players=3,cards=5)"))


def test_members_can_settle_below_the_team_value():
    # A coordination equilibrium (issue 12, 3P-SMH: the 3-player CFR+ equilibrium's team
    # mean 0.059 against the merged LP's 0.133): in kuhn(players=3, cards=6) with seats
    # 1, 2 colluding strongly, CFR+ on the 3-player game reaches NashConv < 1e-5 with the
    # team at ~0.0099, while the team's value is 3/148 ~ 0.0203 (LP above): no member
    # gains alone, but the two members together would gain > 0.01 against the
    # outsider's strategy (the merged game's best response, 0.0208)
    gm = load_rows("kuhn(players=3,cards=6,team=12,strong=true,merge=true)")
    gs = load_rows("kuhn(players=3,cards=6,team=12,strong=true,merge=false)")
    c = solve(gs, method="cfr+", iterations=5000)
    ev = evaluate(gs, c.profile)
    assert ev.nash_conv < 1e-5
    team = ev.values[0] + ev.values[1]
    assert team < float(F(3, 148)) - 0.009
    joint = evaluate(gm, transfer_profile(c.profile, gm)).br_values[0]
    assert joint - team > 0.01
    # the result says so: the team's joint gain (backward induction, the team sees all
    # its cards) is the merged game's best response minus the team's value
    assert c.team is not None and c.team.how == "backward induction"
    assert c.team.gain == pytest.approx(joint - team, abs=1e-12, rel=0)
    assert c.solved_as is None


def test_strong_team_is_solved_merged_by_default():
    # without merge=false a strong win-sharing team is solved as one player: the LP's
    # certified value is the merged game's 3/148 (test above), half to each member
    gs = load_rows("kuhn(players=3,cards=6,team=12,strong=true)")
    r = solve(gs, method="lp")
    assert (
        r.solved_as
        == "kuhn(players=3,cards=6,ante=1,bet=1,team=12,sharing=win,strong=true,merge=true)"
    )
    assert r.game is gs and r.certified
    assert r.value_exact == (F(3, 296), F(3, 296), F(-3, 148))
    # the mapped profile is an exact equilibrium of the three-player game (independent
    # path: the exact evaluator on the members' seats)
    ev = evaluate(gs, r.profile)
    assert ev.values == r.value_exact and ev.nash_conv == 0
    assert r.team is not None and r.team.gain < 1e-12  # floats in the result
    assert team_evaluation(gs, r.profile, (0, 1)).gain == 0  # exact
    # merge=False on the call keeps the three-player game
    c = solve(gs, method="cfr+", iterations=50, merge=False)
    assert c.solved_as is None and c.team.gain > 0


@pytest.mark.slow
def test_three_player_smh_strong_team_12_is_solved_as_one_player():
    # issue 22, Done-when row "team 12": tp.solve on the strong win-sharing 3P-SMH game
    # (no merge) gives the merged team's certified LP value, the outsider's -0.06281
    # (the table; the three-player Nash of the members gave it +0.0520)
    g = load_rows("mercer(players=3,variant=smh,team=12,sharing=win,strong=true)")
    r = solve(g, method="lp")
    assert r.certified and r.solved_as is not None and r.game is g
    assert round(float(r.value_exact[2]), 5) == -0.06281
    assert r.value_exact[0] == r.value_exact[1] == -r.value_exact[2] / 2
    assert r.team is not None and r.team.gain < 1e-9
