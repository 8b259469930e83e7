"""Three-card hand ranking (Rhode Island Hold'em), vectorised over arrays of cards.

Rhode Island Hold'em (Shi and Littman 2001, "Abstraction methods for game theoretic
poker"; Gilpin and Sandholm 2005/2007, "Lossless abstraction of imperfect-information
games", where the game's rules and hand ranking are restated) ends with each player's
three-card hand: her private card and the two public cards.  Its hand classes, best
first, are

    straight flush > three of a kind > straight > flush > pair > high card

(with three cards a straight is rarer than a flush, hence the order).  Within a class
we break ties as in three-card poker, which is how both papers' ranking reads when two
hands share a class:

* straight flush, straight -- the top card of the sequence; the ace plays high
  (Q-K-A, the best) and low (A-2-3, the lowest: its top card is the 3);
* three of a kind -- the rank;
* flush, high card -- the ranks in descending order, compared lexicographically
  (the ace high);
* pair -- the pair's rank, then the odd card (the kicker).

Equal strengths split the pot.  Suits never break ties.

Cards are codes ``rank * suits + suit`` with rank 0 the deuce (the package's
convention, :func:`toypoker.definition.card_text`); the ace is rank 12.  A smaller
deck keeps the true names (``ranks=5`` is deuce to six), so it has no ace and no
A-2-3 straight.

Over a standard 52-card deck the 22,100 three-card hands split into 48 straight
flushes, 52 three of a kind, 720 straights, 1,096 flushes, 3,744 pairs and 16,440
high-card hands (``tests/games/test_three_card.py`` counts them by brute force).
"""

from __future__ import annotations

import numpy as np

HIGH_CARD, PAIR, FLUSH, STRAIGHT, TRIPS, STRAIGHT_FLUSH = range(6)
CLASS_NAMES = ("high card", "pair", "flush", "straight", "three of a kind", "straight flush")
ACE = 12  # rank index of the ace (RANK_CHARS[12] == "A")
_BASE = 16  # a rank fits in 4 bits


def hand_class(cards: np.ndarray, suits: int) -> np.ndarray:
    """The hand class of each three-card hand (``HIGH_CARD`` .. ``STRAIGHT_FLUSH``).

    Parameters
    ----------
    cards
        ``(..., 3)`` card codes ``rank * suits + suit``.
    suits
        Suits in the deck.

    Returns
    -------
    numpy.ndarray
        ``(...)`` int64 class indices (see :data:`CLASS_NAMES`).
    """
    return three_card_strength(cards, suits) // _BASE**3


def three_card_strength(cards: np.ndarray, suits: int) -> np.ndarray:
    """Showdown strength of three-card hands: higher wins, equal strengths tie.

    Parameters
    ----------
    cards
        ``(..., 3)`` card codes ``rank * suits + suit`` (three distinct cards).
    suits
        Suits in the deck (``suits=1``: a one-suit deck, every hand a flush).

    Returns
    -------
    numpy.ndarray
        ``(...)`` int64 strengths ``class * 16**3 + tie-break``, the class as in
        :data:`CLASS_NAMES` and the tie-break the ranks that decide within it.
    """
    codes = np.asarray(cards, dtype=np.int64)
    if codes.shape[-1] != 3:
        raise ValueError(f"three-card hands need 3 cards, got {codes.shape[-1]}")
    rank, suit = np.divmod(codes, suits)
    r = -np.sort(-rank, axis=-1)  # descending: r0 >= r1 >= r2
    r0, r1, r2 = r[..., 0], r[..., 1], r[..., 2]
    flush = (suit[..., 0] == suit[..., 1]) & (suit[..., 1] == suit[..., 2])
    trips = r0 == r2
    pair = ~trips & ((r0 == r1) | (r1 == r2))
    distinct = (r0 > r1) & (r1 > r2)
    run = distinct & (r0 - r2 == 2)
    wheel = distinct & (r0 == ACE) & (r1 == 1) & (r2 == 0)  # A-2-3: the 3 is its top
    straight = run | wheel
    top = np.where(wheel, 1, r0)
    cls = np.select(
        [straight & flush, trips, straight, flush, pair],
        [STRAIGHT_FLUSH, TRIPS, STRAIGHT, FLUSH, PAIR],
        HIGH_CARD,
    )
    kicker = np.where(r0 == r1, r2, r0)
    lex = (r0 * _BASE + r1) * _BASE + r2
    tie = np.select(
        [straight, trips, pair],
        [top * _BASE**2, r0 * _BASE**2, (r1 * _BASE + kicker) * _BASE],
        lex,
    )
    return cls.astype(np.int64) * _BASE**3 + tie
