"""The deal table: the rows engine's data, compiled beside the public tree.

:func:`compile_game` compiles a :class:`~toypoker.definition.GameDefinition` (the
builders' output, :mod:`toypoker.games`) into a :class:`~toypoker.game.Game` on the
deal table: the public tree (:func:`toypoker.game.compile_nodes`), the observations
and rows of a :class:`DealTable`, the infosets read from the rows, then the rest of
the table:

* a **row** is a pair (public node, deal) that chance and betting can reach; rows are
  ordered by depth, then node, then deal, so a depth is a slice;
* ``parent_row[r]`` and ``edge_sigma[r]`` (the flat strategy index of the action
  leading to ``r``, ``-1`` after a chance node) let one gather and one ``bincount``
  per depth do a whole forward or backward pass;
* terminal payoffs ``u[p] = share[p] * pot - committed[p]`` with ties split
  (:mod:`toypoker.payoffs`), affine in the game's numeric parameters, so
  :meth:`toypoker.game.Game.at` re-evaluates them without recompiling
  (:meth:`OnRows.at`: every other array shared).

:class:`OnRows` is what a game on the deal table holds as its engine's data.  The
kernels of :mod:`toypoker.engines.rows` read these arrays once, when they prepare.
Game floor (beside :mod:`toypoker.game`; :func:`toypoker.games.load_rows` compiles here).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cached_property, partial
from types import MappingProxyType

import numpy as np

from toypoker.definition import (
    IDX,
    GameDefinition,
    Linear,
    Node,
    suit_canonical,
    suit_canonical_label,
)
from toypoker.game import Game, PublicTree, compile_nodes, infoset_tables, restricted
from toypoker.infosets import decision_infosets, depth_tables, representative_rows
from toypoker.payoffs import compile_terminals, payoffs, payoffs_exact
from toypoker.spec import format_spec

__all__ = ["DealTable", "OnRows", "compile_game"]


class DealTable:
    """The deal table of a game: its deals, observations, rows and terminal payoffs.
    Immutable: attributes cannot be rebound, arrays are read-only.

    The arrays below are shaped by ``R`` rows, ``D`` deals and ``T`` terminal rows.

    Attributes
    ----------
    definition : the :class:`~toypoker.definition.GameDefinition` compiled
    weights : (D,) float64 deal probabilities (exact: ``weight_num/weight_den``)
    obs : (n, D) int  private observation index of each player in each deal
    row_node, row_deal : (R,) int
    parent_row, edge_sigma : (R,) int  (``-1`` at the root; ``edge_sigma`` is
        ``-1`` for rows reached through a chance node)
    row_actor : (R,) int  actor of the row's node (-1 chance/terminal)
    row_infoset : (R,) int  infoset of the row (-1 off decision nodes)
    depth_start : (depths+1,) int  rows of depth t are ``depth_start[t]:depth_start[t+1]``
    term_rows : (T,) int, term_u : (n, T) float64 payoffs at terminal rows
    """

    def __init__(self, **fields: object):
        self.__dict__.update(fields)
        for v in fields.values():
            if isinstance(v, np.ndarray):
                v.flags.writeable = False
        self.__dict__["_frozen"] = True

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a deal table is immutable (cannot set {name!r})")

    def replace(self, **fields: object) -> DealTable:
        """A copy with ``fields`` changed (every other array shared)."""
        keep = {
            k: v
            for k, v in self.__dict__.items()
            if k not in ("_frozen", "term_u_exact", "weights_exact")
        }
        return DealTable(**{**keep, **fields})

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
        u = self.payoffs([nd.committed for nd in self._term_nodes], exact=True)
        u.flags.writeable = False
        return u

    def payoffs(self, committed: Sequence[Sequence[Fraction]], exact: bool = False) -> np.ndarray:
        """Payoffs at the terminal rows given each terminal node's chips: float64
        (:func:`toypoker.payoffs.payoffs`) or exact rationals
        (:func:`toypoker.payoffs.payoffs_exact`: rows with the same winners at a node
        share their payoff objects)."""
        f = payoffs_exact if exact else payoffs
        return f(self._terminals, self.definition, committed)

    def payoff_slope(
        self, chips: Sequence[tuple[Linear, ...] | None], j: int, scale: Fraction, exact: bool
    ) -> np.ndarray:
        """The payoffs' derivative in numeric coordinate ``j`` (divided by ``scale``)
        given the chips of every public node as affine forms
        (:meth:`toypoker.game.Game.payoff_slope`)."""
        coef = [tuple(f.coef[j] / scale for f in chips[nd.id]) for nd in self._term_nodes]
        out = self.payoffs(coef, exact=exact)
        out.flags.writeable = False
        return out


class OnRows:
    """A game on the deal table, as it holds its engine's data (``name`` ``"rows"``,
    :class:`toypoker.engines.rows.engine.RowsEngine`): the :class:`DealTable`."""

    name = "rows"
    layout = "rows"  #: what ``layout=`` of :func:`toypoker.load_game` calls it

    def __init__(self, table: DealTable):
        self.table = table

    def bind(self, game: Game) -> OnRows:
        return self

    def deal_table(self, game: Game, name: str) -> DealTable:
        return self.table

    def at(self, game: Game, values: Mapping[str, object]) -> Game:
        """``game`` at other values without recompiling: the chips of every node
        re-evaluated from their affine forms, the payoffs from them; every other array
        shared (bit for bit what the builder compiles at those values)."""
        table = self.table
        num = game.numeric
        x, params = num.assign(game.name, game.params, values)
        if table.definition.validate is not None:
            params = table.definition.validate(params)
        new_num = dataclasses.replace(num, values=x)
        nodes = tuple(
            nd if c is None else dataclasses.replace(nd, committed=tuple(f.at(x) for f in c))
            for nd, c in zip(game.nodes, game._chips, strict=True)
        )
        definition = dataclasses.replace(
            table.definition,
            params=dict(params),
            numeric=new_num,
            nodes=[
                r
                if r.chips is None
                else dataclasses.replace(r, committed=tuple(f.at(x) for f in r.chips))
                for r in table.definition.nodes
            ],
        )
        term_nodes = [nodes[nd.id] for nd in table._term_nodes]
        new = table.replace(definition=definition, _term_nodes=term_nodes)
        new = new.replace(term_u=new.payoffs([nd.committed for nd in term_nodes]))
        tree = game.tree.replace(
            spec=format_spec(game.name, params),
            params=MappingProxyType(dict(params)),
            nodes=nodes,
            numeric=new_num,
            _canonical_label=_canonical(definition),
        )
        out = Game(tree, OnRows(new))
        builder = game.__dict__.get("_builder")
        return out if builder is None else out.with_builder(builder)


def _canonical(d: GameDefinition) -> object:
    """The suit-canonical form of a label (a suit-isomorphic game), else None."""
    return partial(suit_canonical_label, d) if d.suits else None


def compile_game(definition: GameDefinition, spec: str) -> Game:
    """The game of ``definition`` on its deal table (``spec`` its canonical spec)."""
    d = definition
    nodes, raw_order, chips, n_depths = compile_nodes(d.nodes, d.root)
    n = d.n_players
    table: dict[str, object] = {
        "definition": d,
        "cards": d.cards,
        "n_deals": len(d.cards),
        "weight_num": d.weight_num,
        "weight_den": d.weight_den,
        "weights": d.weight_num.astype(np.float64) / float(d.weight_den),
    }
    table.update(_observations(d, n, len(d.cards)))
    table.update(_rows(d, nodes, raw_order, n_depths))
    rounds = [d.nodes[old].round for old in raw_order]
    infosets, row_infoset, n_sigma = decision_infosets(
        nodes, table["node_row_start"], table["node_deals"], table["obs"], table["obs_round"],
        rounds, table["obs_private"], d.suits, table["n_rows"],
    )  # fmt: skip
    label_index = {i.label: i.index for i in infosets}
    tree = infoset_tables(
        np.array([i.player for i in infosets], dtype=np.int64),
        np.array([len(i.actions) for i in infosets], dtype=np.int64),
    )
    tree.update(restricted(d.restrictions, tuple(infosets), label_index, n_sigma))
    table.update(_edges(nodes, table, row_infoset, tree, n))
    table.update(_terminal_rows(nodes, table, d))
    public = PublicTree(
        spec=spec,
        name=d.name,
        params=MappingProxyType(dict(d.params)),
        n_players=n,
        nodes=nodes,
        n_depths=n_depths,
        numeric=d.numeric,
        numeric_params=tuple(name for name, _, _ in d.numeric.names),
        _chips=chips,
        label_suits=int(d.suits or 0),
        _canonical_label=_canonical(d),
        _label_index=label_index,
        **tree,
    )
    return Game(public, OnRows(DealTable(**table)))


def _observations(d: GameDefinition, n: int, n_deals: int) -> dict[str, object]:
    """Each player's private observation of each deal (``obs``), their texts
    (``obs_private``) and, suit-isomorphic, per round (``obs_round``)."""
    if d.suits:
        return _suit_observations(d, n, n_deals)
    obs = np.empty((n, n_deals), dtype=np.int64)
    obs_private: list[list[tuple[int, ...]]] = []
    for p in range(n):
        groups = (d.hole_slots[p],) if d.hole_groups is None else d.hole_groups[p]
        hole = np.concatenate([np.sort(d.cards[:, list(g)], axis=1) for g in groups], axis=1)
        if hole.shape[1] == 1:  # one card: the rank is the observation
            present = np.zeros(d.n_ranks, dtype=bool)
            present[hole[:, 0]] = True
            uniq = np.nonzero(present)[0][:, None]
            obs[p] = (np.cumsum(present) - 1)[hole[:, 0]]
        else:
            uniq, inv = np.unique(hole, axis=0, return_inverse=True)
            obs[p] = inv.reshape(-1)
        obs_private.append([tuple(int(x) + 1 for x in row) for row in uniq])
    return {"obs": obs, "obs_private": obs_private, "obs_round": None}


def _suit_observations(d: GameDefinition, n: int, n_deals: int) -> dict[str, object]:
    """Observations of a suit-isomorphic table (``GameDefinition.suits``): at round
    ``r`` a player sees her hole cards and the boards of rounds ``<= r``; the pair is
    canonicalised jointly (one suit permutation for both, :func:`suit_canonical`),
    boards first.  The canonical boards are the row's own (the builder's
    representatives), so the canonical hole cards -- written in the frame of the
    boards the public node shows -- identify the observation at that node."""
    assert d.board_slots is not None
    rounds = len(d.board_slots)
    holes: list[list[np.ndarray]] = [[] for _ in range(n)]
    for r in range(rounds):
        boards = [tuple(b) for b in d.board_slots[: r + 1] if len(b)]
        width = sum(len(b) for b in boards)
        shown = d.cards[:, [c for b in boards for c in b]]
        for p in range(n):
            own = (d.hole_slots[p],) if d.hole_groups is None else d.hole_groups[p]
            canon = suit_canonical(d.cards, [*boards, *own], d.suits)
            if not np.array_equal(canon[:, :width], shown):
                raise ValueError("suit-isomorphic deal table: boards not canonical")
            holes[p].append(canon[:, width:])
    obs_private = []
    obs_round = np.empty((rounds, n, n_deals), dtype=np.int64)
    for p in range(n):
        stacked = np.concatenate(holes[p], axis=0)
        uniq, inv = np.unique(stacked, axis=0, return_inverse=True)
        obs_round[:, p, :] = inv.reshape(rounds, n_deals)
        obs_private.append([tuple(int(x) + 1 for x in row) for row in uniq])
    # ``obs``: the first round's (hole cards alone, up to the suits)
    return {"obs": obs_round[0].copy(), "obs_private": obs_private, "obs_round": tuple(obs_round)}


def _rows(
    d: GameDefinition, nodes: tuple[Node, ...], raw_order: list[int], n_depths: int
) -> dict[str, object]:
    """The rows: each node's deals, the rows' nodes, deals, parents and actors, the
    action index of the edge into each row, and the depth slices."""
    nn = len(nodes)
    deals: list[np.ndarray] = [np.empty(0, dtype=IDX)] * nn
    deals[0] = np.arange(len(d.cards), dtype=IDX)
    parent_pos: list[np.ndarray | None] = [None] * nn  # positions within parent's deals
    for node in nodes:
        s = deals[node.id]
        if node.kind == "decision":
            for c in node.children:
                deals[c] = s
                parent_pos[c] = None  # identity
        elif node.kind == "chance":
            r = d.nodes[raw_order[node.id]]
            shown = d.cards[np.ix_(s, list(r.reveal))]
            for c, v in zip(node.children, r.child_values, strict=True):
                pos = np.nonzero(np.all(shown == np.asarray(v), axis=1))[0]
                deals[c] = s[pos]
                parent_pos[c] = pos
    sizes = np.array([len(x) for x in deals], dtype=np.int64)
    node_row_start = np.concatenate([[0], np.cumsum(sizes)])
    n_rows = int(node_row_start[-1])
    row_node = np.repeat(np.arange(nn, dtype=IDX), sizes)
    # every row but the root's is written below; the root's stay -1
    parent_row = np.empty(n_rows, dtype=IDX)
    parent_row[: sizes[0]] = -1
    edge_action = np.empty(n_rows, dtype=IDX)
    edge_action[: sizes[0]] = -1
    for node in nodes:
        if node.parent < 0:
            continue
        a, b = node_row_start[node.id], node_row_start[node.id + 1]
        pstart = node_row_start[node.parent]
        pos = parent_pos[node.id]
        parent_row[a:b] = pstart + (np.arange(b - a) if pos is None else pos)
        par = nodes[node.parent]
        edge_action[a:b] = par.children.index(node.id) if par.kind == "decision" else -1
    depth = np.array([nd.depth for nd in nodes], dtype=np.int64)
    starts = [0]
    for t in range(n_depths):
        last = max(i for i in range(nn) if depth[i] == t)
        starts.append(int(node_row_start[last + 1]))
    return {
        "node_row_start": node_row_start,
        "node_deals": deals,
        "n_rows": n_rows,
        "row_deal": np.concatenate(deals),
        "row_node": row_node,
        "parent_row": parent_row,
        "_edge_action": edge_action,
        "depth_start": np.array(starts, dtype=np.int64),
        "row_actor": np.array([nd.actor for nd in nodes], dtype=IDX)[row_node],
    }


def _edges(
    nodes: tuple[Node, ...],
    table: Mapping[str, object],
    row_infoset: np.ndarray,
    tree: Mapping[str, object],
    n: int,
) -> dict[str, object]:
    """The rows' infosets, the flat action on the edge into each row, each infoset's
    first row, and per depth the action edges by player and the infosets decided."""
    parent_row, edge_action = table["parent_row"], table["_edge_action"]
    offset = tree["infoset_offset"]
    edge_sigma = np.full(table["n_rows"], -1, dtype=IDX)  # type: ignore[call-overload]
    has = edge_action >= 0  # type: ignore[operator]
    edge_sigma[has] = offset[row_infoset[parent_row[has]]] + edge_action[has]  # type: ignore[index]
    # per depth t: the action edges into depth t, split by the acting player (local
    # indices within the depth slice), and the infosets decided there
    edges, decided = depth_tables(
        nodes, tree["infosets"], table["depth_start"], edge_sigma,  # type: ignore[arg-type]
        table["row_actor"][parent_row.clip(0)], tree["infoset_player"], n,  # type: ignore[index,union-attr,arg-type]
    )  # fmt: skip
    return {
        "row_infoset": row_infoset,
        "edge_sigma": edge_sigma,
        "infoset_rep_row": representative_rows(row_infoset, int(tree["n_infosets"])),  # type: ignore[call-overload]
        "depth_player_edges": edges,
        "depth_player_infosets": decided,
    }


def _terminal_rows(
    nodes: tuple[Node, ...], table: Mapping[str, object], d: GameDefinition
) -> dict[str, object]:
    """The terminal rows, who wins at each, and the payoffs there."""
    term_nodes = [nd for nd in nodes if nd.kind == "terminal"]
    terminals = compile_terminals(
        term_nodes,
        table["node_row_start"],
        table["node_deals"],
        d.strength,  # type: ignore[arg-type]
    )
    is_terminal = np.zeros(table["n_rows"], dtype=bool)  # type: ignore[call-overload]
    is_terminal[terminals.rows] = True
    return {
        "_terminals": terminals,
        "_term_nodes": term_nodes,
        "term_rows": terminals.rows,
        "n_terminals": len(term_nodes),
        "term_u": payoffs(terminals, d, [nd.committed for nd in term_nodes]),
        "row_is_terminal": is_terminal,
    }
