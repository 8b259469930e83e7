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
import hashlib
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..definition import GameDefinition
from ..errors import SpecError, ToypokerError
from ..io import atomic_write_bytes
from .base import Param

if TYPE_CHECKING:
    from ..game import Game
    from ..profile import Profile

__all__ = [
    "COLLUSION_KEYS",
    "COLLUSION_PARAMS",
    "SCENARIOS",
    "STRENGTHS",
    "STRONG_SOLVES",
    "CollusionProfiles",
    "CollusionTable",
    "apply_collusion",
    "by_label",
    "collude",
    "collusion_spec",
    "collusion_table",
    "collusion_table_from",
    "fingerprint",
    "from_label_order",
    "merge_team",
    "placements",
    "solve_collusion_profiles",
    "split_collusion",
    "team_average",
    "transfer_profile",
    "with_spec",
]

COLLUSION_KEYS = ("team", "sharing", "strong", "merge")
#: what every game spec accepts besides its own parameters (``toypoker games`` lists them)
COLLUSION_PARAMS = (
    Param("team", "int", None, "colluding seats, 1-based digits (team=12: seats 1 and 2)"),
    Param("sharing", "word", "win", "win: each member gets the team's mean payoff; pot: "
          "members split their pot share, chips put in stay their own"),
    Param("strong", "bool", False, "members also see each other's hole cards"),
    Param("merge", "bool", False, "the team plays as one agent (needs strong=true)"),
)  # fmt: skip


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


