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

A team's joint best response and gain are the team wing's
(:mod:`toypoker.teams.evaluation`); the records returned are the engines'
(:mod:`toypoker.engines.protocol`).
"""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np

from toypoker.checks import check_int
from toypoker.engines.protocol import BestResponse, Evaluation
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.profile import Profile, check_profile

# ----------------------------------------------------------------- primitives


def segment_sum(
    index: np.ndarray, weights: np.ndarray, size: int, zero: object = None
) -> np.ndarray:
    """``out[i] = sum(weights[index == i])`` for float or exact (object) weights; an
    exact sum starts from ``zero`` (default ``Fraction(0)``; the exact passes' own
    rationals give theirs)."""
    if weights.dtype == object:
        out = np.zeros(size, dtype=object)
        out[:] = Fraction(0) if zero is None else zero
        np.add.at(out, index, weights)
        return out
    return np.bincount(index, weights=weights, minlength=size)


_ZERO, _ONE = flint.fmpq(0), flint.fmpq(1)


def _rational(a: np.ndarray) -> np.ndarray | None:
    """An object array of Fractions and ints as FLINT rationals, ``None`` if it holds
    anything else (sympy expressions: :mod:`toypoker.symbolic`).  FLINT's rationals
    are the working type of the exact backward passes: their arithmetic runs in C,
    several times ``Fraction``'s speed (the SMH team-23 bound's 12.6 million
    operations), exact either way; :func:`_fractions` turns the results back."""
    items = a.reshape(-1).tolist()
    if set(map(type, items)) - {Fraction, int}:
        return None
    out = np.empty(a.shape, dtype=object)
    out.reshape(-1)[:] = [flint.fmpq(x.numerator, x.denominator) for x in items]
    return out


def _rational_reach(
    game: Game, reach: np.ndarray, eprob: np.ndarray, inside: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`counterfactual_reach` of ``inside`` and ``eprob`` as FLINT rationals (the
    reaches converted, then multiplied: a conversion costs less than a ``Fraction``
    product), ``None`` unless all are Fractions and ints."""
    ep = _rational(eprob)
    w = _rational(np.asarray(game.weights_exact, dtype=object))
    if ep is None or w is None:
        return None
    cf = w[game.row_deal]
    for q in range(game.n_players):
        if q not in inside:
            r = _rational(reach[q])
            if r is None:
                return None
            cf = cf * r
    return cf, ep


def _fractions(a: np.ndarray) -> np.ndarray:
    """The inverse of :func:`_rational`: the same numbers as ``Fraction``s."""
    out = np.empty(a.shape, dtype=object)
    out.reshape(-1)[:] = [Fraction(int(x.p), int(x.q)) for x in a.reshape(-1).tolist()]
    return out


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


def counterfactual_reach(
    game: Game, reach: np.ndarray, player: int | tuple[int, ...]
) -> np.ndarray:
    """Chance times the other players' reach, at every row (``player`` may be a team:
    then the reach of everybody outside it)."""
    w = game.weights_exact if reach.dtype == object else game.weights
    cf = w[game.row_deal]
    inside = (player,) if isinstance(player, int | np.integer) else tuple(player)
    for q in range(game.n_players):
        if q not in inside:
            cf = cf * reach[q]
    return cf


def terminal_payoffs(game: Game, exact: bool) -> np.ndarray:
    """``game.term_u`` or, if ``exact``, ``game.term_u_exact``."""
    return game.term_u_exact if exact else game.term_u


def backward_values(game: Game, eprob: np.ndarray, players: list[int] | None = None) -> np.ndarray:
    """Expected payoff of each player at every row, given the deal, shape ``(k, R)``."""
    return _backward_values(game, eprob, players)


def _backward_values(
    game: Game, eprob: np.ndarray, players: list[int] | None = None, root_only: bool = False
) -> np.ndarray:
    """:func:`backward_values`; ``root_only``: exact values are Fractions at the root
    rows only (what :func:`root_value` reads; the others stay FLINT rationals)."""
    exact = eprob.dtype == object
    players = list(range(game.n_players)) if players is None else players
    u = terminal_payoffs(game, exact)
    fast = _rational(eprob) if exact else None  # FLINT's rationals, Fractions at the end
    terms = [_rational(u[p]) for p in players] if fast is not None else []
    if fast is not None and all(x is not None for x in terms):
        eprob, u = fast, dict(zip(players, terms, strict=True))
    else:
        fast = None
    zero = _ZERO if fast is not None else None
    vals = np.empty((len(players), game.n_rows), dtype=object if exact else np.float64)
    for j, p in enumerate(players):
        v = vals[j]
        v[:] = (_ZERO if fast is not None else Fraction(0)) if exact else 0.0
        v[game.term_rows] = u[p]
        for t in range(game.n_depths - 1, 0, -1):
            a, b = game.depth_start[t], game.depth_start[t + 1]
            pa = game.depth_start[t - 1]
            size = int(a - pa)
            v[pa:a] = v[pa:a] + segment_sum(
                game.parent_row[a:b] - pa, eprob[a:b] * v[a:b], size, zero
            )
    if fast is None:
        return vals
    if root_only:
        d0, d1 = game.depth_start[0], game.depth_start[1]
        vals[:, d0:d1] = _fractions(vals[:, d0:d1])
        return vals
    return _fractions(vals)


