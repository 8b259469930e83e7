"""Showdown evaluators: hand strength over a whole deal table.

An :class:`Evaluator` maps each deal's hole cards and board cards to an integer
strength (higher wins, equal strengths split the pot).  ``suited`` says whether
it needs card identities (``code = rank * suits + suit``); otherwise the deal
table holds ranks only and suits are merged exactly (see ``games/deals.py``).

* ``high_card`` -- Kuhn: the highest hole cards win (sorted descending, compared
  lexicographically; one card: its rank).
* ``leduc`` -- Leduc hold'em: a hole card pairing the board beats any unpaired
  hand, then the hole rank (Southey et al. 2005).
* ``ullman4`` -- Mercer Hold'em (Ullman 2015, Sec. 4.2, footnote 4): the best four
  cards of hole and board; high card < one pair < two pair < three of a kind <
  four of a kind, no straights and no flushes, ties broken by the ranks in order of
  multiplicity then rank (pair rank, then kickers).
* ``standard`` -- poker hand ranking.  Fewer than five cards: by multiplicity only
  (pair > high card, two pair > pair, trips > two pair, quads > trips; no straight or
  flush is possible), as ACPC's evaluator ranks such card sets.  Five or more cards:
  the best five by pokerkit's ``StandardHighHand`` (straights and flushes, the ace
  playing low in the wheel); this needs card identities, so the evaluator is suited.
* ``three_card`` -- Rhode Island Hold'em's three-card hands (hole and board, three
  cards in all): straight flush > three of a kind > straight > flush > pair > high
  card (``games/three_card.py``, after Shi and Littman 2001 and Gilpin and Sandholm
  2007); suited.

Strengths are computed once per distinct hand (sorted cards) and spread over
the deals with ``numpy.unique``: a deal table has few distinct hands.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from toypoker.definition import RANK_CHARS, SUIT_CHARS, card_text  # noqa: F401 (re-exported)
from toypoker.games.three_card import three_card_strength

# multiplicity categories, in standard poker order (straight 4 and flush 5 only
# arise with five cards, which ``standard`` hands to pokerkit)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, FULL_HOUSE, QUADS = 0, 1, 2, 3, 6, 7


def card_name(code: int, suits: int) -> str:
    """The name of a card code ``rank * suits + suit`` (rank 0 is a deuce): ``"6s"``."""
    return card_text(code, suits)


def multiplicity_key(ranks: tuple[int, ...]) -> int:
    """Strength of a hand by rank multiplicities alone (no straights, no flushes).

    The category (high card, pair, two pair, trips, full house, quads) first, then the
    ranks ordered by multiplicity and rank, both descending: ``2-2-6-6`` (two pair,
    sixes and deuces) beats ``2-2-5-5``, and ``3-3-3-2`` beats ``2-2-6-6``.
    """
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    pattern = sorted(counts.values(), reverse=True)
    if pattern[0] >= 4:
        cat = QUADS
    elif pattern[0] == 3:
        cat = FULL_HOUSE if len(pattern) > 1 and pattern[1] >= 2 else TRIPS
    elif pattern[0] == 2:
        cat = TWO_PAIR if len(pattern) > 1 and pattern[1] == 2 else PAIR
    else:
        cat = HIGH_CARD
    key = cat
    for r in order:
        key = key * 32 + r + 1
    return key * 32 ** (8 - len(order))


def ullman4_key(ranks: tuple[int, ...]) -> int:
    """Ullman's Mercer hand: the best four cards by :func:`multiplicity_key`."""
    if len(ranks) <= 4:
        return multiplicity_key(ranks)
    return max(multiplicity_key(c) for c in itertools.combinations(ranks, 4))


