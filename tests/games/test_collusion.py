"""Collusion as a transform (Ullman 2015, collusion chapter: win/pot sharing, weak/strong),
checked on hand-computed terminals of three-player Kuhn poker."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker import canonical_spec, evaluate, load_game, solve
from toypoker.errors import SpecError, ToypokerError

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
    assert _u(load_game("kuhn(players=3)"), H, DEAL) == (-1, 3, -2)


def test_win_sharing_hand_computed():
    # team {P1, P2}: each gets the mean net payoff (-1 + 3) / 2 = 1; P3 unchanged
    assert _u(load_game("kuhn(players=3,team=12)"), H, DEAL) == (1, 1, -2)
    # team {P1, P3}: mean of (-1, -2) = -3/2
    assert _u(load_game("kuhn(players=3,team=13)"), H, DEAL) == (F(-3, 2), 3, F(-3, 2))


def test_pot_sharing_hand_computed():
    # team {P1, P2}: pot shares (0, 5) split evenly, 5/2 each, minus own chips (1, 2)
    assert _u(load_game("kuhn(players=3,team=12,sharing=pot)"), H, DEAL) == (
        F(3, 2),
        F(1, 2),
        -2,
    )
    # team {P1, P3}: both pot shares are 0, so each keeps -committed
    assert _u(load_game("kuhn(players=3,team=13,sharing=pot)"), H, DEAL) == (-1, 3, -2)


@pytest.mark.parametrize("sharing", ["win", "pot"])
def test_sharing_keeps_zero_sum(sharing):
    g = load_game(f"kuhn(players=3,team=23,sharing={sharing})")
    assert all(sum(col) == 0 for col in g.term_u_exact.T)
    assert np.array_equal(g.term_u_exact.astype(float), g.term_u)  # halves: exact in floats
    if sharing == "win":  # members receive equal payoffs
        assert np.array_equal(g.term_u[1], g.term_u[2])


def test_strong_infosets_see_partner_cards():
    weak = load_game("kuhn(players=3,team=12)")
    strong = load_game("kuhn(players=3,team=12,strong=true)")
    assert weak.n_infosets == 48  # Szafron et al. (2013), Sec. 3
    # members: 4 own cards x 3 partner cards x 4 nodes each; outsider unchanged (4 x 4)
    assert strong.n_infosets == 2 * 4 * 3 * 4 + 4 * 4
    assert strong.has_infoset("P1:2-4:")  # own card 2, partner's card 4
    assert strong.has_infoset("P2:4-2:k")
    assert strong.has_infoset("P3:1:kk")


def test_payoff_map_follows_numeric_parameters():
    g = load_game("kuhn(players=3,team=12,sharing=pot)")
    h = g.at(pot=6)
    assert h.spec == (
        "kuhn(players=3,cards=4,bet=1,pot=6,team=12,sharing=pot,strong=false,merge=false)"
    )
    assert np.array_equal(h.term_u, g.term_u + 3 * g.payoff_slope("pot"))  # affine, exact
    assert np.array_equal(h.term_u, load_game(h.spec).term_u)


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
        load_game(spec)


def test_merged_team_is_two_player_zero_sum():
    g = load_game("kuhn(players=3,team=12,strong=true,merge=true)")
    assert g.n_players == 2
    assert all(sum(col) == 0 for col in g.term_u_exact.T)
    # team payoff = sum of the members' unshared payoffs
    plain = load_game("kuhn(players=3)")
    assert _u(g, H, DEAL) == (F(-1 + 3), F(-2))
    assert _u(plain, H, DEAL)[2] == -2


@pytest.mark.parametrize("team", ["12", "13", "23"])
def test_merged_lp_value_is_outsider_security_value(team):
    g = load_game(f"kuhn(players=3,cards=5,team={team},strong=true,merge=true)")
    res = solve(g, method="lp")
    assert res.certified
    t = 0 if team[0] == "1" else 1  # the team sits at its lowest member's place
    ev = evaluate(g, res.profile)
    # the outsider's best response against the team's LP strategy gains nothing
    assert ev.br_values[1 - t] == -res.value_exact[t]
    assert ev.nash_conv == 0
    cfr = solve(g, method="cfr+", iterations=2000)
    assert abs(cfr.values[t] - float(res.value_exact[t])) < 1e-2


def test_transfer_profile_maps_the_merged_team_onto_its_members_and_back():
    # kuhn(players=3, cards=6), strong collusion of seats 1, 2 (win sharing): the merged
    # team's exact LP value is 3/148 (our LP, certified); each member's infoset is the
    # team's at that node, so the LP strategy played by the members is an exact
    # equilibrium of the 3-player game with each member getting half the team value
    from toypoker.games.collusion import transfer_profile

    gm = load_game("kuhn(players=3,cards=6,team=12,strong=true,merge=true)")
    gs = load_game("kuhn(players=3,cards=6,team=12,strong=true)")
    lp = solve(gm, method="lp")
    assert lp.certified and lp.value_exact[0] == F(3, 148)
    p = transfer_profile(lp.profile, gs)
    ev = evaluate(gs, p)
    assert ev.gains == (0, 0, 0)
    assert ev.values == (F(3, 296), F(3, 296), F(-3, 148))
    back = transfer_profile(p, gm)
    assert np.array_equal(back.probs, lp.profile.probs)
    with pytest.raises(ToypokerError, match="public tree"):
        transfer_profile(p, load_game("kuhn(players=3,cards=5)"))


def test_members_can_settle_below_the_team_value():
    # A coordination equilibrium (issue 12, 3P-SMH: the 3-player CFR+ equilibrium's team
    # mean 0.059 against the merged LP's 0.133): in kuhn(players=3, cards=6) with seats
    # 1, 2 colluding strongly, CFR+ on the 3-player game reaches NashConv < 1e-5 with the
    # team at ~0.0099, while the team's value is 3/148 ~ 0.0203 (LP above): no member
    # gains alone, but the two members together would gain > 0.01 against the
    # outsider's strategy (the merged game's best response, 0.0208)
    from toypoker.games.collusion import transfer_profile

    gm = load_game("kuhn(players=3,cards=6,team=12,strong=true,merge=true)")
    gs = load_game("kuhn(players=3,cards=6,team=12,strong=true)")
    c = solve(gs, method="cfr+", iterations=5000)
    ev = evaluate(gs, c.profile)
    assert ev.nash_conv < 1e-5
    team = ev.values[0] + ev.values[1]
    assert team < float(F(3, 148)) - 0.009
    joint = evaluate(gm, transfer_profile(c.profile, gm)).br_values[0]
    assert joint - team > 0.01


def test_placements_rotate_the_dealer():
    from toypoker.games.collusion import placements

    assert placements(3, (0, 1)) == [(0, 1), (1, 2), (0, 2)]
    assert placements(3, (1, 2)) == [(1, 2), (0, 2), (0, 1)]


def test_stored_profiles_round_trip_and_recompute_the_table(tmp_path):
    # kuhn(players=3): strong collusion's team values are the merged LP's 0 (team {1,2}),
    # 5/78 ({1,3}) and 1/12 ({2,3}) (tests/cli/test_collusion.py); the stored equilibria
    # give the same table when read back, and each bracket [low, high] holds the value
    from toypoker.games.collusion import (
        CollusionProfiles,
        collusion_table_from,
        solve_collusion_profiles,
    )

    prof = solve_collusion_profiles(
        "kuhn(players=3)", (0, 1), method="pdcfr+", iterations=3000, target_nash_conv=1e-6
    )
    assert len(prof.sigma) == 7  # no collusion, strong and weak for 3 placements
    t = collusion_table_from(prof)
    prof.save(tmp_path / "p.npz")
    back = CollusionProfiles.load(tmp_path / "p.npz")
    assert back.how == prof.how and back.team == (0, 1)
    assert collusion_table_from(back) == t
    exact = {(0, 1): F(0), (0, 2): F(5, 78), (1, 2): F(1, 12)}
    assert len(t.team_values) == 3
    for members, lo, hi in t.team_values:
        assert lo <= float(exact[members]) <= hi and hi - lo <= 2e-6
    # Public strong payoff of the team, averaged over the rotations (win sharing: equal)
    a, b, c = t.payoffs[("strong", "public")]
    assert a == pytest.approx(b, abs=1e-12) and a + b + c == pytest.approx(0, abs=1e-12)
    assert a + b == pytest.approx(float(sum(exact.values()) / 3), abs=2e-6)
    assert t.nash_conv["none"] <= 1e-6 and t.nash_conv["weak"] <= 1e-5  # 3-player: cap
    # a stored vector is tied to its game's infosets
    g = load_game("kuhn(players=3,cards=5)")
    with pytest.raises(ToypokerError, match="no stored profile"):
        back.profile(g)
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(ToypokerError, match="cannot read"):
        CollusionProfiles.load(tmp_path / "bad.npz")


def _cli(capsys, *args):
    from toypoker.cli import main

    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_table7_cli_saves_and_reuses_the_equilibria(capsys, tmp_path):
    # `toypoker collusion table7 --save` then `--profiles`: the same table without
    # solving; the strong team values are bracketed around the merged LP's (0, 5/78,
    # 1/12 for kuhn(players=3), test_stored_profiles_round_trip_and_recompute_the_table)
    import json

    store = tmp_path / "k.npz"
    args = ("collusion", "table7", "kuhn(players=3)", "--team", "23", "--json")
    code, out, err = _cli(capsys, *args, "--method", "pdcfr+", "--iterations", "2000",
                          "--target-nash-conv", "1e-6", "--save", store)  # fmt: skip
    assert code == 0, err
    first = json.loads(out)
    code, out, err = _cli(capsys, *args, "--profiles", store)
    assert code == 0, err
    assert json.loads(out) == first
    vals = {v["team"]: (v["low"], v["high"]) for v in first["team_values"]}
    assert set(vals) == {"12", "13", "23"}
    assert vals["13"][0] <= 5 / 78 <= vals["13"][1] and vals["23"][0] <= 1 / 12 <= vals["23"][1]
    # a store of another team or game is refused in one line
    code, out, err = _cli(capsys, "collusion", "table7", "kuhn(players=3)", "--team", "12",
                          "--profiles", store)  # fmt: skip
    assert code == 2 and "team 23" in err and err.count("\n") == 1
    code, out, err = _cli(capsys, "collusion", "table7", "kuhn(players=3)", "--strong-solve", "x")
    assert code == 2 and "--strong-solve" in err