def root_value(game: Game, values_row: np.ndarray) -> object:
    """``sum_d w[d] * values[root row of d]``."""
    a, b = game.depth_start[0], game.depth_start[1]
    w = game.weights_exact if values_row.dtype == object else game.weights
    return (w[game.row_deal[a:b]] * values_row[a:b]).sum()


def expected_values(game: Game, profile: Profile | np.ndarray) -> np.ndarray:
    """Each player's expected payoff under the profile (exact for Fraction profiles)."""
    sigma = profile.probs if isinstance(profile, Profile) else profile
    eprob = edge_probabilities(game, sigma)
    vals = _backward_values(game, eprob, root_only=True)
    return np.array([root_value(game, vals[p]) for p in range(game.n_players)], dtype=vals.dtype)


# ------------------------------------------------------------- best response
def first_best(qm: np.ndarray, pad: np.ndarray, tie_rtol: float) -> np.ndarray:
    """Per row of the float action values ``qm`` (``-inf`` where ``pad`` is ``-1``), the
    first column within ``tie_rtol`` times the row's largest absolute value of the best
    (``tie_rtol = 0``: the first maximum)."""
    if not tie_rtol:
        return np.argmax(qm, axis=1)
    top = qm.max(axis=1, keepdims=True)
    scale = np.abs(np.where(pad >= 0, qm, 0.0)).max(axis=1, keepdims=True)
    return np.argmax(qm >= top - tie_rtol * scale, axis=1)


