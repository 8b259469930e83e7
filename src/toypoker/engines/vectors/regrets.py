"""The CFR family's iteration on the vector layout.

The same schedule as :func:`toypoker.solvers.cfr.reference_step` (CFR, CFR+, linear
and discounted CFR, PCFR+, DCFR+, PDCFR+: :class:`~toypoker.solvers.cfr.CFROptions`)
and the same state (:class:`~toypoker.solvers.cfr.CFRState`: flat regrets, average
and strategy over the compiled game's actions), but the instantaneous regrets come
from the vector layout: for player ``p``'s action edge into node ``c`` and hand
``h``, ``cfv_p[c, h] - cfv_p[parent, h]``
(:func:`toypoker.engines.vectors.values.counterfactual_values`),
summed over the hands of each infoset.  The average-strategy weight uses ``p``'s own
reach at one (node, hand) of the infoset.  So the iterates equal the row layout's to
rounding (``tests/engines/vectors/test_regrets.py``).

The engine protocol's regret step (:func:`player_regrets`) and fused kernel
(:func:`cfr_kernel`: :meth:`toypoker.engines.vectors.kernel.VectorKernel.iteration`,
one fused call an iteration, where the kernel applies); the iteration itself is
:func:`toypoker.solvers.cfr.iterate`, chosen by ``CFROptions.backend`` as for the row
layout.  :func:`step` and :func:`step_many` run it on a :class:`VectorGame` given
outright (the tests compare layouts and kernels with them,
``tests/engines/vectors/test_kernel.py``).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from toypoker.engines.protocol import PlayerRegrets
from toypoker.engines.rows.values import segment_sum
from toypoker.engines.vectors.kernel import vector_kernel
from toypoker.engines.vectors.layout import VectorGame
from toypoker.engines.vectors.sampled import path_subtree, sample_path
from toypoker.engines.vectors.values import counterfactual_values, plan_for, reaches
from toypoker.solvers.cfr import Backend, CFROptions, CFRState, iterate, scheduled_step


def init(vg: VectorGame) -> CFRState:
    """Uniform strategy (restricted infosets at their fixed values), nothing accumulated."""
    game = vg.game
    sigma = np.full(game.n_sigma, 0.0)
    sigma[:] = 1.0 / game.infoset_n_actions[game.sigma_infoset]
    sigma[game.sigma_fixed] = game.fixed_values[game.sigma_fixed]
    z = np.zeros(game.n_sigma)
    return CFRState(0, z, z.copy(), sigma)


def instant_regrets(
    vg: VectorGame,
    sigma: np.ndarray,
    player: int,
    reach: np.ndarray,
    sampled: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """``player``'s instantaneous counterfactual regrets per flat action (exact for
    Fractions); ``sampled = (active, scale)``: their importance-weighted estimate from
    a sampled subtree (:mod:`toypoker.solvers.pcs`)."""
    cfv = counterfactual_values(vg, sigma, player, reach, sampled=sampled)
    nodes = np.flatnonzero(vg.edge_player == player)
    if sampled is not None:
        nodes = nodes[np.isin(nodes, sampled[0])]
    e = vg.edge_sigma[nodes]
    diff = cfv[nodes] - cfv[vg.parent[nodes]]
    ok = e >= 0
    return segment_sum(e[ok], diff[ok], vg.game.n_sigma)


def step(vg: VectorGame, state: CFRState, options: CFROptions) -> CFRState:
    """One iteration under the schedule ``options`` (the fused kernel or the reference,
    by ``options.backend``; see the module docstring)."""
    return step_many(vg, state, options, 1)


def step_many(vg: VectorGame, state: CFRState, options: CFROptions, n: int) -> CFRState:
    """``n`` iterations: the same state as ``n`` calls of :func:`step`, bit for bit
    (:func:`toypoker.solvers.cfr.iterate` on these regrets and this kernel)."""
    kernel = cfr_kernel(vg) if options.backend is Backend.NUMBA else None
    return iterate(vg.game, state, options, n, partial(player_regrets, vg), kernel)


def cfr_kernel(vg: VectorGame) -> object | None:
    """The fused kernel of a CFR iteration on ``vg`` (None where the kernel does not
    apply)."""
    return vector_kernel(vg)


def player_regrets(vg: VectorGame, sigma: np.ndarray, group: list[int]) -> list[PlayerRegrets]:
    """The regrets of each player of ``group`` under the flat profile ``sigma`` (the
    engine protocol's regret step), with her free actions and her own reach at one
    (node, hand) of each action's infoset."""
    game = vg.game
    rep = plan_for(vg).infoset_rep[game.sigma_infoset]
    reach = reaches(vg, sigma)
    return [
        PlayerRegrets(
            instant_regrets(vg, sigma, p, reach), game.free_mask(p), reach[p].ravel()[rep]
        )
        for p in group
    ]


def sampled_regrets(
    vg: VectorGame,
    sigma: np.ndarray,
    group: list[int],
    rng: np.random.Generator,
    restrict: bool,
) -> list[PlayerRegrets]:
    """Public chance sampling's regret step (the engine protocol's
    ``sampled_regrets``): one board path drawn with ``rng``
    (:func:`~toypoker.engines.vectors.sampled.sample_path`) and, for each player of
    ``group``, the importance-weighted regrets of the subtree it fixes, with her own
    reach times the path's weight as the average's weight.  ``restrict``: only the
    infosets on the path are updated (off it the regrets gain 0)."""
    game = vg.game
    rep = _reps(vg)
    masks = _free_masks(vg)
    active, scale = path_subtree(vg, sample_path(vg, rng))
    reach = reaches(vg, sigma, active)
    out = []
    for p in group:
        mask = masks[p]
        if restrict:
            on_path = np.zeros(game.n_sigma, dtype=bool)
            e = vg.edge_sigma[active[vg.edge_player[active] == p]]
            on_path[e[e >= 0]] = True
            mask = mask & on_path
        # own reach times the path's importance weight, where the update reads it
        idx = np.flatnonzero(mask)
        own = np.zeros(game.n_sigma)
        own[idx] = reach[p].ravel()[rep[idx]] * scale[rep[idx] // vg.n_hands]
        inst = instant_regrets(vg, sigma, p, reach, (active, scale))
        out.append(PlayerRegrets(inst, mask, own))
    return out


def _reps(vg: VectorGame) -> np.ndarray:
    """Per flat action, the flat (node, hand) index of one holder of its infoset."""
    if "action_reps" not in vg.cache:
        vg.cache["action_reps"] = plan_for(vg).infoset_rep[vg.game.sigma_infoset].clip(0)
    return vg.cache["action_reps"]  # type: ignore[return-value]


def _free_masks(vg: VectorGame) -> list[np.ndarray]:
    """Each player's free flat actions (kept with the layout)."""
    if "free_masks" not in vg.cache:
        vg.cache["free_masks"] = [vg.game.free_mask(p) for p in range(vg.n_players)]
    return vg.cache["free_masks"]  # type: ignore[return-value]


def reference_step(vg: VectorGame, state: CFRState, options: CFROptions) -> CFRState:
    """One iteration under the schedule ``options`` in numpy: the reference."""
    return scheduled_step(vg.game, state, options, partial(player_regrets, vg))  # type: ignore[arg-type]
