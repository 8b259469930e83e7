"""The team-maxmin equilibrium with correlation (TMECor) of a team of players against one
outsider, by column generation, with an exact bracket on the team's value.

Before the game the team draws one joint pure plan from an agreed distribution
``lambda``; the outsider then best-responds.  The team's value is
``max_lambda min_y sum_k lambda_k c_k^T y`` over the outsider's sequence-form plans
``y`` (``F y = f, y >= 0``), ``c_k`` the team's expected payoff per outsider sequence
when the team plays plan ``k``.  Following Celli and Gatti (2018, "Computational
results for extensive-form adversarial team games", the hybrid column generation;
also Farina, Celli, Gatti and Sandholm 2018, "Ex ante coordination and collusion in
zero-sum multi-player extensive-form games") a master LP over the plans found so far::

    max_{z, lambda}  f^T z   s.t.  F^T z - sum_k lambda_k c_k <= 0,  sum_k lambda_k = 1

(HiGHS) gives the team's mixture and, as its duals, the outsider's plan ``y``; the
oracle is the team's joint best response to ``y``
(:func:`toypoker.teams.evaluation.team_best_response`: backward induction for a team
that sees its cards, otherwise the members' exact joint response: enumeration, a certified
LP or a MILP, the first that answers), added as a column while it beats the master's
value.  For a team that does not see its cards the default oracle is hybrid: the
members' alternating best responses
(:func:`toypoker.teams.response.joint_plan_alternating`, started from the last plans)
give the next column while they beat the master's value, and the exact response is
called only when they do not -- to find a better plan or certify that none exists.  For a weak team
of two on games whose MILP is out of reach (3P-MMH), ``oracle="relaxation"`` solves the
lifted model's LP over the relevant pairs of sequences only
(:mod:`toypoker.teams.relaxation`): its rounded plan, polished by alternating best
responses, is the next column, and its optimum, certified in integers from its duals,
an upper end (``relaxation_seconds``: each LP by HiGHS's first-order PDLP, stopped at a
time limit, for LPs the interior point does not finish in minutes; any iterate's
multipliers certify).  Against any outsider strategy the team seeing its cards does at
least as well (:mod:`toypoker.teams.bounds`: a cheap exact upper end for a weak team, at
best the strong team's value).

The bracket is exact.  ``lower``: the rationalised mixture's value against the
outsider's exact best response (a backward induction over the outsider's sequences in
Fractions) -- what the team guarantees.  ``upper``: the team's exact best response
value against the rationalised outsider strategy -- what the outsider guarantees (for
a weak team: the exact value of the exact response's plan, a plan optimal in floating
point; one found below ``lower`` is provably not optimal and is dropped).  On
converging, the master LP's exact optimum on the face its float optimum lies on
(:mod:`toypoker.solvers.exact_face`) is tried first, then rounded floats.  The team's
exact columns are sums of integers (each terminal row's weight times the team's
payoff over one common denominator) and an exact plan value is its column times the
outsider's realization plan, so the exact side costs seconds on 3P-SMH, not minutes.
``lower == upper`` is the exact TMECor value.

The bracket is anytime: stopped early (time budget, column cap, Ctrl-C) ``lower`` is
the current mixture against the outsider's exact best response and ``upper`` the
smallest exact value of the team's best response against any outsider strategy the
master produced so far -- both remain valid bounds on the TMECor value.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.checks import check_int, check_number
from toypoker.engines import rows_of
from toypoker.engines.rows.values import (
    counterfactual_reach,
    edge_probabilities,
    reaches,
)
from toypoker.errors import ToypokerError
from toypoker.game import Game, check_game
from toypoker.games.team_transform import Team, seat_digits
from toypoker.interrupts import deferred_interrupts
from toypoker.profile import Profile
from toypoker.solvers.exact_face import exact_master
from toypoker.teams.evaluation import team_best_response
from toypoker.teams.forms import Columns, Outsider, master_lp
from toypoker.teams.relaxation import certified_bound, pair_model, relaxed_response
from toypoker.teams.response import joint_plan_alternating
from toypoker.teams.transfer import sees_together

__all__ = ["TMECor", "tmecor"]

DENOMINATORS = (10**2, 10**4, 10**6, 10**9, 10**12)
"""Denominator limits tried when the LP's floats are rationalised (the best bracket wins)."""


