"""A two-member team's joint best response from a small LP, certified by its own plan.

The team's best joint pure plan against fixed outside strategies maximises
``sum_r coef_r * x(s_r) * y(t_r)`` over the members' pure sequence-form plans ``x``
and ``y`` (``s_r``, ``t_r``: the members' last sequences at terminal row ``r``).  The
lifted model of :mod:`toypoker.teams.response` linearises it with one variable per
pair of sequences (every pair).  The objective weighs only the **terminal pairs**
``(s_r, t_r)``; here the variables are those pairs closed under "the parent sequence
of either member" (3P-SMH team 23: 1,501 variables where the lifted model has 5,551),
and each member's sequence-form constraint multiplied by a partner sequence is kept
over the kept pairs it mentions::

    sum_{a: (I a, j) kept} w(I a, j)  =  w(p_I, j)     every action of I kept,
                                      <= w(p_I, j)     some dropped (w >= 0),

with ``w(0, 0) = 1`` and ``0 <= w <= 1``.  Every pair of pure plans with ``w`` their
products is feasible, so the LP's optimum bounds the best pure plan's value from
above.  When the members' own plans ``w(i, 0)``, ``w(0, j)`` come out 0/1 and that
plan's value (the objective at the plans' products) reaches the LP's optimum, the
plan is the team's best response: a certificate checked here, not assumed.  When the
LP comes out fractional, the same model's MILP (the members' own plans binary) gets
the same check (dropped pairs could let it exceed its plan's value); when that fails
too, :func:`certified_plan` returns ``None`` and the caller solves the lifted model.
The LP is an order of magnitude faster than the lifted model on three-player Kuhn and
3P-SMH, and comes out integral and certified on most profiles; where it does not, the
MILP certifies (``benchmarks/bench_team_response.py``; its numbers are in
``benchmarks/results/teams.md``).

HiGHS solves the LP: through ``highspy`` when it is installed (the model passed once
per game and team by :func:`highs_model`; each call changes the costs only, so HiGHS's
dual simplex starts from the last optimal basis, :data:`WARM_START`, two to four
times faster than a cold start; ``bench_teams.py`` shows the whole team gain warm beside
cold), else through :func:`scipy.optimize.linprog`.  The optimum does not depend on
earlier calls; where several plans tie, the one returned may (a run from a fresh
process is repeatable).  Games whose member plans are few do not get here by default:
:mod:`toypoker.teams.plans` enumerates them.

This module sees only the compiled game and arrays; it imports nothing above
:mod:`toypoker.game`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from toypoker.engines.rows.sequences import last_sequences
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.highs import interruptible, silence_banner

__all__ = [
    "MilpUnfinishedError",
    "TerminalPairs",
    "certified_plan",
    "certified_response",
    "complete_plan",
    "highs_model",
    "last_sequences",
    "member_sequences",
    "outside_weights",
    "per_team",
    "plan_value",
]

T = TypeVar("T")

#: integrality and certificate tolerance (relative to ``1 + sum |objective|``)
TOLERANCE = 1e-9


class MilpUnfinishedError(ToypokerError):
    """HiGHS stopped before proving a joint plan optimal (its time limit, or a failure)."""


def member_sequences(game: Game, p: int) -> np.ndarray:
    """Seat ``p``'s free actions (flat sigma indices): its sequences ``1..n``; 0 is empty."""
    return np.flatnonzero((game.sigma_player == p) & ~game.sigma_fixed)


def per_team(game: Game, factory: Callable[[Game, tuple[int, ...]], T],
             members: tuple[int, ...]) -> T:  # fmt: skip
    """``factory(game, members)``, built once per game and team (kept with the game by
    ``Game.derived``): the teams' models and structures."""
    built = game.derived(_PerTeam).built
    key = (factory, tuple(int(p) for p in members))
    if key not in built:
        built[key] = factory(game, key[1])
    return built[key]  # type: ignore[return-value]


class _PerTeam:
    """``Game.derived`` cache of :func:`per_team`."""

    def __init__(self, game: Game):
        self.built: dict[tuple[object, tuple[int, ...]], object] = {}


def complete_plan(game: Game, members: tuple[int, ...], choice: np.ndarray) -> np.ndarray:
    """``choice`` (0/1 over the game's actions) with the first action chosen at every free
    infoset of the members where it chooses none (infosets the plan never reaches)."""
    if game.n_infosets:
        starts = per_team(game, _free_infoset_starts, members)
        chosen = np.add.reduceat(choice, game.infoset_offset[:-1])[starts[1]]
        choice[starts[0][chosen == 0]] = 1
    return choice


