"""A certified upper bound on a two-member team's best-response value, for games whose
exact team best response (the lifted MILP of :mod:`toypoker.teams.response`) is too big.

The lifted model has one variable ``w(i, j)`` per pair of the members' sequences and
the members' sequence-form constraints multiplied by every sequence of the partner
(Sherali and Adams 1990; the pairwise consistency of von Stengel and Forges 2008).  On
3P-MMH that is 48 M pairs.  Most never matter: the objective only weighs the pairs
that meet at a terminal row.  Here the model keeps the **relevant pairs**: those at
the terminals, closed under "the parent sequence of either member" and "the sibling
sequences of either member" (so that every kept constraint ``sum_a w(I a, j) =
w(p_I, j)`` has all its variables), and only the constraints whose variables are all
kept.  Dropping variables together with every constraint that mentions them projects
the lifted polytope onto the kept coordinates and then relaxes it, so the restricted
LP's optimum is an upper bound on the lifted LP's, which bounds the team's best
pure joint plan (3P-MMH team 23: 152,340 terminal pairs, 1,087,521 kept).

The bound is **certified** without trusting the LP solver: for any multipliers ``pi``
on the equalities ``A w = b`` and any objective ``c``, with ``0 <= w <= 1``,

    c^T w = pi^T b + (c - A^T pi)^T w <= pi^T b + sum_j max(0, (c - A^T pi)_j),

so :func:`certified_bound` evaluates the right-hand side in integers for HiGHS's
duals rounded to a binary grid and the exact objective: an exact rational that is an
upper bound whatever the solver's rounding.  The LP's optimal ``w`` also gives a
joint plan (each infoset's most-weighted action; exact when the relaxation is
integral), which column generation can use as its next plan
(:func:`toypoker.teams.tmecor.tmecor`, ``oracle="relaxation"``).

This module sees only the compiled game and arrays; it imports nothing above
:mod:`toypoker.teams.response`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.highs import interruptible, silence_banner
from toypoker.teams.pairs import highs_model
from toypoker.teams.response import last_sequences, member_sequences

__all__ = [
    "PairModel",
    "RelaxedResponse",
    "certified_bound",
    "pair_model",
    "relaxed_response",
    "relaxed_bound_pdlp",
]


@dataclass(frozen=True)
class PairModel:
    """The lifted team model restricted to relevant pairs of sequences.

    Attributes
    ----------
    members
        The two seats (0-based).
    sigma
        Per member, its free actions (flat sigma indices): its sequences ``1..n``
        (``0`` is the empty sequence).
    n_b
        The second member's sequences plus one: a pair ``(i, j)`` has key ``i * n_b + j``.
    keys
        The kept pairs' keys, sorted (variable ``v`` is the pair ``keys[v]``).
    term_var
        The variable of each terminal row (``game.term_rows`` order).
    a
        The kept equality constraints ``A w = b`` (sparse, entries +-1); row 0 is
        ``w(0, 0) = 1``, the others have right-hand side 0.
    terminal_pairs
        How many distinct pairs meet at the terminal rows.
    """

    members: tuple[int, int]
    sigma: tuple[np.ndarray, np.ndarray]
    n_b: int
    keys: np.ndarray
    term_var: np.ndarray
    a: object
    terminal_pairs: int

    @property
    def n_vars(self) -> int:
        """Kept pairs."""
        return len(self.keys)

    @property
    def n_constraints(self) -> int:
        """Kept equality constraints."""
        return int(self.a.shape[0])  # type: ignore[attr-defined]


def _expand(groups_ptr: np.ndarray, group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each entry of ``group``: the members of that group (CSR ``groups_ptr``) as
    (positions into the input, sequence numbers)."""
    size = groups_ptr[group + 1] - groups_ptr[group]
    owner = np.repeat(np.arange(len(group)), size)
    start = np.repeat(groups_ptr[group], size)
    offset = np.arange(int(size.sum())) - np.repeat(np.cumsum(size) - size, size)
    return owner, start + offset


