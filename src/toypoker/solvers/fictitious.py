"""Fictitious play, full width (Brown 1951; Heinrich, Lanctot, Silver 2015; Ullman 2015).

Each iteration every player best-responds to the same current profile (the
average so far): the responses are simultaneous.  Two averages, chosen by the
``ullman`` option:

* ``ullman=False`` (default): the averages are updated in realization weights,
  so the average of behaviour strategies is the right one (the normal-form
  mixture of the best responses played so far): the accumulated weight of
  action ``a`` at infoset ``I`` is ``sum_t w_t pi_p^{BR_t}(I) BR_t(a|I)``,
  normalised per infoset (the same accumulator as CFR's average strategy).
  Iteration ``t`` has weight ``w_t = (t + 1)**gamma`` (``gamma = 0``: every
  best response counts once); the uniform start counts once.  Ties in a best
  response go to the first action in the game's order
  (:func:`toypoker.engines.rows.values.best_response`); values within :data:`TIE_RTOL`
  (relative) are ties, so a tie in exact arithmetic (common against the uniform
  start, and between suit-symmetric hands) is broken the same way whatever order
  the float sums run in -- on the row and the vector layout alike.

* ``ullman=True``: fictitious play as Ullman's public code runs it
  (``Strategies.nes`` in rjullman/poker-nasheq; read, not copied).  Start from
  the uniform profile ``s_0``; iteration ``t`` computes every player's pure best
  response ``BR_t`` to ``s_{t-1}`` and the largest single-player gain
  ``g_{t-1} = max_p u_p(BR_p, s_{-p}) - u_p(s)`` of ``s_{t-1}``, then mixes
  *behaviour strategies infoset by infoset*,
  ``s_t = (1 - 1/(t+1)) s_{t-1} + 1/(t+1) BR_t`` (the uniform start is sample 0;
  with ``gamma > 0`` the mixing weight is ``(t+1)**gamma / sum_{k<=t} (k+1)**gamma``),
  at every infoset, reached or not.  Per infoset this is not the normal-form
  average of the responses (it ignores how often each response reaches the
  infoset), so it converges to other profiles than the default.  His loop stops
  at the first ``t`` with ``g_{t-1} < eps`` -- after the update, so the
  profile returned is one update past the last check: :func:`toypoker.solvers.ullman.run_ullman` is
  that loop (:attr:`FPState.gain` is ``g_{t-1}``).  Best-response ties keep the
  first maximal action in *his* order: the bets (check/call, then bet/raise,
  by chips put in) before fold.  Kuhn and Leduc list fold first when facing a
  bet (``f c r``); ``mercer`` lists ``b f`` and ``c f``; the tie rule moves fold
  last explicitly (:func:`ullman_order`), so in Mercer Hold'em a tie bets or
  calls.  Ties are real: against the uniform start, 2P-SMH's second player
  holding 34 gains exactly 0 by calling or folding; float sums may order such
  values either way, so values within :data:`TIE_RTOL` (relative) are ties.
  With these rules ``run_ullman`` (``solvers/ullman.py``) reproduces his output files (2P-SMH at eps
  0.001: 704 iterations; 3P-SMH at 0.01: 116; 2P-MMH at 0.01: 1901; values and
  last gains to 1e-12; ``tests/literature/test_ullman2015.py``).

Thesis vs code.  The thesis's Algorithm 1 (Sec. 2.2) differs from both: each
player answers the others' previous iterate ``s_{-p}^{t-1}`` (simultaneous, as
the code), but the average uses weight ``1/t`` (so the first response replaces
the uniform start), the regret is measured against the *updated* ``s_p^t``
rather than the answered profile, and ``regret`` is set to 0 once, before the
loop, and only ever maximised: as printed, ``while regret >= eps`` never ends
once one gain reached eps.  The code (and this option) uses ``1/(t+1)`` and
the gain of the profile the responses answered, recomputed every iteration.

The run loop's ``target_max_gain`` (:func:`toypoker.solvers.solve`) is
checked on the *output* profile at the scheduled checks (``<=``); Ullman's
rule checks the profile before the update, every iteration (``<``): use
:func:`toypoker.solvers.ullman.run_ullman` to stop where his code stops (the run
loop reads :func:`stop_gain` after every step for the same rule).

The output is the average profile: fictitious play has no other strategy that
converges (the current best response is pure), so it takes no ``output`` option.

Where the responses are computed: on the deal table, a float profile's best
responses and values in one call of the compiled kernel
(:func:`toypoker.engines.rows.best_response.responses`, the tie rule passed as data: the
order, the game's or :func:`ullman_order`, and :data:`TIE_RTOL`), an exact profile's
by :mod:`toypoker.engines.rows.values`; on hand vectors by the vector kernel
(:mod:`toypoker.engines.vectors.responses`).  ``tests/engines/rows/test_kernels.py`` checks
the kernel's responses and whole runs against the numpy reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from toypoker.game import Game
from toypoker.profile import Profile
from toypoker.solvers.cfr import average_strategy
from toypoker.solvers.options import MAX_EXPONENT, boolean, real

FOLD = "f"
#: relative tolerance under which two action values are a tie (Ullman's ties are
#: exact in rational arithmetic, e.g. 34 calling or folding against the uniform start
#: in 2P-SMH, but float sums may order them either way)
TIE_RTOL = 1e-9


@dataclass(frozen=True)
class FPOptions:
    """Options of fictitious play.

    Attributes
    ----------
    gamma : float
        Iteration ``t`` enters the average with weight ``(t + 1)**gamma``
        (0: plain ``1/(t+1)`` averaging, as Ullman's).
    ullman : bool
        Ullman's variant (see the module docstring): behaviour-strategy mixing
        per infoset, best-response ties bet before fold, and the largest gain
        of the answered profile recorded every iteration (:attr:`FPState.gain`).
    """

    gamma: float = 0.0
    ullman: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "gamma", real("gamma", self.gamma, low=0.0, high=MAX_EXPONENT))
        object.__setattr__(self, "ullman", boolean("ullman", self.ullman))


@dataclass(frozen=True)
class FPState:
    """Resumable state.

    ``average`` holds the accumulated realization weights (default) or, with
    ``ullman``, the current behaviour profile itself; ``sigma`` is the current
    average profile; ``gain`` is the largest single-player gain of the profile
    the last step answered (``ullman`` only; ``-1`` before the first step).
    """

    iteration: int
    average: np.ndarray
    sigma: np.ndarray
    gain: float = -1.0


class Layout(Protocol):
    """What a fictitious-play step reads from the engine a game is built on
    (:meth:`toypoker.engines.protocol.Engine.fp_responses`: the deal table's in
    :mod:`toypoker.engines.rows.responses`, the hand vectors' in
    :mod:`toypoker.engines.vectors.responses`), so that every engine runs the one
    schedule of :func:`layout_step`."""

    def responses(self, sigma: np.ndarray, ullman: bool) -> list[tuple[float, np.ndarray]]:
        """Each player's pure best response to ``sigma`` as (value, 0/1 choice); with
        ``ullman``, under Ullman's tie rule (the first maximal action in
        :func:`ullman_order`, ties within :data:`TIE_RTOL`)."""
        ...

    def values(self, sigma: np.ndarray) -> np.ndarray:
        """Each player's expected value under ``sigma``."""
        ...

    def realization(self, sigma: np.ndarray, player: int) -> np.ndarray:
        """``pi_p(I) * sigma(a|I)`` at ``player``'s free entries, 0 elsewhere."""
        ...


