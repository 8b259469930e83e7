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
(:func:`toypoker.evaluate.team_best_response`: backward induction for a team that
sees its cards, a MILP otherwise), added as a column while it beats the master's
value.  For a team that does not see its cards the default oracle is hybrid: the
members' alternating best responses
(:func:`toypoker.team_response.joint_plan_alternating`, started from the last plans)
give the next column while they beat the master's value, and the MILP is called only
when they do not -- to find a better plan or certify that none exists.  For a weak team
of two on games whose MILP is out of reach (3P-MMH), ``oracle="relaxation"`` solves the
lifted model's LP over the relevant pairs of sequences only
(:mod:`toypoker.team_relaxation`): its rounded plan, polished by alternating best
responses, is the next column, and its optimum, certified in integers from its duals,
an upper end (``relaxation_seconds``: each LP by HiGHS's first-order PDLP, stopped at a
time limit, for LPs the interior point does not finish in minutes; any iterate's
multipliers certify).  Against any outsider strategy the team seeing its cards does at
least as well (:mod:`toypoker.solvers.team_bounds`: a cheap exact upper end for a weak team, at
best the strong team's value).

The bracket is exact.  ``lower``: the rationalised mixture's value against the
outsider's exact best response (a backward induction over the outsider's sequences in
Fractions) -- what the team guarantees.  ``upper``: the team's exact best response
value against the rationalised outsider strategy -- what the outsider guarantees (for
a MILP oracle: the exact value of the MILP's optimal plan, a plan optimal in floating
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

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from ..checks import check_int, check_number
from ..errors import ToypokerError
from ..evaluate import (
    counterfactual_reach,
    edge_probabilities,
    reaches,
    sees_together,
    team_best_response,
)
from ..game import Game
from ..games.collusion import Team, seat_digits
from ..interrupts import deferred_interrupts
from ..profile import Profile
from ..team_relaxation import certified_bound, pair_model, relaxed_response
from ..team_response import joint_plan_alternating, last_sequences
from .exact_face import exact_master

__all__ = ["TMECor", "grid_row", "master_lp", "tmecor"]

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
        The oracle: ``"backward induction"``, ``"MILP"``, or the heuristic oracle
        and where the upper end comes from.
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


def grid_row(weights: np.ndarray, bits: int = 20) -> list[Fraction]:
    """Probabilities proportional to the nonnegative parts of ``weights`` (uniform when
    they sum to about 0), each an exact multiple of ``2**-bits``, summing to 1."""
    ws = np.clip(np.asarray(weights, dtype=np.float64), 0.0, None)
    tot = ws.sum()
    probs = ws / tot if tot > 1e-12 else np.full(len(ws), 1.0 / len(ws))
    units = np.round(probs * 2**bits).astype(np.int64)
    units[int(np.argmax(units))] += 2**bits - int(units.sum())
    return [Fraction(int(u), 2**bits) for u in units]


class _Outsider:
    """The sequence form of one player, or of a team that sees its cards (one player with
    perfect recall whose sequences are its members' actions): sequence 0 is the empty
    one, then the seats' free actions."""

    def __init__(self, game: Game, seats: tuple[int, ...]):
        mine = np.isin(game.sigma_player, seats)
        if game.sigma_fixed[mine].any():
            raise ToypokerError(f"TMECor: seats {seat_digits(seats)} have restricted actions")
        self.game = game
        self.sigma = np.flatnonzero(mine)
        self.seq_of_sigma = np.zeros(game.n_sigma, dtype=np.int64)
        self.seq_of_sigma[self.sigma] = 1 + np.arange(len(self.sigma))
        self.n_seq = 1 + len(self.sigma)
        per_seat = last_sequences(game, seats)
        # the seats' last action on the way to each row: the deepest of the members'
        depth = np.array([game.nodes[i.node].depth for i in game.infosets])[game.sigma_infoset]
        deepest = np.where(per_seat >= 0, depth[per_seat.clip(0)], -1).argmax(axis=0)
        last = per_seat[deepest, np.arange(game.n_rows)]
        self.term_seq = np.where(last[game.term_rows] >= 0,
                                 self.seq_of_sigma[last[game.term_rows].clip(0)], 0)  # fmt: skip
        self.infosets = [i for i in game.infosets if i.player in seats]
        # deepest first: a sequence's value needs its child infosets'
        self.infosets.sort(key=lambda i: -game.nodes[i.node].depth)
        rep = last[game.infoset_rep_row]
        self.parent = {i.index: (int(self.seq_of_sigma[rep[i.index]]) if rep[i.index] >= 0 else 0)
                       for i in self.infosets}  # fmt: skip

    def constraints(self) -> sp.csr_array:
        """``F^T``, sparse ``(n_seq, 1 + n_infosets)`` (column 0: the root)."""
        rows, cols, vals = [0], [0], [1.0]
        for k, inf in enumerate(self.infosets, start=1):
            for s in range(inf.offset, inf.offset + len(inf.actions)):
                rows.append(int(self.seq_of_sigma[s]))
                cols.append(k)
                vals.append(1.0)
            rows.append(self.parent[inf.index])
            cols.append(k)
            vals.append(-1.0)
        shape = (self.n_seq, 1 + len(self.infosets))
        return sp.coo_array((vals, (rows, cols)), shape=shape).tocsr()

    def best_response_value(self, c: list[Fraction], best: Callable = min) -> Fraction:
        """``min_y c^T y`` (or ``best=max``) exactly: backward over the infosets."""
        val = list(c)
        for inf in self.infosets:
            seqs = [
                int(self.seq_of_sigma[s]) for s in range(inf.offset, inf.offset + len(inf.actions))
            ]
            val[self.parent[inf.index]] += best(val[s] for s in seqs)
        return val[0]

    def realization(self, behaviour: dict[int, list[Fraction]]) -> list[Fraction]:
        """The exact realization plan (per sequence) of a behaviour strategy."""
        y = [Fraction(0)] * self.n_seq
        y[0] = Fraction(1)
        for inf in reversed(self.infosets):  # shallowest first
            for k, q in enumerate(behaviour[inf.index]):
                y[int(self.seq_of_sigma[inf.offset + k])] = y[self.parent[inf.index]] * q
        return y

    def exact_behaviour(self, y: list[Fraction]) -> dict[int, list[Fraction]]:
        """Behaviour probabilities per infoset from an exact realization plan (uniform
        where the plan does not reach)."""
        out = {}
        for inf in self.infosets:
            k = len(inf.actions)
            top = y[self.parent[inf.index]]
            seqs = self.seq_of_sigma[inf.offset : inf.offset + k]
            out[inf.index] = [y[s] / top for s in seqs] if top > 0 else [Fraction(1, k)] * k
        return out

    def grid_behaviour(self, y: np.ndarray, bits: int = 20) -> dict[int, list[Fraction]]:
        """Behaviour probabilities per infoset from a float realization plan, each a
        multiple of ``2**-bits`` (small exact realization plans on big games)."""
        seqs = self.seq_of_sigma
        return {inf.index: grid_row(y[seqs[inf.offset : inf.offset + len(inf.actions)]], bits)
                for inf in self.infosets}  # fmt: skip

    def behaviour(self, y: np.ndarray, limit: int) -> dict[int, list[Fraction]]:
        """Exact behaviour probabilities per infoset from a float realization plan."""
        out = {}
        for inf in self.infosets:
            k = len(inf.actions)
            seqs = self.seq_of_sigma[inf.offset : inf.offset + k]
            ys = np.clip(y[seqs], 0.0, None)
            tot = ys.sum()
            probs = ys / tot if tot > 1e-12 else np.full(k, 1.0 / k)
            fr = [Fraction(float(x)).limit_denominator(limit) for x in probs]
            total = sum(fr, Fraction(0))
            out[inf.index] = [x / total for x in fr] if total > 0 else [Fraction(1, k)] * k
        return out


class _Columns:
    """``c_k``, the team's payoff per outsider sequence when it plays the pure joint plan
    ``k``, in floats or exactly.  The exact ones are sums of integers: each terminal
    row's weight times the team's payoff, over one common denominator (computed once)."""

    def __init__(self, game: Game, out: _Outsider, seats: tuple[int, ...]):
        self.game, self.out, self.seats = game, out, seats
        self._exact: tuple[np.ndarray, int] | None = None
        self._pairs: tuple[_Outsider, np.ndarray, np.ndarray] | None = None

    def numerators(self) -> tuple[np.ndarray, int]:
        """Per terminal row, ``weight * team payoff`` as ``num / den``."""
        if self._exact is None:
            g = self.game
            # rows share their payoff objects (Game._payoffs_exact): scale each once
            u = [g.term_u_exact[p] for p in self.seats]
            distinct = [{id(v): v for v in row} for row in u]
            den = math.lcm(*(v.denominator for d in distinct for v in d.values()))
            n = np.zeros(len(g.term_rows), dtype=object)
            for row, d in zip(u, distinct, strict=True):
                scaled = {k: int(v * den) for k, v in d.items()}
                n += np.array([scaled[id(v)] for v in row], dtype=object)
            top = max(abs(int(n.max())), abs(int(n.min()))) * int(g.weight_num.max())
            # int64 while every column sum fits, Python integers beyond
            dtype = np.int64 if top * len(n) < 2**62 else object
            wn = g.weight_num.astype(dtype)[g.row_deal[g.term_rows]]
            self._exact = (wn * n.astype(dtype), den * int(g.weight_den))
        return self._exact

    def __call__(self, choice: np.ndarray, exact: bool = False) -> np.ndarray:
        """The column of plan ``choice``: floats, or Fractions (``exact``)."""
        g, seats, out = self.game, self.seats, self.out
        sigma = np.full(g.n_sigma, 1.0)
        sigma[np.isin(g.sigma_player, seats)] = choice[np.isin(g.sigma_player, seats)]
        reach = reaches(g, edge_probabilities(g, sigma))
        x = np.prod(reach[list(seats)][:, g.term_rows], axis=0)
        on = np.flatnonzero(x > 0.5)
        if exact:
            num, den = self.numerators()
            col = np.zeros(out.n_seq, dtype=num.dtype)
            np.add.at(col, out.term_seq[on], num[on])
            return np.array([Fraction(int(v), den) for v in col], dtype=object)
        deals = g.row_deal[g.term_rows[on]]
        u = g.term_u[list(seats)][:, on].sum(axis=0)
        return np.bincount(out.term_seq[on], weights=g.weights[deals] * u, minlength=out.n_seq)

    def best_value(self, behaviour: dict[int, list[Fraction]]) -> Fraction:
        """The exact best-response value against the outsider's ``behaviour`` of a team
        that sees its cards (one player with perfect recall): backward induction over
        the team's sequences, each worth its terminal rows' integer weights times the
        outsider's realization plan (in integers over one denominator)."""
        if self._pairs is None:
            team = _Outsider(self.game, self.seats)
            num, _ = self.numerators()
            keys, inverse = np.unique(team.term_seq * self.out.n_seq + self.out.term_seq,
                                      return_inverse=True)  # fmt: skip
            agg = np.zeros(len(keys), dtype=num.dtype)
            np.add.at(agg, inverse.reshape(-1), num)
            self._pairs = (team, keys, agg.astype(object))
        team, keys, agg = self._pairs
        y = self.out.realization(behaviour)
        den_y = math.lcm(*(v.denominator for v in y))
        scaled = np.array([int(v * den_y) for v in y], dtype=object)
        c = np.zeros(team.n_seq, dtype=object)
        np.add.at(c, keys // self.out.n_seq, agg * scaled[keys % self.out.n_seq])
        return Fraction(team.best_response_value(list(c), max), self.numerators()[1] * den_y)

    def exact_coefficients(self, behaviour: dict[int, list[Fraction]]) -> tuple[np.ndarray, int]:
        """Per terminal row, the exact outside weight times the team's payoff against the
        outsider's ``behaviour``: integers (object array) over one denominator."""
        num, den = self.numerators()
        y = self.out.realization(behaviour)
        den_y = math.lcm(*(v.denominator for v in y))
        scaled = np.array([int(v * den_y) for v in y], dtype=object)
        return num.astype(object) * scaled[self.out.term_seq], den * den_y

    def value(self, choice: np.ndarray, behaviour: dict[int, list[Fraction]]) -> Fraction:
        """The team's exact summed value of plan ``choice`` against the outsider's
        ``behaviour``: its column times the outsider's realization plan."""
        y = self.out.realization(behaviour)
        return sum((c * v for c, v in zip(self(choice, exact=True), y, strict=True)), Fraction(0))


def master_lp(
    ft: sp.csr_array, cols: Sequence[np.ndarray]
) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The master LP over the columns ``cols`` (HiGHS): its value, the outsider's value
    multipliers ``z``, the mixture ``lambda`` and, as duals, the outsider's plan ``y``."""
    from scipy.optimize import linprog

    c = np.stack(cols, axis=1)  # (n_seq, K)
    nz, k = ft.shape[1], c.shape[1]
    obj = np.concatenate([-np.eye(1, nz, 0)[0], np.zeros(k)])
    a_ub = sp.hstack([ft, sp.csr_array(-c)]).tocsr()
    a_eq = np.concatenate([np.zeros(nz), np.ones(k)])[None, :]
    bounds = [(None, None)] * nz + [(0, None)] * k
    res = linprog(obj, A_ub=a_ub, b_ub=np.zeros(c.shape[0]), A_eq=a_eq, b_eq=[1.0],
                  bounds=bounds, method="highs")  # fmt: skip
    if res.status != 0:
        raise ToypokerError(f"TMECor master LP failed: {res.message}")
    return float(-res.fun), res.x[:nz], res.x[nz:], -res.ineqlin.marginals


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
        :class:`~toypoker.games.collusion.Team`, seat digits as in a spec (``"13"``:
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
        while they beat the master's value; the exact MILP only when they do not,
        to certify), ``"exact"`` (the MILP at every step), or ``"alternating"``
        (never the MILP: the lower end stays exact, the upper end is the last
        exact oracle value or, without one, the one final MILP -- for games whose
        MILP is out of reach, stop with ``seconds`` and give ``upper_game``), or
        ``"relaxation"`` (a team of two: the relevant-pairs LP's plan, polished by
        alternating best responses; the upper end the smallest LP bound, certified).
    upper_game
        With ``oracle="alternating"``: the same game with the team seeing its cards
        (strong collusion: same rows, same team payoff), whose team's exact best
        response bounds the weak team's from above -- the upper end then needs no
        MILP (it is looser: the value of seeing the partner's cards).
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
        (e.g. :func:`toypoker.solvers.team_bounds.projected_starts`).

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
    max_columns = check_int(max_columns, "max_columns", low=1)
    tol = check_number(tol, "tol", nonnegative=True)
    for name, x in (("seconds", seconds), ("relaxation_seconds", relaxation_seconds)):
        if x is not None:
            check_number(x, name, nonnegative=name == "seconds", positive=name != "seconds")
    t = Team.of(team) if team is not None else None
    if t is None:
        t = None if game.params.get("merge") else Team.of_params(game.params)
    if t is None:
        raise ToypokerError(f"{game.spec} has no team: give one (e.g. team=(0, 1))")
    t.check(game.n_players)
    seats = t.seats
    outsiders = t.outsiders(game.n_players)
    if len(outsiders) != 1:
        raise ToypokerError(f"TMECor needs one outsider; {game.spec} has {len(outsiders)}")
    (o,) = outsiders
    out = _Outsider(game, (o,))
    ft = out.constraints()
    how = "backward induction" if sees_together(game, seats) else "MILP"

    def outsider_profile(behaviour: dict[int, list[Fraction]] | None) -> Profile:
        probs = np.empty(game.n_sigma, dtype=object)
        for inf in game.infosets:
            k = len(inf.actions)
            row = behaviour.get(inf.index) if behaviour is not None else None
            probs[inf.offset : inf.offset + k] = row if row is not None else [Fraction(1, k)] * k
        return Profile(game, probs)

    if oracle not in ("hybrid", "exact", "alternating", "relaxation"):
        raise ToypokerError(f"unknown TMECor oracle {oracle!r}")
    oracle = "exact" if how != "MILP" and oracle == "alternating" else oracle  # exact is cheap
    relaxed = oracle == "relaxation"
    if relaxed and (how != "MILP" or len(seats) != 2):
        raise ToypokerError("TMECor: the relaxation oracle is for a weak team of two")
    heuristic = how == "MILP" and oracle not in ("exact", "relaxation")
    u_team = game.term_u[list(seats)].sum(axis=0)

    def exact_oracle(prof: Profile) -> tuple[np.ndarray, float]:
        br = team_best_response(game, prof, seats, together=how != "MILP")
        return br.choice, float(br.value)  # type: ignore[arg-type]

    def team_coef(prof: Profile) -> np.ndarray:
        sigma = np.asarray(prof.probs, dtype=np.float64)
        cf = counterfactual_reach(game, reaches(game, edge_probabilities(game, sigma)), seats)
        return cf[game.term_rows] * u_team

    def cheap_oracle(prof: Profile) -> tuple[np.ndarray, float]:
        extra = more_starts(prof) if more_starts is not None else []
        return joint_plan_alternating(game, seats, team_coef(prof), [*plans[-4:], *extra])

    # oracle="relaxation": the best (smallest) relaxed bound so far, its duals and the
    # exact outsider strategy it answered (certified exactly at the end)
    model = pair_model(game, (seats[0], seats[1])) if relaxed else None
    relaxed_best: list[tuple[float, np.ndarray, dict[int, list[Fraction]]]] = []

    def relaxed_oracle(
        prof: Profile, answered: dict[int, list[Fraction]]
    ) -> tuple[np.ndarray, float]:
        """The relaxed LP's plan polished by the members' alternating best responses
        (a lower bound), its optimum kept as an upper end."""
        assert model is not None
        coef = team_coef(prof)
        rel = (relaxed_response(game, model, coef) if relaxation_seconds is None
               else relaxed_response(game, model, coef, "pdlp", relaxation_seconds))  # fmt: skip
        if not relaxed_best or rel.value < relaxed_best[0][0]:
            relaxed_best[:] = [(rel.value, rel.duals, answered)]
        return joint_plan_alternating(game, seats, coef, [rel.plan, *plans[-2:]])

    if upper_game is not None:
        if oracle != "alternating" or how != "MILP":
            raise ToypokerError("TMECor: upper_game is for oracle='alternating' on a weak team")
        strong = _Columns(upper_game, _Outsider(upper_game, (o,)), seats)
        label_of = {i.index: upper_game.infoset(i.label).index for i in out.infosets}

    def exact_best_value(behaviour: dict[int, list[Fraction]]) -> Fraction:
        """The team's best-response value against ``behaviour``, exactly: the MILP's
        plan valued exactly, or (a team that sees its cards) an exact induction."""
        if upper_game is not None:
            return strong.best_value({label_of[i]: b for i, b in behaviour.items()})
        if how == "MILP":
            return column.value(exact_oracle(outsider_profile(behaviour).to_float())[0],
                                behaviour)  # fmt: skip
        if not game.sigma_fixed[np.isin(game.sigma_player, seats)].any():
            return column.best_value(behaviour)
        up = team_best_response(game, outsider_profile(behaviour), seats,
                                together=True).value  # fmt: skip
        assert isinstance(up, Fraction)
        return up

    column = _Columns(game, out, seats)
    plans: list[np.ndarray] = [np.asarray(x, dtype=np.int8) for x in start_plans]
    for x in plans:
        if x.shape != (game.n_sigma,):
            raise ToypokerError(f"TMECor: a start plan of {len(x)} actions, not {game.n_sigma}")
    first = outsider_profile(None).to_float()
    if relaxed and plans:
        pass  # a warm start: the master starts from the plans given (each LP is costly)
    elif relaxed:
        uniform = {i.index: [Fraction(1, len(i.actions))] * len(i.actions) for i in out.infosets}
        plans.append(relaxed_oracle(first, uniform)[0])
    else:
        plans.append((cheap_oracle if heuristic else exact_oracle)(first)[0])
    cols = [column(x) for x in plans]
    lam = np.ones(len(plans)) / len(plans)
    y = np.zeros(out.n_seq)
    generated = len(plans) - len(start_plans)  # 0 on a relaxation warm start
    # the best upper end so far: the oracle's (float) value, its plan and the exact
    # outsider strategy it answered (the plan is that strategy's best response)
    best: tuple[float, np.ndarray, dict[int, list[Fraction]]] | None = None
    stopped = "converged"
    with deferred_interrupts() as flag:
        while True:
            value, zf, lam, y = master_lp(ft, cols)
            if flag.requested:
                stopped = "interrupted"
                break
            answered = out.behaviour(y, 10**12)
            prof = outsider_profile(answered).to_float()
            choice, br = cheap_oracle(prof) if heuristic else (None, -np.inf)
            if relaxed:
                choice, br = relaxed_oracle(prof, answered)
                if progress is not None:
                    progress(generated, value, relaxed_best[0][0])
            elif br <= value + tol and oracle != "alternating":
                choice, br = exact_oracle(prof)
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
            cols.append(column(choice))
            generated += 1
    # exact bracket: the best rationalisation of each side
    support = [j for j in range(len(plans)) if lam[j] > 1e-12]
    exact_cols = {j: column(plans[j], exact=True) for j in support}
    exact_w, exact_y = (
        exact_master(ft, [exact_cols[j] for j in support], zf, lam[support], y, value)
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
        c_exact = sum((wj * exact_cols[j] for wj, j in zip(w, support, strict=True)),
                      np.array([Fraction(0)] * out.n_seq, dtype=object))  # fmt: skip
        low = out.best_response_value(list(c_exact))
        if best_low is None or low > best_low[0]:
            best_low = (low, tuple(w))
    assert best_low is not None
    # upper end: a MILP plan is optimal in floating point only; one worth less than
    # the lower end is provably not optimal (a best response's value is at least the
    # game's value) and is not used
    best_up: tuple[Fraction, dict[int, list[Fraction]]] | None = None
    if best is not None:
        # the best oracle answer so far, valued exactly: no further oracle call
        up = column.value(best[1], best[2])
        best_up = (up, best[2]) if up >= best_low[0] else None
    tries = [] if exact_y is None or relaxed else [out.exact_behaviour(exact_y)]
    if relaxed:
        if relaxed_best:  # the best relaxed bound, certified in integers
            _, duals, answered = relaxed_best[0]
            num, den = column.exact_coefficients(answered)
            best_up = (certified_bound(model, duals, num, den), answered)
    elif upper_game is not None:
        tries += [out.grid_behaviour(y)]
    elif stopped == "converged":
        tries += [out.behaviour(y, limit) for limit in DENOMINATORS]
    elif best_up is None:  # stopped before an exact oracle answer
        tries += [out.behaviour(y, 10**12)]
    for behaviour in tries:
        if best_up is not None and best_up[0] == best_low[0]:
            break
        up = exact_best_value(behaviour)
        if up >= best_low[0] and (best_up is None or up < best_up[0]):
            best_up = (up, behaviour)
    if best_up is None:
        raise ToypokerError("TMECor: no exact upper end (every oracle plan below the lower)")
    if upper_game is not None:
        how = "alternating; upper: team seeing its cards"
    elif relaxed:
        how = "relaxation; upper: relevant-pairs LP bound, certified"
    return TMECor(
        game.spec, seats, o, best_low[0], best_up[0],
        tuple(plans[j] for j in support), best_low[1], outsider_profile(best_up[1]),
        generated, time.perf_counter() - start, how, stopped,
    )  # fmt: skip
