"""A two-member team's best response by enumeration, for games whose member plans are few.

Against fixed outside strategies the team maximises ``sum_r coef_r * x(s_r) * y(t_r)``
over the members' pure sequence-form plans ``x`` and ``y`` (:mod:`toypoker.teams.pairs`).
For each pure plan ``x`` of the member with fewer plans ("the enumerated member"), the
other member's best reply is a backward induction over its own sequences (alone it has
perfect recall); the best pair is the plan ``x`` whose reply is worth most.  Exact by
exhaustion (first best plan on ties: no dependence on earlier calls), no LP and no
certificate needed.  Done for all plans at once: a plan ``x`` is a product of
independent choices in the subtrees below the enumerated member's root infosets
(four-card Kuhn: one per card), and each root subtree of the other member meets only
some of them at the terminals (those of the other cards), so its values are computed
for the combinations of those subtrees' plans only (:class:`PlanTable`), and a plan's
worth is the sum of its groups'.

Used first by :func:`toypoker.teams.response.joint_response` when the work stays within
:data:`MAX_WORK` (four-card Kuhn: 6,561 or 10,000 plans, every team; 3P-SMH and
three-player Leduc: far more, the LP of :mod:`toypoker.teams.pairs` answers).  On
four-card Kuhn the enumeration is about as fast as the warm-started LP alone, and a
team evaluation costs well under twice an ``evaluate`` (``benchmarks/bench_teams.py``;
``benchmarks/results/teams.md``).

This module sees only the compiled game and arrays; it imports nothing above
:mod:`toypoker.game`.
"""

from __future__ import annotations

import numpy as np

from toypoker.game import Game
from toypoker.teams.pairs import TerminalPairs, complete_plan, member_sequences, per_team

__all__ = ["MAX_WORK", "USE_ENUMERATION", "PlanTable", "enumerated_response"]

