"""The static index arrays the compiled (numba) kernels read, prepared once per game.

:func:`prepare` turns a compiled :class:`~toypoker.game.Game` into a frozen
:class:`GameArrays`: contiguous, read-only arrays in the dtypes the kernels index with
(``int64`` row arrays, cast once here: the compiled loops run faster over them than over
the game's ``int32`` arrays, and no call casts anything).  The caller holds the result
(for instance inside a :class:`GameKernel`); nothing is cached on the game.

:class:`GameKernel` adds the scratch buffers one traversal needs (allocated
once, reused by every call), so a kernel call allocates nothing.  A
``GameKernel`` is therefore not re-entrant: use one per thread.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.game import Game

I32 = np.int32
IDX = np.int64  # row index arrays: int64 (faster loops than int32 here, see prepare)
_F64 = np.dtype(np.float64)
_UNIT_STRIDE = (8,)


def _frozen(x: np.ndarray, dtype: type) -> np.ndarray:
    out = np.ascontiguousarray(x, dtype=dtype).copy()
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class GameArrays:
    """Flat arrays of one compiled game, in the kernels' dtypes.

    Rows (``R``) are the game's rows in depth order; sequences (``A``) its flat
    actions; infosets (``I``) its information sets, in depth order.

    Attributes
    ----------
    n_players, n_rows, n_sigma, n_infosets, n_depths : int
    zero_sum : bool
        Payoffs sum to 0 at every terminal row (to 1e-12 of their scale).
    depth_start : (n_depths + 1,) int64
        Rows of depth ``t`` are ``depth_start[t]:depth_start[t + 1]``.
    parent : (R,) int64
        Parent row (``-1`` at the root rows).
    es : (R,) int64
        Sequence of the action leading to the row (``-1`` at the root and
        after a chance node): ``Game.edge_sigma``.
    row_term : (R,) int64
        Column of a terminal row in ``term_u`` (``-1`` for other rows).
    term_u : (n, T) float64
        Terminal payoffs (``Game.term_u``).
    root_w : (depth_start[1],) float64
        Chance probability of each root row's deal (``weights[row_deal]``).
    sigma_player, sigma_infoset : (A,) int32
    sigma_free : (A,) bool
        Not fixed by a restriction.
    fixed_values : (A,) float64
        The probabilities restrictions fix (0 at free sequences).
    infoset_offset : (I + 1,) int64
    infoset_player : (I,) int32
    infoset_free : (I,) bool
    infoset_parent_seq : (I,) int32
        The actor's own last sequence on the path to the infoset (``-1``: none).
        Own reach of an infoset is the product of ``sigma`` along this chain.
    depth_inf_start : (n_depths + 1,) int64
        Infosets whose node is at depth ``t`` are ``depth_inf_start[t]:depth_inf_start[t + 1]``.
    depth_node_start : (n_depths + 1,) int64
        Public nodes of depth ``t`` are ``depth_node_start[t]:depth_node_start[t + 1]``.
    node_row_start : (N + 1,) int64
        Rows of node ``c`` are ``node_row_start[c]:node_row_start[c + 1]``.
    node_parent_row_start : (N,) int64
        First row of the parent node (``-1`` at the root).  Children of a
        decision node hold its deals in its order: ``parent[r] = r - a + this``.
    node_edge_actor : (N,) int64
        Actor of the parent node; ``-1`` below a chance node (and at the root).
    node_term_start : (N,) int64
        First column of a terminal node in ``term_u`` (its rows in order); ``-1``
        for other nodes.
    """

    n_players: int
    n_rows: int
    n_sigma: int
    n_infosets: int
    n_depths: int
    zero_sum: bool
    depth_start: np.ndarray
    parent: np.ndarray
    es: np.ndarray
    row_term: np.ndarray
    term_u: np.ndarray
    root_w: np.ndarray
    sigma_player: np.ndarray
    sigma_infoset: np.ndarray
    sigma_free: np.ndarray
    fixed_values: np.ndarray
    infoset_offset: np.ndarray
    infoset_player: np.ndarray
    infoset_free: np.ndarray
    infoset_parent_seq: np.ndarray
    depth_inf_start: np.ndarray
    depth_node_start: np.ndarray
    node_row_start: np.ndarray
    node_parent_row_start: np.ndarray
    node_edge_actor: np.ndarray
    node_term_start: np.ndarray


def prepare(game: Game) -> GameArrays:
    """The static index arrays of ``game`` for the kernels (computed once; hold on to it).

    Parameters
    ----------
    game
        A compiled game.

    Returns
    -------
    GameArrays
        Read-only, contiguous arrays; see :class:`GameArrays`.
    """
    if game.n_depths < 2:
        raise ToypokerError(f"game {game.spec} has no decisions to traverse")
    n_rows = int(game.n_rows)
    parent = np.asarray(game.parent_row)
    es = np.asarray(game.edge_sigma)
    row_term = np.full(n_rows, -1, dtype=I32)
    row_term[game.term_rows] = np.arange(len(game.term_rows), dtype=I32)
    depth_start = np.asarray(game.depth_start, dtype=np.int64)
    root_rows = np.arange(int(depth_start[1]))
    root_w = np.asarray(game.weights, dtype=np.float64)[np.asarray(game.row_deal)[root_rows]]
    sigma_player = np.asarray(game.sigma_player)
    rep = np.asarray(game.infoset_rep_row)
    parent_seq = _parent_sequences(game, rep, parent, es, sigma_player)
    row_depth = np.searchsorted(depth_start, rep, side="right") - 1
    if np.any(np.diff(row_depth) < 0):  # compiled games number infosets in depth order
        raise ToypokerError(f"game {game.spec}: infosets are not in depth order")
    depth_inf_start = np.searchsorted(row_depth, np.arange(game.n_depths + 1), side="left")
    node_row_start = np.asarray(game.node_row_start, dtype=np.int64)
    depth_node_start, node_parent_row_start, node_edge_actor, node_term_start = _node_arrays(
        game, node_row_start, parent, row_term
    )
    return GameArrays(
        n_players=int(game.n_players),
        n_rows=n_rows,
        n_sigma=int(game.n_sigma),
        n_infosets=int(game.n_infosets),
        n_depths=int(game.n_depths),
        zero_sum=bool(
            np.all(np.abs(game.term_u.sum(axis=0)) <= 1e-12 * max(1.0, np.abs(game.term_u).max()))
        ),
        depth_start=_frozen(depth_start, np.int64),
        parent=_frozen(parent, IDX),
        es=_frozen(es, IDX),
        row_term=_frozen(row_term, IDX),
        term_u=_frozen(game.term_u, np.float64),
        root_w=_frozen(root_w, np.float64),
        sigma_player=_frozen(sigma_player, I32),
        sigma_infoset=_frozen(game.sigma_infoset, I32),
        sigma_free=_frozen(~np.asarray(game.sigma_fixed), np.bool_),
        fixed_values=_frozen(game.fixed_values, np.float64),
        infoset_offset=_frozen(game.infoset_offset, np.int64),
        infoset_player=_frozen(game.infoset_player, I32),
        infoset_free=_frozen(~np.asarray(game.infoset_restricted), np.bool_),
        infoset_parent_seq=_frozen(parent_seq, I32),
        depth_inf_start=_frozen(depth_inf_start, np.int64),
        depth_node_start=_frozen(depth_node_start, np.int64),
        node_row_start=_frozen(node_row_start, np.int64),
        node_parent_row_start=_frozen(node_parent_row_start, np.int64),
        node_edge_actor=_frozen(node_edge_actor, np.int64),
        node_term_start=_frozen(node_term_start, np.int64),
    )


def _parent_sequences(
    game: Game, rep: np.ndarray, parent: np.ndarray, es: np.ndarray, sigma_player: np.ndarray
) -> np.ndarray:
    """The actor's last own sequence on the path to each infoset (``-1``: none), read
    up the parents of its representative row ``rep`` (perfect recall: the same on every
    row of the infoset, so the representative row is enough)."""
    parent_seq = np.full(game.n_infosets, -1, dtype=I32)
    for i in range(game.n_infosets):
        p = int(game.infoset_player[i])
        x = int(rep[i])
        while x >= 0:
            s = int(es[x])
            if s >= 0 and sigma_player[s] == p:
                parent_seq[i] = s
                break
            x = int(parent[x])
    return parent_seq


def _node_arrays(
    game: Game, node_row_start: np.ndarray, parent: np.ndarray, row_term: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The public nodes' arrays of :class:`~toypoker.engines.rows.arrays.GameArrays`:
    ``depth_node_start``, ``node_parent_row_start``, ``node_edge_actor`` and
    ``node_term_start``, after checking the layout the kernels rely on (nodes in
    depth order over contiguous row slices, terminal rows in order, a decision's
    children holding its deals in its order).

    Raises
    ------
    ToypokerError
        Where the game breaks that layout.
    """
    nodes = game.nodes
    n_rows = int(game.n_rows)
    node_depth = np.array([nd.depth for nd in nodes], dtype=np.int64)
    if np.any(np.diff(node_depth) < 0) or node_row_start[-1] != n_rows:
        raise ToypokerError(f"game {game.spec}: public nodes are not in depth order")
    depth_node_start = np.searchsorted(node_depth, np.arange(game.n_depths + 1), side="left")
    node_parent_row_start = np.full(len(nodes), -1, dtype=np.int64)
    node_edge_actor = np.full(len(nodes), -1, dtype=np.int64)
    node_term_start = np.full(len(nodes), -1, dtype=np.int64)
    for nd in nodes:
        a, b = int(node_row_start[nd.id]), int(node_row_start[nd.id + 1])
        if nd.kind == "terminal":
            node_term_start[nd.id] = row_term[a]
            if b > a and np.any(row_term[a:b] != row_term[a] + np.arange(b - a)):
                raise ToypokerError(f"game {game.spec}: terminal rows out of order")
        if nd.parent < 0:
            continue
        par = nodes[nd.parent]
        pa = int(node_row_start[par.id])
        node_parent_row_start[nd.id] = pa
        if par.kind == "decision":
            node_edge_actor[nd.id] = par.actor
            if np.any(parent[a:b] != pa + np.arange(b - a)):
                raise ToypokerError(f"game {game.spec}: decision children change deal order")
    return depth_node_start, node_parent_row_start, node_edge_actor, node_term_start


