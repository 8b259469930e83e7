"""The game: its public tree, infosets, flat actions, labels and identity.

One class, built by one path for every game: a builder hands :class:`Game` a
:class:`PublicTree` -- what every layout shares -- and the data of the engine the game
is built on (``game.engine``, :mod:`toypoker.engines`):

* the public tree ``nodes`` (breadth-first: the children of a node are consecutive and
  a depth is a contiguous run; :func:`compile_nodes`), with the chips each player has
  committed at every node as affine forms (:class:`Linear`) in the game's numeric
  parameters (ante, bet, pot; :class:`NumericParams`);
* the **information sets**: an infoset is (decision node, private observation of its
  actor); a profile is one flat vector of action probabilities with per-infoset
  offsets (``infoset_offset``, ``sigma_infoset``, ...: :func:`infoset_tables`), some
  fixed by the game's restrictions (``sigma_fixed``: :func:`restricted`);
* identity (:class:`~toypoker.identity.Identity`): the spec, pickling by spec,
  equality, :meth:`Game.at`.

The deal table -- rows of (public node, deal), observations, terminal payoffs -- is
the rows engine's data (:class:`toypoker.deal_table.DealTable`): the game reads its
names (:data:`DEAL_TABLE`: ``n_rows``, ``term_u``, ...) from the deal table of its
engine, which a game built on hand vectors builds from its spec where it fits and
otherwise refuses in one line.  Kernels take those arrays once, when they prepare.

A :class:`Game` is immutable: its attributes cannot be rebound and its arrays are
read-only.
Game floor: imports only the definition, its neighbours and the ground.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Protocol, TypeVar

import numpy as np

from toypoker.checks import shown
from toypoker.definition import (
    ACTION_NAMES,
    GameDefinition,
    InfoSet,
    Linear,
    Node,
    NumericParams,
    RawNode,
    key_label,
    make_label,
)
from toypoker.errors import ProfileError, ToypokerError
from toypoker.identity import Identity
from toypoker.infosets import padded_actions

T = TypeVar("T")

__all__ = [
    "ACTION_NAMES",
    "DEAL_TABLE",
    "Game",
    "GameDefinition",
    "InfoSet",
    "Linear",
    "Node",
    "NumericParams",
    "PublicTree",
    "RawNode",
    "make_label",
    "check_game",
]

#: what only a deal table holds (:class:`toypoker.deal_table.DealTable`): a game reads
#: these from the deal table of its engine (:meth:`Game.__getattr__`)
DEAL_TABLE = frozenset({
    "n_rows", "row_deal", "row_node", "parent_row", "edge_sigma", "_edge_action", "row_actor",
    "row_infoset", "row_is_terminal", "depth_start", "node_row_start", "node_deals",
    "term_rows", "term_u", "term_u_exact", "n_terminals", "weights", "weights_exact",
    "weight_num", "weight_den", "obs", "obs_round", "obs_private", "n_deals", "cards",
    "infoset_rep_row", "depth_player_edges", "depth_player_infosets", "_terminals",
    "_term_nodes", "definition",
})  # fmt: skip

#: what every game holds, whatever its engine (a :class:`PublicTree`'s fields)
TREE_FIELDS = (
    "spec", "name", "params", "n_players", "nodes", "n_depths", "numeric", "numeric_params",
    "_chips", "infosets", "n_infosets", "n_sigma", "infoset_offset", "infoset_player",
    "infoset_n_actions", "sigma_infoset", "sigma_player", "infoset_actions_padded",
    "sigma_fixed", "fixed_values", "_fixed_exact", "infoset_restricted", "label_suits",
    "_canonical_label",
)  # fmt: skip


class PublicTree:
    """What every layout shares, as a builder hands it to :class:`Game`: the fields of
    :data:`TREE_FIELDS` (and optionally ``_label_index``, label -> infoset index, made on
    first use where absent).  Also what an engine's data is assembled over before its
    game exists (the same attributes)."""

    def __init__(self, **fields: object):
        missing = [f for f in TREE_FIELDS if f not in fields]
        if missing:
            raise TypeError(f"a public tree needs {', '.join(missing)}")
        self.__dict__.update(fields)

    def replace(self, **fields: object) -> PublicTree:
        """A copy with ``fields`` changed (every other field shared)."""
        return PublicTree(**{**self.__dict__, **fields})


class EngineData(Protocol):
    """What a game's engine computes on (the deal table, hand vectors), as the game reads
    it: the engine's ``name``, its data bound to the game, the deal table (or a one-line
    refusal) and the game at other parameter values."""

    name: str
    layout: str  #: the engine as ``layout=`` of :func:`toypoker.load_game` names it

    def bind(self, game: Game) -> EngineData:
        """This data, naming ``game`` where it names its game."""
        ...

    def deal_table(self, game: Game, name: str) -> object:
        """The deal table of ``game`` (what reading ``name`` needs), or refuse in one line."""
        ...

    def at(self, game: Game, values: Mapping[str, object]) -> Game:
        """``game`` at other values of its numeric parameters (:meth:`Game.at`)."""
        ...


class Game(Identity):
    """A poker game: its public tree, infosets and flat actions, on an engine.
    Immutable: attributes cannot be rebound, arrays are read-only.

    Attributes
    ----------
    nodes : the public tree, breadth-first (``nodes[0]`` the root)
    infosets : every information set, in flat-action order (a lazy sequence where
        there are millions)
    infoset_offset : (infosets + 1,) int  first flat action of each infoset
    sigma_infoset, sigma_player : (A,) int  infoset and player of each flat action
    sigma_fixed, fixed_values : (A,) what the game's restrictions fix
    engine : what computes on the game (:mod:`toypoker.engines`); ``layout`` names it

    The deal table's arrays (``n_rows``, ``row_node``, ``term_u``, ``weights``, ...:
    :data:`DEAL_TABLE`, described by :class:`toypoker.deal_table.DealTable`) are read
    from the deal table of the game's engine.

    Numeric parameters: ``numeric_params`` (e.g. ``("ante", "bet", "pot")``);
    :meth:`at` gives the game at other values without recompiling and
    :meth:`payoff_slope` the derivative of ``term_u`` in one of them.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=3,cards=4)")
    >>> g.n_players, g.n_infosets, g.layout, g.engine.name
    (3, 48, 'rows', 'rows')
    >>> g.infosets[0].label
    'P1:1:'
    """

    n_players: int
    nodes: tuple[Node, ...]
    n_depths: int
    numeric: NumericParams
    numeric_params: tuple[str, ...]
    infosets: Sequence[InfoSet]
    n_infosets: int
    n_sigma: int
    infoset_offset: np.ndarray
    infoset_player: np.ndarray
    infoset_n_actions: np.ndarray
    infoset_actions_padded: np.ndarray
    sigma_infoset: np.ndarray
    sigma_player: np.ndarray
    sigma_fixed: np.ndarray
    fixed_values: np.ndarray
    infoset_restricted: np.ndarray
    label_suits: int  #: suits of a suit-isomorphic game's labels (0: ranks)

    def __init__(self, tree: PublicTree, engine: EngineData):
        self.__dict__.update(tree.__dict__)
        self.__dict__["_derived"] = {}
        self.__dict__["_engine_data"] = engine.bind(self)
        for v in self.__dict__.values():
            if isinstance(v, np.ndarray):
                v.flags.writeable = False
        self.__dict__["_frozen"] = True

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a compiled Game is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a compiled Game is immutable (cannot delete {name!r})")

    def __getattr__(self, name: str) -> object:
        """A name of the deal table (:data:`DEAL_TABLE`), read from the deal table of the
        game's engine (built from the spec on hand vectors, or refused in one line)."""
        data = self.__dict__.get("_engine_data")
        if name in DEAL_TABLE and data is not None:
            return getattr(data.deal_table(self, name), name)
        raise AttributeError(f"'Game' object has no attribute {name!r}")

    @property
    def tree(self) -> PublicTree:
        """What the game shares with the same game on any engine (its arrays shared)."""
        keep = (*TREE_FIELDS, "_label_index")
        return PublicTree(**{k: v for k, v in self.__dict__.items() if k in keep})

    @property
    def engine_data(self) -> EngineData:
        """What the game's engine computes on (the deal table, hand vectors)."""
        return self.__dict__["_engine_data"]  # type: ignore[no-any-return]

    @cached_property
    def _label_index(self) -> dict[str, int]:
        """Label -> infoset index, made on first use where the builder did not (a lazy
        sequence of infosets makes the labels from its arrays)."""
        labels = getattr(self.infosets, "labels", None)
        n = self.n_infosets
        if labels is not None:
            return dict(zip(labels(0, n), range(n), strict=True))
        return {i.label: i.index for i in self.infosets}

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
        """The same game at other values of its numeric parameters.

        On the deal table without recompiling: the deals, public tree, rows, infosets
        and restrictions are shared; the chips committed at each node are re-evaluated
        from their affine forms, so ``term_u`` (and ``term_u_exact``) equal those of
        ``load_game`` at the new values exactly.  On hand vectors the game is built
        again from its spec at the new values.  For Kuhn poker ``pot`` and ``ante``
        are one coordinate (``pot = n * ante``): ``at(pot=P)`` on a game given with
        ``ante`` works and the spec then names the pot.

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
        return self.engine_data.at(self, values)

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
        j, scale = self.numeric.find(self.name, name)
        table = self.engine_data.deal_table(self, "term_u")
        return table.payoff_slope(self._chips, j, scale, exact)  # type: ignore[attr-defined,no-any-return]

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
        if idx is None and self._canonical_label is not None:
            idx = self._label_index.get(self._canonical_label(label) or "")
        if idx is None:
            raise ProfileError(f"unknown infoset {label!r} in game {self.spec}")
        return self.infosets[idx]

    def has_infoset(self, key: str | tuple) -> bool:
        """Whether the game has that infoset (keys as for :meth:`infoset`)."""
        label = key_label(key)
        if label in self._label_index:
            return True
        canonical = self._canonical_label
        return canonical is not None and canonical(label) in self._label_index

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


# ------------------------------------------------------------------ building the tree
def compile_nodes(
    raw: Sequence[RawNode], root: int
) -> tuple[tuple[Node, ...], list[int], tuple[tuple[Linear, ...] | None, ...], int]:
    """The public tree in breadth-first order: the nodes renumbered (children
    consecutive, a depth a contiguous run), each node's index in ``raw``, the chips
    committed at each node as affine forms (None: constants) and the number of depths."""
    order: list[int] = []
    depth_of: dict[int, int] = {root: 0}
    parent_of: dict[int, int] = {root: -1}
    queue = deque([root])
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
    chips = tuple(raw[old].chips for old in order)
    return tuple(nodes), order, chips, max(n.depth for n in nodes) + 1


def infoset_tables(infoset_player: np.ndarray, infoset_n_actions: np.ndarray) -> dict[str, object]:
    """The flat-action tables of infosets with these players and action counts (in
    flat-action order): offsets, each action's infoset and player, the padded actions,
    and the game's sizes -- a :class:`PublicTree`'s fields."""
    per = np.asarray(infoset_n_actions, dtype=np.int64)
    offset = np.concatenate([[0], np.cumsum(per)]).astype(np.int64)
    sigma_infoset = np.repeat(np.arange(len(per)), per)
    player = np.asarray(infoset_player, dtype=np.int64)
    return {
        "n_infosets": len(per),
        "n_sigma": int(offset[-1]),
        "infoset_offset": offset,
        "infoset_player": player,
        "infoset_n_actions": per,
        "sigma_infoset": sigma_infoset,
        "sigma_player": player[sigma_infoset],
        "infoset_actions_padded": padded_actions(offset, per),
    }


def restricted(
    restrictions: Sequence[tuple[int, Sequence[int], str, Mapping[str, object]]],
    infosets: Sequence[InfoSet],
    label_index: Mapping[str, int],
    n_sigma: int,
) -> dict[str, object]:
    """What the game's restrictions fix (``(player, private, history, probabilities)``
    each): ``sigma_fixed``, ``fixed_values`` (and exact), ``infoset_restricted`` and the
    infosets marked -- a :class:`PublicTree`'s fields."""
    fixed = np.zeros(n_sigma, dtype=bool)
    fixed_exact: dict[int, Fraction] = {}
    marked = set()
    for player, private, history, probs in restrictions:
        label = make_label(player, "-".join(str(r) for r in private), history)
        idx = label_index.get(label)
        if idx is None:
            continue  # that card never reaches that node
        info = infosets[idx]
        if set(probs) != set(info.actions) or sum(probs.values()) != 1:  # type: ignore[arg-type]
            raise ValueError(f"bad restriction at {label}: {probs}")
        for k, a in enumerate(info.actions):
            fixed[info.offset + k] = True
            fixed_exact[info.offset + k] = Fraction(probs[a])  # type: ignore[arg-type]
        marked.add(idx)
    if marked:
        infosets = tuple(
            InfoSet(**{**i.__dict__, "restricted": i.index in marked}) for i in infosets
        )
    values = np.zeros(n_sigma)
    for k, v in fixed_exact.items():
        values[k] = float(v)
    return {
        "infosets": infosets,
        "sigma_fixed": fixed,
        "_fixed_exact": fixed_exact,
        "fixed_values": values,
        "infoset_restricted": np.array([i.restricted for i in infosets], dtype=bool)
        if marked
        else np.zeros(len(infosets), dtype=bool),
    }


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