#: most work of :func:`enumerated_response` (entries of its arrays: each plan's worth per
#: group, and per group its sequences times the combinations of the plans it meets);
#: above it the function gives ``None``
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
    :func:`~toypoker.teams.pairs.per_team`).

    The other member's root subtrees are grouped by the enumerated member's subtrees
    they meet at a terminal; a group's sequence values for every combination of those
    subtrees' plans are one sparse product with the pair objective (``m``, all groups
    at once), groups of equal shape are induced together, and each plan's worth is the
    sum of its groups' (``idx``: per group, the row of each plan).

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
        var_of = np.full(n[a] * n[b], -1, dtype=np.int64)  # each (a, b) cell's kept pair
        var_of[i * n[b] + j] = np.arange(model.n_vars)
        self.cells = i * n[b] + j
        # the enumerated member's subtrees (one per root infoset): their plans, 0/1
        self.subtrees = _subtrees(trees[a], n[a])
        shape = [len(x) for x, _ in self.subtrees]
        owner_a, groups = self._groups(trees[b], n[a], n[b], i, j)
        blocks = self._blocks(groups, owner_a, var_of, shape, counts[a], n[b])
        if blocks is None:
            return
        self._assemble(blocks, model.n_vars)
        self.shape = shape
        self.levels_b = _levels(trees[b])
        self.plans = counts[a]

    def _groups(
        self, tree_b: list[tuple[np.ndarray, int]], n_a: int, n_b: int, i: np.ndarray,
        j: np.ndarray,
    ) -> tuple[np.ndarray, dict[tuple[int, ...], list]]:  # fmt: skip
        """The enumerated member's subtree of each of its sequences, and the other
        member's root subtrees grouped by the enumerated member's subtrees they meet."""
        owner_a = np.full(n_a, -1, dtype=np.int64)
        for u, (_, seqs) in enumerate(self.subtrees):
            owner_a[seqs] = u
        owner_b = np.full(n_b, -1, dtype=np.int64)
        roots_b = _subtrees(tree_b, n_b, plans=False)
        for v, (_, seqs) in enumerate(roots_b):
            owner_b[seqs] = v
        ti, tj = i[self.model.term_var], j[self.model.term_var]  # pairs met at a terminal row
        groups: dict[tuple[int, ...], list[tuple[list[tuple[np.ndarray, int]], np.ndarray]]] = {}
        for v, part in enumerate(roots_b):  # the other's subtrees, by the subtrees they meet
            met = np.unique(owner_a[ti[(owner_b[tj] == v) & (ti > 0)]])
            groups.setdefault(tuple(int(u) for u in met), []).append(part)
        for u in range(len(self.subtrees)):  # a subtree nobody meets: a group of its own
            if not any(u in met for met in groups):
                groups[(u,)] = []
        return owner_a, groups

    def _blocks(
        self, groups: dict[tuple[int, ...], list], owner_a: np.ndarray, var_of: np.ndarray,
        shape: list[int], plans: int, n_b: int,
    ) -> list[tuple] | None:  # fmt: skip
        """Each group's block of ``m`` (its shape as a key, its cells and pairs, each
        plan's row), sorted by key; None when the work would pass :data:`MAX_WORK`."""
        home = {}  # the group adding each subtree's own terms (pairs (i, 0))
        for met in groups:
            for u in met:
                home.setdefault(u, met)
        work = plans * (1 + len(groups))
        blocks = []
        grid = np.indices(shape).reshape(len(shape), -1)
        for g, (met, parts) in enumerate(groups.items()):
            seqs, below, roots = _group_sequences(parts)
            rows, width = int(np.prod([shape[u] for u in met])), len(seqs) + 1
            work += rows * width
            if work > MAX_WORK:
                return None
            # the group's values, one block of m's product: its sequences (columns; the
            # last one the own terms of the subtrees at home here) for the empty plan,
            # then for each plan of each met subtree: summed over a combination later
            cols = np.append(seqs, 0)
            at_home = [u for u in met if home[u] == met]
            cell, var = self._group_cells(g, met, cols, at_home, var_of, owner_a, n_b, width)
            at = np.ravel_multi_index(grid[list(met)], [shape[u] for u in met]) if met else 0
            key = (rows, width, tuple(shape[u] for u in met), tuple(below),
                   tuple(sorted(roots.items())))  # fmt: skip
            blocks.append((key, cell, var, np.broadcast_to(at, (plans,))))
        blocks.sort(key=lambda blk: repr(blk[0]))
        return blocks

    def _group_cells(
        self, g: int, met: tuple[int, ...], cols: np.ndarray, at_home: list[int],
        var_of: np.ndarray, owner_a: np.ndarray, n_b: int, width: int,
    ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
        """A group's entries of ``m``: each one's cell in the group's block and its pair."""
        parts_i = [np.zeros(1, dtype=np.int64)]  # per block row: the a-sequences in it
        for u in met:
            parts_i += [np.flatnonzero(x) for x in self.subtrees[u][0]]
        cell, var = [], []
        for row_, ii in enumerate(parts_i):
            v = var_of[ii[:, None] * n_b + cols[None, :]]
            last = np.isin(owner_a[ii], at_home)
            v[:, -1] = np.where(last | ((ii == 0) & (g == 0)), v[:, -1], -1)
            c_ = np.broadcast_to(row_ * width + np.arange(width), v.shape)
            cell.append(c_[v >= 0])
            var.append(v[v >= 0])
        return np.concatenate(cell), np.concatenate(var)

    def _assemble(self, blocks: list[tuple], n_vars: int) -> None:
        """Set ``m`` (the groups' blocks stacked, those of one shape together), ``idx``
        and the classes of equal-shaped groups :meth:`best` induces together."""
        from scipy.sparse import csr_array

        rows_m, cols_m, idx, self.classes = [], [], [], []
        top = row = 0  # the next entry of m's product, and of the groups' worths
        for key, members_ in _runs(blocks):
            n_rows, width, sizes, below, roots = key
            size = width * (1 + sum(sizes))
            for k, (_, cell, var, at) in enumerate(members_):
                rows_m.append(top + k * size + cell)
                cols_m.append(var)
                idx.append(row + k * n_rows + at)
            below_ = [(np.array(acts), p) for acts, p in below]
            count = len(members_)
            views = [[count] + [q if t == k else 1 for t in range(len(sizes))] + [width]
                     for k, q in enumerate(sizes)]  # fmt: skip
            self.classes.append((top, count, size, n_rows, width, sizes, views, below_,
                                 [np.array(r) for _, r in roots]))  # fmt: skip
            top += len(members_) * size
            row += len(members_) * n_rows
        rows_all, cols_all = np.concatenate(rows_m), np.concatenate(cols_m)
        self.m = csr_array((np.ones(len(rows_all)), (rows_all, cols_all)),
                           shape=(top, n_vars))  # fmt: skip
        self.idx = np.stack(idx)

    def best(self, c: np.ndarray) -> tuple[np.ndarray, float]:
        """The best joint plan (0/1 over the members' sequences, ``sigma`` order of
        :class:`~toypoker.teams.pairs.TerminalPairs`) and its value, for the pair objective
        ``c`` (per kept pair)."""
        a = self.enumerated
        flat = self.m @ c  # per group: its sequences' values for each plan it meets
        worths = []
        for top, count, size, rows, width, sizes, views, below, roots in self.classes:
            block = flat[top : top + count * size].reshape(count, size)
            v = block[:, :width].reshape([count] + [1] * len(sizes) + [width])
            at = width
            for q, view in zip(sizes, views, strict=True):  # every combination of plans
                v = v + block[:, at : at + q * width].reshape(view)
                at += q * width
            v = v.reshape(count, rows, width)
            for acts, p in below:  # the other member's induction, below its roots
                v[:, :, p] += v[:, :, acts].max(axis=2)
            worth = v[:, :, -1]  # the own terms, and each root infoset's best
            for r in roots:
                worth = worth + v[:, :, r].max(axis=3).sum(axis=2)
            worths.append(worth.ravel())
        total = np.concatenate(worths)[self.idx].sum(axis=0)  # per plan
        k = int(np.argmax(total))
        value = float(total[k])
        xa = np.zeros(self.n[a])
        for (x, _), r in zip(self.subtrees, np.unravel_index(k, self.shape), strict=True):
            xa += x[r]
        xa[0] = 1.0
        # the other member's reply to that plan, by the same induction, its choices kept
        nb = self.n[1 - a]
        col = np.bincount(self.cells, weights=c, minlength=self.n[a] * nb).reshape(-1, nb).T @ xa
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


def _group_sequences(parts: list) -> tuple[np.ndarray, list, dict[int, list]]:
    """A group's sequences of the other member (its root subtrees ``parts``), and its
    infosets numbered within them: those below a sequence (deepest first, with their
    parent) and the root ones by action count."""
    seqs = np.concatenate([q for _, q in parts] + [np.zeros(0, dtype=np.int64)])
    local = {int(x): k for k, x in enumerate(seqs)}
    below, roots = [], {}
    for infos, _ in parts:
        for acts, p in reversed(infos):  # deepest first
            mine = tuple(local[int(x)] for x in acts)
            if p == 0:
                roots.setdefault(len(acts), []).append(mine)
            else:
                below.append((mine, local[p]))
    return seqs, below, roots


def _runs(blocks: list) -> list[tuple[object, list]]:
    """``blocks`` (sorted by their first item) in runs of equal first items."""
    out: list[tuple[object, list]] = []
    for blk in blocks:
        if out and out[-1][0] == blk[0]:
            out[-1][1].append(blk)
        else:
            out.append((blk[0], [blk]))
    return out


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
    ``None`` when the work would pass :data:`MAX_WORK` (or with
    :data:`USE_ENUMERATION` off).

    Parameters
    ----------
    game, members, coef
        As in :func:`toypoker.teams.response.joint_plan` (two members).

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
