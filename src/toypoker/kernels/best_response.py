"""Fused best responses and NashConv over the compiled game (numba).

For each player one forward sweep (counterfactual reach, as in the CFR
kernel) and one backward sweep that carries two value arrays at once: the
player's value under ``sigma`` and under its best response.  At each depth the
counterfactual action values ``q[s] = sum cf[parent] * v_br[row]`` of the
player's free infosets are summed, the argmax is taken (ties to the first
action, as :func:`toypoker.evaluate.best_response`) and the chosen action
carries the best-response value up.  Float only: the exact (Fraction) path
stays in :mod:`toypoker.evaluate`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..game import Game
from .arrays import GameKernel
from .passes import forward_cf, init_values


@njit(cache=True, nogil=True)
def _best_response(
    player, sigma, with_values, depth_node_start, node_row_start, node_parent_row_start,
    node_edge_actor,
    node_term_start, parent, es, term_u, root_w, sigma_free, infoset_offset, infoset_player,
    infoset_free, depth_inf_start, cf, v, vs, q, choice, out,
):  # fmt: skip
    """Best response of ``player`` to ``sigma``.

    Writes ``out[0]`` = best-response value (``evaluate.best_response(...).value``),
    ``out[1]`` = value under ``sigma`` (``evaluate.expected_values(...)[player]``);
    ``choice`` = 1 at the chosen actions of the player's free infosets, 0 at
    its other free actions (``BestResponse.choice``; other entries untouched).
    Without ``with_values`` the value under ``sigma`` is skipped (``out[1] = 0``).
    """
    forward_cf(
        player, sigma, depth_node_start, node_row_start, node_parent_row_start, node_edge_actor,
        parent, es, root_w, cf,
    )  # fmt: skip
    n_depths = depth_node_start.shape[0] - 1
    for t in range(n_depths - 1, -1, -1):
        n0 = depth_node_start[t]
        n1 = depth_node_start[t + 1]
        init_values(player, n0, n1, node_row_start, node_term_start, term_u, v)
        if with_values:
            init_values(player, n0, n1, node_row_start, node_term_start, term_u, vs)
        if t == n_depths - 1:
            continue
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
            for r in range(a, node_row_start[c + 1]):
                s = es[r]
                if sigma_free[s]:
                    q[s] += cf[off + r] * v[r]
        for i in range(i0, i1):  # argmax, first action on ties
            if infoset_player[i] == player and infoset_free[i]:
                s0 = infoset_offset[i]
                best = s0
                for s in range(s0 + 1, infoset_offset[i + 1]):
                    if q[s] > q[best]:
                        best = s
                for s in range(s0, infoset_offset[i + 1]):
                    choice[s] = 1 if s == best else 0
        for c in range(c0, c1):
            a = node_row_start[c]
            b = node_row_start[c + 1]
            actor = node_edge_actor[c]
            off = node_parent_row_start[c] - a
            if actor < 0:
                for r in range(a, b):
                    v[parent[r]] += v[r]
            elif actor == player:
                for r in range(a, b):
                    s = es[r]
                    v[off + r] += (float(choice[s]) if sigma_free[s] else sigma[s]) * v[r]
            else:
                for r in range(a, b):
                    v[off + r] += sigma[es[r]] * v[r]
            if not with_values:
                continue
            if actor < 0:
                for r in range(a, b):
                    vs[parent[r]] += vs[r]
            else:
                for r in range(a, b):
                    vs[off + r] += sigma[es[r]] * vs[r]
    br = 0.0
    val = 0.0
    for r in range(node_row_start[depth_node_start[1]]):
        br += cf[r] * v[r]
        if with_values:
            val += cf[r] * vs[r]
    out[0] = br
    out[1] = val


@dataclass(frozen=True)
class KernelEvaluation:
    """Values, best-response values, gains and NashConv of a float profile.

    As :class:`toypoker.evaluate.Evaluation` (float case): ``gains[p] =
    max(br_values[p] - values[p], 0)``, ``nash_conv = sum(gains)``.
    """

    values: tuple[float, ...]
    br_values: tuple[float, ...]
    gains: tuple[float, ...]
    nash_conv: float


def _static(k: GameKernel) -> tuple:
    """The arrays the best-response kernels read, in their argument order (built once)."""
    cached = k.__dict__.get("_br_static")
    if cached is not None:
        return cached
    a = k.arrays
    k._br_static = (
        a.depth_node_start, a.node_row_start, a.node_parent_row_start, a.node_edge_actor,
        a.node_term_start, a.parent, a.es, a.term_u, a.root_w, a.sigma_free, a.infoset_offset,
        a.infoset_player, a.infoset_free, a.depth_inf_start, k.cf, k.v, k.v2, k.q, k.choice,
    )  # fmt: skip
    return k._br_static


def _as_kernel(game_kernel: GameKernel | Game) -> GameKernel:
    return game_kernel if isinstance(game_kernel, GameKernel) else GameKernel(game_kernel)


def best_response(
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
        (``evaluate.BestResponse.choice``).
    """
    k = _as_kernel(game_kernel)
    k.check_sigma(sigma)
    out = np.zeros(2)
    k.choice[:] = 0
    _best_response(int(player), sigma, True, *_static(k), out)
    return float(out[0]), float(out[1]), k.choice.copy()


