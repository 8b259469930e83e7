"""Ullman's (2015) Table 7 as numbers: the scenarios and strengths it compares, the
table of each player's payoff averaged over the seat rotations, and the team brackets so
averaged (:mod:`toypoker.collusion.table7` solves and evaluates what fills them)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.games.team_transform import seat_digits

SCENARIOS = ("public", "private", "suspicious")
STRENGTHS = ("strong", "weak")
#: how the strong-collusion (win sharing) equilibria are found: ``"merged"`` solves the
#: team as one agent (two-sided zero-sum, so its value is unique) and gives each member
#: the team's strategy at its nodes; ``"members"`` solves the n-player game as it is
#: (its equilibria include poorly coordinated ones: the team then gets less)
STRONG_SOLVES = ("merged", "members")


@dataclass(frozen=True)
class CollusionTable:
    """Ullman's Table 7 for one game: payoffs per scenario, averaged over seat rotations.

    Attributes
    ----------
    spec
        The game without collusion.
    team
        0-based seats of the team in the first placement (players ``A, B, ...`` are
        the seats of that placement; placement ``k`` shifts every player ``k`` seats).
    sharing, how
        Collusion rule and the solver (and budget) that gave the equilibria.
    payoffs
        ``{(strength, scenario): (payoff of A, B, ...)}``, strength ``"strong"`` or
        ``"weak"``, each averaged over the ``n`` placements.
    nash_conv
        ``{"none": ..., "strong": ..., "weak": ...}``: the largest NashConv of the
        equilibria used (no collusion; the collusion games over placements),
        evaluated exactly on the n-player games.
    team_values
        Strong collusion with win sharing: per placement ``(members, low, high)``,
        the team's summed payoff bracketed by the public equilibrium: ``low`` is what
        the team's strategy guarantees against any outsider (minus the outsider's
        best-response value), ``high`` the team's joint best response to the
        outsiders' strategy (the merged game); the team's exact value (the merged
        two-sided game's) lies in between.  Empty otherwise.
    """

    spec: str
    team: tuple[int, ...]
    sharing: str
    how: str
    payoffs: dict[tuple[str, str], tuple[float, ...]]
    nash_conv: dict[str, float]
    team_values: tuple[tuple[tuple[int, ...], float, float], ...] = ()
    team_optimal: tuple[TeamOptimal, ...] = ()

    def team_optimal_payoffs(self, strength: str) -> tuple[tuple[float, float], ...] | None:
        """Players ``A, B, ...``'s payoffs when the team plays team-optimally and the
        outsider best-responds (Table 7's *Public* scenario), averaged over the seat
        rotations like :attr:`payoffs`: per player ``(low, high)``, each member getting
        an equal share of the team's bracket, the outsider minus the team's.  ``None``
        when :attr:`team_optimal` lacks a placement for ``strength`` (none computed, or
        the computation was interrupted)."""
        rows = [(r.members, float(r.low), float(r.high)) for r in self.team_optimal
                if r.strength == strength and not r.interrupted]  # fmt: skip
        n = len(next(iter(self.payoffs.values())))
        return self._rotated(rows) if len(rows) == n else None

    @property
    def interrupted(self) -> bool:
        """Ctrl-C or SIGTERM stopped the team-optimal values (the payoffs are complete;
        :attr:`team_optimal` holds the placements done, the last one a valid bracket)."""
        return any(r.interrupted for r in self.team_optimal)

    def team_value_payoffs(self) -> tuple[tuple[float, float], ...] | None:
        """:attr:`team_values` (strong win sharing: the merged team's value bracketed by
        the stored equilibrium's best responses) as players ``A, B, ...``'s payoffs, laid
        out like :meth:`team_optimal_payoffs`; ``None`` without them.  No solve: what
        the evaluation already computed."""
        return self._rotated(list(self.team_values)) if self.team_values else None

    def _rotated(
        self, rows: list[tuple[tuple[int, ...], float, float]]
    ) -> tuple[tuple[float, float], ...]:
        return rotated_brackets(rows, len(next(iter(self.payoffs.values()))))

    def to_json_dict(self) -> dict[str, object]:
        """As JSON data."""
        optimal = {s: self.team_optimal_payoffs(s) for s in STRENGTHS}
        bracket = self.team_value_payoffs()
        return {
            "spec": self.spec,
            "team": seat_digits(self.team),
            "sharing": self.sharing,
            "how": self.how,
            "nash_conv": dict(self.nash_conv),
            "payoffs": [
                {"collusion": k[0], "scenario": k[1], "payoffs": list(v)}
                for k, v in self.payoffs.items()
            ],
            "team_values": [
                {"team": seat_digits(m), "low": lo, "high": hi} for m, lo, hi in self.team_values
            ],
            "team_optimal": [r.to_json_dict() for r in self.team_optimal],
            "team_optimal_payoffs": [
                {
                    "collusion": s,
                    "scenario": "public",
                    "low": [lo for lo, _ in v],
                    "high": [hi for _, hi in v],
                }
                for s, v in optimal.items()
                if v is not None
            ],  # fmt: skip
            "team_values_payoffs": None
            if bracket is None
            else {
                "collusion": "strong",
                "scenario": "public",
                "low": [lo for lo, _ in bracket],
                "high": [hi for _, hi in bracket],
            },  # fmt: skip
        }


def rotated_brackets(
    rows: list[tuple[tuple[int, ...], float, float]], n: int
) -> tuple[tuple[float, float], ...]:
    """Per placement ``(members, low, high)`` of the team's summed value, in the order of
    :func:`~toypoker.games.team_transform.placements`, as players ``A, B, ...``'s brackets
    averaged over the seat rotations (``n`` players): each member gets an equal share
    of the team's bracket, the outsider minus the team's."""
    low, high = np.zeros(n), np.zeros(n)
    for k, (members, lo_k, hi_k) in enumerate(rows):
        for p in range(n):
            seat = (p + k) % n
            if seat in members:
                low[p] += lo_k / len(members)
                high[p] += hi_k / len(members)
            else:
                low[p] -= hi_k
                high[p] -= lo_k
    return tuple((lo / len(rows), hi / len(rows)) for lo, hi in zip(low, high, strict=True))


@dataclass(frozen=True)
class TeamOptimal:
    """The team's optimal value in one placement: what the colluders can take at most.

    Attributes
    ----------
    strength
        ``"strong"`` or ``"weak"``.
    members
        0-based seats of the team.
    low, high
        Exact bracket on the team's summed value against the outsider's best reply
        (equal for an exact value).
    how
        ``"merged LP"`` (a strong win-sharing team is one player: its merged game's
        exact LP value) or ``"TMECor"`` (column generation,
        :func:`toypoker.teams.tmecor.tmecor`, within a time budget; ``"TMECor,
        backward-induction oracle"`` for a strong team with pot sharing).
    seconds
        Wall time.
    interrupted
        Ctrl-C or SIGTERM stopped the TMECor (the bracket is valid, not converged; the
        placements after it are not computed).
    """

    strength: str
    members: tuple[int, ...]
    low: Fraction
    high: Fraction
    how: str
    seconds: float
    interrupted: bool = False

    @property
    def exact(self) -> bool:
        """``low == high``."""
        return self.low == self.high

    def to_json_dict(self) -> dict[str, object]:
        """As JSON data (exact ends as ``"p/q"``, with floats)."""
        return {
            "collusion": self.strength,
            "team": seat_digits(self.members),
            "low": float(self.low),
            "high": float(self.high),
            "low_exact": str(self.low),
            "high_exact": str(self.high),
            "exact": self.exact,
            "how": self.how,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
        }