def pair_model(game: Game, members: tuple[int, int]) -> PairModel:
    """The relevant-pairs model of a two-member team (see the module's docstring).

    Parameters
    ----------
    game
        The compiled game.
    members
        Two seats (0-based).

    Returns
    -------
    PairModel
    """
    from scipy.sparse import coo_array

    if len(members) != 2:
        raise ToypokerError("the relevant-pairs team model needs two members")
    sigma = tuple(member_sequences(game, p) for p in members)
    index = np.zeros((2, game.n_sigma), dtype=np.int64)
    for k, s in enumerate(sigma):
        index[k, s] = 1 + np.arange(len(s))
    n_b = len(sigma[1]) + 1
    parent = last_sequences(game, members)
    # per member: each sequence's parent sequence and its infoset (a sibling group)
    par, grp, ptr, seq_of = [], [], [], []
    for k in range(2):
        infs = game.sigma_infoset[sigma[k]]
        rep = parent[k, game.infoset_rep_row[infs]]
        p_of = np.zeros(len(sigma[k]) + 1, dtype=np.int64)
        p_of[1:] = np.where(rep >= 0, index[k, rep.clip(0)], 0)
        uniq, inv = np.unique(infs, return_inverse=True)
        g_of = np.full(len(sigma[k]) + 1, -1, dtype=np.int64)
        g_of[1:] = inv
        order = np.argsort(inv, kind="stable")
        par.append(p_of)
        grp.append(g_of)
        ptr.append(np.concatenate([[0], np.cumsum(np.bincount(inv, minlength=len(uniq)))]))
        seq_of.append(order + 1)
    last = parent[:, game.term_rows]
    seq = [np.where(last[k] >= 0, index[k, last[k].clip(0)], 0) for k in range(2)]
    term_key = seq[0] * n_b + seq[1]
    kept = np.unique(np.concatenate([term_key, [0]]))
    terminal_pairs = len(np.unique(term_key))
    frontier = kept
    while len(frontier):
        i, j = frontier // n_b, frontier % n_b
        new = []
        for k, (mine, other) in enumerate(((i, j), (j, i))):
            on = mine > 0
            s, o = mine[on], other[on]
            owner, sib = _expand(ptr[k], grp[k][s])
            sib = seq_of[k][sib]
            for x, y in ((par[k][s], o), (sib, o[owner])):
                new.append(x * n_b + y if k == 0 else y * n_b + x)
        cand = np.unique(np.concatenate(new))
        frontier = np.setdiff1d(cand, kept, assume_unique=True)
        kept = np.union1d(kept, frontier)
    i, j = kept // n_b, kept % n_b
    rows, cols, vals = [np.zeros(1, np.int64)], [np.zeros(1, np.int64)], [np.ones(1)]
    n_rows = 1
    for k, (mine, other) in enumerate(((i, j), (j, i))):
        on = np.flatnonzero(mine > 0)
        group_key = grp[k][mine[on]] * (n_b if k == 0 else len(sigma[0]) + 1) + other[on]
        uniq, con = np.unique(group_key, return_inverse=True)
        rows.append(n_rows + con)
        cols.append(on)
        vals.append(np.ones(len(on)))
        # the parent pair of each constraint, from its first child
        first = on[np.unique(con, return_index=True)[1]]
        pk = par[k][mine[first]]
        pkey = pk * n_b + other[first] if k == 0 else other[first] * n_b + pk
        rows.append(n_rows + np.arange(len(uniq)))
        cols.append(np.searchsorted(kept, pkey))
        vals.append(-np.ones(len(uniq)))
        n_rows += len(uniq)
    a = coo_array(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
        shape=(n_rows, len(kept)),
    ).tocsr()
    return PairModel(
        members=(int(members[0]), int(members[1])),
        sigma=(sigma[0], sigma[1]),
        n_b=n_b,
        keys=kept,
        term_var=np.searchsorted(kept, term_key),
        a=a,
        terminal_pairs=terminal_pairs,
    )


@dataclass(frozen=True)
class RelaxedResponse:
    """The restricted lifted LP's solution for one objective.

    Attributes
    ----------
    value
        The LP's optimum (float): an upper bound on the team's best-response value up
        to the solver's rounding (:func:`certified_bound` makes it exact).
    duals
        The equalities' multipliers ``pi`` (float).
    plan
        A joint pure plan (0/1 over the game's actions): each free infoset of the
        members plays its most-weighted action in the LP's ``w``.
    integral
        Whether the members' own plans ``w(i, 0)``, ``w(0, j)`` were 0/1 (within 1e-6):
        then ``plan`` is the team's best response.
    seconds
        Wall time of the LP.
    point
        The LP's (or PDLP's last) ``w``, one entry per kept pair.
    """

    value: float
    duals: np.ndarray
    plan: np.ndarray
    integral: bool
    seconds: float
    point: np.ndarray | None = None


