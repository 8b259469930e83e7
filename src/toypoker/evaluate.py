"""Expected values, best responses and NashConv over the compiled game.

Every pass is vectorised over the rows (public node, deal) of the compiled
game: one gather and one ``bincount`` per depth.  The same functions run over
``float64`` arrays (fast) or over object arrays of :class:`fractions.Fraction`
(exact): pass a profile whose probabilities are Fractions.

Conventions: ``values[p, r]`` is player ``p``'s expected payoff from row ``r``
*given its deal* (chance weights enter only at the root and in
counterfactual reaches); ``reach[p, r]`` is the product of ``p``'s own
action probabilities on the path to ``r``.  Three names for three reaches:
:func:`reaches` (every player, every row), :func:`player_reach` (one player,
every row) and :func:`infoset_reach` (per action: its owner's reach of the
infoset); :func:`realization` is the sequence form ``infoset_reach * sigma``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .game import Game
from .profile import Profile


# ----------------------------------------------------------------- primitives
def segment_sum(index: np.ndarray, weights: np.ndarray, size: int) -> np.ndarray:
    """``out[i] = sum(weights[index == i])`` for float or exact (object) weights."""
    if weights.dtype == object:
        out = np.zeros(size, dtype=object)
        out[:] = Fraction(0)
        np.add.at(out, index, weights)
        return out
    return np.bincount(index, weights=weights, minlength=size)


def _is_exact(sigma: np.ndarray) -> bool:
    return sigma.dtype == object


def edge_probabilities(game: Game, sigma: np.ndarray) -> np.ndarray:
    """Probability of the action leading to each row (1 at the root and after chance)."""
    exact = _is_exact(sigma)
    ep = np.empty(game.n_rows, dtype=object if exact else np.float64)
    ep[:] = Fraction(1) if exact else 1.0
    has = game.edge_sigma >= 0
    ep[has] = sigma[game.edge_sigma[has]]
    return ep


def reaches(game: Game, eprob: np.ndarray) -> np.ndarray:
    """Own reach of every player at every row, shape ``(n, R)``."""
    exact = eprob.dtype == object
    n = game.n_players
    reach = np.empty((n, game.n_rows), dtype=object if exact else np.float64)
    d0, d1 = game.depth_start[0], game.depth_start[1]
    reach[:, d0:d1] = Fraction(1) if exact else 1.0
    for t in range(1, game.n_depths):
        a, b = game.depth_start[t], game.depth_start[t + 1]
        par = game.parent_row[a:b]
        for p in range(n):
            rp = reach[p, par]
            e = game.depth_player_edges[t][p]
            if len(e):
                rp[e] = rp[e] * eprob[a + e]
            reach[p, a:b] = rp
    return reach


def player_reach(game: Game, eprob: np.ndarray, player: int) -> np.ndarray:
    """``player``'s own reach at every row (one player's forward pass), shape ``(R,)``."""
    exact = eprob.dtype == object
    reach = np.empty(game.n_rows, dtype=object if exact else np.float64)
    d1 = game.depth_start[1]
    reach[:d1] = Fraction(1) if exact else 1.0
    for t in range(1, game.n_depths):
        a, b = game.depth_start[t], game.depth_start[t + 1]
        rp = reach[game.parent_row[a:b]]
        e = game.depth_player_edges[t][player]
        if len(e):
            rp[e] = rp[e] * eprob[a + e]
        reach[a:b] = rp
    return reach


def infoset_reach(game: Game, sigma: np.ndarray) -> np.ndarray:
    """Per flat action (sigma index): its owner's probability of reaching that
    action's infoset, own actions only (float), from one reach pass read at each
    infoset's representative row."""
    reach = reaches(game, edge_probabilities(game, np.asarray(sigma, dtype=float)))
    at_infoset = reach[game.infoset_player, game.infoset_rep_row]
    return at_infoset[game.sigma_infoset]


def realization(game: Game, sigma: np.ndarray) -> np.ndarray:
    """The sequence form (realization plan): ``infoset_reach * sigma`` per action.

    Profiles that differ only where their owner never arrives have the same
    realization: they are the same equilibrium.
    """
    return infoset_reach(game, sigma) * np.asarray(sigma, dtype=float)


def counterfactual_reach(game: Game, reach: np.ndarray, player: int) -> np.ndarray:
    """Chance times the other players' reach, at every row."""
    w = game.weights_exact if reach.dtype == object else game.weights
    cf = w[game.row_deal]
    for q in range(game.n_players):
        if q != player:
            cf = cf * reach[q]
    return cf


def terminal_payoffs(game: Game, exact: bool) -> np.ndarray:
    """``game.term_u`` or, if ``exact``, ``game.term_u_exact``."""
    return game.term_u_exact if exact else game.term_u


