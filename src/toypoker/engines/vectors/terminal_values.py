"""Terminal values in the vector layout: each player's counterfactual value at every
terminal, for every hand, without touching joint deals (:mod:`toypoker.engines.vectors.values`
says how, and re-exports :func:`terminal_values`, :func:`plan_for`, :class:`Plan`,
:func:`pot_shares` and :func:`share_fraction`).

:class:`Plan` is what the passes need, derived once from a
:class:`~toypoker.engines.vectors.layout.VectorGame`: its terminals in groups of one
board and one set of live players, each with its pots and chips paid, and the sweeps'
sorted hands; :func:`terminal_values` runs the sweep (two players), the one-card
inclusion-exclusion (three players on one card) or the dense product (the reference,
and collusion's payoff map) on every group.

Every function runs on float64 and, where stated, on object arrays of
:class:`fractions.Fraction` (exact).
"""

from __future__ import annotations

import itertools
import string
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.engines.vectors.layout import VectorGame
from toypoker.engines.vectors.merged import merged_tensors


@dataclass(frozen=True)
class _Group:
    """Terminal nodes with one board and one set of live players (batched)."""

    nodes: np.ndarray
    board: int
    live: tuple[bool, ...]
    committed: np.ndarray  # (T, n) float
    committed_exact: tuple[tuple[Fraction, ...], ...]
    weight: np.ndarray  # (T,) node_weight
    weight_exact: tuple[Fraction, ...]


class _Sweep:
    """Card-subset incidence of the hands and, per board, the strength-sorted order of
    (subset, hand) pairs: what the two-player O(H) terminal values need."""

    def __init__(self, vg: VectorGame):
        k = vg.hands.shape[1]
        hh = len(vg.hands)
        # per subset size s: (sign, subset ids (H, C(k,s)), hands sorted by subset, starts)
        self.levels = []
        for s in range(k + 1):
            subs = [list(c) for c in itertools.combinations(range(k), s)]
            if s == 0:  # the empty subset: every hand holds it
                ids = np.zeros((hh, 1), dtype=np.int64)
            else:
                cols = np.stack([vg.hands[:, c] for c in subs], axis=1)  # (H, C, s)
                _, ids = np.unique(cols.reshape(-1, s), axis=0, return_inverse=True)
                ids = ids.reshape(hh, len(subs))
            order = np.argsort(ids.ravel(), kind="stable")
            hand_sorted = order // ids.shape[1]
            starts = np.searchsorted(ids.ravel()[order], np.arange(int(ids.max()) + 1))
            self.levels.append(((-1) ** s, ids, hand_sorted, starts))
        self.boards: dict[int, list[tuple[np.ndarray, ...]]] = {}
        self.vg = vg

    def board(self, b: int) -> list[tuple[np.ndarray, ...]]:
        """Per subset size: (hand of each sorted entry, group start, lo, hi) of board ``b``."""
        if b not in self.boards:
            _, rank = np.unique(self.vg.strength[b], return_inverse=True)
            top = int(rank.max()) + 2
            out = []
            for _, ids, _, _ in self.levels:
                key = ids * top + rank[:, None]
                flat = key.ravel()
                order = np.argsort(flat, kind="stable")
                skey = flat[order]
                hand_of = order // ids.shape[1]
                start = np.searchsorted(skey, ids * top, side="left")
                lo = np.searchsorted(skey, key, side="left")
                hi = np.searchsorted(skey, key, side="right")
                out.append((hand_of, start, lo, hi))
            self.boards[b] = out
        return self.boards[b]

    def compatible(self, r: np.ndarray, count: np.ndarray) -> np.ndarray:
        """``C[t, h]``: the mass of ``r[t]`` on hands disjoint from ``h``
        (inclusion-exclusion over the subsets of ``h``), ``r`` of shape ``(T, H)``;
        with one card a hand, ``count[h]`` copies of each (rank hands) of reach ``r``."""
        if len(self.levels) == 2:  # one card a hand: all but the hand's own card
            return (r * count).sum(axis=1)[:, None] - r
        out = None
        for sign, ids, hand_sorted, starts in self.levels:
            m = np.add.reduceat(r[:, hand_sorted], starts, axis=1)
            part = m[:, ids].sum(axis=2) * sign
            out = part if out is None else out + part
        return out

    def below_level(self, r: np.ndarray, b: int) -> tuple[np.ndarray, np.ndarray]:
        """The mass of ``r[t]`` on hands disjoint from ``h`` that are weaker than / as
        strong as ``h`` on board ``b``, each ``(T, H)`` (the hands of the empty subset
        weighted by their copies, ``VectorGame.hand_count``)."""
        below = level = None
        count = self.vg.hand_count[b]
        if r.dtype == object:
            count = np.array([Fraction(int(x)) for x in count], dtype=object)
        for s, ((sign, _, _, _), (hand_of, start, lo, hi)) in enumerate(
            zip(self.levels, self.board(b), strict=True)
        ):
            w = (r * count if s == 0 else r)[:, hand_of]
            cs = np.zeros((len(r), w.shape[1] + 1), dtype=w.dtype)
            if w.dtype == object:
                cs[:, 0] = Fraction(0)
            cs[:, 1:] = np.cumsum(w, axis=1)
            lt = (cs[:, lo] - cs[:, start]).sum(axis=2) * sign
            eq = (cs[:, hi] - cs[:, lo]).sum(axis=2) * sign
            below = lt if below is None else below + lt
            level = eq if level is None else level + eq
        return below, level