class GameKernel:
    """Prepared arrays of one game plus the scratch buffers of one traversal.

    Parameters
    ----------
    game
        A compiled game.  Its arrays are read once, here.
    arrays
        ``prepare(game)`` if already at hand (it is read-only: kernels of
        several threads may share it; each keeps its own scratch buffers).

    Attributes
    ----------
    arrays : GameArrays
        From :func:`prepare`.
    cf, v : (R,) float64
        Scratch: counterfactual reach (chance times the opponents' reach) and
        a value array, overwritten by every call.
    inst, q : (A,) float64
        Scratch: instantaneous regrets / counterfactual action values.
    scratch : (3 R + 2 A,) float64
        The buffer ``cf``, ``v``, a second value array and ``q`` are consecutive
        views of (the last ``A`` entries: the best-response kernels' working profile).
    own : (I,) float64
        Scratch: own reach of the updated player's infosets.
    choice : (A,) int8
        Scratch: the last best response (1 at the chosen actions).
    br_out : (n, 2) float64
        Scratch: best-response value and value of each player.
    """

    def __init__(self, game: Game, arrays: GameArrays | None = None):
        self.spec = game.spec
        # arrays already prepared for this game (read-only, so threads may share them)
        self.arrays = prepare(game) if arrays is None else arrays
        a = self.arrays
        r, n_a = a.n_rows, a.n_sigma
        # cf, v, a second value vector and q are consecutive views of one buffer, so the
        # best-response kernels take the four as one argument (numba unboxes each array
        # argument on every call: most of a NashConv call on the smallest games)
        self.scratch = np.zeros(3 * r + 2 * n_a)  # and the best-response kernels' profile
        self.cf = self.scratch[:r]
        self.v = self.scratch[r : 2 * r]
        self.q = self.scratch[3 * r :]
        self.inst = np.zeros(n_a)
        self.own = np.zeros(a.n_infosets)
        self.choice = np.zeros(a.n_sigma, dtype=np.int8)
        self._sigma_shape = (a.n_sigma,)
        self.br_out = np.zeros((a.n_players, 2))

    @property
    def n_players(self) -> int:
        return self.arrays.n_players

    def uniform(self) -> np.ndarray:
        """The uniform profile (fixed probabilities at restricted infosets), a new array.

        Equals ``solvers.cfr.initial_state(game).sigma`` and ``Profile.uniform(game).probs``.
        """
        a = self.arrays
        k = np.diff(a.infoset_offset)[a.sigma_infoset]
        sigma = 1.0 / k
        return np.where(a.sigma_free, sigma, a.fixed_values)

    def check_sigma(self, sigma: np.ndarray, name: str = "sigma") -> np.ndarray:
        """``sigma`` as the kernels take it: a contiguous float64 vector of length ``A``."""
        if (  # the common case, in few attribute reads (a tiny game's NashConv is short)
            type(sigma) is np.ndarray
            and sigma.dtype is _F64
            and sigma.shape == self._sigma_shape
            and sigma.strides == _UNIT_STRIDE
        ):
            return sigma
        if not (
            type(sigma) is np.ndarray
            and sigma.dtype == np.float64
            and sigma.ndim == 1
            and sigma.shape[0] == self.arrays.n_sigma
            and sigma.flags.c_contiguous
        ):
            raise ToypokerError(
                f"{name} must be a contiguous float64 vector of length {self.arrays.n_sigma}"
            )
        return sigma

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.spec!r})"