def relaxed_response(
    game: Game,
    model: PairModel,
    coef: np.ndarray,
    method: str = "highs-ipm",
    seconds: float = 60.0,
) -> RelaxedResponse:
    """Solve the restricted lifted LP for terminal coefficients ``coef``.

    Parameters
    ----------
    game
        The compiled game ``model`` was built on.
    model
        :func:`pair_model` of the team.
    coef
        Per terminal row: outside weight times the team's payoff (float).
    method
        The HiGHS method of :func:`scipy.optimize.linprog` (``"highs-ipm"``: interior
        point with crossover; ``"highs-ds"`` dual simplex; ``"highs"``: its choice), or
        ``"pdlp"``: HiGHS's first-order PDLP stopped after ``seconds``
        (:func:`relaxed_bound_pdlp`; its iterate's plan and multipliers, ``value`` the
        bound those multipliers give in floats).
    seconds
        PDLP's time limit (``method="pdlp"`` only).

    Returns
    -------
    RelaxedResponse

    Raises
    ------
    ToypokerError
        If HiGHS does not solve the LP.
    """
    import time

    from scipy.optimize import linprog

    t0 = time.perf_counter()
    c = np.bincount(model.term_var, weights=np.asarray(coef, float), minlength=model.n_vars)
    b = np.zeros(model.n_constraints)
    b[0] = 1.0
    if method == "pdlp":
        w, duals, value, _ = _pdlp(model, c, seconds, 1e-7)
    else:
        res = interruptible(linprog, -c, A_eq=model.a, b_eq=b, bounds=(0.0, 1.0), method=method)
        if res.status != 0:
            raise ToypokerError(f"the team's relaxed best-response LP failed: {res.message}")
        w, value = res.x, float(-res.fun)
        duals = -np.asarray(res.eqlin.marginals, dtype=np.float64)
    plan = np.zeros(game.n_sigma, dtype=np.int8)
    own = []
    for k in range(2):
        seqs = np.arange(1, len(model.sigma[k]) + 1)
        keys = seqs * model.n_b if k == 0 else seqs
        pos = np.searchsorted(model.keys, keys)
        found = (pos < model.n_vars) & (model.keys[pos.clip(0, model.n_vars - 1)] == keys)
        x = np.zeros(len(seqs))
        x[found] = w[pos[found]]
        own.append(x)
        weight = np.full(game.n_sigma, -1.0)
        weight[model.sigma[k]] = x
        for inf in game.infosets:
            if inf.player == model.members[k] and not inf.restricted:
                block = weight[inf.offset : inf.offset + len(inf.actions)]
                plan[inf.offset + int(np.argmax(block))] = 1
    xs = np.concatenate(own)
    integral = bool(np.all(np.minimum(np.abs(xs), np.abs(xs - 1)) <= 1e-6))
    return RelaxedResponse(value, duals, plan, integral, time.perf_counter() - t0, w)


def certified_bound(
    model: PairModel, duals: np.ndarray, numerators: np.ndarray, den: int, bits: int = 40
) -> Fraction:
    """An exact upper bound on the team's best-response value (see the module's docstring).

    Parameters
    ----------
    model
        :func:`pair_model` of the team.
    duals
        Multipliers of the equalities (any: the bound is valid for every choice; the
        LP's duals make it tight).  Rounded to multiples of ``2**-bits``.
    numerators, den
        The exact objective: per terminal row, ``numerators[r] / den`` (integers).
    bits
        Grid of the rounded multipliers.

    Returns
    -------
    fractions.Fraction
        ``pi^T b + sum_j max(0, c_j - (A^T pi)_j)`` exactly, at least the team's best
        joint pure plan's value for that objective.
    """
    scale = 1 << bits
    pi = np.round(np.asarray(duals, dtype=np.float64) * scale).astype(np.int64)
    at_pi = np.asarray(model.a.T @ pi, dtype=np.int64)  # type: ignore[attr-defined]
    num = np.asarray(numerators, dtype=object)
    c = np.zeros(model.n_vars, dtype=object)
    np.add.at(c, model.term_var, num)
    # c_j - (A^T pi)_j over the denominator den * 2**bits
    reduced = c * scale - at_pi.astype(object) * den
    positive = sum((int(v) for v in reduced if v > 0), 0)
    return Fraction(int(pi[0]) * den + positive, den * scale)


