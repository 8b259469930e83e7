"""The vector layout: per public node, one vector over each player's private hands.

:func:`compile_vector` reads a compiled :class:`~toypoker.game.Game` (the deal-table
layout) and returns a :class:`VectorGame` over the same public tree:

* **Physical cards.**  The deck is ``n_cards`` distinct cards.  A rank-multiset deck
  (suits merged because the evaluator ignores them: Kuhn, Leduc, Mercer, most
  ``holdem(...)`` specs) is expanded into ``multiplicity[r]`` physical copies of each
  rank ``r``; a suited deck already has card codes ``rank * suits + suit``.  Every
  deal of distinct cards is then equally likely, so the probability of a joint deal
  of hands and boards is one number per public node (``node_weight``) times whether
  the groups are disjoint: card removal is an indicator, never a stored joint
  probability.
* **Hands.**  ``hands[h]`` is a sorted tuple of ``hole`` physical cards; every player
  has the same ``H`` hands.  A hand that shares a card with a node's board has
  zero reach there (``board_compat``).
* **Boards.**  The public tree deals the deal table's boards (ranks, or canonical
  suit-orbit representatives).  Each is stood for by one physical board (its
  representative) and the edge from the chance node carries the number of physical
  boards it stands for (``node_mult``); this is exact because the values of a
  profile whose strategy is a function of the infoset labels are invariant under the
  card permutations that map those boards onto each other (copies of a rank; suit
  permutations fixing the earlier boards).  ``node_weight[t]`` is the probability
  of one joint deal of hole cards times, per board on the path to ``t``, its
  multiplicity over the number of boards the undealt cards allow.
* **Infosets.**  At a decision node, the actor's hand ``h`` maps to the compiled
  game's infoset with the same node and private observation (sorted ranks; in a
  suit-isomorphic game the hole cards canonicalised jointly with the boards), so
  the flat strategy vector of a :class:`~toypoker.profile.Profile` is read and
  written unchanged: ``edge_sigma[c, h]`` is the flat action index on the edge into
  node ``c`` for hand ``h`` of the parent's actor (``-1`` elsewhere).
* **Showdowns.**  ``strength[b, h]`` is the strength of hand ``h`` on board ``b``,
  read from the deal table (it must depend on the holder's cards and the board
  only; a game where it does not is refused).

* **Collusion.**  Weak collusion's payoff map
  (:func:`toypoker.games.team_transform.collude`:
  ``u_i = sum_j A[i, j] share_j pot - sum_j B[i, j] committed_j``) is kept as
  ``payoff`` and applied at the terminals by :mod:`toypoker.engines.vectors.values` (the
  dense product: player ``i``'s value reads the others' shares indexed by her hand).
  Strong collusion (merged observations: ``hole_groups``) is refused in one line; a
  strong team merged into one player is :func:`toypoker.engines.vectors.merged.compile_merged`.

Nodes keep the compiled game's ids (breadth-first: the children of a node are
consecutive and a depth is a slice), so arrays are ``(nodes, H)``.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from toypoker.definition import suit_canonical
from toypoker.engines.vectors.assembly import (  # noqa: F401 (mark_edges, _private re-exported)
    StrengthOf,
    _private,
    _refuse,
    layout_arrays,
    mark_edges,
)
from toypoker.game import Game
from toypoker.games.team_transform import team_average


@dataclass(frozen=True, eq=False)
class VectorGame:
    """A game in the vector layout (see the module docstring).

    Attributes
    ----------
    game : the game on these hand vectors (its public tree, labels, profiles); the
        row-layout game it was compiled from until a game is built on it
    n_cards : physical cards; ``card_value[c]`` the card in deal-table coordinates
    hands : (H, hole) physical cards of each hand, sorted
    hand_cards : (H, n_cards) bool incidence
    node_board : (nodes,) index of the node's physical board in ``boards``
    boards : the physical boards (flat tuples), ``board_compat`` (B, H) bool
    node_mult, node_weight : (nodes,) chance multiplicity of the edge in; the
        probability of one joint deal of hands with the path's boards (float),
        ``node_weight_exact`` as Fractions
    edge_sigma : (nodes, H) int32 flat action index into the node (-1: none)
    edge_player : (nodes,) the player whose action leads to the node (-1: none)
    hand_infoset : (nodes, H) int32 infoset of the node's actor holding ``h`` (-1)
    strength : (B, H) int64 showdown strength (boards reached by showdowns)
    hand_count : (B, H) float, how many physical hands each hand stands for on a
        board: ``board_compat`` as 0/1, or with rank hands (:func:`rank_hands`) the
        copies of the rank the board leaves
    rank_deals : three players on rank hands with two hole cards, or with one under
        collusion (:func:`rank_hands`): ``(B, H, H, H)`` the physical deals of three
        pairwise disjoint hands with these ranks avoiding the board (card removal
        between the players); else ``None``
    merged : a strong team merged into one player (:mod:`toypoker.engines.vectors.merged`):
        its index space (team hand pairs, then the outsider's hands); else ``None``
    payoff : collusion's payoff map ``(A, B)``
        (:func:`toypoker.games.team_transform.collude`): player ``i`` receives ``sum_j A[i,
        j] share_j pot - sum_j B[i, j] committed_j``, exact rows of Fractions; ``None``
        without collusion
    depth_start : (depths + 1,) node id boundaries of the depths
    """

    game: Game
    n_players: int
    n_cards: int
    card_value: np.ndarray
    hands: np.ndarray
    hand_cards: np.ndarray
    boards: tuple[tuple[int, ...], ...]
    board_compat: np.ndarray
    node_board: np.ndarray
    node_mult: np.ndarray
    node_weight: np.ndarray
    node_weight_exact: tuple[Fraction, ...]
    edge_sigma: np.ndarray
    edge_player: np.ndarray
    hand_infoset: np.ndarray
    strength: np.ndarray
    depth_start: np.ndarray
    parent: np.ndarray
    hand_count: np.ndarray  # (B, H) float: copies of each hand a board leaves
    rank_deals: np.ndarray | None = None  # (B, H, H, H) int: rank pairs' deal counts
    payoff: tuple[tuple[tuple[Fraction, ...], ...], ...] | None = None  # (A, B) collusion map
    merged: object | None = None  # a strong team merged: vector.merged.Merged
    cache: dict[str, object] = field(default_factory=dict, repr=False)  # derived structures

    @property
    def n_hands(self) -> int:
        """``H``, the hands of each player."""
        return len(self.hands)

    @property
    def n_nodes(self) -> int:
        """Public nodes (as in the compiled game)."""
        return len(self.node_board)

    @property
    def entries(self) -> int:
        """Hand-vector entries: public nodes x players x hands (the counterpart of rows)."""
        return self.n_nodes * self.n_players * self.n_hands


class OnVectors:
    """A game on hand vectors, as it holds its engine's data (``name`` ``"vectors"``,
    :class:`toypoker.engines.vectors.engine.VectorsEngine`): its :class:`VectorGame`, and
    the deal table it was compiled from (``table``; None for a game built without one,
    whose deal table is built from its spec on first use where it fits, or refused in
    one line: :func:`toypoker.engines.rows_of`)."""

    name = "vectors"
    layout = "vector"  #: what ``layout=`` of :func:`toypoker.load_game` calls it

    def __init__(self, vectors: VectorGame, table: object | None = None):
        self.vectors = vectors
        self.table = table
        self.rows: Game | None = None  # the game on the deal table, once asked for

    def bind(self, game: Game) -> OnVectors:
        return OnVectors(dataclasses.replace(self.vectors, game=game), self.table)

    def deal_table(self, game: Game, name: str) -> object:
        if self.table is None:
            from toypoker.engines import rows_of  # the package builds games: above this module

            self.table = rows_of(game, f"{name} of {game.spec} (on hand vectors)").engine_data.table
        return self.table

    def at(self, game: Game, values: Mapping[str, object]) -> Game:
        """Built again from the spec at the new values, on hand vectors."""
        return game._at_by_spec(values)


def _group_sizes(game: Game) -> tuple[int, list[int]]:
    """Hole cards per player and the board group sizes along any path."""
    d = game.definition
    hole = len(d.hole_slots[0])
    if any(len(s) != hole for s in d.hole_slots):
        raise _refuse(game, "players hold different numbers of cards")
    boards: list[int] = []
    node = game.nodes[0]
    while node.children:
        child = game.nodes[node.children[0]]
        if node.kind == "chance":
            boards.append(len(child.board) - len(node.board))
        node = child
    return hole, boards


def _infer_multiplicity(game: Game, groups: list[int]) -> np.ndarray:
    """Physical copies of each deal-table value, from the exact deal weights.

    The deck size ``N`` is the one whose ways of dealing the groups equal the
    table's denominator; ``multiplicity[r] = N E[count of r] / cards dealt``;
    the hypergeometric weights are then checked row by row."""
    d = game.definition
    dealt = sum(groups)
    den = int(d.weight_den)
    n_total = None
    for n in range(dealt, 4096):
        ways, left = 1, n
        for g in groups:
            ways *= math.comb(left, g)
            left -= g
        if ways == den:
            n_total = n
            break
        if ways > den:
            break
    if n_total is None:
        raise _refuse(game, "its deal weights are not those of a deck dealt in groups")
    values = np.asarray(d.cards, dtype=np.int64)
    w = np.asarray(d.weight_num, dtype=np.int64)
    mult = []
    for r in range(d.n_ranks):
        # sum_d w_d * count_r(d), exactly: every partial sum of w is below den < 2**62
        c = (values == r).sum(axis=1)
        total = sum(k * int(w[c == k].sum()) for k in range(1, int(c.max(initial=0)) + 1))
        mult.append(Fraction(total * n_total, den * dealt))
    if any(m.denominator != 1 for m in mult) or sum(mult) != n_total:
        raise _refuse(game, "its deal weights are not those of a deck dealt in groups")
    mult_i = np.array([int(m) for m in mult], dtype=np.int64)
    # check: the hypergeometric numerator of every row (vectorised over the rows)
    top = int(mult_i.max())
    binom = np.array([[math.comb(x, y) for y in range(top + 1)] for x in range(top + 1)])
    left = np.broadcast_to(mult_i, (len(values), len(mult_i))).copy()
    num = np.ones(len(values), dtype=np.int64)
    rows = np.arange(len(values))
    for a, b in itertools.pairwise(np.cumsum([0, *groups])):
        count = np.zeros_like(left)
        for j in range(a, b):
            np.add.at(count, (rows, values[:, j]), 1)
        if (count > left).any():
            raise _refuse(game, "its deal weights are not those of a deck dealt in groups")
        num = num * np.prod(binom[left, count], axis=1)
        left = left - count
    if not np.array_equal(num, w):
        raise _refuse(game, "its deal weights are not those of a deck dealt in groups")
    return mult_i


def compile_vector(game: Game) -> VectorGame:
    """The vector layout of a compiled limit game (see the module docstring).

    Raises
    ------
    ToypokerError
        One line naming why, for games the layout cannot express (strong
        collusion's merged observations, deals not from one deck).
    """
    d = game.definition
    if d.hole_groups is not None:
        merged = len(game.nodes[0].committed) > d.n_players
        raise _refuse(
            game,
            "strong collusion (members see each other's cards) runs on --layout rows"
            + (" (merged: toypoker.engines.vectors.merged.compile_merged)" if merged else ""),
        )
    payoff = None
    if d.payoff_a is not None or d.payoff_b is not None:
        n = game.n_players
        payoff = check_payoff_map(game, d.payoff_a or team_average(n, ()), d.payoff_b)
    n = game.n_players
    hole, board_sizes = _group_sizes(game)
    groups = [hole] * n + board_sizes
    if d.cards.shape[1] != sum(groups):
        raise _refuse(game, "its deal columns are not hole cards then boards")
    suits = int(d.suits)
    if suits:
        mult = np.ones(d.n_ranks, dtype=np.int64)
    else:
        mult = _infer_multiplicity(game, groups)

    def strength_of(
        boards: tuple[tuple[int, ...], ...],
        board_groups: list[tuple[tuple[int, ...], ...]],
        node_board: np.ndarray,
        hands: np.ndarray,
        card_value: np.ndarray,
    ) -> np.ndarray:
        return _strengths(
            game, boards, board_groups, node_board, hands, card_value, suits, board_sizes
        )

    vg = assemble(game, hole, board_sizes, mult, suits, strength_of)
    return vg if payoff is None else with_payoff(vg, payoff)


def check_payoff_map(
    game: Game,
    a: tuple[tuple[Fraction, ...], ...],
    b: tuple[tuple[Fraction, ...], ...] | None,
    seats: int | None = None,
) -> tuple[tuple[tuple[Fraction, ...], ...], ...]:
    """Collusion's payoff map ``(A, B)`` (``B`` the identity when not given), checked to
    be one row per player and one column per seat (``seats``, default the players) and
    to pay out every chip put in (each column of ``B`` sums to 1, so the pot is the
    seats' committed chips mapped by ``B``)."""
    n = game.n_players
    cols = n if seats is None else seats
    bmat = b if b is not None else team_average(n, ())
    if any(len(m) != n or any(len(r) != cols for r in m) for m in (a, bmat)):
        raise _refuse(game, "its payoff map is not one row and column per player")
    if any(sum(r[j] for r in bmat) != 1 for j in range(n)):
        raise _refuse(game, "its payoff map does not pay out every chip put in")
    return (tuple(a), tuple(bmat))


def with_payoff(vg: VectorGame, payoff: tuple[tuple[tuple[Fraction, ...], ...], ...]) -> VectorGame:
    """``vg`` under weak collusion's payoff map (see :class:`VectorGame`)."""
    return dataclasses.replace(vg, payoff=payoff, cache={})


def assemble(
    game: Game,
    hole: int,
    board_sizes: list[int],
    mult: np.ndarray,
    suits: int,
    strength_of: StrengthOf,
) -> VectorGame:
    """The vector layout over ``game``'s public tree and infosets (a compiled
    :class:`~toypoker.game.Game`, or the :class:`~toypoker.game.PublicTree` of one being built):
    ``hole`` cards a hand, ``mult[v]`` physical cards of each deal-table value ``v``
    (all 1 for card codes), ``suits`` > 0 for a suit-isomorphic tree, and
    ``strength_of(boards, board_groups, node_board, hands, card_value)`` the
    ``(boards, H)`` showdown strengths (the arrays:
    :func:`toypoker.engines.vectors.assembly.layout_arrays`), read-only."""
    out = VectorGame(game=game, **layout_arrays(game, hole, board_sizes, mult, suits, strength_of))
    for v in vars(out).values():
        if isinstance(v, np.ndarray):
            v.flags.writeable = False
    return out


def _strengths(
    game: Game,
    boards: tuple[tuple[int, ...], ...],
    board_groups: list[tuple[tuple[int, ...], ...]],
    node_board: np.ndarray,
    hands: np.ndarray,
    card_value: np.ndarray,
    suits: int,
    board_sizes: list[int],
) -> np.ndarray:
    """Showdown strength of every hand on every board reached by a showdown, looked up
    in the deal table by (hole cards, board) -- canonicalised under the suits in a
    suit-isomorphic game."""
    d = game.definition
    n_board_cols = d.cards.shape[1] - sum(len(s) for s in d.hole_slots)
    board_cols = list(range(d.cards.shape[1] - n_board_cols, d.cards.shape[1]))
    sizes = [s for s in board_sizes if s]

    def keys(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
        if not suits:
            return np.concatenate([np.sort(hole, axis=1), board], axis=1)
        rows = np.concatenate([board, hole], axis=1)
        cols, col = [], 0
        for g in [*sizes, hole.shape[1]]:
            cols.append(list(range(col, col + g)))
            col += g
        return suit_canonical(rows, cols, suits)

    base = int(d.n_ranks) + 1

    def code(k: np.ndarray) -> np.ndarray:  # a key row as one int64 (base ** width < 2**63)
        out = np.zeros(len(k), dtype=np.int64)
        for j in range(k.shape[1]):
            out = out * base + k[:, j]
        return out

    codes = np.concatenate(
        [code(keys(d.cards[:, list(slots)], d.cards[:, board_cols])) for slots in d.hole_slots]
    )
    values_all = np.concatenate(list(d.strength))
    uniq, inv = np.unique(codes, return_inverse=True)
    low = np.full(len(uniq), np.iinfo(np.int64).max)
    high = np.full(len(uniq), np.iinfo(np.int64).min)
    np.minimum.at(low, inv, values_all)
    np.maximum.at(high, inv, values_all)
    if not np.array_equal(low, high):
        raise _refuse(game, "showdown strength is not a function of hole cards and board")
    strength = np.zeros((len(boards), len(hands)), dtype=np.int64)
    full = [b for b in range(len(boards)) if len(boards[b]) == n_board_cols]
    values = card_value[hands]
    for b in full:
        group_of = board_groups[int(np.nonzero(node_board == b)[0][0])]
        flat = np.asarray([c for g in group_of for c in g], dtype=np.int64).reshape(1, -1)
        ok = ~np.isin(hands, list(boards[b])).any(axis=1)
        want = code(keys(values[ok], np.repeat(flat, ok.sum(), axis=0)))
        pos = np.searchsorted(uniq, want).clip(0, len(uniq) - 1)
        # a hand no deal completes (too few cards left for the others) never meets one
        strength[b, ok] = np.where(uniq[pos] == want, low[pos], 0)
    return strength


def rank_hands(vg: VectorGame) -> VectorGame:
    """The layout with one hand per rank multiset instead of per physical hand (a rank
    deck): every copy of a rank multiset has the same reach (strategies read ranks),
    so a rank hand stands for the ``hand_count[b, r]`` physical hands board ``b``
    leaves, and card removal becomes a weight.  One card a hand: the copies of the
    rank less the holder's own one.  Two or more (three players): ``rank_deals``, the
    number of physical deals of each triple of rank hands on each board,
    ``prod_rank L! / ((L - n)! prod_player k!)`` (``L`` copies left, ``n`` held in
    all, ``k`` by each player), and terminal values are a dense sum over the others'
    rank hands, ``O(R^3)`` a terminal (Mercer's deck: ``R`` = 15 rank pairs for 190
    physical hands); so too with one card a hand under a payoff map (weak collusion),
    where each player's share must be indexed by one hand.

    Values, regrets and the CFR iterates equal those of ``vg`` to rounding; ``H`` drops
    from the physical hands to the rank multisets (52 to 13 for one card of a full
    deck).

    Raises
    ------
    ToypokerError
        For a suited deck, more than three players, two or more hole cards (or a payoff
        map) with other than three players, or a deal-count table above 50 M entries.
    """
    game = vg.game
    hole = vg.hands.shape[1]
    if vg.n_players > 3 or (hole > 1 and vg.n_players != 3):
        raise _refuse(
            game, "rank hands need one hole card and at most three players, or three players"
        )
    if int(game.label_suits):
        raise _refuse(game, "rank hands need a rank deck (suits merged)")
    values = np.sort(vg.card_value[vg.hands], axis=1)
    uniq, rid = np.unique(values, axis=0, return_inverse=True)
    rid = rid.ravel()
    n_ranks = int(vg.card_value.max()) + 1
    n_r = len(uniq)
    # a payoff map (collusion) needs every player's share indexed by one hand: the dense
    # product over rank hands, so the deal counts (three players, one card a hand too)
    dense = hole > 1 or vg.payoff is not None
    if dense and vg.n_players != 3:
        raise _refuse(game, "rank hands under collusion need three players")
    if dense and len(vg.boards) * n_r**3 > 50_000_000:
        raise _refuse(game, f"{n_r} rank hands: the deal-count table exceeds 50 M entries")
    count = np.zeros((len(vg.boards), n_r))
    np.add.at(count.T, rid, vg.board_compat.T.astype(np.float64))
    # any physical hand a board leaves stands for the rank hand (first one; none: first)
    left = vg.board_compat.astype(np.int64)
    pick = np.zeros((len(vg.boards), n_r), dtype=np.int64)
    for r in range(n_r):
        cols = np.nonzero(rid == r)[0]
        pick[:, r] = cols[np.argmax(left[:, cols], axis=1)]
    per_node = pick[vg.node_board]  # (nodes, R) the physical hand standing for each
    rows = np.arange(vg.n_nodes)[:, None]
    held = np.zeros((n_r, n_ranks), dtype=np.int64)  # copies of each rank a hand holds
    for j in range(hole):
        np.add.at(held, (np.arange(n_r), uniq[:, j]), 1)
    out = dataclasses.replace(
        vg,
        n_cards=n_ranks,
        card_value=np.arange(n_ranks),
        hands=uniq.astype(np.int64),
        hand_cards=held > 0,
        board_compat=count > 0,
        edge_sigma=vg.edge_sigma[rows, per_node],
        hand_infoset=vg.hand_infoset[rows, per_node],
        strength=np.take_along_axis(vg.strength, pick, axis=1),
        hand_count=count,
        rank_deals=_rank_deals(vg, held) if dense else None,
        cache={},
    )
    for v in vars(out).values():
        if isinstance(v, np.ndarray):
            v.flags.writeable = False
    return out


def _rank_deals(vg: VectorGame, held: np.ndarray) -> np.ndarray:
    """``(B, R, R, R)``: physical deals of three pairwise disjoint hands with the rank
    multisets ``held`` (copies of each rank) avoiding each board (see :func:`rank_hands`)."""
    n_ranks = held.shape[1]
    copies = np.bincount(vg.card_value, minlength=n_ranks)
    top = int(copies.max())
    fact = np.array([math.factorial(k) for k in range(top + 1)], dtype=np.int64)
    falling = np.zeros((top + 1, 3 * top + 1), dtype=np.int64)  # L! / (L - m)!, 0 if m > L
    for big in range(top + 1):
        for m in range(big + 1):
            falling[big, m] = math.perm(big, m)
    h = held.clip(0, top)
    n_all = h[:, None, None, :] + h[None, :, None, :] + h[None, None, :, :]  # (R, R, R, ranks)
    denom = np.prod(fact[h], axis=1)  # prod_rank k! of each hand
    denom3 = denom[:, None, None] * denom[None, :, None] * denom[None, None, :]
    out = np.zeros((len(vg.boards), *n_all.shape[:3]), dtype=np.int64)
    for b, cards in enumerate(vg.boards):
        left = copies - np.bincount(vg.card_value[list(cards)], minlength=n_ranks)
        ways = np.prod(falling[left[None, None, None, :], n_all.clip(0, 3 * top)], axis=3)
        out[b] = np.where((n_all <= left).all(axis=3), ways, 0) // denom3
    return out
