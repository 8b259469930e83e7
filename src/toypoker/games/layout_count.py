"""The size of a suited limit game on the row layout, counted without building it.

``toypoker info`` prints these counts before it compiles anything, so a game far
beyond the row layout (Rhode Island Hold'em on a standard deck) is described, then
refused in one line.  Everything is counted exactly, for the games of the ``holdem``
builder (``rhode_island`` and ``holdem(...)``).  Evaluators blind to suits deal rank
multisets (:func:`_count_ranks`: a node with board ``B`` is reached by every deal of
the other groups from the cards ``B`` leaves); those that see suits
(``rhode_island``; ``holdem(...,evaluator=three_card)``; ``standard`` with five or
more cards) are counted on suit-canonical boards:

* the betting tree has the same shape under every board (limit betting), so it is
  walked once with a single stand-in board per chance node, counting its nodes (and
  each actor's decision nodes) at each board depth;
* the boards at each depth are the canonical ones the builder deals
  (:func:`~toypoker.games.limit.canonical_boards`), or, unmerged, every sequence of
  distinct cards (counted, not listed);
* the deals reaching a public node with board ``B`` and the observations an actor can
  have there are orbits, under the suit permutations fixing each of ``B``'s boards
  setwise (only the identity when unmerged), of the ways to deal the other groups from
  the cards left (Burnside's lemma, as :func:`~toypoker.games.limit.count_suit_orbits`
  counts the whole table; :func:`orbit_count`).  A row of the layout is one (deal, public
  node) pair, an information set one (public decision node, observation) pair, as
  :class:`~toypoker.game.Game` compiles them.

The memory the row layout would need is the rows times :data:`BYTES_PER_ROW`,
measured (``benchmarks/bench_row_memory.py``); ``load_game`` keeps its own budget
figure ``deals x public nodes x players x 8`` bytes.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.definition import NumericParams, RawNode
from toypoker.games.base import Params
from toypoker.games.deals import Deck, canonical_boards, count_group_deals, group_options
from toypoker.games.hands import EVALUATORS
from toypoker.games.holdem import limit_shape
from toypoker.games.limit import Round, TooLargeError, betting_tree, limit_deck

BYTES_PER_ROW = 200
"""Peak bytes per row of a compiled game while CFR+ runs on it (compile plus solver
arrays): a round figure from ``benchmarks/bench_row_memory.py`` (its measurements are in
``benchmarks/results/``; fixed costs weigh more on small games)."""


BYTES_PER_ENTRY = 91
"""Peak bytes per hand-vector entry (public node x player x hand) of the vector layout
while CFR runs on it, build and NashConv checks included
(:func:`toypoker.engines.vectors.direct.build_vector`, :mod:`toypoker.engines.vectors.methods`):
the peak of a PDCFR+ run on the full Rhode Island game over its entries (the
measurement is in ``benchmarks/results/memory.md``)."""


MAX_BOARDS = 20_000
"""Most canonical board sequences of one depth :func:`count_layout` visits (past it the
game is not counted here; ``load_game``'s own size check still applies)."""


@dataclass(frozen=True)
class LayoutCount:
    """Counted sizes of a game on the row layout (see the module docstring)."""

    spec: str
    players: int
    deals: int
    deals_without_suit_isomorphism: int
    public_nodes: int
    decision_nodes: int
    infosets: int
    rows: int
    hands: int = 0  # each player's hands in the vector layout (physical: C(cards, hole))

    @property
    def row_bytes(self) -> int:
        """Peak memory of the compiled rows under CFR+ (rows x :data:`BYTES_PER_ROW`)."""
        return self.rows * BYTES_PER_ROW

    @property
    def entries(self) -> int:
        """Hand-vector entries of the vector layout: public nodes x players x hands."""
        return self.public_nodes * self.players * self.hands

    @property
    def entry_bytes(self) -> int:
        """The hand entries' part of the vector layout's memory (entries x
        :data:`BYTES_PER_ENTRY`); :func:`toypoker.engines.vectors.size.vector_bytes` adds
        the rest: the one estimate printed and checked."""
        return self.entries * BYTES_PER_ENTRY

    def summary(self) -> dict[str, object]:
        """The counts as ``toypoker info`` prints them (it adds the vector layout's
        memory, :func:`toypoker.engines.vectors.size.vector_bytes`)."""
        return {
            "spec": self.spec,
            "players": self.players,
            "deals": self.deals,
            "deals_without_suit_isomorphism": self.deals_without_suit_isomorphism,
            "public_nodes": self.public_nodes,
            "decision_nodes": self.decision_nodes,
            "infosets": self.infosets,
            "rows": self.rows,
            "row_layout_bytes": self.row_bytes,
            "vector_hands": self.hands,
            "vector_entries": self.entries,
        }


def _cycles(perm: Sequence[int]) -> list[list[int]]:
    out, seen = [], set()
    for s in range(len(perm)):
        if s not in seen:
            cyc, t = [], s
            while t not in seen:
                seen.add(t)
                cyc.append(t)
                t = perm[t]
            out.append(cyc)
    return out


@functools.lru_cache(maxsize=4096)
def _assignments(lengths: tuple[int, ...], groups: tuple[int, ...]) -> int:
    """Ways to fill the (distinguishable) groups exactly with whole cycles of these
    lengths (sorted), each cycle in at most one group: the deals a permutation fixes."""
    ways = {groups: 1}
    for length in lengths:
        nxt: dict[tuple[int, ...], int] = {}
        for need, w in ways.items():
            nxt[need] = nxt.get(need, 0) + w
            for i, k in enumerate(need):
                if k >= length:
                    key = need[:i] + (k - length,) + need[i + 1 :]
                    nxt[key] = nxt.get(key, 0) + w
        ways = nxt
    return ways.get(tuple(0 for _ in groups), 0)


def orbit_count(
    ranks: int,
    suits: int,
    prefix: Sequence[Sequence[int]],
    groups: Sequence[int],
    merged: bool,
) -> int:
    """Orbits of the deals of ``groups`` (unordered groups of these sizes, in order)
    from the cards not in ``prefix``, under the suit permutations that map each group
    of ``prefix`` (card codes ``rank * suits + suit``) onto itself; only the identity
    when not ``merged``.  Burnside: the mean over that stabiliser of the deals each
    permutation fixes (every group a union of its cycles on the cards left; a cycle
    meeting the prefix lies in it, the prefix being invariant)."""
    used = {c for g in prefix for c in g}
    perms = itertools.permutations(range(suits)) if merged else [tuple(range(suits))]
    total = stab = 0
    for perm in perms:
        if any({c - c % suits + perm[c % suits] for c in g} != set(g) for g in prefix):
            continue
        stab += 1
        lengths = sorted(
            len(cyc)
            for cyc in _cycles(perm)
            for r in range(ranks)
            if r * suits + cyc[0] not in used
        )
        total += _assignments(tuple(lengths), tuple(groups))
    return total // stab


def count_holdem(p: Params, spec: str, max_entries: int | None = None) -> LayoutCount | None:
    """The counted size of the game of validated ``holdem`` parameters ``p`` (named
    ``spec``) on the row layout, or None when it is not counted here (more than
    :data:`MAX_BOARDS` boards at a depth);
    :func:`toypoker.games.count_layout` takes a spec.

    With ``max_entries``, raises :class:`~toypoker.games.limit.TooLargeError` as soon as
    the first round's public nodes alone (each reached by every deal) put ``rows x
    players`` past it, before walking the rest of the tree.
    """
    shape = limit_shape(p)
    dealt = int(p["hole"]) + sum(r.board for r in shape["rounds"])  # type: ignore[attr-defined,call-overload,union-attr]
    suited = EVALUATORS[str(p["evaluator"])].suited(dealt)
    merged = suited and p.get("suit_isomorphism") is not False and int(p["suits"]) > 1  # type: ignore[call-overload]
    return count_shape(shape, spec, int(p["suits"]) if suited else 0, merged, max_entries)  # type: ignore[call-overload]


def count_shape(
    shape: dict[str, object],
    spec: str,
    suits: int = 0,
    merged: bool = False,
    max_entries: int | None = None,
) -> LayoutCount | None:
    """:func:`count_holdem` for any limit game's deck and betting keywords (``shape``,
    as a builder's ``limit_shape`` gives them: Kuhn, Mercer and the hold'em family);
    ``suits`` > 0 deals card identities of that many suits (a suited evaluator),
    ``merged`` on suit-canonical boards; 0 deals ranks."""
    n = int(shape["n_players"])  # type: ignore[call-overload]
    rounds = shape["rounds"]
    multiplicity = list(shape["multiplicity"])  # type: ignore[call-overload]
    suited = suits > 0
    ranks = len(multiplicity)  # a rank deck: copies of each rank as its suits
    suits = suits if suited else int(max(multiplicity))
    deck = limit_deck(n, multiplicity, rounds, shape.get("hole_cards"), suits if suited else 0)  # type: ignore[arg-type]
    sizes = [b for b in deck.boards if b]
    hole = deck.hole
    n_cards = ranks * suits

    holes = [hole] * n
    groups = [*holes, *sizes]
    full = math.perm(n_cards, sum(groups)) // math.prod(math.factorial(g) for g in groups)
    if not suited:
        deals = count_group_deals(list(shape["multiplicity"]), groups)  # type: ignore[call-overload]
    else:
        deals = orbit_count(ranks, suits, [], groups, True) if merged else full

    nodes_at, decisions_at = _nodes_by_depth(n, rounds, deck, sizes, deals, max_entries)  # type: ignore[arg-type]
    if not suited:
        return _count_ranks(spec, n, multiplicity, hole, sizes, nodes_at, decisions_at, full)
    if merged:
        counts = _count_merged(ranks, suits, hole, n_cards, sizes, holes, nodes_at, decisions_at)
        if counts is None:
            return None
    else:
        counts = _count_unmerged(hole, n_cards, sizes, holes, nodes_at, decisions_at)
    public, decision, infosets, rows = counts
    return LayoutCount(
        spec=spec,
        players=n,
        deals=deals,
        deals_without_suit_isomorphism=full,
        public_nodes=public,
        decision_nodes=decision,
        infosets=infosets,
        rows=rows,
        hands=math.comb(n_cards, hole),
    )


def _nodes_by_depth(
    n: int,
    rounds: Sequence[Round],
    deck: Deck,
    sizes: list[int],
    deals: int,
    max_entries: int | None,
) -> tuple[dict[int, int], dict[int, int]]:
    """The betting tree's public nodes and decision nodes at each board depth, walked
    once with one stand-in board per chance node (:class:`TooLargeError` past
    ``max_entries`` at the first depth)."""
    nodes_at: dict[int, int] = {}
    decisions_at: dict[int, int] = {}

    def add(node: RawNode) -> int:
        depth = sum(1 for k in range(len(sizes) + 1) if sum(sizes[:k]) <= len(node.board)) - 1
        nodes_at[depth] = nodes_at.get(depth, 0) + 1
        if max_entries is not None and depth == 0 and nodes_at[0] * deals * n > max_entries:
            raise TooLargeError(deals, nodes_at[0], n)
        if node.kind == "decision":
            decisions_at[depth] = decisions_at.get(depth, 0) + 1
        return 0

    def stand_in(cols: tuple[int, ...], shown: tuple[int, ...]) -> list[tuple[int, ...]]:
        return [tuple(range(len(shown), len(shown) + len(cols)))]

    unit = [dataclasses.replace(r, bet=Fraction(1), ante=Fraction(0)) for r in rounds]
    betting_tree(
        n,
        unit,
        Fraction(1),
        None,
        NumericParams(),
        deck.board_slots(),
        stand_in,
        add,
        deck.show,
        record=False,
    )
    return nodes_at, decisions_at


def _split_board(board: tuple[int, ...], sizes: list[int]) -> list[tuple[int, ...]]:
    """``board`` cut into the boards of its rounds (``sizes`` cards each)."""
    out, col = [], 0
    for s in sizes:
        if col < len(board):
            out.append(board[col : col + s])
        col += s
    return out


def _count_merged(
    ranks: int,
    suits: int,
    hole: int,
    n_cards: int,
    sizes: list[int],
    holes: list[int],
    nodes_at: dict[int, int],
    decisions_at: dict[int, int],
) -> tuple[int, int, int, int] | None:
    """Public nodes, decision nodes, infosets and rows on suit-canonical boards (orbits
    of the deals); None past :data:`MAX_BOARDS` boards at a depth."""
    public = decision = infosets = rows = 0
    level = [()]
    for depth in range(len(sizes) + 1):
        if depth:
            level = [
                b + v
                for b in level
                for v in canonical_boards(n_cards, suits, sizes[: depth - 1], b, sizes[depth - 1])
            ]
            if len(level) > MAX_BOARDS:
                return None
        for b in level:
            pre = _split_board(b, sizes)
            rest = holes + sizes[depth:]
            rows += nodes_at.get(depth, 0) * orbit_count(ranks, suits, pre, rest, True)
            infosets += decisions_at.get(depth, 0) * orbit_count(ranks, suits, pre, [hole], True)
        public += nodes_at.get(depth, 0) * len(level)
        decision += decisions_at.get(depth, 0) * len(level)
    return public, decision, infosets, rows


def _count_unmerged(
    hole: int,
    n_cards: int,
    sizes: list[int],
    holes: list[int],
    nodes_at: dict[int, int],
    decisions_at: dict[int, int],
) -> tuple[int, int, int, int]:
    """Public nodes, decision nodes, infosets and rows when every sequence of distinct
    cards is its own board (counted, not listed)."""
    public = decision = infosets = rows = 0
    for depth in range(len(sizes) + 1):
        shown = sum(sizes[:depth])
        boards = math.perm(n_cards, shown) // math.prod(math.factorial(s) for s in sizes[:depth])
        left = n_cards - shown
        rest = [*holes, *sizes[depth:]]
        per_board = math.perm(left, sum(rest)) // math.prod(math.factorial(g) for g in rest)
        rows += nodes_at.get(depth, 0) * boards * per_board
        infosets += decisions_at.get(depth, 0) * boards * math.comb(left, hole)
        public += nodes_at.get(depth, 0) * boards
        decision += decisions_at.get(depth, 0) * boards
    return public, decision, infosets, rows


def vector_hands(n_players: int, ranks: int, suits: int, hole: int, suited: bool) -> int:
    """Each player's hands in the vector layout as ``toypoker.load_game`` builds it: one
    per rank for a rank deck with one hole card and at most three players, one per rank
    multiset with two or more hole cards and three players
    (:func:`~toypoker.engines.vectors.layout.rank_hands`), else the physical ``C(cards, hole)``."""
    if not suited and suits > 1 and (hole == 1 and n_players <= 3):
        return ranks
    if not suited and suits > 1 and hole >= 2 and n_players == 3:
        return math.comb(ranks + hole - 1, hole)  # rank multisets (suits >= hole)
    return math.comb(ranks * suits, hole)


def _count_ranks(
    spec: str,
    n: int,
    multiplicity: list[int],
    hole: int,
    sizes: list[int],
    nodes_at: dict[int, int],
    decisions_at: dict[int, int],
    full: int,
) -> LayoutCount | None:
    """:func:`count_holdem` for a deck of ranks (an evaluator blind to suits): boards
    are the rank multisets the deck holds, round by round; a public node with board
    ``B`` is reached by every deal of the other groups from the cards ``B`` leaves
    (:func:`~toypoker.games.deals.count_group_deals`), and an actor there observes any
    ``hole`` ranks those cards hold.  None past :data:`MAX_BOARDS` boards at a depth."""
    mult = np.asarray(multiplicity, dtype=np.int64)
    holes = [hole] * n
    public = decision = infosets = rows = 0
    level = [np.zeros(len(mult), dtype=np.int64)]  # cards used by each board sequence
    for depth in range(len(sizes) + 1):
        if depth:
            _, counts = group_options(multiplicity, sizes[depth - 1])
            level = [u + c for u in level for c in counts if (u + c <= mult).all()]
            if len(level) > MAX_BOARDS:
                return None
        for used in level:
            left = [int(x) for x in mult - used]
            rows += nodes_at.get(depth, 0) * count_group_deals(left, [*holes, *sizes[depth:]])
            infosets += decisions_at.get(depth, 0) * count_group_deals(left, [hole])
        public += nodes_at.get(depth, 0) * len(level)
        decision += decisions_at.get(depth, 0) * len(level)
    return LayoutCount(
        spec=spec,
        players=n,
        deals=count_group_deals(multiplicity, [*holes, *sizes]),
        deals_without_suit_isomorphism=full,
        public_nodes=public,
        decision_nodes=decision,
        infosets=infosets,
        rows=rows,
        hands=vector_hands(n, len(mult), int(mult.max()), hole, False),
    )
