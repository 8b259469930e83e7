"""A team's best joint pure plan by backward induction over its public belief states.

A state is a public node and, for each member, the set of its private observations
still consistent with the plan; states are memoised (the team belief DAG of Zhang,
Farina and Sandholm 2023, "Team belief DAG", built lazily).  An exact alternative to
the MILPs of :mod:`toypoker.teams.response` (which re-exports
:func:`joint_plan_by_beliefs`) on games whose belief states are few.
"""

from __future__ import annotations

import itertools

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.game import Game

__all__ = ["MAX_PRESCRIPTIONS", "joint_plan_by_beliefs"]

#: most prescriptions (one action per observation) tried at one team decision node by
#: :func:`joint_plan_by_beliefs` before it gives up
MAX_PRESCRIPTIONS = 1 << 16


def joint_plan_by_beliefs(
    game: Game, members: tuple[int, ...], coef: np.ndarray, max_states: int | None = None
) -> np.ndarray:
    """The team's best joint pure plan by backward induction over its public belief states.

    A state is a public node and, for each member, the set of its private observations
    still consistent with the plan (the team's beliefs are always such a product set:
    a member's action depends on its own observation only).  At a member's node the
    team picks a prescription, an action for each observation in the member's set,
    which splits the set among the children; chance and outsider nodes sum their
    children; a terminal node sums ``coef`` over its rows whose observations are in
    the sets.  States are memoised (the team belief DAG of Zhang, Farina and Sandholm
    2023, "Team belief DAG", built lazily).  Where no other member acts below a
    member's node, the prescription is chosen observation by observation.

    Parameters
    ----------
    game, members, coef
        As in :func:`toypoker.teams.response.joint_plan`.
    max_states
        Give up after this many belief states (``None``: no cap).

    Returns
    -------
    numpy.ndarray
        As :func:`toypoker.teams.response.joint_plan`.

    Raises
    ------
    ToypokerError
        For suit-isomorphic games (observations change with the board), restricted
        actions of a member, a node needing more than :data:`MAX_PRESCRIPTIONS`
        prescriptions, or more than ``max_states`` states.
    """
    if game.obs_round is not None:
        raise ToypokerError("belief-state best response: suit-isomorphic games not supported")
    if (game.sigma_fixed & np.isin(game.sigma_player, members)).any():
        raise ToypokerError("belief-state best response: a member has restricted actions")
    dag = _BeliefDag(game, members, coef, max_states)
    full = tuple((1 << s) - 1 for s in dag.shape)
    dag.value(0, full)
    return dag.plan(full)


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


