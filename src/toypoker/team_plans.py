"""A two-member team's best response by enumeration, for games whose member plans are few.

Against fixed outside strategies the team maximises ``sum_r coef_r * x(s_r) * y(t_r)``
over the members' pure sequence-form plans ``x`` and ``y`` (:mod:`toypoker.team_pairs`).
For each pure plan ``x`` of the member with fewer plans ("the enumerated member"), the
other member's best reply is a backward induction over its own sequences (alone it has
perfect recall); the best pair is the plan ``x`` whose reply is worth most.  Exact by
exhaustion, no LP and no certificate needed.  Done for all plans at once: a plan ``x``
is a product of independent choices in the subtrees below the enumerated member's root
infosets (four-card Kuhn: one per card), so the other member's sequence values
``sum_i x_i c_ij`` are sums of one small table per subtree, broadcast over the plans
(one array of ``plans x sequences``); the backward induction then runs level by level
over that array.

Used by :func:`toypoker.team_response.joint_response` when the enumerated member has at
most :data:`MAX_PLANS` plans (four-card Kuhn: 6,561 or 10,000; 3P-SMH: far more).

This module sees only the compiled game and arrays; it imports nothing above
:mod:`toypoker.game`.
"""

from __future__ import annotations

import numpy as np

from .game import Game
from .team_pairs import TerminalPairs, complete_plan, member_sequences, per_team

__all__ = ["MAX_WORK", "USE_ENUMERATION", "PlanTable", "enumerated_response"]

#: most work (entries of the arrays: the enumerated member's plans, and per group of the
#: other member's subtrees the plans of the subtrees they meet times the members'
#: sequences) of
#: :func:`enumerated_response`; above it the function gives ``None``
MAX_WORK = 200_000

#: whether :func:`enumerated_response` answers (``False``: always ``None``, the LP path
#: answers; ``benchmarks/bench_teams.py`` and the tests compare the two)
USE_ENUMERATION = True


def _tree(game: Game, model: TerminalPairs, k: int) -> list[tuple[np.ndarray, int]]:
    """Member ``k``'s free infosets, parents first: each one's actions (sequence numbers
    1..n of the member) and parent sequence (0: empty)."""
    seqs = member_sequences(game, model.members[k])
    infs = game.sigma_infoset[seqs]
    par = model.par[k]
    starts = np.flatnonzero(np.concatenate([[True], infs[1:] != infs[:-1]]))
    ends = np.append(starts[1:], len(seqs))
    out = [(np.arange(a + 1, b + 1), int(par[a + 1])) for a, b in zip(starts, ends, strict=True)]
    depth = np.full(len(seqs) + 1, -1, dtype=np.int64)  # of each sequence (empty: 0)
    depth[0] = 0
    while (depth < 0).any():  # each round places one more level
        for acts, p in out:
            depth[acts] = depth[p] + 1 if depth[p] >= 0 else -1
    order = np.argsort([depth[acts[0]] for acts, _ in out], kind="stable")
    return [out[j] for j in order]


