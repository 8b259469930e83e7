"""The built-in games: structure, sizes and parameter validation."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker.errors import SpecError
from toypoker.games import load_rows  # the deal table: these tests read its rows


def test_kuhn_two_player_structure(game):
    # Kuhn (1950): 3 cards, 6 deals, 30 plays (6 deals x 5 courses of action)
    g = game("kuhn(players=2)")
    assert g.n_deals == 6
    assert len(g.term_rows) == 30
    assert g.n_infosets == 12
    assert sum(Fraction(int(x), g.weight_den) for x in g.weight_num) == 1  # exactly


def test_kuhn_three_player_structure(game):
    # Szafron et al. (2013), Sec. 3: 24 deals, 4 situations x 4 cards x 3 players = 48 params
    g = game("kuhn(players=3)")
    assert g.n_deals == 24
    assert g.n_infosets == 48
    assert all(len(i.actions) == 2 for i in g.infosets)
    # Billingham (N cards): twelve decision nodes
    assert sum(n.kind == "decision" for n in g.nodes) == 12


def test_infoset_fields(game):
    g = game("kuhn(players=3)")
    assert not g.has_infoset("P2:3:kb")  # after "kb" it is P3 who acts
    j = g.infoset((1, 3, "k"))
    assert (j.player, j.private, j.history, j.actions) == (1, (3,), "k", ("k", "b"))
    assert j.label == "P2:3:k"
    assert g.infoset("P3:4:kb").actions == ("f", "c")
    assert g.infoset((2, (4,), "kb")) is g.infoset("P3:4:kb")


def test_payoff_example_szafron_sec2(game):
    # Szafron et al. Sec. 2: P1 checks, P2 bets, P3 folds, P1 calls; cards 1,2,4:
    # P1 -2, P2 +3, P3 -1 (the a13 leaf of their Figure 1).
    g = game("kuhn(players=3)")
    node = next(n for n in g.nodes if n.history == "kbfc")
    a, b = g.node_row_start[node.id], g.node_row_start[node.id + 1]
    deals = g.node_deals[node.id]
    d = next(k for k, x in enumerate(deals) if tuple(g.cards[x] + 1) == (1, 2, 4))
    t = np.searchsorted(g.term_rows, a + d)
    assert tuple(g.term_u[:, t]) == (-2.0, 3.0, -1.0)
    assert b > a


def test_ties_split_in_leduc(game):
    g = game("leduc(players=2)")
    # deal ranks (2, 2, board 1): showdown after kk/kk splits the pot (2 each)
    node = next(n for n in g.nodes if n.kind == "terminal" and n.history == "kk/[1]kk")
    deals = g.node_deals[node.id]
    a = g.node_row_start[node.id]
    d = next(k for k, x in enumerate(deals) if tuple(g.cards[x] + 1) == (2, 2, 1))
    t = np.searchsorted(g.term_rows, a + d)
    assert tuple(g.term_u[:, t]) == (0.0, 0.0)


def test_leduc_sizes_match_openspiel_rules(game):
    # leduc_poker: 2 players, 6 cards; 3 players, 8 cards (two suits of n+1 ranks)
    g2, g3 = game("leduc(players=2)"), game("leduc(players=3)")
    assert g2.cards.max() + 1 == 3 and g3.cards.max() + 1 == 4
    # the deal probabilities sum to one exactly (integer numerators over one denominator)
    assert int(g2.weight_num.sum()) == g2.weight_den and int(g3.weight_num.sum()) == g3.weight_den
    # at most 2 bets a round: no raise available after "br"
    assert g2.infoset("P1:1:br").actions == ("f", "c")
    assert g2.infoset("P2:1:b").actions == ("f", "c", "r")
    assert g2.infoset("P1:1:").actions == ("k", "b")


def test_third_street_and_skp(game):
    # Billingham Sec. 2: P1 and P2 must check; P3 checks or bets; then P1, P2 fold/call
    g = game("kuhn_third_street(pot=3)")
    assert {i.history for i in g.infosets} == {"kk", "kkb", "kkbf", "kkbc"}
    assert g.infoset("P3:1:kk").actions == ("k", "b")
    s = game("skp(pot=9)")
    free = [i.label for i in s.infosets if not i.restricted]
    # Sec. 3: the remaining decisions are b_J (P3), c_K (P1), d_Q (P2)
    assert free == ["P3:1:kk", "P1:3:kkb", "P2:2:kkbf"]


def test_pot_and_ante_are_the_same_game():
    a = load_rows("kuhn(players=3, pot=3)")
    b = load_rows("kuhn(players=3, ante=1)")
    assert np.array_equal(a.term_u, b.term_u)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("poker()", "unknown game"),
        ("kuhn(players=1)", "players >= 2"),
        ("kuhn(players=3, cards=2)", "cards >= players"),
        ("kuhn(ante=0)", "positive"),
        ("kuhn(bet=-1)", "positive"),
        ("kuhn(pot=-3)", "positive"),
        ("kuhn(pot=3, ante=1)", "not both"),
        ("kuhn(players=2.5)", "whole number"),
        ("kuhn(colour=red)", "unknown parameter"),
        ("skp(pot=0)", "positive"),
        ("leduc(players=4)", "players=2 or 3"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(SpecError, match=message):
        load_rows(spec)


def test_defaults_come_from_the_params():
    from toypoker.games import GAMES

    for info in GAMES.values():
        params = info.validate({})
        for p in info.params:
            if p.default is not None and p.name in params and not p.excludes:
                assert params[p.name] == p.default, (info.name, p.name)
    assert GAMES["skp"].validate({})["rational"] is True
    assert GAMES["kuhn_third_street"].validate({})["rational"] is False
    assert GAMES["kuhn"].validate({"players": 3}) == {"players": 3, "cards": 4, "ante": 1, "bet": 1}
    assert GAMES["kuhn"].validate({"pot": 3}) == {"players": 2, "cards": 3, "bet": 1, "pot": 3}


def test_hooks_dominated_and_openspiel(game):
    from toypoker.games import GAMES

    g = game("kuhn(players=2)")
    assert GAMES["kuhn"].openspiel(g) == ("kuhn_poker", {"players": 2})
    assert GAMES["kuhn"].openspiel(game("kuhn(players=2,bet=2)")) is None
    assert GAMES["kuhn"].openspiel(game("kuhn(players=3,pot=3)")) is None
    assert GAMES["leduc"].openspiel(game("leduc(players=3)")) == ("leduc_poker", {"players": 3})
    assert GAMES["skp"].openspiel(game("skp(pot=9)")) is None
    assert GAMES["leduc"].dominated(game("leduc(players=2)")) == {}
    assert GAMES["skp"].dominated(game("skp(pot=9)")) == {}
    pins = GAMES["kuhn"].dominated(g)  # best card bets/calls, worst folds
    assert {g.infosets[g.sigma_infoset[k]].label for k in pins} >= {"P1:3:kb", "P2:1:b"}
