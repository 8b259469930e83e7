"""Monte Carlo CFR: external sampling and outcome sampling (Lanctot et al. 2009).

Deals are sampled from the deal table with their probabilities; one iteration
is one traversal per player (the traverser), players in turn.

* **External sampling** samples the deal and every other player's action at
  each of their decision rows and walks all of the traverser's actions.  On
  the compiled game this is the CFR update itself restricted to one deal's
  rows, with the other players' edge probabilities replaced by 0/1 sampled
  indicators: the sampled counterfactual regret is
  ``sum_h 1[h sampled] (v(ha) - v(h))`` (importance weights cancel).  The
  same :class:`~toypoker.solvers.cfr.Schedule` (CFR+ flooring, DCFR
  discounting) applies.  Average strategy: "simple" averaging, the sampled
  players' current strategy added where they are visited.
* **Outcome sampling** samples one trajectory, the traverser exploring with
  probability ``epsilon``; regrets are importance weighted,
  ``W = u_p(z) / q_p(z)``; the average strategy is stochastically weighted,
  ``sigma(I) * pi_q(h) / q(h)`` at the other players' rows on the trajectory.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..game import Game
from .base import Method, make_rng, register
from .cfr import Schedule, average_strategy, regret_matching


@dataclass(frozen=True)
class MCCFRState:
    """Resumable MCCFR state; ``rng`` is the generator's bit-generator state."""

    iteration: int
    regrets: np.ndarray
    average: np.ndarray
    sigma: np.ndarray
    rng: dict


def init(game: Game, options: dict, seed: int | None) -> MCCFRState:
    k = game.infoset_n_actions[game.sigma_infoset]
    sigma = 1.0 / k
    sigma[game.sigma_fixed] = game.fixed_values[game.sigma_fixed]
    z = np.zeros(game.n_sigma)
    return MCCFRState(0, z, z.copy(), sigma, make_rng(seed).bit_generator.state)


def _sample_deal(game: Game, rng: np.random.Generator) -> int:
    cum = _cumw(game)
    return int(min(np.searchsorted(cum, rng.random() * cum[-1], side="right"), game.n_deals - 1))


_CUM: dict[int, tuple[Game, np.ndarray]] = {}


def _cumw(game: Game) -> np.ndarray:
    hit = _CUM.get(id(game))
    if hit is None or hit[0] is not game:
        hit = (game, np.cumsum(game.weights))
        _CUM.clear()
        _CUM[id(game)] = hit
    return hit[1]


def _update_regrets(
    game: Game, regrets: np.ndarray, inst: np.ndarray, mask: np.ndarray, schedule: Schedule, t: int
) -> None:
    r = regrets[mask]
    if schedule.alpha is not None:
        ta, tb = float(t) ** schedule.alpha, float(t) ** schedule.beta
        r = np.where(r > 0, r * (ta / (ta + 1.0)), r * (tb / (tb + 1.0)))
    r = r + inst[mask]
    if schedule.floor:
        r = np.maximum(r, 0.0)
    regrets[mask] = r


