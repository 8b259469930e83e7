"""The vector layout built without a deal table: games the row layout cannot hold.

:func:`build_vector` reads a ``kuhn(...)``, ``holdem(...)``, ``mercer(...)`` or
``rhode_island(...)`` spec and makes the public tree and the infosets, in the order and
with the labels the deal table's game has (:class:`~toypoker.game.PublicTree`), then the
:class:`~toypoker.engines.vectors.layout.VectorGame` over it, with showdown strengths from
the game's evaluator on (hand, board) pairs, and the :class:`~toypoker.game.Game` on
those hand vectors (the one constructor every game has).  Nothing of size ``H^n`` is
built: the game has no deal table (reading one builds it from the spec where it fits,
:func:`toypoker.engines.rows_of`, else refuses in one line).

* **Boards.**  An evaluator blind to suits deals ranks (every rank multiset the deck
  still holds); a suited one (Rhode Island's three-card hands, ``standard`` with five
  cards) deals card identities, and with suit isomorphism (the default) the canonical
  boards round by round (:func:`~toypoker.games.deals.canonical_boards`, as the row
  layout's builder does): Rhode Island's 2,652 (flop, turn) pairs become 325, each
  edge weighted by the boards it stands for.  Hands stay physical (52 for Rhode
  Island): a hand's observation is its cards canonicalised jointly with the boards.
* **Tree.**  Limit betting has one shape under every board, so the betting is walked
  once (``games/limit.py``'s builder, one board a chance node) and copied under every
  board (:func:`_expand`).
* **Infosets.**  Millions on Rhode Island (3,937,128): :class:`InfoSets` makes them on
  access from flat arrays, and :meth:`InfoSets.infoset_rows` maps hands to them.

Rhode Island Hold'em on a standard deck builds this way (``benchmarks/bench_rhode.py``
times the build and its memory).  Three players build the same way (the
tree walk is the same; a three-player tree is much larger, and the full three-player
deck with full betting is beyond one machine: ``toypoker info`` counts it).  With
``rank=True`` a rank deck with one hole card gets one hand a rank
(``holdem(players=3,ranks=13,suits=4)``: 14,051 nodes x 3 x 13 entries).
Weak collusion (``team=..``, win or pot sharing) is the payoff map of
:func:`~toypoker.games.team_transform.collude` on the same tree and labels
(:attr:`~toypoker.engines.vectors.layout.VectorGame.payoff`); strong collusion and the other
games are refused with one line.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from types import MappingProxyType

import numpy as np

from toypoker.definition import InfoSet, Linear, Node, NumericParams, RawNode, make_label
from toypoker.engines.vectors.assembly import StrengthOf
from toypoker.engines.vectors.layout import (
    OnVectors,
    VectorGame,
    _private,
    assemble,
    rank_hands,
    with_payoff,
)
from toypoker.engines.vectors.size import check_vector_size
from toypoker.errors import SpecError, ToypokerError
from toypoker.game import Game, PublicTree, compile_nodes, infoset_tables
from toypoker.games import count_layout, holdem, kuhn, mercer, parse_game_spec, rhode_island
from toypoker.games.base import Params
from toypoker.games.deals import Deck, canonical_boards, group_options
from toypoker.games.hands import EVALUATORS, Evaluator
from toypoker.games.layout_count import MAX_BOARDS
from toypoker.games.limit import betting_tree, limit_deck
from toypoker.games.team_transform import check_collusion, team_average
from toypoker.spec import format_spec


class InfoSets(Sequence[InfoSet]):
    """The infosets of a game built without deals, made on access from flat arrays (a
    tuple of millions of objects would cost more than the game's vectors), and the
    lookup (decision node, private observations) -> infosets (:meth:`infoset_rows`)."""

    def __init__(
        self, nodes: Sequence, privates: dict[int, np.ndarray], n_act: np.ndarray, suits: int
    ):  # fmt: skip
        dec = [nd.id for nd in nodes if nd.kind == "decision"]
        counts = np.array([len(privates[i]) for i in dec], dtype=np.int64)
        hole = next((privates[i].shape[1] for i in dec if len(privates[i])), 1)
        private = np.concatenate([privates[i].reshape(-1, hole) for i in dec] or [np.zeros((0, 1))])
        self._nodes, self._suits = nodes, suits
        self._node_of = np.repeat(np.asarray(dec, dtype=np.int64), counts)
        self._private = private.astype(np.int64)
        self._offset = np.concatenate([[0], np.cumsum(n_act)[:-1]]).astype(np.int64)
        # the lookup (node, private) -> infoset of infoset_rows
        first = np.zeros(len(nodes), dtype=np.int64)
        first[dec] = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        self._first = first
        self._codes: dict[int, np.ndarray] = {}
        self._local: dict[tuple[int, int], np.ndarray] = {}
        self._keep: list[np.ndarray] = []  # the arrays whose ids key the cache
        self._node_codes = {i: self._code_of(privates[i]) for i in dec}

    def _code_of(self, rows: np.ndarray) -> np.ndarray:
        """One int64 per private observation (base 64 digits), cached per array."""
        key = id(rows)
        if key not in self._codes:
            r = np.asarray(rows, dtype=np.int64).reshape(len(rows), -1)
            out = np.zeros(len(r), dtype=np.int64)
            for j in range(r.shape[1]):
                out = out * 64 + r[:, j]
            self._codes[key] = out
            self._keep.append(rows)
        return self._codes[key]

    def infoset_rows(self, node: int, private: np.ndarray) -> np.ndarray:
        """The infoset at decision ``node`` of each private observation ``private``
        (``(H, hole)`` 1-based), ``-1`` where the node has none."""
        have = self._node_codes[node]
        key = (id(have), id(private))
        if key not in self._local:  # positions within the node's infosets, per board
            want = self._code_of(private)
            if len(have):
                pos = np.minimum(np.searchsorted(have, want), len(have) - 1)
                self._local[key] = np.where(have[pos] == want, pos, -1)
            else:
                self._local[key] = np.full(len(want), -1, dtype=np.int64)
        local = self._local[key]
        return np.where(local >= 0, self._first[node] + local, -1)

    def __len__(self) -> int:
        return len(self._node_of)

    def _private_texts(self, lo: int, hi: int) -> list[str]:
        """Each infoset's private cards as written in its label (``lo .. hi - 1``): the
        distinct rows found with numpy, each text made once and cached."""
        if not hasattr(self, "_texts"):
            self._texts: dict[int, str] = {}
        texts = self._texts
        private = self._private[lo:hi]
        # a row of card codes (1-based, < 256; at most 7 a row) as one integer
        if private.size and (private.min() < 0 or private.max() > 255 or private.shape[1] > 7):
            raise ValueError("private observations beyond 7 card codes below 256")
        codes = private @ (256 ** np.arange(private.shape[1], dtype=np.int64))
        uniq, first, inv = np.unique(codes, return_index=True, return_inverse=True)
        for code, i in zip(uniq.tolist(), first.tolist(), strict=True):
            if code not in texts:
                row = tuple(private[i].tolist())
                texts[code] = InfoSet(0, 0, 0, row, "", (), 0, False, self._suits).private_label
        seen = [texts[c] for c in uniq.tolist()]
        return [seen[i] for i in inv.tolist()]

    def runs(self, lo: int, hi: int) -> list[tuple[list[str], tuple[str, ...], int]]:
        """Infosets ``lo .. hi - 1`` in runs at one public node, each as (the labels,
        the node's actions, the first infoset's offset), made without the objects:
        what a profile file writes of each (writing the 3.9 M infosets of Rhode Island
        through the objects took minutes)."""
        node_of = self._node_of[lo:hi]
        cuts = (np.flatnonzero(np.diff(node_of)) + 1).tolist()
        privates = self._private_texts(lo, hi)
        out = []
        for s, e in zip([0, *cuts], [*cuts, hi - lo], strict=True):
            node = self._nodes[int(node_of[s])]
            pre, suf = make_label(node.actor, "\0", node.history).split("\0")
            out.append(([pre + x + suf for x in privates[s:e]], node.actions,
                        int(self._offset[lo + s])))  # fmt: skip
        return out

    def every_actions(self) -> list[tuple[str, ...]]:
        """Each infoset's actions (its node's), without the objects."""
        return [self._nodes[n].actions for n in self._node_of.tolist()]

    def labels(self, lo: int, hi: int) -> list[str]:
        """The labels of infosets ``lo .. hi - 1`` (each :attr:`InfoSet.label`), made
        without the objects (:meth:`runs`)."""
        return [x for labels, _, _ in self.runs(lo, hi) for x in labels]

    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        j = int(i) + (len(self) if int(i) < 0 else 0)
        if not 0 <= j < len(self):
            raise IndexError(f"infoset {i} out of range ({len(self)})")
        node = self._nodes[int(self._node_of[j])]
        return InfoSet(
            j,
            node.id,
            node.actor,
            tuple(int(x) for x in self._private[j]),
            node.history,
            node.actions,
            int(self._offset[j]),
            False,
            self._suits,
        )


def build_vector(spec: str, *, rank: bool = False, max_bytes: int | None = None) -> VectorGame:
    """The vector layout of a ``kuhn(...)``, ``holdem(...)``, ``mercer(...)`` or
    ``rhode_island(...)`` spec, built without a deal table.

    ``rank``: one hand per rank where :func:`~toypoker.engines.vectors.layout.rank_hands`
    applies (a rank deck with copies of each rank and at most three players, one hole
    card, or two or more for three players: ``H`` 52 -> 13 for one card of a full deck,
    190 -> 15 rank pairs on Mercer's; values and iterates equal to rounding), physical
    hands elsewhere; under weak collusion three players get rank hands on any rank
    deck (one copy a rank too), the fused kernel's dense terminal.

    A suited evaluator (Rhode Island's three-card hands) deals card identities: the
    public tree deals the canonical boards round by round
    (:func:`~toypoker.games.deals.canonical_boards`, as the row layout's builder) and
    an observation is the hole cards canonicalised jointly with the boards; with
    ``suit_isomorphism=false`` every board is its own.

    ``max_bytes``: the memory budget (default ``TOYPOKER_MAX_BYTES``); the layout is
    counted first and refused in one line over it, before anything is allocated.

    Raises
    ------
    ToypokerError
        One line naming why for other games and strong collusion (weak collusion is
        built: its payoff map); a :class:`~toypoker.errors.SpecError` over the budget.
    """
    info, p, coll = parse_game_spec(spec)
    canonical = format_spec(info.name, {**p, **coll})
    if coll.get("strong"):
        raise ToypokerError(
            f"build_vector: strong collusion (members see each other's cards) runs on "
            f"--layout rows ({canonical})"
        )
    shape, numeric, ante, evaluator, suits, merged = _family_rules(info.name, p, canonical)
    n = int(shape["n_players"])
    team = check_collusion(coll, n, False) if coll else None
    rounds = shape["rounds"]
    _check_budget(info.name, p, canonical, shape, rank, max_bytes)
    deck = limit_deck(n, list(shape["multiplicity"]), rounds, shape.get("hole_cards"), suits)
    mult = np.asarray(deck.cards, dtype=np.int64)  # physical cards of each table value
    hole = deck.hole
    board_sizes = [b for b in deck.boards if b]
    board_values = _board_values(mult, suits, merged, board_sizes)
    nodes, chips, n_depths = _public_nodes(deck, n, rounds, ante, numeric, board_values)
    privates = _privates(nodes, mult, hole, board_sizes, suits, merged)
    tree = _public_tree(canonical, {**p, **coll}, n, nodes, n_depths, chips, numeric)
    tree = _with_infosets(tree, privates, suits if merged else 0)
    vg = assemble(
        tree,  # type: ignore[arg-type]  (the game's public tree, before the game)
        hole,
        board_sizes,
        mult,
        suits if merged else 0,
        _strength_of(board_sizes, suits, evaluator),
    )
    if team is not None:  # weak collusion: the payoff map of games.team_transform.collude
        a = team_average(n, team.seats)
        vg = with_payoff(vg, (a, a if team.sharing == "win" else team_average(n, ())))
    dense = vg.payoff is not None  # collusion: rank hands give the fused dense kernel
    if rank and n <= 3 and (hole == 1 or n == 3) and not suits and (int(mult.max()) > 1 or dense):
        vg = rank_hands(vg)
    return Game(tree, OnVectors(vg)).engine_data.vectors  # type: ignore[attr-defined,no-any-return]


def _family_rules(
    name: str, p: Params, canonical: str
) -> tuple[dict[str, object], NumericParams, Fraction | Linear, Evaluator | None, int, bool]:
    """What the game family fixes before the tree is walked.

    Returns
    -------
    tuple
        The limit shape (:func:`toypoker.games.holdem.limit_shape` and its kin), the
        numeric parameters, the ante, the showdown evaluator (``None``: Kuhn's higher
        card), the suits dealt as card identities (0: ranks only) and whether boards
        are merged by suit isomorphism.

    Raises
    ------
    ToypokerError
        For a family :func:`~toypoker.engines.vectors.direct.build_vector` does not build.
    """
    suits = 0  # > 0: card identities (a suited evaluator)
    merged = False
    if name == "kuhn":
        shape = kuhn.limit_shape(p)
        numeric = kuhn.numeric(p)
        ante: Fraction | Linear = Linear.coordinate(0, 2)  # as kuhn.build
        evaluator = None
    elif name in ("holdem", "rhode_island"):
        hp = p if name == "holdem" else rhode_island.holdem_params(p)
        shape = holdem.limit_shape(hp)
        numeric = NumericParams()
        ante = Fraction(hp["ante"])
        evaluator = EVALUATORS[hp["evaluator"]]
        dealt = hp["hole"] + sum(hp.get(f"board{i}", 0) for i in range(2, hp["rounds"] + 1))
        if evaluator.suited(dealt):
            suits = int(hp["suits"])
            merged = suits > 1 and hp.get("suit_isomorphism") is not False
    elif name == "mercer":
        shape = mercer.limit_shape(p)
        numeric = NumericParams()
        ante = mercer.ANTE
        evaluator = EVALUATORS["ullman4"]
    else:
        raise ToypokerError(
            "build_vector: only kuhn, holdem, mercer and rhode_island are supported yet "
            f"({canonical})"
        )
    return shape, numeric, ante, evaluator, suits, merged


def _check_budget(
    name: str, p: Params, canonical: str, shape: dict[str, object], rank: bool,
    max_bytes: int | None,
) -> None:  # fmt: skip
    """Refuse a layout over the memory budget ``max_bytes``, counted before anything
    is allocated (collusion counts as the same tree and hands).

    Raises
    ------
    SpecError
        Over the budget, or a hold'em family game with too many boards to count.
    """
    counted = count_layout(format_spec(name, p))  # collusion: the same tree and hands
    if counted is not None:
        if not rank:  # physical hands: any hole cards from the whole deck
            cards = int(sum(shape["multiplicity"]))  # type: ignore[call-overload]
            hole_cards = int(shape.get("hole_cards") or 1)  # type: ignore[call-overload]
            counted = dataclasses.replace(counted, hands=math.comb(cards, hole_cards))
        check_vector_size(canonical, counted, max_bytes, rank=rank)
    elif name in ("holdem", "rhode_island"):  # not counted: never built blind
        # more boards at one depth than are counted (a 52-card, two-hole-card, three-round
        # hold'em): refused before anything is allocated
        raise SpecError(
            f"{canonical if len(canonical) <= 60 else name + '(...)'}: too large for the "
            f"vector layout: more than {MAX_BOARDS:,} boards at one depth, too many to count "
            "before building (a smaller deck, fewer board cards or fewer rounds)"
        )


def _board_values(
    mult: np.ndarray, suits: int, merged: bool, board_sizes: list[int]
) -> Callable[[tuple[int, ...], tuple[int, ...]], list[tuple[int, ...]]]:
    """The boards a chance node deals, as a function of its columns and the cards
    ``shown`` before it (cached per ``shown``): the canonical boards when ``merged``,
    else every rank multiset the deck still holds."""
    seen: dict[tuple[int, ...], list[tuple[int, ...]]] = {}

    def board_values(cols: tuple[int, ...], shown: tuple[int, ...]) -> list[tuple[int, ...]]:
        if shown not in seen:
            if merged:
                sizes = _split(shown, board_sizes)
                seen[shown] = canonical_boards(len(mult), suits, sizes, shown, len(cols))
            else:
                left = mult - np.bincount(np.asarray(shown, dtype=np.int64), minlength=len(mult))
                seqs, counts = group_options(list(mult), len(cols))
                seen[shown] = [
                    tuple(int(x) for x in s)
                    for s, c in zip(seqs, counts, strict=True)
                    if (c <= left).all()
                ]
        return seen[shown]

    return board_values


def _public_nodes(
    deck: Deck, n: int, rounds: object, ante: Fraction | Linear, numeric: NumericParams,
    board_values: Callable[[tuple[int, ...], tuple[int, ...]], list[tuple[int, ...]]],
) -> tuple[tuple[Node, ...], tuple[tuple[Linear, ...] | None, ...], int]:  # fmt: skip
    """The compiled public nodes, their chips and the number of depths: the limit
    betting walked once under the first board of each chance node (a template), then
    copied under every board (:func:`~toypoker.engines.vectors.direct._expand`)."""
    raw: list[RawNode] = []

    def add(node: RawNode) -> int:
        raw.append(node)
        return len(raw) - 1

    template_root = betting_tree(
        n,
        rounds,
        ante,
        None,
        numeric,
        deck.board_slots(),
        lambda cols, shown: board_values(cols, shown)[:1],
        add,
        deck.show,
    )
    raw, root = _expand(raw, template_root, board_values, deck.show)
    nodes, _, chips, n_depths = compile_nodes(raw, root)  # as the deal table's game
    return nodes, chips, n_depths


def _privates(
    nodes: Sequence[Node], mult: np.ndarray, hole: int, board_sizes: list[int], suits: int,
    merged: bool,
) -> dict[int, np.ndarray]:  # fmt: skip
    """The private observations at each decision node: the sorted observations
    (``(k, hole)``, 1-based) of the hands avoiding the node's board, one array shared
    by the nodes of a board; canonicalised jointly with the board when ``merged``."""
    card_value = np.repeat(np.arange(len(mult)), mult)
    hands = np.array(list(itertools.combinations(range(len(card_value)), hole)))
    privates: dict[int, np.ndarray] = {}
    by_board: dict[tuple[int, ...], np.ndarray] = {}
    for node in nodes:
        if node.kind == "decision":
            if node.board not in by_board:
                used = np.bincount(np.asarray(node.board, dtype=np.int64), minlength=len(mult))
                if merged:
                    ok = (mult[card_value[hands]] - used[card_value[hands]] > 0).all(axis=1)
                    groups = tuple(_groups(node.board, board_sizes))
                    obs = sorted(set(_private(hands[ok], card_value, groups, suits)))
                else:
                    private = sorted(
                        {tuple(int(x) + 1 for x in r) for r in np.sort(card_value[hands], axis=1)}
                    )
                    obs = [o for o in private if _fits(o, mult - used)]
                by_board[node.board] = np.array(obs, dtype=np.int64).reshape(len(obs), hole)
            privates[node.id] = by_board[node.board]
    return privates


def _strength_of(board_sizes: list[int], suits: int, evaluator: Evaluator | None) -> StrengthOf:
    """The showdown strengths function :func:`~toypoker.engines.vectors.layout.assemble`
    reads: per full board, each hand's strength under ``evaluator`` (``None``: the
    higher card wins), 0 where the board is not full or meets the hand."""

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
            # hands meeting the board never show down there (an evaluator may refuse them)
            ok = ~np.isin(hands_, list(cards)).any(axis=1) if suits else np.ones(len(values), bool)
            board = np.tile(card_value_[list(cards)], (int(ok.sum()), 1)).reshape(int(ok.sum()), -1)
            if evaluator is None:  # Kuhn: the higher card wins
                out[b, ok] = EVALUATORS["high_card"].strength(values[ok], board, 0)
            else:
                out[b, ok] = evaluator.strength(values[ok], board, suits)
        return out

    return strength_of


def _public_tree(
    spec: str, params: dict[str, object], n: int, nodes: tuple[Node, ...], n_depths: int,
    chips: tuple[tuple[Linear, ...] | None, ...], numeric: NumericParams,
) -> dict[str, object]:  # fmt: skip
    """The fields of the game's public tree but its infosets."""
    return {
        "spec": spec,
        "name": spec.split("(", 1)[0],
        "params": MappingProxyType(params),
        "n_players": n,
        "nodes": nodes,
        "n_depths": n_depths,
        "numeric": numeric,  # what Game.at re-assigns (pot and ante: one coordinate)
        "numeric_params": tuple(name for name, _, _ in numeric.names),
        "_chips": chips,
        "_canonical_label": None,  # labels as the game writes them
    }


def _with_infosets(fields: dict[str, object], privates: dict[int, np.ndarray], suits: int
                   ) -> PublicTree:  # fmt: skip
    """The public tree with its infosets: at each decision node its actor's sorted
    private observations (``privates[node]``: ``(k, hole)`` 1-based, one array shared
    by the nodes of a board); ``suits`` > 0: card codes + 1 of a suit-isomorphic game.
    No restrictions."""
    nodes: tuple[Node, ...] = fields["nodes"]  # type: ignore[assignment]
    dec = [nd.id for nd in nodes if nd.kind == "decision"]
    counts = np.array([len(privates[i]) for i in dec], dtype=np.int64)
    n_act = np.array([len(nodes[i].actions) for i in dec], dtype=np.int64)
    per = np.repeat(n_act, counts)
    player = np.repeat(np.array([nodes[i].actor for i in dec], dtype=np.int64), counts)
    tables = infoset_tables(player, per)
    n_infosets, n_sigma = tables["n_infosets"], tables["n_sigma"]
    return PublicTree(
        **fields,
        **tables,
        infosets=InfoSets(nodes, privates, per, suits),
        label_suits=suits,
        sigma_fixed=np.zeros(n_sigma, dtype=bool),  # type: ignore[call-overload]
        fixed_values=np.zeros(n_sigma),  # type: ignore[call-overload]
        _fixed_exact={},
        infoset_restricted=np.zeros(n_infosets, dtype=bool),  # type: ignore[call-overload]
    )


def _expand(
    template: list[RawNode],
    root: int,
    board_values: Callable[[tuple[int, ...], tuple[int, ...]], list[tuple[int, ...]]],
    show: Callable[[Sequence[int]], str],
) -> tuple[list[RawNode], int]:
    """The public tree from a template whose chance nodes deal one board each: every
    chance node's subtree copied under each of its boards, histories and boards
    rewritten (the nodes' chips, actors and actions are shared: they do not depend on
    the board in limit betting).  Returns the nodes and the root's id."""
    out: list[RawNode] = []

    def copy(t: int, cut: int, prefix: str, board: tuple[int, ...]) -> int:
        node = template[t]
        history = prefix + node.history[cut:]
        new = RawNode(
            node.kind, node.actor, node.actions, [], node.committed, node.live, history,
            node.round, board, node.reveal, [], node.chips,
        )  # fmt: skip
        i = len(out)
        out.append(new)
        if node.kind == "chance":
            (child,) = node.children
            (stand_in,) = node.child_values
            old_cut = len(node.history) + len(f"/[{show(stand_in)}]")
            for v in board_values(node.reveal, board):
                new.children.append(copy(child, old_cut, f"{history}/[{show(v)}]", board + v))
                new.child_values.append(v)
        else:
            new.children = [copy(c, cut, prefix, board) for c in node.children]
        return i

    return out, copy(root, 0, "", ())


def _split(shown: tuple[int, ...], sizes: list[int]) -> list[int]:
    """The sizes of the boards making up the cards ``shown`` (a prefix of ``sizes``)."""
    out, total = [], 0
    for s in sizes:
        if total == len(shown):
            break
        out.append(s)
        total += s
    return out


def _groups(board: tuple[int, ...], sizes: list[int]) -> list[tuple[int, ...]]:
    """The flat board cut into its rounds' boards."""
    out, col = [], 0
    for s in _split(board, sizes):
        out.append(tuple(board[col : col + s]))
        col += s
    return out


def _fits(private: Sequence[int], left: np.ndarray) -> bool:
    """Whether a hand of these (1-based) ranks can be held with ``left`` cards a rank."""
    need = np.bincount(np.asarray(private, dtype=np.int64) - 1, minlength=len(left))
    return bool((need <= left).all())