def relaxed_bound_pdlp(
    model: PairModel, coef: np.ndarray, seconds: float, gap: float = 1e-7
) -> tuple[np.ndarray, str]:
    """Multipliers ``pi`` for :func:`certified_bound`, from HiGHS's first-order PDLP
    (cuPDLP-C) on the restricted lifted LP, for LPs too big for the simplex or the
    interior point (3P-MMH: 1.09 M pairs; ``benchmarks/results/teams.md``).

    With presolve off, the iterate PDLP holds when its time limit stops it is in the
    original space; the box ``0 <= w <= 1`` makes every ``pi`` dual feasible, so
    :func:`certified_bound` turns any iterate into an exact upper bound (a converged one
    into the LP's optimum).

    Parameters
    ----------
    model
        :func:`pair_model` of the team.
    coef
        Per terminal row: outside weight times the team's payoff (float).
    seconds
        HiGHS's time limit.
    gap
        PDLP's relative duality-gap tolerance.

    Returns
    -------
    tuple of numpy.ndarray and str
        The multipliers and HiGHS's model status (``"Optimal"`` or ``"Time limit
        reached"``).

    Raises
    ------
    ToypokerError
        If ``highspy`` is not installed or HiGHS gives no iterate.
    """
    c = np.bincount(model.term_var, weights=np.asarray(coef, float), minlength=model.n_vars)
    _, pi, _, status = _pdlp(model, c, seconds, gap)
    return pi, status


def _pdlp(
    model: PairModel, c: np.ndarray, seconds: float, gap: float
) -> tuple[np.ndarray, np.ndarray, float, str]:
    """PDLP on ``max c^T w, A w = b, 0 <= w <= 1``: its last iterate ``w``, the
    multipliers (signed for :func:`certified_bound`), the bound they give in floats,
    HiGHS's status."""
    nv, nc = model.n_vars, model.n_constraints
    rhs = np.zeros(nc)
    rhs[0] = 1.0
    try:
        h = highs_model(model.a, np.zeros(nv), np.ones(nv), rhs, rhs, c)
    except ImportError:
        raise ToypokerError("the PDLP relaxed bound needs highspy (pip install highspy)") from None
    for key, val in (("solver", "pdlp"), ("presolve", "off"), ("time_limit", float(seconds)),
                     ("pdlp_d_gap_tol", float(gap))):  # fmt: skip
        h.setOptionValue(key, val)
    interruptible(h.run)
    pi = np.asarray(h.getSolution().row_dual, dtype=np.float64)
    if len(pi) != nc:
        raise ToypokerError("HiGHS gave no iterate for the relaxed bound")
    # HiGHS's sign convention for a maximisation: take the sign with the smaller bound
    at = model.a.T  # type: ignore[attr-defined]
    bound = [s * pi[0] + np.clip(c - s * (at @ pi), 0, None).sum() for s in (1.0, -1.0)]
    sign = 1.0 if bound[0] <= bound[1] else -1.0
    sol = h.getSolution()
    w = np.asarray(sol.col_value, dtype=np.float64)
    return w, sign * pi, float(min(bound)), h.modelStatusToString(h.getModelStatus())


@dataclass(frozen=True)
class RelaxedSaddle:
    """The relaxation's saddle LP ``max_{w, z} z_0`` s.t. ``A w = b``, ``0 <= w <= 1``,
    ``F^T z <= C w`` (the outsider's sequence form ``F``, ``C`` the team's payoff per
    outsider sequence and kept pair): its value is ``min_y max_w`` of the relaxed best
    response, the smallest upper end the relevant-pairs relaxation can give.

    Attributes
    ----------
    value
        HiGHS's objective (float; an iterate's value when stopped early).
    w, z
        The primal iterate: a point of the relaxation (up to the solver's residuals)
        and the outsider's value multipliers.
    duals, outsider
        The dual iterate: the equalities' multipliers ``pi`` (signed as for
        :func:`certified_bound`, once an objective is fixed) and the outsider's float
        realization plan ``y``.
    status
        HiGHS's model status.
    seconds
        Wall time.
    """

    value: float
    w: np.ndarray
    z: np.ndarray
    duals: np.ndarray
    outsider: np.ndarray
    status: str
    seconds: float