@dataclass(frozen=True)
class TMECor:
    """A team's optimal correlated plan against one outsider, with an exact bracket.

    Attributes
    ----------
    spec
        The game.
    team, outsider
        0-based seats.
    lower, upper
        Exact bracket on the team's (summed) value: ``lower`` the team's guarantee
        with ``weights`` over ``plans``, ``upper`` the outsider's guarantee with
        ``outsider``'s strategy in ``profile``.
    plans
        The joint pure plans in the mixture (0/1 vectors over the game's actions).
    weights
        Their exact probabilities (sum 1).
    profile
        The outsider's exact strategy (the team's infosets uniform: placeholders).
    columns
        Plans generated in all.
    seconds
        Wall time.
    how
        The oracle: ``"backward induction"`` (a team that sees its cards), ``"joint
        response, 7 by enumeration, 2 by certified LP"`` (a weak team's exact oracle
        and what answered its calls, :func:`toypoker.teams.evaluation.team_best_response`),
        or
        the heuristic oracle and where the upper end comes from.
    stopped
        Why the generation stopped: ``"converged"`` (no plan beats the master's value
        by more than the tolerance), ``"heuristic"`` (``oracle="alternating"`` or
        ``"relaxation"``: the oracle's plan is no better), ``"seconds"`` (time budget),
        ``"columns"`` (cap) or ``"interrupted"`` (Ctrl-C or SIGTERM).  The bracket is
        valid in every case.
    """

    spec: str
    team: tuple[int, ...]
    outsider: int
    lower: Fraction
    upper: Fraction
    plans: tuple[np.ndarray, ...]
    weights: tuple[Fraction, ...]
    profile: Profile
    columns: int
    seconds: float
    how: str
    stopped: str = "converged"

    @property
    def exact(self) -> bool:
        """The bracket has width 0: ``lower`` is the TMECor value."""
        return self.lower == self.upper

    @property
    def certified(self) -> bool:
        """The bracket's ends meet (:attr:`exact`): ``lower`` is the exact TMECor value."""
        return self.exact

    @property
    def width(self) -> Fraction:
        """``upper - lower``."""
        return self.upper - self.lower

    def to_json_dict(self) -> dict[str, object]:
        """As JSON data (exact numbers as ``"p/q"``)."""
        return {
            "game": self.spec,
            "team": seat_digits(self.team),
            "outsider": self.outsider + 1,
            "lower": str(self.lower),
            "upper": str(self.upper),
            "lower_float": float(self.lower),
            "upper_float": float(self.upper),
            "exact": self.exact,
            "plans": len(self.plans),
            "columns": self.columns,
            "seconds": self.seconds,
            "oracle": self.how,
            "width": str(self.width),
            "width_float": float(self.width),
            "stopped": self.stopped,
        }


