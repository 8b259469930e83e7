"""The one run of a method on a game: :func:`solve`, returning a :class:`~toypoker.result.Result`
(a strong team solved on its merged game and mapped back, a team's joint gain added:
:mod:`toypoker.teams.results`).

Solvers floor: may import the game, the catalogue, profiles, results, the engines;
never a study or a front end.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path

from toypoker.checks import check_number, check_path
from toypoker.engines.registry import engine_of
from toypoker.errors import Interrupted, ToypokerError
from toypoker.game import Game, check_game
from toypoker.games import load_rows
from toypoker.games.team_transform import Team, agreeing_team, merged_spec
from toypoker.result import Result, Stopped, TracePoint
from toypoker.solvers.checkpoint import load_checkpoint, refuse_reuse
from toypoker.solvers.registry import get_method, parse_options
from toypoker.solvers.solver import Solver, default_iterations
from toypoker.teams.evaluation import TEAM_MILP_SECONDS
from toypoker.teams.results import on_members, vector_team_gain, with_team_gain


def solve(
    game: Game,
    method: str = "cfr+",
    iterations: int | None = None,
    target_nash_conv: float | None = None,
    seconds: float | None = None,
    target_max_gain: float | None = None,
    check_every: int | None = None,
    seed: int | None = None,
    progress: Callable[[int, float | None], None] | None = None,
    checkpoint: str | Path | None = None,
    checkpoint_seconds: float = 60.0,
    resume: str | Path | None = None,
    overwrite: bool = False,
    team: Team | tuple[int, ...] | bool | None = None,
    merge: bool | None = None,
    milp_seconds: float = TEAM_MILP_SECONDS,
    threads: int | None = None,
    cluster: object = None,
    workers: int | None = None,
    **options: object,
) -> Result:
    """Solve ``game`` with ``method`` until a budget or a target is met.

    Parameters
    ----------
    game
        A game (:func:`toypoker.load_game`), on either layout (on hand vectors: the
        CFR family, ``fp``, ``pcs-cfr+`` and ``lp``; a team's evaluation needs the deal
        table).
    method
        A name in :data:`METHODS` (``"cfr+"`` by default).
    iterations
        Maximum iterations.  Not given: 1000 when there is neither a target nor
        ``seconds``; with a target, no limit -- the run goes on until the target (or
        ``seconds``) is met, as the command line's does.  Budgets bound the steps: an
        exact method's single step always fits.
    target_nash_conv
        Stop as soon as a check finds NashConv at or below this.
    seconds
        Stop after this much time spent iterating.
    target_max_gain
        Stop as soon as every player's best-response gain is at or below this
        (Ullman's ``eps`` for fictitious play).
    check_every
        Evaluate NashConv every this many iterations (default: geometrically
        spaced, 25 checks a decade, 10 on hand vectors; with ``target_nash_conv``
        one more aimed where the target is predicted, :class:`.solver.Checks`).
    seed
        Seed of a sampling method (recorded in the result; drawn from the OS
        when not given).  Deterministic methods refuse a seed.
    progress
        Called as ``progress(iteration, nash_conv_or_None)`` after each step.
    checkpoint, checkpoint_seconds
        Write the full state atomically to this ``.npz`` every so many seconds,
        on Ctrl-C and at the end.
    resume
        Continue from a checkpoint (its method, options and seed): the run ends
        exactly where an uninterrupted run with the same arguments would (a checkpoint
        past ``iterations`` is returned as it is, with a ``UserWarning``).
    overwrite
        Replace an existing ``checkpoint`` file.  Without it (and without ``resume``)
        a ``checkpoint`` that exists is refused in one line: it holds another run's
        work.
    team
        Evaluate this team's joint best-response gain on the result: a
        :class:`~toypoker.games.team_transform.Team`, seat digits as in a spec (``"13"``:
        seats 1 and 3) or 0-based seats (``(0, 2)``); ``None``: the game's own collusion
        team, if any; ``False``: none.  A strong win-sharing team without ``merge`` in
        the spec is solved as its merged team (budgets and targets then apply to the
        merged game).  Evaluated in floats (``toypoker
        verify`` certifies exactly).  With ``method="tmecor"``: the team playing
        against the one outsider (``None``: the spec's team).
    merge
        ``True``: solve a strong win-sharing team's merged game even with
        ``merge=false`` in the spec; ``False``: the game as it is; ``None``: as the
        spec says (merged unless ``merge=false``).
    milp_seconds
        Time limit of the team evaluation's best-response MILP (a weak team;
        :func:`toypoker.teams.evaluation.team_evaluation`).
    threads
        Threads of the vector layout's kernels: its public subtrees run in parallel
        (``None``, the default: every core; the numbers are the same on any count).
    cluster, workers
        Shard the iterations over Dask workers: a ``distributed.Client``, ``"local"``
        (a LocalCluster of ``workers`` processes, default one a CPU) or a ``tcp://``
        scheduler address.  The CFR family on hand vectors; every iteration equals the
        in-process run's (:mod:`toypoker.engines.sharded`).  A worker lost mid-run stops
        the run with :class:`~toypoker.engines.sharded.ShardLostError`, the state before
        the lost batch written to ``checkpoint``.
    **options
        ``engine="reference"`` runs the readable numpy passes of the game's layout
        instead of its fused kernels (:class:`~toypoker.solvers.solver.Solver`'s
        ``engine``); the rest are the method's typed options, e.g. the CFR schedule
        (``floor``, ``alpha``, ``beta``, ``gamma``, ``alternating``, ``delay``,
        ``output``), ``epsilon``
        for outcome sampling, ``pot``/``pot_min`` for ``enumerate``.  Unknown
        options and options the method does not read are errors.

    Returns
    -------
    Result
        Frozen; ``exact``/``certified``/``value_exact`` for ``lp``,
        ``equilibria``/``variables`` for ``enumerate``, ``bracket`` for ``tmecor``;
        ``team`` and ``solved_as`` for a game with a team.

    Raises
    ------
    toypoker.Interrupted
        When a Ctrl-C or SIGTERM stops the run (at the end of an iteration; its
        ``checkpoint`` written): a :class:`KeyboardInterrupt`, so the calling script
        stops too, carrying the result so far as ``.result`` (``stopped="interrupted"``).

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=3,cards=4,team=23,sharing=win)")
    >>> r = tp.solve(g, "tmecor")
    >>> r.bracket.certified, r.bracket.lower == r.bracket.upper
    (True, True)
    """
    milp_seconds = check_number(milp_seconds, "milp_seconds", positive=True)
    iterations = default_iterations(iterations, target_nash_conv, target_max_gain, seconds)
    refuse_reuse(checkpoint, resume, overwrite)  # another run's work is never replaced silently
    check_game(game)
    method = get_method(method).name  # a name, or one clear error (before any comparison)
    if method == "tmecor":  # the team is the method's: no merging, no team evaluation
        if team is not None and team is not False and team is not True:
            options = {**options, "team": team}
        res = _run(game, method, iterations, target_nash_conv, seconds, target_max_gain,
                   check_every, seed, progress, checkpoint, checkpoint_seconds, resume,
                   options, threads, cluster, workers)  # fmt: skip
        return _heard(res)
    if "deals" not in engine_of(game).provides:  # a team's evaluation and merged game read them
        if team not in (None, False) or merge:
            raise ToypokerError(
                f"a team's evaluation reads the deal table: load the game with layout='rows' "
                f"(tp.load_game({game.spec!r}, layout='rows'))"
            )
        res = _run(game, method, iterations, target_nash_conv, seconds, target_max_gain,
                   check_every, seed, progress, checkpoint, checkpoint_seconds, resume,
                   options, threads, cluster, workers)  # fmt: skip
        return vector_team_gain(game, _heard(res), team, milp_seconds)
    if team not in (None, True, False):
        team = agreeing_team(game.params, team)
    merged = None if merge is False else merged_spec(game.spec, default_only=merge is None)
    if merge is True and merged is None and not game.params.get("merge"):
        raise ToypokerError(
            f"merge=True is for a strong win-sharing team; {game.spec} has none "
            "(give team=..,strong=true in the spec)"
        )
    solved = load_rows(merged) if merged is not None else game
    res = _run(solved, method, iterations, target_nash_conv, seconds, target_max_gain,
               check_every, seed, progress, checkpoint, checkpoint_seconds, resume,
               options, threads, cluster, workers)  # fmt: skip
    if merged is not None:
        res = on_members(res, game)
    _heard(res)  # an interrupted run is not evaluated further: the caller hears it now
    return with_team_gain(game, res, team, milp_seconds)


def _heard(res: Result) -> Result:
    """``res``; or, when a Ctrl-C or SIGTERM stopped it, :class:`~toypoker.Interrupted`
    carrying it: the caller's script stops too (a loop of solves does not run on)."""
    if res.stopped is not Stopped.INTERRUPTED:
        return res
    raise Interrupted(
        res, f"{res.method} stopped by an interrupt after {res.iterations} iterations"
    )


