"""The compiled game: a public betting tree over a table of deals.

See the README's "How it works".  A builder (``toypoker.games``) produces a
:class:`GameDefinition` -- the deal table and the public tree -- and
:class:`Game` compiles it once into flat arrays that every evaluator and
solver reads:

* a **row** is a pair (public node, deal) that chance and betting can reach;
  rows are ordered by depth, then node, then deal, so a depth is a slice;
* ``parent_row[r]`` and ``edge_sigma[r]`` (the flat strategy index of the
  action leading to ``r``, ``-1`` after a chance node) let one gather and one
  ``bincount`` per depth do a whole forward or backward pass;
* an **information set** is (decision node, private observation of its actor);
  a profile is one flat vector of action probabilities with per-infoset
  offsets.

Terminal payoffs are ``u[p] = share[p] * pot - committed[p]`` with ties split.

**Games carry their parameters.**  The builder records the chips each player
has committed at every public node as an affine form (:class:`Linear`) in the
game's numeric parameters (ante, bet, pot; :class:`NumericParams`), so the
payoffs are affine in them too: :meth:`Game.at` gives the same game at other
values without recompiling (the deal table, tree, rows and infosets are
shared) and :meth:`Game.payoff_slope` the exact derivative of the payoffs.

A :class:`Game` is immutable: its attributes cannot be rebound and its arrays
are read-only.

The compiler is one pass that builds rows, infosets and terminals in an order
each step relies on, so it stays here; what reads its finished arrays lives
beside it: who wins at each terminal row and the payoffs from the chips in
:mod:`toypoker.payoffs`, rows grouped by deal (:class:`~toypoker.blocks.DealBlocks`) in
:mod:`toypoker.blocks`, the suit-relabelled infoset labels in
:func:`toypoker.definition.suit_canonical_label`, the infosets of each decision node
and their flat tables in :mod:`toypoker.infosets`.
Game floor: imports only the definition, its neighbours and the ground.
"""

from __future__ import annotations

import dataclasses
import math
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from types import MappingProxyType
from typing import TypeVar

import numpy as np

from toypoker.checks import shown
from toypoker.definition import (
    ACTION_NAMES,
    IDX,
    GameDefinition,
    InfoSet,
    Linear,
    Node,
    NumericParams,
    RawNode,
    key_label,
    make_label,
    suit_canonical,
    suit_canonical_label,
)
from toypoker.errors import ProfileError, ToypokerError
from toypoker.identity import Identity
from toypoker.infosets import decision_infosets, depth_tables, padded_actions, representative_rows
from toypoker.payoffs import compile_terminals, payoffs, payoffs_exact
from toypoker.spec import format_spec

T = TypeVar("T")

__all__ = [
    "ACTION_NAMES",
    "Game",
    "GameDefinition",
    "InfoSet",
    "Linear",
    "Node",
    "NumericParams",
    "RawNode",
    "make_label",
    "check_game",
]


