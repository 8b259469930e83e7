"""Three-card hand ranking (``toypoker.games.three_card``) against brute force."""

import functools
import itertools
from collections import Counter

import numpy as np
import pytest

from toypoker.definition import RANK_CHARS, SUIT_CHARS
from toypoker.games.three_card import CLASS_NAMES, hand_class, three_card_strength

SUITS = 4
ALL_HANDS = np.array(list(itertools.combinations(range(13 * SUITS), 3)), dtype=np.int64)


def codes(text: str) -> list[int]:
    """``"Ah2c3d"`` -> card codes ``rank * 4 + suit``."""
    return [
        RANK_CHARS.index(text[i]) * SUITS + SUIT_CHARS.index(text[i + 1])
        for i in range(0, len(text), 2)
    ]


def describe(hand: tuple[int, ...]) -> tuple[int, list[int]]:
    """An independent reading of the rules: (class order, tie-break values), with
    face values 2..14 (ace 14) and the ace also counted as 1 for the low straight."""
    values = sorted((c // SUITS + 2 for c in hand), reverse=True)
    same_suit = len({c % SUITS for c in hand}) == 1
    counts = Counter(values)
    straight_top = None
    for low_ace in (False, True):
        v = sorted(1 if (low_ace and x == 14) else x for x in values)
        if len(set(v)) == 3 and v[2] - v[0] == 2:
            straight_top = v[2] if straight_top is None else max(straight_top, v[2])
    if straight_top is not None and same_suit:
        return 5, [straight_top]
    if 3 in counts.values():
        return 4, [values[0]]
    if straight_top is not None:
        return 3, [straight_top]
    if same_suit:
        return 2, values
    if 2 in counts.values():
        pair = next(v for v, n in counts.items() if n == 2)
        odd = next(v for v, n in counts.items() if n == 1)
        return 1, [pair, odd]
    return 0, values


def compare(a: tuple[int, list[int]], b: tuple[int, list[int]]) -> int:
    """-1, 0, 1: the class first, then the tie-break values in order."""
    if a[0] != b[0]:
        return -1 if a[0] < b[0] else 1
    for x, y in zip(a[1], b[1], strict=True):
        if x != y:
            return -1 if x < y else 1
    return 0


def test_class_counts_over_all_22100_hands():
    # issue 21's counts (brute force over C(52, 3) = 22,100 hands): straight flush 48
    # (12 sequences incl. A-2-3 and Q-K-A, x 4 suits), trips 13 x 4 = 52, straight
    # 12 x (4^3 - 4) = 720, flush 4 x (C(13,3) - 12) = 1,096, pair 13 x 6 x 48 = 3,744,
    # high card (C(13,3) - 12) x 60 = 16,440
    assert len(ALL_HANDS) == 22100
    got = Counter(CLASS_NAMES[c] for c in hand_class(ALL_HANDS, SUITS).tolist())
    assert got == {
        "straight flush": 48,
        "three of a kind": 52,
        "straight": 720,
        "flush": 1096,
        "pair": 3744,
        "high card": 16440,
    }
    independent = Counter(describe(tuple(h))[0] for h in ALL_HANDS.tolist())
    assert [independent[c] for c in range(6)] == [16440, 3744, 1096, 720, 52, 48]


def test_order_of_all_hands_equals_an_independent_comparator():
    # brute force: sort all 22,100 hands by the independent comparator; the vectorised
    # strengths must induce the same weak order (same ranks, same ties)
    hands = [tuple(h) for h in ALL_HANDS.tolist()]
    desc = [describe(h) for h in hands]
    order = sorted(
        range(len(hands)), key=functools.cmp_to_key(lambda i, j: compare(desc[i], desc[j]))
    )
    want = np.empty(len(hands), dtype=np.int64)
    level = 0
    for k, i in enumerate(order):
        if k and compare(desc[order[k - 1]], desc[i]) != 0:
            level += 1
        want[i] = level
    strength = three_card_strength(ALL_HANDS, SUITS)
    got = np.unique(strength, return_inverse=True)[1].reshape(-1)
    assert np.array_equal(got, want)
    # the same over every order of the three cards (hands are unordered)
    for perm in itertools.permutations(range(3)):
        assert np.array_equal(three_card_strength(ALL_HANDS[:, list(perm)], SUITS), strength)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("QhKhAh", "Ah2h3h"),  # Q-K-A straight flush is the best, A-2-3 the lowest
        ("Ah2h3h", "AcAdAh"),  # any straight flush beats trips
        ("2c2d2h", "QhKcAd"),  # trips beat the best straight
        ("2h3c4d", "Ah2c3d"),  # A-2-3 is the lowest straight
        ("Ah2c3d", "AhKhJh"),  # a straight beats a flush
        ("2h3h5h", "AcAdKh"),  # a flush beats a pair
        ("AhKhJh", "AhKhTh"),  # flushes: third card
        ("3c3dAh", "2c2dAh"),  # pair rank first
        ("3c3d5h", "3h3s4c"),  # then the kicker
        ("2c2d3h", "AcKdJh"),  # any pair beats high card
        ("AcKdJh", "AcQdJh"),  # high card: second card
    ],
)
def test_hand_checked_pairs(better, worse):
    s = three_card_strength(np.array([codes(better), codes(worse)]), SUITS)
    assert s[0] > s[1]


def test_suits_never_break_ties():
    s = three_card_strength(
        np.array([codes("AcKdJh"), codes("AsKhJc"), codes("5c5d9h"), codes("5h5s9c")]), SUITS
    )
    assert s[0] == s[1] and s[2] == s[3]


def test_small_deck_has_no_ace():
    # ranks=5 is deuce to six: 4-5-6 is its best straight and no A-2-3 wraps around
    five = 5 * SUITS
    hands = np.array(list(itertools.combinations(range(five), 3)), dtype=np.int64)
    straights = {
        tuple(sorted({c // SUITS for c in h}))
        for h, cl in zip(hands.tolist(), hand_class(hands, SUITS).tolist(), strict=True)
        if CLASS_NAMES[cl] in ("straight", "straight flush")
    }
    assert straights == {(0, 1, 2), (1, 2, 3), (2, 3, 4)}


def test_three_cards_required():
    with pytest.raises(ValueError, match="3 cards"):
        three_card_strength(np.zeros((2, 4), dtype=np.int64), SUITS)
