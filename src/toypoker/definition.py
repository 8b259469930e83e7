"""What a builder hands to :class:`toypoker.game.Game`, and the small records of a compiled game.

A :class:`GameDefinition` is the deal table and the public tree (:class:`RawNode`),
with each node's committed chips also as affine forms (:class:`Linear`) in the
game's numeric parameters (:class:`NumericParams`).  :class:`Node` and
:class:`InfoSet` are the records of the compiled game (views of a compiled game,
such as ``DealBlocks``, live beside it: ``game.py``, ``blocks.py``, ``payoffs.py``).

Definition floor: imports only the ground (errors, spec).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from toypoker.errors import ProfileError, ToypokerError
from toypoker.spec import parameter_value

IDX = np.int32  # row-level index arrays (rows < 2**31)

ACTION_NAMES = {"k": "check", "b": "bet", "c": "call", "f": "fold", "r": "raise"}


@dataclass(frozen=True)
class Linear:
    """An affine form ``const + sum_j coef[j] * x_j`` in a game's numeric coordinates.

    The chips a player has committed are such forms (ante and bets are), so
    payoffs are affine in the numeric parameters.
    """

    const: Fraction
    coef: tuple[Fraction, ...]

    @classmethod
    def constant(cls, value: Fraction | int, k: int) -> Linear:
        """The constant ``value`` over ``k`` coordinates."""
        return cls(Fraction(value), (Fraction(0),) * k)

    @classmethod
    def coordinate(cls, j: int, k: int, scale: Fraction | int = 1) -> Linear:
        """``scale * x_j`` over ``k`` coordinates."""
        return cls(Fraction(0), tuple(Fraction(scale) if i == j else Fraction(0) for i in range(k)))

    def __add__(self, other: Linear) -> Linear:
        return Linear(
            self.const + other.const,
            tuple(a + b for a, b in zip(self.coef, other.coef, strict=True)),
        )

    def at(self, x: Sequence[Fraction]) -> Fraction:
        """The value at coordinates ``x``."""
        return self.const + sum((c * v for c, v in zip(self.coef, x, strict=True)), Fraction(0))


@dataclass(frozen=True)
class NumericParams:
    """The numeric parameters a game's payoffs are affine in.

    ``coordinates`` are independent (e.g. ``("ante", "bet")`` for Kuhn poker)
    with ``values`` in this game; ``names`` lists every numeric parameter as
    ``(name, coordinate index, scale)``: ``name = scale * x[coordinate]`` (Kuhn's
    ``pot`` is ``n * ante``).  Parameters on one coordinate are alternatives:
    setting one drops the others from the spec.
    """

    coordinates: tuple[str, ...] = ()
    values: tuple[Fraction, ...] = ()
    names: tuple[tuple[str, int, Fraction], ...] = ()

    def find(self, game: str, name: str) -> tuple[int, Fraction]:
        """``(coordinate index, scale)`` of a numeric parameter of ``game`` (its name, for
        the message); ToypokerError if it has none of that name."""
        for n, j, scale in self.names:
            if n == name:
                return j, scale
        known = ", ".join(n for n, _, _ in self.names) or "none"
        raise ToypokerError(f"{game} has no numeric parameter {name!r}; numeric: {known}")

    def assign(
        self, game: str, params: Mapping[str, object], values: Mapping[str, object]
    ) -> tuple[tuple[Fraction, ...], dict[str, object]]:
        """New coordinates and spec parameters for ``values`` (``{name: value}``): a
        parameter replaces the alternatives on its coordinate (Kuhn's pot and ante)."""
        x, out, seen = list(self.values), dict(params), {}
        for name, raw in values.items():
            j, scale = self.find(game, name)
            if j in seen:
                raise ToypokerError(f"give either {seen[j]} or {name} for {game}, not both")
            seen[j] = name
            v = parameter_value(name, raw)
            x[j] = v / scale
            for other, k, _ in self.names:  # alternatives on the same coordinate
                if k == j and other != name:
                    out.pop(other, None)
            out[name] = v
        return tuple(x), out


@dataclass
class RawNode:
    """A public-tree node as a builder makes it (before compilation)."""

    kind: str  # "decision" | "chance" | "terminal"
    actor: int  # the acting player, -1 for chance and terminal nodes
    actions: tuple[str, ...]
    children: list[int]
    committed: tuple[Fraction, ...]
    live: tuple[bool, ...]
    history: str
    round: int
    board: tuple[int, ...]  # 0-based ranks revealed so far
    reveal: tuple[int, ...] = ()  # chance node: deal columns it reveals
    child_values: list[tuple[int, ...]] = field(default_factory=list)
    chips: tuple[Linear, ...] | None = None  # ``committed`` as affine forms (NumericParams)


@dataclass
class GameDefinition:
    """What a builder hands to :class:`Game`: deal table, public tree, restrictions."""

    name: str
    params: dict[str, object]
    n_players: int
    n_ranks: int
    cards: np.ndarray  # (deals, slots) 0-based ranks
    weight_num: np.ndarray  # (deals,) int: probability = weight_num / weight_den
    weight_den: int
    hole_slots: list[tuple[int, ...]]  # per player: the deal columns of its cards
    strength: np.ndarray  # (players, deals) showdown strength, higher wins
    nodes: list[RawNode]
    root: int
    restrictions: list[tuple[int, tuple[int, ...], str, dict[str, Fraction]]]
    numeric: NumericParams = field(default_factory=NumericParams)
    # the game's parameter check (``GameInfo.validate``), for Game.at
    validate: Callable[[Mapping[str, object]], dict[str, object]] | None = None
    # payoff map ``u = A @ (share * pot) - B @ committed`` (exact; None = identity),
    # set by :func:`toypoker.games.team_transform.collude`
    payoff_a: tuple[tuple[Fraction, ...], ...] | None = None
    payoff_b: tuple[tuple[Fraction, ...], ...] | None = None
    # per player: hole_slots split into groups sorted separately (own cards, then each
    # partner's under strong collusion); None = one group per player
    hole_groups: list[tuple[tuple[int, ...], ...]] | None = None
    # suit isomorphism (``games/deals.py``): ``suits`` > 0 says the table holds one row
    # per orbit of deals under permutations of the suits (cards ``rank * suits + suit``,
    # weights the orbits' total probabilities), each row the orbit's representative
    # whose boards are canonical (:func:`suit_canonical`, boards first), as the public
    # tree shows them; ``board_slots[r]`` are the deal columns of round ``r``'s board.
    # A player's observation at a node of round ``r`` is then her hole cards
    # canonicalised jointly with the boards of rounds ``<= r`` (per round, not per deal).
    # 0 = no merging: one observation per player and deal (all other games).
    suits: int = 0
    board_slots: list[tuple[int, ...]] | None = None


def suit_canonical(cards: np.ndarray, groups: Sequence[Sequence[int]], suits: int) -> np.ndarray:
    """The canonical form of each row of card codes under permutations of the suits.

    ``cards`` is ``(rows, columns)`` of codes ``rank * suits + suit``; ``groups`` lists
    column groups in priority order, each an unordered set of cards.  The canonical
    form is the lexicographically smallest ``(sorted g(group 1), sorted g(group 2), ...)``
    over all suit permutations ``g``, returned as ``(rows, sum of group sizes)``.  A
    prefix of the groups is canonicalised by the same minimum (lexicographic order
    compares the first groups first), which is what makes boards canonical round by
    round.
    """
    cols = [list(g) for g in groups if len(g)]
    rows = len(cards)
    width = sum(len(c) for c in cols)
    if not cols or rows == 0:
        return np.zeros((rows, width), dtype=np.int64)
    if rows == 1:  # one row (an infoset label): plain Python, numpy's per-call cost dominates
        row = [int(c) for c in np.asarray(cards).reshape(-1)]

        def relabelled(g: tuple[int, ...]) -> list[int]:
            return [
                x
                for c in cols
                for x in sorted(row[i] - row[i] % suits + g[row[i] % suits] for i in c)
            ]

        return np.array(
            [min(map(relabelled, itertools.permutations(range(suits))))], dtype=np.int64
        )
    rank, suit = np.divmod(np.asarray(cards, dtype=np.int64), suits)
    best: np.ndarray | None = None
    idx = np.arange(rows)
    for perm in itertools.permutations(range(suits)):
        mapped = rank * suits + np.asarray(perm, dtype=np.int64)[suit]
        cand = np.concatenate([np.sort(mapped[:, c], axis=1) for c in cols], axis=1)
        if best is None:
            best = cand
            continue
        diff = cand != best
        first = diff.argmax(axis=1)
        less = diff.any(axis=1) & (cand[idx, first] < best[idx, first])
        best[less] = cand[less]
    assert best is not None
    return best


@dataclass(frozen=True)
class Node:
    """A compiled public node.  ``id`` is its position in depth order."""

    id: int
    kind: str
    actor: int
    actions: tuple[str, ...]
    children: tuple[int, ...]
    parent: int
    depth: int
    committed: tuple[Fraction, ...]
    live: tuple[bool, ...]
    history: str
    board: tuple[int, ...]


@dataclass(frozen=True)
class InfoSet:
    """An information set: a decision node and the private cards of its actor.

    ``player`` is 0-based; ``private`` the ranks held (1 lowest); ``history``
    the public actions (``k b c f r``, ``/`` between rounds, board cards in
    brackets); ``label`` the stable name used in profile files, e.g.
    ``P2:3:kb`` (player as printed in the papers, 1-based).

    Examples
    --------
    >>> import toypoker as tp
    >>> i = tp.load_game("kuhn(players=2)").infoset("P2:3:b")
    >>> i.player, i.private, i.history, i.actions
    (1, (3,), 'b', ('f', 'c'))
    """

    index: int
    node: int
    player: int
    private: tuple[int, ...]
    history: str
    actions: tuple[str, ...]
    offset: int
    restricted: bool
    suits: int = 0  # > 0: ``private`` are card codes + 1 of a suit-isomorphic game

    @property
    def private_label(self) -> str:
        """The private ranks as written in labels: ``"3"``, ``"2-5"``; card names
        (``"AhKh"``) in a suit-isomorphic game."""
        if self.suits:
            return "".join(card_text(r - 1, self.suits) for r in self.private)
        return "-".join(str(r) for r in self.private)

    @property
    def label(self) -> str:
        """The stable label ``P{player+1}:{private}:{history}``, e.g. ``P2:3:kb``."""
        return make_label(self.player, self.private_label, self.history)


RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"  # ACPC's suit order


def card_text(code: int, suits: int) -> str:
    """The name of a card code ``rank * suits + suit`` (rank 0 is a deuce): ``"6s"``."""
    r, s = divmod(int(code), suits)
    return RANK_CHARS[r] + SUIT_CHARS[s]


def make_label(player: int, private: str, history: str) -> str:
    """The label of an infoset: ``P{player+1}:{private}:{history}``."""
    return f"P{player + 1}:{private}:{history}"


def suit_canonical_label(definition: GameDefinition, label: str) -> str | None:
    """In a suit-isomorphic game: the label of the infoset a label written with any
    suits (``P1:Ad:b/[KdQc]``, or card codes + 1 as in the unmerged game's labels,
    ``P1:24:b/[KdQc]``) belongs to -- the same cards relabelled by the suit
    permutation that makes the boards canonical.  None if the label does not parse.

    Used by :meth:`toypoker.game.Game.infoset` to find an infoset by any of its suit
    relabellings."""
    d = definition
    suits = d.suits
    parts = label.split(":", 2)
    if len(parts) != 3 or not parts[0][1:].isdigit():
        return None
    player, private, history = int(parts[0][1:]) - 1, parts[1], parts[2]
    if not 0 <= player < d.n_players:
        return None

    def codes(text: str) -> list[int]:
        if len(text) % 2 or any(
            text[i] not in RANK_CHARS or text[i + 1] not in SUIT_CHARS[:suits]
            for i in range(0, len(text), 2)
        ):
            raise ValueError(text)
        return [
            RANK_CHARS.index(text[i]) * suits + SUIT_CHARS.index(text[i + 1])
            for i in range(0, len(text), 2)
        ]

    try:
        if private.replace("-", "").isdigit():
            hole = [int(x) - 1 for x in private.split("-")]
        else:
            hole = codes(private)
        pieces = history.split("[")
        boards = [codes(piece.split("]", 1)[0]) for piece in pieces[1:]]
    except ValueError:
        return None
    sizes = [len(b) for b in d.board_slots or () if len(b)][: len(boards)]
    own = (d.hole_slots[player],) if d.hole_groups is None else d.hole_groups[player]
    hole_sizes = [len(g) for g in own]
    if [len(b) for b in boards] != sizes or len(hole) != sum(hole_sizes):
        return None
    flat = [c for b in boards for c in b] + hole
    if len(set(flat)) != len(flat) or max(flat, default=0) >= len(RANK_CHARS) * suits:
        return None
    groups, col = [], 0
    for size in sizes + hole_sizes:
        groups.append(list(range(col, col + size)))
        col += size
    canon = suit_canonical(np.array([flat], dtype=np.int64), groups, suits)[0]
    names = [card_text(int(c), suits) for c in canon]
    text, col = pieces[0], 0
    for b, piece in zip(boards, pieces[1:], strict=True):
        text += "[" + "".join(names[col : col + len(b)]) + "]" + piece.split("]", 1)[1]
        col += len(b)
    return make_label(player, "".join(names[col:]), text)


def key_label(key: str | tuple) -> str:
    """The label an infoset key names: a label itself, or ``(player, private, history)``
    with ``player`` 0-based and ``private`` an int rank, a tuple of ranks or a string.

    Raises
    ------
    ProfileError
        For any other key.
    """
    if isinstance(key, str):
        return key.strip()
    if isinstance(key, tuple) and len(key) == 3:
        player, private, history = key
        if isinstance(private, int | np.integer):
            priv = str(int(private))
        elif isinstance(private, tuple | list):
            priv = "-".join(str(int(x)) for x in private)
        else:
            priv = str(private)
        return make_label(int(player), priv, str(history))
    raise ProfileError(f"an infoset key is a label or (player, private, history), not {key!r}")
