"""Collusion as a transform (Ullman 2015, collusion chapter: win/pot sharing, weak/strong),
checked on hand-computed terminals of three-player Kuhn poker."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker import canonical_spec, evaluate, solve
from toypoker.errors import SpecError, ToypokerError
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.games.team_transform import Team, placements, seat_digits

F = Fraction


def _u(g, history: str, cards: tuple[int, ...]) -> tuple[Fraction, ...]:
    """Exact payoffs at the terminal with this public history and deal (0-based ranks)."""
    for j, r in enumerate(g.term_rows):
        node = g.nodes[g.row_node[r]]
        if node.history == history and tuple(g.cards[g.row_deal[r]]) == cards:
            return tuple(g.term_u_exact[:, j])
    raise AssertionError(f"no terminal {history} {cards}")


# kuhn(players=3), ante 1, bet 1.  History "kbcf": P1 checks, P2 bets, P3 calls, P1 folds;
# committed (1, 2, 2), pot 5; deal (0, 2, 1): P2 holds the higher card and takes the pot.
# No collusion: u = (0 - 1, 5 - 2, 0 - 2) = (-1, 3, -2).
H, DEAL = "kbcf", (0, 2, 1)


def test_no_collusion_terminal():
    assert _u(load_rows("kuhn(players=3)"), H, DEAL) == (-1, 3, -2)


def test_win_sharing_hand_computed():
    # team {P1, P2}: each gets the mean net payoff (-1 + 3) / 2 = 1; P3 unchanged
    assert _u(load_rows("kuhn(players=3,team=12)"), H, DEAL) == (1, 1, -2)
    # team {P1, P3}: mean of (-1, -2) = -3/2
    assert _u(load_rows("kuhn(players=3,team=13)"), H, DEAL) == (F(-3, 2), 3, F(-3, 2))


def test_pot_sharing_hand_computed():
    # team {P1, P2}: pot shares (0, 5) split evenly, 5/2 each, minus own chips (1, 2)
    assert _u(load_rows("kuhn(players=3,team=12,sharing=pot)"), H, DEAL) == (
        F(3, 2),
        F(1, 2),
        -2,
    )
    # team {P1, P3}: both pot shares are 0, so each keeps -committed
    assert _u(load_rows("kuhn(players=3,team=13,sharing=pot)"), H, DEAL) == (-1, 3, -2)


@pytest.mark.parametrize("sharing", ["win", "pot"])
def test_sharing_keeps_zero_sum(sharing):
    g = load_rows(f"kuhn(players=3,team=23,sharing={sharing})")
    assert all(sum(col) == 0 for col in g.term_u_exact.T)
    assert np.array_equal(g.term_u_exact.astype(float), g.term_u)  # halves: exact in floats
    if sharing == "win":  # members receive equal payoffs
        assert np.array_equal(g.term_u[1], g.term_u[2])


def test_strong_infosets_see_partner_cards():
    weak = load_rows("kuhn(players=3,team=12)")
    strong = load_rows("kuhn(players=3,team=12,strong=true)")
    assert weak.n_infosets == 48  # Szafron et al. (2013), Sec. 3
    # members: 4 own cards x 3 partner cards x 4 nodes each; outsider unchanged (4 x 4)
    assert strong.n_infosets == 2 * 4 * 3 * 4 + 4 * 4
    assert strong.has_infoset("P1:2-4:")  # own card 2, partner's card 4
    assert strong.has_infoset("P2:4-2:k")
    assert strong.has_infoset("P3:1:kk")


def test_payoff_map_follows_numeric_parameters():
    g = load_rows("kuhn(players=3,team=12,sharing=pot)")
    h = g.at(pot=6)
    assert h.spec == ("kuhn(players=3,cards=4,bet=1,pot=6,team=12,sharing=pot,strong=false)")
    assert np.array_equal(h.term_u, g.term_u + 3 * g.payoff_slope("pot"))  # affine, exact
    assert np.array_equal(h.term_u, load_rows(h.spec).term_u)


def test_canonical_spec_keeps_collusion():
    assert canonical_spec("kuhn(players=3,team=21,strong=true,merge=true)") == (
        "kuhn(players=3,cards=4,ante=1,bet=1,team=12,sharing=win,strong=true,merge=true)"
    )
    assert canonical_spec("kuhn(players=3)") == "kuhn(players=3,cards=4,ante=1,bet=1)"


@pytest.mark.parametrize(
    "spec",
    [
        "kuhn(players=3,team=1)",
        "kuhn(players=3,team=11)",
        "kuhn(players=3,team=14)",
        "kuhn(players=3,team=123)",
        "kuhn(players=3,team=12,sharing=all)",
        "kuhn(players=3,team=12,merge=true)",
        "kuhn(players=3,strong=true)",
        "kuhn(players=3,team=12,strong=3)",
    ],
)
def test_bad_collusion_specs(spec):
    with pytest.raises(SpecError):
        load_rows(spec)


def test_merged_team_is_two_player_zero_sum():
    g = load_rows("kuhn(players=3,team=12,strong=true,merge=true)")
    assert g.n_players == 2
    assert all(sum(col) == 0 for col in g.term_u_exact.T)
    # team payoff = sum of the members' unshared payoffs
    plain = load_rows("kuhn(players=3)")
    assert _u(g, H, DEAL) == (F(-1 + 3), F(-2))
    assert _u(plain, H, DEAL)[2] == -2


@pytest.mark.parametrize("team", ["12", "13", "23"])
def test_merged_lp_value_is_outsider_security_value(team):
    g = load_rows(f"kuhn(players=3,cards=5,team={team},strong=true,merge=true)")
    res = solve(g, method="lp")
    assert res.certified
    t = 0 if team[0] == "1" else 1  # the team sits at its lowest member's place
    ev = evaluate(g, res.profile)
    # the outsider's best response against the team's LP strategy gains nothing
    assert ev.br_values[1 - t] == -res.value_exact[t]
    assert ev.nash_conv == 0
    cfr = solve(g, method="cfr+", iterations=2000)
    assert abs(cfr.values[t] - float(res.value_exact[t])) < 1e-2


def test_placements_rotate_the_dealer():
    assert placements(3, (0, 1)) == [(0, 1), (1, 2), (0, 2)]
    assert placements(3, (1, 2)) == [(1, 2), (0, 2), (0, 1)]


def test_team_value_type_parses_once():
    # the spec form "team=21" and the CLI form "--team 21" give the same sorted team
    t = Team.parse("21", "pot", True)
    assert t == Team((0, 1), "pot", True) and t.digits == "12" == seat_digits((0, 1))
    assert Team.parse(F(13)).seats == (0, 2)  # the spec parser hands numbers over
    assert t.params(merge=True) == {"team": "12", "sharing": "pot", "strong": True, "merge": True}
    assert Team.of_params(load_rows("kuhn(players=3,team=23,strong=true)").params) == Team(
        (1, 2), "win", True
    )
    for bad in ("1", "11", "10", "x2"):
        with pytest.raises(SpecError):
            Team.parse(bad)
    with pytest.raises(SpecError, match="sharing"):
        Team((0, 1), "all")
    with pytest.raises(SpecError, match="every player"):
        Team((0, 1)).check(2)
    with pytest.raises(SpecError, match="beyond"):
        Team((0, 3)).check(3)


@pytest.mark.parametrize(
    ("given", "seats"),
    [("12", (0, 1)), ("13", (0, 2)), (23, (1, 2)), ((0, 2), (0, 2)), ([2, 1], (1, 2))],
)
def test_api_team_argument_means_what_the_spec_means(given, seats):
    # "12" in the Python API is seats 1 and 2, as in a spec (team=12) and on the command
    # line (--team 12); a sequence is 0-based seats.  Before, a string was read digit by
    # digit as 0-based seats: team="12" evaluated seats 2 and 3 (audit, issue 22).
    g = load_rows("kuhn(players=3)")
    p = solve(g, "cfr+", iterations=50).profile
    assert Team.of(given).seats == seats
    assert evaluate(g, p, team=given).team.team == seats


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ((0.9, 1.9), "whole numbers"),
        ((True, False), "whole numbers"),
        ((-1, 0), "0-based"),
        (object(), "seat digits"),
        ("ab", "digits"),
        (12.0, "seat digits"),
    ],
)
def test_api_team_argument_refuses_what_it_cannot_read(given, message):
    # before: (0.9, 1.9) was truncated to (0, 1), (True, False) accepted, (-1, 0) reported
    # as "at least 2 distinct seats, got 01", an int a bare TypeError
    with pytest.raises(SpecError, match=message):
        Team.of(given)


def test_api_refuses_a_team_the_spec_contradicts():
    # the command line refuses `--team 12` on a team=23 spec; the Python API had solved
    # and evaluated the other team silently (audit, issue 22)
    g = load_rows("kuhn(players=3,team=23)")
    p = solve(g, "cfr+", iterations=20, team=False).profile
    with pytest.raises(SpecError, match="conflicts with the spec's team=23"):
        solve(g, "cfr+", iterations=20, team=(0, 1))
    with pytest.raises(SpecError, match="conflicts"):
        evaluate(g, p, team="12")
    assert evaluate(g, p, team="23").team.team == (1, 2)


def test_api_merge_true_needs_a_strong_win_sharing_team():
    # merge=True without such a team had been ignored silently (audit, issue 22)
    for spec in ("kuhn(players=3)", "kuhn(players=3,team=12)",
                 "kuhn(players=3,team=12,strong=true,sharing=pot)"):  # fmt: skip
        with pytest.raises(ToypokerError, match="merge=True is for a strong win-sharing"):
            solve(load_rows(spec), "cfr+", iterations=10, merge=True)
    res = solve(load_rows("kuhn(players=3,team=12,strong=true)"), "cfr+", iterations=10, merge=True)
    assert res.solved_as is not None and "merge=true" in res.solved_as
