"""Reach, counterfactual values, best responses and NashConv in the vector layout.

Arrays are ``(nodes, H)`` per player (:mod:`toypoker.engines.vectors.layout`).

* ``reach[p, t, h]``: ``p``'s own action probabilities on the path to node ``t``
  when she holds hand ``h``, times whether ``h`` avoids ``t``'s board.
* ``cfv[t, h]`` of player ``p``: the sum over the other players' hands (pairwise
  disjoint, disjoint from ``h``, each weighted by its holder's reach) and the
  chance events below ``t`` of ``p``'s payoff, times the probability of the joint
  deal (``VectorGame.node_weight``) -- so ``sum_h cfv[root, h]`` is ``p``'s expected
  payoff, and ``cfv`` at ``p``'s action edges gives CFR's regrets directly.

Terminal values never touch joint deals:

* two players, fold: ``(pot [p wins] - committed_p) C(h)`` with the opponent's
  mass compatible with ``h`` by inclusion-exclusion over ``h``'s cards,
  ``C(h) = sum_{S subset of h} (-1)^|S| M[S]`` (``M[S]``: the opponent's reach
  summed over the hands holding ``S``);
* two players, showdown: the hands sorted by strength once per board; the mass
  the opponent holds below (and level with) ``h``'s strength, by the same
  inclusion-exclusion applied to prefix sums of each card subset's hands in
  strength order: ``O(H 2^hole)`` per terminal after an ``O(H log H)`` sort per
  board (:class:`~toypoker.engines.vectors.terminal_values._Sweep`); ties split the pot;
* three players holding one card each (Kuhn, Leduc, one-card hold'em): the same in
  ``O(H)`` a terminal, by inclusion-exclusion over the one-card coincidences
  (:func:`~toypoker.engines.vectors.terminal_values._three_group`);
* otherwise (three players with two or more hole cards, four or more players) and as
  the reference: the dense product over the other players' hands, ``O(H^n)`` a
  terminal (:func:`~toypoker.engines.vectors.terminal_values._dense_group`); on rank pairs
  (:func:`~toypoker.engines.vectors.layout.rank_hands`, three players) the product runs
  over rank hands with the board's deal counts as the tensor, ``O(R^3)`` a terminal.

Under weak collusion's payoff map (``VectorGame.payoff``) every terminal runs on the
dense product: player ``i`` receives ``sum_j A[i, j]`` of each player's share of the
pot (:func:`share_fraction`, indexed by all the hands) and is charged
``sum_j B[i, j] committed_j``.

The terminal values are :mod:`toypoker.engines.vectors.terminal_values`'s; reach, the
backward pass, best responses and NashConv are here.  Every function runs on float64
and, where stated, on object arrays of :class:`fractions.Fraction` (exact).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from toypoker.engines.rows.values import first_best, segment_sum
from toypoker.engines.vectors.layout import VectorGame
from toypoker.engines.vectors.terminal_values import (  # noqa: F401 (re-exported)
    Plan,
    _one,
    plan_for,
    pot_shares,
    share_fraction,
    terminal_values,
)
from toypoker.game import Game


def depth_nodes(vg: VectorGame, active: np.ndarray | None) -> list[slice | np.ndarray]:
    """The nodes of each depth: a slice of ids, or with ``active`` (sorted node ids: a
    sampled subtree, closed under parents) the active ids of the depth."""
    ds = vg.depth_start
    if active is None:
        return [slice(int(ds[t]), int(ds[t + 1])) for t in range(len(ds) - 1)]
    cut = np.searchsorted(active, ds)
    return [active[cut[t] : cut[t + 1]] for t in range(len(ds) - 1)]


def reaches(vg: VectorGame, sigma: np.ndarray, active: np.ndarray | None = None) -> np.ndarray:
    """Every player's own reach at every (node, hand), shape ``(n, nodes, H)``; with
    ``active`` (:func:`depth_nodes`) at those nodes only (0 elsewhere)."""
    exact = sigma.dtype == object
    n, nn, hh = vg.n_players, vg.n_nodes, vg.n_hands
    dtype = object if exact else np.float64
    reach = np.empty((n, nn, hh), dtype=dtype) if active is None else np.zeros((n, nn, hh), dtype)
    if exact and active is not None:
        reach[...] = Fraction(0)
    reach[:, 0, :] = _one(exact)
    plan = plan_for(vg)
    for idx in depth_nodes(vg, active)[1:]:
        par = vg.parent[idx]
        r = reach[:, par, :]
        ch = plan.chance_child[idx]
        if ch.any():
            r[:, ch, :] = r[:, ch, :] * vg.board_compat[vg.node_board[idx][ch]]
        for p in range(n):
            sel = vg.edge_player[idx] == p
            if sel.any():
                e = vg.edge_sigma[idx][sel]
                f = sigma[e.clip(0)]
                f[e < 0] = 0 * _one(exact)
                r[p, sel, :] = r[p, sel, :] * f
        reach[:, idx, :] = r
    return reach


def counterfactual_values(
    vg: VectorGame,
    sigma: np.ndarray,
    player: int,
    reach: np.ndarray,
    *,
    dense: bool = False,
    sampled: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """``player``'s counterfactual values at every (node, hand), shape ``(nodes, H)``.

    ``dense`` uses the O(H^n) product at every terminal (the reference);
    otherwise the O(H) sweeps where they apply (see the module docstring).
    ``sampled = (active, scale)``: the importance-weighted values of a sampled
    subtree (:func:`toypoker.engines.vectors.sampled.path_subtree`; 0 off it)."""
    active, scale = sampled if sampled is not None else (None, None)
    cfv = terminal_values(vg, reach, player, sigma.dtype == object, dense=dense, scale=scale)
    _backward(vg, sigma, player, cfv, None, active=active)
    return cfv


def _backward(
    vg: VectorGame,
    sigma: np.ndarray,
    player: int,
    cfv: np.ndarray,
    choice: np.ndarray | None,
    ties: tuple[np.ndarray | None, float] = (None, 0.0),
    active: np.ndarray | None = None,
) -> None:
    """Sum ``cfv`` up the tree in place: ``player``'s edges weighted by ``sigma`` (or,
    with ``choice``, by a best response chosen here per infoset, ``ties`` = (order,
    tie_rtol) as :func:`best_response_value`'s), others' summed; with ``active``
    (:func:`depth_nodes`) over those nodes only."""
    exact = cfv.dtype == object
    game = vg.game
    for idx in depth_nodes(vg, active)[:0:-1]:
        v = cfv[idx]
        own = vg.edge_player[idx] == player
        if own.any():
            e = vg.edge_sigma[idx][own]
            ok = e >= 0
            if choice is not None:
                _choose(game, e[ok], v[own][ok], choice, exact, ties)
                weight = np.where(game.sigma_fixed, sigma, choice)
                if exact:
                    weight = np.array([Fraction(x) for x in weight], dtype=object)
            else:
                weight = sigma
            f = weight[e.clip(0)]
            f[~ok] = 0 * _one(exact)
            v = v.copy()
            v[own] = v[own] * f
        # breadth-first ids: a depth's children come grouped by parent, parents ascending
        par = vg.parent[idx]
        if not len(par):
            continue
        first = np.flatnonzero(np.r_[True, par[1:] != par[:-1]])
        cfv[par[first]] += np.add.reduceat(v, first, axis=0)


def _choose(
    game: Game,
    e: np.ndarray,
    q: np.ndarray,
    choice: np.ndarray,
    exact: bool,
    ties: tuple[np.ndarray | None, float] = (None, 0.0),
) -> None:
    """Best actions of the free infosets whose edges ``e`` carry the values ``q``:
    summed over the hands of each infoset, first maximum in the game's action order
    (or in ``ties[0]``; floats within ``ties[1]`` times the infoset's largest absolute
    action value of the best are ties, as :func:`toypoker.engines.rows.values.best_response`)."""
    order, tie_rtol = ties
    total = segment_sum(e, q, game.n_sigma)
    infs = np.unique(game.sigma_infoset[e])
    infs = infs[~game.infoset_restricted[infs]]
    if not len(infs):
        return
    pad = (game.infoset_actions_padded if order is None else order)[infs]
    if exact:
        best = np.array(
            [
                max(
                    (k for k in range(len(row)) if row[k] >= 0),
                    key=lambda k, row=row: (total[row[k]], -k),
                )
                for row in pad
            ],
            dtype=np.int64,
        )
    else:
        qm = np.where(pad >= 0, total[pad.clip(0)], -np.inf)
        best = first_best(qm, pad, tie_rtol)
    choice[pad.ravel()[pad.ravel() >= 0]] = 0
    choice[pad[np.arange(len(infs)), best]] = 1


def expected_values(vg: VectorGame, sigma: np.ndarray, *, dense: bool = False) -> np.ndarray:
    """Each player's expected payoff under the flat profile ``sigma`` (exact for
    Fractions), equal to :func:`toypoker.engines.rows.values.expected_values`."""
    reach = reaches(vg, sigma)
    vals = [
        counterfactual_values(vg, sigma, p, reach, dense=dense)[0].sum()
        for p in range(vg.n_players)
    ]
    return np.array(vals, dtype=sigma.dtype if sigma.dtype == object else np.float64)


def best_response_value(
    vg: VectorGame,
    sigma: np.ndarray,
    player: int,
    *,
    reach: np.ndarray | None = None,
    order: np.ndarray | None = None,
    tie_rtol: float = 0.0,
) -> tuple[object, np.ndarray]:
    """``player``'s best-response value against ``sigma`` and the pure response
    (0/1 per flat action at her free infosets).

    ``reach``: :func:`reaches` of ``sigma`` when the caller has it; ``order`` and
    ``tie_rtol``: the tie rule, as :func:`toypoker.engines.rows.values.best_response`'s."""
    if reach is None:
        reach = reaches(vg, sigma)
    cfv = terminal_values(vg, reach, player, sigma.dtype == object)
    choice = np.zeros(vg.game.n_sigma, dtype=np.int64)
    _backward(vg, sigma, player, cfv, choice, (order, tie_rtol))
    return cfv[0].sum(), choice


def nash_conv(vg: VectorGame, sigma: np.ndarray) -> object:
    """Sum over players of the best-response gain (exact for Fractions)."""
    values = expected_values(vg, sigma)
    gains = [best_response_value(vg, sigma, p)[0] - values[p] for p in range(vg.n_players)]
    if sigma.dtype != object:
        gains = [max(float(g), 0.0) for g in gains]
    return sum(gains[1:], gains[0])