class Plan:
    """What the passes need, derived once from a :class:`VectorGame`: terminals
    grouped by (board, live players), the disjointness matrix, the two-player sweep."""

    def __init__(self, vg: VectorGame):
        game = vg.game
        self.vg = vg
        groups: dict[tuple[int, tuple[bool, ...]], list[int]] = {}
        for nd in game.nodes:
            if nd.kind == "terminal":
                groups.setdefault((int(vg.node_board[nd.id]), nd.live), []).append(nd.id)
        self.groups = [
            _Group(
                nodes=np.array(ids, dtype=np.int64),
                board=b,
                live=live,
                committed=np.array([[float(x) for x in game.nodes[i].committed] for i in ids]),
                committed_exact=tuple(game.nodes[i].committed for i in ids),
                weight=vg.node_weight[ids],
                weight_exact=tuple(vg.node_weight_exact[i] for i in ids),
            )
            for (b, live), ids in groups.items()
        ]
        cards = vg.hand_cards.astype(np.int64)
        # (a merged team's index space is blocks of its own: vector.merged)
        self.disjoint = (cards @ cards.T) == 0 if vg.merged is None else None
        one_card = vg.hands.shape[1] == 1
        swept = vg.n_players == 2 or (vg.n_players == 3 and one_card)
        # a payoff map (collusion) or rank deal counts: the dense product
        dense = vg.payoff is not None or vg.rank_deals is not None
        self.sweep = _Sweep(vg) if swept and not dense else None
        self.chance_child = np.zeros(vg.n_nodes, dtype=bool)
        for nd in game.nodes:
            if nd.kind == "chance":
                self.chance_child[list(nd.children)] = True
        self.dense_cache: dict[tuple[int, tuple[bool, ...]], list[np.ndarray]] = {}
        # infoset -> a (node, hand) holding it (the owner's reach is the same on all)
        rep = np.full(game.n_infosets, -1, dtype=np.int64)
        flat = vg.hand_infoset.ravel()
        where = np.nonzero(flat >= 0)[0]
        rep[flat[where[::-1]]] = where[::-1]
        self.infoset_rep = rep  # flat index node * H + hand


def plan_for(vg: VectorGame) -> Plan:
    """The :class:`Plan` of ``vg`` (built once, kept with it)."""
    if "plan" not in vg.cache:
        vg.cache["plan"] = Plan(vg)
    return vg.cache["plan"]  # type: ignore[return-value]