def relaxed_saddle(
    model: PairModel,
    ft: object,
    term_seq: np.ndarray,
    coef: np.ndarray,
    seconds: float,
    method: str = "pdlp",
    gap: float = 1e-8,
) -> RelaxedSaddle:
    """Solve the relaxation's saddle LP (:class:`RelaxedSaddle`) with the outsider free.

    Parameters
    ----------
    model
        :func:`pair_model` of the team.
    ft
        The outsider's ``F^T`` (sparse, ``(n_seq, n_z)``, column 0 the root).
    term_seq
        The outsider's sequence at each terminal row.
    coef
        Per terminal row: chance weight times the team's payoff (float).
    seconds
        HiGHS's time limit.
    method
        ``"pdlp"`` (first order, presolve off: the iterate is in the original space) or
        any other HiGHS ``solver`` option (``"simplex"``, ``"ipm"``) for small games.
    gap
        PDLP's relative duality-gap tolerance.

    Returns
    -------
    RelaxedSaddle

    Raises
    ------
    ToypokerError
        If ``highspy`` is missing or HiGHS gives no iterate.
    """
    import time

    from scipy.sparse import bmat, coo_array, csr_array

    try:
        import highspy
    except ImportError:
        raise ToypokerError("the relaxation's saddle LP needs highspy") from None
    t0 = time.perf_counter()
    nv, nc = model.n_vars, model.n_constraints
    ft = csr_array(ft)
    n_seq, nz = ft.shape
    key = np.asarray(term_seq, np.int64) * nv + model.term_var
    uniq, inv = np.unique(key, return_inverse=True)
    cw = coo_array(
        (np.bincount(inv.reshape(-1), weights=np.asarray(coef, float)), (uniq // nv, uniq % nv)),
        shape=(n_seq, nv),
    )
    big = bmat([[model.a, None], [-cw, ft]], format="csc")
    lower = np.concatenate([np.zeros(nc), np.full(n_seq, -highspy.kHighsInf)])
    upper = np.zeros(nc + n_seq)
    lower[0] = upper[0] = 1.0
    obj = np.zeros(nv + nz)
    obj[nv] = 1.0
    col_lo = np.concatenate([np.zeros(nv), np.full(nz, -highspy.kHighsInf)])
    col_hi = np.concatenate([np.ones(nv), np.full(nz, highspy.kHighsInf)])
    silence_banner()  # HiGHS prints a copyright banner on stdout at its first model
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    passed = h.passModel(
        nv + nz, nc + n_seq, big.nnz, int(highspy.MatrixFormat.kColwise),
        int(highspy.ObjSense.kMaximize), 0.0, obj, col_lo, col_hi, lower, upper,
        big.indptr.astype(np.int32), big.indices.astype(np.int32),
        big.data.astype(np.float64), np.zeros(nv + nz, dtype=np.int32),
    )  # fmt: skip
    if passed != highspy.HighsStatus.kOk:
        raise ToypokerError("HiGHS refused the relaxation's saddle LP")
    options = {"solver": method, "time_limit": float(seconds)}
    if method == "pdlp":
        options.update(presolve="off", pdlp_d_gap_tol=float(gap))
    for k, v in options.items():
        h.setOptionValue(k, v)
    interruptible(h.run)
    sol = h.getSolution()
    x = np.asarray(sol.col_value, dtype=np.float64)
    dual = np.asarray(sol.row_dual, dtype=np.float64)
    if len(x) != nv + nz or len(dual) != nc + n_seq:
        raise ToypokerError("HiGHS gave no iterate for the relaxation's saddle LP")
    y = dual[nc:]
    sign = 1.0 if y[0] >= 0 else -1.0  # the outsider's root sequence has y = 1
    value = float(h.getInfo().objective_function_value)
    status = h.modelStatusToString(h.getModelStatus())
    return RelaxedSaddle(value, x[:nv], x[nv:], sign * dual[:nc], np.clip(sign * y, 0, None),
                         status, time.perf_counter() - t0)  # fmt: skip
