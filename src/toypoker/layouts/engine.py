"""Evaluation of a profile on any game, whatever its layout.

:func:`evaluate`, :func:`nash_conv` and :func:`best_response` are the flat API's
(``tp.evaluate``, ...): on the deal table they are :mod:`toypoker.evaluate`'s; on the
vector layout they read the hand vectors (:mod:`toypoker.vector.values`, exact for a
profile of Fractions; float NashConv by the fused kernel,
:meth:`toypoker.vector.kernel.VectorKernel.evaluate`).  Both return the same types with
the same numbers (``tests/layouts``).  A team's joint best response reads the deal
table: on the vector layout it is refused in one line naming ``layout="rows"``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import check_int, check_number
from ..errors import ToypokerError
from ..evaluate import TEAM_MILP_SECONDS, BestResponse, Evaluation
from ..evaluate import best_response as row_best_response
from ..evaluate import evaluate as row_evaluate
from ..evaluate import nash_conv as row_nash_conv
from ..game import Game, check_game
from ..games.collusion import Team
from ..profile import Profile, check_profile
from ..vector import values as V
from ..vector.layout import VectorGame


@dataclass(frozen=True)
class VectorEvaluation:
    """Each player's value and best-response gain, and NashConv, of a float profile
    on the vector layout."""

    values: tuple[float, ...]
    gains: tuple[float, ...]
    nash_conv: float


def vector_of(game: Game) -> VectorGame | None:
    """The hand vectors a vector-layout game reads (None on the deal table)."""
    return game.__dict__.get("_vector")  # type: ignore[return-value]


def vector_evaluate(vg: VectorGame, sigma: np.ndarray) -> VectorEvaluation:
    """Values, gains and NashConv of the flat float profile ``sigma`` by the vector
    layout's best responses: one compiled call where the game has a fused kernel
    (:meth:`toypoker.vector.kernel.VectorKernel.evaluate`), else the numpy reference
    (:func:`toypoker.vector.values.best_response_value`)."""
    from ..vector.kernel import vector_kernel  # numba loads with the first kernel

    kernel = vector_kernel(vg)
    if kernel is not None:
        values, best = kernel.evaluate(sigma)
    else:
        values = V.expected_values(vg, sigma)
        best = [V.best_response_value(vg, sigma, p)[0] for p in range(vg.n_players)]
    gains = tuple(max(float(best[p]) - float(values[p]), 0.0) for p in range(vg.n_players))
    return VectorEvaluation(tuple(float(v) for v in values), gains, float(sum(gains)))


def _sigma(profile: Profile) -> np.ndarray:
    """The flat profile as the vector layout reads it: Fractions as they are, floats as one
    contiguous float64 array (what the kernels take)."""
    if profile.exact:
        return profile.probs
    return np.ascontiguousarray(profile.probs, dtype=np.float64)


def _no_team(game: Game, team: object, what: str) -> None:
    if team is not None:
        raise ToypokerError(
            f"{what} reads the deal table: load the game with layout='rows' "
            f"(tp.load_game({game.spec!r}, layout='rows'))"
        )


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
        (``toypoker.evaluate.team_evaluation``; the deal table only): seat digits
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
    vg = vector_of(game)
    if vg is None:
        return row_evaluate(game, profile, team, milp_seconds=milp_seconds)
    _no_team(game, team, "a team's joint best response")
    check_number(milp_seconds, "milp_seconds", positive=True)
    profile = check_profile(game, profile)
    sigma = _sigma(profile)
    reach = V.reaches(vg, sigma)
    values = tuple(V.expected_values(vg, sigma))
    brs = []
    for p in range(game.n_players):
        value, choice = V.best_response_value(vg, sigma, p, reach=reach)
        brs.append(BestResponse(p, value, choice))
    br_values = tuple(br.value for br in brs)
    gains = tuple(b - v for b, v in zip(br_values, values, strict=True))
    if not profile.exact:
        values = tuple(float(x) for x in values)
        br_values = tuple(float(x) for x in br_values)
        gains = tuple(max(float(x), 0.0) for x in gains)
    return Evaluation(values, br_values, gains, sum(gains[1:], gains[0]), tuple(brs), profile.exact)


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
    vg = vector_of(game)
    if vg is None:
        return row_nash_conv(game, profile, team, milp_seconds=milp_seconds)
    _no_team(game, team, "a team's NashConv")
    check_number(milp_seconds, "milp_seconds", positive=True)
    profile = check_profile(game, profile)
    if profile.exact:
        return V.nash_conv(vg, profile.probs)
    return vector_evaluate(vg, _sigma(profile)).nash_conv


def best_response(
    game: Game, profile: Profile | np.ndarray, player: int | tuple[int, ...]
) -> BestResponse:
    """A pure best response of ``player`` (0-based) to ``profile``, and its value.

    Backward over the public tree; ties go to the first action in the game's order.
    A tuple of seats is a team responding jointly (the deal table only;
    :func:`toypoker.evaluate.best_response` says how).

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
    vg = vector_of(game)
    if vg is None or isinstance(player, tuple):
        if vg is not None:
            _no_team(game, player, "a team's joint best response")
        profile = check_profile(game, profile)
        if not isinstance(player, tuple):
            player = check_int(player, "player", low=0, high=game.n_players - 1)
        return row_best_response(game, profile.probs, player)
    player = check_int(player, "player", low=0, high=game.n_players - 1)
    profile = check_profile(game, profile)
    sigma = _sigma(profile)
    value, choice = V.best_response_value(vg, sigma, player)
    return BestResponse(player, value if profile.exact else float(value), choice)
