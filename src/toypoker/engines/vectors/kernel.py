"""The CFR iteration on the vector layout as one compiled call (numba).

:class:`VectorKernel` flattens a :class:`~toypoker.engines.vectors.layout.VectorGame` once
(its :class:`~toypoker.engines.vectors.terminal_values.Plan`: terminals, the card-subset incidence
and, per showdown board, the strength-sorted sweep positions) into contiguous
arrays; :meth:`VectorKernel.iteration` then runs one whole iteration of the CFR
family's schedule in one call, in place, as :func:`toypoker.engines.rows.cfr` does for
the row layout:

1. forward reach of every player at every (node, hand) (:func:`_reach_player`);
2. the player's terminal values (:func:`toypoker.engines.vectors.terminals.terminals`: fold
   terminals by inclusion-exclusion over cards, showdowns by the strength-sorted
   sweep, three players on rank pairs by a dense sum over rank hands; see there);
3. the backward pass and the instantaneous regrets per flat action
   (:func:`_values`);
4. the average-strategy accumulation with the player's own reach at the infoset, in
   the same pass over an infoset's actions as
5. the regret update and regret matching of the row kernel
   (:func:`toypoker.engines.rows.cfr.update_infoset`; the kernel runs the same
   arithmetic as :func:`toypoker.engines.vectors.update.update_infoset`), with its tolerance: a
   regret at most :func:`toypoker.engines.rows.cfr.regret_tolerance` counts as zero in
   both layouts, so ties that rounding breaks differently in the two stay ties.

:meth:`VectorKernel.evaluate` runs steps 1-2 with the plain backward pass and a
best-response pass (:func:`toypoker.engines.vectors.subtrees.best_seg`) for every player in one
call: values and best-response values, what NashConv needs (``VectorSolver``'s checks).

The numpy code of :mod:`toypoker.engines.vectors.values` stays the readable reference;
``tests/engines/vectors/test_kernel.py`` and ``tests/engines/vectors/test_rank_pairs.py`` show the
iterates agree to 1e-12.  Games the kernel does not cover (three players with two or
more physical cards a hand, four or more players) have no kernel
(:func:`vector_kernel` returns ``None``) and run on the reference.
The passes run segment by segment (:mod:`.subtrees`): the public subtrees below a cut
on numba's threads (:func:`toypoker.threads.kernel_thread_count`, set by
:func:`toypoker.threads.kernel_threads` and the CLI's ``--threads``), the part above
the cut in the calling thread; every sum runs in one fixed order, so the results are
the same for every thread count, bit for bit (``tests/engines/vectors/test_kernel_threads.py``,
``benchmarks/bench_threads.py``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from fractions import Fraction

import numba
import numpy as np

from toypoker.engines.rows.cfr import payoff_scale
from toypoker.engines.vectors.layout import VectorGame
from toypoker.engines.vectors.subtrees import (  # fmt: skip
    par_best,
    par_reach,
    par_step,
    par_values,
    split,
    sub_best,
    sub_reach,
    sub_step,
    sub_values,
    threaded,
)
from toypoker.engines.vectors.terminals import (  # fmt: skip
    dense_arrays,
    one_card_arrays,
    pair_plan,
    sweep_arrays,
)
from toypoker.engines.vectors.values import plan_for
from toypoker.jit import njit
from toypoker.threads import use_kernel_threads

_PARALLEL = threading.Lock()  # held while a kernel runs on numba's threads


@njit(nogil=True, inline="always")
def _reach_player(p, sigma, tree, parts, reach, parallel):
    """``reach[p, t, h]``: ``p``'s own probability of reaching ``t`` holding ``h`` (zero
    where ``h`` meets ``t``'s board): the top, then the subtrees (threads if
    ``parallel``)."""
    sub_reach(np.int64(0), p, sigma, tree, parts, reach[p])
    if parallel is not None:  # None: the threads' code is pruned, never compiled
        par_reach(p, sigma, tree, parts, reach[p])
        return
    for s in range(1, parts[1].shape[0] - 1):
        sub_reach(s, p, sigma, tree, parts, reach[p])


@njit(nogil=True, inline="always")
def _values(p, sigma, reach, tree, terms, parts, cfv, inst, sizes, parallel):
    """Steps 2-3 for ``p``: terminal values, backward pass and instantaneous regrets,
    the subtrees (threads if ``parallel``) then the top; returns the root value."""
    if parallel is not None:  # None: the threads' code is pruned, never compiled
        par_values(p, sigma, reach, tree, terms, parts, cfv, inst, sizes)
    else:
        for s in range(1, parts[1].shape[0] - 1):
            sub_values(s, p, sigma, reach, tree, terms, parts, cfv, inst, sizes)
    sub_values(np.int64(0), p, sigma, reach, tree, terms, parts, cfv, inst, sizes)
    return _root_value(cfv)


@njit(nogil=True, inline="always")
def _root_value(cfv):
    """The root's values summed over hands: the player's expected payoff."""
    value = 0.0
    for h in range(cfv.shape[1]):
        value += cfv[0, h]
    return value


@njit(nogil=True, inline="always")
def _step(reach_of, values_of, update_of, a, parallel):
    """:func:`~.subtrees.sub_step` on every subtree (threads if ``parallel``): one
    parallel region; ``a`` holds ``sub_step``'s arguments after the three players."""
    if parallel is not None:  # None: the threads' code is pruned, never compiled
        par_step(reach_of, values_of, update_of, *a)
        return
    for s in range(1, a[8][1].shape[0] - 1):  # a[8]: parts
        sub_step(s, reach_of, values_of, update_of, *a)


