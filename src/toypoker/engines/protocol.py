"""What every engine answers in: the records of a profile's evaluation.

An engine (the deal table :mod:`toypoker.engines.rows`, hand vectors
:mod:`toypoker.engines.vectors`) computes a profile's values and best responses in its
own layout; it returns them as these records, so every caller reads one shape whatever
the engine: :class:`BestResponse` (one player's, or a team's joint, pure response),
:class:`Evaluation` (values, gains, NashConv) and :class:`TeamEvaluation` (a team's joint
gain beside the outsiders', filled by :mod:`toypoker.teams.evaluation`).

Engines floor, its ground: imports only the game, profiles and the ground.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

import numpy as np

from toypoker.frozen import FrozenRecord, read_only_copy
from toypoker.games.team_transform import seat_digits
from toypoker.io import exact_text
from toypoker.profile import Profile

if TYPE_CHECKING:
    from toypoker.game import Game
    from toypoker.solvers.base import Method

__all__ = [
    "BestResponse",
    "Engine",
    "Evaluation",
    "PlayerRegrets",
    "SequenceFormData",
    "TeamEvaluation",
    "number_data",
]


def number_data(x: object) -> object:
    """A number as JSON data: exact ones as ``{"exact": "p/q", "float": x}``."""
    if isinstance(x, Fraction):
        return {"exact": exact_text(x), "float": float(x)}
    return float(x)


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


@dataclass(frozen=True)
class PlayerRegrets:
    """One player's part of a CFR iteration, as an engine computes it
    (:meth:`Engine.regrets`): her instantaneous counterfactual regrets per flat action,
    her free actions (``mask``), and her own reach at the infoset of each flat action
    (the average strategy's weight)."""

    inst: np.ndarray
    mask: np.ndarray
    own_reach: np.ndarray


@dataclass(frozen=True)
class SequenceFormData:
    """A two-player game's sequence form as an engine assembles it
    (:meth:`Engine.sequence_form`): ``form``, a
    :class:`toypoker.solvers.lp.SequenceForm` (sequences, constraints, the float payoff
    matrix ``A``); ``exact_payoffs()``, ``A`` in exact rationals (``(s1, s2) ->
    coefficient``); ``evaluate_exact(profile)``, the engine's exact evaluation, with
    which the LP's answer is certified."""

    form: object
    exact_payoffs: Callable[[], dict[tuple[int, int], Fraction]]
    evaluate_exact: Callable[[Profile], Evaluation]


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

    @classmethod
    def of(cls, values: tuple, best_responses: tuple[BestResponse, ...], exact: bool
           ) -> Evaluation:  # fmt: skip
        """The evaluation of a profile from its players' values and best responses:
        gains ``br - value`` (floats clipped at 0, rounding) and their sum, NashConv."""
        br_values = tuple(br.value for br in best_responses)
        gains = tuple(b - v for b, v in zip(br_values, values, strict=True))
        if not exact:
            values = tuple(float(x) for x in values)
            br_values = tuple(float(x) for x in br_values)
            gains = tuple(max(float(x), 0.0) for x in gains)
        return cls(values, br_values, gains, sum(gains[1:], gains[0]), tuple(best_responses),
                   exact)  # fmt: skip

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


class Engine(Protocol):
    """What a layout adds to the game's public tree: the computations on it.

    :func:`toypoker.engines.registry.engine_of` gives the engine a game is built on;
    the solvers, the flat API and the front ends ask it, never the layout.  An engine
    that cannot do what a method needs refuses in one line naming the way out.

    Attributes
    ----------
    name
        The engine's name in :data:`toypoker.engines.registry.ENGINES` (``"rows"``:
        the deal table; ``"vectors"``: hand vectors on the public tree).
    provides
        What it offers beyond the public tree, words of
        :data:`toypoker.solvers.base.NEEDS`: ``"deals"`` where it holds the table of
        joint deals (what a team's joint evaluation, the exact enumerator,
        deal-sampling MCCFR and TMECor read), ``"exact"`` where it computes in exact
        arithmetic.  It runs every method whose ``needs`` are among them; where a
        method needs more, :func:`~toypoker.engines.registry.engine_for` gives the deal
        table's engine or refuses in one line.
    game
        The game it computes on.
    first_check, checks_per_decade
        Where a run without ``check_every`` checks NashConv: from iteration
        ``first_check`` on, ``checks_per_decade`` geometric checks a decade (a check on
        a fused kernel costs about two iterations).
    """

    name: str
    provides: frozenset[str]
    game: Game
    first_check: int
    checks_per_decade: int

    def runs(self, method: str) -> bool:
        """Whether ``method`` (a name of :data:`toypoker.METHODS`) runs here: its
        ``needs`` are among :attr:`provides`."""
        ...

    def method(self, method: str) -> Method:
        """The registry's ``method`` with its steps, output and summary on this engine
        (one line refuses a method that has none)."""
        ...

    def evaluate(self, profile: Profile) -> Evaluation:
        """Values, best responses, gains and NashConv of a checked profile."""
        ...

    def nash_conv(self, profile: Profile) -> object:
        """NashConv of a checked profile (exact for Fractions)."""
        ...

    def best_response(self, profile: Profile, player: int) -> BestResponse:
        """A pure best response of the checked seat ``player`` to ``profile``."""
        ...

    def regrets(self, sigma: np.ndarray, group: list[int]) -> list[PlayerRegrets]:
        """The CFR family's regret step in numpy (the readable reference): for each
        player of ``group``, her :class:`PlayerRegrets` under the flat profile
        ``sigma``.  :func:`toypoker.solvers.cfr.scheduled_step` turns them into the
        next strategy and the average."""
        ...

    def sampled_regrets(
        self, sigma: np.ndarray, group: list[int], rng: np.random.Generator, restrict: bool
    ) -> list[PlayerRegrets]:
        """Public chance sampling's regret step (``pcs-cfr+``,
        :mod:`toypoker.solvers.pcs`): one board path drawn with ``rng``, and for each
        player of ``group`` the importance-weighted regrets of the subtree it fixes, her
        free actions (only those on the path with ``restrict``) and her own reach times
        the path's weight."""
        ...

    def mccfr_iterations(self, kind: int, fused: bool = True) -> Callable[..., None]:
        """Deal-sampling MCCFR's part (:mod:`toypoker.solvers.mccfr`): ``run(n, t0,
        regrets, average, sigma, options, rng)`` runs iterations ``t0 + 1 .. t0 + n`` of
        ``kind`` (0 external, 1 outcome sampling) in place, in the compiled traversals or
        (``fused=False``) their plain-Python reference; refused in one line where the
        engine has no table of joint deals (``provides`` lacks ``"deals"``)."""
        ...

    def cfr_kernel(self) -> object | None:
        """The fused kernel of a whole CFR iteration on this engine (``iteration(sigma,
        regrets, average, **schedule)`` in place, :func:`toypoker.solvers.cfr.kernel_steps`;
        a sharded run's drives the shards), or None where there is none (then
        :meth:`regrets` steps the schedule)."""
        ...

    def fp_responses(self, fused: bool = True) -> object:
        """Fictitious play's part here (:class:`toypoker.solvers.fictitious.Layout`:
        each player's best response to a profile, the values, the realization weights),
        on the engine's fused kernel where it has one (``fused=False``: the numpy
        reference); :func:`toypoker.solvers.fictitious.layout_step` is the schedule."""
        ...

    def sequence_form(self) -> SequenceFormData:
        """The sequence form of the (two-player) game, assembled here, for the LP
        (:func:`toypoker.solvers.lp.solve_lp`); refused in one line where it does not
        fit."""
        ...

    def memory_bytes(self) -> int | None:
        """The estimate of this engine's memory for its game that
        :func:`toypoker.load_game` held ``max_bytes`` to before building, and ``toypoker
        info`` prints: the deal table's ``LayoutCount.row_bytes``, hand vectors'
        :func:`toypoker.engines.vectors.size.vector_bytes` (one estimate each); None where
        the game's size is not counted before it is built (a small game)."""
        ...

    def check(self, probs: np.ndarray) -> tuple[float, float]:
        """NashConv and the largest gain of a float flat profile (a run's check: the
        engine's fused kernel where it has one)."""
        ...

    def summary(self, probs: np.ndarray) -> dict[str, object]:
        """A method's output ``probs`` as a result's fields: ``profile``, ``values``,
        ``gains`` and ``nash_conv`` (exact for Fractions where the engine can)."""
        ...

    def shard(self, options: object, cluster: object, workers: int | None) -> object:
        """This engine with the CFR family's fused kernel sharded over Dask workers: the
        sharded run's engine (:class:`toypoker.engines.sharded.engine.ShardedEngine`, a
        run's, closed when the run ends), or refuse in one line."""
        ...
