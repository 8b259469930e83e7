"""Mercer Hold'em (Ullman 2015, Sec. 4.2): deals, rules on worked histories, sizes, LP value."""

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from toypoker import solve
from toypoker.errors import SpecError
from toypoker.games import load_rows
from toypoker.games.deals import count_group_deals, group_deal_table

# 0-based ranks: the deuce is 0, the six is 4; labels and board histories are 1-based
R2, R3, R4, R5, R6 = range(5)


def payoff(g, history, cards):
    """Terminal payoffs at the node of ``history`` for the deal with these 0-based cards."""
    node = next(n for n in g.nodes if n.kind == "terminal" and n.history == history)
    deals = g.node_deals[node.id]
    a = g.node_row_start[node.id]
    d = next(k for k, x in enumerate(deals) if tuple(g.cards[x]) == cards)
    t = int(np.searchsorted(g.term_rows, a + d))
    return tuple(float(v) for v in g.term_u[:, t])


@pytest.mark.parametrize(
    "spec",
    ["mercer(players=2)", pytest.param("mercer(players=3,variant=mmh)", marks=pytest.mark.slow)],
)
def test_deal_probabilities_sum_to_one_exactly(game, spec):
    g = game(spec)
    assert sum(int(x) for x in g.weight_num) == g.weight_den
    assert np.all(g.weight_num > 0)


def test_merged_weights_equal_physical_enumeration():
    # hypergeometric merging checked against all 6*5*4*3*2 ordered physical deals of
    # a 3-rank, 2-suit deck into groups of sizes (2, 2, 1)
    cards, num, den = group_deal_table([2, 2, 2], [2, 2, 1])
    want = Counter()
    for seq in itertools.permutations(range(6), 5):
        r = [c // 2 for c in seq]
        want[tuple(sorted(r[:2])) + tuple(sorted(r[2:4])) + (r[4],)] += Fraction(1, 720)
    got = {tuple(row): Fraction(int(n), den) for row, n in zip(cards.tolist(), num, strict=True)}
    assert got == dict(want)
    assert count_group_deals([2, 2, 2], [2, 2, 1]) == len(cards)


def test_one_deal_probability_by_hand(game):
    # P1 2-2, P2 3-3, flop 4-4: C(4,2)/C(20,2) * C(4,2)/C(18,2) * C(4,2)/C(16,2)
    g = game("mercer(players=2)")
    d = next(k for k, row in enumerate(g.cards.tolist()) if row == [R2, R2, R3, R3, R4, R4])
    p = Fraction(6, 190) * Fraction(6, 153) * Fraction(6, 120)
    assert Fraction(int(g.weight_num[d]), g.weight_den) == p


def test_smh_two_player_rules(game):
    # Ullman Sec. 4.2: ante 1, bet 4 or fold, seat 0 first, no betting after the flop
    g = game("mercer(players=2)")
    assert g.infoset("P1:1-4:").actions == ("b", "f")  # P1 holding 2-5 bets or folds
    assert g.infoset("P2:1-4:b").actions == ("c", "f")
    assert not g.has_infoset("P2:1-4:f")  # P1 folded: P2 takes the pot, no decision
    deal = (R2, R5, R3, R3, R4, R6)
    assert payoff(g, "f", deal) == (-1.0, 1.0)  # the antes
    assert payoff(g, "bf", deal) == (1.0, -1.0)
    # showdown: P1 2-5 + 4-6 high card; P2 3-3 + 4-6 a pair: P2 wins 5
    assert payoff(g, "bc/[35]", deal) == (-5.0, 5.0)
    # split pot: both 2-5 with a 3-4 flop, high card 5-4-3-2 each
    assert payoff(g, "bc/[23]", (R2, R5, R2, R5, R3, R4)) == (0.0, 0.0)
    # kickers: pair of sixes with 4-2 loses to pair of sixes with 4-3
    assert payoff(g, "bc/[35]", (R2, R6, R3, R6, R4, R6)) == (-5.0, 5.0)
    assert {n.history for n in g.nodes if n.kind == "decision"} == {"", "b"}


def test_three_player_rules(game):
    g = game("mercer(players=3)")
    # after P1 folds, P2 is the first to bet; after a bet P3 calls or folds
    assert g.infoset("P2:1-1:f").actions == ("b", "f")
    assert g.infoset("P3:1-1:fb").actions == ("c", "f")
    assert g.infoset("P3:1-1:bc").actions == ("c", "f")
    deal = (R2, R3, R2, R3, R4, R5, R6, R6)
    assert payoff(g, "ff", deal) == (-1.0, -1.0, 2.0)
    assert payoff(g, "bff", deal) == (2.0, -1.0, -1.0)
    assert payoff(g, "fbf", deal) == (-1.0, 2.0, -1.0)
    # P3's pair of sixes with 5-4 beats the others' pair of sixes with 3-2
    assert payoff(g, "bcc/[55]", deal) == (-5.0, -5.0, 10.0)
    # P1 and P2 tie (pair of fours, 6-5) and split 15 chips: +2.5 each
    tie = (R5, R6, R5, R6, R2, R3, R4, R4)
    assert payoff(g, "bcc/[33]", tie) == (2.5, 2.5, -5.0)
    assert payoff(g, "bcf/[33]", tie) == (0.5, 0.5, -1.0)


def test_mmh_two_orbits_each_side(game):
    # Ullman Sec. 4.2: in 2P-MMH at most 8 bets, a pot of 34 chips with the 2 antes
    g = game("mercer(players=2,variant=mmh)")
    term = [n for n in g.nodes if n.kind == "terminal"]
    assert max(sum(n.committed) for n in term) == 34
    assert g.infoset("P1:1-4:bc").actions == ("b", "f")  # second orbit, P1 first again
    assert g.infoset("P1:1-4:bcbc/[12]").actions == ("b", "f")  # after the flop, seat 0
    assert g.infoset("P2:1-4:bcbc/[12]b").actions == ("c", "f")
    assert g.infoset("P2:1-4:bcbc/[12]bcb").actions == ("c", "f")
    deal = (R2, R5, R3, R3, R4, R6)
    assert payoff(g, "bcbc/[35]bcbc", deal) == (-17.0, 17.0)
    assert payoff(g, "bcbc/[35]f", deal) == (-9.0, 9.0)  # P1 folds after the flop


@pytest.mark.slow
def test_sizes_counted_and_built(game):
    from toypoker.games import GAMES

    g = game("mercer(players=3,variant=mmh)")
    # Ullman's code (NOTES.md): 9,720 information sets in 3-player MMH
    assert g.n_infosets == 9720
    assert (g.n_deals, len(g.nodes), g.n_rows) == (46180, 1402, 5911040)
    p = GAMES["mercer"].validate({"players": 3, "variant": "mmh"})
    deals, nodes, players = GAMES["mercer"].size(p)
    assert (deals, players) == (46180, 3) and nodes >= len(g.nodes)


def test_smh_lp_value():
    # Ullman's code reports -0.104 / +0.104 for 2P-SMH (fictitious play, eps 0.001;
    # NOTES.md); the sequence-form LP gives the exact value
    r = solve(load_rows("mercer(players=2)"), "lp")
    assert r.value_exact == (Fraction(-19688, 188955), Fraction(19688, 188955))
    assert abs(r.values[0] + 0.104) < 0.001


@pytest.mark.parametrize("spec", ["mercer(players=4)", "mercer(variant=xyz)", "mercer(variant=3)"])
def test_bad_specs(spec):
    with pytest.raises(SpecError):
        load_rows(spec)
