"""Fused best responses and NashConv over the compiled game (numba).

For each player one forward sweep (counterfactual reach, as in the CFR
kernel) and one backward sweep that carries two value arrays at once: the
player's value under ``sigma`` and under its best response.  At each depth the
counterfactual action values ``q[s] = sum cf[parent] * v_br[row]`` of the
player's free infosets are summed, the argmax is taken (ties to the first
action, as :func:`toypoker.engines.rows.values.best_response`) and the chosen action
carries the best-response value up.  Float only: the exact (Fraction) path
stays in :mod:`toypoker.engines.rows.values`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from toypoker.engines.rows.arrays import GameArrays, GameKernel
from toypoker.engines.rows.passes import forward_cf
from toypoker.game import Game
from toypoker.jit import njit


@njit(nogil=True)
def _best_response(
    player, sigma, with_values, depth_node_start, node_row_start, node_parent_row_start,
    node_edge_actor, node_term_start, node_flags, parent, es, term_u, root_w, sigma_free,
    infoset_offset, infoset_player, infoset_free, depth_inf_start, cf, v, vs, q, w, ties, choice,
    out,
):  # fmt: skip
    """Best response of ``player`` to ``sigma``.

    Writes ``out[0]`` = best-response value (``values.best_response(...).value``),
    ``out[1]`` = value under ``sigma`` (``values.expected_values(...)[player]``);
    ``choice`` = 1 at the chosen actions of the player's free infosets, 0 at
    its other free actions (``BestResponse.choice``; other entries untouched).
    Without ``with_values`` the value under ``sigma`` is skipped (``out[1] = 0``).
    ``w`` (scratch, length A) is the profile with the best response's 0/1 at
    ``player``'s free sequences, filled in depth by depth as it is chosen.
    ``ties = (order, tie_rtol)``: with an empty ``order`` the first maximum in the game's
    action order; else each infoset's flat actions in ``order``'s row (``-1`` padded)
    and the first within ``tie_rtol`` times the infoset's largest absolute action value
    of the best (:func:`toypoker.engines.rows.values.first_best`: fictitious play's tie rules).
    """
    # Kept whole: one compiled loop (numba); splitting it costs a call and the unboxing
    # of its arguments per call.
    order, tie_rtol = ties
    for s in range(w.shape[0]):
        w[s] = sigma[s]
    forward_cf(
        player, sigma, depth_node_start, node_row_start, node_parent_row_start, node_edge_actor,
        parent, es, root_w, cf,
    )  # fmt: skip
    # Terminal rows are never written: their children's loops read the payoffs
    # in ``term_u`` directly (the same numbers, so the same sums as writing
    # them into ``v`` first).  Only chance nodes' rows are zeroed: a decision
    # node's first child (``node_flags & 2``, which holds all its deals)
    # assigns instead of adding.
    pay = term_u[player]
    n_depths = depth_node_start.shape[0] - 1
    for t in range(n_depths - 2, -1, -1):
        for c in range(depth_node_start[t], depth_node_start[t + 1]):
            if node_flags[c] & 1:
                for r in range(node_row_start[c], node_row_start[c + 1]):
                    v[r] = 0.0
                if with_values:
                    for r in range(node_row_start[c], node_row_start[c + 1]):
                        vs[r] = 0.0
        c0 = depth_node_start[t + 1]  # the children, at depth t + 1
        c1 = depth_node_start[t + 2]
        i0 = depth_inf_start[t]
        i1 = depth_inf_start[t + 1]
        for i in range(i0, i1):
            if infoset_player[i] == player and infoset_free[i]:
                for s in range(infoset_offset[i], infoset_offset[i + 1]):
                    q[s] = 0.0
        for c in range(c0, c1):  # counterfactual action values of the player's free infosets
            if node_edge_actor[c] != player:
                continue
            a = node_row_start[c]
            off = node_parent_row_start[c] - a
            k = node_term_start[c] - a
            if node_term_start[c] < 0:
                for r in range(a, node_row_start[c + 1]):
                    s = es[r]
                    if sigma_free[s]:
                        q[s] += cf[off + r] * v[r]
            else:
                for r in range(a, node_row_start[c + 1]):
                    s = es[r]
                    if sigma_free[s]:
                        q[s] += cf[off + r] * pay[k + r]
        for i in range(i0, i1):  # argmax, first action on ties
            if infoset_player[i] == player and infoset_free[i]:
                s0 = infoset_offset[i]
                best = s0
                if order.shape[0] == 0:
                    for s in range(s0 + 1, infoset_offset[i + 1]):
                        if q[s] > q[best]:
                            best = s
                else:
                    best = first_best(q, order[i], tie_rtol)
                for s in range(s0, infoset_offset[i + 1]):
                    choice[s] = 1 if s == best else 0
                    w[s] = 1.0 if s == best else 0.0
        for c in range(c0, c1):
            a = node_row_start[c]
            b = node_row_start[c + 1]
            actor = node_edge_actor[c]
            off = node_parent_row_start[c] - a
            k = node_term_start[c] - a
            term = node_term_start[c] >= 0
            if actor < 0:
                if term:
                    for r in range(a, b):
                        v[parent[r]] += pay[k + r]
                else:
                    for r in range(a, b):
                        v[parent[r]] += v[r]
            elif node_flags[c] & 2:  # the first action: assign
                if term:  # w: the best response at the player's rows, sigma elsewhere
                    for r in range(a, b):
                        v[off + r] = w[es[r]] * pay[k + r]
                else:
                    for r in range(a, b):
                        v[off + r] = w[es[r]] * v[r]
            elif term:
                for r in range(a, b):
                    v[off + r] += w[es[r]] * pay[k + r]
            else:
                for r in range(a, b):
                    v[off + r] += w[es[r]] * v[r]
            if not with_values:
                continue
            if actor < 0:
                for r in range(a, b):
                    vs[parent[r]] += pay[k + r] if term else vs[r]
            elif node_flags[c] & 2:
                for r in range(a, b):
                    vs[off + r] = sigma[es[r]] * (pay[k + r] if term else vs[r])
            else:
                for r in range(a, b):
                    vs[off + r] += sigma[es[r]] * (pay[k + r] if term else vs[r])
    br = 0.0
    val = 0.0
    for r in range(node_row_start[depth_node_start[1]]):
        br += cf[r] * v[r]
        if with_values:
            val += cf[r] * vs[r]
    out[0] = br
    out[1] = val


@njit(nogil=True, inline="always")
def _game_order():
    """``ties`` of the first maximum in the game's action order (NashConv's rule)."""
    return (np.zeros((0, 0), dtype=np.int64), 0.0)


#: the same, from Python
GAME_ORDER = (np.zeros((0, 0), dtype=np.int64), 0.0)


@njit(nogil=True, inline="always")
def first_best(q, row, tie_rtol):
    """The first flat action of ``row`` (``-1`` padded) whose ``q`` is within ``tie_rtol``
    times the row's largest absolute ``q`` of the best (``values.first_best``; the row
    and the vector layouts' kernels both choose by it)."""
    top = -np.inf
    scale = 0.0
    for k in range(row.shape[0]):
        s = row[k]
        if s >= 0:
            top = max(top, q[s])
            scale = max(scale, abs(q[s]))
    bar = top - tie_rtol * scale
    for k in range(row.shape[0]):
        s = row[k]
        if s >= 0 and q[s] >= bar:
            return s
    return row[0]


