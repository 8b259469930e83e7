"""Collusion as a transform of any game (Ullman 2015, collusion chapter).

A team ``T`` of seats shares its winnings:

* ``sharing="win"``: every member receives the team's mean net payoff;
* ``sharing="pot"``: members split their summed share of the pot evenly,
  the chips each put in stay their own.

``strong=True`` also lets every member observe the partners' hole cards
(own cards, then each partner's, in ``hole_groups``); weak collusion is sharing only.
The payoffs are the exact affine map ``u' = A @ (share * pot) - B @ committed``
(``A = B =`` team average for win sharing, ``A =`` team average and
``B = I`` for pot sharing), applied by :class:`toypoker.game.Game`.
``merge`` makes the team one agent (:func:`merge_team`).

Every game spec accepts ``team=12`` (1-based seats as digits), ``sharing=win|pot``,
``strong=true|false`` and, for a strong team, ``merge=true|false`` (see
:func:`split_collusion`, :func:`merged_spec`); the
:class:`Team` value type holds one parsed team everywhere.

This module is the game layer's part of collusion: it imports only the definition,
errors and spec helpers.  Solving, evaluating and storing collusion games is the study
:mod:`toypoker.collusion`.
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass
from fractions import Fraction

from toypoker.definition import GameDefinition
from toypoker.errors import SpecError, ToypokerError
from toypoker.games.base import Param
from toypoker.spec import format_spec, parse_spec

__all__ = [
    "COLLUSION_KEYS",
    "COLLUSION_PARAMS",
    "SHARINGS",
    "Team",
    "apply_collusion",
    "collude",
    "collusion_spec",
    "merge_team",
    "merged_spec",
    "placements",
    "seat_digits",
    "split_collusion",
    "team_average",
    "with_spec",
]

COLLUSION_KEYS = ("team", "sharing", "strong", "merge")
#: what every game spec accepts besides its own parameters (``toypoker games`` lists them)
COLLUSION_PARAMS = (
    Param("team", "int", None, "colluding seats, 1-based digits (team=12: seats 1 and 2)"),
    Param("sharing", "word", "win", "win: each member gets the team's mean payoff; pot: "
          "members split their pot share, chips put in stay their own"),
    Param("strong", "bool", False, "members also see each other's hole cards"),
    Param("merge", "bool", None, "true: the game is the strong team merged into one agent; "
          "not given: solve() solves a strong win-sharing team merged, seats mapped back; "
          "false: solve the members' game as it is"),
)  # fmt: skip
SHARINGS = ("win", "pot")


def seat_digits(seats: tuple[int, ...] | list[int]) -> str:
    """0-based seats written as the 1-based digits of a spec: ``seat_digits((0, 2)) == "13"``."""
    return "".join(str(q + 1) for q in seats)


@dataclass(frozen=True)
class Team:
    """A colluding team: its seats, sharing rule and whether it shares its cards.

    Attributes
    ----------
    seats
        Distinct 0-based seats in increasing order, at least 2.
    sharing
        ``"win"`` (members receive the team's mean net payoff) or ``"pot"``.
    strong
        Members also see each other's hole cards.

    Raises
    ------
    SpecError
        On construction, for fewer than 2 distinct seats, a negative seat or an
        unknown sharing rule.
    """

    seats: tuple[int, ...]
    sharing: str = "win"
    strong: bool = False

    def __post_init__(self) -> None:
        bad = [q for q in self.seats if isinstance(q, bool) or not isinstance(q, numbers.Integral)]
        if bad:
            raise SpecError(f"a team's seats are whole numbers (0-based), got {bad[0]!r}")
        seats = tuple(sorted(int(q) for q in self.seats))
        if seats and seats[0] < 0:
            raise SpecError(f"a team's seats are 0-based (0 is the first seat), got {seats[0]}")
        if len(set(seats)) != len(seats) or len(seats) < 2:
            raise SpecError(f"a team needs at least 2 distinct seats, got {seat_digits(seats)}")
        if self.sharing not in SHARINGS:
            raise SpecError(f"sharing must be win or pot, got {self.sharing}")
        if not isinstance(self.strong, bool):
            raise SpecError(f"strong must be true or false, got {self.strong}")
        object.__setattr__(self, "seats", seats)

    @classmethod
    def parse(cls, digits: object, sharing: object = "win", strong: object = False) -> Team:
        """A team from 1-based seat digits (``"12"``, or the integer a spec parser gives).

        Raises
        ------
        SpecError
            For anything but distinct non-zero digits, a bad sharing rule or flag.
        """
        if isinstance(digits, Fraction) and digits.denominator == 1:
            digits = digits.numerator
        text = str(digits).strip()
        if not text.isdigit() or "0" in text:
            raise SpecError(f"team must be 1-based seats written as digits (e.g. 12), got {text}")
        if len(set(text)) != len(text) or len(text) < 2:
            raise SpecError(f"team must name at least 2 distinct seats, got {text}")
        return cls(tuple(int(c) - 1 for c in text), str(sharing), strong)  # type: ignore[arg-type]

    @classmethod
    def of(cls, team: object) -> Team:
        """A team from what the Python API accepts: a :class:`Team`, 1-based seat digits
        as in a spec (``"13"`` or ``13``), or a sequence of 0-based seats (``(0, 2)``).

        Raises
        ------
        SpecError
            For anything else, or seats that are not distinct whole numbers.
        """
        if isinstance(team, Team):
            return team
        if isinstance(team, str) or (
            isinstance(team, numbers.Integral) and not isinstance(team, bool)
        ):
            return cls.parse(team)
        try:
            seats = tuple(team)  # type: ignore[call-overload]
        except TypeError:
            raise SpecError(
                f'a team is seat digits as in a spec ("13") or 0-based seats ((0, 2)), got {team!r}'
            ) from None
        return cls(seats)

    @property
    def digits(self) -> str:
        """The 1-based seats as written in a spec (``"12"``)."""
        return seat_digits(self.seats)

    def check(self, n_players: int) -> None:
        """Raise :class:`SpecError` unless the team fits a game of ``n_players`` seats with
        at least one outsider."""
        if self.seats[-1] >= n_players:
            raise SpecError(
                f"team={self.digits} names a seat beyond the game's {n_players} players"
            )
        if len(self.seats) == n_players:
            raise SpecError(f"team={self.digits} is every player: nobody is left to play against")

    def outsiders(self, n_players: int) -> tuple[int, ...]:
        """The seats not in the team."""
        return tuple(p for p in range(n_players) if p not in self.seats)

    def merged_seat(self, n_players: int) -> tuple[int, ...]:
        """Each seat's player in the merged game (:func:`merge_team`): the team sits at
        its lowest member's place, the outsiders keep their order."""
        lead = self.seats[0]
        kept = [p for p in range(n_players) if p not in self.seats or p == lead]
        return tuple(kept.index(lead if p in self.seats else p) for p in range(n_players))

    def params(self, merge: bool | None = None) -> dict[str, object]:
        """The canonical spec parameters of the team and, for a strong team, the ``merge``
        flag when it is given (``None``: the default, solve the merged team)."""
        out: dict[str, object] = {"team": self.digits, "sharing": self.sharing,
                                  "strong": self.strong}  # fmt: skip
        if self.strong and merge is not None:
            out["merge"] = merge
        return out

    @classmethod
    def of_params(cls, params: dict[str, object]) -> Team | None:
        """The team of a game's parameters (``Game.params``), ``None`` without one."""
        if "team" not in params:
            return None
        return cls.parse(params["team"], params.get("sharing", "win"),
                         params.get("strong", False))  # fmt: skip


def agreeing_team(params: dict[str, object], team: object) -> Team:
    """``team`` (anything :meth:`Team.of` reads), checked against the team a game's
    parameters name: a game whose spec says ``team=23`` is not asked about team 12.

    Raises
    ------
    SpecError
        If ``team`` cannot be read or names other seats than the spec's (unmerged) team.
    """
    given = Team.of(team)
    own = None if params.get("merge") else Team.of_params(params)
    if own is not None and own.seats != given.seats:
        raise SpecError(f"team={given.digits} conflicts with the spec's team={own.digits}")
    return given


def team_average(n_players: int, team: tuple[int, ...]) -> tuple[tuple[Fraction, ...], ...]:
    """The ``n x n`` exact matrix giving each team member the team mean (others: identity).

    Parameters
    ----------
    n_players
        Number of seats.
    team
        0-based seats of the team.

    Returns
    -------
    tuple of tuple of Fraction
        Row ``i`` of a member is ``1/|T|`` on every member's column.
    """
    k = Fraction(1, max(len(team), 1))
    rows = []
    for i in range(n_players):
        if i in team:
            rows.append(tuple(k if j in team else Fraction(0) for j in range(n_players)))
        else:
            rows.append(tuple(Fraction(int(i == j)) for j in range(n_players)))
    return tuple(rows)


def collude(
    definition: GameDefinition,
    team: tuple[int, ...],
    sharing: str = "win",
    strong: bool = False,
) -> GameDefinition:
    """Return ``definition`` with the seats in ``team`` colluding.

    Parameters
    ----------
    definition
        Any game definition (not already colluding).
    team
        Distinct 0-based seats, at least 2 of them.
    sharing
        ``"win"`` (mean net payoff) or ``"pot"`` (pot shares split evenly).
    strong
        Members also observe each other's hole cards.

    Returns
    -------
    GameDefinition
        Same deal table and public tree; new payoff map and observations.

    Raises
    ------
    ToypokerError
        On a bad team or sharing rule, or a game that already has a payoff map.
    """
    n = definition.n_players
    team = Team(team, sharing, strong).seats
    if team[-1] >= n:
        raise ToypokerError(f"collusion team {team} has a seat outside 0..{n - 1}")
    if definition.payoff_a is not None or definition.payoff_b is not None:
        raise ToypokerError("game already has a collusion payoff map")
    avg = team_average(n, team)
    ident = team_average(n, ())  # identity
    slots = definition.hole_slots
    hole = list(slots)
    groups = None
    if strong:  # own cards first, then each partner's in seat order
        groups = [
            (slots[p], *(slots[q] for q in team if q != p)) if p in team else (slots[p],)
            for p in range(n)
        ]
        hole = [tuple(c for g in gs for c in g) for gs in groups]
    return dataclasses.replace(
        definition,
        hole_slots=hole,
        hole_groups=groups,
        payoff_a=avg,
        payoff_b=avg if sharing == "win" else ident,
    )


def merge_team(definition: GameDefinition, team: tuple[int, ...]) -> GameDefinition:
    """The team of a strong-collusion game as ONE agent: an ``n - |T| + 1``-player game.

    The team player sits at its lowest member's place (the outsiders keep their
    order), acts at every member's decision node and observes the union of the
    members' hole cards (own groups as in :func:`collude`); its payoff is the
    team's summed payoff.  Actions are public, so with shared cards the team has
    perfect recall: its information at a node is the public history plus the
    fixed union of hole cards.

    Parameters
    ----------
    definition
        The output of :func:`collude` with ``strong=True``.
    team
        The same 0-based seats.

    Returns
    -------
    GameDefinition
        Committed chips, ``live`` and ``strength`` keep one entry per original seat;
        the payoff map has one row per new player.
    """
    n = definition.n_players
    team = tuple(sorted(team))
    lead = team[0]
    seats = [p for p in range(n) if p not in team or p == lead]
    new_of = dict(enumerate(Team(team).merged_seat(n)))
    a_old = definition.payoff_a
    b_old = definition.payoff_b
    assert a_old is not None and b_old is not None and definition.hole_groups is not None

    def rows(mat: tuple[tuple[Fraction, ...], ...]) -> tuple[tuple[Fraction, ...], ...]:
        out = []
        for p in seats:
            members = team if p == lead else (p,)
            out.append(tuple(sum((mat[q][j] for q in members), Fraction(0)) for j in range(n)))
        return tuple(out)

    nodes = [
        dataclasses.replace(r, actor=new_of[r.actor]) if r.kind == "decision" else r
        for r in definition.nodes
    ]
    return dataclasses.replace(
        definition,
        n_players=len(seats),
        hole_slots=[definition.hole_slots[p] for p in seats],
        hole_groups=[definition.hole_groups[p] for p in seats],
        nodes=nodes,
        payoff_a=rows(a_old),
        payoff_b=rows(b_old),
    )


def split_collusion(raw: dict[str, object]) -> tuple[dict[str, object], dict[str, object]]:
    """Split a parsed spec into the game's own parameters and the canonical collusion ones.

    Parameters
    ----------
    raw
        ``parse_spec(spec).as_dict()``.

    Returns
    -------
    tuple of dict
        ``(game parameters, collusion parameters)``; the latter is empty without
        ``team``, else ``{"team": "12", "sharing": "win", "strong": False}``, with
        ``"merge"`` for a strong team when it is given (:func:`merged_spec`).

    Raises
    ------
    SpecError
        For a malformed team, sharing rule or flag, or collusion flags without a team.
    """
    rest = {k: v for k, v in raw.items() if k not in COLLUSION_KEYS}
    given = {k: raw[k] for k in COLLUSION_KEYS if k in raw}
    if not given:
        return rest, {}
    if "team" not in given:
        raise SpecError(f"{', '.join(given)} given without a team (e.g. team=12)")
    for k in ("strong", "merge"):
        if not isinstance(given.get(k, False), bool):
            raise SpecError(f"{k} must be true or false, got {given[k]}")
    strong = bool(given.get("strong", False))
    merge = given.get("merge")
    team = Team.parse(given["team"], given.get("sharing", "win"), strong)
    if merge and not strong:
        raise SpecError("merge=true needs strong=true (a merged team sees all its cards)")
    return rest, team.params(merge)  # type: ignore[arg-type]


def check_collusion(coll: dict[str, object], n: int, restricted: bool) -> Team:
    """The :class:`Team` of the canonical collusion parameters ``coll`` in a game of
    ``n`` players (``restricted``: some choices fixed), checked before building.

    Raises
    ------
    SpecError
        For a seat outside the game, a team of every player, or strong collusion in
        a game with restricted (dominated) actions.
    """
    team = Team.parse(coll["team"], coll["sharing"], coll["strong"])
    team.check(n)
    if team.strong and restricted:
        raise SpecError("strong collusion cannot keep restricted actions; drop the restriction")
    return team


def apply_collusion(definition: GameDefinition, coll: dict[str, object]) -> GameDefinition:
    """Apply the canonical collusion parameters of :func:`split_collusion` to a game.

    Raises
    ------
    SpecError
        For a seat outside the game, a team of every player, or a game with
        restricted (dominated) actions under strong collusion.
    """
    if not coll:
        return definition
    team = check_collusion(coll, definition.n_players, bool(definition.restrictions))
    out = collude(definition, team.seats, team.sharing, strong=team.strong)
    return merge_team(out, team.seats) if coll.get("merge") else out


def merged_spec(spec: str, default_only: bool = False) -> str | None:
    """The merged team's game of a strong win-sharing collusion game played by its
    members, else ``None``.

    A strong team sees all its cards and shares one payoff: it is one player with
    perfect recall (:func:`merge_team`).  Without ``merge`` in the spec such a game is
    solved as that merged team by default (its value is then unique); ``merge=false``
    asks for the ``n``-player game as it is.

    Parameters
    ----------
    spec
        A canonical game spec.
    default_only
        Only when ``merge`` is not given (the default merged solve).

    Returns
    -------
    str or None
        The spec with ``merge=true``.
    """
    parsed = parse_spec(spec)
    params = parsed.as_dict()
    team = Team.of_params(params)
    if team is None or not team.strong or team.sharing != "win" or params.get("merge"):
        return None
    if default_only and "merge" in params:
        return None
    return format_spec(parsed.name, {**params, "merge": True})


def with_spec(spec: str, extra: str) -> str:
    """``spec`` with ``extra`` parameters appended: ``with_spec("kuhn()", "team=12")``."""
    s = spec.strip()
    if "(" not in s:
        return f"{s}({extra})"
    if not s.endswith(")"):
        raise SpecError(f"malformed game spec {spec!r}")
    inner = s[s.index("(") + 1 : -1].strip()
    return f"{s[:-1]}{',' if inner else ''}{extra})"


def placements(n_players: int, team: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The team's seats in each rotation: placement ``k`` moves player ``p`` to seat
    ``(p + k) % n`` (the dealer rotates); ``placements(3, (0, 1))`` is
    ``[(0, 1), (1, 2), (0, 2)]``."""
    return [tuple(sorted((p + k) % n_players for p in team)) for k in range(n_players)]


def collusion_spec(
    spec: str, members: tuple[int, ...], sharing: str, strength: str, merge: bool = False
) -> str:
    """``spec`` with the collusion parameters of the 0-based seats ``members``
    (``strength`` is ``"strong"`` or ``"weak"``); a strong team's ``merge`` is
    written out, so the spec names the game as solved."""
    strong = "true" if strength == "strong" else "false"
    extra = f"team={seat_digits(members)},sharing={sharing},strong={strong}"
    if strength == "strong":  # the n-player game unless merged (merge=false: as it is)
        extra += f",merge={'true' if merge else 'false'}"
    return with_spec(spec, extra)