def tmecor(
    game: Game,
    team: Team | tuple[int, ...] | None = None,
    tol: float = 1e-9,
    max_columns: int = 1000,
    seconds: float | None = None,
    progress: Callable[[int, float, float], None] | None = None,
    oracle: str = "hybrid",
    upper_game: Game | None = None,
    start_plans: Sequence[np.ndarray] = (),
    relaxation_seconds: float | None = None,
    more_starts: Callable[[Profile], list[np.ndarray]] | None = None,
) -> TMECor:
    """The team's optimal correlated plan against the one outsider, bracketed exactly.

    Parameters
    ----------
    game
        A game with exactly one player outside ``team``.
    team
        The team (default: the game's collusion team): a
        :class:`~toypoker.games.team_transform.Team`, seat digits as in a spec (``"13"``:
        seats 1 and 3) or 0-based seats (``(0, 2)``).
    tol
        Stop generating plans when the oracle's best response beats the master's
        value by at most this.
    max_columns
        Cap on the plans generated.
    seconds
        Time budget: generation stops after the first oracle call past it, with the
        bracket of the plans found so far.
    progress
        Called after each oracle call with the plans generated so far, the master's
        value and the smallest exact oracle value so far (floats: the bracket's ends
        in the making; ``inf`` before the first exact oracle call).
    oracle
        For a team that does not see its cards: ``"hybrid"`` (the members'
        alternating best responses, from the last plans found, give the next plan
        while they beat the master's value; the exact joint response only when they
        do not, to certify), ``"exact"`` (the exact response at every step), or
        ``"alternating"`` (never the exact response while generating: the lower end
        stays exact, the upper end is the last exact oracle value or, without one,
        one final exact response -- for games where it is out of reach, stop with
        ``seconds`` and give ``upper_game``), or
        ``"relaxation"`` (a team of two: the relevant-pairs LP's plan, polished by
        alternating best responses; the upper end the smallest LP bound, certified).
    upper_game
        With ``oracle="alternating"``: the same game with the team seeing its cards
        (strong collusion: same rows, same team payoff), whose team's exact best
        response bounds the weak team's from above -- the upper end then needs no
        exact weak response (it is looser: the value of seeing the partner's cards).
    start_plans
        Joint pure plans to start the master with (a warm start: e.g. ``plans`` of
        an earlier result on the same game and team, saved with ``numpy.save``).
    relaxation_seconds
        With ``oracle="relaxation"``: solve each relevant-pairs LP by HiGHS's PDLP
        stopped after this many seconds (LPs too big for the interior point: 3P-MMH)
        instead of the interior point; its plan and certified multipliers are used
        the same way.
    more_starts
        With the alternating or hybrid oracle: more start plans for the members'
        alternating best responses at each step, from the outsider's float profile
        (e.g. :func:`toypoker.teams.bounds.projected_starts`).

    Returns
    -------
    TMECor
        ``lower == upper`` when the rationalised solution is exact.

    Raises
    ------
    ToypokerError
        Without a team, with more than one outsider, a budget out of range, or if an LP
        fails.
    """

    start = time.perf_counter()
    game = rows_of(check_game(game), "TMECor")  # plans over the deals: the deal table
    if upper_game is not None:
        upper_game = rows_of(check_game(upper_game, "upper_game"), "TMECor")
    max_columns = check_int(max_columns, "max_columns", low=1)
    tol = check_number(tol, "tol", nonnegative=True)
    for name, x in (("seconds", seconds), ("relaxation_seconds", relaxation_seconds)):
        if x is not None:
            check_number(x, name, nonnegative=name == "seconds", positive=name != "seconds")
    seats, o = _team_and_outsider(game, team)
    weak = not sees_together(game, seats)  # else one player: the exact oracle is cheap
    if oracle not in ("hybrid", "exact", "alternating", "relaxation"):
        raise ToypokerError(f"unknown TMECor oracle {oracle!r}")
    oracle = "exact" if not weak and oracle == "alternating" else oracle
    if oracle == "relaxation" and (not weak or len(seats) != 2):
        raise ToypokerError("TMECor: the relaxation oracle is for a weak team of two")
    if upper_game is not None and (oracle != "alternating" or not weak):
        raise ToypokerError("TMECor: upper_game is for oracle='alternating' on a weak team")
    plans: list[np.ndarray] = [np.asarray(x, dtype=np.int8) for x in start_plans]
    for x in plans:
        if x.shape != (game.n_sigma,):
            raise ToypokerError(f"TMECor: a start plan of {len(x)} actions, not {game.n_sigma}")
    run = _Oracles(game, seats, o, weak, oracle, upper_game, plans, more_starts,
                   relaxation_seconds)  # fmt: skip
    run.first_plan()
    generated = len(plans) - len(start_plans)  # 0 on a relaxation warm start
    value, zf, lam, y, best, stopped, generated = _generate(
        run, tol, max_columns, seconds, start, progress, generated
    )
    support, best_low, exact_y = _lower_end(run, zf, lam, y, value, stopped)
    best_up = _upper_end(run, best, best_low[0], exact_y, y, stopped)
    return TMECor(
        game.spec, seats, o, best_low[0], best_up[0],
        tuple(plans[j] for j in support), best_low[1], run.outsider_profile(best_up[1]),
        generated, time.perf_counter() - start, run.how(), stopped,
    )  # fmt: skip