def _per_hand(
    key: Callable[[tuple[int, ...]], int], hole: np.ndarray, board: np.ndarray
) -> np.ndarray:
    """Apply ``key`` to each distinct sorted hand of the rows and spread it back."""
    cards = np.sort(np.concatenate([hole, board], axis=1), axis=1)
    uniq, inv = np.unique(cards, axis=0, return_inverse=True)
    keys = np.array([key(tuple(int(x) for x in row)) for row in uniq], dtype=np.int64)
    return keys[inv.reshape(-1)]


def _high_card(hole: np.ndarray, board: np.ndarray, suits: int) -> np.ndarray:
    if hole.shape[1] == 1:
        return hole[:, 0]
    ranks = np.sort(hole, axis=1)[:, ::-1]
    out = np.zeros(len(hole), dtype=np.int64)
    for j in range(ranks.shape[1]):
        out = out * 32 + ranks[:, j]
    return out


def _leduc(hole: np.ndarray, board: np.ndarray, suits: int) -> np.ndarray:
    h = hole[:, 0]
    return h + 1000 * (h == board[:, 0])


def _ullman4(hole: np.ndarray, board: np.ndarray, suits: int) -> np.ndarray:
    return _per_hand(ullman4_key, hole, board)


def _pokerkit_key(codes: tuple[int, ...], suits: int, n_hole: int) -> int:
    from pokerkit import StandardHighHand

    names = [card_name(c, suits) for c in codes]
    hand = StandardHighHand.from_game("".join(names[:n_hole]), "".join(names[n_hole:]))
    return int(hand.entry.index)  # pokerkit's lookup: a larger index is a stronger hand


def _standard(hole: np.ndarray, board: np.ndarray, suits: int) -> np.ndarray:
    if hole.shape[1] + board.shape[1] < 5:
        if suits:  # card codes: the ranks are what count below five cards
            hole, board = hole // suits, board // suits
        return _per_hand(multiplicity_key, hole, board)
    n_hole = hole.shape[1]
    cards = np.concatenate([np.sort(hole, axis=1), np.sort(board, axis=1)], axis=1)
    uniq, inv = np.unique(cards, axis=0, return_inverse=True)
    keys = np.array(
        [_pokerkit_key(tuple(int(x) for x in row), suits, n_hole) for row in uniq],
        dtype=np.int64,
    )
    return keys[inv.reshape(-1)]


def _three_card(hole: np.ndarray, board: np.ndarray, suits: int) -> np.ndarray:
    return three_card_strength(np.concatenate([hole, board], axis=1), max(suits, 1))


@dataclass(frozen=True)
class Evaluator:
    """A showdown evaluator.

    ``strength(hole, board, suits)`` takes ``(deals, h)`` and ``(deals, b)`` card
    arrays (ranks, or card codes when ``suited(cards)``) and returns int64
    strengths; ``suited(cards)`` says whether hands of ``cards`` cards (hole plus
    board) need card identities.
    """

    name: str
    doc: str
    strength: Callable[[np.ndarray, np.ndarray, int], np.ndarray]
    suited: Callable[[int], bool]


def _never(cards: int) -> bool:
    return False


def _five_or_more(cards: int) -> bool:
    return cards >= 5


def _always(cards: int) -> bool:
    return True


EVALUATORS: dict[str, Evaluator] = {
    "high_card": Evaluator("high_card", "highest hole cards win (Kuhn)", _high_card, _never),
    "leduc": Evaluator(
        "leduc", "a hole card pairing the board wins, then the hole rank", _leduc, _never
    ),
    "ullman4": Evaluator(
        "ullman4",
        "Mercer: best 4 cards, high card < pair < two pair < trips < quads",
        _ullman4,
        _never,
    ),
    "standard": Evaluator(
        "standard",
        "poker hands (best 5 via pokerkit; fewer cards by pairs)",
        _standard,
        _five_or_more,
    ),
    "three_card": Evaluator(
        "three_card",
        "Rhode Island: 3 cards, straight flush > trips > straight > flush > pair > high card",
        _three_card,
        _always,
    ),
}