@dataclass(frozen=True)
class KernelEvaluation:
    """Values, best-response values, gains and NashConv of a float profile.

    As :class:`toypoker.engines.protocol.Evaluation` (float case): ``gains[p] =
    max(br_values[p] - values[p], 0)``, ``nash_conv = sum(gains)``.
    """

    values: tuple[float, ...]
    br_values: tuple[float, ...]
    gains: tuple[float, ...]
    nash_conv: float


# The static arrays of the best-response kernels, packed so that a call passes few
# arguments (numba unboxes every array argument on each call, a sizeable share of a
# NashConv on a game as small as 3-player Kuhn).  ``ix`` holds a header, the bounds of
# each array and the arrays themselves (all int64); ``fx`` holds ``root_w`` then
# ``term_u`` (flat).
IX_ARRAYS = (
    "depth_node_start",
    "node_row_start",
    "node_parent_row_start",
    "node_edge_actor",
    "node_term_start",
    "node_flags",  # computed in _packed: 1 chance node, 2 first child of a decision node
    "parent",
    "es",
    "sigma_free",
    "infoset_offset",
    "infoset_player",
    "infoset_free",
    "depth_inf_start",
)
_HEAD = 6  # n_players, zero_sum, n_rows, n_sigma, n_terminals, n_root_rows
_DATA = _HEAD + len(IX_ARRAYS) + 1  # then the bounds of each array


