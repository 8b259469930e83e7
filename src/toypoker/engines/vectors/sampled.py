"""Public chance sampling on the vector layout: one board path an iteration.

Public-chance-sampling CFR (Johanson, Bard, Lanctot, Gibson & Bowling 2012,
"Efficient Nash equilibrium approximation through Monte Carlo counterfactual regret
minimization") samples only the public chance events and keeps every player's private
hands: here that is one board per betting round, the hands staying full vectors.

In the vector layout every chance node whose board so far is ``b`` deals the same
children boards with the same multiplicities (``VectorGame.node_mult``: how many
physical boards a canonical one stands for), so a *board path* -- the root's empty
board, then one child board per round -- fixes the sampled subtree: the nodes whose
board lies on the path.  Child ``c`` is drawn with probability
``q_c = node_mult[c] / sum of node_mult over its siblings`` (the board's chance before
card removal, which the hand vectors keep as they are); a node on the path carries the
importance weight ``scale = prod 1 / q`` of the draws above it, so every sampled value
has expectation the full value: ``E[scale[t] 1(t sampled)] = 1`` for each node ``t``
and values are linear in the terminals' (:func:`board_paths` lists every path with its
probability, for the exact check in ``tests/engines/vectors/test_sampled.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.engines.vectors.layout import VectorGame


@dataclass(frozen=True)
class ChanceTable:
    """Per board ``b`` that a chance node deals after: its children boards and their
    probabilities (floats and exact)."""

    children: dict[int, np.ndarray]
    prob: dict[int, np.ndarray]
    prob_exact: dict[int, tuple[Fraction, ...]]


def chance_table(vg: VectorGame) -> ChanceTable:
    """The :class:`ChanceTable` of ``vg`` (built once, kept with it)."""
    if "chance_table" not in vg.cache:
        children: dict[int, np.ndarray] = {}
        prob: dict[int, np.ndarray] = {}
        exact: dict[int, tuple[Fraction, ...]] = {}
        for nd in vg.game.nodes:
            b = int(vg.node_board[nd.id])
            if nd.kind != "chance" or b in children:
                continue
            kids = np.asarray(nd.children, dtype=np.int64)
            mult = [int(m) for m in vg.node_mult[kids]]
            total = sum(mult)
            children[b] = vg.node_board[kids].copy()
            exact[b] = tuple(Fraction(m, total) for m in mult)
            prob[b] = np.array([float(q) for q in exact[b]])
        vg.cache["chance_table"] = ChanceTable(children, prob, exact)
    return vg.cache["chance_table"]  # type: ignore[return-value]


def sample_path(vg: VectorGame, rng: np.random.Generator) -> tuple[int, ...]:
    """A board path drawn with the boards' probabilities (one draw a round)."""
    table = chance_table(vg)
    path = [int(vg.node_board[0])]
    while path[-1] in table.children:
        b = path[-1]
        k = int(rng.choice(len(table.prob[b]), p=table.prob[b]))
        path.append(int(table.children[b][k]))
    return tuple(path)


def board_paths(vg: VectorGame) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every board path with its exact probability (small games: the paths multiply)."""
    table = chance_table(vg)

    def walk(path: tuple[int, ...], p: Fraction) -> Iterator[tuple[tuple[int, ...], Fraction]]:
        b = path[-1]
        if b not in table.children:
            yield path, p
            return
        for child, q in zip(table.children[b], table.prob_exact[b], strict=True):
            yield from walk((*path, int(child)), p * q)

    yield from walk((int(vg.node_board[0]),), Fraction(1))


def path_subtree(
    vg: VectorGame, path: tuple[int, ...], exact: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The sampled subtree of a board path: its node ids (sorted) and every node's
    importance weight (``prod 1 / q`` above it on the path; 0 off the path), floats or
    Fractions."""
    table = chance_table(vg)
    weight: dict[int, Fraction] = {path[0]: Fraction(1)}
    for a, b in zip(path, path[1:], strict=False):
        k = int(np.nonzero(table.children[a] == b)[0][0])
        weight[b] = weight[a] / table.prob_exact[a][k]
    on = np.isin(vg.node_board, np.asarray(path, dtype=np.int64))
    active = np.flatnonzero(on)
    if exact:
        scale = np.full(vg.n_nodes, Fraction(0), dtype=object)
    else:
        scale = np.zeros(vg.n_nodes)
    for b, w in weight.items():
        scale[vg.node_board == b] = w if exact else float(w)
    return active, scale


__all__ = ["ChanceTable", "board_paths", "chance_table", "path_subtree", "sample_path"]
