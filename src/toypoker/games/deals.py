"""The deal tables of limit poker games: every way the deck can be dealt, exactly weighted.

A deck of ``ranks x suits`` cards is dealt as consecutive unordered groups --
each player's hole cards, then each round's board (:class:`Deck`).  When the
evaluator ignores suits a card is its rank and a group its sorted ranks,
weighted exactly (hypergeometric, :func:`group_deal_table`); with one card a
group this is the older table of ordered rank sequences (:func:`deal_table`),
row for row.  When the evaluator sees suits, cards are identities
``rank * suits + suit`` and suit-isomorphic deals are merged exactly
(:func:`suit_orbit_table`): one row per orbit of deals under permutations of the
suits, weighted by the orbit's probability, each row written so that its boards
are canonical round by round (:func:`canonical_boards` gives the boards a public
chance node deals).  The ``count_*`` functions count rows without building them,
so a spec too large to compile fails fast (``limit.estimate_size``).

The betting tree over these tables is ``games/limit.py``.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.definition import suit_canonical
from toypoker.games.hands import card_name


def count_deals(multiplicity: Sequence[int], slots: int) -> int:
    """How many rows :func:`deal_table` would have (ordered rank sequences), by counting.

    ``slots! [x^slots] prod_r sum_{k <= m_r} x^k / k!`` (exponential generating
    functions); no table is built.
    """
    if slots > sum(multiplicity):
        return 0
    if all(m == 1 for m in multiplicity):
        return math.perm(len(multiplicity), slots)
    poly = [Fraction(1)]
    for m in multiplicity:
        f = [Fraction(1, math.factorial(k)) for k in range(min(m, slots) + 1)]
        out = [Fraction(0)] * min(len(poly) + len(f) - 1, slots + 1)
        for i, a in enumerate(poly):
            for j, b in enumerate(f):
                if i + j <= slots:
                    out[i + j] += a * b
        poly = out
    return int(poly[slots] * math.factorial(slots)) if len(poly) > slots else 0


def deal_table(multiplicity: Sequence[int], slots: int) -> tuple[np.ndarray, np.ndarray, int]:
    """All ordered rank sequences of length ``slots`` dealt without replacement.

    ``multiplicity[r]`` is how many cards of rank ``r`` (0-based) the deck has.
    Returns ``(cards, weight_num, weight_den)``: ``cards[d]`` the ranks (0-based)
    in deal order and ``weight_num[d] / weight_den`` the exact probability.
    """
    mult = np.asarray(multiplicity, dtype=np.int64)
    total = int(mult.sum())
    if slots > total:
        raise ValueError("more cards dealt than the deck holds")
    den = 1
    for i in range(slots):
        den *= total - i
    if np.all(mult == 1):
        # plain permutations: every deal equally likely (Kuhn poker)
        cards = np.array(list(itertools.permutations(range(len(mult)), slots)), dtype=np.int64)
        cards = cards.reshape(-1, slots)
        return cards, np.ones(len(cards), dtype=np.int64), den
    seqs = []
    nums = []
    for seq in itertools.product(range(len(mult)), repeat=slots):
        used = np.zeros(len(mult), dtype=np.int64)
        num = 1
        for r in seq:
            left = mult[r] - used[r]
            if left <= 0:
                num = 0
                break
            num *= int(left)
            used[r] += 1
        if num:
            seqs.append(seq)
            nums.append(num)
    return np.array(seqs, dtype=np.int64).reshape(-1, slots), np.array(nums, dtype=np.int64), den


def group_options(multiplicity: Sequence[int], size: int) -> tuple[np.ndarray, np.ndarray]:
    """The unordered groups of ``size`` cards a deck with ``multiplicity[r]`` cards of
    rank ``r`` can give: ``(sorted ranks (K, size), counts per rank (K, R))``, in
    lexicographic order."""
    ranks = [r for r, m in enumerate(multiplicity) if m > 0]
    opts = [
        c
        for c in itertools.combinations_with_replacement(ranks, size)
        if all(c.count(r) <= multiplicity[r] for r in set(c))
    ]
    seqs = np.array(opts, dtype=np.int64).reshape(-1, size)
    counts = np.zeros((len(seqs), len(multiplicity)), dtype=np.int64)
    for j in range(size):
        np.add.at(counts, (np.arange(len(seqs)), seqs[:, j]), 1)
    return seqs, counts


def group_deal_table(
    multiplicity: Sequence[int], groups: Sequence[int]
) -> tuple[np.ndarray, np.ndarray, int]:
    """All deals of consecutive unordered card groups, with exact probabilities.

    ``multiplicity[r]`` cards of rank ``r`` (a suited deck passes one card per
    code); ``groups`` the group sizes in deal order (each player's hole cards, then
    each round's board).  A deal is the sorted ranks of every group; its
    probability is ``prod_g prod_r C(left_r, c_gr) / prod_g C(left, s_g)``
    (hypergeometric: ``c_gr`` cards of rank ``r`` in group ``g`` of size ``s_g``,
    drawn from what earlier groups left).  With groups of one card this is
    :func:`deal_table` exactly (same rows, order and weights).  Built group by
    group with numpy (no loop over ordered sequences).

    Returns ``(cards, weight_num, weight_den)``.
    """
    mult = np.asarray(multiplicity, dtype=np.int64)
    total = int(mult.sum())
    if sum(groups) > total:
        raise ValueError("more cards dealt than the deck holds")
    top = int(mult.max()) if len(mult) else 0
    binom = np.array(
        [[math.comb(a, b) for b in range(max(groups, default=0) + 1)] for a in range(top + 1)],
        dtype=np.int64,
    )
    cards = np.zeros((1, 0), dtype=np.int64)
    used = np.zeros((1, len(mult)), dtype=np.int64)
    num = np.ones(1, dtype=np.int64)
    den, left = 1, total
    for size in groups:
        seqs, counts = group_options(multiplicity, size)
        den *= math.comb(left, size)
        left -= size
        rest = mult[None, :] - used  # (D, R)
        factor = np.ones((len(cards), len(seqs)), dtype=np.int64)
        for r in range(len(mult)):
            c = counts[:, r]
            if not c.any():
                continue
            ok = c[None, :] <= rest[:, r : r + 1]
            f = binom[np.minimum(rest[:, r : r + 1], top), np.minimum(c, binom.shape[1] - 1)]
            factor *= np.where(ok, f, 0)
        d, k = np.nonzero(factor)
        num = num[d] * factor[d, k]
        cards = np.concatenate([cards[d], seqs[k]], axis=1)
        used = used[d] + counts[k]
    if den >= 2**62:
        raise ValueError("deal table too large for exact int64 weights")
    return cards, num, den


def count_group_deals(multiplicity: Sequence[int], groups: Sequence[int]) -> int:
    """How many rows :func:`group_deal_table` would have, by dynamic programming over
    ranks; no table is built.

    The state is the multiset of cards still missing in the groups (sorted: how
    many ways a state completes does not depend on which group misses what).
    """

    def takes(need: tuple[int, ...], m: int) -> Iterator[tuple[int, ...]]:
        # every way to put at most m cards of one rank into the groups
        if not need:
            yield ()
            return
        for t in range(min(need[0], m) + 1):
            for rest in takes(need[1:], m - t):
                yield (t, *rest)

    n = sum(groups)
    if all(m == 1 for m in multiplicity):  # distinct cards: ordered groups of sets
        if n > len(multiplicity):
            return 0
        return math.perm(len(multiplicity), n) // math.prod(math.factorial(g) for g in groups)
    states: dict[tuple[int, ...], int] = {tuple(sorted(groups)): 1}
    for m in multiplicity:
        nxt: dict[tuple[int, ...], int] = {}
        for need, ways in states.items():
            for take in takes(need, m):
                key = tuple(sorted(k - t for k, t in zip(need, take, strict=True)))
                nxt[key] = nxt.get(key, 0) + ways
        states = nxt
    return states.get(tuple(0 for _ in groups), 0)


def suit_orbit_table(
    n_cards: int, suits: int, groups: Sequence[int], first: Sequence[int]
) -> tuple[np.ndarray, np.ndarray, int]:
    """One deal per orbit of deals under permutations of the suits, weighted exactly.

    The deck is ``n_cards`` card codes ``rank * suits + suit``; ``groups`` are the
    group sizes in column order (each player's hole cards, then each round's board),
    and ``first`` the groups that come first in the canonical order (the boards, so
    that every row's boards are canonical round by round: :func:`suit_canonical`).
    A row is the orbit's canonical representative and ``weight_num / weight_den`` the
    orbit's total probability (``weight_num`` = the orbit's size: every deal of
    distinct cards is equally likely).

    Built group by group in the canonical order: the orbits of the deals of the first
    ``g + 1`` groups are those of the representatives of the first ``g`` extended by
    every next group, merged (an orbit of extensions of ``x`` meets each deal of
    ``x``'s orbit equally often, so summing the extensions' weights is exact); no full
    table is built.  Returns ``(cards, weight_num, weight_den)``, rows sorted.
    """
    order = [*first, *(g for g in range(len(groups)) if g not in first)]
    order = [g for g in order if groups[g]]
    if sum(groups) > n_cards:
        raise ValueError("more cards dealt than the deck holds")
    if n_cards > 62:
        raise ValueError("suit isomorphism needs a deck of at most 62 cards")
    reps = np.zeros((1, 0), dtype=np.int64)
    num = np.ones(1, dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    den, left = 1, n_cards
    col_groups: list[list[int]] = []
    for g in order:
        size = groups[g]
        opts = np.array(list(itertools.combinations(range(n_cards), size)), dtype=np.int64)
        mask = np.bitwise_or.reduce(np.left_shift(np.int64(1), opts), axis=1)
        den *= math.comb(left, size)
        left -= size
        d, k = np.nonzero((used[:, None] & mask[None, :]) == 0)
        ext = np.concatenate([reps[d], opts[k]], axis=1)
        col_groups.append(list(range(reps.shape[1], reps.shape[1] + size)))
        canon = suit_canonical(ext, col_groups, suits)
        reps, inv = np.unique(canon, axis=0, return_inverse=True)
        merged = np.zeros(len(reps), dtype=np.int64)
        np.add.at(merged, inv.reshape(-1), num[d])
        num = merged
        used = np.bitwise_or.reduce(np.left_shift(np.int64(1), reps), axis=1)
    if den >= 2**62:
        raise ValueError("deal table too large for exact int64 weights")
    # back to column order, rows sorted by it
    starts = np.concatenate([[0], np.cumsum(groups)])
    where = {g: cols for g, cols in zip(order, col_groups, strict=True)}
    perm = [c for g in range(len(groups)) if groups[g] for c in where[g]]
    cards = reps[:, perm]
    assert cards.shape[1] == starts[-1]
    rows = np.lexsort(cards.T[::-1]) if cards.shape[1] else np.arange(len(cards))
    return cards[rows], num[rows], den


def count_suit_orbits(ranks: int, suits: int, groups: Sequence[int]) -> int:
    """How many rows :func:`suit_orbit_table` would have, by Burnside's lemma.

    The number of orbits is the mean over the ``suits!`` permutations ``g`` of the
    deals ``g`` fixes; ``g`` fixes a deal when it maps every group onto itself, i.e.
    every group is a union of ``g``'s cycles on the cards (each rank contributes the
    cycles of ``g`` on the suits).  Those are counted by dynamic programming over the
    cycles, the state being the sorted sizes still missing in the groups.
    """
    total = 0
    done = tuple(0 for _ in groups)
    for perm in itertools.permutations(range(suits)):
        lengths, seen = [], set()
        for s in range(suits):
            if s not in seen:
                c, t = 0, s
                while t not in seen:
                    seen.add(t)
                    t, c = perm[t], c + 1
                lengths.append(c)
        states: dict[tuple[int, ...], int] = {tuple(sorted(groups)): 1}
        for length in lengths * ranks:
            nxt: dict[tuple[int, ...], int] = {}
            for need, ways in states.items():
                nxt[need] = nxt.get(need, 0) + ways  # the cycle's cards are not dealt
                for value, mult in Counter(need).items():
                    if value >= length:  # the cycle goes to one of the mult such groups
                        rest = list(need)
                        rest.remove(value)
                        key = tuple(sorted([*rest, value - length]))
                        nxt[key] = nxt.get(key, 0) + ways * mult
            states = nxt
        total += states.get(done, 0)
    return total // math.factorial(suits)


def canonical_boards(
    n_cards: int, suits: int, sizes: Sequence[int], prefix: Sequence[int], size: int
) -> list[tuple[int, ...]]:
    """The canonical next boards of ``size`` cards after the canonical board ``prefix``
    (boards of ``sizes`` cards each, in round order): the suit orbits of the boards
    ``prefix + next`` of distinct cards, each written canonically (its prefix stays
    ``prefix``)."""
    rest = [c for c in range(n_cards) if c not in set(prefix)]
    opts = np.array(list(itertools.combinations(rest, size)), dtype=np.int64).reshape(-1, size)
    rows = np.concatenate([np.tile(np.asarray(prefix, dtype=np.int64), (len(opts), 1)), opts], 1)
    groups, col = [], 0
    for g in [*sizes, size]:
        groups.append(list(range(col, col + g)))
        col += g
    canon = suit_canonical(rows, groups, suits)
    return sorted({tuple(row) for row in canon[:, len(prefix) :].tolist()})


@dataclass(frozen=True)
class Deck:
    """How cards are dealt: the deal table's group sizes and what a card is.

    ``hole`` cards per player, then each round's board; ``suits`` is the number of
    suits when cards are identities (``code = rank * suits + suit``), else 0 (a
    card is its rank; suits merged exactly).
    """

    multiplicity: tuple[int, ...]
    n_players: int
    hole: int
    boards: tuple[int, ...]
    suits: int = 0

    @property
    def groups(self) -> tuple[int, ...]:
        """Group sizes in deal order."""
        return (self.hole,) * self.n_players + tuple(b for b in self.boards if b)

    @property
    def cards(self) -> tuple[int, ...]:
        """Cards per code of the deal table (one each when suited)."""
        if self.suits:
            return (1,) * (len(self.multiplicity) * self.suits)
        return self.multiplicity

    def hole_slots(self) -> list[tuple[int, ...]]:
        """Deal columns of each player's hole cards."""
        h = self.hole
        return [tuple(range(p * h, (p + 1) * h)) for p in range(self.n_players)]

    def board_slots(self) -> list[tuple[int, ...]]:
        """Deal columns of each round's board."""
        out, col = [], self.n_players * self.hole
        for b in self.boards:
            out.append(tuple(range(col, col + b)))
            col += b
        return out

    def show(self, values: Sequence[int]) -> str:
        """Board cards as written in histories: ranks 1-based (``[12]``; joined by
        ``-`` past rank 9) or card names (``[6s2c]``)."""
        if self.suits:
            return "".join(card_name(c, self.suits) for c in values)
        sep = "" if len(self.multiplicity) <= 9 else "-"
        return sep.join(str(c + 1) for c in values)


def build_entries(
    multiplicity: Sequence[int], groups: Sequence[int], suits: int = 0, first: Sequence[int] = ()
) -> int:
    """The largest table (entries) :func:`group_deal_table` -- or, with ``suits``,
    :func:`suit_orbit_table` with ``first`` -- allocates while it builds the deals,
    counted without building: at each group, the rows so far times the group's options
    (their ``(rows, options)`` products and masks), and the options themselves.  The
    final table can be small while a step between is not (many hole cards, a large deck).
    """
    largest = 0
    if suits:
        n_cards = len(multiplicity)
        order = [*first, *(g for g in range(len(groups)) if g not in first)]
        done: list[int] = []
        for g in (g for g in order if groups[g]):
            rows = count_suit_orbits(n_cards // suits, suits, done) if done else 1
            options = math.comb(n_cards, groups[g])
            largest = max(largest, rows * options, options * groups[g])
            done.append(groups[g])
        return largest
    for k, size in enumerate(groups):
        rows = count_group_deals(multiplicity, groups[:k]) if k else 1
        options = count_group_deals(multiplicity, [size])
        largest = max(largest, rows * options * max(len(multiplicity), 1), options * size)
    return largest