class PlanTable:
    """The enumeration's structure for one team (built once per game and team,
    :func:`~toypoker.team_pairs.per_team`).

    Attributes
    ----------
    plans
        The enumerated member's pure plans (0 when the work would pass
        :data:`MAX_WORK`: then the table is not used).
    enumerated
        Which member (0 or 1 in ``members`` order) is enumerated.
    """

    def __init__(self, game: Game, members: tuple[int, ...]):
        model = per_team(game, TerminalPairs, members)
        self.model = model
        n = (model.n_a, len(model.sigma) - model.n_a + 2)  # sequences, the empty one included
        trees = [_tree(game, model, k) for k in range(2)]
        counts = [_count(tree, n[k]) for k, tree in enumerate(trees)]
        a = self.enumerated = int(np.argmin(counts))
        b = 1 - a
        self.n, self.plans = n, 0
        if counts[a] > MAX_WORK:
            return
        i, j = model.pair if a == 0 else model.pair[::-1]
        self.flat = i * n[b] + j  # each kept pair's cell of the (a, b) table
        # the enumerated member's subtrees (one per root infoset): their plans, 0/1
        self.subtrees = _subtrees(trees[a], n[a])
        if not self.subtrees:
            return
        owner_a = np.full(n[a], -1, dtype=np.int64)
        for u, (_, seqs) in enumerate(self.subtrees):
            owner_a[seqs] = u
        owner_b = np.full(n[b], -1, dtype=np.int64)
        roots_b = _subtrees(trees[b], n[b], plans=False)
        for v, (_, seqs) in enumerate(roots_b):
            owner_b[seqs] = v
        ti, tj = i[model.term_var], j[model.term_var]  # pairs met at a terminal row
        shape = [len(x) for x, _ in self.subtrees]
        groups: dict[tuple[int, ...], list[tuple[list[tuple[np.ndarray, int]], np.ndarray]]] = {}
        for v, part in enumerate(roots_b):  # the other's subtrees, by the subtrees they meet
            met = np.unique(owner_a[ti[(owner_b[tj] == v) & (ti > 0)]])
            groups.setdefault(tuple(int(u) for u in met), []).append(part)
        self.groups = []  # per group: its sequences, the subtrees met, the shape to add with,
        work = counts[a]  # the infosets below the roots (deepest first), the roots by size
        for met, parts in groups.items():
            seqs = np.concatenate([q for _, q in parts])
            local = {int(x): k for k, x in enumerate(seqs)}
            below, roots = [], {}
            for infos, _ in parts:
                for acts, p in reversed(infos):  # deepest first
                    mine = np.array([local[int(x)] for x in acts])
                    if p == 0:
                        roots.setdefault(len(acts), []).append(mine)
                    else:
                        below.append((mine, local[p]))
            to = [shape[k] if k in met else 1 for k in range(len(shape))]
            work += (n[a] + len(seqs)) * int(np.prod([shape[u] for u in met]))
            if work > MAX_WORK:
                return
            # every combination of the met subtrees' plans (the last one fastest), 0/1
            combos = np.zeros((1, n[a]))
            combos[0, 0] = 1.0
            for u in met:
                x = self.subtrees[u][0]
                combos = (combos[:, None, :] + x[None, :, :]).reshape(-1, n[a])
            self.groups.append((combos, seqs, to, below, [np.array(r) for r in roots.values()]))
        self.stacked = np.concatenate([x for x, _ in self.subtrees])  # all subtrees' plans
        self.cuts = np.cumsum(shape)[:-1]
        self.alone = [[-1 if k == u else 1 for k in range(len(shape))] for u in range(len(shape))]
        self.shape = shape
        self.levels_b = _levels(trees[b])
        self.plans = counts[a]

    def best(self, c: np.ndarray) -> tuple[np.ndarray, float]:
        """The best joint plan (0/1 over the members' sequences, ``sigma`` order of
        :class:`~toypoker.team_pairs.TerminalPairs`) and its value, for the pair objective
        ``c`` (per kept pair)."""
        a = self.enumerated
        nb = self.n[1 - a]
        table = np.bincount(self.flat, weights=c, minlength=self.n[a] * nb).reshape(-1, nb)
        shape = self.shape
        # per subtree: its plans x the other's sequences
        t = np.split(self.stacked @ table, self.cuts)
        total = np.full(shape, table[0, 0])  # every plan of the enumerated member
        for tu, to in zip(t, self.alone, strict=True):  # the enumerated member's terms alone
            total += tu[:, 0].reshape(to)
        for combos, seqs, to, below, roots in self.groups:
            v = combos @ table[:, seqs]  # the met subtrees' plans x the group's sequences
            for acts, p in below:
                v[:, p] += v[:, acts].max(axis=1)
            for r in roots:  # each root infoset's best, summed: the group's worth
                total += v[:, r].max(axis=2).sum(axis=1).reshape(to)
        k = int(np.argmax(total))
        value = float(total.flat[k])
        xa = np.zeros(self.n[a])
        for (x, _), r in zip(self.subtrees, np.unravel_index(k, shape), strict=True):
            xa += x[r]
        xa[0] = 1.0
        col = xa @ table  # the other member's reply to that plan, by the same induction
        yb = np.zeros(nb)
        for acts, first, parents in self.levels_b:  # deepest first
            pick = acts[np.arange(len(acts)), np.argmax(col[acts], axis=1)]
            col[parents] += np.add.reduceat(col[pick], first)
            yb[pick] = 1.0
        xb = np.zeros(nb)  # the reply's sequence form: a sequence counts when its parent does
        xb[0] = 1.0
        for acts, first, parents in reversed(self.levels_b):  # parents first
            reach = np.repeat(xb[parents], np.diff(np.append(first, len(acts))))
            xb[acts] = yb[acts] * reach[:, None]
        y = [xa[1:], xb[1:]]
        return np.concatenate(y if a == 0 else y[::-1]), value


