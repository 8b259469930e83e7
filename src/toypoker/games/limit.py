"""A general builder for limit-betting poker games: deck, rounds, evaluator.

One builder serves Kuhn poker with any number of players and cards, the
one-third street game, Leduc hold'em, Mercer Hold'em and the ``holdem(...)``
spec.  It produces a :class:`~toypoker.game.GameDefinition`: the table of deals
with their exact probabilities and the public betting tree.

Deals: a deck of ``ranks x suits`` cards dealt as consecutive unordered groups
(each player's hole cards, then each round's board), built and counted in
``games/deals.py`` -- ranks with suits merged exactly when the evaluator ignores
suits, else one row per orbit of deals under permutations of the suits, boards
canonical round by round.  The public tree deals the canonical boards, and a
player's observation at a node of round ``r`` is her hole cards canonicalised
jointly with the boards shown so far (``Game`` compiles it per round), so her
information sets are those of the unmerged game up to a suit permutation.
``suit_isomorphism=False`` keeps every card identity (the unmerged game, for
cross-checks).

Showdowns: an :class:`~toypoker.games.hands.Evaluator` (the one showdown
protocol) ranks each player's hole and board cards.

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
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.definition import GameDefinition, Linear, NumericParams, RawNode
from toypoker.games.deals import (
    Deck,
    build_entries,
    canonical_boards,
    count_group_deals,
    count_suit_orbits,
    group_deal_table,
    group_options,
    suit_orbit_table,
)
from toypoker.games.hands import Evaluator


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

    def __init__(self, deals: int, nodes: int, players: int, table: int | None = None):
        super().__init__(deals, nodes, players)
        self.deals, self.nodes, self.players = deals, nodes, players
        self.table = table  # entries of the deal table's build, when that is what is over


def limit_deck(
    n_players: int,
    multiplicity: Sequence[int],
    rounds: Sequence[Round],
    hole_cards: int | None,
    suits: int,
) -> Deck:
    """The :class:`~toypoker.games.deals.Deck` of a limit game: hole cards per player
    (``hole_cards``, else the first round's, else one) and each round's board cards.

    Raises
    ------
    ValueError
        Hole cards after the first round, a board before it, or a suited deck with
        unequal rank multiplicities.
    """
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
    evaluator: Evaluator,
    can_open: Callable[[int, int], bool] | None = None,
    restrictions: Sequence[tuple[int, tuple[int, ...], str, dict[str, Fraction]]] = (),
    numeric: NumericParams | None = None,
    hole_cards: int | None = None,
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
    evaluator
        The showdown: a :class:`~toypoker.games.hands.Evaluator` over hole and board
        cards (higher strength wins, equal strengths split the pot); when it needs
        suits the deal table holds card codes ``rank * suits + suit``
        (``suits = multiplicity[0]``), else ranks with suits merged exactly.
    can_open
        ``can_open(player, round)``: may this player bet when nobody has?
        (One-third street: only P3 may.)  Default: everybody.
    restrictions
        ``(player, private ranks (1-based), history, {action: prob})``.
    numeric
        The numeric parameters the forms are in (default: none).
    hole_cards
        Hole cards per player (default ``rounds[0].hole``, else 1).
    suit_isomorphism
        With a suited evaluator: one deal per orbit of deals under permutations of
        the suits (:func:`suit_orbit_table`), boards as canonical chance outcomes and
        observations canonical per round (``GameDefinition.suits``); False keeps every
        card identity (the unmerged game, for cross-checks).
    """
    numeric = numeric or NumericParams()
    suits = 0
    n_cards = (hole_cards or rounds[0].hole or 1) + sum(r.board for r in rounds)
    if evaluator.suited(n_cards):
        suits = int(multiplicity[0])
    deck = limit_deck(n_players, multiplicity, rounds, hole_cards, suits)
    merged = bool(suits) and suit_isomorphism and suits > 1
    if merged:
        n_groups = len(deck.groups)
        cards, wnum, wden = suit_orbit_table(
            len(deck.cards), suits, deck.groups, list(range(n_players, n_groups))
        )
    else:
        cards, wnum, wden = group_deal_table(deck.cards, deck.groups)
    hole_slots = deck.hole_slots()
    board = cards[:, deck.n_players * deck.hole :]
    strengths = np.stack([evaluator.strength(cards[:, list(c)], board, suits) for c in hole_slots])
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

    root = betting_tree(
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
    deck = limit_deck(n_players, multiplicity, rounds, hole_cards, suits)
    merged = bool(suits) and suit_isomorphism and suits > 1
    if merged:
        deals = count_suit_orbits(len(multiplicity), suits, deck.groups)
    else:
        deals = count_group_deals(deck.cards, deck.groups)
    if max_entries is not None:  # the deal table's build, step by step, counted too
        first = list(range(n_players, len(deck.groups)))
        table = build_entries(deck.cards, deck.groups, suits if merged else 0, first)
        if table > max_entries:
            raise TooLargeError(deals, 1, n_players, table=table)
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
    betting_tree(
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


def betting_tree(
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
    """Walk the public betting tree depth first (an explicit stack, no recursion: any
    depth the caps allow), handing each node to ``add``
    (children are appended to ``node.children`` when ``record``); the root's id."""
    for r in rounds:
        if r.orbits is not None and r.check:
            raise ValueError("orbit betting is bet-or-fold: give check=False with orbits")
        if r.orbits is not None and r.blinds:
            raise ValueError("blinds are for raise-cap betting, not orbits")
    if any(r.blinds for r in rounds[1:]):
        raise ValueError("blinds are posted in the first round only")
    walk = _BettingWalk(n_players, rounds, can_open, numeric, board_slots, board_values, add,
                        show, record)  # fmt: skip
    k = walk.k
    chips0 = tuple(_form(ante, k) for _ in range(n_players))
    live0 = tuple(True for _ in range(n_players))
    r0 = rounds[0]
    if r0.blinds:
        if len(r0.blinds) != n_players:
            raise ValueError("give one blind per seat")
        chips0 = tuple(c + _form(b, k) if b else c for c, b in zip(chips0, r0.blinds, strict=True))
    chips0, first0 = walk.start_round(0, chips0, live0)
    return walk.betting(0, chips0, live0, first0, 0, "", ())


class _BettingWalk:
    """One walk of :func:`betting_tree`: its arguments, the nodes made so far (when
    ``record``) and the steps of the walk."""

    def __init__(
        self,
        n_players: int,
        rounds: Sequence[Round],
        can_open: Callable[[int, int], bool] | None,
        numeric: NumericParams,
        board_slots: list[tuple[int, ...]],
        board_values: Callable[[tuple[int, ...], tuple[int, ...]], list[tuple[int, ...]]],
        add: Callable[[RawNode], int],
        show: Callable[[Sequence[int]], str],
        record: bool,
    ):
        self.n_players, self.rounds, self.board_slots = n_players, rounds, board_slots
        self.board_values, self.add, self.show, self.record = board_values, add, show, record
        self.k = k = len(numeric.coordinates)
        self.x = numeric.values
        self.bets = [_form(r.bet, k) for r in rounds]
        self.open_ = can_open or (lambda p, r: True)
        self.nodes: dict[int, RawNode] = {}

    def new(self, node: RawNode) -> int:
        i = self.add(node)
        if self.record:
            self.nodes[i] = node
        return i

    def link(self, parent: int, child: int, values: tuple[int, ...] | None = None) -> None:
        if self.record:
            self.nodes[parent].children.append(child)
            if values is not None:
                self.nodes[parent].child_values.append(values)

    def order_from(self, start: int, live: Sequence[bool]) -> list[int]:
        n = self.n_players
        return [q % n for q in range(start, start + n) if live[q % n]]

    def leaf(self, kind, chips, live, history, rnd, board_hist) -> RawNode:
        committed = tuple(f.at(self.x) for f in chips)
        return RawNode(kind, -1, (), [], committed, live, history, rnd, board_hist, chips=chips)

    def stake_of(self, chips: tuple[Linear, ...]) -> Linear:
        # the largest commitment; equal values must be equal forms (else not affine)
        values = [f.at(self.x) for f in chips]
        top = max(values)
        forms = {chips[i] for i, v in enumerate(values) if v == top}
        if len(forms) > 1:
            raise ValueError("tied commitments with different forms: payoffs not affine")
        return forms.pop()

    def start_round(self, rnd, chips, live) -> tuple[tuple[Linear, ...], tuple[int, ...]]:
        r = self.rounds[rnd]
        if r.ante != 0:
            a = _form(r.ante, self.k)
            chips = tuple(c + a if lv else c for c, lv in zip(chips, live, strict=True))
        first = tuple(self.order_from(r.first, live))
        return chips, (first if r.orbits is None or r.orbits > 0 else ())

    def expand(self, state: tuple) -> tuple[int, list[tuple[tuple, tuple[int, ...] | None]]]:
        """The node of a betting state (forced actions and rounds without a board passed
        through), handed to ``new``, and its children's states in order (with the board
        values a chance node deals)."""
        rounds, new, leaf = self.rounds, self.new, self.leaf
        rnd, chips, live, pending, nbets, history, board_hist = state
        while True:
            if sum(live) == 1:
                return new(leaf("terminal", chips, live, history, rnd, board_hist)), []
            r = rounds[rnd]
            if not pending and r.orbits is not None and nbets + 1 < r.orbits:
                # the next orbit: nbets counts the orbits completed
                pending, nbets = tuple(self.order_from(r.first, live)), nbets + 1
            if not pending:
                if rnd + 1 == len(rounds):
                    return new(leaf("terminal", chips, live, history, rnd, board_hist)), []
                nxt = rnd + 1
                cols = self.board_slots[nxt]
                chips, first = self.start_round(nxt, chips, live)
                if not cols:
                    rnd, pending, nbets, history = nxt, first, 0, history + "/"
                    continue
                chance = leaf("chance", chips, live, history, rnd, board_hist)
                chance.reveal = cols
                cid = new(chance)
                deals = [((nxt, chips, live, first, 0, f"{history}/[{self.show(v)}]",
                           board_hist + tuple(v)), tuple(v))
                         for v in self.board_values(cols, board_hist)]  # fmt: skip
                return cid, deals
            p = pending[0]
            stake = self.stake_of(chips)
            facing = chips[p].at(self.x) < stake.at(self.x)
            options = self.options(r, p, rnd, nbets, facing)
            current = (rnd, chips, live, pending, nbets, history, board_hist)
            children = self.children(current, options, stake)
            if len(options) == 1:  # a forced action is not a decision
                rnd, chips, live, pending, nbets, history, board_hist = children[0]
                continue
            node = leaf("decision", chips, live, history, rnd, board_hist)
            node.actor, node.actions = p, tuple(o[0] for o in options)
            return new(node), [(child, None) for child in children]

    def options(
        self, r: Round, p: int, rnd: int, nbets: int, facing: bool
    ) -> list[tuple[str, int]]:
        """The actions of seat ``p`` (letter, kind: 0 check, 1 bet or raise, 2 fold,
        3 call, 4 orbit bet)."""
        options: list[tuple[str, int]] = []
        if r.orbits is not None:  # bet (or call) exactly one bet, or fold
            options = [("c", 3), ("f", 2)] if facing else [("b", 4), ("f", 2)]
        elif not facing:
            if r.check:
                options.append(("k", 0))
            if nbets < r.max_bets and self.open_(p, rnd):
                options.append(("b", 1))
            if not r.check:
                options.append(("f", 2))
        else:
            options += [("f", 2), ("c", 3)]
            if nbets < r.max_bets:
                options.append(("r", 1))
        return options

    def children(self, state: tuple, options: list[tuple[str, int]], stake: Linear) -> list[tuple]:
        """The betting states after each of the options of the first pending seat."""
        rnd, chips, live, pending, nbets, history, board_hist = state
        p, rest = pending[0], pending[1:]
        children = []
        for letter, kind in options:
            c, lv, after, bets_made = list(chips), list(live), rest, nbets
            if kind == 3:  # call
                c[p] = stake
            elif kind == 2:  # fold
                lv[p] = False
            elif kind == 4:  # orbit bet: the others of this orbit call or fold
                c[p] = stake + self.bets[rnd]
            elif kind == 1:  # bet or raise: everybody else acts again
                c[p] = stake + self.bets[rnd]
                after = tuple(q for q in self.order_from(p + 1, lv) if q != p)
                bets_made = nbets + 1
            # kind 0, a check, changes nothing but the history
            children.append((rnd, tuple(c), tuple(lv), after, bets_made,
                             history + letter, board_hist))  # fmt: skip
        return children

    def betting(self, *state: object) -> int:
        """The walk from ``state``: depth first with an explicit stack (no Python
        recursion: a cap of any size is bounded by the cap check alone); nodes get their
        ids in the order of a recursive pre-order walk, and each parent lists its
        children in order."""
        root = -1
        stack: list[tuple[tuple, int, tuple[int, ...] | None]] = [(state, -1, None)]
        while stack:
            st, parent, values = stack.pop()
            nid, children = self.expand(st)
            if parent < 0:
                root = nid
            else:
                self.link(parent, nid, values)
            stack.extend((child, nid, v) for child, v in reversed(children))
        return root
