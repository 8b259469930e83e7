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
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..game import GameDefinition, RawNode


@dataclass(frozen=True)
class Round:
    """One betting round: board cards revealed before it, bet size, bet cap."""

    board: int
    bet: Fraction
    max_bets: int


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
    ante: Fraction,
    strength: Callable[[np.ndarray, int], np.ndarray],
    can_open: Callable[[int, int], bool] | None = None,
    restrictions: Sequence[tuple[int, tuple[int, ...], str, dict[str, Fraction]]] = (),
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
        Chips each player puts in before the deal.
    strength
        ``strength(cards, player) -> int array`` over deals: showdown hand
        strength of ``player`` (higher wins; equal strengths split the pot).
    can_open
        ``can_open(player, round)``: may this player bet when nobody has?
        (One-third street: only P3 may.)  Default: everybody.
    restrictions
        ``(player, private ranks (1-based), history, {action: prob})``.
    """
    board_total = sum(r.board for r in rounds)
    slots = n_players + board_total
    cards, wnum, wden = deal_table(multiplicity, slots)
    hole_slots = [(p,) for p in range(n_players)]
    board_slots: list[tuple[int, ...]] = []
    col = n_players
    for r in rounds:
        board_slots.append(tuple(range(col, col + r.board)))
        col += r.board
    strengths = np.stack([strength(cards, p) for p in range(n_players)])

    nodes: list[RawNode] = []
    can_open = can_open or (lambda p, r: True)

    def add(node: RawNode) -> int:
        nodes.append(node)
        return len(nodes) - 1

    def order_from(start: int, live: Sequence[bool]) -> list[int]:
        return [q % n_players for q in range(start, start + n_players) if live[q % n_players]]

    def betting(
        rnd: int,
        committed: tuple[Fraction, ...],
        live: tuple[bool, ...],
        pending: tuple[int, ...],
        bets: int,
        history: str,
        board_hist: tuple[int, ...],
    ) -> int:
        if sum(live) == 1:
            return add(RawNode("terminal", -1, (), [], committed, live, history, rnd, board_hist))
        if not pending:
            if rnd + 1 == len(rounds):
                return add(
                    RawNode("terminal", -1, (), [], committed, live, history, rnd, board_hist)
                )
            nxt = rnd + 1
            slots_n = board_slots[nxt]
            if not slots_n:
                return betting(
                    nxt, committed, live, tuple(order_from(0, live)), 0, history + "/", board_hist
                )
            chance = RawNode("chance", -1, (), [], committed, live, history, rnd, board_hist)
            chance.reveal = slots_n
            cid = add(chance)
            values = sorted({tuple(row) for row in cards[:, list(slots_n)].tolist()})
            for v in values:
                shown = "".join(str(x + 1) for x in v)
                child = betting(
                    nxt,
                    committed,
                    live,
                    tuple(order_from(0, live)),
                    0,
                    f"{history}/[{shown}]",
                    board_hist + tuple(v),
                )
                nodes[cid].children.append(child)
                nodes[cid].child_values.append(tuple(v))
            return cid
        p = pending[0]
        rest = pending[1:]
        stake = max(committed)
        bet = rounds[rnd].bet
        facing = committed[p] < stake
        options: list[tuple[str, int]] = []
        if not facing:
            options.append(("k", 0))
            if bets < rounds[rnd].max_bets and can_open(p, rnd):
                options.append(("b", 1))
        else:
            options.append(("f", 2))
            options.append(("c", 3))
            if bets < rounds[rnd].max_bets:
                options.append(("r", 1))
        children_args = []
        for letter, kind in options:
            c = list(committed)
            lv = list(live)
            if kind == 0:  # check
                args = (rnd, tuple(c), tuple(lv), rest, bets)
            elif kind == 3:  # call
                c[p] = stake
                args = (rnd, tuple(c), tuple(lv), rest, bets)
            elif kind == 2:  # fold
                lv[p] = False
                args = (rnd, tuple(c), tuple(lv), rest, bets)
            else:  # bet or raise: everybody else acts again
                c[p] = stake + bet
                others = tuple(q for q in order_from(p + 1, lv) if q != p)
                args = (rnd, tuple(c), tuple(lv), others, bets + 1)
            children_args.append((letter, args))
        if len(options) == 1:  # a forced action is not a decision
            letter, args = children_args[0]
            return betting(*args, history + letter, board_hist)
        nid = add(
            RawNode(
                "decision",
                p,
                tuple(o[0] for o in options),
                [],
                committed,
                live,
                history,
                rnd,
                board_hist,
            )
        )
        for letter, args in children_args:
            child = betting(*args, history + letter, board_hist)
            nodes[nid].children.append(child)
        return nid

    live0 = tuple(True for _ in range(n_players))
    committed0 = tuple(Fraction(ante) for _ in range(n_players))
    first_board = board_slots[0]
    if first_board:
        raise ValueError("a board before the first betting round is not supported yet")
    root = betting(0, committed0, live0, tuple(range(n_players)), 0, "", ())
    restr = list(restrictions)
    return GameDefinition(
        name=name,
        params=dict(params),
        n_players=n_players,
        n_ranks=len(multiplicity),
        cards=cards,
        weight_num=wnum,
        weight_den=wden,
        hole_slots=hole_slots,
        strength=strengths,
        nodes=nodes,
        root=root,
        restrictions=restr,
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