def _node_flags(a: GameArrays) -> np.ndarray:
    """Per public node: 1 if its rows are summed into from zero (a chance node),
    2 if it is the first child of a decision node holding all the parent's
    deals (it assigns the parent's values; the parent is then not zeroed)."""
    starts = a.node_row_start
    size = np.diff(starts)
    flags = np.zeros(len(size), dtype=np.int64)
    has_parent = np.flatnonzero(a.node_parent_row_start >= 0)
    parent_node = np.searchsorted(starts, a.node_parent_row_start[has_parent], "right") - 1
    assigned = set()
    for c, pn in zip(has_parent, parent_node, strict=True):  # node ids ascend: first child first
        pn = int(pn)
        if a.node_edge_actor[c] < 0 or (pn not in assigned and size[c] != size[pn]):
            flags[pn] |= 1
        elif pn not in assigned and not flags[pn] & 1:
            flags[c] |= 2
            assigned.add(pn)
    return flags


def _packed(k: GameKernel) -> tuple[np.ndarray, np.ndarray]:
    """``(ix, fx)`` of ``k``'s game (built once per kernel)."""
    cached = k.__dict__.get("_br_packed")
    if cached is not None:
        return cached
    a = k.arrays
    flags = _node_flags(a)
    parts = [
        flags if f == "node_flags" else np.asarray(getattr(a, f), dtype=np.int64) for f in IX_ARRAYS
    ]
    sizes = [len(x) for x in parts]
    bounds = _DATA + np.concatenate([[0], np.cumsum(sizes)])
    head = [a.n_players, int(a.zero_sum), a.n_rows, a.n_sigma, a.term_u.shape[1], len(a.root_w)]
    ix = np.concatenate([np.array(head, dtype=np.int64), bounds.astype(np.int64), *parts])
    fx = np.concatenate([a.root_w, a.term_u.ravel()])
    k._br_packed = (ix, fx)
    return k._br_packed


@njit(nogil=True)
def _unpack(ix, fx, scratch):
    """The arrays of :func:`_best_response` as views into ``ix``, ``fx`` and ``scratch``."""
    n, r, n_a, n_t, n_root = ix[0], ix[2], ix[3], ix[4], ix[5]
    b = ix[6:20]  # bounds: _HEAD .. _DATA
    term_u = fx[n_root : n_root + n * n_t].reshape((n, n_t))
    return (
        ix[b[0] : b[1]], ix[b[1] : b[2]], ix[b[2] : b[3]], ix[b[3] : b[4]], ix[b[4] : b[5]],
        ix[b[5] : b[6]], ix[b[6] : b[7]], ix[b[7] : b[8]], term_u, fx[:n_root],
        ix[b[8] : b[9]], ix[b[9] : b[10]], ix[b[10] : b[11]], ix[b[11] : b[12]],
        ix[b[12] : b[13]],
        scratch[:r], scratch[r : 2 * r], scratch[2 * r : 3 * r], scratch[3 * r : 3 * r + n_a],
        scratch[3 * r + n_a : 3 * r + 2 * n_a],
    )  # fmt: skip


