"""A team's joint best response and gain: the team wing's evaluation of a profile.

:func:`team_evaluation` gives a team's joint best-response gain -- the team as one
player, its members' plans chosen jointly -- beside the outsiders' gains
(``team=`` on :func:`toypoker.evaluate` and :func:`toypoker.nash_conv`).  It reads the
deal table (:mod:`toypoker.engines.rows.values`); the members' joint plans come from
:mod:`toypoker.teams.response`.
"""

from __future__ import annotations

import numpy as np

from toypoker.checks import check_number
from toypoker.engines.protocol import BestResponse, Evaluation, TeamEvaluation
from toypoker.engines.rows.values import (
    _is_exact,
    best_response,
    edge_probabilities,
    evaluate,
    expected_values,
    reaches,
)
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.games.team_transform import Team
from toypoker.profile import Profile
from toypoker.teams import TEAM_MILP_SECONDS
from toypoker.teams.pairs import MilpUnfinishedError, outside_weights, per_team, plan_value
from toypoker.teams.response import alternating_starts, joint_plan_alternating, joint_response
from toypoker.teams.transfer import sees_together, team_seats

__all__ = ["TEAM_MILP_SECONDS", "team_best_response", "team_evaluation", "team_weights"]


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
    gains come from the fused kernel (:func:`toypoker.engines.rows.kernel_evaluate`).

    Parameters
    ----------
    game, profile
        As in :func:`evaluate`.
    team
        A :class:`~toypoker.games.team_transform.Team`, seat digits as in a spec
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
        from toypoker.engines.rows import (  # numba: with the first float team
            kernel_for,
            team_values,
        )

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