def best_response(
    game: Game,
    profile: Profile | np.ndarray,
    player: int | tuple[int, ...],
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
        The others' strategies: a :class:`Profile` of ``game`` or a flat sigma vector
        (float, or an object array of Fractions for an exact best response; used as
        given, not validated).
    player
        The responding player (0-based), or a team (a tuple of seats) responding as
        one player to the team's summed payoff: exact when the team has perfect
        recall as a whole (strong collusion: every member sees the team's cards);
        for a weak team it is a joint plan (each member's best reply to the others'
        later choices), a lower bound on the team's best response
        (:func:`toypoker.teams.evaluation.team_evaluation` solves that exactly).
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
    sigma = check_profile(game, profile, validate=False).probs
    seats = _seats(game, player)
    exact = _is_exact(sigma)
    if eprob is None:
        eprob = edge_probabilities(game, sigma)
    if reach is None:
        reach = reaches(game, eprob)
    v, cf, eprob, fast = _response_start(game, reach, eprob, seats, exact)
    zero = _ZERO if fast else None
    choice = np.zeros(game.n_sigma, dtype=np.int8)
    neg = float("-inf")
    for t in range(game.n_depths - 1, 0, -1):
        a, b = game.depth_start[t], game.depth_start[t + 1]
        pa = game.depth_start[t - 1]
        es = game.edge_sigma[a:b]
        idx = np.concatenate([game.depth_player_edges[t][p] for p in seats])
        infs = np.concatenate([game.depth_player_infosets[t][p] for p in seats])
        if game.infoset_restricted.any():
            idx = idx[~game.sigma_fixed[es[idx]]]
            infs = infs[~game.infoset_restricted[infs]]
        ep = eprob[a:b].copy()
        if len(idx):
            q = segment_sum(es[idx], cf[game.parent_row[a + idx]] * v[a + idx], game.n_sigma, zero)
            pad = (game.infoset_actions_padded if order is None else order)[infs]
            qm = np.where(pad >= 0, q[pad.clip(0)], neg)
            best = _exact_first_best(qm, pad) if exact else first_best(qm, pad, tie_rtol)
            chosen = pad[np.arange(len(infs)), best]
            choice[chosen] = 1
            if fast:
                ep[idx] = [_ONE if x else _ZERO for x in choice[es[idx]]]
            elif exact:
                ep[idx] = [Fraction(int(x)) for x in choice[es[idx]]]
            else:
                ep[idx] = choice[es[idx]]
        size = int(a - pa)
        v[pa:a] = v[pa:a] + segment_sum(game.parent_row[a:b] - pa, ep * v[a:b], size, zero)
    if fast:
        d0, d1 = game.depth_start[0], game.depth_start[1]
        v[d0:d1] = _fractions(v[d0:d1])  # the root rows: root_value weighs them exactly
    return BestResponse(player, root_value(game, v), choice)


def _seats(game: Game, player: int | tuple[int, ...]) -> tuple[int, ...]:
    """The responding seats of :func:`~toypoker.engines.rows.values.best_response`:
    ``player`` alone, or a team's seats, each checked.

    Raises
    ------
    ToypokerError
        A seat out of range, or a team without seats.
    """
    if isinstance(player, tuple | list):
        seats = tuple(check_int(p, "a team seat", low=0, high=game.n_players - 1) for p in player)
        if not seats:
            raise ToypokerError("a responding team needs at least one seat")
    else:
        seats = (check_int(player, "player", low=0, high=game.n_players - 1),)
    return seats


def _response_start(
    game: Game, reach: np.ndarray, eprob: np.ndarray, seats: tuple[int, ...], exact: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Where the backward pass of a best response of ``seats`` starts.

    Returns
    -------
    tuple
        The row values (the seats' summed payoff at the terminal rows, zero elsewhere),
        the counterfactual reach of ``seats``, the edge probabilities, and whether the
        three hold FLINT rationals (an exact profile of Fractions and ints:
        :func:`~toypoker.engines.rows.values._rational`) rather than the profile's own
        numbers.
    """
    u = terminal_payoffs(game, exact)
    term = sum((u[p] for p in seats[1:]), u[seats[0]])
    # exact: the passes in FLINT's rationals (see _rational), the value a Fraction
    fast = _rational_reach(game, reach, eprob, seats) if exact else None
    term_fast = _rational(term) if fast is not None else None
    v = np.empty(game.n_rows, dtype=object if exact else np.float64)
    if fast is not None and term_fast is not None:
        cf, eprob = fast
        v[:] = _ZERO
        v[game.term_rows] = term_fast
        return v, cf, eprob, True
    cf = counterfactual_reach(game, reach, seats)
    v[:] = Fraction(0) if exact else 0.0
    v[game.term_rows] = term
    return v, cf, eprob, False


def _exact_first_best(qm: np.ndarray, pad: np.ndarray) -> np.ndarray:
    """Per row of the exact action values ``qm``, the first column of the best among
    those where ``pad`` is not ``-1`` (its padding left out)."""
    return (
        np.array(
            [
                max(np.flatnonzero(ok).tolist(), key=lambda k, r=r: (r[k], -k))
                for r, ok in zip(qm, pad >= 0, strict=True)
            ],
            dtype=np.int64,
        )
        if len(qm)
        else np.zeros(0, dtype=np.int64)
    )


def evaluate(game: Game, profile: Profile | np.ndarray) -> Evaluation:
    """:func:`toypoker.evaluate` on the deal table (parameters, returns and errors as
    there): values, each player's best response and gain, NashConv."""
    profile = check_profile(game, profile)
    sigma = profile.probs
    eprob = edge_probabilities(game, sigma)
    vals = _backward_values(game, eprob, root_only=True)
    values = tuple(root_value(game, vals[p]) for p in range(game.n_players))
    reach = reaches(game, eprob)
    brs = tuple(best_response(game, sigma, p, reach, eprob) for p in range(game.n_players))
    return Evaluation.of(values, brs, profile.exact)


def nash_conv(game: Game, profile: Profile | np.ndarray) -> object:
    """Sum over players of the best-response gain (0 exactly at an equilibrium).

    Exact (Fraction) profiles: :func:`evaluate`, exactly.  Float profiles: the
    fused best-response kernel (:func:`toypoker.engines.rows.kernel_nash_conv`, equal to
    ``evaluate(game, profile).nash_conv`` to 1e-12, ``tests/engines/rows``).

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

    Raises
    ------
    ProfileError
        For a profile of another game, or anything that is not a profile.
    """
    profile = check_profile(game, profile)
    if profile.exact:
        return evaluate(game, profile).nash_conv
    # numba loads with the first float NashConv, not with ``import toypoker``
    from toypoker.engines.rows import kernel_for, kernel_nash_conv

    sigma = np.ascontiguousarray(profile.probs, dtype=np.float64)
    return kernel_nash_conv(kernel_for(game), sigma)
