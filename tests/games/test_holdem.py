"""The general limit hold'em builder (``holdem(...)``, ``games/limit.py``)."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker import Profile, nash_conv, solve
from toypoker.errors import SpecError
from toypoker.games import GAMES, canonical_spec, load_rows
from toypoker.games.deals import count_deals, deal_table
from toypoker.spec import parse_spec

LEDUC_AS_HOLDEM = "holdem()"  # the defaults are Leduc hold'em
KUHN_AS_HOLDEM = "holdem(ranks=3,suits=1,rounds=1,bet1=1,cap1=1,evaluator=high_card)"
SMH_AS_HOLDEM = (
    "holdem(ranks=5,suits=4,hole=2,board2=2,bet1=4,bet2=4,orbits1=1,orbits2=0,"
    "check=false,evaluator=ullman4)"
)


def same_structure(a, b):
    assert np.array_equal(a.cards, b.cards)
    assert np.array_equal(a.weight_num, b.weight_num) and a.weight_den == b.weight_den
    assert [i.label for i in a.infosets] == [i.label for i in b.infosets]
    assert np.array_equal(a.term_u, b.term_u)


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (LEDUC_AS_HOLDEM, "leduc(players=2)"),
        ("holdem(players=3,ranks=4)", "leduc(players=3)"),
        (KUHN_AS_HOLDEM, "kuhn(players=2)"),
        (SMH_AS_HOLDEM, "mercer(players=2)"),
    ],
)
def test_builtin_games_as_holdem(game, rng, ours, theirs):
    a, b = game(ours), game(theirs)
    same_structure(a, b)
    prof = Profile.random(a, rng)
    assert nash_conv(a, prof.probs) == pytest.approx(nash_conv(b, prof.probs), abs=1e-12)


def test_leduc_as_holdem_same_lp_value(game):
    a = solve(game(LEDUC_AS_HOLDEM), "lp")
    b = solve(game("leduc(players=2)"), "lp")
    assert a.value_exact == b.value_exact  # Leduc: -0.0856 for P1 (Southey et al. 2005)


def test_old_tables_are_the_ordered_sequences(game):
    # one card per player and per board: the table of ordered rank sequences
    for spec, mult, slots in [("kuhn(players=3)", [1] * 4, 3), ("leduc(players=3)", [2] * 4, 4)]:
        g = game(spec)
        cards, num, den = deal_table(mult, slots)
        assert np.array_equal(g.cards, cards) and np.array_equal(g.weight_num, num)
        assert g.weight_den == den and count_deals(mult, slots) == len(cards)


def test_blinds_and_first_actor(game):
    # ACPC-style heads-up: seat 2 posts the big blind, seat 1 the small one and acts
    # first before the flop; the big blind may check (its option) or raise
    g = game("holdem(ante=0,blind1=1,blind2=2,first2=2,rounds=2,board2=1,ranks=3)")
    root = g.nodes[0]
    assert root.actor == 0 and root.actions == ("f", "c", "r")
    assert g.infoset("P2:1:c").actions == ("k", "b")
    assert g.infoset("P2:1:ck/[2]").actions == ("k", "b")  # seat 2 first after the flop
    assert g.nodes[0].committed == (1, 2)


def test_rank_only_standard_and_suited_standard():
    g = load_rows("holdem(ranks=4,suits=2,hole=1,rounds=2,board2=1,evaluator=standard)")
    assert sum(int(x) for x in g.weight_num) == g.weight_den
    # five cards: suits matter, the table holds card codes, one deal per suit orbit
    spec = "holdem(ranks=4,suits=2,hole=2,rounds=2,board2=3,cap1=1,cap2=1,evaluator=standard)"
    s = load_rows(spec)
    assert s.cards.max() == 7 and sum(int(x) for x in s.weight_num) == s.weight_den
    # 8 cards: C(8,2) * C(6,2) * C(4,3) deals; swapping the two suits fixes none of them
    # (a fixed group is a union of a rank's two cards, and the board has three), so
    # Burnside's lemma gives 1680 / 2 orbits
    assert s.n_deals == 28 * 15 * 4 // 2
    u = load_rows(spec[:-1] + ",suit_isomorphism=false)")
    assert u.n_deals == 28 * 15 * 4 and u.definition.suits == 0


def test_size_hook_counts_without_building(game):
    info = GAMES["holdem"]
    for spec in [LEDUC_AS_HOLDEM, SMH_AS_HOLDEM, "holdem(players=3,ranks=4)"]:
        g = game(spec)
        p = info.validate(parse_spec(spec).as_dict())
        deals, nodes, players = info.size(p)
        assert deals == g.n_deals and players == g.n_players and nodes >= len(g.nodes)


def test_canonical_spec_lists_the_rounds():
    assert canonical_spec("holdem(rounds=1,evaluator=high_card)") == (
        "holdem(players=2,ranks=3,suits=2,hole=1,rounds=1,ante=1,check=true,"
        "evaluator=high_card,bet1=2,cap1=2,first1=1)"
    )
    assert "bet2=4" in canonical_spec("holdem()")
    assert GAMES["holdem"].validate({"bet2": Fraction(6)})["bet2"] == 6


@pytest.mark.parametrize(
    "spec, message",
    [
        ("holdem(rounds=1,bet2=4)", "rounds=1"),
        ("holdem(orbits1=1)", "check=false"),
        ("holdem(evaluator=nope)", "unknown evaluator"),
        ("holdem(players=7)", "deals"),
        ("holdem(first1=3)", "seat"),
        ("holdem(evaluator=3)", "word"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(SpecError, match=message):
        load_rows(spec)
