"""Ullman's (2015) Table 7 for any game: the ``2 n + 1`` solves (no collusion; strong and
weak collusion for each seat placement), the Public/Private/Suspicious payoffs evaluated
from them, and the strong team's value bracketed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from toypoker.collusion.rotations import (
    SCENARIOS,
    STRENGTHS,
    STRONG_SOLVES,
    CollusionTable,
    TeamOptimal,
    rotated_brackets,
)
from toypoker.collusion.store import (
    CollusionProfiles,
    Measured,
    by_label,
    fingerprint,
    measure,
    store_key,
)
from toypoker.engines.rows.values import expected_values
from toypoker.errors import SpecError, ToypokerError
from toypoker.evaluation import best_response, evaluate
from toypoker.game import Game
from toypoker.games import load_rows
from toypoker.games.team_transform import (
    COLLUSION_KEYS,
    Team,
    collusion_spec,
    merged_spec,
    placements,
    seat_digits,
)
from toypoker.profile import Profile
from toypoker.result import Result, Stopped
from toypoker.solvers import solve
from toypoker.solvers.registry import get_method
from toypoker.teams.transfer import splice, transfer_profile

__all__ = [
    "SCENARIOS",
    "STRENGTHS",
    "STRONG_SOLVES",
    "CollusionTable",
    "base_and_team",
    "collusion_table",
    "collusion_table_from",
    "rotated_brackets",
    "solve_collusion_profiles",
    "solve_team_game",
    "study_games",
    "study_how",
    "TeamSolve",
    "TeamOptimal",
    "team_optimal_values",
]


def team_optimal_values(
    spec: str | Game,
    team: Team | tuple[int, ...],
    sharing: str = "win",
    seconds: float | None = 60.0,
    progress: Callable[[str], None] | None = None,
) -> tuple[TeamOptimal, ...]:
    """The team-optimal value of every placement, strong and weak (one outsider).

    Strong collusion with win sharing: the merged team's exact LP value (the team is one
    player with perfect recall).  Otherwise (weak, or pot sharing): the TMECor bracket
    by column generation, stopped after ``seconds`` (then a bracket, not a value).

    Parameters
    ----------
    spec, team, sharing
        As in :func:`collusion_table`; the game must leave exactly one outsider.
    seconds
        Time budget of each TMECor (``None``: until converged).
    progress
        Optional callable ``progress(message)`` before each game.

    Returns
    -------
    tuple of TeamOptimal
        In the order (placement, strength) of :func:`placements` and :data:`STRENGTHS`;
        after a Ctrl-C (or SIGTERM) in a TMECor, those done, the last marked
        ``interrupted``.

    Raises
    ------
    ToypokerError
        With more than one outsider.
    """
    import time

    from toypoker.teams.tmecor import tmecor

    g0, t = base_and_team(spec, team)
    if g0.n_players - len(t.seats) != 1:
        raise ToypokerError("team-optimal values need exactly one player outside the team")
    rows = []
    for members in placements(g0.n_players, t.seats):
        for strength in STRENGTHS:
            start = time.perf_counter()
            if strength == "strong" and sharing == "win":
                spec_m = collusion_spec(g0.spec, members, sharing, strength, merge=True)
                if progress is not None:
                    progress(f"lp {spec_m}")
                res = solve(load_rows(spec_m), "lp", team=False)
                lead = 0 if members[0] == 0 else 1  # the team sits at its lowest member's place
                v = res.value_exact[lead]
                rows.append(TeamOptimal(strength, members, v, v, "merged LP",
                                        time.perf_counter() - start))  # fmt: skip
                continue
            spec_c = collusion_spec(g0.spec, members, sharing, strength)
            if progress is not None:
                progress(f"tmecor {spec_c}")
            r = tmecor(load_rows(spec_c), members, seconds=seconds)
            how = "TMECor, backward-induction oracle" if strength == "strong" else "TMECor"
            stop = r.stopped == "interrupted"
            rows.append(TeamOptimal(strength, members, r.lower, r.upper, how, r.seconds, stop))
            if stop:  # the signal the TMECor deferred: no further placement
                return tuple(rows)
    return tuple(rows)


def base_and_team(spec: str | Game, team: Team | tuple[int, ...]) -> tuple[Game, Team]:
    """The no-collusion game and the team of a study (the team's sharing and strength are
    the study's, so only its seats count here).

    Raises
    ------
    SpecError
        If the game already colludes, or the team does not fit it.
    """
    g0 = load_rows(spec) if isinstance(spec, str) else spec
    if any(k in g0.params for k in COLLUSION_KEYS):
        raise SpecError("give the game without collusion parameters; use --team")
    t = Team.of(team)
    t.check(g0.n_players)
    return g0, t


@dataclass(frozen=True)
class TeamSolve:
    """A solve of a collusion game through its merged team, when it has one.

    Attributes
    ----------
    profile
        Float profile of the game asked for (the members' seats and labels).
    result
        The run (its ``solved_as``: the merged team's game for a strong win-sharing
        team with ``merged=True``).
    merged
        Whether the merged team's game was solved.
    """

    profile: Profile
    result: Result
    merged: bool


def solve_team_game(
    game: Game,
    method: str = "cfr+",
    merged: bool = True,
    progress: Callable[[int, float | None], None] | None = None,
    **budget: object,
) -> TeamSolve:
    """Solve ``game`` (its merged team's game when it has one and ``merged``) and express
    the equilibrium on ``game``'s seats as a float profile (:func:`toypoker.solvers.solve`
    with ``merge=merged``; no team evaluation).

    Parameters
    ----------
    game
        Any game; a strong win-sharing collusion game (``merge=false``) is solved as the
        two-sided game of its merged team: the team's value is then unique.
    method, progress, budget
        As in :func:`toypoker.solvers.solve` (``iterations``, ``target_nash_conv``...).
    merged
        ``False``: solve ``game`` as it is.

    Returns
    -------
    TeamSolve
    """
    merge = merged and merged_spec(game.spec) is not None  # merge=True needs such a team
    res = solve(game, method, progress=progress, merge=merge, team=False, **budget)  # type: ignore[arg-type]
    prof = res.profile.to_float() if res.profile.exact else res.profile
    return TeamSolve(prof, res, res.solved_as is not None)


def study_games(spec: str, n: int, team: tuple[int, ...], sharing: str) -> list[str]:
    """The ``2 n + 1`` games of a study, in solving order (the keys they are stored
    under, :func:`~toypoker.collusion.store.store_key`): the no-collusion game ``spec``
    (canonical), then per placement of ``team`` the strong and the weak collusion game."""
    games = [store_key(spec)]
    for members in placements(n, team):
        games += [store_key(collusion_spec(spec, members, sharing, s)) for s in STRENGTHS]
    return games


def study_how(
    method: str,
    iterations: int | None,
    target_nash_conv: float | None,
    merged: bool,
    n_games: int,
) -> str:
    """The solver and budget of a study as its :attr:`CollusionProfiles.how` says them
    (a sampling method's seeds included: game ``k`` of :func:`study_games` is solved
    with seed ``k``)."""
    how = f"{method}, at most {iterations} iterations" if iterations else method
    if get_method(method).stochastic:
        how += f", seeded 0 to {n_games - 1} by game"
    if target_nash_conv is not None:
        how += f", stopped at NashConv {target_nash_conv:g}"
    if merged:
        how += STRONG_MERGED
    return how


def _check_solved(
    solved: CollusionProfiles, spec: str, team: tuple[int, ...], sharing: str, how: str
) -> None:
    """Refuse (one line) stored equilibria that are not of this study, or, when some are
    missing, were solved with another method or budget than ``how`` (a table mixing two
    budgets would equal no uninterrupted run)."""
    if (solved.spec, solved.team, solved.sharing) != (spec, team, sharing):
        raise ToypokerError(
            f"the stored equilibria are of {solved.spec} with team {seat_digits(solved.team)} "
            f"({solved.sharing} sharing), not of {spec} with team {seat_digits(team)} "
            f"({sharing} sharing)"
        )
    if not solved.complete and solved.how != how:
        raise ToypokerError(
            f"the stored equilibria ({solved.progress()}) were solved with {solved.how}, "
            f"not {how}: solve the missing ones with the same method and budget"
        )


def solve_collusion_profiles(
    spec: str,
    team: tuple[int, ...],
    sharing: str = "win",
    method: str = "cfr+",
    iterations: int | None = 1000,
    target_nash_conv: float | None = None,
    strong_solve: str = "merged",
    progress: Callable[[str], None] | None = None,
    solved: CollusionProfiles | None = None,
    checkpoint: Callable[[CollusionProfiles], None] | None = None,
) -> CollusionProfiles:
    """Solve the ``2 n + 1`` games behind :func:`collusion_table` not yet ``solved``.

    Parameters
    ----------
    spec, team, sharing
        As in :func:`collusion_table`.
    method, iterations, target_nash_conv
        The solver, its iteration cap (``None``: none) and NashConv target (checked on
        the game solved: the merged one for strong collusion with ``"merged"``).  A
        sampling method solves game ``k`` of :func:`study_games` with seed ``k``: every
        solve is deterministic, so a resumed study equals an uninterrupted one.
    strong_solve
        One of :data:`STRONG_SOLVES`; ``"merged"`` applies to win sharing only (pot
        sharing does not give the members one payoff), else ``"members"`` is used.
    progress
        Optional callable ``progress(message)`` before each solve.
    solved
        This study's equilibria solved already (an interrupted run's: some
        :attr:`~CollusionProfiles.missing`), kept; only the games they lack are solved.
    checkpoint
        Optional callable ``checkpoint(profiles)`` after each solve, with the equilibria
        solved so far (incomplete until the last): e.g. to save them.

    Returns
    -------
    CollusionProfiles
        Complete.  The games are compiled one at a time (only one is held in memory);
        each equilibrium's NashConv (and a strong team's joint gain) is evaluated on its
        n-player game and recorded (:attr:`CollusionProfiles.measured`).

    Raises
    ------
    KeyboardInterrupt
        When a Ctrl-C or SIGTERM stopped a solve: an unfinished equilibrium is never
        returned as solved (those finished before were given to ``checkpoint``).
    ToypokerError
        For bad options; ``solved`` of another study or, incomplete, of another ``how``.
    """
    if strong_solve not in STRONG_SOLVES:
        raise ToypokerError(f"strong_solve must be one of {', '.join(STRONG_SOLVES)}")
    if iterations is None and target_nash_conv is None:
        raise ToypokerError("give an iteration cap or a NashConv target")
    merged = strong_solve == "merged" and sharing == "win"
    g0, t = base_and_team(spec, team)
    games = study_games(g0.spec, g0.n_players, t.seats, sharing)
    how = study_how(method, iterations, target_nash_conv, merged, len(games))
    if solved is not None:
        _check_solved(solved, g0.spec, t.seats, sharing, how)
        if solved.complete:
            return solved
    base = solved or CollusionProfiles(g0.spec, t.seats, sharing, how, {}, {}, {})
    found = {s: (base.sigma[s], base.fingerprints[s], base.measured.get(s)) for s in base.sigma}
    first: Game | None = g0 if games[0] not in found else None  # compiled already
    del g0
    for k, key in enumerate(games):
        if key in found:
            continue
        g = first if k == 0 and first is not None else load_rows(key)
        first = None
        if progress is not None:
            progress(f"{method} {g.spec}")
        prof = _equilibrium(g, method, merged, k, iterations, target_nash_conv)
        found[key] = (by_label(g, prof.probs), fingerprint(g), measure(g, prof))  # at once
        del g, prof
        if checkpoint is not None:
            checkpoint(_so_far(base, games, found))
    return _so_far(base, games, found)


def _so_far(
    base: CollusionProfiles,
    games: list[str],
    found: dict[str, tuple[np.ndarray, str, Measured | None]],
) -> CollusionProfiles:
    """``base`` with the equilibria ``found`` (vector, fingerprint, what it reached), in
    the solving order of ``games``, the others :attr:`~CollusionProfiles.missing`."""
    done = [s for s in games if s in found]
    return replace(
        base,
        sigma={s: found[s][0] for s in done},
        fingerprints={s: found[s][1] for s in done},
        measured={s: m for s in done if (m := found[s][2]) is not None},
        missing=tuple(s for s in games if s not in found),
    )


def _equilibrium(
    g: Game,
    method: str,
    merged: bool,
    k: int,
    iterations: int | None,
    target_nash_conv: float | None,
) -> Profile:
    """The equilibrium of ``g``, game ``k`` of its study (:func:`solve_team_game`; a
    sampling method seeded ``k``).

    Raises
    ------
    KeyboardInterrupt
        When a Ctrl-C or SIGTERM stopped the solve (never stored as if solved).
    """
    budget: dict[str, object] = {"iterations": iterations, "target_nash_conv": target_nash_conv}
    if get_method(method).stochastic:
        budget["seed"] = k
    sol = solve_team_game(g, method, merged, **budget)
    if sol.result.stopped is Stopped.INTERRUPTED:
        raise KeyboardInterrupt
    return sol.profile


STRONG_MERGED = "; strong collusion: the merged team's equilibrium"
"""The end of a ``how`` whose strong profiles are the merged game's: said only under the
strong table (:func:`toypoker.cli.collusion.table7_tables`)."""


def collusion_table_from(
    profiles: CollusionProfiles,
    team_values: bool = True,
    progress: Callable[[str], None] | None = None,
    game: Game | None = None,
    team_optimal: bool = False,
    team_seconds: float | None = 60.0,
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
    team_optimal
        Also each placement's team-optimal value (:func:`team_optimal_values`; needs
        one outsider), each weak TMECor stopped after ``team_seconds``.
    team_seconds
        See ``team_optimal``.

    Returns
    -------
    CollusionTable
        NashConv and best responses exact (float) on the n-player games.
    """
    if not profiles.complete:
        raise ToypokerError(
            f"only {profiles.progress()} equilibria are stored (an interrupted solve): no "
            "table from part of them; solve the missing ones first "
            "(solve_collusion_profiles(..., solved=profiles))"
        )
    g0, t = base_and_team(profiles.spec if game is None else game, profiles.team)
    n, sharing, team = g0.n_players, profiles.sharing, t.seats
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
            gc = load_rows(spec)
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
                gm = load_rows(collusion_spec(g0.spec, members, sharing, strength, merge=True))
                lead = 0 if members[0] == 0 else 1  # the team sits at its lowest member's place
                high = best_response(gm, transfer_profile(pc, gm), lead).value
                brackets.append((members, -float(ev.br_values[out]), float(high)))
                del gm
            del gc, pc
    payoffs = {key: tuple(float(x) / n for x in v) for key, v in sums.items()}
    optimal = team_optimal_values(g0, team, sharing, team_seconds, progress) if team_optimal else ()
    return CollusionTable(g0.spec, team, sharing, profiles.how, payoffs, worst,
                          tuple(brackets), optimal)  # fmt: skip


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
