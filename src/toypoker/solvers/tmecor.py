"""Team-optimal play as a method of the registry: ``tp.solve(game, "tmecor")``.

One exact step: :func:`~toypoker.teams.tmecor.tmecor`'s column generation, whose
:class:`~toypoker.teams.tmecor.TMECor` record becomes :attr:`Result.bracket
<toypoker.result.Result.bracket>` -- the exact bracket ``[lower, upper]`` on the team's
summed value (``certified`` when the ends meet), the team's correlated plan as a mixture
of joint pure plans (``plans``, ``weights``) and the outsider's exact strategy
(``profile``).  The result's ``value_exact`` are each seat's exact values with the team
playing its mixture against that strategy (their team sum lies in the bracket; it is
the TMECor value when certified).  A correlated plan is not a behaviour profile, so
the result has no ``profile`` and no NashConv.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.games.team_transform import Team
from toypoker.profile import Profile
from toypoker.solvers.base import OneShotState

if TYPE_CHECKING:
    from toypoker.teams.tmecor import TMECor

ORACLES = ("hybrid", "exact", "alternating", "relaxation")
"""The team's best-response oracles (:func:`~toypoker.teams.tmecor.tmecor`)."""


@dataclass(frozen=True)
class TMECorOptions:
    """Options of ``tmecor``.

    Attributes
    ----------
    team : tuple of int or None
        The team's 0-based seats (``tp.solve``'s ``team=``: seat digits ``"23"`` or
        seats ``(1, 2)``); None: the spec's ``team=``.
    oracle : str
        One of :data:`ORACLES` (see :func:`~toypoker.teams.tmecor.tmecor`).
    tol : float
        Stop when no plan beats the master's value by more than this.
    max_columns : int
        Cap on the joint plans generated.
    time_limit : float or None
        Seconds for the column generation (anytime: the bracket stays valid).
    relaxation_seconds : float or None
        With ``oracle="relaxation"``: PDLP's time limit for each LP.
    """

    team: tuple[int, ...] | None = None
    oracle: str = "hybrid"
    tol: float = 1e-9
    max_columns: int = 1000
    time_limit: float | None = None
    relaxation_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.team is not None:
            object.__setattr__(self, "team", Team.of(self.team).seats)
        if self.oracle not in ORACLES:
            raise ToypokerError(f"oracle must be one of {', '.join(ORACLES)}, not {self.oracle!r}")


def init(game: Game, options: TMECorOptions, seed: int | None = None) -> OneShotState:
    """Check the game and its team (two or more seats against one outsider): ``game`` is
    on the deal table (:func:`toypoker.engines.registry.engine_for` takes it there)."""
    if game.params.get("merge"):
        raise ToypokerError(
            "TMECor is for the members' n-player game, not the merged team's: drop merge=true"
        )
    team = _team(game, options)
    outsiders = team.outsiders(game.n_players)
    if len(outsiders) != 1:
        raise ToypokerError(
            f"tmecor is for a team against one outsider; {game.spec} with team "
            f"{team.digits} has {len(outsiders)} outsiders"
        )
    return OneShotState()


def _team(game: Game, options: TMECorOptions) -> Team:
    team = Team.of(options.team) if options.team is not None else Team.of_params(game.params)
    if team is None and game.n_players < 3:  # no team against one outsider can exist
        raise ToypokerError(
            f"tmecor is a team against one outsider: it needs at least three players; "
            f"{game.spec} has {game.n_players}"
        )
    if team is None:  # suggest a team this game has: every seat but the first
        seats = tuple(range(1, game.n_players))
        raise ToypokerError(
            f"{game.spec} has no team: give one (team={seats}, or "
            f"team={''.join(str(s + 1) for s in seats)} in the spec)"
        )
    team.check(game.n_players)
    return team


def step(game: Game, state: OneShotState, options: TMECorOptions) -> OneShotState:
    """The column generation, once (a solved state is returned unchanged)."""
    if state.iteration:
        return state
    # imported here: tmecor reads the LP's exact face (the solvers' package), whose
    # registry lists this method
    from toypoker.teams.tmecor import tmecor

    r = tmecor(
        game,
        _team(game, options),
        tol=options.tol,
        max_columns=options.max_columns,
        seconds=options.time_limit,
        oracle=options.oracle,
        relaxation_seconds=options.relaxation_seconds,
    )
    return OneShotState(1, r)


def seat_values(game: Game, r: TMECor) -> tuple[Fraction, ...]:
    """Each seat's exact value with the team drawing a plan from ``r``'s mixture and the
    outsider playing ``r.profile``'s strategy."""
    base = r.profile.probs
    team = np.isin(game.sigma_player, r.team) & game.free_mask()
    total = [Fraction(0)] * game.n_players
    for plan, weight in zip(r.plans, r.weights, strict=True):
        probs = base.copy()
        probs[team] = [Fraction(int(x)) for x in np.asarray(plan)[team]]
        values = evaluate(game, Profile(game, probs)).values
        total = [t + weight * v for t, v in zip(total, values, strict=True)]
    return tuple(total)


def summary(game: Game, state: OneShotState, options: TMECorOptions) -> dict[str, object]:
    """The :class:`~toypoker.result.Result` fields of a finished generation."""
    r: TMECor = state.outcome  # type: ignore[assignment]
    values = seat_values(game, r)
    return {
        "profile": None,
        "values": tuple(float(v) for v in values),
        "value_exact": values,
        "exact": True,
        "certified": r.exact,
        "bracket": r,
    }