@njit(nogil=True)
def _best_response_packed(player, sigma, with_values, ix, fx, scratch, ties, choice, out):
    (
        depth_node_start, node_row_start, node_parent_row_start, node_edge_actor,
        node_term_start, node_flags, parent, es, term_u, root_w, sigma_free, infoset_offset,
        infoset_player, infoset_free, depth_inf_start, cf, v, vs, q, w,
    ) = _unpack(ix, fx, scratch)  # fmt: skip
    _best_response(
        player, sigma, with_values, depth_node_start, node_row_start, node_parent_row_start,
        node_edge_actor, node_term_start, node_flags, parent, es, term_u, root_w, sigma_free,
        infoset_offset, infoset_player, infoset_free, depth_inf_start, cf, v, vs, q, w, ties,
        choice, out,
    )  # fmt: skip


def _as_kernel(game_kernel: GameKernel | Game) -> GameKernel:
    return game_kernel if isinstance(game_kernel, GameKernel) else GameKernel(game_kernel)


def kernel_best_response(
    game_kernel: GameKernel, sigma: np.ndarray, player: int
) -> tuple[float, float, np.ndarray]:
    """``player``'s best response to ``sigma``.

    Parameters
    ----------
    game_kernel
        A :class:`~.arrays.GameKernel` (or :class:`~.cfr.CFRKernel`) of the game.
    sigma
        A float64 profile over the game's sequences.
    player
        0-based player.

    Returns
    -------
    tuple
        ``(br_value, value, choice)``: the best-response value, the value under
        ``sigma`` and a copy of the 0/1 choice over the game's sequences
        (``values.BestResponse.choice``).
    """
    k = _as_kernel(game_kernel)
    k.check_sigma(sigma)
    out = np.zeros(2)
    k.choice[:] = 0
    ix, fx = _packed(k)
    _best_response_packed(int(player), sigma, True, ix, fx, k.scratch, GAME_ORDER, k.choice, out)
    return float(out[0]), float(out[1]), k.choice.copy()


@njit(nogil=True)
def _all_players(sigma, with_values, ix, fx, scratch, ties, choice, out):
    """``out[p] = (br_value, value)`` for every player (values if ``with_values``)."""
    (
        depth_node_start, node_row_start, node_parent_row_start, node_edge_actor,
        node_term_start, node_flags, parent, es, term_u, root_w, sigma_free, infoset_offset,
        infoset_player, infoset_free, depth_inf_start, cf, v, vs, q, w,
    ) = _unpack(ix, fx, scratch)  # fmt: skip
    for p in range(ix[0]):
        _best_response(
            p, sigma, with_values, depth_node_start, node_row_start, node_parent_row_start,
            node_edge_actor, node_term_start, node_flags, parent, es, term_u, root_w, sigma_free,
            infoset_offset, infoset_player, infoset_free, depth_inf_start, cf, v, vs, q, w,
            ties, choice, out[p],
        )  # fmt: skip


@njit(nogil=True)
def _evaluate(sigma, ix, fx, scratch, choice, out):
    """``out[p] = (br_value, value)`` for every player: one compiled call."""
    _all_players(sigma, True, ix, fx, scratch, _game_order(), choice, out)


@njit(nogil=True)
def _nash_conv(sigma, ix, fx, scratch, choice, out):
    """NashConv ``sum_p max(br_value_p - value_p, 0)`` (``values.nash_conv``): one call.

    In a zero-sum game (``ix[1]``) ``sum_p value_p = 0``, so NashConv is
    ``sum_p br_value_p`` and the values under ``sigma`` are not computed (one
    value array per pass).
    """
    zero_sum = ix[1] != 0
    _all_players(sigma, not zero_sum, ix, fx, scratch, _game_order(), choice, out)
    total = 0.0
    for p in range(ix[0]):
        total += out[p, 0] if zero_sum else max(out[p, 0] - out[p, 1], 0.0)
    return max(total, 0.0)