def _free_infoset_starts(game: Game, members: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The first actions (flat sigma) of the members' free infosets, and those infosets."""
    mine = np.flatnonzero(np.isin(game.infoset_player, members) & ~game.infoset_restricted)
    return game.infoset_offset[mine], mine


def highs_model(a: object, col_lower: np.ndarray, col_upper: np.ndarray,
                row_lower: np.ndarray, row_upper: np.ndarray, cost: np.ndarray | None = None,
                options: dict[str, object] | None = None) -> object:  # fmt: skip
    """A ``highspy`` model ``max cost^T w`` s.t. ``row_lower <= a w <= row_upper``,
    ``col_lower <= w <= col_upper`` (continuous), passed in one call, output off.

    Parameters
    ----------
    a
        The constraint matrix (a scipy sparse array; CSR is passed as it is).
    col_lower, col_upper, row_lower, row_upper
        Bounds (``-inf``/``inf`` for none).
    cost
        The objective (``None``: zero, set later with ``changeColsCost``).
    options
        HiGHS options set before the model is passed.

    Returns
    -------
    highspy.Highs

    Raises
    ------
    ImportError
        Without ``highspy``.
    ToypokerError
        If HiGHS refuses the model.
    """
    import highspy
    from scipy.sparse import csr_array

    m = csr_array(a)
    n_rows, n_cols = m.shape
    silence_banner()  # HiGHS prints a copyright banner on stdout at its first model
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    for key, val in (options or {}).items():
        h.setOptionValue(key, val)
    passed = h.passModel(
        n_cols, n_rows, m.nnz, int(highspy.MatrixFormat.kRowwise),
        int(highspy.ObjSense.kMaximize), 0.0,
        np.zeros(n_cols) if cost is None else np.asarray(cost, dtype=np.float64),
        *(np.asarray(x, dtype=np.float64) for x in (col_lower, col_upper, row_lower, row_upper)),
        m.indptr.astype(np.int32), m.indices.astype(np.int32), m.data.astype(np.float64),
        np.zeros(n_cols, dtype=np.int32),  # continuous columns
    )  # fmt: skip
    if passed != highspy.HighsStatus.kOk:
        raise ToypokerError("HiGHS refused the model")
    return h


class TerminalPairs:
    """The terminal-pairs LP of a two-member team (see the module's docstring), built
    once per game and team (:func:`per_team`).

    Attributes
    ----------
    members
        The two seats (0-based).
    n_vars, n_terminal_pairs
        Kept pairs (variables), and pairs met at a terminal row.
    """

    def __init__(self, game: Game, members: tuple[int, ...]):
        from scipy.sparse import coo_array

        if len(members) != 2:
            raise ToypokerError("the terminal-pairs team model needs two members")
        self.members = members
        seqs = [member_sequences(game, p) for p in members]
        index = np.zeros((2, game.n_sigma), dtype=np.int64)
        for k, s in enumerate(seqs):
            index[k, s] = 1 + np.arange(len(s))
        parent = last_sequences(game, members)
        par, grp = [], []
        for k in range(2):  # each sequence's parent sequence and infoset (0: empty)
            infs = game.sigma_infoset[seqs[k]]
            rep = parent[k, game.infoset_rep_row[infs]]
            par.append(np.concatenate([[0], np.where(rep >= 0, index[k, rep.clip(0)], 0)]))
            grp.append(np.concatenate([[-1], infs]))
        n_a, n_b = len(seqs[0]) + 1, len(seqs[1]) + 1
        last = parent[:, game.term_rows]
        s = [np.where(last[k] >= 0, index[k, last[k].clip(0)], 0) for k in range(2)]
        term_key = s[0] * n_b + s[1]
        self.n_terminal_pairs = len(np.unique(term_key))
        kept = np.unique(np.concatenate([term_key, [0]]))
        frontier = kept
        while len(frontier):  # close under either member's parent sequence
            i, j = frontier // n_b, frontier % n_b
            cand = np.unique(np.concatenate([par[0][i] * n_b + j, i * n_b + par[1][j]]))
            frontier = np.setdiff1d(cand, kept, assume_unique=True)
            kept = np.union1d(kept, frontier)
        i, j = kept // n_b, kept % n_b
        rows, cols, vals, eq = [], [], [], []
        n_rows = 0
        for k, (mine, other, n_other) in enumerate(((i, j, n_b), (j, i, n_a))):
            on = np.flatnonzero(mine > 0)
            key = grp[k][mine[on]] * n_other + other[on]
            uniq, con, count = np.unique(key, return_inverse=True, return_counts=True)
            first = on[np.unique(con, return_index=True)[1]]
            pk = par[k][mine[first]]  # each constraint's parent pair, from its first child
            pkey = pk * n_b + other[first] if k == 0 else other[first] * n_b + pk
            rows += [n_rows + con, n_rows + np.arange(len(uniq))]
            cols += [on, np.searchsorted(kept, pkey)]
            vals += [np.ones(len(on)), -np.ones(len(uniq))]
            eq.append(count == game.infoset_n_actions[uniq // n_other])
            n_rows += len(uniq)
        self.n_vars = len(kept)
        self.a = coo_array(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
            shape=(n_rows, self.n_vars),
        ).tocsr()
        self.eq = np.concatenate(eq)
        self.term_var = np.searchsorted(kept, term_key)
        self.pair = (i, j)
        # the members' own plans: w(i, 0) and w(0, j) (every sequence is kept: a parent)
        self.sigma = np.concatenate(seqs)
        own = np.concatenate([np.arange(1, n_a) * n_b, np.arange(1, n_b)])
        self.cols_x = np.searchsorted(kept, own)
        assert np.array_equal(kept[self.cols_x.clip(0, len(kept) - 1)], own)
        self.n_a = n_a
        self.par = par
        self._highs: object | None = None
        self._cold = True
        self._cols = np.arange(self.n_vars, dtype=np.int32)

    def objective(self, coef: np.ndarray) -> np.ndarray:
        """The LP's objective: ``coef`` summed per terminal pair."""
        return np.bincount(self.term_var, weights=np.asarray(coef, float), minlength=self.n_vars)

    def solve(self, c: np.ndarray, time_limit: float | None = None) -> tuple[float, np.ndarray]:
        """The LP's optimum and optimal ``w`` for objective ``c`` (a maximum).

        Raises
        ------
        MilpUnfinishedError
            If HiGHS stops before an optimum (``time_limit`` seconds, or a failure).
        """
        h = self._model()
        if h is None:
            return self._solve_scipy(c, time_limit)
        if self._cold or not WARM_START or self.n_vars > PRESOLVE_FROM:
            # no basis after a stop short of the optimum; the big models (presolve on)
            # start afresh: from another profile's basis the small hold'em's LP (124,381
            # variables) can take longer than cold (benchmarks/results/teams.md)
            h.clearSolver()  # type: ignore[attr-defined]
        # HiGHS compares its limit with a run clock that does not restart per solve
        # (as long again on a fresh model after a long solve): the limit is relative
        limit = float("inf") if time_limit is None else h.getRunTime() + float(time_limit)  # type: ignore[attr-defined]
        h.setOptionValue("time_limit", limit)  # type: ignore[attr-defined]
        # only the costs change: HiGHS keeps the last optimal basis (a warm start)
        h.changeColsCost(self.n_vars, self._cols, c)  # type: ignore[attr-defined]
        interruptible(h.run)  # type: ignore[attr-defined]
        status = h.modelStatusToString(h.getModelStatus())  # type: ignore[attr-defined]
        self._cold = status != "Optimal"
        if self._cold:
            raise MilpUnfinishedError(f"the team's best-response LP did not finish: {status}")
        w = np.asarray(h.getSolution().col_value)  # type: ignore[attr-defined]
        return float(h.getInfo().objective_function_value), w  # type: ignore[attr-defined]

    def _solve_scipy(self, c: np.ndarray, time_limit: float | None) -> tuple[float, np.ndarray]:
        """:meth:`solve` by :func:`scipy.optimize.linprog` (HiGHS)."""
        from scipy.optimize import linprog

        bounds = np.zeros((self.n_vars, 2))
        bounds[:, 1] = 1.0
        bounds[0, 0] = 1.0
        ub = self.a[~self.eq]
        some = ub.shape[0] > 0
        options: dict[str, object] = {"presolve": self.n_vars > PRESOLVE_FROM}
        if time_limit is not None:
            options["time_limit"] = float(time_limit)
        res = interruptible(
            linprog, -c, A_ub=ub if some else None, b_ub=np.zeros(ub.shape[0]) if some else None,
            A_eq=self.a[self.eq], b_eq=np.zeros(int(self.eq.sum())), bounds=bounds,
            method="highs", options=options,
        )  # fmt: skip
        if res.status != 0:
            raise MilpUnfinishedError(f"the team's best-response LP did not finish: {res.message}")
        return float(-res.fun), res.x

    def _model(self) -> object | None:
        """The LP passed to ``highspy`` once (``None`` without ``highspy``)."""
        if not USE_HIGHSPY:
            return None
        if self._highs is None:
            try:
                import highspy  # noqa: F401
            except ImportError:
                return None
            lower = np.zeros(self.n_vars)
            lower[0] = 1.0  # w(0, 0) = 1
            rows = self.a.shape[0]
            presolve = "off" if self.n_vars <= PRESOLVE_FROM else "on"
            self._highs = highs_model(self.a, lower, np.ones(self.n_vars),
                                      np.where(self.eq, 0.0, -np.inf), np.zeros(rows),
                                      options={"presolve": presolve})  # fmt: skip
            self._cold = True
        return self._highs

    def plan(self, coef: np.ndarray, time_limit: float | None = None, integral: bool = False
             ) -> tuple[np.ndarray, float] | None:  # fmt: skip
        """The team's best joint pure plan and its value if the LP (``integral``: the
        MILP, the members' own plans binary) certifies it, else ``None``.

        Parameters
        ----------
        coef
            Per terminal row (``game.term_rows`` order): outside weight times the
            team's payoff, float.
        time_limit
            Seconds for HiGHS (``None``: none).
        integral
            Solve the MILP (when the LP came out fractional).

        Returns
        -------
        tuple of numpy.ndarray and float, or None
            0/1 over the members' free actions (the rest 0; unreached infosets
            complete with :func:`complete_plan` by the caller), and the plan's value
            (the objective at the plan's products: :func:`plan_value`).
        """
        c = self.objective(coef)
        value, w = self._solve_milp(c, time_limit) if integral else self.solve(c, time_limit)
        x = w[self.cols_x]
        rounded = np.round(x)
        tol = TOLERANCE * (1.0 + float(np.abs(c).sum()))
        if np.abs(x - rounded).max(initial=0.0) > (1e-6 if integral else TOLERANCE):
            return None  # (1e-6: HiGHS's integrality tolerance)
        own = self.value(c, rounded)
        if own < value - tol:
            return None  # the LP's w is not its plan's products: not a certificate
        return rounded.astype(np.int8), own

    def _solve_milp(self, c: np.ndarray, time_limit: float | None) -> tuple[float, np.ndarray]:
        """:meth:`solve` with the members' own plans binary (:func:`scipy.optimize.milp`,
        relative gap 0)."""
        from scipy.optimize import Bounds, LinearConstraint, milp

        lower = np.zeros(self.n_vars)
        lower[0] = 1.0
        integrality = np.zeros(self.n_vars)
        integrality[self.cols_x] = 1
        options: dict[str, object] = {"mip_rel_gap": 0.0}
        if time_limit is not None:
            options["time_limit"] = float(time_limit)
        res = interruptible(
            milp, -c, integrality=integrality, bounds=Bounds(lower, np.ones(self.n_vars)),
            constraints=LinearConstraint(self.a, np.where(self.eq, 0.0, -np.inf), 0.0),
            options=options,
        )  # fmt: skip
        if res.status != 0 or res.x is None:
            msg = f"the team's best-response MILP did not finish: {res.message}"
            raise MilpUnfinishedError(msg)
        return float(-res.fun), res.x

    def value(self, c: np.ndarray, x: np.ndarray) -> float:
        """Objective ``c`` (per kept pair) at a pure plan's products; ``x``: the plan's
        sequence form over the members' sequences (``sigma`` order), 0/1."""
        xa = np.concatenate([[1.0], x[: self.n_a - 1]])
        xb = np.concatenate([[1.0], x[self.n_a - 1 :]])
        return float(c @ (xa[self.pair[0]] * xb[self.pair[1]]))

    def realization(self, choice: np.ndarray) -> np.ndarray:
        """The sequence form (``sigma`` order) of a 0/1 plan over the game's actions."""
        out = []
        for k, n in enumerate((self.n_a - 1, len(self.sigma) - self.n_a + 1)):
            own = choice[self.sigma[: self.n_a - 1] if k == 0 else self.sigma[self.n_a - 1 :]]
            x = np.concatenate([[1.0], own.astype(np.float64)])
            for _ in range(n):  # each round fixes one more level of the member's tree
                new = np.concatenate([[1.0], own * x[self.par[k][1:]]])
                if np.array_equal(new, x):
                    break
                x = new
            out.append(x[1:])
        return np.concatenate(out)


#: HiGHS's presolve runs on models with more variables than this: off, the small LPs
#: (Kuhn, 3P-SMH: 209-1,501 variables) solve faster; on, the small hold'em's (124,381
#: variables) does (``benchmarks/results/teams.md``, ``bench_team_response.py``)
PRESOLVE_FROM = 20_000

#: whether :class:`TerminalPairs` starts HiGHS from the last optimal basis (``False``:
#: a cold start per solve; ``benchmarks/bench_teams.py`` compares the two)
WARM_START = True

#: whether :class:`TerminalPairs` uses ``highspy`` when it is installed (``False``:
#: always :func:`scipy.optimize.linprog`; benchmarks and tests compare the two)
USE_HIGHSPY = True


class OutsideWeights:
    """Per terminal row: chance times the outsiders' reach, from the outsiders' sequence
    forms (one product per sequence, then a gather per terminal row: no pass over the
    rows), built once per game and team (:func:`per_team`)."""

    def __init__(self, game: Game, members: tuple[int, ...]):
        t = game.term_rows
        self.chance = game.weights[game.row_deal[t]]
        outsiders = tuple(q for q in range(game.n_players) if q not in members)
        last = last_sequences(game, outsiders, restricted=True)
        self.last = last[:, t]
        # each outsider action's parent: its owner's last action before the infoset
        rep = game.infoset_rep_row[game.sigma_infoset]
        self.parent = np.full(game.n_sigma, -1, dtype=np.int64)
        for k, q in enumerate(outsiders):
            mine = game.sigma_player == q
            self.parent[mine] = last[k, rep[mine]]

    def weights(self, sigma: np.ndarray) -> np.ndarray:
        """The weights for a float profile ``sigma`` (flat)."""
        sigma = np.asarray(sigma, dtype=np.float64)
        real = np.append(sigma, 1.0)  # slot -1: the empty sequence
        while True:  # each round fixes one more level of the sequence trees
            new = np.append(sigma * real[self.parent], 1.0)
            if np.array_equal(new, real):
                break
            real = new
        return self.chance * np.prod(real[self.last], axis=0)


def outside_weights(game: Game, members: tuple[int, ...], sigma: np.ndarray) -> np.ndarray:
    """Per terminal row (``game.term_rows`` order): chance times the reach of everybody
    outside ``members`` under the float profile ``sigma``
    (:func:`toypoker.engines.rows.values.counterfactual_reach` at the terminals, to rounding)."""
    return per_team(game, OutsideWeights, members).weights(sigma)


def plan_value(game: Game, members: tuple[int, ...], coef: np.ndarray, choice: np.ndarray
               ) -> float:  # fmt: skip
    """The team's summed payoff (float) of a joint pure plan of two members: ``coef``
    (as :func:`certified_plan`) summed over the terminal rows the plan reaches.

    Parameters
    ----------
    game, members, coef
        As in :func:`certified_plan`.
    choice
        A 0/1 plan over the game's actions (as :func:`certified_plan` returns).

    Returns
    -------
    float
    """
    model = per_team(game, TerminalPairs, members)
    return model.value(model.objective(coef), model.realization(np.asarray(choice)))


def certified_plan(
    game: Game, members: tuple[int, ...], coef: np.ndarray, time_limit: float | None = None
) -> np.ndarray | None:
    """The two-member team's best joint pure plan by the terminal-pairs LP or, when the
    LP comes out fractional, its MILP, if the certificate holds (``None`` otherwise:
    solve the lifted model).

    Parameters
    ----------
    game, members, coef, time_limit
        As in :func:`toypoker.teams.response.joint_plan` (two members).

    Returns
    -------
    numpy.ndarray or None
        A 0/1 vector over the game's actions (as ``joint_plan``), or ``None``.

    Raises
    ------
    MilpUnfinishedError
        If HiGHS stops before the LP's optimum.
    """
    found = certified_response(game, members, coef, time_limit)
    return None if found is None else found[0]


def certified_response(
    game: Game, members: tuple[int, ...], coef: np.ndarray, time_limit: float | None = None
) -> tuple[np.ndarray, float, str] | None:
    """:func:`certified_plan` with the plan's value (as :func:`plan_value`, from the
    certificate's own product) and what answered: ``"certified LP"`` or
    ``"certified MILP"`` (the terminal-pairs model's MILP); ``None`` as
    :func:`certified_plan`."""
    start = time.perf_counter()
    model = per_team(game, TerminalPairs, members)
    found, how = model.plan(coef, time_limit), "certified LP"
    if found is None:  # fractional: the same model's MILP
        if time_limit is not None:
            time_limit = max(time_limit - (time.perf_counter() - start), 1e-3)
        found, how = model.plan(coef, time_limit, integral=True), "certified MILP"
    if found is None:
        return None
    choice = np.zeros(game.n_sigma, dtype=np.int8)
    choice[model.sigma] = found[0]
    return complete_plan(game, members, choice), found[1], how
