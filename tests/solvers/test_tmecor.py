"""TMECor by column generation (src/toypoker/solvers/tmecor.py): exact brackets on
three-player Kuhn poker, checked against the merged team's LP and by evaluating the
mixture plan by plan."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker import load_game, solve
from toypoker.errors import ToypokerError
from toypoker.evaluate import expected_values
from toypoker.solvers.tmecor import tmecor

F = Fraction


def _mixture_value(game, r) -> Fraction:
    """The team's summed value of the mixture against the outsider's strategy, plan by
    plan with the exact evaluator (independent of the bracket's own computations)."""
    total = F(0)
    team = np.isin(game.sigma_player, r.team)
    for plan, w in zip(r.plans, r.weights, strict=True):
        probs = r.profile.probs.copy()
        probs[team] = [F(int(x)) for x in plan[team]]
        vals = expected_values(game, probs)
        total += w * sum(vals[p] for p in r.team)
    return total


@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_strong_team_tmecor_is_the_merged_lp_value(team):
    # a strong team is one player with perfect recall: correlation adds nothing, so the
    # TMECor value is the merged game's LP value (independent path: solvers/lp.py; the
    # values 0, 5/78, 1/12 of tests/collusion/test_table7.py)
    digits = "".join(str(p + 1) for p in team)
    g = load_game(f"kuhn(players=3,team={digits},strong=true,merge=false)")
    r = tmecor(g)
    lp = solve(load_game(f"kuhn(players=3,team={digits},strong=true,merge=true)"), "lp")
    lead = 0 if team[0] == 0 else 1  # the merged team sits at its lowest member's place
    assert r.how == "backward induction" and r.exact
    assert r.lower == r.upper == lp.value_exact[lead]
    assert sum(r.weights) == 1 and _mixture_value(g, r) == r.lower


@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_weak_team_on_three_card_kuhn_is_exact(team):
    # kuhn(players=3, cards=3), no card sharing: bracket width 0; the mixture played
    # against the outsider's strategy is worth exactly the bracket (saddle point)
    g = load_game("kuhn(players=3,cards=3)")
    r = tmecor(g, team)
    assert r.how == "MILP" and r.exact and r.width == 0
    assert _mixture_value(g, r) == r.lower == 0
    d = r.to_json_dict()
    assert d["exact"] is True and d["lower"] == d["upper"] == "0" and d["oracle"] == "MILP"


@pytest.mark.slow
def test_weak_team_on_four_card_kuhn_every_placement():
    # kuhn(players=3) (4 cards), members see only their own card: exact TMECor values
    # (this module; each a width-0 bracket whose ends are computed on separate paths,
    # and the mixture evaluated plan by plan gives the same number)
    g = load_game("kuhn(players=3)")
    values = {}
    for team in [(0, 1), (0, 2), (1, 2)]:
        r = tmecor(g, team)
        assert r.exact and _mixture_value(g, r) == r.lower
        values[team] = r.lower
    assert values == {(0, 1): F(-1, 24), (0, 2): F(7, 264), (1, 2): F(5, 132)}


def test_tmecor_needs_one_outsider():
    with pytest.raises(ToypokerError, match="no team"):
        tmecor(load_game("kuhn(players=3)"))
    with pytest.raises(ToypokerError, match="one outsider"):
        tmecor(load_game("kuhn(players=4)"), (0, 1))


def test_anytime_bracket_holds_the_value_at_every_stop():
    # kuhn(players=3, cards=4), team {2,3}: TMECor value 5/132 (the slow test above);
    # stopped after k plans or by the time budget, the bracket still contains it and
    # says why it stopped; progress sees every oracle call
    g = load_game("kuhn(players=3,cards=4)")
    seen = []
    for k in (1, 2, 4):
        r = tmecor(g, (1, 2), max_columns=k, progress=lambda *a: seen.append(a))
        assert r.stopped == "columns" and r.columns == k
        assert r.lower <= F(5, 132) <= r.upper and r.width > 0
    assert [a[0] for a in seen] == [1, 1, 2, 1, 2, 3, 4]
    r = tmecor(g, (1, 2), seconds=1e-9)
    assert r.stopped == "seconds" and r.lower <= F(5, 132) <= r.upper
