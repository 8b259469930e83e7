"""A general builder for limit-betting poker games: deck, rounds, evaluator.

One builder serves Kuhn poker with any number of players and cards, the
one-third street game, Leduc hold'em, Mercer Hold'em and the ``holdem(...)``
spec.  It produces a :class:`~toypoker.game.GameDefinition`: the table of deals
with their exact probabilities and the public betting tree.

Deals (:func:`group_deal_table`): a deck of ``ranks x suits`` cards dealt as
consecutive unordered groups -- each player's hole cards, then each round's
board.  When the evaluator ignores suits a card is its rank and a group its
sorted ranks, weighted exactly (hypergeometric); with one card a group this is
the older table of ordered rank sequences (:func:`deal_table`), row for row.
When the evaluator sees suits, cards are identities ``rank * suits + suit``
and suit-isomorphic deals are merged exactly (:func:`suit_orbit_table`): one row
per orbit of deals under permutations of the suits, weighted by the orbit's
probability, each row written so that its boards are canonical round by round;
the public tree deals the canonical boards, and a player's observation at a node
of round ``r`` is her hole cards canonicalised jointly with the boards shown so
far (``Game`` compiles it per round), so her information sets are those of the
unmerged game up to a suit permutation.  ``suit_isomorphism=False`` keeps every
card identity (the unmerged game, for cross-checks).

Betting (per round, fixed bet size ``bet``, at most ``max_bets`` bets a round):
when no bet is outstanding a player may check (``k``) or bet (``b``); facing
a bet a player folds (``f``), calls (``c``) or raises (``r``, while fewer than
``max_bets`` bets have been made).  After a bet or raise every other live
player acts once more, in seat order from the bettor's left.  Kuhn poker is
``max_bets=1``: "check/bet until someone bets, then every other player in
turn folds or calls" (Kuhn 1950; Szafron et al. 2013, Sec. 2).  A round may
instead use Ullman's orbits (``Round.orbits``: every live player in seat order
puts in one bet or folds, ``orbits`` times; Ullman 2015, Sec. 4.2), forbid
checking, start at another seat, charge an ante or post blinds (:class:`Round`).

The ante and the bet sizes may be affine forms (:class:`~toypoker.game.Linear`)
in the game's numeric parameters: the chips committed at every node are then
recorded as forms too, which is what :meth:`toypoker.game.Game.at` evaluates.
:func:`estimate_size` counts deals and public nodes before anything is
allocated, so a spec too large to compile fails fast.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..definition import GameDefinition, Linear, NumericParams, RawNode, suit_canonical
from .hands import Evaluator, card_name


@dataclass(frozen=True)
class Round:
    """One betting round.

    ``board`` cards are revealed before it; ``bet`` is the bet size and
    ``max_bets`` the cap on bets and raises (raise-cap betting).  The optional
    fields (their defaults keep the older games identical):

    ``hole``
        Hole cards dealt to each player before this round (round 0 only; 0 in
        round 0 means one card, or the builder's ``hole_cards``).
    ``ante``
        Chips every live player puts in at the start of the round (added to the
        builder's ``ante`` in round 0).
    ``orbits``
        ``None``: raise-cap betting.  An int: Ullman's orbit betting -- ``orbits``
        passes in seat order from ``first``, in each of which every live player puts
        in exactly ``bet`` more chips (``b`` for the first, ``c`` for the later ones)
        or folds (``f``); 0 orbits is a round without betting.  Needs ``check=False``.
    ``check``
        Whether a player facing no bet may check; without it she bets or folds.
    ``first``
        The seat acting first in this round (the next live seat if folded).
    ``blinds``
        Round 0 only: chips each seat posts before the deal (ACPC blinds); the
        first bet over the largest blind is a raise.
    """

    board: int
    bet: Fraction | Linear
    max_bets: int
    hole: int = 0
    ante: Fraction | Linear = Fraction(0)
    orbits: int | None = None
    check: bool = True
    first: int = 0
    blinds: tuple[Fraction, ...] | None = None


class TooLargeError(Exception):
    """Raised by :func:`estimate_size` when ``deals x nodes x players`` passes its budget:
    ``deals``, ``players`` and ``nodes`` (the count so far, already over budget)."""

    def __init__(self, deals: int, nodes: int, players: int):
        super().__init__(deals, nodes, players)
        self.deals, self.nodes, self.players = deals, nodes, players


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


def _deck(
    n_players: int,
    multiplicity: Sequence[int],
    rounds: Sequence[Round],
    hole_cards: int | None,
    suits: int,
) -> Deck:
    if any(r.hole for r in rounds[1:]):
        raise ValueError("hole cards after the first round are not supported")
    if rounds and rounds[0].board:
        raise ValueError("a board before the first betting round is not supported yet")
    hole = hole_cards or (rounds[0].hole if rounds else 0) or 1
    if suits and len(set(multiplicity)) != 1:
        raise ValueError("a suited deck has the same number of cards of every rank")
    return Deck(tuple(multiplicity), n_players, hole, tuple(r.board for r in rounds), suits)


def build_limit_game(
    *,
    name: str,
    params: dict[str, object],
    n_players: int,
    multiplicity: Sequence[int],
    rounds: Sequence[Round],
    ante: Fraction | Linear,
    strength: Callable[[np.ndarray, int], np.ndarray] | None = None,
    can_open: Callable[[int, int], bool] | None = None,
    restrictions: Sequence[tuple[int, tuple[int, ...], str, dict[str, Fraction]]] = (),
    numeric: NumericParams | None = None,
    hole_cards: int | None = None,
    evaluator: Evaluator | None = None,
    suit_isomorphism: bool = True,
) -> GameDefinition:
    """Build a limit-betting game definition.

    Parameters
    ----------
    name, params
        The spec name and its canonical parameters.
    n_players
        Number of players.
    multiplicity
        Cards per rank, lowest rank first (``suits`` of each in a standard deck).
    rounds
        The betting rounds in order (see :class:`Round`).
    ante
        Chips each player puts in before the deal (a number, or an affine form in
        the coordinates of ``numeric``; so may each round's ``bet`` be).
    strength
        ``strength(cards, player) -> int array`` over deals: showdown hand
        strength of ``player`` (higher wins; equal strengths split the pot).
        Give this or ``evaluator``.
    can_open
        ``can_open(player, round)``: may this player bet when nobody has?
        (One-third street: only P3 may.)  Default: everybody.
    restrictions
        ``(player, private ranks (1-based), history, {action: prob})``.
    numeric
        The numeric parameters the forms are in (default: none).
    hole_cards
        Hole cards per player (default ``rounds[0].hole``, else 1).
    evaluator
        A :class:`~toypoker.games.hands.Evaluator` over hole and board cards; when
        it needs suits the deal table holds card codes ``rank * suits + suit``
        (``suits = multiplicity[0]``), else ranks with suits merged exactly.
    suit_isomorphism
        With a suited evaluator: one deal per orbit of deals under permutations of
        the suits (:func:`suit_orbit_table`), boards as canonical chance outcomes and
        observations canonical per round (``GameDefinition.suits``); False keeps every
        card identity (the unmerged game, for cross-checks).
    """
    numeric = numeric or NumericParams()
    suits = 0
    if evaluator is not None:
        n_cards = (hole_cards or rounds[0].hole or 1) + sum(r.board for r in rounds)
        if evaluator.suited(n_cards):
            suits = int(multiplicity[0])
    deck = _deck(n_players, multiplicity, rounds, hole_cards, suits)
    merged = bool(suits) and suit_isomorphism and suits > 1
    if merged:
        n_groups = len(deck.groups)
        cards, wnum, wden = suit_orbit_table(
            len(deck.cards), suits, deck.groups, list(range(n_players, n_groups))
        )
    else:
        cards, wnum, wden = group_deal_table(deck.cards, deck.groups)
    hole_slots = deck.hole_slots()
    if evaluator is not None:
        board = cards[:, deck.n_players * deck.hole :]
        strengths = np.stack(
            [evaluator.strength(cards[:, list(c)], board, suits) for c in hole_slots]
        )
    elif strength is not None:
        strengths = np.stack([strength(cards, p) for p in range(n_players)])
    else:
        raise ValueError("give strength or evaluator")
    nodes: list[RawNode] = []

    def add(node: RawNode) -> int:
        nodes.append(node)
        return len(nodes) - 1

    after: dict[tuple[int, ...], dict[tuple[int, ...], list[tuple[int, ...]]]] = {}

    def board_values(cols: tuple[int, ...], shown: tuple[int, ...]) -> list[tuple[int, ...]]:
        # the boards some deal shows after the boards shown so far (no public node without
        # a deal: with card identities a later board cannot repeat an earlier card); in a
        # suit-isomorphic table these are the canonical boards that follow
        if cols not in after:
            before = [c for b in deck.board_slots() for c in b if c < cols[0]]
            table: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
            for row in cards[:, before + list(cols)].tolist():
                table.setdefault(tuple(row[: len(before)]), set()).add(tuple(row[len(before) :]))
            after[cols] = {k: sorted(v) for k, v in table.items()}
        return after[cols].get(shown, [])

    root = _betting_tree(
        n_players, rounds, ante, can_open, numeric, deck.board_slots(), board_values, add, deck.show
    )
    return GameDefinition(
        name=name,
        params=dict(params),
        n_players=n_players,
        n_ranks=len(deck.cards),
        cards=cards,
        weight_num=wnum,
        weight_den=wden,
        hole_slots=hole_slots,
        strength=strengths,
        nodes=nodes,
        root=root,
        restrictions=list(restrictions),
        numeric=numeric,
        suits=suits if merged else 0,
        board_slots=deck.board_slots() if merged else None,
    )


def estimate_size(
    *,
    n_players: int,
    multiplicity: Sequence[int],
    rounds: Sequence[Round],
    can_open: Callable[[int, int], bool] | None = None,
    max_entries: int | None = None,
    hole_cards: int | None = None,
    suits: int = 0,
    suit_isomorphism: bool = True,
) -> tuple[int, int, int]:
    """``(deals, public nodes, players)`` of :func:`build_limit_game` with these
    arguments, counted without building the deal table or the tree.

    Raises :class:`TooLargeError` as soon as ``deals x nodes x players`` passes
    ``max_entries``: the deals are counted first (dynamic programming), so a deck
    far too large never walks its tree.  Each board is counted as every group of
    cards the deck holds (an upper bound).  ``suits``: cards are identities
    (a suited evaluator), else ranks; with ``suit_isomorphism`` the deals are the
    suit orbits (:func:`count_suit_orbits`) and the boards the canonical ones.
    """
    deck = _deck(n_players, multiplicity, rounds, hole_cards, suits)
    merged = bool(suits) and suit_isomorphism and suits > 1
    if merged:
        deals = count_suit_orbits(len(multiplicity), suits, deck.groups)
    else:
        deals = count_group_deals(deck.cards, deck.groups)
    per_node = deals * n_players
    budget = None if max_entries is None else max_entries / max(per_node, 1)
    count = [0]
    # the rows are about deals x (public nodes a deal reaches): a node below chance nodes
    # counts with the share 1 / (boards dealt there) of each, which is exact when the
    # subtrees after each board have one shape (limit betting): the shares of a level
    # sum to one, and every deal reaches one board of each chance node
    share: dict[tuple[int, ...], float] = {(): 1.0}
    reached = [0.0]

    def add(node: RawNode) -> int:
        count[0] += 1
        reached[0] += share[node.board]
        if budget is not None and reached[0] > budget:
            raise TooLargeError(deals, math.ceil(reached[0]), n_players)
        return count[0] - 1

    sizes = [len(b) for b in deck.board_slots() if b]
    seen: dict[tuple[int, ...], list[tuple[int, ...]]] = {}

    def boards_after(cols: tuple[int, ...], shown: tuple[int, ...]) -> list[tuple[int, ...]]:
        if not merged:
            return [tuple(v) for v in group_options(deck.cards, len(cols))[0].tolist()]
        if shown not in seen:
            k = next(i for i in range(len(sizes) + 1) if sum(sizes[:i]) == len(shown))
            seen[shown] = canonical_boards(len(deck.cards), suits, sizes[:k], shown, len(cols))
        return seen[shown]

    def board_values(cols: tuple[int, ...], shown: tuple[int, ...]) -> list[tuple[int, ...]]:
        values = boards_after(cols, shown)
        for v in values:
            share[shown + tuple(v)] = share[shown] / len(values)
        return values

    # same tree shape for any bets > 0
    unit = [dataclasses.replace(r, bet=Fraction(1), ante=Fraction(0)) for r in rounds]
    _betting_tree(
        n_players,
        unit,
        Fraction(1),
        can_open,
        NumericParams(),
        deck.board_slots(),
        board_values,
        add,
        deck.show,
        record=False,
    )
    return deals, count[0], n_players


def _form(v: Fraction | Linear, k: int) -> Linear:
    return v if isinstance(v, Linear) else Linear.constant(v, k)


def _betting_tree(
    n_players: int,
    rounds: Sequence[Round],
    ante: Fraction | Linear,
    can_open: Callable[[int, int], bool] | None,
    numeric: NumericParams,
    board_slots: list[tuple[int, ...]],
    board_values: Callable[[tuple[int, ...], tuple[int, ...]], list[tuple[int, ...]]],
    add: Callable[[RawNode], int],
    show: Callable[[Sequence[int]], str],
    record: bool = True,
) -> int:
    """Walk the public betting tree depth first, handing each node to ``add``
    (children are appended to ``node.children`` when ``record``); the root's id."""
    k = len(numeric.coordinates)
    x = numeric.values
    bets = [_form(r.bet, k) for r in rounds]
    open_ = can_open or (lambda p, r: True)
    nodes: dict[int, RawNode] = {}
    for r in rounds:
        if r.orbits is not None and r.check:
            raise ValueError("orbit betting is bet-or-fold: give check=False with orbits")
        if r.orbits is not None and r.blinds:
            raise ValueError("blinds are for raise-cap betting, not orbits")
    if any(r.blinds for r in rounds[1:]):
        raise ValueError("blinds are posted in the first round only")

    def new(node: RawNode) -> int:
        i = add(node)
        if record:
            nodes[i] = node
        return i

    def link(parent: int, child: int, values: tuple[int, ...] | None = None) -> None:
        if record:
            nodes[parent].children.append(child)
            if values is not None:
                nodes[parent].child_values.append(values)

    def order_from(start: int, live: Sequence[bool]) -> list[int]:
        return [q % n_players for q in range(start, start + n_players) if live[q % n_players]]

    def leaf(kind, chips, live, history, rnd, board_hist) -> RawNode:
        committed = tuple(f.at(x) for f in chips)
        return RawNode(kind, -1, (), [], committed, live, history, rnd, board_hist, chips=chips)

    def stake_of(chips: tuple[Linear, ...]) -> Linear:
        # the largest commitment; equal values must be equal forms (else not affine)
        values = [f.at(x) for f in chips]
        top = max(values)
        forms = {chips[i] for i, v in enumerate(values) if v == top}
        if len(forms) > 1:
            raise ValueError("tied commitments with different forms: payoffs not affine")
        return forms.pop()

    def start_round(rnd, chips, live) -> tuple[tuple[Linear, ...], tuple[int, ...]]:
        r = rounds[rnd]
        if r.ante != 0:
            a = _form(r.ante, k)
            chips = tuple(c + a if lv else c for c, lv in zip(chips, live, strict=True))
        first = tuple(order_from(r.first, live))
        return chips, (first if r.orbits is None or r.orbits > 0 else ())

    def betting(rnd, chips, live, pending, nbets, history, board_hist) -> int:
        if sum(live) == 1:
            return new(leaf("terminal", chips, live, history, rnd, board_hist))
        r = rounds[rnd]
        if not pending and r.orbits is not None and nbets + 1 < r.orbits:
            # the next orbit: nbets counts the orbits completed
            pending, nbets = tuple(order_from(r.first, live)), nbets + 1
        if not pending:
            if rnd + 1 == len(rounds):
                return new(leaf("terminal", chips, live, history, rnd, board_hist))
            nxt = rnd + 1
            cols = board_slots[nxt]
            chips, first = start_round(nxt, chips, live)
            if not cols:
                return betting(nxt, chips, live, first, 0, history + "/", board_hist)
            chance = leaf("chance", chips, live, history, rnd, board_hist)
            chance.reveal = cols
            cid = new(chance)
            for v in board_values(cols, board_hist):
                child = betting(
                    nxt, chips, live, first, 0, f"{history}/[{show(v)}]", board_hist + tuple(v)
                )
                link(cid, child, tuple(v))
            return cid
        p, rest = pending[0], pending[1:]
        stake = stake_of(chips)
        facing = chips[p].at(x) < stake.at(x)
        options: list[tuple[str, int]] = []
        if r.orbits is not None:  # bet (or call) exactly one bet, or fold
            options = [("c", 3), ("f", 2)] if facing else [("b", 4), ("f", 2)]
        elif not facing:
            if r.check:
                options.append(("k", 0))
            if nbets < r.max_bets and open_(p, rnd):
                options.append(("b", 1))
            if not r.check:
                options.append(("f", 2))
        else:
            options += [("f", 2), ("c", 3)]
            if nbets < r.max_bets:
                options.append(("r", 1))
        children_args = []
        for letter, kind in options:
            c, lv = list(chips), list(live)
            if kind == 0:  # check
                args = (rnd, tuple(c), tuple(lv), rest, nbets)
            elif kind == 3:  # call
                c[p] = stake
                args = (rnd, tuple(c), tuple(lv), rest, nbets)
            elif kind == 2:  # fold
                lv[p] = False
                args = (rnd, tuple(c), tuple(lv), rest, nbets)
            elif kind == 4:  # orbit bet: the others of this orbit call or fold
                c[p] = stake + bets[rnd]
                args = (rnd, tuple(c), tuple(lv), rest, nbets)
            else:  # bet or raise: everybody else acts again
                c[p] = stake + bets[rnd]
                others = tuple(q for q in order_from(p + 1, lv) if q != p)
                args = (rnd, tuple(c), tuple(lv), others, nbets + 1)
            children_args.append((letter, args))
        if len(options) == 1:  # a forced action is not a decision
            letter, args = children_args[0]
            return betting(*args, history + letter, board_hist)
        node = leaf("decision", chips, live, history, rnd, board_hist)
        node.actor, node.actions = p, tuple(o[0] for o in options)
        nid = new(node)
        for letter, args in children_args:
            link(nid, betting(*args, history + letter, board_hist))
        return nid

    chips0 = tuple(_form(ante, k) for _ in range(n_players))
    live0 = tuple(True for _ in range(n_players))
    r0 = rounds[0]
    if r0.blinds:
        if len(r0.blinds) != n_players:
            raise ValueError("give one blind per seat")
        chips0 = tuple(c + _form(b, k) if b else c for c, b in zip(chips0, r0.blinds, strict=True))
    chips0, first0 = start_round(0, chips0, live0)
    return betting(0, chips0, live0, first0, 0, "", ())


def high_card(cards: np.ndarray, player: int) -> np.ndarray:
    """Kuhn showdown: the higher card wins."""
    return cards[:, player]


def leduc_strength(board_col: int) -> Callable[[np.ndarray, int], np.ndarray]:
    """Leduc showdown: a pair with the board beats any high card, then rank."""

    def strength(cards: np.ndarray, player: int) -> np.ndarray:
        hole = cards[:, player]
        pair = hole == cards[:, board_col]
        return hole + 1000 * pair

    return strength