@njit(nogil=True)
def _iteration(alternating, kept, sigma, regrets, average, weight, rule, tree, terms, parts,
               infos, reach, cfv, inst, sizes, values, parallel):  # fmt: skip
    """One iteration, every player: alternating (each sees the strategies updated
    before it) or simultaneous (all regrets against the same ``sigma``, averages
    accumulated before any strategy changes), as ``solvers.cfr.scheduled_step``.

    One parallel region a player: in each subtree the reach (every player's the first
    time, then the previous player's, whose strategy changed), the player's values and
    her infosets' updates there; then the top (above the cut) in this thread: its
    values, the root value, its infosets' updates and the player's reach there.
    Simultaneous: the values a player a region, then one region of updates.
    ``kept`` (alternating): ``reach`` holds what the iteration before left, the reach
    of every player but the last, whose strategy changed last (and only hers is
    computed first)."""
    n = reach.shape[0]  # whole numbers as np.int64, never Literal[int]: one specialization
    a = (sigma, regrets, average, inst, weight, rule, tree, terms, parts, infos, reach, cfv, sizes)
    first = np.int64(n - 1 if kept and alternating else -1)  # -1: every player's reach
    for p in range(n):
        if first < 0 or p == first:
            sub_reach(np.int64(0), p, sigma, tree, parts, reach[p])
    for p in range(n):
        if alternating:
            _step(np.int64(first if p == 0 else p - 1), p, p, a, parallel)
            sub_step(np.int64(0), np.int64(-2), p, p, *a)
        else:
            _step(np.int64(-1 if p == 0 else -2), p, np.int64(-2), a, parallel)
            sub_step(np.int64(0), np.int64(-2), p, np.int64(-2), *a)
        values[p] = _root_value(cfv)
        if alternating and p + 1 < n:  # only p's strategy changed: only her reach
            sub_reach(np.int64(0), p, sigma, tree, parts, reach[p])
    if not alternating:
        _step(np.int64(-2), np.int64(-1), np.int64(-1), a, parallel)
        sub_step(np.int64(0), np.int64(-2), np.int64(-1), np.int64(-1), *a)


@njit(nogil=True)
def _evaluate(sigma, sigma_fixed, tree, terms, parts, reach, cfv, inst, sizes, ties, choice,
              values, best, parallel):  # fmt: skip
    """Each player's expected value (``values``) and best-response value (``best``)
    against ``sigma``: the terminals once a player, then the weighted backward pass and
    the best-response pass (on the same terminal values: neither pass writes them), as
    :func:`toypoker.engines.vectors.values.best_response_value` (``ties``: its tie rule, see
    :func:`~.subtrees.best_seg`); ``choice[p]`` (rows of length 0: not written) the
    player's pure best response, 0/1 at her free flat actions."""
    for p in range(reach.shape[0]):
        _reach_player(p, sigma, tree, parts, reach, parallel)
    for p in range(reach.shape[0]):
        values[p] = _values(p, sigma, reach, tree, terms, parts, cfv, inst, sizes,
                            parallel)  # fmt: skip
        if parallel is not None:  # None: the threads' code is pruned, never compiled
            par_best(p, sigma, sigma_fixed, tree, parts, cfv, inst, ties, choice[p])
        else:
            for s in range(1, parts[1].shape[0] - 1):
                sub_best(s, p, sigma, sigma_fixed, tree, parts, cfv, inst, ties, choice[p])
        sub_best(np.int64(0), p, sigma, sigma_fixed, tree, parts, cfv, inst, ties, choice[p])
        best[p] = _root_value(cfv)


