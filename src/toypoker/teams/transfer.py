"""Teams at the profile floor: a profile moved between a strong-collusion game and its
merged form (:func:`transfer_profile`), one profile's seats spliced into another
(:func:`splice`), a team's seats checked against a game (:func:`team_seats`) and whether
its members see each other's cards (:func:`sees_together`); a team's joint
best-response gain as a result object (:class:`TeamEvaluation`, computed by
:func:`toypoker.evaluate.team_evaluation`).

Imports the game, the catalogue's :class:`~toypoker.games.collusion.Team` and the
profile layer only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ToypokerError
from ..game import Game
from ..games.collusion import Team, seat_digits
from ..io import exact_text
from ..profile import Profile
from .pairs import per_team

if TYPE_CHECKING:
    from ..evaluate import BestResponse

__all__ = [
    "TeamEvaluation",
    "number_data",
    "sees_together",
    "splice",
    "team_seats",
    "transfer_profile",
]


def number_data(x: object) -> object:
    """A number as JSON data: exact ones as ``{"exact": "p/q", "float": x}``."""
    if isinstance(x, Fraction):
        return {"exact": exact_text(x), "float": float(x)}
    return float(x)


@dataclass(frozen=True)
class TeamEvaluation:
    """A team's joint best-response gain beside the outsiders' gains.

    Attributes
    ----------
    team, outsiders
        0-based seats.
    value
        The team's summed expected payoff under the profile.
    br_value
        The team's summed payoff when its members best-respond jointly (the team as
        one player) to the outsiders' strategies.
    gain
        ``br_value - value`` (>= 0): what coordinating better would add.
    outsider_gains
        Each outsider's own best-response gain (seat order).
    how
        What answered: ``"backward induction"`` (the team sees all its cards: perfect
        recall); for members who see only their own cards, the exact joint plan of
        :func:`toypoker.teams.response.joint_response`: ``"certified LP"``,
        ``"certified MILP"`` (the terminal-pairs model, :mod:`toypoker.teams.pairs`),
        ``"lifted LP"``, ``"lifted MILP"`` or ``"product MILP"``; or
        ``"alternating (lower bound...)"`` (the members' alternating best responses).
    response
        The team's joint pure best response.
    """

    team: tuple[int, ...]
    outsiders: tuple[int, ...]
    value: object
    br_value: object
    gain: object
    outsider_gains: tuple
    how: str
    response: BestResponse

    @property
    def digits(self) -> str:
        """The team's seats as 1-based digits (``"12"``)."""
        return seat_digits(self.team)

    @property
    def nash_conv(self) -> object:
        """The team game's NashConv: the team's gain plus the outsiders' gains."""
        return sum(self.outsider_gains, self.gain)

    def to_dict(self) -> dict[str, object]:
        """As JSON data (exact numbers as ``{"exact": "p/q", "float": x}``)."""

        return {
            "team": self.digits,
            "value": number_data(self.value),
            "best_response_value": number_data(self.br_value),
            "gain": number_data(self.gain),
            "outsider_gains": [number_data(x) for x in self.outsider_gains],
            "nash_conv": number_data(self.nash_conv),
            "how": self.how,
        }


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
    representative row (same public node, same deal).  Between a strong-collusion
    game and its merged form (:func:`merge_team`) this maps the team agent's
    strategy onto the members (each member's infoset is the team's at that node:
    both see all the team's cards) and back.

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