class Game(Identity):
    """A compiled poker game.  Immutable: attributes cannot be rebound, arrays are read-only.

    The arrays below are shaped by ``R`` rows, ``D`` deals and ``A`` flat actions.

    Attributes
    ----------
    weights : (D,) float64 deal probabilities (exact: ``weight_num/weight_den``)
    obs : (n, D) int  private observation index of each player in each deal
    row_node, row_deal : (R,) int
    parent_row, edge_sigma : (R,) int  (``-1`` at the root; ``edge_sigma`` is
        ``-1`` for rows reached through a chance node)
    row_actor : (R,) int  actor of the row's node (-1 chance/terminal)
    depth_start : (depths+1,) int  rows of depth t are ``depth_start[t]:depth_start[t+1]``
    term_rows : (T,) int, term_u : (n, T) float64 payoffs at terminal rows

    Numeric parameters: ``numeric_params`` (e.g. ``("ante", "bet", "pot")``);
    :meth:`at` gives the game at other values without recompiling and
    :meth:`payoff_slope` the derivative of ``term_u`` in one of them.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=3,cards=4)")
    >>> g.n_players, g.n_infosets, g.layout
    (3, 48, 'rows')
    >>> g.infosets[0].label
    'P1:1:'
    """

    def __init__(self, definition: GameDefinition, spec: str):
        self.definition = definition
        self.spec = spec
        self.name = definition.name
        self.params: Mapping[str, object] = MappingProxyType(dict(definition.params))
        self.n_players = definition.n_players
        d = definition
        self.cards = d.cards
        self.n_deals = len(d.cards)
        self.weight_num = d.weight_num
        self.weight_den = d.weight_den
        self.weights = d.weight_num.astype(np.float64) / float(d.weight_den)
        self._compile_nodes()
        self._compile_observations()
        self._compile_rows()
        self._compile_infosets()
        self._compile_terminals()
        self._compile_restrictions()
        self.numeric_params: tuple[str, ...] = tuple(n for n, _, _ in definition.numeric.names)
        self._derived: dict[object, object] = {}
        self._freeze()

    def _freeze(self) -> None:
        for v in self.__dict__.values():
            if isinstance(v, np.ndarray):
                v.flags.writeable = False
        self.__dict__["_frozen"] = True

    def __setattr__(self, name: str, value: object) -> None:
        if self.__dict__.get("_frozen"):
            raise AttributeError(f"a compiled Game is immutable (cannot set {name!r})")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a compiled Game is immutable (cannot delete {name!r})")

    # ------------------------------------------------------------------ compile
    def _compile_nodes(self) -> None:
        raw = self.definition.nodes
        order: list[int] = []
        depth_of: dict[int, int] = {self.definition.root: 0}
        parent_of: dict[int, int] = {self.definition.root: -1}
        queue = deque([self.definition.root])
        while queue:
            i = queue.popleft()
            order.append(i)
            for c in raw[i].children:
                depth_of[c] = depth_of[i] + 1
                parent_of[c] = i
                queue.append(c)
        new_id = {old: k for k, old in enumerate(order)}
        nodes = []
        for old in order:
            r = raw[old]
            nodes.append(
                Node(
                    id=new_id[old],
                    kind=r.kind,
                    actor=r.actor,
                    actions=r.actions,
                    children=tuple(new_id[c] for c in r.children),
                    parent=new_id[parent_of[old]] if parent_of[old] >= 0 else -1,
                    depth=depth_of[old],
                    committed=r.committed,
                    live=r.live,
                    history=r.history,
                    board=r.board,
                )
            )
        self.nodes: tuple[Node, ...] = tuple(nodes)
        self._raw_order = order
        # the committed chips of each compiled node as affine forms (None: constants)
        self._chips: tuple[tuple[Linear, ...] | None, ...] = tuple(raw[old].chips for old in order)
        self.n_depths = max(n.depth for n in nodes) + 1

    def _compile_observations(self) -> None:
        d = self.definition
        # per round (suit-isomorphic games only): (n, D) observations at nodes of round r
        self.obs_round: tuple[np.ndarray, ...] | None = None
        if d.suits:
            self._compile_suit_observations()
            return
        self.obs = np.empty((self.n_players, self.n_deals), dtype=np.int64)
        self.obs_private: list[list[tuple[int, ...]]] = []
        for p in range(self.n_players):
            groups = (d.hole_slots[p],) if d.hole_groups is None else d.hole_groups[p]
            hole = np.concatenate([np.sort(d.cards[:, list(g)], axis=1) for g in groups], axis=1)
            if hole.shape[1] == 1:  # one card: the rank is the observation
                present = np.zeros(d.n_ranks, dtype=bool)
                present[hole[:, 0]] = True
                uniq = np.nonzero(present)[0][:, None]
                self.obs[p] = (np.cumsum(present) - 1)[hole[:, 0]]
            else:
                uniq, inv = np.unique(hole, axis=0, return_inverse=True)
                self.obs[p] = inv.reshape(-1)
            self.obs_private.append([tuple(int(x) + 1 for x in row) for row in uniq])

    def _compile_suit_observations(self) -> None:
        """Observations of a suit-isomorphic table (``GameDefinition.suits``): at round
        ``r`` a player sees her hole cards and the boards of rounds ``<= r``; the pair is
        canonicalised jointly (one suit permutation for both, :func:`suit_canonical`),
        boards first.  The canonical boards are the row's own (the builder's
        representatives), so the canonical hole cards -- written in the frame of the
        boards the public node shows -- identify the observation at that node."""
        d = self.definition
        assert d.board_slots is not None
        n, rounds = self.n_players, len(d.board_slots)
        holes: list[list[np.ndarray]] = [[] for _ in range(n)]
        for r in range(rounds):
            boards = [tuple(b) for b in d.board_slots[: r + 1] if len(b)]
            width = sum(len(b) for b in boards)
            shown = self.cards[:, [c for b in boards for c in b]]
            for p in range(n):
                own = (d.hole_slots[p],) if d.hole_groups is None else d.hole_groups[p]
                canon = suit_canonical(self.cards, [*boards, *own], d.suits)
                if not np.array_equal(canon[:, :width], shown):
                    raise ValueError("suit-isomorphic deal table: boards not canonical")
                holes[p].append(canon[:, width:])
        self.obs_private = []
        obs_round = np.empty((rounds, n, self.n_deals), dtype=np.int64)
        for p in range(n):
            stacked = np.concatenate(holes[p], axis=0)
            uniq, inv = np.unique(stacked, axis=0, return_inverse=True)
            obs_round[:, p, :] = inv.reshape(rounds, self.n_deals)
            self.obs_private.append([tuple(int(x) + 1 for x in row) for row in uniq])
        self.obs_round = tuple(obs_round)
        # ``obs``: the first round's (hole cards alone, up to the suits)
        self.obs = obs_round[0].copy()

    def _compile_rows(self) -> None:
        raw = self.definition.nodes
        nn = len(self.nodes)
        deals: list[np.ndarray] = [np.empty(0, dtype=IDX)] * nn
        deals[0] = np.arange(self.n_deals, dtype=IDX)
        parent_pos: list[np.ndarray | None] = [None] * nn  # positions within parent's deals
        for node in self.nodes:
            s = deals[node.id]
            if node.kind == "decision":
                for c in node.children:
                    deals[c] = s
                    parent_pos[c] = None  # identity
            elif node.kind == "chance":
                r = raw[self._raw_order[node.id]]
                shown = self.cards[np.ix_(s, list(r.reveal))]
                for c, v in zip(node.children, r.child_values, strict=True):
                    pos = np.nonzero(np.all(shown == np.asarray(v), axis=1))[0]
                    deals[c] = s[pos]
                    parent_pos[c] = pos
        sizes = np.array([len(x) for x in deals], dtype=np.int64)
        self.node_row_start = np.concatenate([[0], np.cumsum(sizes)])
        self.node_deals = deals
        self.n_rows = int(self.node_row_start[-1])
        self.row_deal = np.concatenate(deals)
        self.row_node = np.repeat(np.arange(nn, dtype=IDX), sizes)
        # every row but the root's is written below; the root's stay -1
        parent_row = np.empty(self.n_rows, dtype=IDX)
        parent_row[: sizes[0]] = -1
        edge_action = np.empty(self.n_rows, dtype=IDX)
        edge_action[: sizes[0]] = -1
        for node in self.nodes:
            if node.parent < 0:
                continue
            a, b = self.node_row_start[node.id], self.node_row_start[node.id + 1]
            pstart = self.node_row_start[node.parent]
            pos = parent_pos[node.id]
            parent_row[a:b] = pstart + (np.arange(b - a) if pos is None else pos)
            par = self.nodes[node.parent]
            edge_action[a:b] = par.children.index(node.id) if par.kind == "decision" else -1
        self.parent_row = parent_row
        self._edge_action = edge_action
        depth = np.array([n.depth for n in self.nodes], dtype=np.int64)
        starts = [0]
        for t in range(self.n_depths):
            last = max(i for i in range(nn) if depth[i] == t)
            starts.append(int(self.node_row_start[last + 1]))
        self.depth_start = np.array(starts, dtype=np.int64)
        self.row_actor = np.array([n.actor for n in self.nodes], dtype=IDX)[self.row_node]

    def _compile_infosets(self) -> None:
        raw = self.definition.nodes
        rounds = [raw[old].round for old in self._raw_order]
        infosets, row_infoset, offset = decision_infosets(
            self.nodes, self.node_row_start, self.node_deals, self.obs, self.obs_round, rounds,
            self.obs_private, self.definition.suits, self.n_rows,
        )  # fmt: skip
        self.infosets: tuple[InfoSet, ...] = tuple(infosets)
        self.n_infosets = len(infosets)
        self.n_sigma = offset
        self.row_infoset = row_infoset
        self.infoset_offset = np.array([i.offset for i in infosets] + [offset], dtype=np.int64)
        self.infoset_player = np.array([i.player for i in infosets], dtype=np.int64)
        self.infoset_n_actions = np.diff(self.infoset_offset)
        self.sigma_infoset = np.repeat(np.arange(self.n_infosets), self.infoset_n_actions)
        self.sigma_player = self.infoset_player[self.sigma_infoset]
        edge_sigma = np.full(self.n_rows, -1, dtype=IDX)
        has = self._edge_action >= 0
        edge_sigma[has] = (
            self.infoset_offset[row_infoset[self.parent_row[has]]] + self._edge_action[has]
        )
        self.edge_sigma = edge_sigma
        self.infoset_rep_row = representative_rows(row_infoset, self.n_infosets)
        self.infoset_actions_padded = padded_actions(self.infoset_offset, self.infoset_n_actions)
        self._label_index = {i.label: i.index for i in infosets}
        # per depth t: the action edges into depth t, split by the acting player
        # (local indices within the depth slice), and the infosets decided there
        self.depth_player_edges, self.depth_player_infosets = depth_tables(
            self.nodes, infosets, self.depth_start, edge_sigma,
            self.row_actor[self.parent_row.clip(0)], self.infoset_player, self.n_players,
        )  # fmt: skip

    def _compile_terminals(self) -> None:
        term_nodes = [nd for nd in self.nodes if nd.kind == "terminal"]
        self._terminals = compile_terminals(
            term_nodes, self.node_row_start, self.node_deals, self.definition.strength
        )
        self.term_rows = self._terminals.rows
        self._term_nodes = term_nodes
        self.n_terminals = len(term_nodes)
        self.term_u = self._payoffs([nd.committed for nd in term_nodes])
        self.row_is_terminal = np.zeros(self.n_rows, dtype=bool)
        self.row_is_terminal[self.term_rows] = True

    def _payoffs(self, committed: Sequence[Sequence[Fraction]]) -> np.ndarray:
        """Float payoffs at the terminal rows given each terminal node's chips
        (:func:`toypoker.payoffs.payoffs`)."""
        return payoffs(self._terminals, self.definition, committed)

    def _payoffs_exact(self, committed: Sequence[Sequence[Fraction]]) -> np.ndarray:
        """:meth:`_payoffs` in exact rationals (:func:`toypoker.payoffs.payoffs_exact`:
        rows with the same winners at a node share their payoff objects)."""
        return payoffs_exact(self._terminals, self.definition, committed)

    def _compile_restrictions(self) -> None:
        fixed = np.zeros(self.n_sigma, dtype=bool)
        fixed_exact: dict[int, Fraction] = {}
        restricted = set()
        for player, private, history, probs in self.definition.restrictions:
            label = make_label(player, "-".join(str(r) for r in private), history)
            idx = self._label_index.get(label)
            if idx is None:
                continue  # that card never reaches that node
            info = self.infosets[idx]
            if set(probs) != set(info.actions) or sum(probs.values()) != 1:
                raise ValueError(f"bad restriction at {label}: {probs}")
            for k, a in enumerate(info.actions):
                fixed[info.offset + k] = True
                fixed_exact[info.offset + k] = Fraction(probs[a])
            restricted.add(idx)
        if restricted:
            self.infosets = tuple(
                InfoSet(**{**i.__dict__, "restricted": i.index in restricted})
                for i in self.infosets
            )
        self.sigma_fixed = fixed
        self._fixed_exact = fixed_exact
        self.fixed_values = np.zeros(self.n_sigma)
        for k, v in fixed_exact.items():
            self.fixed_values[k] = float(v)
        self.infoset_restricted = np.array([i.restricted for i in self.infosets], dtype=bool)

    # ---------------------------------------------------------------- exact data
    @cached_property
    def weights_exact(self) -> np.ndarray:
        """Deal probabilities as an object array of :class:`Fraction`."""
        den = self.weight_den
        w = np.array([Fraction(int(x), den) for x in self.weight_num], dtype=object)
        w.flags.writeable = False
        return w

    @cached_property
    def term_u_exact(self) -> np.ndarray:
        """Terminal payoffs as exact rationals, shape ``(n, T)``."""
        u = self._payoffs_exact([nd.committed for nd in self._term_nodes])
        u.flags.writeable = False
        return u

    def derived(self, factory: Callable[[Game], T]) -> T:
        """A structure derived from the compiled arrays, built once per game.

        ``game.derived(Factory)`` returns ``Factory(game)``, built on first use and
        kept with the game (keyed by the factory itself, so the result is typed as
        the factory's return type).  Solvers keep their precomputed edge lists and
        kernel arrays here.  :meth:`at` starts a fresh cache (such structures may
        copy the payoffs).
        """
        cache = self._derived
        if factory not in cache:
            cache[factory] = factory(self)
        return cache[factory]  # type: ignore[return-value]

    def free_mask(self, player: int | None = None) -> np.ndarray:
        """Boolean mask over the flat actions that are free (not restricted), optionally
        only ``player``'s: what solvers update and best responses may change."""
        mask = ~self.sigma_fixed
        if player is not None:
            mask = mask & (self.sigma_player == player)
        return mask

    # ------------------------------------------------------- numeric parameters
    def at(self, **values: object) -> Game:
        """The same game at other values of its numeric parameters, without recompiling.

        The deals, public tree, rows, infosets and restrictions are shared; the
        chips committed at each node are re-evaluated from their affine forms, so
        ``term_u`` (and ``term_u_exact``) equal those of ``load_game`` at the new
        values exactly.  For Kuhn poker ``pot`` and ``ante`` are one coordinate
        (``pot = n * ante``): ``at(pot=P)`` on a game given with ``ante`` works and
        the spec then names the pot.

        Parameters
        ----------
        **values
            Numeric parameters (see :attr:`numeric_params`) and their new values:
            ints, Fractions, finite floats (read as written: ``0.1`` is ``1/10``) or
            strings such as ``"3/2"``.

        Returns
        -------
        Game
            The game at those values (``.spec`` and ``.params`` updated).

        Raises
        ------
        ToypokerError
            For a parameter the payoffs are not affine in, or an invalid value
            (checked as :func:`toypoker.games.load_rows` checks it, e.g. pot > 0).

        Examples
        --------
        >>> from toypoker import load_game
        >>> g = load_game("kuhn(players=3)")
        >>> g.at(pot=6).spec
        'kuhn(players=3,cards=4,bet=1,pot=6)'
        """
        if not values:
            return self
        if self.layout == "vector":  # built again at the new values, on its layout
            return self._at_by_spec(values)
        num = self.definition.numeric
        x, params = num.assign(self.name, self.params, values)
        if self.definition.validate is not None:
            params = self.definition.validate(params)
        new_num = dataclasses.replace(num, values=x)
        chips = self.__dict__["_chips"]
        nodes = tuple(
            nd if c is None else dataclasses.replace(nd, committed=tuple(f.at(x) for f in c))
            for nd, c in zip(self.nodes, chips, strict=True)
        )
        definition = dataclasses.replace(
            self.definition,
            params=dict(params),
            numeric=new_num,
            nodes=[
                r
                if r.chips is None
                else dataclasses.replace(r, committed=tuple(f.at(x) for f in r.chips))
                for r in self.definition.nodes
            ],
        )
        term_nodes = [nodes[nd.id] for nd in self._term_nodes]
        keep = {
            k: v
            for k, v in self.__dict__.items()
            if k not in ("term_u_exact", "_derived", "_frozen", "_vector")
        }
        new = object.__new__(Game)
        new.__dict__.update(keep)
        new.__dict__.update(
            definition=definition,
            spec=format_spec(self.name, params),
            params=MappingProxyType(dict(params)),
            nodes=nodes,
            _term_nodes=term_nodes,
            _derived={},
        )
        new.__dict__["term_u"] = new._payoffs([nd.committed for nd in term_nodes])
        new._freeze()
        return new

    def payoff_slope(self, name: str, exact: bool = False) -> np.ndarray:
        """``d term_u / d name``: the payoffs' derivative in a numeric parameter.

        Parameters
        ----------
        name
            One of :attr:`numeric_params` (the others held fixed; for Kuhn poker
            ``pot`` and ``ante`` move together, ``pot = n * ante``).
        exact
            Return an object array of :class:`Fraction` instead of float64.

        Returns
        -------
        numpy.ndarray
            Shape ``(n_players, n_terminal_rows)``, like ``term_u``: payoffs are
            affine, so ``game.at(name=v).term_u = term_u + (v - v0) * slope``.
        """
        j, scale = self.definition.numeric.find(self.name, name)
        chips = self.__dict__["_chips"]
        coef = [tuple(f.coef[j] / scale for f in chips[nd.id]) for nd in self._term_nodes]
        out = self._payoffs_exact(coef) if exact else self._payoffs(coef)
        out.flags.writeable = False
        return out

    @property
    def fixed_values_exact(self) -> dict[int, Fraction]:
        """``{sigma index: exact probability}`` of the restricted actions (a copy)."""
        return dict(self._fixed_exact)

    # ------------------------------------------------------------------ lookups
    def infoset(self, key: str | tuple) -> InfoSet:
        """Find an infoset by label (``"P2:3:kb"``) or ``(player, private, history)``.

        ``player`` is 0-based; ``private`` an int rank, a tuple of ranks or a
        string like ``"3"``.
        """
        label = key_label(key)
        idx = self._label_index.get(label)
        if idx is None and self.definition.suits:
            idx = self._label_index.get(suit_canonical_label(self.definition, label) or "")
        if idx is None:
            raise ProfileError(f"unknown infoset {label!r} in game {self.spec}")
        return self.infosets[idx]

    def has_infoset(self, key: str | tuple) -> bool:
        """Whether the game has that infoset (keys as for :meth:`infoset`)."""
        label = key_label(key)
        if label in self._label_index:
            return True
        return bool(self.definition.suits) and (
            suit_canonical_label(self.definition, label) in self._label_index
        )

    def infosets_of(self, player: int) -> list[InfoSet]:
        """``player``'s infosets (0-based player), in the game's order."""
        return [i for i in self.infosets if i.player == player]

    def summary(self) -> dict[str, object]:
        """Sizes of the compiled game (``toypoker info``)."""
        return {
            "spec": self.spec,
            "players": self.n_players,
            "deals": self.n_deals,
            "public_nodes": len(self.nodes),
            "decision_nodes": sum(1 for n in self.nodes if n.kind == "decision"),
            "chance_nodes": sum(1 for n in self.nodes if n.kind == "chance"),
            "terminal_nodes": self.n_terminals,
            "infosets": self.n_infosets,
            "restricted_infosets": int(self.infoset_restricted.sum()),
            "infosets_per_player": [
                int((self.infoset_player == p).sum()) for p in range(self.n_players)
            ],
            "sequences": self.n_sigma,
            "rows": self.n_rows,
            "terminal_histories": int(len(self.term_rows)),
            **self._suit_summary(),
        }

    def _suit_summary(self) -> dict[str, object]:
        d = self.definition
        if not d.suits:
            return {}
        n_cards = d.n_ranks  # card codes: the whole deck, ranks x suits
        groups = [len(h) for h in d.hole_slots] + [len(b) for b in d.board_slots or () if len(b)]
        full = math.perm(n_cards, sum(groups)) // math.prod(math.factorial(g) for g in groups)
        return {"suit_isomorphism": True, "deals_without_suit_isomorphism": full}


def check_game(value: object, name: str = "game") -> Game:
    """``value`` itself if it is a compiled :class:`Game`.

    Raises
    ------
    ToypokerError
        Otherwise, with a hint to :func:`toypoker.load_game`.
    """
    if not isinstance(value, Game):
        raise ToypokerError(
            f"{name} must be a compiled game (toypoker.load_game(spec)), not {shown(value)}"
        )
    return value
