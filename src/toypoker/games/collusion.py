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
``strong=true|false`` and ``merge=true|false`` (see :func:`split_collusion`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from ..definition import GameDefinition
from ..errors import SpecError, ToypokerError

if TYPE_CHECKING:
    from ..game import Game
    from ..profile import Profile

__all__ = [
    "COLLUSION_KEYS",
    "SCENARIOS",
    "CollusionTable",
    "apply_collusion",
    "collusion_table",
    "collude",
    "merge_team",
    "split_collusion",
    "team_average",
    "with_spec",
]

COLLUSION_KEYS = ("team", "sharing", "strong", "merge")


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
    team = tuple(sorted(team))
    if len(set(team)) != len(team) or len(team) < 2:
        raise ToypokerError(f"collusion team needs at least 2 distinct seats, got {team}")
    if any(not 0 <= p < n for p in team):
        raise ToypokerError(f"collusion team {team} has a seat outside 0..{n - 1}")
    if sharing not in ("win", "pot"):
        raise ToypokerError(f"sharing must be 'win' or 'pot', got {sharing!r}")
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
    new_of = {p: seats.index(lead if p in team else p) for p in range(n)}
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
        ``team``, else ``{"team": "12", "sharing": "win", "strong": False, "merge": False}``.

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
    t = given["team"]
    digits = str(t.numerator) if isinstance(t, Fraction) and t.denominator == 1 else str(t)
    if not digits.isdigit() or "0" in digits:
        raise SpecError(f"team must be 1-based seats written as digits (e.g. team=12), got {t}")
    if len(set(digits)) != len(digits) or len(digits) < 2:
        raise SpecError(f"team must name at least 2 distinct seats, got team={digits}")
    sharing = given.get("sharing", "win")
    if sharing not in ("win", "pot"):
        raise SpecError(f"sharing must be win or pot, got {sharing}")
    flags = {}
    for k in ("strong", "merge"):
        v = given.get(k, False)
        if not isinstance(v, bool):
            raise SpecError(f"{k} must be true or false, got {v}")
        flags[k] = v
    if flags["merge"] and not flags["strong"]:
        raise SpecError("merge=true needs strong=true (a merged team sees all its cards)")
    return rest, {"team": "".join(sorted(digits)), "sharing": sharing, **flags}


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
    n = definition.n_players
    team = tuple(int(c) - 1 for c in str(coll["team"]))
    if max(team) >= n:
        raise SpecError(f"team={coll['team']} names a seat beyond the game's {n} players")
    if len(team) == n:
        raise SpecError(f"team={coll['team']} is every player: nobody is left to play against")
    if coll["strong"] and definition.restrictions:
        raise SpecError("strong collusion cannot keep restricted actions; drop the restriction")
    out = collude(definition, team, str(coll["sharing"]), strong=bool(coll["strong"]))
    return merge_team(out, team) if coll["merge"] else out


SCENARIOS = ("public", "private", "suspicious")


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
    sharing, method, iterations
        Collusion rule and the solver that gave the equilibria.
    payoffs
        ``{(strength, scenario): (payoff of A, B, ...)}``, strength ``"strong"`` or
        ``"weak"``, each averaged over the ``n`` placements.
    nash_conv
        ``{"none": ..., "strong": ..., "weak": ...}``: the largest NashConv of the
        equilibria used (no collusion; the collusion games over placements).
    """

    spec: str
    team: tuple[int, ...]
    sharing: str
    method: str
    iterations: int
    payoffs: dict[tuple[str, str], tuple[float, ...]]
    nash_conv: dict[str, float]

    def to_json_dict(self) -> dict[str, object]:
        """As JSON data."""
        return {
            "spec": self.spec,
            "team": "".join(str(p + 1) for p in self.team),
            "sharing": self.sharing,
            "method": self.method,
            "iterations": self.iterations,
            "nash_conv": dict(self.nash_conv),
            "payoffs": [
                {"collusion": k[0], "scenario": k[1], "payoffs": list(v)}
                for k, v in self.payoffs.items()
            ],
        }


def with_spec(spec: str, extra: str) -> str:
    """``spec`` with ``extra`` parameters appended: ``with_spec("kuhn()", "team=12")``."""
    s = spec.strip()
    if "(" not in s:
        return f"{s}({extra})"
    if not s.endswith(")"):
        raise SpecError(f"malformed game spec {spec!r}")
    inner = s[s.index("(") + 1 : -1].strip()
    return f"{s[:-1]}{',' if inner else ''}{extra})"


def splice(base: Profile, src: Profile, players: set[int]) -> Profile:
    """``base`` with the infosets of ``players`` taken from ``src`` (matched by label)."""
    from ..profile import Profile

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


def collusion_table(
    spec: str,
    team: tuple[int, ...],
    sharing: str = "win",
    method: str = "cfr+",
    iterations: int = 1000,
    progress: object = None,
) -> CollusionTable:
    """Ullman's (2015) Table 7 scenarios, weak and strong, averaged over seat rotations.

    *Public*: everybody plays the equilibrium of the collusion game (payoffs shared);
    *Private*: the team plays the collusion equilibrium, the outsiders the
    no-collusion one (payoffs shared); *Suspicious*: nobody colludes (payoffs not
    shared), the team plays the no-collusion equilibrium and the outsiders the
    collusion one.  Placement ``k`` moves every player ``k`` seats on (the dealer
    rotates); each player's payoff is the mean over the ``n`` placements.

    Parameters
    ----------
    spec
        A game without collusion parameters.
    team
        0-based seats of the team in the first placement.
    sharing
        ``"win"`` or ``"pot"``.
    method, iterations
        Solver for every equilibrium (``n * 2 + 1`` games).
    progress
        Optional callable ``progress(message)`` before each solve.

    Returns
    -------
    CollusionTable
    """
    from ..evaluate import evaluate, nash_conv
    from ..solvers import solve
    from . import load_game

    def eq(g: Game) -> tuple[Profile, float]:
        if callable(progress):
            progress(f"{method} {g.spec}")
        res = solve(g, method, iterations=iterations)
        prof = res.profile if not res.profile.exact else res.profile.to_float()
        return prof, float(nash_conv(g, prof))

    g0 = load_game(spec)
    n = g0.n_players
    if any(k in g0.params for k in COLLUSION_KEYS):
        raise SpecError("give the game without collusion parameters; use --team")
    team = tuple(sorted(set(team)))
    if len(team) < 2 or len(team) >= n or not all(0 <= p < n for p in team):
        raise SpecError(f"team must be 2 to {n - 1} distinct seats of the {n} in {g0.spec}")
    p0, nc0 = eq(g0)
    sums = {(s, c): np.zeros(n) for s in ("strong", "weak") for c in SCENARIOS}
    worst = {"none": nc0, "strong": 0.0, "weak": 0.0}
    for k in range(n):
        seat = [(p + k) % n for p in range(n)]  # seat of player A, B, ... in placement k
        members = {seat[p] for p in team}
        others = set(range(n)) - members
        digits = "".join(str(q + 1) for q in sorted(members))
        for strength in ("strong", "weak"):
            strong = "true" if strength == "strong" else "false"
            extra = f"team={digits},sharing={sharing},strong={strong}"
            gc = load_game(with_spec(spec, extra))
            pc, nc = eq(gc)
            worst[strength] = max(worst[strength], nc)
            p0_in_c = splice(pc, p0, others)
            pc_in_0 = splice(p0, pc, others)
            vals = {
                "public": evaluate(gc, pc).values,
                "private": evaluate(gc, p0_in_c).values,
                "suspicious": evaluate(g0, pc_in_0).values,
            }
            for c, v in vals.items():
                sums[(strength, c)] += np.array([float(v[seat[p]]) for p in range(n)])
    payoffs = {key: tuple(float(x) / n for x in v) for key, v in sums.items()}
    return CollusionTable(spec=g0.spec, team=team, sharing=sharing, method=method,
                          iterations=iterations, payoffs=payoffs, nash_conv=worst)  # fmt: skip
