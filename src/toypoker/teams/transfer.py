"""Teams at the profile floor: a profile moved between a strong-collusion game and its
merged form (:func:`transfer_profile`), one profile's seats spliced into another
(:func:`splice`), a team's seats checked against a game (:func:`team_seats`) and whether
its members see each other's cards (:func:`sees_together`); a team's joint
best-response gain as a result object (:class:`TeamEvaluation`, computed by
:func:`toypoker.teams.evaluation.team_evaluation`).

Imports the game, the catalogue's :class:`~toypoker.games.team_transform.Team` and the
profile layer only.
"""

from __future__ import annotations

import numpy as np

from toypoker.engines.protocol import TeamEvaluation, number_data
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.games.team_transform import Team
from toypoker.profile import Profile
from toypoker.teams.pairs import per_team

__all__ = [
    "TeamEvaluation",
    "number_data",
    "sees_together",
    "splice",
    "team_seats",
    "transfer_profile",
]


def splice(base: Profile, src: Profile, players: set[int]) -> Profile:
    """``base`` with the infosets of ``players`` taken from ``src`` (matched by label)."""
    g, h = base.game, src.game
    sigma = np.array(base.probs, dtype=np.float64)
    probs = np.asarray(src.probs, dtype=np.float64)
    for inf in g.infosets:
        if inf.player not in players:
            continue
        if not h.has_infoset(inf.label):
            raise ToypokerError(f"infoset {inf.label} of {g.spec} is not in {h.spec}")
        j = h.infoset(inf.label)
        sigma[inf.offset : inf.offset + len(inf.actions)] = probs[
            j.offset : j.offset + len(j.actions)
        ]
    return Profile(g, sigma)


def transfer_profile(src: Profile, dst: Game) -> Profile:
    """``src``'s strategy on a game with the same public tree and deals, infoset by infoset.

    Every infoset of ``dst`` takes the strategy of the ``src`` infoset holding its
    representative row (same public node, same deal).  Between a strong-collusion game
    and its merged form (:func:`~toypoker.games.team_transform.merge_team`) this maps the
    team agent's strategy onto the members (each member's infoset is the team's at that
    node: both see all the team's cards) and back.

    Parameters
    ----------
    src
        A profile of a game with the same rows as ``dst`` (``row_node``, ``row_deal``).
    dst
        The game to express it on.

    Returns
    -------
    Profile
        Float (or exact, as ``src``) profile of ``dst``.

    Raises
    ------
    ToypokerError
        If the games' rows differ, or two rows of one ``dst`` infoset lie in
        different ``src`` infosets (``dst`` sees more than ``src``).
    """
    g = src.game
    if (
        g.n_rows != dst.n_rows
        or not np.array_equal(g.row_node, dst.row_node)
        or not np.array_equal(g.row_deal, dst.row_deal)
    ):
        raise ToypokerError(f"{g.spec} and {dst.spec} do not share their public tree and deals")
    rows = np.flatnonzero(dst.row_infoset >= 0)
    pairs = np.unique(np.stack([dst.row_infoset[rows], g.row_infoset[rows]]), axis=1)
    if pairs.shape[1] != dst.n_infosets or np.unique(pairs[0]).size != dst.n_infosets:
        raise ToypokerError(f"an infoset of {dst.spec} spans several of {g.spec}")
    src_of = np.empty(dst.n_infosets, dtype=np.int64)
    src_of[pairs[0]] = pairs[1]
    if not np.array_equal(dst.infoset_n_actions, g.infoset_n_actions[src_of]):
        raise ToypokerError(f"{g.spec} and {dst.spec} differ in their actions")
    idx = g.infoset_offset[src_of][dst.sigma_infoset] + (
        np.arange(dst.n_sigma) - dst.infoset_offset[dst.sigma_infoset]
    )
    return Profile(dst, np.asarray(src.probs)[idx].copy())


def team_seats(game: Game, team: Team | tuple[int, ...]) -> tuple[int, ...]:
    """The 0-based seats of ``team``, checked against ``game``."""
    t = Team.of(team)
    try:
        t.check(game.n_players)
    except ToypokerError as e:
        raise ToypokerError(f"{e} ({game.spec})") from None
    return t.seats


def sees_together(game: Game, seats: tuple[int, ...]) -> bool:
    """Whether every member's infoset fixes the hole cards of the whole team (strong
    collusion): then the team has perfect recall as one player and its best response
    is a backward induction (:func:`best_response` with a tuple of seats).  Found once
    per game and team."""
    return per_team(game, _sees_together, seats)


def _sees_together(game: Game, seats: tuple[int, ...]) -> bool:
    """:func:`sees_together`, computed."""
    joint = np.zeros(game.n_deals, dtype=np.int64)
    for p in seats:
        joint = joint * (int(game.obs[p].max()) + 1) + game.obs[p]
    rows = np.flatnonzero(np.isin(game.row_actor, seats) & (game.row_infoset >= 0))
    infs = game.row_infoset[rows].astype(np.int64)
    pairs = np.unique(infs * (int(joint.max()) + 1) + joint[game.row_deal[rows]])
    return pairs.size == np.unique(infs).size
