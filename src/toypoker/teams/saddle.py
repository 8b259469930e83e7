"""How far the relevant-pairs relaxation can bring a weak team's TMECor upper end: its
saddle LP, certified from both sides.

The relaxation (:mod:`toypoker.teams.relaxation`) bounds the team's best response to one
outsider strategy ``y`` by ``R(y) = max_{w in P} y^T C w`` over its polytope ``P``; every
upper end it gives is at least ``min_y R(y)``, which by the minimax theorem (bilinear,
two polytopes) is the value of the saddle LP::

    V = max_{w in P, z} f^T z   s.t.   F^T z <= C w     (the outsider's sequence form F)

(:func:`toypoker.teams.relaxation.relaxed_saddle`).  :func:`saddle_bounds` solves it (PDLP on
3P-MMH) and certifies both sides exactly:

* **upper end** -- the dual iterate's outsider ``y``, rounded to an exact behaviour
  strategy, and its multipliers ``pi`` through
  :func:`~toypoker.teams.relaxation.certified_bound`: an exact upper bound on the team's
  TMECor value (as :func:`toypoker.teams.bounds.relaxed_bound`);
* **floor** -- the primal iterate ``w`` made exactly feasible (:func:`feasible_pairs`:
  integers over ``2**bits``, repaired top-down) and the outsider's exact best response
  to its payoffs ``C w``: ``floor <= V``, so **no relaxation-based upper end, at any
  outsider strategy, can go below it**.  When ``floor > lower + eps`` the relaxation
  cannot bring the bracket's width under ``eps``.

:func:`floor_generation` raises a floor the other way: column generation whose columns are
(repaired) relaxation points, from the TMECor master's plans.

On 3P-MMH team {2,3} (about a million kept pairs) neither PDLP on the saddle LP nor
:func:`floor_generation` has yet closed the bracket below the plans' own lower end
(``benchmarks/run_tmecor_large.py``): whether the relaxation can bring the width under
0.01 there is not known.

The repair: each block of pairs ``{(I a, J b)}`` (member 0's infoset ``I``, member 1's
``J``) is a transportation problem whose row sums ``w(I a, parent of J)`` and column sums
``w(parent of I, J b)`` are blocks of smaller depth; with those fixed exactly the block
is fitted to them in integers (entries over a margin cut greedily, the deficits filled
by the north-west corner rule), so ``A w = b`` holds exactly and ``0 <= w <= 1``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.teams.bounds import RelaxedBound
from toypoker.teams.forms import Columns, Outsider, master_lp
from toypoker.teams.relaxation import (
    PairModel,
    RelaxedSaddle,
    certified_bound,
    pair_model,
    relaxed_response,
    relaxed_saddle,
)
from toypoker.teams.response import last_sequences

__all__ = [
    "FloorGeneration",
    "SaddleBounds",
    "feasible_pairs",
    "floor_generation",
    "relaxation_floor",
    "saddle_bounds",
]


@dataclass(frozen=True)
class SaddleBounds:
    """Both sides of the relaxation's saddle LP, certified (:func:`saddle_bounds`).

    Attributes
    ----------
    upper
        An exact upper end on the team's TMECor value, at the LP's outsider strategy.
    floor
        An exact lower bound on the saddle LP's value: no upper end from the
        relaxation goes below it.
    lp
        The LP's iterate (``lp.value``: HiGHS's objective, an iterate's when stopped by
        the time limit; ``lp.status``: HiGHS's model status).
    seconds
        Wall time (LP and both certificates).
    """

    upper: RelaxedBound
    floor: Fraction
    lp: RelaxedSaddle
    seconds: float


def _member_structure(game: Game, model: PairModel) -> list[tuple[np.ndarray, ...]]:
    """Per member: each sequence's (0 = empty) parent sequence, infoset (-1 for the empty
    one) and depth (own actions on the way)."""
    parent_rows = last_sequences(game, model.members)
    out = []
    for k in range(2):
        s = model.sigma[k]
        index = np.zeros(game.n_sigma, dtype=np.int64)
        index[s] = 1 + np.arange(len(s))
        rep = parent_rows[k, game.infoset_rep_row[game.sigma_infoset[s]]]
        par = np.zeros(len(s) + 1, dtype=np.int64)
        par[1:] = np.where(rep >= 0, index[rep.clip(0)], 0)
        inf = np.full(len(s) + 1, -1, dtype=np.int64)
        inf[1:] = game.sigma_infoset[s]
        depth = np.zeros(len(s) + 1, dtype=np.int64)
        for _ in range(len(s) + 1):
            new = np.where(np.arange(len(s) + 1) > 0, depth[par] + 1, 0)
            if np.array_equal(new, depth):
                break
            depth = new
        out.append((par, inf, depth))
    return out


def _cut(values: list[int], excess: int) -> None:
    """Lower the largest of ``values`` (in place, never below 0) by ``excess`` in all."""
    for k in sorted(range(len(values)), key=values.__getitem__, reverse=True):
        if excess <= 0:
            return
        d = min(values[k], excess)
        values[k] -= d
        excess -= d


def _fit(block: list[list[int]], rows: list[int], cols: list[int]) -> None:
    """``block`` (in place) made nonnegative with row sums ``rows``, column sums ``cols``."""
    if sum(rows) != sum(cols):
        raise ToypokerError("feasible_pairs: inconsistent margins (a repair bug)")
    for a, row in enumerate(block):
        _cut(row, sum(row) - rows[a])
    for b in range(len(cols)):
        col = [row[b] for row in block]
        _cut(col, sum(col) - cols[b])
        for a, v in enumerate(col):
            block[a][b] = v
    dr = [r - sum(row) for r, row in zip(rows, block, strict=True)]
    dc = [c - sum(row[b] for row in block) for b, c in enumerate(cols)]
    a = b = 0
    while a < len(dr) and b < len(dc):  # north-west corner on the deficits
        t = min(dr[a], dc[b])
        block[a][b] += t
        dr[a] -= t
        dc[b] -= t
        if dr[a] == 0:
            a += 1
        else:
            b += 1


def feasible_pairs(game: Game, model: PairModel, w: np.ndarray, bits: int = 52) -> np.ndarray:
    """An exactly feasible point of the relaxation near ``w``: integers ``W`` with
    ``A W = 2**bits b`` and ``0 <= W <= 2**bits`` (the point is ``W / 2**bits``).

    Parameters
    ----------
    game
        The compiled game ``model`` was built on.
    model
        :func:`~toypoker.teams.relaxation.pair_model` of the team.
    w
        Any float point (e.g. an LP iterate); clipped to ``[0, 1]`` and repaired.
    bits
        The grid (at most 60: the check runs in int64).

    Returns
    -------
    numpy.ndarray
        ``W`` (int64), one entry per kept pair.

    Raises
    ------
    ToypokerError
        If the repaired point does not satisfy the constraints exactly.
    """
    if not 1 <= bits <= 60:
        raise ToypokerError("feasible_pairs: bits must be in 1..60")
    (p0, g0, d0), (p1, g1, d1) = _member_structure(game, model)
    keys, n_b = model.keys, model.n_b
    i, j = keys // n_b, keys % n_b

    def var(key: np.ndarray) -> np.ndarray:
        pos = np.searchsorted(keys, key).clip(0, len(keys) - 1)
        return np.where(keys[pos] == key, pos, -1)

    row_of = var(i * n_b + p1[j])  # the pair (i, parent of j): the row margin
    col_of = var(p0[i] * n_b + j)  # the pair (parent of i, j): the column margin
    order = np.lexsort((j, i, g1[j], g0[i], d0[i] + d1[j]))
    gi, gj = g0[i][order], g1[j][order]
    cut = np.flatnonzero((np.diff(gi) != 0) | (np.diff(gj) != 0)) + 1
    full = 1 << bits
    point = np.nan_to_num(np.asarray(w, dtype=np.float64), nan=0.0)
    big = np.round(np.clip(point, 0.0, 1.0) * full).astype(np.int64)
    out = big.tolist()
    ii, jj, ro, co = i.tolist(), j.tolist(), row_of.tolist(), col_of.tolist()
    for blk in np.split(order, cut):
        vs = blk.tolist()
        if ii[vs[0]] == 0 and jj[vs[0]] == 0:
            out[vs[0]] = full
            continue
        n_cols = len({jj[v] for v in vs})
        grid = [vs[k : k + n_cols] for k in range(0, len(vs), n_cols)]
        if ii[vs[0]] == 0 or jj[vs[0]] == 0:  # one member's own plan: one sum
            flat = [out[v] for v in vs]
            target = out[ro[vs[0]]] if ii[vs[0]] == 0 else out[co[vs[0]]]
            block, rows, cols = [flat], [target], flat[:]
            _cut(flat, sum(flat) - target)
            flat[0] += target - sum(flat)
            for v, x in zip(vs, flat, strict=True):
                out[v] = x
            continue
        block = [[out[v] for v in row] for row in grid]
        rows = [out[ro[row[0]]] for row in grid]
        cols = [out[co[v]] for v in grid[0]]
        _fit(block, rows, cols)
        for row, vals in zip(grid, block, strict=True):
            for v, x in zip(row, vals, strict=True):
                out[v] = x
    result = np.array(out, dtype=np.int64)
    rhs = np.zeros(model.n_constraints, dtype=np.int64)
    rhs[0] = full
    lhs = model.a.astype(np.int64) @ result  # type: ignore[attr-defined]
    if result.min() < 0 or result.max() > full or not np.array_equal(lhs, rhs):
        raise ToypokerError("feasible_pairs: the repaired point is not feasible (a bug)")
    return result


def relaxation_floor(
    game: Game, team: tuple[int, int], w: np.ndarray, model: PairModel | None = None
) -> Fraction:
    """The outsider's exact best-response value against a relaxation point near ``w``
    (:func:`feasible_pairs`): a lower bound on the relaxation's saddle value, so on every
    upper end the relaxation can certify at any outsider strategy."""
    model = model if model is not None else pair_model(game, team)
    o = ({0, 1, 2} - set(team)).pop() if game.n_players == 3 else -1
    if o < 0:
        raise ToypokerError("the relaxation floor needs a team of two and one outsider")
    out = Outsider(game, (o,))
    num, den = Columns(game, out, tuple(team)).numerators()
    bits = 52
    big = feasible_pairs(game, model, w, bits)
    nv = model.n_vars
    uniq, agg = _pair_payoffs(out, model, num)
    c = np.zeros(out.n_seq, dtype=object)
    np.add.at(c, uniq // nv, agg * big[uniq % nv].astype(object))
    return Fraction(out.best_response_value(list(c), min), den * (1 << bits))


def _pair_payoffs(out: Outsider, model: PairModel, num: np.ndarray) -> tuple[np.ndarray, ...]:
    """The team's integer payoffs summed per (outsider sequence, kept pair): keys
    ``seq * n_vars + var`` and their sums (Python integers)."""
    pair = out.term_seq.astype(np.int64) * model.n_vars + model.term_var
    uniq, inv = np.unique(pair, return_inverse=True)
    agg = np.zeros(len(uniq), dtype=object)
    np.add.at(agg, inv.reshape(-1), np.asarray(num, dtype=object))
    return uniq, agg


def saddle_bounds(
    game: Game,
    team: tuple[int, int],
    seconds: float,
    method: str = "pdlp",
    model: PairModel | None = None,
    lp: RelaxedSaddle | None = None,
) -> SaddleBounds:
    """The relaxation's saddle LP (:func:`~toypoker.teams.relaxation.relaxed_saddle`),
    both sides certified (see the module's docstring).

    Parameters
    ----------
    game
        A game with one player outside the two-member ``team``.
    team
        Two seats (0-based).
    seconds
        HiGHS's time limit (3P-MMH: PDLP, minutes).
    method
        ``"pdlp"``, or ``"simplex"`` / ``"ipm"`` on small games.
    model
        The team's :func:`~toypoker.teams.relaxation.pair_model` (built if not given).
    lp
        An iterate of the saddle LP computed before (e.g. saved by
        ``benchmarks/run_tmecor_large.py --saddle-file``): certified without solving
        (``seconds`` and ``method`` unused).  Any iterate gives valid bounds.

    Returns
    -------
    SaddleBounds
        ``floor <= upper.value`` always.
    """
    start = time.perf_counter()
    rest = [p for p in range(game.n_players) if p not in team]
    if len(team) != 2 or len(rest) != 1:
        raise ToypokerError("the relaxation's saddle LP needs a team of two and one outsider")
    seats = (int(team[0]), int(team[1]))
    model = model if model is not None else pair_model(game, seats)
    out = Outsider(game, (rest[0],))
    columns = Columns(game, out, seats)
    u = game.term_u[list(seats)].sum(axis=0)
    coef = game.weights[game.row_deal[game.term_rows]] * u
    if lp is None:
        lp = relaxed_saddle(model, out.constraints(), out.term_seq, coef, seconds, method)
    if lp.w.shape != (model.n_vars,) or lp.outsider.shape != (out.n_seq,):
        raise ToypokerError("the saddle LP's iterate does not fit this game and team")
    behaviour = out.grid_behaviour(lp.outsider)
    num, den = columns.exact_coefficients(behaviour)
    upper = certified_bound(model, lp.duals, num, den)
    floor = relaxation_floor(game, seats, lp.w, model)
    if floor > upper:
        raise ToypokerError("the relaxation's floor above its upper end: a certificate bug")
    bound = RelaxedBound(upper, behaviour, lp.status, time.perf_counter() - start)
    return SaddleBounds(bound, floor, lp, time.perf_counter() - start)


@dataclass(frozen=True)
class FloorGeneration:
    """The relaxation's TMECor bracketed by column generation over relaxation points
    (:func:`floor_generation`).

    Attributes
    ----------
    floor
        Exact lower bound on the saddle value (the master's mixture of pure plans and
        repaired relaxation points against the outsider's exact best response).
    upper
        The smallest certified relaxed bound met (an upper end on the team's TMECor
        value, at its outsider strategy), or ``None`` before the first LP.
    points
        Relaxation points generated.
    seconds
        Wall time.
    """

    floor: Fraction
    upper: RelaxedBound | None
    points: int
    seconds: float


def floor_generation(
    game: Game,
    team: tuple[int, int],
    plans: list[np.ndarray],
    seconds: float,
    lp_seconds: float = 60.0,
    model: PairModel | None = None,
    progress: Callable[[int, float, float], None] | None = None,
    tol: float = 1e-7,
) -> FloorGeneration:
    """Raise the relaxation's floor toward its saddle value by column generation whose
    columns are points of the relaxation, not plans.

    The master LP (as TMECor's) mixes the pure plans ``plans`` (their lifted points are
    in the relaxation) and the relaxation points found so far; its outsider ``y`` is
    rounded exactly, the relevant-pairs LP at ``y`` is run by PDLP for ``lp_seconds``
    (its multipliers certify an upper end ``R(y)``, as
    :func:`~toypoker.teams.bounds.relaxed_bound`), and its point, repaired exactly
    (:func:`feasible_pairs`), is the next column.  The master's exact value is a floor
    on the saddle value, so on every relaxation-based upper end; it starts at the plans'
    TMECor lower end and rises.

    Parameters
    ----------
    game
        A game with one player outside the two-member ``team``.
    team
        Two seats (0-based).
    plans
        Joint pure plans (at least one), e.g. a TMECor checkpoint.
    seconds
        Time budget (checked before each LP).
    lp_seconds
        PDLP's time limit per relaxation LP.
    model
        The team's :func:`~toypoker.teams.relaxation.pair_model` (built if not given).
    progress
        Called after each master LP with the points so far, the master's value and the
        best upper end so far (floats).
    tol
        Stop when the best upper end is within this of the master's value.

    Returns
    -------
    FloorGeneration
    """
    from scipy.sparse import coo_array

    start = time.perf_counter()
    rest = [p for p in range(game.n_players) if p not in team]
    if len(team) != 2 or len(rest) != 1 or not plans:
        raise ToypokerError("the floor generation needs a team of two, one outsider, plans")
    seats = (int(team[0]), int(team[1]))
    model = model if model is not None else pair_model(game, seats)
    out = Outsider(game, (rest[0],))
    columns = Columns(game, out, seats)
    ft = out.constraints()
    num, den = columns.numerators()
    uniq, agg = _pair_payoffs(out, model, num)
    nv, full = model.n_vars, 1 << 52
    pay = coo_array((agg.astype(np.float64) / float(den), (uniq // nv, uniq % nv)),
                    shape=(out.n_seq, nv)).tocsr()  # fmt: skip
    cols = [columns(p) for p in plans]
    points: list[np.ndarray] = []
    upper: RelaxedBound | None = None
    while True:
        value, _, lam, y = master_lp(ft, cols)
        if progress is not None:
            progress(len(points), value, np.inf if upper is None else float(upper.value))
        if time.perf_counter() - start > seconds:
            break
        if upper is not None and float(upper.value) - value <= tol:
            break
        behaviour = out.grid_behaviour(y)
        num_y, den_y = columns.exact_coefficients(behaviour)
        coef = np.array([int(v) for v in num_y], dtype=np.float64) / float(den_y)
        rel = relaxed_response(game, model, coef, "pdlp", lp_seconds)
        bound = certified_bound(model, rel.duals, num_y, den_y)
        if upper is None or bound < upper.value:
            upper = RelaxedBound(bound, behaviour, "pdlp", rel.seconds)
        assert rel.point is not None
        points.append(feasible_pairs(game, model, rel.point))
        cols.append(pay @ (points[-1] / full))
    # the exact floor: the rationalised mixture against the outsider's exact best response
    weights = [Fraction(float(x)).limit_denominator(10**9) if x > 1e-12 else Fraction(0)
               for x in lam]  # fmt: skip
    total = sum(weights, Fraction(0))
    mixed = np.zeros(out.n_seq, dtype=object)
    for k, wk in enumerate(weights):
        if wk == 0:
            continue
        if k < len(plans):
            mixed = mixed + (wk / total) * columns(plans[k], exact=True)
        else:
            c = np.zeros(out.n_seq, dtype=object)
            np.add.at(c, uniq // nv, agg * points[k - len(plans)][uniq % nv].astype(object))
            mixed = mixed + np.array([Fraction(int(v), den * full) for v in c]) * (wk / total)
    floor = out.best_response_value(list(mixed), min)
    return FloorGeneration(floor, upper, len(points), time.perf_counter() - start)
