"""The flat API's evaluation: :func:`evaluate`, :func:`nash_conv` and :func:`best_response`
(``tp.evaluate``, ...) of a profile on any game, with a team's joint gain on request.

The engine the game is built on computes the values and best responses
(:mod:`toypoker.engines.evaluation`); a team's joint best response and gain come from the
team wing (:mod:`toypoker.teams.evaluation`), which reads the deal table.
"""

from __future__ import annotations

import numpy as np

from toypoker.checks import check_int, check_number
from toypoker.engines import evaluation as E
from toypoker.engines import rows_of
from toypoker.engines.protocol import BestResponse, Evaluation
from toypoker.game import Game, check_game
from toypoker.games.team_transform import Team, agreeing_team
from toypoker.profile import Profile, check_profile
from toypoker.teams import TEAM_MILP_SECONDS

__all__ = ["TEAM_MILP_SECONDS", "best_response", "evaluate", "nash_conv"]


def _team_on_rows(game: Game, profile: Profile, what: str) -> tuple[Game, Profile]:
    """``game`` on the deal table for a team's ``what`` (the team wing reads deals), and
    ``profile`` on it: the same flat actions, so the same probabilities."""
    rows = rows_of(game, what)
    return rows, (profile if rows is game else Profile(rows, profile.probs))


def evaluate(
    game: Game,
    profile: Profile | np.ndarray,
    team: Team | tuple[int, ...] | str | None = None,
    *,
    milp_seconds: float = TEAM_MILP_SECONDS,
) -> Evaluation:
    """Expected values, each player's best response and gain, and NashConv.

    Parameters
    ----------
    game
        A game (:func:`toypoker.load_game`), on either layout.
    profile
        A profile of ``game`` (or of the same tree at other numbers, ``game.at``),
        or a flat sigma vector; exact (Fractions) gives exact results.
    team
        Also the team's joint best-response gain
        (:func:`toypoker.teams.evaluation.team_evaluation`; the deal table only): seat digits
        as in a spec (``"13"``: seats 1 and 3) or 0-based seats (``(0, 2)``).
    milp_seconds
        Time limit of the team's best-response MILP.

    Returns
    -------
    Evaluation
        ``values``, ``br_values``, ``gains`` (clipped at 0 for floats), ``nash_conv``
        and the best responses (and ``team`` with ``team``).

    Raises
    ------
    ProfileError
        For a profile of another game, or anything that is not a profile.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=2)")
    >>> tp.evaluate(g, tp.Profile.uniform(g, exact=True)).values
    (Fraction(1, 8), Fraction(-1, 8))
    >>> v = tp.load_game("kuhn(players=2)", layout="vector")
    >>> tp.evaluate(v, tp.Profile.uniform(v, exact=True)).values
    (Fraction(1, 8), Fraction(-1, 8))
    """
    check_game(game)
    milp_seconds = check_number(milp_seconds, "milp_seconds", positive=True)
    profile = check_profile(game, profile)
    ev = E.evaluate(game, profile)
    if team is None:
        return ev
    team = agreeing_team(game.params, team)
    rows, on_rows = _team_on_rows(game, profile, "a team's joint best response")
    from toypoker.teams.evaluation import team_evaluation  # the MILP code, on first use

    tev = team_evaluation(rows, on_rows, team, evaluation=ev, milp_seconds=milp_seconds)
    return Evaluation(ev.values, ev.br_values, ev.gains, ev.nash_conv, ev.best_responses,
                      ev.exact, tev)  # fmt: skip


def nash_conv(
    game: Game,
    profile: Profile | np.ndarray,
    team: Team | tuple[int, ...] | str | None = None,
    *,
    milp_seconds: float = TEAM_MILP_SECONDS,
) -> object:
    """Sum over players of the best-response gain (0 exactly at an equilibrium).

    With ``team`` (the deal table only), the NashConv of the team game: the team's
    joint best-response gain plus the outsiders' gains.  Exact for a profile of
    Fractions; float profiles by the fused best-response kernel of the game's layout.

    Parameters
    ----------
    game
        A game (:func:`toypoker.load_game`), on either layout.
    profile
        A :class:`~toypoker.Profile` or a flat sigma vector.
    team
        The NashConv of the team game: seat digits or 0-based seats.
    milp_seconds
        Time limit of the team's best-response MILP.

    Returns
    -------
    float or Fraction
        The NashConv, a Fraction for exact profiles.

    Raises
    ------
    ProfileError
        For a profile of another game, or anything that is not a profile.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=2)")
    >>> tp.nash_conv(g, tp.Profile.uniform(g, exact=True))
    Fraction(11, 12)
    """
    check_game(game)
    milp_seconds = check_number(milp_seconds, "milp_seconds", positive=True)
    profile = check_profile(game, profile)
    if team is None:
        return E.nash_conv(game, profile)
    team = agreeing_team(game.params, team)
    rows, on_rows = _team_on_rows(game, profile, "a team's NashConv")
    from toypoker.teams.evaluation import team_evaluation  # the MILP code, on first use

    return team_evaluation(rows, on_rows, team, milp_seconds=milp_seconds).nash_conv


def best_response(
    game: Game, profile: Profile | np.ndarray, player: int | tuple[int, ...]
) -> BestResponse:
    """A pure best response of ``player`` (0-based) to ``profile``, and its value.

    Backward over the public tree; ties go to the first action in the game's order.
    A tuple of seats is a team responding jointly (the deal table only;
    :func:`toypoker.engines.rows.values.best_response` says how).

    Parameters
    ----------
    game
        A game (:func:`toypoker.load_game`), on either layout.
    profile
        The others' strategies: a :class:`~toypoker.Profile` of ``game`` or a flat
        sigma vector (Fractions for an exact response).
    player
        The responding seat, 0-based (or a team's seats).

    Returns
    -------
    BestResponse
        ``player``, ``value`` and ``choice`` (0/1 over the flat actions at the
        player's free infosets); ``as_profile(profile)`` puts it into a profile.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=2)")
    >>> tp.best_response(g, tp.Profile.uniform(g, exact=True), 0).value
    Fraction(1, 2)
    """
    check_game(game)
    profile = check_profile(game, profile)
    if isinstance(player, tuple):  # a team's joint response: the team wing
        rows, on_rows = _team_on_rows(game, profile, "a team's joint best response")
        return E.best_response(rows, on_rows, player)
    player = check_int(player, "player", low=0, high=game.n_players - 1)
    return E.best_response(game, profile, player)