def init(game: Game, options: FPOptions | None = None, seed: int | None = None) -> FPState:
    """The start: the uniform profile, counted once in the average.

    ``seed`` is not read (the method protocol passes it)."""
    return layout_init(game, options, game.engine.fp_responses())


def layout_init(game: Game, options: FPOptions | None, layout: Layout) -> FPState:
    """:func:`init` on any layout."""
    sigma = Profile.uniform(game).probs
    if options is not None and options.ullman:
        return FPState(0, sigma.copy(), sigma)
    avg = sum(layout.realization(sigma, p) for p in range(game.n_players))
    return FPState(0, np.asarray(avg, dtype=np.float64), sigma)


def ullman_order(game: Game) -> np.ndarray:
    """Each infoset's action columns in Ullman's order: the game's order with fold last.

    Returns the padded ``(infosets, max actions)`` matrix of flat action indices
    (``-1`` padding) that :attr:`Game.infoset_actions_padded` holds in the game's
    own order.

    Examples
    --------
    >>> from toypoker import load_game
    >>> g = load_game("kuhn(players=2)")
    >>> i = g.infoset("P2:1:b")
    >>> i.actions, [g.infosets[i.index].actions[k - i.offset] for k in ullman_order(g)[i.index]]
    (('f', 'c'), ['c', 'f'])
    """
    return game.derived(_build_ullman_order)


def _build_ullman_order(game: Game) -> np.ndarray:
    pad = np.array(game.infoset_actions_padded)
    for info in game.infosets:
        if FOLD in info.actions[:-1]:
            cols = [k for k, a in enumerate(info.actions) if a != FOLD]
            cols += [info.actions.index(FOLD)]
            pad[info.index, : len(cols)] = [info.offset + k for k in cols]
    pad.flags.writeable = False
    return pad


def step(game: Game, state: FPState, options: FPOptions) -> FPState:
    """One iteration: every player's best response to the current profile enters it."""
    return layout_step(game, state, options, game.engine.fp_responses())


def layout_step(game: Game, state: FPState, options: FPOptions, layout: Layout) -> FPState:
    """:func:`step` on any layout: the one schedule (see the module docstring)."""
    t = state.iteration + 1
    sigma = state.sigma
    responses = layout.responses(sigma, options.ullman)
    if options.ullman:
        values = layout.values(sigma)
        weights = np.arange(1, t + 2, dtype=np.float64) ** options.gamma
        w = weights[-1] / weights.sum()
        new = sigma.copy()
        gains = []
        for p, (br_value, choice) in enumerate(responses):
            gains.append(br_value - float(values[p]))
            mask = game.free_mask(p)
            new[mask] = (1.0 - w) * sigma[mask] + w * choice[mask]
        return FPState(t, new, new, max(max(gains), 0.0))
    w = float(t + 1) ** options.gamma
    average = state.average.copy()
    for p, (_, choice) in enumerate(responses):
        mask = game.free_mask(p)
        response = np.where(mask, choice.astype(np.float64), sigma)
        average += w * layout.realization(response, p)
    return FPState(t, average, average_strategy(game, average, sigma))


def output(game: Game, state: FPState, options: FPOptions) -> np.ndarray:
    """The average profile (the only output of fictitious play)."""
    return state.sigma


def stop_gain(state: FPState, options: FPOptions) -> float | None:
    """What the run loop's ``target_max_gain`` reads after every step: with
    ``ullman=True``, the largest gain of the profile the last step answered
    (Ullman's rule: stop at the first iteration where it is below the target);
    ``None`` otherwise (the scheduled checks of the output profile decide)."""
    return float(state.gain) if options.ullman and state.gain >= 0.0 else None


__all__ = [
    "FPOptions",
    "FPState",
    "Layout",
    "init",
    "layout_init",
    "layout_step",
    "output",
    "step",
    "stop_gain",
    "ullman_order",
]
