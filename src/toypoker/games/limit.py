"""A general builder for limit-betting poker games: deck, rounds, evaluator.

One builder serves Kuhn poker with any number of players and cards, the
one-third street game, and Leduc hold'em.  It produces a
:class:`~toypoker.game.GameDefinition`: the table of deals (rank sequences
with their exact probabilities; suits never matter in these games, so a deal is
a sequence of ranks weighted by how many physical deals it stands for) and
the public betting tree.

Betting (per round, fixed bet size ``bet``, at most ``max_bets`` bets a round):
when no bet is outstanding a player may check (``k``) or bet (``b``); facing
a bet a player folds (``f``), calls (``c``) or raises (``r``, while fewer than
``max_bets`` bets have been made).  After a bet or raise every other live
player acts once more, in seat order from the bettor's left.  Kuhn poker is
``max_bets=1``: "check/bet until someone bets, then every other player in
turn folds or calls" (Kuhn 1950; Szafron et al. 2013, Sec. 2).

The ante and the bet sizes may be affine forms (:class:`~toypoker.game.Linear`)
in the game's numeric parameters: the chips committed at every node are then
recorded as forms too, which is what :meth:`toypoker.game.Game.at` evaluates.
:func:`estimate_size` counts deals and public nodes before anything is
allocated, so a spec too large to compile fails fast.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..definition import GameDefinition, Linear, NumericParams, RawNode


@dataclass(frozen=True)
class Round:
    """One betting round: board cards revealed before it, bet size, bet cap."""

    board: int
    bet: Fraction | Linear
    max_bets: int


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


def build_limit_game(
    *,
    name: str,
    params: dict[str, object],
    n_players: int,
    multiplicity: Sequence[int],
    rounds: Sequence[Round],
    ante: Fraction | Linear,
    strength: Callable[[np.ndarray, int], np.ndarray],
    can_open: Callable[[int, int], bool] | None = None,
    restrictions: Sequence[tuple[int, tuple[int, ...], str, dict[str, Fraction]]] = (),
    numeric: NumericParams | None = None,
) -> GameDefinition:
    """Build a limit-betting game definition.

    Parameters
    ----------
    name, params
        The spec name and its canonical parameters.
    n_players
        Number of players, each dealt one hole card.
    multiplicity
        Cards per rank, lowest rank first.
    rounds
        The betting rounds in order.
    ante
        Chips each player puts in before the deal (a number, or an affine form in
        the coordinates of ``numeric``; so may each round's ``bet`` be).
    strength
        ``strength(cards, player) -> int array`` over deals: showdown hand
        strength of ``player`` (higher wins; equal strengths split the pot).
    can_open
        ``can_open(player, round)``: may this player bet when nobody has?
        (One-third street: only P3 may.)  Default: everybody.
    restrictions
        ``(player, private ranks (1-based), history, {action: prob})``.
    numeric
        The numeric parameters the forms are in (default: none).
    """
    numeric = numeric or NumericParams()
    board_slots = _board_slots(n_players, rounds)
    cards, wnum, wden = deal_table(multiplicity, n_players + sum(r.board for r in rounds))
    strengths = np.stack([strength(cards, p) for p in range(n_players)])
    nodes: list[RawNode] = []

    def add(node: RawNode) -> int:
        nodes.append(node)
        return len(nodes) - 1

    def board_values(cols: tuple[int, ...]) -> list[tuple[int, ...]]:
        return sorted({tuple(row) for row in cards[:, list(cols)].tolist()})

    root = _betting_tree(n_players, rounds, ante, can_open, numeric, board_slots, board_values, add)
    return GameDefinition(
        name=name,
        params=dict(params),
        n_players=n_players,
        n_ranks=len(multiplicity),
        cards=cards,
        weight_num=wnum,
        weight_den=wden,
        hole_slots=[(p,) for p in range(n_players)],
        strength=strengths,
        nodes=nodes,
        root=root,
        restrictions=list(restrictions),
        numeric=numeric,
    )


def estimate_size(
    *,
    n_players: int,
    multiplicity: Sequence[int],
    rounds: Sequence[Round],
    can_open: Callable[[int, int], bool] | None = None,
    max_entries: int | None = None,
) -> tuple[int, int, int]:
    """``(deals, public nodes, players)`` of :func:`build_limit_game` with these
    arguments, counted without building the deal table or the tree.

    Raises :class:`TooLargeError` as soon as ``deals x nodes x players`` passes
    ``max_entries``: the deals are counted first (a formula), so a deck far too
    large never walks its tree.  Board cards are counted as every rank with a
    card (an upper bound).
    """
    deals = count_deals(multiplicity, n_players + sum(r.board for r in rounds))
    per_node = deals * n_players
    budget = None if max_entries is None else max_entries // max(per_node, 1)
    count = [0]

    def add(node: RawNode) -> int:
        count[0] += 1
        if budget is not None and count[0] > budget:
            raise TooLargeError(deals, count[0], n_players)
        return count[0] - 1

    ranks = [r for r, m in enumerate(multiplicity) if m > 0]

    def board_values(cols: tuple[int, ...]) -> list[tuple[int, ...]]:
        return list(itertools.product(ranks, repeat=len(cols)))

    unit = [Round(r.board, Fraction(1), r.max_bets) for r in rounds]  # same tree, any bets > 0
    _betting_tree(
        n_players,
        unit,
        Fraction(1),
        can_open,
        NumericParams(),
        _board_slots(n_players, rounds),
        board_values,
        add,
        record=False,
    )
    return deals, count[0], n_players


def _board_slots(n_players: int, rounds: Sequence[Round]) -> list[tuple[int, ...]]:
    out, col = [], n_players
    for r in rounds:
        out.append(tuple(range(col, col + r.board)))
        col += r.board
    if out and out[0]:
        raise ValueError("a board before the first betting round is not supported yet")
    return out


def _form(v: Fraction | Linear, k: int) -> Linear:
    return v if isinstance(v, Linear) else Linear.constant(v, k)


def _betting_tree(
    n_players: int,
    rounds: Sequence[Round],
    ante: Fraction | Linear,
    can_open: Callable[[int, int], bool] | None,
    numeric: NumericParams,
    board_slots: list[tuple[int, ...]],
    board_values: Callable[[tuple[int, ...]], list[tuple[int, ...]]],
    add: Callable[[RawNode], int],
    record: bool = True,
) -> int:
    """Walk the public betting tree depth first, handing each node to ``add``
    (children are appended to ``node.children`` when ``record``); the root's id."""
    k = len(numeric.coordinates)
    x = numeric.values
    bets = [_form(r.bet, k) for r in rounds]
    open_ = can_open or (lambda p, r: True)
    nodes: dict[int, RawNode] = {}

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

    def betting(rnd, chips, live, pending, nbets, history, board_hist) -> int:
        if sum(live) == 1:
            return new(leaf("terminal", chips, live, history, rnd, board_hist))
        if not pending:
            if rnd + 1 == len(rounds):
                return new(leaf("terminal", chips, live, history, rnd, board_hist))
            nxt = rnd + 1
            cols = board_slots[nxt]
            first = tuple(order_from(0, live))
            if not cols:
                return betting(nxt, chips, live, first, 0, history + "/", board_hist)
            chance = leaf("chance", chips, live, history, rnd, board_hist)
            chance.reveal = cols
            cid = new(chance)
            for v in board_values(cols):
                shown = "".join(str(c + 1) for c in v)
                child = betting(
                    nxt, chips, live, first, 0, f"{history}/[{shown}]", board_hist + tuple(v)
                )
                link(cid, child, tuple(v))
            return cid
        p, rest = pending[0], pending[1:]
        stake = stake_of(chips)
        facing = chips[p].at(x) < stake.at(x)
        options: list[tuple[str, int]] = []
        if not facing:
            options.append(("k", 0))
            if nbets < rounds[rnd].max_bets and open_(p, rnd):
                options.append(("b", 1))
        else:
            options += [("f", 2), ("c", 3)]
            if nbets < rounds[rnd].max_bets:
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
    return betting(
        0, chips0, tuple(True for _ in range(n_players)), tuple(range(n_players)), 0, "", ()
    )


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