# ------------------------------------------------------------ external sampling
def _es_traverse(
    game: Game,
    sigma: np.ndarray,
    p: int,
    d: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Sampled regrets of ``p`` and the other players' average-strategy increments."""
    blocks = game.deal_blocks
    a, b = blocks.start[d], blocks.start[d + 1]
    rows = blocks.order[a:b]
    lp = blocks.local_parent[a:b]
    bounds = blocks.depth_start[d]
    es = game.edge_sigma[rows]
    inf = game.row_infoset[rows]
    actor = game.row_actor[rows]
    # the others' sampled actions: one per decision row (a row is an infoset here)
    others = np.nonzero((inf >= 0) & (actor != p))[0]
    pick = np.zeros(game.n_sigma)
    if len(others):
        pad = game.infoset_actions_padded[inf[others]]
        pr = np.where(pad >= 0, sigma[pad.clip(0)], 0.0)
        cum = np.cumsum(pr, axis=1)
        u = rng.random(len(others)) * cum[:, -1]
        choice = np.minimum(
            (cum <= u[:, None]).sum(axis=1), game.infoset_n_actions[inf[others]] - 1
        )
        pick[pad[np.arange(len(others)), choice]] = 1.0
    has = es >= 0
    par_actor = np.where(lp >= 0, actor[lp.clip(0)], -1)
    mine = has & (par_actor == p)
    theirs = has & (par_actor != p)
    eprob = np.ones(len(rows))
    eprob[mine] = sigma[es[mine]]
    eprob[theirs] = pick[es[theirs]]
    # forward: reached under the sampled actions (the traverser explores everything)
    reached = np.ones(len(rows))
    for t in range(1, game.n_depths):
        s0, s1 = bounds[t], bounds[t + 1]
        if s1 > s0:
            reached[s0:s1] = reached[lp[s0:s1]] * np.where(theirs[s0:s1], eprob[s0:s1], 1.0)
    # backward: the traverser's values given the deal
    v = np.zeros(len(rows))
    term = blocks.row_term[rows]
    isterm = term >= 0
    v[isterm] = game.term_u[p, term[isterm]]
    for t in range(game.n_depths - 1, 0, -1):
        s0, s1 = bounds[t], bounds[t + 1]
        if s1 > s0:
            p0 = bounds[t - 1]
            v[p0:s0] += np.bincount(
                lp[s0:s1] - p0, weights=eprob[s0:s1] * v[s0:s1], minlength=s0 - p0
            )
    idx = np.nonzero(mine & ~game.sigma_fixed[np.where(has, es, 0)])[0]
    inst = np.bincount(
        es[idx], weights=reached[lp[idx]] * (v[idx] - v[lp[idx]]), minlength=game.n_sigma
    )
    # simple averaging: each visited decision row of the others adds its strategy
    avg = np.zeros(game.n_sigma)
    seen = others[reached[others] > 0]
    if len(seen):
        pad = game.infoset_actions_padded[inf[seen]]
        ok = pad >= 0
        np.add.at(avg, pad[ok], sigma[pad[ok]])
    return inst, avg


def es_step(game: Game, state: MCCFRState, options: dict) -> MCCFRState:
    schedule = _schedule(options)
    rng = make_rng(None, state.rng)
    t = state.iteration + 1
    regrets, average, sigma = state.regrets.copy(), state.average.copy(), state.sigma.copy()
    weight = float(t) ** schedule.gamma
    for p in range(game.n_players):
        d = _sample_deal(game, rng)
        inst, avg = _es_traverse(game, sigma, p, d, rng)
        mask = (game.sigma_player == p) & ~game.sigma_fixed
        _update_regrets(game, regrets, inst, mask, schedule, t)
        average += weight * np.where(game.sigma_fixed, 0.0, avg)
        sigma = regret_matching(game, regrets, sigma, mask)
    return MCCFRState(t, regrets, average, sigma, rng.bit_generator.state)


# ------------------------------------------------------------- outcome sampling
def os_step(game: Game, state: MCCFRState, options: dict) -> MCCFRState:
    schedule = _schedule(options)
    eps = float(options.get("epsilon", 0.6))
    rng = make_rng(None, state.rng)
    t = state.iteration + 1
    regrets, average, sigma = state.regrets.copy(), state.average.copy(), state.sigma.copy()
    blocks = game.deal_blocks
    weight = float(t) ** schedule.gamma
    n = game.n_players
    for p in range(n):
        d = _sample_deal(game, rng)
        row = int(blocks.order[blocks.start[d]])  # the deal's root row
        reach = np.ones(n)  # each player's own reach (current strategy)
        q_p = 1.0  # the traverser's sampling probability so far
        steps = []  # (infoset, sampled action index, strategy row) of the traverser
        visits = []  # (infoset, strategy row, weight) of the others
        while blocks.row_term[row] < 0:
            kids = blocks.child_rows[blocks.child_ptr[row] : blocks.child_ptr[row + 1]]
            info = int(game.row_infoset[row])
            if info < 0:  # public chance: the deal fixes the one child
                row = int(kids[0])
                continue
            q = int(game.infoset_player[info])
            off = int(game.infoset_offset[info])
            k = len(kids)
            strat = sigma[off : off + k]
            if q == p and not game.infoset_restricted[info]:
                sample = eps / k + (1.0 - eps) * strat
            else:
                sample = strat
            cum = np.cumsum(sample)
            a = int(min(np.searchsorted(cum, rng.random() * cum[-1], side="right"), k - 1))
            if q == p:
                # restricted steps get no regret but still count in the tail reach
                steps.append((info, a, strat.copy(), bool(game.infoset_restricted[info])))
                q_p *= sample[a]
            else:
                # stochastically weighted averaging: pi_q(h) / q(h) with chance and
                # q's own sampling on-policy -> 1 / (others' reach * traverser's q)
                rest = float(np.prod(np.delete(reach, [p, q])))
                if not game.infoset_restricted[info] and rest * q_p > 0:
                    visits.append((off, k, strat.copy() / (rest * q_p)))
            reach[q] *= strat[a]
            row = int(kids[a])
        u = game.term_u[p, blocks.row_term[row]]
        w = u / q_p
        inst = np.zeros(game.n_sigma)
        tail = 1.0
        for info, a, strat, fixed in reversed(steps):
            if not fixed:
                off = int(game.infoset_offset[info])
                r = -w * tail * strat[a] * np.ones(len(strat))
                r[a] = w * tail * (1.0 - strat[a])
                inst[off : off + len(strat)] += r
            tail *= strat[a]
        mask = (game.sigma_player == p) & ~game.sigma_fixed
        _update_regrets(game, regrets, inst, mask, schedule, t)
        for off, k, contrib in visits:
            average[off : off + k] += weight * contrib
        sigma = regret_matching(game, regrets, sigma, mask)
    return MCCFRState(t, regrets, average, sigma, rng.bit_generator.state)


def _schedule(options: dict) -> Schedule:
    fields = Schedule.__dataclass_fields__
    return Schedule(**{k: v for k, v in options.items() if k in fields})


def _output(game: Game, state: MCCFRState, which: str) -> np.ndarray:
    if which == "current":
        return state.sigma
    return average_strategy(game, state)  # type: ignore[arg-type]


ES_DEFAULTS = {
    "floor": False,
    "alpha": None,
    "beta": None,
    "gamma": 0.0,
    "alternating": True,
    "delay": 0,
}
register(
    Method(
        "es-mccfr",
        "external-sampling Monte Carlo CFR (deals and others' actions sampled)",
        init,
        es_step,
        _output,
        dict(ES_DEFAULTS),
        stochastic=True,
    )
)
register(
    Method(
        "os-mccfr",
        "outcome-sampling Monte Carlo CFR (one trajectory, epsilon-exploration 0.6)",
        init,
        os_step,
        _output,
        {**ES_DEFAULTS, "epsilon": 0.6},
        stochastic=True,
    )
)

__all__ = ["MCCFRState", "es_step", "init", "os_step", "replace"]
