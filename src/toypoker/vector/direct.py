"""The vector layout built without a deal table: games the row layout cannot hold.

:func:`build_vector` reads a ``kuhn(...)`` or ``holdem(...)`` spec whose evaluator
ignores suits (a rank deck), walks the public betting tree with the builder of
``games/limit.py`` (boards: every rank multiset the deck still holds), and makes a
:class:`TreeGame` -- the public tree and the infosets, in the order and with the
labels :class:`~toypoker.game.Game` gives them -- then the
:class:`~toypoker.vector.layout.VectorGame` over it, with showdown strengths from
the game's evaluator on (hand, board) pairs.  Nothing of size ``H^n`` is built.
Suited evaluators, collusion and the other games are refused with one line.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from types import SimpleNamespace

import numpy as np

from ..definition import InfoSet, Linear, NumericParams, RawNode
from ..errors import ToypokerError
from ..game import Game
from ..games import holdem, kuhn, parse_game_spec
from ..games.deals import group_options
from ..games.hands import EVALUATORS
from ..games.limit import betting_tree, limit_deck
from ..spec import format_spec
from .layout import VectorGame, assemble


class TreeGame:
    """The public tree, infosets and flat-strategy layout of a game, without deals.

    Has the attributes of :class:`~toypoker.game.Game` that the vector layout and
    the CFR schedule read (``nodes``, ``infosets``, ``infoset_offset``, ``n_sigma``,
    ``sigma_infoset``, ``infoset_n_actions``, ``sigma_fixed``, ...).
    """

    def __init__(self, spec: str, n_players: int, raw: list[RawNode], root: int):
        self.spec = spec
        self.n_players = n_players
        # the compiled game's breadth-first node order, by the same code
        shell = SimpleNamespace(definition=SimpleNamespace(nodes=raw, root=root))
        Game._compile_nodes(shell)  # type: ignore[arg-type]
        self.nodes = shell.nodes
        self.n_depths = shell.n_depths

    def set_infosets(self, privates: dict[int, list[tuple[int, ...]]]) -> None:
        """Infosets of each decision node: its actor's sorted private observations."""
        infosets, offset = [], 0
        for node in self.nodes:
            if node.kind != "decision":
                continue
            for private in privates[node.id]:
                infosets.append(
                    InfoSet(
                        len(infosets),
                        node.id,
                        node.actor,
                        private,
                        node.history,
                        node.actions,
                        offset,
                        False,
                    )
                )
                offset += len(node.actions)
        self.infosets = tuple(infosets)
        self.n_infosets = len(infosets)
        self.n_sigma = offset
        self.infoset_offset = np.array([i.offset for i in infosets] + [offset], dtype=np.int64)
        self.infoset_player = np.array([i.player for i in infosets], dtype=np.int64)
        self.infoset_n_actions = np.diff(self.infoset_offset)
        self.sigma_infoset = np.repeat(np.arange(self.n_infosets), self.infoset_n_actions)
        self.sigma_player = self.infoset_player[self.sigma_infoset]
        self.sigma_fixed = np.zeros(offset, dtype=bool)
        self.fixed_values = np.zeros(offset)
        self.infoset_restricted = np.zeros(self.n_infosets, dtype=bool)
        kmax = int(self.infoset_n_actions.max()) if self.n_infosets else 1
        k = np.arange(kmax)[None, :]
        pad = np.where(k < self.infoset_n_actions[:, None], self.infoset_offset[:-1, None] + k, -1)
        self.infoset_actions_padded = pad

    def free_mask(self, player: int | None = None) -> np.ndarray:
        """Free flat actions (all: no restrictions), optionally only ``player``'s."""
        mask = ~self.sigma_fixed
        if player is not None:
            mask = mask & (self.sigma_player == player)
        return mask