def _team_and_outsider(
    game: Game, team: Team | tuple[int, ...] | None
) -> tuple[tuple[int, ...], int]:
    """The team's seats (the game's collusion team by default) and its one outsider."""
    t = Team.of(team) if team is not None else None
    if t is None:
        t = None if game.params.get("merge") else Team.of_params(game.params)
    if t is None:
        raise ToypokerError(f"{game.spec} has no team: give one (e.g. team=(0, 1))")
    t.check(game.n_players)
    outsiders = t.outsiders(game.n_players)
    if len(outsiders) != 1:
        raise ToypokerError(f"TMECor needs one outsider; {game.spec} has {len(outsiders)}")
    return t.seats, outsiders[0]


class _Oracles:
    """One TMECor run's oracles and what they share: the game, the team, the outsider's
    sequence form, the plans found so far (``plans``, appended to in place), what
    answered the exact oracle's calls and the best relaxed bound so far."""

    def __init__(
        self,
        game: Game,
        seats: tuple[int, ...],
        o: int,
        weak: bool,
        oracle: str,
        upper_game: Game | None,
        plans: list[np.ndarray],
        more_starts: Callable[[Profile], list[np.ndarray]] | None,
        relaxation_seconds: float | None,
    ):
        self.game, self.seats, self.weak, self.oracle = game, seats, weak, oracle
        self.upper_game, self.plans = upper_game, plans
        self.more_starts, self.relaxation_seconds = more_starts, relaxation_seconds
        self.out = Outsider(game, (o,))
        self.ft = self.out.constraints()
        self.calls: Counter[str] = Counter()  # what answered the exact oracle's calls
        self.relaxed = oracle == "relaxation"
        self.heuristic = weak and oracle not in ("exact", "relaxation")
        self.u_team = game.term_u[list(seats)].sum(axis=0)
        # oracle="relaxation": the best (smallest) relaxed bound so far, its duals and
        # the exact outsider strategy it answered (certified exactly at the end)
        self.model = pair_model(game, (seats[0], seats[1])) if self.relaxed else None
        self.relaxed_best: list[tuple[float, np.ndarray, dict[int, list[Fraction]]]] = []
        if upper_game is not None:
            self.strong = Columns(upper_game, Outsider(upper_game, (o,)), seats)
            self.label_of = {i.index: upper_game.infoset(i.label).index for i in self.out.infosets}
        self.column = Columns(game, self.out, seats)

    def outsider_profile(self, behaviour: dict[int, list[Fraction]] | None) -> Profile:
        """The outsider's exact strategy (uniform where ``behaviour`` says nothing: the
        team's infosets are placeholders)."""
        game = self.game
        probs = np.empty(game.n_sigma, dtype=object)
        for inf in game.infosets:
            k = len(inf.actions)
            row = behaviour.get(inf.index) if behaviour is not None else None
            probs[inf.offset : inf.offset + k] = row if row is not None else [Fraction(1, k)] * k
        return Profile(game, probs)

    def exact_oracle(self, prof: Profile) -> tuple[np.ndarray, float]:
        br = team_best_response(self.game, prof, self.seats, together=not self.weak)
        self.calls[br.how] += 1
        return br.choice, float(br.value)  # type: ignore[arg-type]

    def team_coef(self, prof: Profile) -> np.ndarray:
        game = self.game
        sigma = np.asarray(prof.probs, dtype=np.float64)
        cf = counterfactual_reach(game, reaches(game, edge_probabilities(game, sigma)), self.seats)
        return cf[game.term_rows] * self.u_team

    def cheap_oracle(self, prof: Profile) -> tuple[np.ndarray, float]:
        extra = self.more_starts(prof) if self.more_starts is not None else []
        return joint_plan_alternating(
            self.game, self.seats, self.team_coef(prof), [*self.plans[-4:], *extra]
        )

    def relaxed_oracle(
        self, prof: Profile, answered: dict[int, list[Fraction]]
    ) -> tuple[np.ndarray, float]:
        """The relaxed LP's plan polished by the members' alternating best responses
        (a lower bound), its optimum kept as an upper end."""
        game, model, secs = self.game, self.model, self.relaxation_seconds
        assert model is not None
        coef = self.team_coef(prof)
        rel = (relaxed_response(game, model, coef) if secs is None
               else relaxed_response(game, model, coef, "pdlp", secs))  # fmt: skip
        if not self.relaxed_best or rel.value < self.relaxed_best[0][0]:
            self.relaxed_best[:] = [(rel.value, rel.duals, answered)]
        return joint_plan_alternating(game, self.seats, coef, [rel.plan, *self.plans[-2:]])

    def exact_best_value(self, behaviour: dict[int, list[Fraction]]) -> Fraction:
        """The team's best-response value against ``behaviour``, exactly: the exact
        oracle's plan valued exactly, or (a team that sees its cards) an exact induction."""
        game, seats, column = self.game, self.seats, self.column
        if self.upper_game is not None:
            return self.strong.best_value({self.label_of[i]: b for i, b in behaviour.items()})
        if self.weak:
            return column.value(self.exact_oracle(self.outsider_profile(behaviour).to_float())[0],
                                behaviour)  # fmt: skip
        if not game.sigma_fixed[np.isin(game.sigma_player, seats)].any():
            return column.best_value(behaviour)
        up = team_best_response(game, self.outsider_profile(behaviour), seats,
                                together=True).value  # fmt: skip
        assert isinstance(up, Fraction)
        return up

    def first_plan(self) -> None:
        """The first column: the oracle's answer to the uniform outsider (none on a
        relaxation warm start: the master starts from the plans given, each LP is
        costly)."""
        first = self.outsider_profile(None).to_float()
        if self.relaxed and self.plans:
            pass  # a warm start
        elif self.relaxed:
            out = self.out
            uniform = {i.index: [Fraction(1, len(i.actions))] * len(i.actions)
                       for i in out.infosets}  # fmt: skip
            self.plans.append(self.relaxed_oracle(first, uniform)[0])
        else:
            oracle = self.cheap_oracle if self.heuristic else self.exact_oracle
            self.plans.append(oracle(first)[0])

    def how(self) -> str:
        """The oracle, for :attr:`TMECor.how`."""
        if self.upper_game is not None:
            return "alternating; upper: team seeing its cards"
        if self.relaxed:
            return "relaxation; upper: relevant-pairs LP bound, certified"
        if self.weak:
            return "joint response, " + (
                ", ".join(f"{n} by {what}" for what, n in self.calls.most_common())
                or "no exact call"
            )
        return "backward induction"


