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

Teams: :func:`team_evaluation` (and ``team=`` on :func:`evaluate` and
:func:`nash_conv`) gives a team's joint best-response gain -- the team as one
player, its members' plans chosen jointly -- beside the outsiders' gains.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np

from .checks import check_int, check_number
from .errors import ToypokerError
from .frozen import FrozenRecord, read_only_copy
from .game import Game
from .games.collusion import Team, agreeing_team
from .profile import Profile, check_profile
from .teams.pairs import MilpUnfinishedError, outside_weights, per_team, plan_value
from .teams.response import alternating_starts, joint_plan_alternating, joint_response
from .teams.transfer import TeamEvaluation, number_data, sees_together, team_seats

# ----------------------------------------------------------------- primitives
TEAM_MILP_SECONDS = 30.0
"""Default time limit of HiGHS on a team's best-response MILP in :func:`team_evaluation`
(``milp_seconds``): past it the members' alternating best responses give a lower bound
instead (said in ``how``), so a long MILP neither hangs a command nor keeps it from
seeing Ctrl-C for long."""


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
@dataclass(frozen=True, eq=False)  # equality and pickling: FrozenRecord
class BestResponse(FrozenRecord):
    """A pure best response of one player (or of a team playing jointly) to the others'
    strategies.

    ``choice`` is a flat 0/1 vector over the game's actions that is 1 at the
    chosen action of each of ``player``'s free infosets (restricted infosets
    keep their fixed probabilities and are not part of the response).
    ``player`` is a tuple of seats for a team's joint response, ``value`` then the
    team's summed payoff, ``how`` what answered (:attr:`TeamEvaluation.how`).

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=2)")
    >>> uniform = tp.Profile.uniform(g, exact=True)
    >>> br = tp.best_response(g, uniform, 1)
    >>> br.value, tp.nash_conv(g, br.as_profile(uniform)) < tp.nash_conv(g, uniform)
    (Fraction(5, 12), True)
    """

    player: int | tuple[int, ...]
    value: object
    choice: np.ndarray
    how: str = "backward induction"

    def __post_init__(self) -> None:
        object.__setattr__(self, "choice", read_only_copy(self.choice))

    def as_profile(self, profile: Profile) -> Profile:
        """``profile`` with ``player``'s free infosets replaced by this response."""
        game = profile.game
        seats = (self.player,) if isinstance(self.player, int | np.integer) else self.player
        mask = np.isin(game.sigma_player, seats) & game.free_mask()
        probs = profile.probs.copy()
        if probs.dtype == object:
            probs[mask] = [Fraction(int(x)) for x in self.choice[mask]]
        else:
            probs[mask] = self.choice[mask]
        return Profile(game, probs)


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
        (:func:`team_evaluation` solves that exactly).
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
    if isinstance(player, tuple | list):
        seats = tuple(check_int(p, "a team seat", low=0, high=game.n_players - 1) for p in player)
        if not seats:
            raise ToypokerError("a responding team needs at least one seat")
    else:
        seats = (check_int(player, "player", low=0, high=game.n_players - 1),)
    exact = _is_exact(sigma)
    if eprob is None:
        eprob = edge_probabilities(game, sigma)
    if reach is None:
        reach = reaches(game, eprob)
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
    else:
        fast = None
        cf = counterfactual_reach(game, reach, seats)
        v[:] = Fraction(0) if exact else 0.0
        v[game.term_rows] = term
    zero = _ZERO if fast is not None else None
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
            if exact:  # the first best of each row's actions (its padding left out)
                best = (
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
            else:
                best = first_best(qm, pad, tie_rtol)
            chosen = pad[np.arange(len(infs)), best]
            choice[chosen] = 1
            if fast is not None:
                ep[idx] = [_ONE if x else _ZERO for x in choice[es[idx]]]
            elif exact:
                ep[idx] = [Fraction(int(x)) for x in choice[es[idx]]]
            else:
                ep[idx] = choice[es[idx]]
        size = int(a - pa)
        v[pa:a] = v[pa:a] + segment_sum(game.parent_row[a:b] - pa, ep * v[a:b], size, zero)
    if fast is not None:
        d0, d1 = game.depth_start[0], game.depth_start[1]
        v[d0:d1] = _fractions(v[d0:d1])  # the root rows: root_value weighs them exactly
    return BestResponse(player, root_value(game, v), choice)


@dataclass(frozen=True)
class Evaluation:
    """Expected values, best-response values and gains of a profile.

    ``gains[p] = br_values[p] - values[p] >= 0``; ``nash_conv = sum(gains)``.
    Exact (Fractions) when the profile is exact.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=2)")
    >>> ev = tp.evaluate(g, tp.Profile.uniform(g, exact=True))
    >>> ev.gains, ev.nash_conv, ev.max_gain
    ((Fraction(3, 8), Fraction(13, 24)), Fraction(11, 12), Fraction(13, 24))
    """

    values: tuple
    br_values: tuple
    gains: tuple
    nash_conv: object
    best_responses: tuple[BestResponse, ...]
    exact: bool
    team: TeamEvaluation | None = None

    @property
    def max_gain(self) -> object:
        """The largest gain of one player by deviating."""
        return max(self.gains)

    def to_dict(self) -> dict[str, object]:
        """As JSON data (exact numbers as ``{"exact": "p/q", "float": x}``)."""
        return {
            "values": [number_data(x) for x in self.values],
            "best_response_values": [number_data(x) for x in self.br_values],
            "gains": [number_data(x) for x in self.gains],
            "nash_conv": number_data(self.nash_conv),
            "exact": self.exact,
            **({"team": self.team.to_dict()} if self.team is not None else {}),
        }


def evaluate(
    game: Game,
    profile: Profile | np.ndarray,
    team: Team | tuple[int, ...] | None = None,
    *,
    milp_seconds: float = TEAM_MILP_SECONDS,
) -> Evaluation:
    """:func:`toypoker.evaluate` on the deal table (parameters, returns and errors as
    there): values, each player's best response and gain, NashConv, and with ``team``
    the team's joint best-response gain (:func:`team_evaluation`)."""
    profile = check_profile(game, profile)
    team = agreeing_team(game.params, team) if team is not None else None
    milp_seconds = check_number(milp_seconds, "milp_seconds", positive=True)
    sigma = profile.probs
    eprob = edge_probabilities(game, sigma)
    vals = _backward_values(game, eprob, root_only=True)
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
    ev = Evaluation(values, br_values, gains, nash_conv, brs, profile.exact)
    if team is None:
        return ev
    tev = team_evaluation(game, profile, team, evaluation=ev, reach=reach, eprob=eprob,
                          milp_seconds=milp_seconds)  # fmt: skip
    return Evaluation(values, br_values, gains, nash_conv, brs, profile.exact, tev)


def team_best_response(
    game: Game,
    profile: Profile,
    seats: tuple[int, ...],
    *,
    reach: np.ndarray | None = None,
    eprob: np.ndarray | None = None,
    method: str = "exact",
    restarts: int = 2,
    rng: np.random.Generator | None = None,
    together: bool | None = None,
    time_limit: float | None = None,
) -> BestResponse:
    """The team's joint pure best response to ``profile`` and its value (the team's
    summed payoff; exact for an exact profile), ``how`` naming what answered.

    Backward induction when every member sees the team's cards (:func:`sees_together`),
    else the exact joint plan of :func:`toypoker.teams.response.joint_response`
    (enumeration, a certified LP or a MILP, up to HiGHS's tolerances).  ``method=
    "alternating"``: the members' alternating best responses instead
    (:func:`toypoker.teams.response.joint_plan_alternating`): fast, a lower bound, started
    from the members' likeliest and first actions and ``restarts`` random plans drawn
    with ``rng`` (default: seed 0).  ``together``: :func:`sees_together` when the caller
    has it; ``time_limit``: seconds for HiGHS
    (:class:`~toypoker.teams.response.MilpUnfinishedError` when it stops first).
    """
    sigma = profile.probs
    if sees_together(game, seats) if together is None else together:
        if eprob is None:
            eprob = edge_probabilities(game, sigma)
        return best_response(game, sigma, seats, reaches(game, eprob) if reach is None else reach,
                             eprob)  # fmt: skip
    coef = team_weights(game, sigma, seats, reach, eprob) * game.term_u[list(seats)].sum(axis=0)
    value: float | None = None
    if method == "alternating":
        starts = alternating_starts(game, seats, sigma, restarts, rng)
        choice, how = joint_plan_alternating(game, seats, coef, starts)[0], "alternating"
    elif method == "exact":
        choice, value, how = joint_response(game, seats, coef, time_limit=time_limit)
    else:
        raise ToypokerError(f"unknown team best-response method {method!r}")
    if not profile.exact and len(seats) == 2:  # the plan's value from the same weights
        if value is None:
            value = plan_value(game, seats, coef, choice)
        return BestResponse(seats, value, choice, how)
    vals = expected_values(game, BestResponse(seats, None, choice).as_profile(profile))
    return BestResponse(seats, sum((vals[p] for p in seats[1:]), vals[seats[0]]), choice, how)


def team_weights(game: Game, sigma: np.ndarray, seats: tuple[int, ...],
                 reach: np.ndarray | None = None, eprob: np.ndarray | None = None
                 ) -> np.ndarray:  # fmt: skip
    """Per terminal row (float): chance x the outsiders' reach x the members' restricted
    actions' probabilities, the weight of a team plan's payoff there (from the outsiders'
    sequence forms, :func:`~toypoker.teams.pairs.outside_weights`, when it can)."""
    t = game.term_rows
    if not per_team(game, _restricted_members, seats):
        if not _is_exact(sigma):
            return outside_weights(game, seats, sigma)
        own = None
    else:
        es = game.edge_sigma.clip(0)
        fixed = game.sigma_fixed[es] & np.isin(game.sigma_player[es], seats)
        fixed &= game.edge_sigma >= 0
        eprob = edge_probabilities(game, sigma) if eprob is None else eprob
        own = reaches(game, np.where(fixed, eprob, 1.0))
    if reach is None:
        reach = reaches(game, edge_probabilities(game, sigma) if eprob is None else eprob)
    w = game.weights[game.row_deal[t]]
    for q in range(game.n_players):
        if q not in seats or own is not None:
            w = w * (reach if q not in seats else own)[q][t].astype(np.float64)  # type: ignore[index]
    return w


def _restricted_members(game: Game, seats: tuple[int, ...]) -> bool:
    """Whether a member of ``seats`` has restricted (fixed) actions."""
    return bool((game.sigma_fixed & np.isin(game.sigma_player, seats)).any())


def team_evaluation(
    game: Game,
    profile: Profile,
    team: Team | tuple[int, ...],
    *,
    evaluation: Evaluation | None = None,
    reach: np.ndarray | None = None,
    eprob: np.ndarray | None = None,
    method: str = "exact",
    restarts: int = 2,
    rng: np.random.Generator | None = None,
    milp_seconds: float = TEAM_MILP_SECONDS,
) -> TeamEvaluation:
    """The team's joint best response to the outsiders' strategies, and its gain.

    A team whose members see each other's cards (strong collusion) is one player with
    perfect recall: its best response is a backward induction.  Members who see only
    their own cards must coordinate: the best joint pure plan over their sequence-form
    plans (:func:`toypoker.teams.response.joint_plan`: for two members an LP over the
    pairs of sequences met at the terminals, kept when its plan certifies it, else a
    MILP), then evaluated (exactly, for an exact profile; for floats from the same
    outside weights).  Without ``evaluation`` a float profile's values and outsider
    gains come from the fused kernel (:func:`toypoker.kernels.evaluate`).

    Parameters
    ----------
    game, profile
        As in :func:`evaluate`.
    team
        A :class:`~toypoker.games.collusion.Team`, seat digits as in a spec
        (``"13"``: seats 1 and 3) or 0-based seats (``(0, 2)``); 2 or more, at least one
        seat outside.
    evaluation, reach, eprob
        The profile's evaluation, row reaches and edge probabilities, when at hand.
    method
        ``"exact"`` or ``"alternating"`` (members who see only their own cards: the
        members' alternating best responses, a lower bound on the gain; ``how``
        then reads ``"alternating (lower bound)"``).
    restarts, rng
        Random start plans of the alternating method, and their generator
        (:func:`team_best_response`).
    milp_seconds
        Time limit of HiGHS on the exact response's MILP (positive); past it the
        alternating lower bound answers and ``how`` says so.

    Returns
    -------
    TeamEvaluation

    Raises
    ------
    ToypokerError
        For a team that does not fit the game, or ``milp_seconds`` not positive.
    """
    milp_seconds = check_number(milp_seconds, "milp_seconds", positive=True)
    seats = team_seats(game, team)
    outsiders = tuple(p for p in range(game.n_players) if p not in seats)
    if evaluation is None and not profile.exact:  # floats: the fused kernel
        from .kernels import kernel_for, team_values  # numba: with the first float team

        value, out_gains = team_values(kernel_for(game), profile.probs, seats, outsiders)
    else:
        evaluation = evaluate(game, profile) if evaluation is None else evaluation
        value = sum((evaluation.values[p] for p in seats[1:]), evaluation.values[seats[0]])
        out_gains = tuple(evaluation.gains[p] for p in outsiders)
    together = sees_together(game, seats)
    try:
        br = team_best_response(game, profile, seats, reach=reach, eprob=eprob,
                                method=method, restarts=restarts, rng=rng, together=together,
                                time_limit=milp_seconds)  # fmt: skip
        how = br.how
    except MilpUnfinishedError:  # HiGHS's limit bounds the wait (Ctrl-C is seen after it)
        br = team_best_response(game, profile, seats, reach=reach, eprob=eprob,
                                method="alternating", restarts=restarts, rng=rng,
                                together=together, time_limit=None)  # fmt: skip
        how = f"alternating (lower bound: the exact response did not finish in {milp_seconds:g} s)"
    if how == "alternating":
        how = "alternating (lower bound)"
    br_value = br.value if profile.exact else float(br.value)  # type: ignore[arg-type]
    gain = br_value - value  # type: ignore[operator]
    if not profile.exact:
        gain = max(float(gain), 0.0)
    return TeamEvaluation(
        seats, outsiders, value, br_value, gain,
        out_gains, how, br,
    )  # fmt: skip


def nash_conv(
    game: Game,
    profile: Profile | np.ndarray,
    team: Team | tuple[int, ...] | None = None,
    *,
    milp_seconds: float = TEAM_MILP_SECONDS,
) -> object:
    """Sum over players of the best-response gain (0 exactly at an equilibrium).

    With ``team``, the NashConv of the team game instead: the team's joint
    best-response gain plus the outsiders' gains (:attr:`TeamEvaluation.nash_conv`).

    Exact (Fraction) profiles: :func:`evaluate`, exactly.  Float profiles: the
    fused best-response kernel (:func:`toypoker.kernels.nash_conv`, equal to
    ``evaluate(game, profile).nash_conv`` to 1e-12, ``tests/kernels``).

    Parameters
    ----------
    game
        The compiled game.
    profile
        A :class:`Profile` or a flat sigma vector.
    team
        The NashConv of the team game (the team's joint gain plus the outsiders'):
        a :class:`~toypoker.games.collusion.Team`, seat digits as in a spec
        (``"13"``: seats 1 and 3) or 0-based seats (``(0, 2)``).
    milp_seconds
        Time limit of the team's best-response MILP (:func:`team_evaluation`).

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
    if team is not None:
        return team_evaluation(game, profile, team, milp_seconds=milp_seconds).nash_conv
    if profile.exact:
        return evaluate(game, profile).nash_conv
    # numba loads with the first float NashConv, not with ``import toypoker``
    from .kernels import kernel_for
    from .kernels import nash_conv as kernel_nash_conv

    sigma = np.ascontiguousarray(profile.probs, dtype=np.float64)
    return kernel_nash_conv(kernel_for(game), sigma)
