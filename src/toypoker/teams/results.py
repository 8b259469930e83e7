"""What a team adds to a solver's result: a strong team's merged game mapped back onto
the members' seats (:func:`on_members`), and the team's joint best-response gain beside
the players' own (:func:`with_team_gain`; on hand vectors, :func:`vector_team_gain`).
:func:`toypoker.solve` calls them after the run; the run itself knows no team."""

from __future__ import annotations

import dataclasses

from toypoker.engines import rows_of
from toypoker.engines.choice import vector_count
from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.games.team_transform import Team
from toypoker.profile import Profile
from toypoker.result import Result
from toypoker.teams.evaluation import team_evaluation
from toypoker.teams.transfer import transfer_profile

TEAM_ROWS_ON_VECTORS = 2_000_000
"""A vector-layout game with a weak team in its spec gets the team's joint gain on its
result when its deal table has at most this many rows (it is built for that)."""

EXACT_TEAM_ROWS = 20_000
"""An exact (``lp``, ``enumerate``) profile of a team game with at most this many rows
gets its team numbers in exact rationals (three-player Kuhn's 600 rows among them);
larger ones in floats, an exact team evaluation growing far faster than the rows (its
cost: ``benchmarks/results/teams.md``)."""



def with_team_gain(game: Game, res: Result, team: object, milp_seconds: float) -> Result:
    """``res`` with ``team``'s joint best-response gain (``None`` or ``True``: the spec's
    team, none for a merged spec; ``False``: none) evaluated on ``game``, exactly for an
    exact profile of a game of at most :data:`EXACT_TEAM_ROWS` rows."""
    if team is None or team is True:
        team = None if game.params.get("merge") else Team.of_params(game.params)
    if team is None or team is False or res.profile is None:
        return res
    small = game.n_rows <= EXACT_TEAM_ROWS  # an exact profile keeps exact team numbers
    prof = res.profile.to_float() if res.profile.exact and not small else res.profile
    tev = team_evaluation(game, prof, team, milp_seconds=milp_seconds)  # type: ignore[arg-type]
    return dataclasses.replace(res, team=tev)


def vector_team_gain(game: Game, res: Result, team: object, milp_seconds: float) -> Result:
    """A vector-layout result with the spec's weak team's joint best-response gain,
    evaluated on the deal table where it is small (at most :data:`TEAM_ROWS_ON_VECTORS`
    rows counted: the lifted team response reads the rows); else as it is."""
    spec_team = Team.of_params(game.params)
    if team is False or spec_team is None or res.profile is None:
        return res
    counted = vector_count(game.spec)
    if counted is None or counted.rows > TEAM_ROWS_ON_VECTORS:
        return res
    rows = rows_of(game, "a team's evaluation")
    prof = Profile(rows, res.profile.probs, validate=False)
    return dataclasses.replace(
        res, team=team_evaluation(rows, prof, spec_team, milp_seconds=milp_seconds)
    )


def on_members(res: Result, game: Game) -> Result:
    """A result of a merged team's game expressed on ``game``'s seats: the profile (and
    equilibria) mapped back; values, gains and NashConv evaluated in ``game`` (floats).

    Exact values need no exact evaluation of the larger game: with win sharing each
    member receives the merged team's value over the team's size, and the outsiders
    keep theirs; a certified merged equilibrium stays one on the members' seats (a
    member's deviation is a deviation of the team, which gains nothing).
    """
    assert res.profile is not None
    prof = transfer_profile(res.profile, game)
    ev = evaluate(game, prof.to_float() if prof.exact else prof)
    value_exact = None
    if res.value_exact is not None:
        team = Team.of_params(game.params)
        assert team is not None
        where = team.merged_seat(game.n_players)
        size = len(team.seats)
        value_exact = tuple(
            res.value_exact[where[p]] / size if p in team.seats else res.value_exact[where[p]]
            for p in range(game.n_players)
        )
    return dataclasses.replace(
        res,
        game=game,
        profile=prof,
        equilibria=tuple(transfer_profile(e, game) for e in res.equilibria),
        values=tuple(float(x) for x in ev.values),
        gains=tuple(float(x) for x in ev.gains),
        nash_conv=float(ev.nash_conv),
        value_exact=value_exact,
        solved_as=res.game.spec,
    )


__all__ = [
    "EXACT_TEAM_ROWS",
    "TEAM_ROWS_ON_VECTORS",
    "on_members",
    "vector_team_gain",
    "with_team_gain",
]