def _generate(
    run: _Oracles,
    tol: float,
    max_columns: int,
    seconds: float | None,
    start: float,
    progress: Callable[[int, float, float], None] | None,
    generated: int,
) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, tuple | None, str, int]:
    """The column generation: the master LP over the plans so far, the oracle's answer
    to its outsider added while it beats the master's value.  ``(value, zf, lam, y,
    best, stopped, generated)``: the last master's value and solution, the best upper
    end so far -- the oracle's (float) value, its plan and the exact outsider strategy
    it answered (the plan is that strategy's best response) -- and why it stopped."""
    plans, oracle, relaxed = run.plans, run.oracle, run.relaxed
    cols = [run.column(x) for x in plans]
    best: tuple[float, np.ndarray, dict[int, list[Fraction]]] | None = None
    stopped = "converged"
    with deferred_interrupts() as flag:
        while True:
            value, zf, lam, y = master_lp(run.ft, cols)
            if flag.requested:
                stopped = "interrupted"
                break
            answered = run.out.behaviour(y, 10**12)
            prof = run.outsider_profile(answered).to_float()
            choice, br = run.cheap_oracle(prof) if run.heuristic else (None, -np.inf)
            if relaxed:
                choice, br = run.relaxed_oracle(prof, answered)
                if progress is not None:
                    progress(generated, value, run.relaxed_best[0][0])
            elif br <= value + tol and oracle != "alternating":
                choice, br = run.exact_oracle(prof)
                if best is None or br < best[0]:
                    best = (br, choice, answered)
            if progress is not None and not relaxed:
                progress(generated, value, np.inf if best is None else best[0])
            over = seconds is not None and time.perf_counter() - start > seconds
            if br <= value + tol:
                stopped = (
                    "converged" if oracle not in ("alternating", "relaxation") else "heuristic"
                )
                break
            if flag.requested or over or generated >= max_columns:
                stopped = "interrupted" if flag.requested else "seconds" if over else "columns"
                break
            plans.append(choice)
            cols.append(run.column(choice))
            generated += 1
    return value, zf, lam, y, best, stopped, generated