def kernel_evaluate(game_kernel: GameKernel, sigma: np.ndarray) -> KernelEvaluation:
    """Values, best-response values, gains and NashConv (``values.evaluate``, float).

    Parameters
    ----------
    game_kernel
        A :class:`~.arrays.GameKernel` of the game (keep it; building one
        prepares the arrays).
    sigma
        A float64 profile over the game's sequences.

    Returns
    -------
    KernelEvaluation
    """
    k = _as_kernel(game_kernel)
    a = k.arrays
    k.check_sigma(sigma)
    out = np.zeros((a.n_players, 2))
    ix, fx = _packed(k)
    _evaluate(sigma, ix, fx, k.scratch, k.choice, out)
    br = tuple(float(x) for x in out[:, 0])
    val = tuple(float(x) for x in out[:, 1])
    gains = tuple(max(b - v, 0.0) for b, v in zip(br, val, strict=True))
    return KernelEvaluation(val, br, gains, float(sum(gains)))


@njit(nogil=True)
def _responses(sigma, ix, fx, scratch, ties, choice, out):
    """:func:`_evaluate` with the tie rule ``ties`` (see :func:`_best_response`)."""
    _all_players(sigma, True, ix, fx, scratch, ties, choice, out)


def responses(
    game_kernel: GameKernel, sigma: np.ndarray, order: np.ndarray, tie_rtol: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every player's value and pure best response to ``sigma`` in one call, ties as
    :func:`toypoker.engines.rows.values.best_response`'s ``order`` and ``tie_rtol`` (fictitious
    play's responses).

    Returns
    -------
    tuple
        ``(values, br_values, choice)``: ``choice`` 0/1 (int8) at every player's free
        flat actions (each player's own), 0 elsewhere.
    """
    k = _as_kernel(game_kernel)
    k.check_sigma(sigma)
    out = np.zeros((k.arrays.n_players, 2))
    choice = np.zeros_like(k.choice)
    ix, fx = _packed(k)
    ties = (np.ascontiguousarray(order, dtype=np.int64), float(tie_rtol))
    _responses(sigma, ix, fx, k.scratch, ties, choice, out)
    return out[:, 1].copy(), out[:, 0].copy(), choice


def kernel_nash_conv(game_kernel: GameKernel, sigma: np.ndarray) -> float:
    """Sum over players of the best-response gain of ``sigma`` (``values.nash_conv``, float).

    Parameters
    ----------
    game_kernel
        A :class:`~.arrays.GameKernel` of the game.
    sigma
        A float64 profile over the game's sequences.

    Returns
    -------
    float
    """
    k = game_kernel if isinstance(game_kernel, GameKernel) else GameKernel(game_kernel)
    k.check_sigma(sigma)
    packed = k.__dict__.get("_br_packed") or _packed(k)
    return _nash_conv(sigma, packed[0], packed[1], k.scratch, k.choice, k.br_out)


def team_values(game_kernel: GameKernel, sigma: np.ndarray, seats: tuple[int, ...],
                outsiders: tuple[int, ...]) -> tuple[float, tuple[float, ...]]:  # fmt: skip
    """A float profile's team value and outsiders' gains: in a zero-sum game each
    outsider's best response and value, the team's value minus theirs; otherwise
    every player's values and best responses (:func:`kernel_evaluate`)."""
    sigma = np.ascontiguousarray(sigma, dtype=np.float64)
    if not game_kernel.arrays.zero_sum:
        ev = kernel_evaluate(game_kernel, sigma)
        return sum(ev.values[p] for p in seats), tuple(ev.gains[p] for p in outsiders)
    outs = [kernel_best_response(game_kernel, sigma, q)[:2] for q in outsiders]
    return -sum(v for _, v in outs), tuple(max(b - v, 0.0) for b, v in outs)