class _BeliefDag:
    """The team's belief states of one game, team and ``coef``, valued lazily: ``memo``
    maps ``(node, masks)`` (a member's mask: its observations still possible) to the
    state's value and the prescription chosen there (``None`` off the members' nodes)."""

    def __init__(
        self, game: Game, members: tuple[int, ...], coef: np.ndarray, max_states: int | None
    ):
        self.game, self.members, self.max_states = game, members, max_states
        nodes = self.nodes = game.nodes
        obs = [game.obs[p] for p in members]
        self.shape = tuple(len(game.obs_private[p]) for p in members)
        # per terminal node: coef summed by the members' observations
        tnode = game.row_node[game.term_rows]
        tdeal = game.row_deal[game.term_rows]
        self.table: dict[int, np.ndarray] = {}
        for v in np.unique(tnode):
            on = tnode == v
            w = np.zeros(self.shape)
            np.add.at(w, tuple(o[tdeal[on]] for o in obs), np.asarray(coef, float)[on])
            self.table[int(v)] = w
        # team members acting at or below each node
        self.below: list[set[int]] = [set() for _ in nodes]
        for n in reversed(nodes):
            if n.kind == "decision" and n.actor in members:
                self.below[n.id].add(n.actor)
            for c in n.children:
                self.below[n.id] |= self.below[c]
        # infoset of (node, member observation)
        self.infoset: dict[tuple[int, int], int] = {}
        for v, n in enumerate(nodes):
            if n.kind == "decision" and n.actor in members:
                a, b = game.node_row_start[v], game.node_row_start[v + 1]
                o = obs[members.index(n.actor)][game.row_deal[a:b]]
                for r, ob in zip(range(a, b), o, strict=True):
                    self.infoset.setdefault((v, int(ob)), int(game.row_infoset[r]))
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[float, tuple[int, ...] | None]] = {}

    def value(self, v: int, masks: tuple[int, ...]) -> float:
        """The team's best value from state ``(v, masks)`` (memoised)."""
        key = (v, masks)
        if key in self.memo:
            return self.memo[key][0]
        n = self.nodes[v]
        best: tuple[float, tuple[int, ...] | None]
        if any(m == 0 for m in masks):
            best = (0.0, None)
        elif n.kind == "terminal":
            best = (float(self.table[v][np.ix_(*(_bits(m) for m in masks))].sum()), None)
        elif n.kind == "chance" or n.actor not in self.members:
            best = (sum(self.value(c, masks) for c in n.children), None)
        else:
            best = self._prescribe(v, masks)
        self.memo[key] = best
        if self.max_states is not None and len(self.memo) > self.max_states:
            raise ToypokerError(f"belief-state best response: over {self.max_states} belief states")
        return best[0]

    def _prescribe(self, v: int, masks: tuple[int, ...]) -> tuple[float, tuple[int, ...] | None]:
        """The best prescription at a member's node and its value: observation by
        observation where no other member acts below, else over every prescription."""
        n = self.nodes[v]
        j = self.members.index(n.actor)
        mine = _bits(masks[j])

        def sub(o_mask: int, c: int) -> float:
            return self.value(c, masks[:j] + (o_mask,) + masks[j + 1 :])

        if self.below[v] == {n.actor}:  # nobody else of the team acts below: per observation
            picks, total = [], 0.0
            for o in mine:
                vals = [sub(1 << o, c) for c in n.children]
                k = int(np.argmax(vals))
                picks.append(k)
                total += vals[k]
            return (total, tuple(picks))
        k = len(n.children)
        if k ** len(mine) > MAX_PRESCRIPTIONS:
            raise ToypokerError(
                f"belief-state best response: {k}^{len(mine)} prescriptions at one node"
            )
        best: tuple[float, tuple[int, ...] | None] = (-np.inf, None)
        for presc in itertools.product(range(k), repeat=len(mine)):
            parts = [0] * k
            for o, a in zip(mine, presc, strict=True):
                parts[a] |= 1 << o
            total = sum(sub(parts[a], c) for a, c in enumerate(n.children))
            if total > best[0]:
                best = (total, presc)
        return best

    def plan(self, full: tuple[int, ...]) -> np.ndarray:
        """The joint plan the memoised prescriptions make, from the root state ``(0,
        full)``; the infosets it never reaches at their first action."""
        game, members, nodes, below = self.game, self.members, self.nodes, self.below
        choice = np.zeros(game.n_sigma, dtype=np.int8)
        stack = [(0, full)]
        seen = set()
        while stack:
            v, masks = stack.pop()
            if (v, masks) in seen or any(m == 0 for m in masks):
                continue
            seen.add((v, masks))
            n = nodes[v]
            presc = self.memo[(v, masks)][1]
            if presc is None:
                stack.extend((c, masks) for c in n.children)
                continue
            j = members.index(n.actor)
            parts = [0] * len(n.children)
            for o, a in zip(_bits(masks[j]), presc, strict=True):
                inf = game.infosets[self.infoset[(v, o)]]
                choice[inf.offset + a] = 1
                parts[a] |= 1 << o
                if below[v] == {n.actor}:  # chosen observation by observation
                    stack.append((n.children[a], masks[:j] + (1 << o,) + masks[j + 1 :]))
            if below[v] != {n.actor}:
                stack.extend((c, masks[:j] + (parts[a],) + masks[j + 1 :])
                             for a, c in enumerate(n.children))  # fmt: skip
        for inf in game.infosets:  # infosets the plan never reaches: their first action
            if inf.player in members:
                block = choice[inf.offset : inf.offset + len(inf.actions)]
                if not block.any():
                    block[0] = 1
        return choice
