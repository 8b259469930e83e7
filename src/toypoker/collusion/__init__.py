"""The collusion study (Ullman 2015, collusion chapter): Table 7's ``2 n + 1`` solves and
evaluations (:mod:`.table7`), the stored equilibria (:mod:`.store`), the merged team's
solve, detection by a sequential test (:mod:`.detection`) and the payoff figures
(:mod:`.figures`).

A studies-floor package: it may import the games, profiles, evaluation and solvers; the
collusion *transform* of a game definition and the :class:`~toypoker.games.team_transform.Team`
value type live below it, in :mod:`toypoker.games.team_transform`.
"""

from __future__ import annotations

from toypoker.collusion.store import (
    CollusionProfiles,
    Measured,
    by_label,
    fingerprint,
    from_label_order,
    measure,
)
from toypoker.collusion.table7 import (
    SCENARIOS,
    STRENGTHS,
    STRONG_SOLVES,
    CollusionTable,
    TeamOptimal,
    TeamSolve,
    base_and_team,
    collusion_table,
    collusion_table_from,
    solve_collusion_profiles,
    solve_team_game,
    team_optimal_values,
)

__all__ = [
    "SCENARIOS",
    "STRENGTHS",
    "STRONG_SOLVES",
    "CollusionProfiles",
    "CollusionTable",
    "Measured",
    "TeamOptimal",
    "TeamSolve",
    "base_and_team",
    "by_label",
    "collusion_table",
    "collusion_table_from",
    "fingerprint",
    "from_label_order",
    "measure",
    "solve_collusion_profiles",
    "solve_team_game",
    "team_optimal_values",
]