@njit(nogil=True)
def _expected(sigma, tree, terms, parts, reach, cfv, inst, sizes, values, parallel):
    """Each player's expected value against ``sigma`` (``values``): :func:`_evaluate`
    without the best-response passes."""
    for p in range(reach.shape[0]):
        _reach_player(p, sigma, tree, parts, reach, parallel)
    for p in range(reach.shape[0]):
        values[p] = _values(p, sigma, reach, tree, terms, parts, cfv, inst, sizes,
                            parallel)  # fmt: skip


@njit(nogil=True)
def _own_reach(p, sigma, tree, parts, reach, parallel):
    """:func:`_reach_player` as a call of its own."""
    _reach_player(p, sigma, tree, parts, reach, parallel)


class VectorKernel:
    """The flat arrays of one :class:`VectorGame` and its fused CFR iteration.

    Build with :func:`vector_kernel` (kept with the game).  ``sigma``, ``regrets`` and
    ``average`` are contiguous float64 vectors over the compiled game's flat actions,
    as in :class:`toypoker.solvers.cfr.CFRState`; restricted infosets are never
    written.  The public subtrees below the cut of :func:`~.subtrees.split` run on
    :func:`toypoker.threads.kernel_thread_count` threads (one below
    :attr:`min_parallel_entries` node-hand entries, where starting threads costs more
    than it saves); the results are the same for every count, bit for bit.
    """

    # games smaller than this (nodes x hands) run in the calling thread
    min_parallel_entries = 500_000

    def __init__(self, vg: VectorGame):
        plan = plan_for(vg)
        game = vg.game
        n, nn, hh = vg.n_players, vg.n_nodes, vg.n_hands
        i64 = np.int64
        terms = [(g, int(i)) for g in plan.groups for i in g.nodes]
        rep_node = (plan.infoset_rep // hh).astype(i64)
        parts, t_perm = split(
            vg, np.array([i for _, i in terms], dtype=i64), rep_node, game.infoset_player
        )
        terms = [terms[j] for j in t_perm]  # segment by segment
        sweep, offset, cs_size = sweep_arrays(vg, terms)
        hand_pair = np.zeros((0, 1, 4), dtype=i64)
        if n == 2 and vg.hands.shape[1] == 2:
            hand_pair = pair_plan(vg)
        dense_w, dense_s, term_dense = dense_arrays(vg, terms)
        compat = np.ascontiguousarray(vg.hand_count, dtype=np.float64)
        child_lo, child_hi = _child_ranges(vg.parent)
        self.tree = (
            vg.parent.astype(i64),
            vg.edge_player.astype(i64),
            np.ascontiguousarray(vg.edge_sigma, dtype=_index_type(game.n_sigma)),
            plan.chance_child.copy(),
            vg.node_board.astype(i64),
            compat,
            child_lo,
            child_hi,
        )
        self.terms = (
            np.array([i for _, i in terms], dtype=i64),
            *sweep[:1],  # term_slot
            np.array([g.board for g, _ in terms], dtype=i64),
            np.array([g.live for g, _ in terms], dtype=i64).reshape(len(terms), n),
            _charged(vg, [i for _, i in terms]),
            vg.node_weight[[i for _, i in terms]].astype(np.float64),
            compat,
            *sweep[1:],  # sub_id, sub_sign, n_sub, sw_hand, sw_level, sw_start/lo/hi
            hand_pair,
            dense_w,
            dense_s,
            term_dense,
            one_card_arrays(sweep, n),
        )
        self.parts = parts  # one bin; _parts() deals them for a thread count
        self._binned: dict[int, tuple] = {}
        self.infos = (
            rep_node,
            (plan.infoset_rep % hh).astype(i64),
            game.free_mask(),
            game.infoset_player.astype(i64),
            ~np.asarray(game.infoset_restricted, dtype=bool),
            game.infoset_offset.astype(i64),
        )
        self.work = (np.zeros((n, nn, hh)), np.zeros((nn, hh)), np.zeros((n, game.n_sigma)))
        # the terminals' scratch sizes (each subtree allocates its own): m, cs, hands
        self.sizes = np.array([max(offset, hh, hh * hh if len(dense_w) else 0), cs_size, hh],
                              dtype=i64)  # fmt: skip
        self.values = np.zeros(n)
        self.payoff_scale = payoff_scale(game)
        self.sigma_fixed = np.asarray(game.sigma_fixed, dtype=np.bool_)
        self.sigma_infoset = np.asarray(game.sigma_infoset, dtype=i64)
        self.order = np.ascontiguousarray(game.infoset_actions_padded, dtype=i64)
        self.entries = nn * hh

    def parallel(self) -> bool:
        """Whether the next call runs on threads (and numba's count set for it)."""
        if self.entries < self.min_parallel_entries or len(self.parts[1]) < 4:
            return False
        return use_kernel_threads() > 1

    def _parts(self, threads: int) -> tuple:
        """:attr:`parts` with the subtrees dealt into ``threads`` bins (kept per count)."""
        if threads not in self._binned:
            self._binned[threads] = threaded(self.parts, threads)
        return self._binned[threads]

    def _call(self, fn: Callable[..., None], before: tuple, after: tuple) -> None:
        """``fn(*before, parts, *after, parallel)``.  On threads, a bin of subtrees a
        thread (:func:`~.subtrees.threaded`).  One parallel call at a time in the
        process: a call made while another Python thread's runs goes serial (numba's
        ``workqueue`` layer, where OpenMP and TBB are missing, aborts the process on
        concurrent parallel calls)."""
        if not self.parallel() or not _PARALLEL.acquire(blocking=False):
            fn(*before, self.parts, *after, None)  # typed None: the serial code only
            return
        try:
            fn(*before, self._parts(numba.get_num_threads()), *after, True)
        finally:
            _PARALLEL.release()

    def evaluate(self, sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each player's expected value and best-response value against the flat float
        profile ``sigma``, in one compiled call (equal to
        :func:`toypoker.engines.vectors.values.expected_values` and
        :func:`~toypoker.engines.vectors.values.best_response_value` to rounding)."""
        values, best, _ = self._evaluate(sigma, None, 0.0, False)
        return values, best

    def responses(
        self, sigma: np.ndarray, order: np.ndarray | None = None, tie_rtol: float = 0.0
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`evaluate` and each player's pure best response: ``(values, best,
        choice)``, ``choice[p]`` 0/1 (int8) at ``p``'s free flat actions, 0 elsewhere;
        ties as :func:`toypoker.engines.vectors.values.best_response_value`'s ``order`` and
        ``tie_rtol`` (fictitious play's responses, on threads)."""
        return self._evaluate(sigma, order, tie_rtol, True)

    def _evaluate(
        self, sigma: np.ndarray, order: np.ndarray | None, tie_rtol: float, choose: bool
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        reach, cfv, inst = self.work
        n = len(reach)
        values, best = np.zeros(n), np.zeros(n)
        choice = np.zeros((n, len(self.sigma_fixed) if choose else 0), dtype=np.int8)
        pad = self.order if order is None else order
        ties = (np.ascontiguousarray(pad, dtype=np.int64), float(tie_rtol), self.sigma_infoset)
        flat = np.ascontiguousarray(sigma, dtype=np.float64)
        self._call(_evaluate, (flat, self.sigma_fixed, self.tree, self.terms),
                   (reach, cfv, inst[0], self.sizes, ties, choice, values, best))  # fmt: skip
        return values, best, choice

    def expected_values(self, sigma: np.ndarray) -> np.ndarray:
        """Each player's expected value against the flat float profile ``sigma`` (the
        first half of :meth:`evaluate`)."""
        reach, cfv, inst = self.work
        values = np.zeros(len(reach))
        flat = np.ascontiguousarray(sigma, dtype=np.float64)
        self._call(_expected, (flat, self.tree, self.terms),
                   (reach, cfv, inst[0], self.sizes, values))  # fmt: skip
        return values

    def own_reach(self, sigma: np.ndarray, player: int) -> np.ndarray:
        """``player``'s own reach under ``sigma`` at every (node, hand): a view of a
        buffer the next call overwrites."""
        reach = self.work[0]
        flat = np.ascontiguousarray(sigma, dtype=np.float64)
        self._call(_own_reach, (np.int64(player), flat, self.tree), (reach,))
        return reach[player]

    @staticmethod
    def rule(schedule: dict[str, float]) -> np.ndarray:
        """The update rule of :func:`~.subtrees.sub_update` from a schedule's dict:
        (pos_discount, neg_discount, floor, predictive, predict_discount,
        predict_neg_discount, tolerance) as float64."""
        keys = ("pos_discount", "neg_discount", "floor", "predictive", "predict_discount",
                "predict_neg_discount", "tolerance")  # fmt: skip
        return np.array([float(schedule[k]) for k in keys])

    # kernel_steps may pass reach_kept=True to an iteration that follows another
    keeps_reach = True

    def iteration(
        self,
        sigma: np.ndarray,
        regrets: np.ndarray,
        average: np.ndarray,
        reach_kept: bool = False,
        **schedule: float,
    ) -> np.ndarray:
        """One CFR iteration in place; ``schedule`` is
        :func:`toypoker.solvers.cfr.kernel_schedule`'s dict (``weight``, ``alternating``,
        ``floor``, the discounts, ``predictive``, ``tolerance``).  Returns each player's root value
        under the strategy her update saw (a buffer the next call overwrites).

        ``reach_kept``: the call follows this kernel's iteration on the same arrays with
        no other call between (:func:`toypoker.solvers.cfr.kernel_steps`), so the reach
        buffer still holds every player's reach but the last updated: one reach pass of
        three saved on two players, the same iterates bit for bit."""
        x = schedule
        self._call(
            _iteration,
            (bool(x["alternating"]), bool(reach_kept), sigma, regrets, average,
             float(x["weight"]), self.rule(x), self.tree, self.terms),
            (self.infos, *self.work, self.sizes, self.values),
        )  # fmt: skip
        return self.values


def _index_type(n: int) -> type:
    """The flat-action index type of ``edge_sigma``, the kernel's largest index array:
    int32 while the ids fit (half the memory and the memory traffic of int64, read by
    every pass; the passes on two threads share the memory bus), else int64."""
    return np.int32 if n < 2**31 - 1 else np.int64


def _charged(vg: VectorGame, nodes: list[int]) -> np.ndarray:
    """``(T, n)`` the chips each player is charged at each terminal: her committed chips,
    or under a payoff map ``B @ committed`` (the pot, their sum, is unchanged:
    :func:`~toypoker.engines.vectors.layout.check_payoff_map`)."""
    rows = [vg.game.nodes[i].committed for i in nodes]
    charged: dict[int, list[float]] = {}  # per commitment tuple (terminals share them)
    for c in rows:
        if id(c) not in charged:
            mapped = c if vg.payoff is None else tuple(
                sum((b * x for b, x in zip(r, c, strict=True)), Fraction(0)) for r in vg.payoff[1]
            )  # fmt: skip
            charged[id(c)] = [float(x) for x in mapped]
    return np.array([charged[id(c)] for c in rows]).reshape(len(nodes), vg.n_players)


def _child_ranges(parent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``[child_lo[q], child_hi[q])``: the ids of ``q``'s children (consecutive in the
    breadth-first order; empty for terminals)."""
    nn = len(parent)
    kids = np.asarray(parent[1:], dtype=np.int64)
    lo = np.searchsorted(kids, np.arange(nn), side="left") + 1
    hi = np.searchsorted(kids, np.arange(nn), side="right") + 1
    return lo.astype(np.int64), hi.astype(np.int64)


def vector_kernel(vg: VectorGame) -> VectorKernel | None:
    """The :class:`VectorKernel` of ``vg`` (built once, kept with it), or ``None`` where
    the sweeps do not apply (the numpy reference then runs)."""
    if "kernel" not in vg.cache:
        fused = plan_for(vg).sweep is not None or vg.rank_deals is not None
        vg.cache["kernel"] = VectorKernel(vg) if fused else None
    return vg.cache["kernel"]  # type: ignore[return-value]
