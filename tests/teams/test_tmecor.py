"""TMECor by column generation (src/toypoker/solvers/tmecor.py): exact brackets on
three-player Kuhn poker, checked against the merged team's LP and by evaluating the
mixture plan by plan."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker import solve
from toypoker.engines.rows.values import expected_values
from toypoker.errors import ToypokerError
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.teams.tmecor import tmecor

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
    g = load_rows(f"kuhn(players=3,team={digits},strong=true,merge=false)")
    r = tmecor(g)
    lp = solve(load_rows(f"kuhn(players=3,team={digits},strong=true,merge=true)"), "lp")
    lead = 0 if team[0] == 0 else 1  # the merged team sits at its lowest member's place
    assert r.how == "backward induction" and r.exact
    assert r.lower == r.upper == lp.value_exact[lead]
    assert sum(r.weights) == 1 and _mixture_value(g, r) == r.lower


@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_weak_team_on_three_card_kuhn_is_exact(team):
    # kuhn(players=3, cards=3), no card sharing: bracket width 0; the mixture played
    # against the outsider's strategy is worth exactly the bracket (saddle point)
    g = load_rows("kuhn(players=3,cards=3)")
    r = tmecor(g, team)
    # the exact oracle (certifying the hybrid's last column) answered by enumeration:
    # every member has 4 pure plans here (toypoker.teams.plans); it was labelled "MILP"
    assert r.how == "joint response, 1 by enumeration" and r.exact and r.width == 0
    assert _mixture_value(g, r) == r.lower == 0
    d = r.to_json_dict()
    assert d["exact"] is True and d["lower"] == d["upper"] == "0" and d["oracle"] == r.how


@pytest.mark.slow
def test_weak_team_on_four_card_kuhn_every_placement():
    # kuhn(players=3) (4 cards), members see only their own card: exact TMECor values
    # (this module; each a width-0 bracket whose ends are computed on separate paths,
    # and the mixture evaluated plan by plan gives the same number)
    g = load_rows("kuhn(players=3)")
    values = {}
    for team in [(0, 1), (0, 2), (1, 2)]:
        r = tmecor(g, team)
        assert r.exact and _mixture_value(g, r) == r.lower
        values[team] = r.lower
    assert values == {(0, 1): F(-1, 24), (0, 2): F(7, 264), (1, 2): F(5, 132)}


def test_tmecor_needs_one_outsider():
    with pytest.raises(ToypokerError, match="no team"):
        tmecor(load_rows("kuhn(players=3)"))
    with pytest.raises(ToypokerError, match="one outsider"):
        tmecor(load_rows("kuhn(players=4)"), (0, 1))


def test_anytime_bracket_holds_the_value_at_every_stop():
    # kuhn(players=3, cards=4), team {2,3}: TMECor value 5/132 (the slow test above);
    # stopped after k plans or by the time budget, the bracket still contains it and
    # says why it stopped; progress sees every oracle call
    g = load_rows("kuhn(players=3,cards=4)")
    seen = []
    for k in (1, 2, 4):
        r = tmecor(g, (1, 2), max_columns=k, progress=lambda *a: seen.append(a))
        assert r.stopped == "columns" and r.columns == k
        assert r.lower <= F(5, 132) <= r.upper and r.width > 0
    assert [a[0] for a in seen] == [1, 1, 2, 1, 2, 3, 4]
    r = tmecor(g, (1, 2), seconds=1e-9)
    assert r.stopped == "seconds" and r.lower <= F(5, 132) <= r.upper


def test_hybrid_and_exact_oracles_agree_on_three_cards():
    # kuhn(players=3, cards=3), team {1,3}: the hybrid oracle and the MILP at every
    # step (independent path) both give the exact value 0 (the test above)
    g = load_rows("kuhn(players=3,cards=3)")
    hybrid, exact = tmecor(g, (0, 2)), tmecor(g, (0, 2), oracle="exact")
    assert hybrid.exact and exact.exact and hybrid.lower == exact.lower == 0


@pytest.mark.slow
@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_hybrid_and_exact_oracles_agree(team):
    # kuhn(players=3, cards=4): the hybrid oracle (alternating best responses, the MILP
    # only to certify) and the MILP at every step (independent path) give the same
    # exact TMECor value, the slow test's 5/132 etc.
    g = load_rows("kuhn(players=3)")
    hybrid, exact = tmecor(g, team), tmecor(g, team, oracle="exact")
    assert hybrid.exact and exact.exact and hybrid.lower == exact.lower
    assert hybrid.lower == {(0, 1): F(-1, 24), (0, 2): F(7, 264), (1, 2): F(5, 132)}[team]


def test_alternating_oracle_and_strong_upper_game_bracket_the_value():
    # kuhn(players=3, cards=4), team {2,3}: TMECor value 5/132 (above).  Alternating
    # best responses only: the lower end is still exact and valid; with the strong
    # game as upper_game the upper end is the strong team's best response, at least
    # the strong team's own TMECor value (a team seeing its cards does no worse)
    g = load_rows("kuhn(players=3)")
    r = tmecor(g, (1, 2), oracle="alternating")
    assert r.stopped in ("heuristic", "converged") and r.lower <= F(5, 132) <= r.upper
    h = load_rows("kuhn(players=3,team=23,strong=true,merge=false)")
    s = tmecor(g, (1, 2), oracle="alternating", upper_game=h)
    assert s.lower <= F(5, 132) <= s.upper and s.how.startswith("alternating")
    assert s.upper >= tmecor(h, (1, 2)).lower
    # a warm start from the plans found converges to the same exact value
    w = tmecor(g, (1, 2), start_plans=tmecor(g, (1, 2)).plans)
    assert w.exact and w.lower == F(5, 132)
    with pytest.raises(ToypokerError, match="unknown TMECor oracle"):
        tmecor(g, (1, 2), oracle="bogus")
    with pytest.raises(ToypokerError, match="upper_game"):
        tmecor(g, (1, 2), upper_game=h)
    with pytest.raises(ToypokerError, match="start plan"):
        tmecor(g, (1, 2), start_plans=[np.zeros(3)])


def test_relaxation_oracle_brackets_the_value_within_its_certificate():
    # kuhn(players=3, cards=4), team {2,3}: TMECor value 5/132 (above).  The relevant-pairs
    # LP's plans as columns, its certified bound as the upper end: a valid bracket whose
    # width is only the certificate's rounding (the relaxation is integral here)
    g = load_rows("kuhn(players=3)")
    r = tmecor(g, (1, 2), oracle="relaxation")
    assert r.lower == F(5, 132) <= r.upper <= F(5, 132) + F(1, 10**8)
    assert r.how.startswith("relaxation") and r.stopped == "heuristic"
    with pytest.raises(ToypokerError, match="weak team of two"):
        tmecor(load_rows("kuhn(players=3,team=23,strong=true,merge=false)"), (1, 2),
               oracle="relaxation")  # fmt: skip


@pytest.mark.parametrize("team", [(0, 1), (0, 2), (1, 2)])
def test_relaxation_oracle_by_pdlp_brackets_the_value(team):
    # kuhn(players=3, cards=4): the exact TMECor values -1/24, 7/264, 5/132 (the slow
    # test above).  Each relevant-pairs LP solved by PDLP instead of the interior point:
    # the bracket still holds them and (the relaxation integral here) closes on them
    pytest.importorskip("highspy", reason="HiGHS's PDLP is reached through highspy")
    g = load_rows("kuhn(players=3)")
    value = {(0, 1): F(-1, 24), (0, 2): F(7, 264), (1, 2): F(5, 132)}[team]
    r = tmecor(g, team, oracle="relaxation", relaxation_seconds=10.0)
    assert r.lower <= value <= r.upper < value + F(1, 10**6)


@pytest.mark.slow
def test_relaxation_oracle_on_smh_reaches_the_exact_value():
    # 3P-SMH team {2,3}: the exact weak TMECor value 89108/944775 (the hybrid oracle's,
    # test_three_player_smh_every_placement_is_exact) inside a bracket of width < 1e-8
    g = load_rows("mercer(players=3,variant=smh,team=23)")
    r = tmecor(g, oracle="relaxation")
    assert r.lower <= F(89108, 944775) <= r.upper and r.width < F(1, 10**8)


@pytest.mark.slow
def test_three_player_smh_every_placement_is_exact():
    # issue 22 target: 3P-SMH, every placement, weak and strong, bracket width 0.
    # Strong: the merged team's exact LP value as the table prints it for the
    # outsider, -0.19927/-0.13557/-0.06281 (independent path: solvers/lp.py on the
    # merged game, tests/test_teams.py; solving it here would take minutes).
    # Weak: this module's width-0 brackets (ends computed on separate paths).
    base = "mercer(players=3,variant=smh)"
    g = load_rows(base)
    weak = {(0, 1): F(-4638311027186, 55208102538225), (0, 2): F(-24603977, 18064098000),
            (1, 2): F(89108, 944775)}  # fmt: skip
    for team, value in weak.items():
        r = tmecor(g, team)
        # what answered the exact oracle's calls (certified LP, else the certified MILP)
        assert r.how.startswith("joint response, ") and "certified" in r.how
        assert r.exact and r.lower == value
    for team, outsider in [((0, 1), -0.06281), ((0, 2), -0.13557), ((1, 2), -0.19927)]:
        digits = "".join(str(p + 1) for p in team)
        r = tmecor(load_rows(f"{base[:-1]},team={digits},strong=true,merge=false)"), team)
        assert r.how == "backward induction" and r.exact
        assert round(float(-r.lower), 5) == outsider


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        ({"max_columns": 0}, "max_columns must be at least 1"),
        ({"max_columns": -1}, "max_columns must be at least 1"),
        ({"seconds": -1}, "seconds must be >= 0"),
        ({"tol": -1}, "tol must be >= 0"),
        ({"tol": float("nan")}, "tol must be finite"),
        ({"relaxation_seconds": -1}, "relaxation_seconds must be positive"),
    ],
)
def test_tmecor_refuses_budgets_out_of_range(budget, message):
    # before: max_columns=0/-1 and seconds=-1 generated one column and returned a wide
    # bracket, tol=-1 or nan ran 1000 columns without converging (audit, issue 22)
    with pytest.raises(ToypokerError, match=message):
        tmecor(load_rows("kuhn(players=3,cards=3)"), (0, 1), **budget)


def test_a_strong_team_with_the_alternating_oracle_still_converges():
    # a team that sees its cards has an exact backward-induction oracle: asking for the
    # members' alternating best responses had stopped after one plan, [-3/8, 5/12]
    # (audit, issue 22); the value is the merged LP's 5/78 (test above)
    r = tmecor(load_rows("kuhn(players=3,team=13,strong=true,merge=false)"), oracle="alternating")
    assert r.exact and r.lower == r.upper == F(5, 78)