def backward_values(game: Game, eprob: np.ndarray, players: list[int] | None = None) -> np.ndarray:
    """Expected payoff of each player at every row, given the deal, shape ``(k, R)``."""
    exact = eprob.dtype == object
    players = list(range(game.n_players)) if players is None else players
    u = terminal_payoffs(game, exact)
    vals = np.empty((len(players), game.n_rows), dtype=object if exact else np.float64)
    for j, p in enumerate(players):
        v = vals[j]
        v[:] = Fraction(0) if exact else 0.0
        v[game.term_rows] = u[p]
        for t in range(game.n_depths - 1, 0, -1):
            a, b = game.depth_start[t], game.depth_start[t + 1]
            pa = game.depth_start[t - 1]
            size = int(a - pa)
            v[pa:a] = v[pa:a] + segment_sum(game.parent_row[a:b] - pa, eprob[a:b] * v[a:b], size)
    return vals


def root_value(game: Game, values_row: np.ndarray) -> object:
    """``sum_d w[d] * values[root row of d]``."""
    a, b = game.depth_start[0], game.depth_start[1]
    w = game.weights_exact if values_row.dtype == object else game.weights
    return (w[game.row_deal[a:b]] * values_row[a:b]).sum()


def expected_values(game: Game, profile: Profile | np.ndarray) -> np.ndarray:
    """Each player's expected payoff under the profile (exact for Fraction profiles)."""
    sigma = profile.probs if isinstance(profile, Profile) else profile
    eprob = edge_probabilities(game, sigma)
    vals = backward_values(game, eprob)
    return np.array([root_value(game, vals[p]) for p in range(game.n_players)], dtype=vals.dtype)


# ------------------------------------------------------------- best response
@dataclass(frozen=True)
class BestResponse:
    """A pure best response of one player to the others' strategies.

    ``choice`` is a flat 0/1 vector over the game's actions that is 1 at the
    chosen action of each of ``player``'s free infosets (restricted infosets
    keep their fixed probabilities and are not part of the response).
    """

    player: int
    value: object
    choice: np.ndarray

    def as_profile(self, profile: Profile) -> Profile:
        """``profile`` with ``player``'s free infosets replaced by this response."""
        game = profile.game
        mask = game.free_mask(self.player)
        probs = profile.probs.copy()
        if probs.dtype == object:
            probs[mask] = [Fraction(int(x)) for x in self.choice[mask]]
        else:
            probs[mask] = self.choice[mask]
        return Profile(game, probs)


def best_response(
    game: Game,
    profile: Profile | np.ndarray,
    player: int,
    reach: np.ndarray | None = None,
    eprob: np.ndarray | None = None,
    *,
    order: np.ndarray | None = None,
    tie_rtol: float = 0.0,
) -> BestResponse:
    """A best response of ``player`` to ``profile`` and its value.

    Backward over the public tree: at each depth the counterfactual values of
    ``player``'s actions are summed over the deals of each infoset and the
    argmax is taken (ties go to the first action, in the game's action order,
    or in ``order``).

    Parameters
    ----------
    game
        The compiled game.
    profile
        The others' strategies: a :class:`Profile` or a flat sigma vector (float,
        or an object array of Fractions for an exact best response).
    player
        The responding player (0-based).
    reach, eprob
        The profile's row reaches and edge probabilities, when the caller has
        them already (:func:`reaches`, :func:`edge_probabilities`).
    order
        Tie preference: ``(n_infosets, max_actions)`` flat action indices of each
        infoset, preferred first, ``-1`` padded (default: the game's action order,
        ``game.infoset_actions_padded``).
    tie_rtol
        Float profiles: values within ``tie_rtol`` times the infoset's largest
        absolute action value of the best count as ties (default 0: exact ties).

    Returns
    -------
    BestResponse
        The pure best response (``choice``, one per sequence) and its value.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=2)")
    >>> br = tp.best_response(g, tp.Profile.uniform(g, exact=True), 0)
    >>> br.value
    Fraction(1, 2)
    """
    sigma = profile.probs if isinstance(profile, Profile) else profile
    exact = _is_exact(sigma)
    if eprob is None:
        eprob = edge_probabilities(game, sigma)
    if reach is None:
        reach = reaches(game, eprob)
    cf = counterfactual_reach(game, reach, player)
    u = terminal_payoffs(game, exact)
    v = np.empty(game.n_rows, dtype=object if exact else np.float64)
    v[:] = Fraction(0) if exact else 0.0
    v[game.term_rows] = u[player]
    choice = np.zeros(game.n_sigma, dtype=np.int8)
    neg = float("-inf")
    for t in range(game.n_depths - 1, 0, -1):
        a, b = game.depth_start[t], game.depth_start[t + 1]
        pa = game.depth_start[t - 1]
        es = game.edge_sigma[a:b]
        idx = game.depth_player_edges[t][player]
        infs = game.depth_player_infosets[t][player]
        if game.infoset_restricted.any():
            idx = idx[~game.sigma_fixed[es[idx]]]
            infs = infs[~game.infoset_restricted[infs]]
        ep = eprob[a:b].copy()
        if len(idx):
            q = segment_sum(es[idx], cf[game.parent_row[a + idx]] * v[a + idx], game.n_sigma)
            pad = (game.infoset_actions_padded if order is None else order)[infs]
            qm = np.where(pad >= 0, q[pad.clip(0)], neg)
            if exact:
                best = (
                    np.array(
                        [max(range(len(r)), key=lambda k, r=r: (r[k], -k)) for r in qm],
                        dtype=np.int64,
                    )
                    if len(qm)
                    else np.zeros(0, dtype=np.int64)
                )
            elif tie_rtol:
                top = qm.max(axis=1, keepdims=True)
                scale = np.abs(np.where(pad >= 0, qm, 0.0)).max(axis=1, keepdims=True)
                best = np.argmax(qm >= top - tie_rtol * scale, axis=1)
            else:
                best = np.argmax(qm, axis=1)
            chosen = pad[np.arange(len(infs)), best]
            choice[chosen] = 1
            if exact:
                ep[idx] = [Fraction(int(x)) for x in choice[es[idx]]]
            else:
                ep[idx] = choice[es[idx]]
        size = int(a - pa)
        v[pa:a] = v[pa:a] + segment_sum(game.parent_row[a:b] - pa, ep * v[a:b], size)
    return BestResponse(player, root_value(game, v), choice)