def check_collusion(coll: dict[str, object], n: int, restricted: bool) -> tuple[int, ...]:
    """The 0-based team of the canonical collusion parameters ``coll`` in a game of
    ``n`` players (``restricted``: some choices fixed), checked before building.

    Raises
    ------
    SpecError
        For a seat outside the game, a team of every player, or strong collusion in
        a game with restricted (dominated) actions.
    """
    team = tuple(int(c) - 1 for c in str(coll["team"]))
    if max(team) >= n:
        raise SpecError(f"team={coll['team']} names a seat beyond the game's {n} players")
    if len(team) == n:
        raise SpecError(f"team={coll['team']} is every player: nobody is left to play against")
    if coll["strong"] and restricted:
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
    out = collude(definition, team, str(coll["sharing"]), strong=bool(coll["strong"]))
    return merge_team(out, team) if coll["merge"] else out


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

    def to_json_dict(self) -> dict[str, object]:
        """As JSON data."""
        return {
            "spec": self.spec,
            "team": "".join(str(p + 1) for p in self.team),
            "sharing": self.sharing,
            "how": self.how,
            "nash_conv": dict(self.nash_conv),
            "payoffs": [
                {"collusion": k[0], "scenario": k[1], "payoffs": list(v)}
                for k, v in self.payoffs.items()
            ],
            "team_values": [
                {"team": "".join(str(q + 1) for q in m), "low": lo, "high": hi}
                for m, lo, hi in self.team_values
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
    from ..profile import Profile

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


def placements(n_players: int, team: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The team's seats in each rotation: placement ``k`` moves player ``p`` to seat
    ``(p + k) % n`` (the dealer rotates); ``placements(3, (0, 1))`` is
    ``[(0, 1), (1, 2), (0, 2)]``."""
    return [tuple(sorted((p + k) % n_players for p in team)) for k in range(n_players)]


def collusion_spec(
    spec: str, members: tuple[int, ...], sharing: str, strength: str, merge: bool = False
) -> str:
    """``spec`` with the collusion parameters of the 0-based seats ``members``."""
    digits = "".join(str(q + 1) for q in members)
    strong = "true" if strength == "strong" else "false"
    extra = f"team={digits},sharing={sharing},strong={strong}" + (",merge=true" if merge else "")
    return with_spec(spec, extra)


def _label_order(game: Game) -> np.ndarray:
    """``game``'s infoset indices sorted by label (stored profiles do not depend on the
    order in which a compiler numbers the infosets)."""
    return np.array(sorted(range(game.n_infosets), key=lambda i: game.infosets[i].label))


def _flat_index(game: Game, order: np.ndarray) -> np.ndarray:
    """Flat action indices of ``game``'s infosets taken in ``order``."""
    n = game.infoset_n_actions[order]
    start = np.repeat(game.infoset_offset[order], n)
    within = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
    return start + within


def fingerprint(game: Game) -> str:
    """A short hash of ``game``'s infosets (labels and actions, sorted by label): a stored
    profile fits a game with the same fingerprint."""
    h = hashlib.sha256()
    for i in _label_order(game):
        inf = game.infosets[i]
        h.update(f"{inf.label}:{','.join(inf.actions)};".encode())
    return h.hexdigest()[:20]


def by_label(game: Game, probs: np.ndarray) -> np.ndarray:
    """A flat strategy of ``game`` rewritten infoset by infoset in label order."""
    return np.asarray(probs, dtype=np.float64)[_flat_index(game, _label_order(game))]


def from_label_order(game: Game, vector: np.ndarray) -> np.ndarray:
    """The inverse of :func:`by_label`."""
    sigma = np.empty(game.n_sigma, dtype=np.float64)
    sigma[_flat_index(game, _label_order(game))] = vector
    return sigma


@dataclass(frozen=True)
class CollusionProfiles:
    """The equilibria behind :func:`collusion_table`, kept so that the table can be
    recomputed -- values and NashConv evaluated afresh, the certificate -- without
    solving again.

    Attributes
    ----------
    spec
        The game without collusion (canonical spec).
    team, sharing
        As in :func:`collusion_table`.
    how
        The solver and budget that produced the profiles.
    sigma
        ``{canonical game spec: flat behaviour strategy}``, infosets in label order
        (:func:`by_label`): the no-collusion game and, per placement, the strong and
        weak collusion games (n players, unmerged).
    fingerprints
        ``{spec: fingerprint(game)}`` of the games the vectors belong to.
    """

    spec: str
    team: tuple[int, ...]
    sharing: str
    how: str
    sigma: dict[str, np.ndarray]
    fingerprints: dict[str, str]

    def profile(self, game: Game) -> Profile:
        """The stored profile of ``game``.

        Raises
        ------
        ToypokerError
            If none is stored for ``game.spec`` or the game's infosets changed.
        """
        from ..profile import Profile

        if game.spec not in self.sigma:
            raise ToypokerError(f"no stored profile for {game.spec}")
        if fingerprint(game) != self.fingerprints[game.spec]:
            raise ToypokerError(
                f"the stored profile of {game.spec} was made for other infosets "
                "(the game changed): solve it again"
            )
        return Profile(game, from_label_order(game, self.sigma[game.spec]))

    def save(self, path: str | Path) -> None:
        """Write an ``.npz`` atomically: one float64 array per game, metadata as JSON text."""
        specs = list(self.sigma)
        meta = {
            "spec": self.spec,
            "team": list(self.team),
            "sharing": self.sharing,
            "how": self.how,
            "games": specs,
            "fingerprints": [self.fingerprints[s] for s in specs],
        }
        arrays = {f"sigma_{i}": np.asarray(self.sigma[s], np.float64) for i, s in enumerate(specs)}
        buf = io.BytesIO()
        np.savez_compressed(buf, meta=np.array(json.dumps(meta)), **arrays)
        atomic_write_bytes(path, buf.getvalue())

    @classmethod
    def load(cls, path: str | Path | Traversable) -> CollusionProfiles:
        """Read what :meth:`save` wrote (no pickle).

        Raises
        ------
        ToypokerError
            For a missing or malformed file.
        """
        try:
            source = Path(path) if isinstance(path, str) else path
            with source.open("rb") as fh:
                data = np.load(io.BytesIO(fh.read()), allow_pickle=False)
                meta = json.loads(str(data["meta"]))
                games = [str(s) for s in meta["games"]]
                sigma = {s: np.asarray(data[f"sigma_{i}"], np.float64) for i, s in enumerate(games)}
            return cls(
                str(meta["spec"]),
                tuple(int(x) for x in meta["team"]),
                str(meta["sharing"]),
                str(meta["how"]),
                sigma,
                dict(zip(games, (str(f) for f in meta["fingerprints"]), strict=True)),
            )
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ToypokerError(f"cannot read collusion profiles {path}: {e}") from e


def _base_and_team(spec: str | Game, team: tuple[int, ...]) -> tuple[Game, tuple[int, ...]]:
    from . import load_game

    g0 = load_game(spec) if isinstance(spec, str) else spec
    n = g0.n_players
    if any(k in g0.params for k in COLLUSION_KEYS):
        raise SpecError("give the game without collusion parameters; use --team")
    team = tuple(sorted(set(team)))
    if len(team) < 2 or len(team) >= n or not all(0 <= p < n for p in team):
        raise SpecError(f"team must be 2 to {n - 1} distinct seats of the {n} in {g0.spec}")
    return g0, team


def solve_collusion_profiles(
    spec: str,
    team: tuple[int, ...],
    sharing: str = "win",
    method: str = "cfr+",
    iterations: int | None = 1000,
    target_nash_conv: float | None = None,
    strong_solve: str = "merged",
    progress: Callable[[str], None] | None = None,
) -> CollusionProfiles:
    """Solve the ``2 n + 1`` games behind :func:`collusion_table`.

    Parameters
    ----------
    spec, team, sharing
        As in :func:`collusion_table`.
    method, iterations, target_nash_conv
        The solver, its iteration cap (``None``: none) and NashConv target (checked on
        the game solved: the merged one for strong collusion with ``"merged"``).
    strong_solve
        One of :data:`STRONG_SOLVES`; ``"merged"`` applies to win sharing only (pot
        sharing does not give the members one payoff), else ``"members"`` is used.
    progress
        Optional callable ``progress(message)`` before each solve.

    Returns
    -------
    CollusionProfiles
        The games are compiled one at a time (3P-MMH: about 0.6 GB each).
    """
    from ..solvers import solve
    from . import load_game

    if strong_solve not in STRONG_SOLVES:
        raise ToypokerError(f"strong_solve must be one of {', '.join(STRONG_SOLVES)}")
    if iterations is None and target_nash_conv is None:
        raise ToypokerError("give an iteration cap or a NashConv target")
    merged = strong_solve == "merged" and sharing == "win"

    def eq(g: Game) -> Profile:
        if progress is not None:
            progress(f"{method} {g.spec}")
        res = solve(g, method, iterations=iterations, target_nash_conv=target_nash_conv)
        return res.profile.to_float() if res.profile.exact else res.profile

    g0, team = _base_and_team(spec, team)
    base, n = g0.spec, g0.n_players
    sigma = {base: by_label(g0, eq(g0).probs)}
    prints = {base: fingerprint(g0)}
    del g0
    for members in placements(n, team):
        for strength in STRENGTHS:
            gc = load_game(collusion_spec(base, members, sharing, strength))
            if strength == "strong" and merged:
                gm = load_game(collusion_spec(base, members, sharing, strength, merge=True))
                sigma[gc.spec] = by_label(gc, transfer_profile(eq(gm), gc).probs)
                del gm
            else:
                sigma[gc.spec] = by_label(gc, eq(gc).probs)
            prints[gc.spec] = fingerprint(gc)
            del gc
    how = f"{method}, at most {iterations} iterations" if iterations else method
    if target_nash_conv is not None:
        how += f", stopped at NashConv {target_nash_conv:g}"
    if merged:
        how += "; strong collusion: the merged team's equilibrium"
    return CollusionProfiles(base, team, sharing, how, sigma, prints)


def collusion_table_from(
    profiles: CollusionProfiles,
    team_values: bool = True,
    progress: Callable[[str], None] | None = None,
    game: Game | None = None,
) -> CollusionTable:
    """Ullman's Table 7 from stored equilibria, every number evaluated afresh.

    Parameters
    ----------
    profiles
        From :func:`solve_collusion_profiles` or :meth:`CollusionProfiles.load`.
    team_values
        Also bracket each placement's strong-collusion team value (win sharing):
        compiles the merged game once more per placement.
    progress
        Optional callable ``progress(message)`` before each game.
    game
        The compiled no-collusion game, if at hand (else compiled here).

    Returns
    -------
    CollusionTable
        NashConv and best responses exact (float) on the n-player games.
    """
    from ..evaluate import best_response, evaluate, expected_values
    from . import load_game

    g0, team = _base_and_team(profiles.spec if game is None else game, profiles.team)
    n, sharing = g0.n_players, profiles.sharing
    p0 = profiles.profile(g0)
    nc0 = float(evaluate(g0, p0).nash_conv)
    sums = {(s, c): np.zeros(n) for s in STRENGTHS for c in SCENARIOS}
    worst = {"none": nc0, "strong": 0.0, "weak": 0.0}
    brackets = []
    for k, members in enumerate(placements(n, team)):
        seat = [(p + k) % n for p in range(n)]  # seat of player A, B, ... in placement k
        others = set(range(n)) - set(members)
        for strength in STRENGTHS:
            spec = collusion_spec(g0.spec, members, sharing, strength)
            if progress is not None:
                progress(f"evaluating {spec}")
            gc = load_game(spec)
            pc = profiles.profile(gc)
            ev = evaluate(gc, pc)
            worst[strength] = max(worst[strength], float(ev.nash_conv))
            vals = {
                "public": ev.values,
                "private": expected_values(gc, splice(pc, p0, others)),
                "suspicious": expected_values(g0, splice(p0, pc, others)),
            }
            for c, v in vals.items():
                sums[(strength, c)] += np.array([float(v[seat[p]]) for p in range(n)])
            if strength == "strong" and sharing == "win" and team_values and len(others) == 1:
                (out,) = others
                gm = load_game(collusion_spec(g0.spec, members, sharing, strength, merge=True))
                lead = 0 if members[0] == 0 else 1  # the team sits at its lowest member's place
                high = best_response(gm, transfer_profile(pc, gm), lead).value
                brackets.append((members, -float(ev.br_values[out]), float(high)))
                del gm
            del gc, pc
    payoffs = {key: tuple(float(x) / n for x in v) for key, v in sums.items()}
    return CollusionTable(g0.spec, team, sharing, profiles.how, payoffs, worst, tuple(brackets))


def collusion_table(
    spec: str,
    team: tuple[int, ...],
    sharing: str = "win",
    method: str = "cfr+",
    iterations: int | None = 1000,
    target_nash_conv: float | None = None,
    strong_solve: str = "merged",
    progress: Callable[[str], None] | None = None,
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
    method, iterations, target_nash_conv
        Solver for every equilibrium (``2 n + 1`` games), its iteration cap and
        NashConv target.
    strong_solve
        One of :data:`STRONG_SOLVES` (default: the merged team's equilibrium).
    progress
        Optional callable ``progress(message)`` before each solve.

    Returns
    -------
    CollusionTable
    """
    profiles = solve_collusion_profiles(
        spec, team, sharing, method, iterations, target_nash_conv, strong_solve, progress
    )
    return collusion_table_from(profiles, progress=progress)