@njit(cache=True, nogil=True)
def _evaluate(
    n_players, sigma, depth_node_start, node_row_start, node_parent_row_start, node_edge_actor,
    node_term_start, parent, es, term_u, root_w, sigma_free, infoset_offset, infoset_player,
    infoset_free, depth_inf_start, cf, v, vs, q, choice, out,
):  # fmt: skip
    """``out[p] = (br_value, value)`` for every player: one compiled call."""
    for p in range(n_players):
        _best_response(
            p, sigma, True, depth_node_start, node_row_start, node_parent_row_start,
            node_edge_actor, node_term_start, parent, es, term_u, root_w, sigma_free,
            infoset_offset, infoset_player, infoset_free, depth_inf_start, cf, v, vs, q, choice,
            out[p],
        )  # fmt: skip


@njit(cache=True, nogil=True)
def _nash_conv(
    n_players, zero_sum, sigma, depth_node_start, node_row_start, node_parent_row_start,
    node_edge_actor, node_term_start, parent, es, term_u, root_w, sigma_free, infoset_offset,
    infoset_player, infoset_free, depth_inf_start, cf, v, vs, q, choice, out,
):  # fmt: skip
    """NashConv ``sum_p max(br_value_p - value_p, 0)`` (``evaluate.nash_conv``): one call.

    In a zero-sum game ``sum_p value_p = 0``, so NashConv is ``sum_p br_value_p``
    and the values under ``sigma`` are not computed (one value array per pass).
    """
    total = 0.0
    for p in range(n_players):
        _best_response(
            p, sigma, not zero_sum, depth_node_start, node_row_start, node_parent_row_start,
            node_edge_actor, node_term_start, parent, es, term_u, root_w, sigma_free,
            infoset_offset, infoset_player, infoset_free, depth_inf_start, cf, v, vs, q, choice,
            out[p],
        )  # fmt: skip
        total += out[p, 0] if zero_sum else max(out[p, 0] - out[p, 1], 0.0)
    return max(total, 0.0)


def evaluate(game_kernel: GameKernel, sigma: np.ndarray) -> KernelEvaluation:
    """Values, best-response values, gains and NashConv (``evaluate.evaluate``, float).

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
    _evaluate(a.n_players, sigma, *_static(k), out)
    br = tuple(float(x) for x in out[:, 0])
    val = tuple(float(x) for x in out[:, 1])
    gains = tuple(max(b - v, 0.0) for b, v in zip(br, val, strict=True))
    return KernelEvaluation(val, br, gains, float(sum(gains)))


def nash_conv(game_kernel: GameKernel, sigma: np.ndarray) -> float:
    """Sum over players of the best-response gain of ``sigma`` (``evaluate.nash_conv``, float).

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
    k = _as_kernel(game_kernel)
    a = k.arrays
    k.check_sigma(sigma)
    return float(_nash_conv(a.n_players, a.zero_sum, sigma, *_static(k), k.br_out))