@dataclass(frozen=True)
class Evaluation:
    """Expected values, best-response values and gains of a profile.

    ``gains[p] = br_values[p] - values[p] >= 0``; ``nash_conv = sum(gains)``.
    Exact (Fractions) when the profile is exact.
    """

    values: tuple
    br_values: tuple
    gains: tuple
    nash_conv: object
    best_responses: tuple[BestResponse, ...]
    exact: bool

    @property
    def max_gain(self) -> object:
        """The largest gain of one player by deviating."""
        return max(self.gains)

    def to_dict(self) -> dict[str, object]:
        """As JSON data (exact numbers as ``{"exact": "p/q", "float": x}``)."""

        def num(x: object) -> object:
            if isinstance(x, Fraction):
                return {"exact": str(x), "float": float(x)}
            return float(x)

        return {
            "values": [num(x) for x in self.values],
            "best_response_values": [num(x) for x in self.br_values],
            "gains": [num(x) for x in self.gains],
            "nash_conv": num(self.nash_conv),
            "exact": self.exact,
        }


def evaluate(game: Game, profile: Profile) -> Evaluation:
    """Expected values, each player's best response and gain, and NashConv.

    Parameters
    ----------
    game
        The compiled game.
    profile
        A profile of ``game``; exact (Fractions) gives exact results.

    Returns
    -------
    Evaluation
        ``values``, ``br_values``, ``gains`` (clipped at 0 for floats),
        ``nash_conv`` and the best responses.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=2)")
    >>> tp.evaluate(g, tp.Profile.uniform(g, exact=True)).values
    (Fraction(1, 8), Fraction(-1, 8))
    """
    sigma = profile.probs
    eprob = edge_probabilities(game, sigma)
    vals = backward_values(game, eprob)
    values = tuple(root_value(game, vals[p]) for p in range(game.n_players))
    reach = reaches(game, eprob)
    brs = tuple(best_response(game, sigma, p, reach, eprob) for p in range(game.n_players))
    br_values = tuple(br.value for br in brs)
    gains = tuple(b - v for b, v in zip(br_values, values, strict=True))
    if not profile.exact:
        values = tuple(float(x) for x in values)
        br_values = tuple(float(x) for x in br_values)
        gains = tuple(max(float(x), 0.0) for x in gains)
    nash_conv = sum(gains[1:], gains[0])
    return Evaluation(values, br_values, gains, nash_conv, brs, profile.exact)


def nash_conv(game: Game, profile: Profile | np.ndarray) -> object:
    """Sum over players of the best-response gain (0 exactly at an equilibrium).

    Exact (Fraction) profiles: :func:`evaluate`, exactly.  Float profiles: the
    fused best-response kernel (:func:`toypoker.kernels.nash_conv`, equal to
    ``evaluate(game, profile).nash_conv`` to 1e-12, ``tests/kernels``).

    Parameters
    ----------
    game
        The compiled game.
    profile
        A :class:`Profile` or a flat sigma vector.

    Returns
    -------
    float or Fraction
        The NashConv, a Fraction for exact profiles.
    """
    if not isinstance(profile, Profile):
        profile = Profile(game, profile)
    if profile.exact:
        return evaluate(game, profile).nash_conv
    # numba loads with the first float NashConv, not with ``import toypoker``
    from .kernels import kernel_for
    from .kernels import nash_conv as kernel_nash_conv

    sigma = np.ascontiguousarray(profile.probs, dtype=np.float64)
    return kernel_nash_conv(kernel_for(game), sigma)