def _run(
    game: Game,
    method: str,
    iterations: int | None,
    target_nash_conv: float | None,
    seconds: float | None,
    target_max_gain: float | None,
    check_every: int | None,
    seed: int | None,
    progress: Callable[[int, float | None], None] | None,
    checkpoint: str | Path | None,
    checkpoint_seconds: float,
    resume: str | Path | None,
    options: dict[str, object],
    threads: int | None = None,
    cluster: object = None,
    workers: int | None = None,
) -> Result:
    """One run of ``method`` on ``game`` (the body of :func:`solve`)."""
    m = get_method(method)
    if resume is None:
        solver = Solver(game, method, seed=seed, threads=threads, cluster=cluster,
                        workers=workers, **options)  # fmt: skip
        trace: tuple[TracePoint, ...] = ()
    else:
        ck = load_checkpoint(check_path(resume, "resume"))
        if ck.method != m.name:
            raise ToypokerError(f"checkpoint {resume} is for method {ck.method}, not {m.name}")
        if seed is not None and seed != ck.seed:
            raise ToypokerError(f"checkpoint {resume} was run with seed {ck.seed}, not {seed}")
        if options and parse_options(m, options) != parse_options(
            m, {k: getattr(ck.options, k) for k in options}
        ):  # name the options that differ, each with both values (not a cut repr)
            mine = parse_options(m, options)
            differ = [k for k in options if getattr(mine, k) != getattr(ck.options, k)]
            theirs = ", ".join(f"{k}={getattr(ck.options, k)!r}" for k in differ)
            given = ", ".join(f"{k}={getattr(mine, k)!r}" for k in differ)
            raise ToypokerError(f"checkpoint {resume} was run with {theirs}, not {given}")
        solver = Solver.from_checkpoint(ck, game, threads=threads, cluster=cluster,
                                        workers=workers)  # fmt: skip
        trace = ck.trace
        done = ck.state.iteration
        if iterations is not None and done > iterations:  # a run cannot go back
            warnings.warn(
                f"checkpoint {resume} has {done} iterations already, iterations={iterations} "
                f"asks for fewer: nothing was run, and the result is its {done} iterations",
                UserWarning,
                stacklevel=3,
            )
    with solver:
        return solver.run(
            iterations,
            target_nash_conv=target_nash_conv,
            seconds=seconds,
            target_max_gain=target_max_gain,
            check_every=check_every,
            progress=progress,
            checkpoint=checkpoint,
            checkpoint_seconds=checkpoint_seconds,
            trace=trace,
        )


__all__ = ["solve"]