def _subtrees(tree: list[tuple[np.ndarray, int]], n: int, plans: bool = True
              ) -> list[tuple[np.ndarray, np.ndarray]]:  # fmt: skip
    """A member's subtrees below its root infosets (``tree`` parents first): each one's
    pure plans (``plans``; else its infosets) and sequences."""
    root: dict[int, int] = {}
    owner = np.full(n, -1, dtype=np.int64)
    for acts, p in tree:
        if p == 0:
            root[int(acts[0])] = len(root)
        owner[acts] = root[int(acts[0])] if p == 0 else owner[p]
    out = []
    for j in range(len(root)):
        mine = [t for t in tree if owner[t[0][0]] == j]
        seqs = np.concatenate([acts for acts, _ in mine])
        out.append((_plans(mine, n) if plans else mine, seqs))  # type: ignore[arg-type]
    return out  # type: ignore[return-value]


def _count(tree: list[tuple[np.ndarray, int]], n: int) -> int:
    """Pure plans (reduced: choices only where reached) of a member."""
    ways = np.ones(n, dtype=object)  # per sequence: the plans below it (exact ints)
    for acts, p in reversed(tree):  # deepest first
        ways[p] = ways[p] * sum(ways[acts])
    return int(ways[0])


def _plans(tree: list[tuple[np.ndarray, int]], n: int) -> np.ndarray:
    """Every pure plan of the infosets ``tree`` (parents first), 0/1 over the member's
    ``n`` sequences (the empty one's column 0)."""
    x = np.zeros((1, n))
    for acts, p in tree:
        on = x[:, p] == 1 if p else np.ones(len(x), dtype=bool)
        grown = np.repeat(x[on], len(acts), axis=0)
        grown[np.arange(len(grown)), np.tile(acts, int(on.sum()))] = 1.0
        x = np.concatenate([x[~on], grown])
    return x


def _levels(tree: list[tuple[np.ndarray, int]]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """A member's infosets (``tree`` parents first) by depth, deepest first, grouped by
    action count and sorted by parent: each group's actions ``(infosets, k)``, the
    group's first infoset per parent, and those parents."""
    depth: dict[int, int] = {0: 0}
    for acts, p in tree:
        for x in acts:
            depth[int(x)] = depth[p] + 1
    groups: dict[tuple[int, int], list[tuple[np.ndarray, int]]] = {}
    for acts, p in tree:
        groups.setdefault((depth[int(acts[0])], len(acts)), []).append((acts, p))
    out = []
    for key in sorted(groups, key=lambda t: -t[0]):
        group = sorted(groups[key], key=lambda t: t[1])
        parents = np.array([p for _, p in group])
        first = np.flatnonzero(np.concatenate([[True], parents[1:] != parents[:-1]]))
        out.append((np.array([acts for acts, _ in group]), first, parents[first]))
    return out


def enumerated_response(game: Game, members: tuple[int, ...], coef: np.ndarray
                        ) -> tuple[np.ndarray, float] | None:  # fmt: skip
    """The two-member team's best joint pure plan and its value by enumeration, or
    ``None`` when the enumerated member has more than :data:`MAX_PLANS` plans.

    Parameters
    ----------
    game, members, coef
        As in :func:`toypoker.team_response.joint_plan` (two members).

    Returns
    -------
    tuple of numpy.ndarray and float, or None
        A 0/1 vector over the game's actions (as ``joint_plan``) and its value
        ``sum_j coef_j * (the plan reaches row j)``.
    """
    if not USE_ENUMERATION:
        return None
    table = per_team(game, PlanTable, members)
    if not table.plans:
        return None
    x, value = table.best(table.model.objective(coef))
    choice = np.zeros(game.n_sigma, dtype=np.int8)
    choice[table.model.sigma] = x.astype(np.int8)
    return complete_plan(game, members, choice), value