def build_vector(spec: str) -> VectorGame:
    """The vector layout of a ``kuhn(...)`` or rank-deck ``holdem(...)`` spec, built
    without a deal table.

    Raises
    ------
    ToypokerError
        One line naming why for other games, suited evaluators and collusion.
    """
    info, p, coll = parse_game_spec(spec)
    canonical = format_spec(info.name, {**p, **coll})
    if coll:
        raise ToypokerError(f"build_vector: collusion is not supported yet ({canonical})")
    if info.name == "kuhn":
        shape = kuhn.limit_shape(p)
        numeric = kuhn.numeric(p)
        ante: Fraction | Linear = Linear.coordinate(0, 2)  # as kuhn.build
        evaluator = None
    elif info.name == "holdem":
        shape = holdem.limit_shape(p)
        numeric = NumericParams()
        ante = Fraction(p["ante"])
        evaluator = EVALUATORS[p["evaluator"]]
        dealt = p["hole"] + sum(p.get(f"board{i}", 0) for i in range(2, p["rounds"] + 1))
        if evaluator.suited(dealt):
            raise ToypokerError(
                f"build_vector: suited evaluators are not supported yet ({canonical})"
            )
    else:
        raise ToypokerError(f"build_vector: only kuhn and holdem are supported yet ({canonical})")
    n = int(shape["n_players"])
    mult = np.asarray(shape["multiplicity"], dtype=np.int64)
    rounds = shape["rounds"]
    deck = limit_deck(n, list(mult), rounds, shape.get("hole_cards"), 0)
    raw: list[RawNode] = []

    def add(node: RawNode) -> int:
        raw.append(node)
        return len(raw) - 1

    def board_values(cols: tuple[int, ...], shown: tuple[int, ...]) -> list[tuple[int, ...]]:
        left = mult - np.bincount(np.asarray(shown, dtype=np.int64), minlength=len(mult))
        seqs, counts = group_options(list(mult), len(cols))
        return [
            tuple(int(x) for x in s) for s, c in zip(seqs, counts, strict=True) if (c <= left).all()
        ]

    root = betting_tree(
        n, rounds, ante, None, numeric, deck.board_slots(), board_values, add, deck.show
    )
    tree = TreeGame(canonical, n, raw, root)
    hole = deck.hole
    board_sizes = [b for b in deck.boards if b]
    card_value = np.repeat(np.arange(len(mult)), mult)
    hands = np.array(list(itertools.combinations(range(len(card_value)), hole)))
    private = sorted({tuple(int(x) + 1 for x in row) for row in np.sort(card_value[hands], axis=1)})
    # infosets: the private observations of the hands avoiding the node's board
    privates: dict[int, list[tuple[int, ...]]] = {}
    by_board: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for node in tree.nodes:
        if node.kind == "decision":
            if node.board not in by_board:
                used = np.bincount(np.asarray(node.board, dtype=np.int64), minlength=len(mult))
                by_board[node.board] = [obs for obs in private if _fits(obs, mult - used)]
            privates[node.id] = by_board[node.board]
    tree.set_infosets(privates)

    def strength_of(
        boards: tuple[tuple[int, ...], ...],
        board_groups: list[tuple[tuple[int, ...], ...]],
        node_board: np.ndarray,
        hands_: np.ndarray,
        card_value_: np.ndarray,
    ) -> np.ndarray:
        full = sum(board_sizes)
        out = np.zeros((len(boards), len(hands_)), dtype=np.int64)
        values = np.sort(card_value_[hands_], axis=1)
        for b, cards in enumerate(boards):
            if len(cards) != full:
                continue
            board = np.tile(card_value_[list(cards)], (len(values), 1)).reshape(len(values), -1)
            if evaluator is None:  # Kuhn: the higher card wins
                out[b] = EVALUATORS["high_card"].strength(values, board, 0)
            else:
                out[b] = evaluator.strength(values, board, 0)
        return out

    return assemble(tree, hole, board_sizes, mult, 0, strength_of)  # type: ignore[arg-type]


def _fits(private: Sequence[int], left: np.ndarray) -> bool:
    """Whether a hand of these (1-based) ranks can be held with ``left`` cards a rank."""
    need = np.bincount(np.asarray(private, dtype=np.int64) - 1, minlength=len(left))
    return bool((need <= left).all())
