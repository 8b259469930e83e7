"""Counterfactual regret minimisation as one traversal with a schedule.

Vanilla CFR (Zinkevich et al. 2007), CFR+ (Tammelin 2014), linear CFR and
discounted CFR (Brown & Sandholm 2019) differ only in how accumulated regrets
are discounted or floored and how iterations are weighted in the average
strategy.  :class:`Schedule` holds those choices; :func:`step` performs one
iteration over the compiled game (full width, vectorised over the rows).

Discounting (DCFR, Brown & Sandholm 2019, Sec. 3): after iteration ``t``
accumulated positive regrets are multiplied by ``t^alpha / (t^alpha + 1)``
and negative ones by ``t^beta / (t^beta + 1)``; iteration ``t`` enters the
average strategy with weight proportional to ``t^gamma``.  CFR+ floors
regrets at zero and averages linearly (``gamma = 1``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..evaluate import backward_values, counterfactual_reach, edge_probabilities, reaches
from ..game import Game


@dataclass(frozen=True)
class Schedule:
    """How a CFR variant accumulates regrets and averages strategies.

    Attributes
    ----------
    floor : bool
        Clip accumulated regrets at zero after every update (CFR+).
    alpha, beta : float or None
        DCFR discount exponents for positive / negative regrets (None: none).
    gamma : float
        Average-strategy weight of iteration ``t`` is ``t**gamma``.
    alternating : bool
        Update players one after another (each sees the others' new strategy).
    delay : int
        Iterations before the average starts accumulating (CFR+ practice).
    """

    floor: bool = False
    alpha: float | None = None
    beta: float | None = None
    gamma: float = 0.0
    alternating: bool = True
    delay: int = 0


# the named variants (toypoker solve --method NAME)
SCHEDULES: dict[str, Schedule] = {
    # alternating updates, as OpenSpiel's CFRSolver (simultaneous: alternating=False)
    "cfr": Schedule(floor=False, gamma=0.0, alternating=True),
    "cfr+": Schedule(floor=True, gamma=1.0, alternating=True),
    "lcfr": Schedule(alpha=1.0, beta=1.0, gamma=1.0, alternating=True),
    "dcfr": Schedule(alpha=1.5, beta=0.0, gamma=2.0, alternating=True),
}


@dataclass(frozen=True)
class CFRState:
    """Everything a CFR run needs to continue: resumable bit for bit."""

    iteration: int
    regrets: np.ndarray  # (A,) accumulated regrets
    average: np.ndarray  # (A,) accumulated weighted strategy
    sigma: np.ndarray  # (A,) current strategy


class _Edges:
    """Per-player action edges of the compiled game (precomputed once)."""

    def __init__(self, game: Game):
        actor = game.row_actor[game.parent_row.clip(0)]
        es = game.edge_sigma
        self.rows = []
        for p in range(game.n_players):
            idx = np.nonzero((es >= 0) & (actor == p))[0]
            idx = idx[~game.sigma_fixed[es[idx]]]
            self.rows.append(idx)
        self.mask = [(game.sigma_player == p) & ~game.sigma_fixed for p in range(game.n_players)]


def _edges(game: Game) -> _Edges:
    return game.derived("cfr_edges", _Edges)


def regret_matching(
    game: Game, regrets: np.ndarray, sigma: np.ndarray, mask: np.ndarray
) -> np.ndarray:
    """New strategy at the entries in ``mask``: positive regrets normalised per
    infoset, uniform where no regret is positive.  Other entries unchanged."""
    pos = np.where(mask, np.maximum(regrets, 0.0), 0.0)
    sums = np.bincount(game.sigma_infoset, weights=pos, minlength=game.n_infosets)
    s = sums[game.sigma_infoset]
    uniform = 1.0 / game.infoset_n_actions[game.sigma_infoset]
    new = np.where(s > 0, pos / np.where(s > 0, s, 1.0), uniform)
    return np.where(mask, new, sigma)


def initial_state(game: Game) -> CFRState:
    k = game.infoset_n_actions[game.sigma_infoset]
    sigma = 1.0 / k
    sigma[game.sigma_fixed] = game.fixed_values[game.sigma_fixed]
    z = np.zeros(game.n_sigma)
    return CFRState(0, z, z.copy(), sigma)


def _instant_regrets(
    game: Game,
    sigma: np.ndarray,
    player: int,
    edges: _Edges,
    eprob: np.ndarray | None = None,
    reach: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Counterfactual regrets of ``player``'s actions and its own reach per row."""
    if eprob is None:
        eprob = edge_probabilities(game, sigma)
    if reach is None:
        reach = reaches(game, eprob)
    cf = counterfactual_reach(game, reach, player)
    v = backward_values(game, eprob, [player])[0]
    idx = edges.rows[player]
    par = game.parent_row[idx]
    inst = np.bincount(
        game.edge_sigma[idx], weights=cf[par] * (v[idx] - v[par]), minlength=game.n_sigma
    )
    return inst, reach[player]


def step(game: Game, state: CFRState, schedule: Schedule) -> CFRState:
    """One CFR iteration under ``schedule``; returns a new state."""
    edges = _edges(game)
    t = state.iteration + 1
    regrets = state.regrets.copy()
    average = state.average.copy()
    sigma = state.sigma.copy()
    weight = float(t) ** schedule.gamma if t > schedule.delay else 0.0
    players = range(game.n_players)
    if schedule.alternating:
        updates = [[p] for p in players]
    else:
        updates = [list(players)]
    own_rep = game.infoset_rep_row[game.sigma_infoset]
    for group in updates:
        eprob = edge_probabilities(game, sigma)
        reach = reaches(game, eprob)
        news = []
        for p in group:
            inst, own = _instant_regrets(game, sigma, p, edges, eprob, reach)
            mask = edges.mask[p]
            if weight:
                average[mask] += weight * own[own_rep[mask]] * sigma[mask]
            news.append((p, inst, mask))
        for _p, inst, mask in news:
            r = regrets[mask]
            if schedule.alpha is not None:
                ta = float(t) ** schedule.alpha
                tb = float(t) ** schedule.beta
                r = np.where(r > 0, r * (ta / (ta + 1.0)), r * (tb / (tb + 1.0)))
            r = r + inst[mask]
            if schedule.floor:
                r = np.maximum(r, 0.0)
            regrets[mask] = r
        for _p, _, mask in news:
            sigma = regret_matching(game, regrets, sigma, mask)
    return replace(state, iteration=t, regrets=regrets, average=average, sigma=sigma)


def average_strategy(game: Game, state: CFRState) -> np.ndarray:
    """The normalised average strategy (current strategy where nothing accumulated)."""
    sums = np.bincount(game.sigma_infoset, weights=state.average, minlength=game.n_infosets)
    s = sums[game.sigma_infoset]
    avg = np.where(s > 0, state.average / np.where(s > 0, s, 1.0), state.sigma)
    avg[game.sigma_fixed] = game.fixed_values[game.sigma_fixed]
    return avg


def _output(game: Game, state: CFRState, which: str) -> np.ndarray:
    return average_strategy(game, state) if which == "average" else state.sigma


def _register() -> None:
    from dataclasses import asdict

    from .base import Method, register

    docs = {
        "cfr": "vanilla CFR, alternating updates, uniform average",
        "cfr+": "CFR+: regrets floored at 0, alternating updates, linear average",
        "lcfr": "linear CFR: iteration t weighted by t in regrets and average",
        "dcfr": "discounted CFR (alpha=1.5, beta=0, gamma=2)",
    }
    for name, sched in SCHEDULES.items():
        register(
            Method(
                name,
                docs[name],
                init=lambda g, o, s: initial_state(g),
                step=lambda g, st, o: step(g, st, Schedule(**o)),
                output=_output,
                defaults=asdict(sched),
            )
        )


_register()