def _one(exact: bool) -> object:
    return Fraction(1) if exact else 1.0


def _count(vg: VectorGame, group: _Group, exact: bool) -> np.ndarray:
    """Copies of each hand the group's board leaves (0/1 for physical hands)."""
    count = vg.hand_count[group.board]
    if exact:
        return np.array([Fraction(int(x)) for x in count], dtype=object)
    return count


def _pot_and_paid(
    group: _Group, player: int, exact: bool, paying: tuple[Fraction, ...] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Pot and ``player``'s committed chips at each terminal of the group; with
    ``paying`` (row ``player`` of a payoff map's ``B``) the chips she is charged,
    ``sum_j B[player, j] committed_j``."""
    if exact:
        pots = np.array([sum(c, Fraction(0)) for c in group.committed_exact], dtype=object)
        if paying is None:
            paid = np.array([c[player] for c in group.committed_exact], dtype=object)
        else:
            paid = np.array(
                [sum((b * x for b, x in zip(paying, c, strict=True)), Fraction(0))
                 for c in group.committed_exact],
                dtype=object,
            )  # fmt: skip
        return pots, paid
    if paying is None:
        return group.committed.sum(axis=1), group.committed[:, player]
    return group.committed.sum(axis=1), group.committed @ np.array(paying, dtype=np.float64)


def pot_shares(strength: np.ndarray, live: tuple[bool, ...]) -> list[np.ndarray]:
    """Each player's share of the pot at a showdown, over the players' hands (axis ``i``:
    player ``i``'s hand; ``strength`` of each hand on the board): the live players with
    the top strength split it.  Per player ``(wins, count)`` stacked (integers, so the
    exact path divides in rationals)."""
    n = len(live)
    hh = len(strength)
    st = []
    for i, lv in enumerate(live):
        shape = [1] * n
        shape[i] = hh
        st.append(
            (strength if lv else np.full_like(strength, np.iinfo(np.int64).min)).reshape(shape)
        )
    top = st[0]
    for x in st[1:]:
        top = np.maximum(top, x)
    wins = [np.broadcast_to(x == top, (hh,) * n) for x in st]
    count = sum(w.astype(np.int64) for w in wins)
    return [np.stack([w, count]) for w in wins]


def _dense_tensors(plan: Plan, group: _Group) -> list[np.ndarray]:
    """Pairwise-disjointness tensor over the players' hands (on rank pairs the board's
    deal counts, ``VectorGame.rank_deals``) and each player's share of the pot
    (:func:`pot_shares`), cached per (board, live)."""
    vg = plan.vg
    n = vg.n_players
    key = (group.board, group.live if sum(group.live) > 1 else ())
    if key not in plan.dense_cache and vg.merged is not None:  # a strong team merged
        plan.dense_cache[key] = merged_tensors(vg, group.board, group.live)
    if key not in plan.dense_cache:
        if vg.rank_deals is not None:
            compat = np.asarray(vg.rank_deals[group.board])
        else:
            k = plan.disjoint.astype(np.int64)
            compat = np.ones((vg.n_hands,) * n, dtype=np.int64)
            for i, j in itertools.combinations(range(n), 2):
                shape = [1] * n
                shape[i] = shape[j] = vg.n_hands
                compat = compat * k.reshape(shape)
        shares: list[np.ndarray] = []
        if sum(group.live) > 1:
            shares = pot_shares(vg.strength[group.board], group.live)
        plan.dense_cache[key] = [compat, *shares]
    return plan.dense_cache[key]


def _dense_group(
    plan: Plan, group: _Group, reach: np.ndarray, player: int, exact: bool
) -> np.ndarray:
    """``cfv`` of ``player`` at a group of terminals by the dense product over the others'
    hands, ``O(H^n)`` a terminal: ``(T, H)``."""
    vg = plan.vg
    n = vg.n_players
    compat, *shares = _dense_tensors(plan, group)
    mix = None if vg.payoff is None else vg.payoff[0][player]  # row of A: shares received
    pots, paid = _pot_and_paid(group, player, exact, None if mix is None else vg.payoff[1][player])
    letters = string.ascii_letters[: n + 1]
    t_ax, axes = letters[0], letters[1:]
    others = [q for q in range(n) if q != player]
    # a merged team: the tensors are the block over (player 0's range, player 1's range)
    cut = [slice(None)] * n if vg.merged is None else [slice(*r) for r in vg.merged.ranges]
    reach = [reach[q][:, cut[q]] for q in range(n)]

    def contract(tensor: np.ndarray) -> np.ndarray:
        ops = [reach[q][group.nodes] for q in others]
        subs = [t_ax + axes[q] for q in others]
        if not exact:
            spec = ",".join([axes, *subs]) + "->" + t_ax + axes[player]
            return np.einsum(spec, tensor, *ops)
        rows = []
        for i in range(len(group.nodes)):
            u, cur = tensor.astype(object), axes
            for q in others:
                j = cur.index(axes[q])
                u = np.tensordot(u, reach[q][group.nodes[i]], axes=([j], [0]))
                cur = cur[:j] + cur[j + 1 :]
            rows.append(u)
        return np.array(rows, dtype=object)

    mass = contract(compat)
    if shares:
        frac = share_fraction(shares, player, exact, mix)
        out = pots[:, None] * contract(compat * frac) - paid[:, None] * mass
    else:  # one live player takes the pot (with a map: row A[player, winner] of it)
        winner = group.live.index(True)
        part = int(winner == player) if mix is None else mix[winner]
        gain = pots * (part if exact else float(part))
        out = (gain - paid)[:, None] * mass
    if vg.merged is not None:  # back onto the whole index space (0 off the range)
        full = np.zeros((len(out), vg.n_hands), dtype=out.dtype)
        if exact:
            full[...] = Fraction(0)
        full[:, cut[player]] = out
        out = full
    return out


def share_fraction(
    shares: list[np.ndarray], player: int, exact: bool, mix: tuple[Fraction, ...] | None = None
) -> np.ndarray:
    """``player``'s fraction of the pot over the players' hands at a showdown (from
    :func:`pot_shares`); with ``mix`` (row ``player`` of a payoff map's ``A``) the
    fraction she receives, ``sum_j A[player, j] share_j``."""
    seats = [(player, Fraction(1))] if mix is None else [(j, a) for j, a in enumerate(mix) if a]
    out = None
    for j, a in seats:
        win, count = shares[j]
        if exact:
            frac = np.array(
                [
                    Fraction(int(w), int(c)) * a if c else Fraction(0)
                    for w, c in zip(win.ravel(), count.ravel(), strict=True)
                ],
                dtype=object,
            ).reshape(win.shape)
        else:
            frac = win / np.maximum(count, 1)
            frac = frac if a == 1 else frac * float(a)
        out = frac if out is None else out + frac
    if out is None:  # a row of zeros: she receives nothing
        win, _ = shares[player]
        return np.zeros(win.shape, dtype=object if exact else np.float64) * (0 * _one(exact))
    return out


def _sweep_group(
    plan: Plan, group: _Group, reach: np.ndarray, player: int, exact: bool
) -> np.ndarray:
    """``cfv`` of ``player`` at a group of two-player terminals, ``O(H 2^hole)`` a
    terminal (inclusion-exclusion and the sorted sweep): ``(T, H)``."""
    sweep = plan.sweep
    assert sweep is not None
    r = reach[1 - player][group.nodes]
    pots, paid = _pot_and_paid(group, player, exact)
    mass = sweep.compatible(r, _count(plan.vg, group, exact))
    if all(group.live):
        below, level = sweep.below_level(r, group.board)
        half = Fraction(1, 2) if exact else 0.5
        return pots[:, None] * (below + half * level) - paid[:, None] * mass
    gain = pots if group.live[player] else 0 * pots
    return (gain - paid)[:, None] * mass


def _three_group(
    plan: Plan, group: _Group, reach: np.ndarray, player: int, exact: bool
) -> np.ndarray:
    """``cfv`` of ``player`` at a group of three-player terminals, one card a hand, in
    ``O(H)`` a terminal after the sort: ``(T, H)``.

    With opponents' reaches ``r1, r2`` and ``x != y != h``: the compatible mass is
    ``(T1 - r1[h]) (T2 - r2[h]) - (S12 - r1[h] r2[h])`` (``S12 = sum r1 r2``, the
    pairs holding one card twice); with one opponent folded, the live opponent's
    sweep of ``r_live`` times ``T_f - r_f[h]`` minus the sweep of ``r_live r_f``;
    with both live, ``B1 B2 + (B1 E2 + E1 B2) / 2 + E1 E2 / 3`` minus the one-card
    pairs ``B12 + E12 / 3`` (``B``, ``E``: the mass weaker than / level with ``h``).
    """
    sweep = plan.sweep
    assert sweep is not None
    q1, q2 = (q for q in range(3) if q != player)
    r1, r2 = reach[q1][group.nodes], reach[q2][group.nodes]
    pots, paid = _pot_and_paid(group, player, exact)
    count = _count(plan.vg, group, exact)
    t1, t2 = (r1 * count).sum(axis=1)[:, None], (r2 * count).sum(axis=1)[:, None]
    both = r1 * r2
    mass = (t1 - r1) * (t2 - r2) - ((both * count).sum(axis=1)[:, None] - both)
    live = group.live
    if sum(live) == 1 or not live[player]:
        gain = pots if live[player] and sum(live) == 1 else 0 * pots
        return (gain - paid)[:, None] * mass
    half = Fraction(1, 2) if exact else 0.5
    third = Fraction(1, 3) if exact else 1.0 / 3.0
    if sum(live) == 2:
        q, f = (q1, q2) if live[q1] else (q2, q1)
        rq, rf = reach[q][group.nodes], reach[f][group.nodes]
        tf = (rf * count).sum(axis=1)[:, None]
        b1, e1 = sweep.below_level(rq, group.board)
        b2, e2 = sweep.below_level(rq * rf, group.board)
        share = (tf - rf) * (b1 + half * e1) - (b2 + half * e2)
    else:
        b1, e1 = sweep.below_level(r1, group.board)
        b2, e2 = sweep.below_level(r2, group.board)
        b12, e12 = sweep.below_level(both, group.board)
        share = b1 * b2 + half * (b1 * e2 + e1 * b2) + third * e1 * e2 - (b12 + third * e12)
    return pots[:, None] * share - paid[:, None] * mass


def terminal_values(
    vg: VectorGame,
    reach: np.ndarray,
    player: int,
    exact: bool,
    *,
    dense: bool = False,
    scale: np.ndarray | None = None,
) -> np.ndarray:
    """``player``'s counterfactual values at the terminals (other nodes 0), ``(nodes, H)``;
    with ``scale`` (per node) each terminal's times its scale, groups at scale 0 skipped
    (a sampled subtree's importance weights, :mod:`toypoker.engines.vectors.sampled`)."""
    plan = plan_for(vg)
    cfv = np.zeros((vg.n_nodes, vg.n_hands), dtype=object if exact else np.float64)
    if exact:
        cfv[...] = Fraction(0)
    method = _dense_group
    if plan.sweep is not None and not dense:
        method = _sweep_group if vg.n_players == 2 else _three_group
    for group in plan.groups:
        w = np.array(group.weight_exact, dtype=object) if exact else group.weight
        if scale is not None:
            s = scale[group.nodes]
            if not s.any():
                continue
            w = w * s
        out = method(plan, group, reach, player, exact)
        if vg.rank_deals is None:  # (rank pairs: the deal counts hold every copy)
            out = out * _count(vg, group, exact)[None, :]
        cfv[group.nodes] = out * w[:, None]
    return cfv
