"""Showdown evaluators (``toypoker.games.hands``)."""

import itertools
from collections import Counter

import numpy as np

from toypoker.games.hands import EVALUATORS, card_name, multiplicity_key, ullman4_key

# Mercer ranks 2..6 are 0-based ranks 0..4 here
TWO, THREE, FOUR, FIVE, SIX = range(5)


def category(key: int) -> int:
    return key // 32**8


def test_all_70_four_card_mercer_hands_by_category():
    # Ullman (2015), Sec. 4.2, fn. 4: high card < pair < two pair < trips < quads.
    # Four cards from ranks 2-6 with at most four of a rank: C(5+4-1, 4) = 70 multisets.
    # Counting by hand: quads 5; trips 5 x 4 kickers = 20; two pair C(5,2) = 10;
    # one pair 5 x C(4,2) = 30; high card C(5,4) = 5.  5+20+10+30+5 = 70.
    hands = list(itertools.combinations_with_replacement(range(5), 4))
    assert len(hands) == 70
    names = {0: "high card", 1: "pair", 2: "two pair", 3: "trips", 7: "quads"}
    counts = Counter(names[category(ullman4_key(h))] for h in hands)
    assert counts == {"high card": 5, "pair": 30, "two pair": 10, "trips": 20, "quads": 5}
    # each category beats every hand of a lower one
    order = ["high card", "pair", "two pair", "trips", "quads"]
    for a, b in itertools.product(hands, hands):
        ca, cb = (order.index(names[category(ullman4_key(h))]) for h in (a, b))
        if ca > cb:
            assert ullman4_key(a) > ullman4_key(b)


def test_hand_checked_orderings():
    # Ties broken by ranks (Ullman fn. 4): the higher pair first, then the kicker.
    k = ullman4_key
    assert k((TWO, TWO, SIX, SIX)) > k((TWO, TWO, FIVE, FIVE))  # sixes up beats fives up
    assert k((TWO, TWO, SIX, SIX)) > k((THREE, THREE, FIVE, FIVE))  # top pair 6 > 5
    assert k((THREE, THREE, THREE, TWO)) > k((FIVE, FIVE, SIX, SIX))  # trips > two pair
    assert k((TWO, TWO, TWO, TWO)) > k((SIX, SIX, SIX, FIVE))  # quads > trips
    assert k((SIX, SIX, SIX, TWO)) > k((FIVE, FIVE, FIVE, SIX))  # trip rank first
    assert k((FOUR, FOUR, SIX, TWO)) > k((FOUR, FOUR, FIVE, THREE))  # kicker 6 > 5
    assert k((FOUR, FOUR, SIX, THREE)) > k((FOUR, FOUR, SIX, TWO))  # second kicker
    assert k((THREE, FOUR, FIVE, SIX)) > k((TWO, FOUR, FIVE, SIX))  # no straights
    assert k((SIX, FOUR, TWO, THREE)) == k((TWO, THREE, FOUR, SIX))  # order-free


def test_vectorised_evaluator_matches_keys():
    rng = np.random.default_rng(7)
    hole = np.sort(rng.integers(0, 5, size=(200, 2)), axis=1)
    board = np.sort(rng.integers(0, 5, size=(200, 2)), axis=1)
    got = EVALUATORS["ullman4"].strength(hole, board, 0)
    want = [ullman4_key(tuple(h) + tuple(b)) for h, b in zip(hole, board, strict=True)]
    assert got.tolist() == want


def test_standard_below_five_cards_is_by_pairs():
    # ACPC's evaluator on fewer than five cards: pair > high card, then ranks.
    k = multiplicity_key
    assert k((0, 0)) > k((4, 3))
    assert k((2, 3)) > k((1, 3))


def test_standard_five_cards_uses_pokerkit():
    # standard ranking: straight flush > quads > full house > flush > straight > trips
    s = 4
    code = {card_name(c, s): c for c in range(13 * s)}
    hands = [
        "2c3c4c5c6c",  # straight flush
        "2c2d2h2s3c",  # quads
        "2c2d2h3s3c",  # full house
        "2c4c6c8cTc",  # flush
        "2c3d4h5s6c",  # straight
        "2c2d2h5s6c",  # trips
    ]
    rows = np.array([[code[h[i : i + 2]] for i in range(0, 10, 2)] for h in hands])
    st = EVALUATORS["standard"].strength(rows[:, :2], rows[:, 2:], s)
    assert list(st) == sorted(st, reverse=True) and len(set(st.tolist())) == 6
    # the wheel A-2-3-4-5 is a straight, below 2-6
    wheel = np.array([[code[c] for c in ("Ac", "2d", "3h", "4s", "5c")]])
    six = np.array([[code[c] for c in ("2c", "3d", "4h", "5s", "6c")]])
    pair = np.array([[code[c] for c in ("Ac", "Ad", "3h", "4s", "9c")]])
    ev = EVALUATORS["standard"].strength
    w, x, p = (ev(h[:, :2], h[:, 2:], s)[0] for h in (wheel, six, pair))
    assert x > w > p
