"""Terminal payoff tables of a compiled game.

At each terminal row the pot goes to the strongest live players (ties split):
``u[p] = share[p] * pot - committed[p]``.  Who wins at a row does not depend on
the chips, so :func:`compile_terminals` records it once per game
(:class:`Terminals`) and :func:`payoffs` / :func:`payoffs_exact` turn the chips
committed at each terminal node into payoffs -- at the game's values, at other
values of its numeric parameters (:meth:`toypoker.game.Game.at`), or for a
derivative (:meth:`toypoker.game.Game.payoff_slope`).

Game floor (beside :mod:`toypoker.game`): imports only the definition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.definition import GameDefinition, Node

__all__ = ["Terminals", "compile_terminals", "payoffs", "payoffs_exact"]


@dataclass(frozen=True)
class Terminals:
    """Who wins at each terminal row.

    Attributes
    ----------
    rows : (T,) int
        The terminal rows, node by node (the order of ``Game.term_u``'s columns).
    win : (n, T) bool
        Whether each player is among the winners at each terminal row.
    count : (T,) int
        The number of winners at each terminal row.
    slices : tuple of (int, int)
        The columns ``[a, b)`` of each terminal node, in the order of the nodes.
    """

    rows: np.ndarray
    win: np.ndarray
    count: np.ndarray
    slices: tuple[tuple[int, int], ...]


def compile_terminals(
    term_nodes: Sequence[Node],
    node_row_start: np.ndarray,
    node_deals: Sequence[np.ndarray],
    strength: np.ndarray,
) -> Terminals:
    """The winners at every terminal row (arrays read-only).

    Parameters
    ----------
    term_nodes
        The compiled terminal nodes, in node order.
    node_row_start
        ``node_row_start[i]:node_row_start[i+1]`` are node ``i``'s rows.
    node_deals
        The deals of each node's rows.
    strength
        ``(n, D)`` hand strength of each player in each deal (higher wins).

    Returns
    -------
    Terminals
    """
    rows, win_parts, cnt_parts, slices = [], [], [], []
    pos = 0
    for nd in term_nodes:
        a, b = int(node_row_start[nd.id]), int(node_row_start[nd.id + 1])
        s = node_deals[nd.id]
        live = np.array(nd.live)
        st = np.where(live[:, None], strength[:, s], np.iinfo(np.int64).min)
        win = st == st.max(axis=0, keepdims=True)
        rows.append(np.arange(a, b))
        win_parts.append(win)
        cnt_parts.append(win.sum(axis=0))
        slices.append((pos, pos + b - a))
        pos += b - a
    out = Terminals(
        np.concatenate(rows),
        np.concatenate(win_parts, axis=1),
        np.concatenate(cnt_parts),
        tuple(slices),
    )
    for arr in (out.rows, out.win, out.count):
        arr.flags.writeable = False
    return out


def payoffs(
    terminals: Terminals,
    definition: GameDefinition,
    committed: Sequence[Sequence[Fraction]],
) -> np.ndarray:
    """``u = share * pot - committed`` (float64) at the terminal rows.

    Parameters
    ----------
    terminals
        The game's winners (:func:`compile_terminals`).
    definition
        The game's definition (its optional payoff transforms ``payoff_a``,
        ``payoff_b``, e.g. win sharing within a team).
    committed
        The chips each player has committed at each terminal node.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, T)``.
    """
    d = definition
    amat = None if d.payoff_a is None else np.array(d.payoff_a, dtype=np.float64)
    bmat = None if d.payoff_b is None else np.array(d.payoff_b, dtype=np.float64)
    parts = []
    for c, (a, b) in zip(committed, terminals.slices, strict=True):
        chips = np.array([float(x) for x in c])
        share = terminals.win[:, a:b] / terminals.count[a:b] * chips.sum()
        if amat is not None:
            share = amat @ share
        paid = chips if bmat is None else bmat @ chips
        parts.append(share - paid[:, None])
    return np.concatenate(parts, axis=1)


def payoffs_exact(
    terminals: Terminals,
    definition: GameDefinition,
    committed: Sequence[Sequence[Fraction]],
) -> np.ndarray:
    """:func:`payoffs` in exact rationals (object array of Fraction).

    A row's payoffs depend on its node and on who wins only: they are computed
    once per set of winners at each node and shared (by reference) among its rows.
    Parameters and result as for :func:`payoffs`.
    """
    parts = []
    d = definition
    bits = 1 << np.arange(terminals.win.shape[0], dtype=np.int64)
    for c, (a, b) in zip(committed, terminals.slices, strict=True):
        pot = sum(c, Fraction(0))
        codes, inverse = np.unique(bits @ terminals.win[:, a:b], return_inverse=True)
        win = (codes[None, :] & bits[:, None]) > 0
        share = np.empty(win.shape, dtype=object)
        for k in range(len(codes)):
            share[:, k] = [Fraction(int(w), int(win[:, k].sum())) * pot for w in win[:, k]]
        paid = np.array(list(c), dtype=object)
        if d.payoff_a is not None:
            share = np.array(d.payoff_a, dtype=object) @ share
        if d.payoff_b is not None:
            paid = np.array(d.payoff_b, dtype=object) @ paid
        parts.append((share - paid[:, None])[:, inverse.reshape(-1)])
    return np.concatenate(parts, axis=1)