def _lower_end(
    run: _Oracles,
    zf: np.ndarray,
    lam: np.ndarray,
    y: np.ndarray,
    value: float,
    stopped: str,
) -> tuple[list[int], tuple[Fraction, tuple[Fraction, ...]], np.ndarray | None]:
    """``(support, (lower, weights), exact_y)``: the plans in the mixture, the best
    rationalisation of their weights (the master's exact optimum on its float optimum's
    face, then rounded floats) with the team's exact guarantee, and the exact master's
    outsider plan (``None`` when it was not tried or failed)."""
    out, plans = run.out, run.plans
    support = [j for j in range(len(plans)) if lam[j] > 1e-12]
    exact_cols = {j: run.column(plans[j], exact=True) for j in support}
    exact_w, exact_y = (
        exact_master(run.ft, [exact_cols[j] for j in support], zf, lam[support], y, value)
        if stopped in ("converged", "heuristic")
        else (None, None)
    )
    candidates = [] if exact_w is None else [exact_w]
    candidates += [[Fraction(float(lam[j])).limit_denominator(limit) for j in support]
                   for limit in DENOMINATORS]  # fmt: skip
    best_low: tuple[Fraction, tuple[Fraction, ...]] | None = None
    for w in candidates:
        total = sum(w, Fraction(0))
        if total <= 0:
            continue
        w = [x / total for x in w]
        low = out.guarantee([exact_cols[j] for j in support], w)
        if best_low is None or low > best_low[0]:
            best_low = (low, tuple(w))
    assert best_low is not None
    return support, best_low, exact_y


def _upper_end(
    run: _Oracles,
    best: tuple[float, np.ndarray, dict[int, list[Fraction]]] | None,
    low: Fraction,
    exact_y: np.ndarray | None,
    y: np.ndarray,
    stopped: str,
) -> tuple[Fraction, dict[int, list[Fraction]]]:
    """The upper end and the exact outsider strategy it is the team's best response
    value against.  An LP/MILP plan is optimal in floating point only; one worth less
    than the lower end ``low`` is provably not optimal (a best response's value is at
    least the game's value) and is not used."""
    out, column, relaxed = run.out, run.column, run.relaxed
    best_up: tuple[Fraction, dict[int, list[Fraction]]] | None = None
    if best is not None:
        # the best oracle answer so far, valued exactly: no further oracle call
        up = column.value(best[1], best[2])
        best_up = (up, best[2]) if up >= low else None
    tries = [] if exact_y is None or relaxed else [out.exact_behaviour(exact_y)]
    if relaxed:
        if run.relaxed_best:  # the best relaxed bound, certified in integers
            _, duals, answered = run.relaxed_best[0]
            num, den = column.exact_coefficients(answered)
            best_up = (certified_bound(run.model, duals, num, den), answered)
    elif run.upper_game is not None:
        tries += [out.grid_behaviour(y)]
    elif stopped == "converged":
        tries += [out.behaviour(y, limit) for limit in DENOMINATORS]
    elif best_up is None:  # stopped before an exact oracle answer
        tries += [out.behaviour(y, 10**12)]
    for behaviour in tries:
        if best_up is not None and best_up[0] == low:
            break
        up = run.exact_best_value(behaviour)
        if up >= low and (best_up is None or up < best_up[0]):
            best_up = (up, behaviour)
    if best_up is None:
        raise ToypokerError("TMECor: no exact upper end (every oracle plan below the lower)")
    return best_up
