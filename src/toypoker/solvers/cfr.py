"""Counterfactual regret minimisation as one traversal with a schedule.

Vanilla CFR (Zinkevich et al. 2007), CFR+ (Tammelin 2014), linear CFR and
discounted CFR (Brown & Sandholm 2019), predictive CFR+ (Farina, Kroer &
Sandholm 2021), DCFR+ and predictive DCFR+ (Xu et al. 2024) differ only in how
accumulated regrets are discounted, floored or predicted and how iterations are
weighted in the average strategy.  :class:`CFROptions` holds those choices;
:func:`step` performs one iteration over the compiled game (full width), on
whatever engine the game is built on (``game.engine``).  Every method is the same
iteration under a different schedule (:func:`iterate`), computed one of two ways
chosen by ``CFROptions.backend``: ``"numba"`` (the default) runs the engine's fused
kernel (:meth:`~toypoker.engines.protocol.Engine.cfr_kernel`, one call per
iteration, arguments from :func:`kernel_schedule`); ``"numpy"`` runs
:func:`reference_step`, :func:`scheduled_step` on the engine's numpy regrets
(:meth:`~toypoker.engines.protocol.Engine.regrets`), the readable reference the
tests compare the kernels with (equal iterates to 1e-12 at first: the kernels sum in
another order).

With ``r^t`` the instantaneous counterfactual regrets of iteration ``t``, the
accumulated regrets of one player are, per sequence,

* ``R^t = R^{t-1} + r^t`` (CFR, Zinkevich et al. 2007);
* ``R^t = [R^{t-1} + r^t]^+`` with ``floor`` (CFR+ / regret matching+,
  Tammelin 2014);
* ``R^t = R^{t-1} d(t - lag) + r^t`` with ``alpha``/``beta`` (DCFR, Brown &
  Sandholm 2019, Sec. 3), ``d(s) = s^alpha / (s^alpha + 1)`` on positive and
  ``s^beta / (s^beta + 1)`` on negative entries; this package's ``lcfr`` and
  ``dcfr`` use ``lag = 0``, Xu et al. (2024)'s DCFR+ ``R^t = [R^{t-1} d(t-1) +
  r^t]^+`` is ``lag = 1`` with ``floor``.

The next strategy is regret matching on ``R^t`` -- or, with ``predictive``, on
the predicted regrets ``R~^{t+1} = R^t d(t + 1 - lag) + m^{t+1}`` with the
prediction ``m^{t+1} = r^t`` (the last instantaneous regret): predictive
regret matching+ (PRM+, Farina, Kroer & Sandholm 2021) with CFR's
decomposition (PCFR+), and with the discount Xu et al. (2024)'s PDCFR+
(``x^{t+1}`` from ``[R^t d(t) + r^t]^+``).  Both the floor and regret matching count
a (predicted) regret as positive only above the tolerance
:func:`toypoker.engines.rows.cfr.regret_tolerance` (``1e-13`` times the game's largest
pot times ``t``), so that a tie which rounding breaks by ``1e-17`` stays a tie and
the kernel, the reference and the vector layout keep the same trajectory (see
:mod:`toypoker.engines.rows.cfr`).  Iteration ``t`` enters the average
strategy with weight ``t^gamma`` (``average`` names 0, 1, 2), which equals
DCFR's multiplication of the accumulated strategy by ``((t-1)/t)^gamma``.

Defaults (``registry.METHODS``): ``pcfr+`` quadratic averaging (``gamma = 2``,
Farina, Kroer & Sandholm 2021); ``dcfr+`` ``alpha = 1.5, gamma = 4`` and
``pdcfr+`` ``alpha = 2.3, gamma = 5`` (Xu et al. 2024's parameters as the
authors' run script, github.com/rpSebastian/PDCFRPlus README, states them),
with DCFR's ``d(s) = s^alpha / (s^alpha + 1)`` for both (the authors' DCFR+
code divides by ``s^alpha + 1.5``; we keep DCFR's form).  The equations are
written with the papers' symbols; the papers' equation numbers were not at hand.

>>> from toypoker import load_game
>>> g = load_game("kuhn(players=2)")
>>> s = step(g, init(g, CFROptions(floor=True, gamma=1.0)), CFROptions(floor=True, gamma=1.0))
>>> s.iteration
1
>>> CFROptions(predictive=True, average="quadratic").gamma
2.0
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np

from toypoker.engines.protocol import Engine, PlayerRegrets
from toypoker.engines.rows.cfr import (
    REGRET_TOLERANCE,
    normalise_average,
    payoff_scale,
    regret_tolerance,
)
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.profile import Profile
from toypoker.solvers.options import MAX_EXPONENT, Average, Output, boolean, choice, integer, real


class Backend(StrEnum):
    """Which implementation of the one traversal runs (same iterates to 1e-12)."""

    NUMBA = "numba"  # the fused compiled kernel (toypoker.engines.rows): fast
    NUMPY = "numpy"  # reference_step: the readable reference, vectorised over rows


@dataclass(frozen=True)
class ScheduleOptions:
    """The fields of the CFR schedule (:func:`scheduled_step`), shared by
    :class:`CFROptions` and the sampled
    :class:`~toypoker.solvers.pcs.PCSOptions`;
    see :class:`CFROptions` for their meaning."""

    floor: bool = False
    alpha: float | None = None
    beta: float | None = None
    gamma: float = 0.0
    alternating: bool = True
    delay: int = 0
    output: Output = Output.AVERAGE
    predictive: bool = False
    discount_lag: int = 0

    def __post_init__(self) -> None:
        check_schedule_options(self)


@dataclass(frozen=True)
class CFROptions(ScheduleOptions):
    """How a CFR variant accumulates regrets and averages strategies.

    Attributes
    ----------
    floor : bool
        Clip accumulated regrets at zero after every update (CFR+).
    alpha, beta : float or None
        DCFR discount exponents for positive / negative regrets (None: none);
        give both or neither -- except that ``beta`` may be left out with
        ``floor`` (floored regrets are never negative, so it is never read).
    gamma : float
        Average-strategy weight of iteration ``t`` is ``t**gamma``.
    alternating : bool
        Update players one after another (each sees the others' new strategy).
    delay : int
        Iterations before the average starts accumulating (CFR+ practice).
    output : Output
        ``"average"`` (the converging one) or ``"current"`` strategy.
    predictive : bool
        Regret matching on the predicted regrets ``R^t d + r^t`` (the last
        instantaneous regret as the prediction): PCFR+ / PDCFR+.
    discount_lag : int
        0 or 1: iteration ``t`` multiplies the accumulated regrets by
        ``d(t - discount_lag)``; 1 is Xu et al. (2024)'s DCFR+/PDCFR+.
    average : Average or None
        The named form of ``gamma``: ``"uniform"`` (0), ``"linear"`` (1) or
        ``"quadratic"`` (2); when given it sets ``gamma``.
    backend : Backend
        ``"numba"`` (fused kernel, default) or ``"numpy"`` (the reference);
        a checkpoint records it, so a resumed run continues bit for bit.
    """

    average: Average | None = None
    backend: Backend = Backend.NUMBA

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if self.average is not None:
            set_(self, "average", choice("average", self.average, Average))
            set_(self, "gamma", self.average.exponent)  # type: ignore[union-attr]
        check_schedule_options(self)
        set_(self, "backend", choice("backend", self.backend, Backend))


def check_schedule_options(o: object) -> None:
    """Check and normalise (in place on a frozen options object) the fields of the
    CFR schedule (:func:`scheduled_step`): :func:`check_regret_options`' and
    alternating, delay, predictive, discount_lag."""
    set_ = object.__setattr__
    check_regret_options(o)
    set_(o, "alternating", boolean("alternating", o.alternating))  # type: ignore[attr-defined]
    set_(o, "delay", integer("delay", o.delay))  # type: ignore[attr-defined]
    set_(o, "predictive", boolean("predictive", o.predictive))  # type: ignore[attr-defined]
    lag = integer("discount_lag", o.discount_lag)  # type: ignore[attr-defined]
    if lag > 1:
        raise ToypokerError(f"option discount_lag must be 0 or 1, not {lag!r}")
    set_(o, "discount_lag", lag)


def check_regret_options(o: object) -> None:
    """Check and normalise the fields the CFR family and MCCFR share (in place on
    a frozen options object): floor, alpha/beta, gamma, output."""
    set_ = object.__setattr__
    set_(o, "floor", boolean("floor", o.floor))  # type: ignore[attr-defined]
    alpha, beta, floor = o.alpha, o.beta, o.floor  # type: ignore[attr-defined]
    # floored regrets are never negative: beta (their discount) may be left out
    if (alpha is None and beta is not None) or (alpha is not None and beta is None and not floor):
        raise ToypokerError(
            "options alpha and beta go together: give both or neither "
            "(beta may be left out with floor=true)"
        )
    # t^alpha, t^beta, t^gamma stay finite (10^9 iterations ^ 20 < 10^308)
    if alpha is not None:
        set_(o, "alpha", real("alpha", alpha, high=MAX_EXPONENT))
    if beta is not None:
        set_(o, "beta", real("beta", beta, high=MAX_EXPONENT))
    gamma = o.gamma  # type: ignore[attr-defined]
    set_(o, "gamma", real("gamma", gamma, low=0.0, high=MAX_EXPONENT))
    set_(o, "output", choice("output", o.output, Output))  # type: ignore[attr-defined]


@dataclass(frozen=True)
class CFRState:
    """Everything a CFR run needs to continue: resumable bit for bit."""

    iteration: int
    regrets: np.ndarray  # (A,) accumulated regrets
    average: np.ndarray  # (A,) accumulated weighted strategy
    sigma: np.ndarray  # (A,) current strategy


def regret_matching(
    game: Game, regrets: np.ndarray, sigma: np.ndarray, mask: np.ndarray, tol: float = 0.0
) -> np.ndarray:
    """New strategy at the entries in ``mask``: the regrets above ``tol`` normalised
    per infoset, uniform where none is.  Other entries unchanged.  ``tol`` is
    :func:`~toypoker.engines.rows.cfr.regret_tolerance` in the solvers (0: plain signs).

    A sparse ``mask`` (whole infosets, under a quarter of the entries: a sampled
    update) is computed on its entries only, with the same sums in the same order."""
    idx = np.flatnonzero(mask)
    if 4 * len(idx) < len(mask):
        infs = game.sigma_infoset[idx]
        r_i = regrets[idx]
        pos_i = np.where(r_i > tol, r_i, 0.0)
        sums_i = np.bincount(infs, weights=pos_i, minlength=game.n_infosets)[infs]
        uniform_i = 1.0 / game.infoset_n_actions[infs]
        out = sigma.copy()
        out[idx] = np.where(sums_i > 0, pos_i / np.where(sums_i > 0, sums_i, 1.0), uniform_i)
        return out
    pos = np.where(mask & (regrets > tol), regrets, 0.0)
    sums = np.bincount(game.sigma_infoset, weights=pos, minlength=game.n_infosets)
    s = sums[game.sigma_infoset]
    uniform = 1.0 / game.infoset_n_actions[game.sigma_infoset]
    new = np.where(s > 0, pos / np.where(s > 0, s, 1.0), uniform)
    return np.where(mask, new, sigma)


def init(game: Game, options: CFROptions | None = None, seed: int | None = None) -> CFRState:
    """The start of every CFR run: uniform strategy, nothing accumulated.

    ``seed`` is not read (the method protocol passes it).  On the numba backend
    one throw-away iteration compiles (or loads) the fused kernel here, so that
    the first timed step does not pay for compilation."""
    sigma = Profile.uniform(game).probs
    z = np.zeros(game.n_sigma)
    state = CFRState(0, z, z.copy(), sigma)
    if options is not None and options.backend == Backend.NUMBA:
        step_many(game, state, options, 1)  # the state is not changed: arrays are copied
    return state


def discount_factors(options: CFROptions, s: int) -> tuple[float, float]:
    """DCFR's factors ``d(s)`` for positive and negative accumulated regrets.

    ``s^alpha / (s^alpha + 1)`` and ``s^beta / (s^beta + 1)`` (Brown & Sandholm
    2019, Sec. 3); ``(1, 1)`` without discounting; ``(0, 0)`` at ``s = 0``
    (Xu et al. 2024's ``d(t-1)`` at ``t = 1``, where nothing has accumulated).
    """
    if options.alpha is None:
        return 1.0, 1.0
    if s <= 0:
        return 0.0, 0.0
    ta = float(s) ** options.alpha
    if options.beta is None:  # floored: no negative regrets to discount
        return ta / (ta + 1.0), 1.0
    tb = float(s) ** options.beta
    return ta / (ta + 1.0), tb / (tb + 1.0)


def discounted(r: np.ndarray, factors: tuple[float, float], options: CFROptions) -> np.ndarray:
    """``r`` with DCFR's discount applied by sign (unchanged without ``alpha``)."""
    if options.alpha is None:
        return r
    pos, neg = factors
    return np.where(r > 0, r * pos, r * neg)


def reference_step(game: Game, state: CFRState, options: CFROptions) -> CFRState:
    """One CFR iteration under the schedule ``options`` in numpy: the reference.

    The readable form of the iteration (``backend="numpy"``): the engine's regrets
    (:meth:`toypoker.engines.protocol.Engine.regrets`; the deal table's
    :mod:`toypoker.engines.rows.regrets`, the hand vectors'
    :mod:`toypoker.engines.vectors.regrets`) under :func:`scheduled_step`; :func:`step`
    with the default backend computes the same iterates in the engine's fused kernel.

    Parameters
    ----------
    game
        The compiled game.
    state
        The state after iteration ``t - 1`` (:func:`init` for ``t = 1``).
    options
        The schedule (see the module docstring for the update rules).

    Returns
    -------
    CFRState
        The state after iteration ``t``; ``sigma`` is the strategy of
        iteration ``t + 1`` (for ``predictive`` schedules: matched on the
        predicted regrets).
    """
    return scheduled_step(game, state, options, game.engine.regrets)


def scheduled_step(
    game: Game,
    state: CFRState,
    options: CFROptions,
    regrets_of: Callable[[np.ndarray, list[int]], list[PlayerRegrets]],
) -> CFRState:
    """One iteration of the schedule ``options`` given how the regrets are computed.

    ``regrets_of(sigma, group)`` returns, for each player of ``group``, her
    :class:`~toypoker.engines.protocol.PlayerRegrets` under the profile ``sigma`` (an
    engine's :meth:`~toypoker.engines.protocol.Engine.regrets`, or public chance
    sampling's estimate, :mod:`toypoker.solvers.pcs`); everything else is here: the
    average strategy, the discounted and floored regrets, prediction and regret
    matching.
    """
    t = state.iteration + 1
    regrets = state.regrets.copy()
    average = state.average.copy()
    sigma = state.sigma.copy()
    weight = float(t) ** options.gamma if t > options.delay else 0.0
    players = range(game.n_players)
    updates = [[p] for p in players] if options.alternating else [list(players)]
    now = discount_factors(options, t - options.discount_lag)  # d(t - lag) on R^{t-1}
    tol = regret_tolerance(payoff_scale(game), t)  # regrets <= tol count as zero
    if options.predictive:  # the next iteration's discount, d(t + 1 - lag), on R^t
        after = discount_factors(options, t + 1 - options.discount_lag)
    for group in updates:
        news = regrets_of(sigma, group)
        if weight:
            for n in news:
                # average strategy: iteration t weighted by t^gamma (own reach times sigma)
                average[n.mask] += weight * n.own_reach[n.mask] * sigma[n.mask]
        for n in news:
            # R^t = R^{t-1} d(t - lag) + r^t, floored at 0 for the "+" variants
            r = discounted(regrets[n.mask], now, options) + n.inst[n.mask]
            if options.floor:
                r = np.where(r <= tol, 0.0, r)
            regrets[n.mask] = r
        for n in news:
            target = regrets
            if options.predictive:
                # predicted regrets R~^{t+1} = R^t d(t + 1 - lag) + m^{t+1}, m^{t+1} = r^t
                # (Farina, Kroer & Sandholm 2021, PRM+; Xu et al. 2024, PDCFR+)
                target = regrets.copy()
                target[n.mask] = discounted(regrets[n.mask], after, options) + n.inst[n.mask]
            sigma = regret_matching(game, target, sigma, n.mask, tol)
    return replace(state, iteration=t, regrets=regrets, average=average, sigma=sigma)


def kernel_schedule(options: CFROptions, t: int, scale: float) -> dict[str, object]:
    """The fused kernel's arguments for iteration ``t`` (``CFRKernel.iteration``) in a
    game of payoff scale ``scale`` (:func:`~toypoker.engines.rows.cfr.payoff_scale`).

    ``weight = t^gamma`` (0 up to ``delay``); ``pos_discount, neg_discount =
    d(t - lag)`` on ``R^{t-1}``; with ``predictive`` the next iteration's pair
    ``d(t + 1 - lag)`` on ``R^t`` (both factors: unfloored regrets may be
    negative); ``tolerance`` the regret tolerance of iteration ``t`` -- the same
    numbers :func:`reference_step` uses.
    """
    pos, neg = discount_factors(options, t - options.discount_lag)
    after = (1.0, 1.0)
    if options.predictive:
        after = discount_factors(options, t + 1 - options.discount_lag)
    return {
        "weight": float(t) ** options.gamma if t > options.delay else 0.0,
        "alternating": options.alternating,
        "floor": options.floor,
        "pos_discount": pos,
        "neg_discount": neg,
        "predictive": options.predictive,
        "predict_discount": after[0],
        "predict_neg_discount": after[1],
        "tolerance": REGRET_TOLERANCE * scale * t,  # regret_tolerance(scale, t), inlined
    }


def step(game: Game, state: CFRState, options: CFROptions) -> CFRState:
    """One CFR iteration under the schedule ``options``; returns a new state.

    Parameters
    ----------
    game
        The compiled game.
    state
        The state after iteration ``t - 1`` (:func:`init` for ``t = 1``); not
        modified.
    options
        The schedule (see the module docstring for the update rules) and the
        backend (``"numba"``: one fused kernel call; ``"numpy"``:
        :func:`reference_step`).

    Returns
    -------
    CFRState
        The state after iteration ``t``; ``sigma`` is the strategy of
        iteration ``t + 1`` (for ``predictive`` schedules: matched on the
        predicted regrets).
    """
    return step_many(game, state, options, 1)


def step_many(game: Game, state: CFRState, options: CFROptions, n: int) -> CFRState:
    """``n`` iterations: the same state as ``n`` calls of :func:`step`, bit for bit.

    On the numba backend the engine's fused kernel runs them
    (:meth:`~toypoker.engines.protocol.Engine.cfr_kernel`: the arrays copied once and
    updated in place by ``n`` kernel calls, no state object per iteration); on the
    numpy backend, or an engine without a kernel for the game, :func:`reference_step`.
    """
    return engine_steps(game.engine, game, state, options, n)


def engine_steps(engine: Engine, game: Game, state: CFRState, options: CFROptions, n: int
                 ) -> CFRState:  # fmt: skip
    """:func:`step_many` on ``engine`` (an :class:`~toypoker.engines.protocol.Engine`
    of ``game``): its fused kernel on the numba backend where it has one, else
    :func:`scheduled_step` on its regrets.  A sharded run's engine
    (:mod:`toypoker.engines.sharded`) steps through here with its own kernel."""
    kernel = engine.cfr_kernel() if options.backend is Backend.NUMBA else None
    return iterate(game, state, options, n, engine.regrets, kernel)


def iterate(
    game: Game,
    state: CFRState,
    options: CFROptions,
    n: int,
    regrets_of: Callable[[np.ndarray, list[int]], list[PlayerRegrets]],
    kernel: object | None,
) -> CFRState:
    """``n`` iterations of the schedule ``options``: in the fused ``kernel``
    (:func:`kernel_steps`), or, without one, :func:`scheduled_step` on the regrets
    ``regrets_of`` gives.  The one CFR iteration every engine's run goes through."""
    if kernel is not None:
        return kernel_steps(kernel, state, options, n)
    for _ in range(n):
        state = scheduled_step(game, state, options, regrets_of)
    return state


_IN_PLACE: ContextVar[list[int] | None] = ContextVar("toypoker_steps_in_place", default=None)


@contextmanager
def steps_in_place() -> Iterator[list[int]]:
    """Inside, :func:`kernel_steps` updates the given state's arrays in place (where
    they are contiguous, writable float64) instead of copying them first: for a loop
    that owns its state between steps (:class:`toypoker.solvers.solver.Solver`'s run
    after its first step), three fresh copies of the state's arrays a step, their pages
    faulted in, are avoidable work (``benchmarks/results/vector.md``).  Yields a one-item
    list: the iteration the arrays hold after each whole iteration, so that a step
    interrupted between two iterations still knows where its state is."""
    done: list[int] = [-1]
    token = _IN_PLACE.set(done)
    try:
        yield done
    finally:
        _IN_PLACE.reset(token)


def _working(a: np.ndarray) -> np.ndarray:
    """``a`` itself inside :func:`steps_in_place` where the kernel can write it, else a
    fresh contiguous float64 copy (the given state stays as it was)."""
    if (
        _IN_PLACE.get() is not None
        and isinstance(a, np.ndarray)
        and a.dtype == np.float64
        and a.flags.c_contiguous
        and a.flags.writeable
    ):
        return a
    return np.array(a, dtype=np.float64)


def kernel_steps(kernel: object, state: CFRState, options: CFROptions, n: int) -> CFRState:
    """``n`` iterations of a fused kernel from ``state`` (not modified, but inside
    :func:`steps_in_place`): anything with ``iteration(sigma, regrets, average,
    **kernel_schedule(options, t, scale))`` updating in place, with ``scale`` its
    ``payoff_scale`` attribute (:class:`toypoker.engines.rows.CFRKernel`, the vector layout's
    :class:`toypoker.engines.vectors.kernel.VectorKernel`)."""
    regrets = _working(state.regrets)
    average = _working(state.average)
    sigma = _working(state.sigma)
    t = state.iteration
    scale = kernel.payoff_scale  # type: ignore[attr-defined]
    many = getattr(kernel, "iterations", None)  # a sharded kernel: the batch at once
    if many is not None:
        many(
            sigma,
            regrets,
            average,
            [kernel_schedule(options, t + i, scale) for i in range(1, n + 1)],
        )
        t += n
    done = _IN_PLACE.get()
    in_place = done is not None and sigma is state.sigma
    keeps = getattr(kernel, "keeps_reach", False)  # the reach of the iteration before
    for i in range(n if many is None else 0):
        t += 1
        schedule = kernel_schedule(options, t, scale)
        if keeps:
            schedule["reach_kept"] = i > 0
        kernel.iteration(sigma, regrets, average, **schedule)  # type: ignore[attr-defined]
        if in_place:
            done[0] = t  # type: ignore[index]
    return replace(state, iteration=t, regrets=regrets, average=average, sigma=sigma)


def average_strategy(game: Game, average: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """The accumulated ``average`` normalised per infoset (``sigma`` where nothing
    accumulated), restricted infosets at their fixed values."""
    out = np.empty(len(average))
    fixed = np.asarray(game.sigma_fixed, dtype=np.bool_)
    normalise_average(
        np.ascontiguousarray(average, dtype=np.float64),
        np.ascontiguousarray(sigma, dtype=np.float64),
        np.ascontiguousarray(game.infoset_offset, dtype=np.int64),
        fixed,
        np.ascontiguousarray(game.fixed_values, dtype=np.float64),
        out,
    )
    return out


def output(game: Game, state: CFRState, options: CFROptions) -> np.ndarray:
    """The strategy ``options.output`` names, as a flat probability vector."""
    if options.output is Output.CURRENT:
        return state.sigma
    return average_strategy(game, state.average, state.sigma)


__all__ = [
    "Backend",
    "CFROptions",
    "CFRState",
    "average_strategy",
    "discount_factors",
    "init",
    "iterate",
    "kernel_schedule",
    "output",
    "reference_step",
    "step",
    "step_many",
    "steps_in_place",
]
