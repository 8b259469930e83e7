"""A team's joint best response when its members do not share their cards.

Against fixed strategies of everybody else, a team of members who each see only
their own cards picks one pure plan per member; the plans interact, so the best
joint plan is a coordination problem (NP-hard in general: von Stengel and Koller
1997), not a backward induction.  Following the best-response oracle of Celli and
Gatti (2018, "Computational results for extensive-form adversarial team games",
Sec. 4) it is solved here as a mixed-integer program over the members' binary
sequence-form plans ``x_p``, one continuous variable ``z_j`` standing for each product
``prod_p x_p(s_jp)`` of the members' last sequences at a terminal row::

    max  sum_j c_j z_j   s.t.  E_p x_p = e_p,  x_p in {0, 1},
                               z_j <= x_p(s_jp)                       (c_j > 0)
                               z_j >= sum_p x_p(s_jp) - (k_j - 1)     (c_j < 0)

where ``c_j`` sums the outside weight (chance times the other players' reach) times
the team's payoff over the terminal rows with those last sequences.  Products with
one member's sequence are that sequence's variable.  For a team of two that
"product model" has a weak relaxation (3P-SMH: tens of seconds of branch and bound);
the "lifted model" (:func:`_joint_plan_lifted`) has one variable per pair of the
members' sequences and the sequence-form constraints multiplied out, a relaxation
that was integral on every 3P-SMH case tried.  A two-member team is first enumerated
when its member plans are few (:mod:`toypoker.teams.plans`, four-card Kuhn), else tries
the smaller terminal-pairs LP of :mod:`toypoker.teams.pairs`, whose plan is kept when it
certifies itself; the lifted model otherwise.  HiGHS (``scipy.optimize.milp``)
solves either MILP with a relative gap of 0; the caller evaluates the plan it returns
(exactly, for exact profiles).  :func:`joint_plan_alternating` is the fast heuristic
(the members best-respond to each other in turn): a lower bound, for games whose
MILP is out of reach.

This module sees only the compiled game and arrays (:mod:`toypoker.engines.rows.values` calls
it with the outside weights); it imports nothing above :mod:`toypoker.game`.
"""

from __future__ import annotations

import time
from collections import defaultdict

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.highs import interruptible
from toypoker.teams.beliefs import MAX_PRESCRIPTIONS, joint_plan_by_beliefs
from toypoker.teams.pairs import (
    MilpUnfinishedError,
    certified_response,
    complete_plan,
    last_sequences,
    member_sequences,
    per_team,
)
from toypoker.teams.plans import enumerated_response

__all__ = [
    "MAX_PAIRS",
    "MAX_PRESCRIPTIONS",
    "alternating_starts",
    "joint_plan",
    "joint_plan_alternating",
    "joint_plan_by_beliefs",
    "joint_response",
    "last_sequences",
    "member_sequences",
    "random_plans",
]


def joint_response(
    game: Game,
    members: tuple[int, ...],
    coef: np.ndarray,
    time_limit: float | None = None,
    model: str = "auto",
) -> tuple[np.ndarray, float | None, str]:
    """The team's best joint pure plan for terminal coefficients ``coef``, its value
    when the answering model gives it, and what answered.

    Parameters
    ----------
    game
        The compiled game.
    members
        The team's seats (0-based).
    coef
        Per terminal row (``game.term_rows`` order): outside weight times the team's
        payoff, float.
    time_limit
        Seconds for HiGHS (``None``: none).  A plan found within the limit but not
        proved optimal raises.
    model
        ``"lifted"`` (pairs of sequences: two members only), ``"product"`` (one
        variable per product at the terminals) or ``"auto"``: for two members the
        enumeration of the member with fewer plans when they are few
        (:func:`toypoker.teams.plans.enumerated_response`), else the terminal-pairs LP
        (:func:`toypoker.teams.pairs.certified_plan`) and, when its certificate fails,
        the lifted model if it has at most :data:`MAX_PAIRS` pairs of sequences; else
        the product model.

    Returns
    -------
    tuple of numpy.ndarray, float or None, and str
        A 0/1 vector over the game's actions: 1 at the chosen action of every free
        infoset of the members (0 elsewhere); the plan's value ``sum_j coef_j *
        (the plan reaches row j)`` (floats) from the terminal-pairs certificate, else
        ``None``; what answered: ``"enumeration"``
        (:func:`toypoker.teams.plans.enumerated_response`, games whose member plans are
        few), ``"certified LP"`` or ``"certified MILP"``
        (:func:`toypoker.teams.pairs.certified_response`), ``"lifted LP"``,
        ``"lifted MILP"`` or ``"product MILP"``.

    Raises
    ------
    ToypokerError
        If HiGHS does not prove a plan optimal.
    """
    if model == "auto":
        start = time.perf_counter()
        if len(members) == 2:
            listed = enumerated_response(game, members, coef)
            if listed is not None:
                return listed[0], listed[1], "enumeration"
            found = certified_response(game, members, coef, time_limit)
            if found is not None:
                return found
            if time_limit is not None:
                time_limit = max(time_limit - (time.perf_counter() - start), 1e-3)
        lifted = len(members) == 2 and _pair_count(game, members) <= MAX_PAIRS
        model = "lifted" if lifted else "product"
    if model == "lifted":
        if len(members) != 2:
            raise ToypokerError("the lifted team best-response model needs two members")
        plan, relaxed = _joint_plan_lifted(game, members, coef, time_limit)
        return plan, None, "lifted LP" if relaxed else "lifted MILP"
    if model != "product":
        raise ToypokerError(f"unknown team best-response model {model!r}")
    return _joint_plan_product(game, members, coef, time_limit), None, "product MILP"


def _joint_plan_product(
    game: Game, members: tuple[int, ...], coef: np.ndarray, time_limit: float | None
) -> np.ndarray:
    """:func:`joint_plan` by the product model (the module's docstring): the members'
    binary sequence-form plans, one continuous variable per product of their last
    sequences at the terminal rows."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    a, lo, hi, objective, mine, n_x = _product_model(game, members, coef)
    n = len(objective)
    integrality = np.concatenate([np.ones(n_x), np.zeros(n - n_x)])
    options: dict[str, object] = {"mip_rel_gap": 0.0}
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    res = interruptible(  # a signal heard while HiGHS runs (toypoker.highs)
        milp,
        objective,
        constraints=LinearConstraint(a, lo, hi),
        integrality=integrality,
        bounds=Bounds(np.zeros(n), np.ones(n)),
        options=options,
    )
    return _plan_of(game, members, res, mine, np.arange(n_x))


def _product_model(
    game: Game, members: tuple[int, ...], coef: np.ndarray
) -> tuple[object, list[float], list[float], np.ndarray, np.ndarray, int]:
    """The product model's constraint matrix and bounds, its objective (negated: HiGHS
    minimises), the members' free actions (``mine``) and how many of the variables are
    plan variables (the first ``n_x``; the products follow)."""
    from scipy.sparse import coo_array

    free = ~game.sigma_fixed
    mine = np.isin(game.sigma_player, members) & free
    var_of_sigma = np.full(game.n_sigma, -1, dtype=np.int64)
    var_of_sigma[mine] = np.arange(int(mine.sum()))
    n_x = int(mine.sum())
    last = last_sequences(game, members)[:, game.term_rows]
    # aggregate terminal rows by the members' last sequences
    keys, inverse = np.unique(last.T, axis=0, return_inverse=True)
    c = np.bincount(inverse.reshape(-1), weights=np.asarray(coef, float), minlength=len(keys))
    obj_x = np.zeros(n_x)
    products: list[tuple[float, list[int]]] = []
    for key, cj in zip(keys, c, strict=True):
        if cj == 0:
            continue
        xs = [int(var_of_sigma[s]) for s in key if s >= 0]
        if len(xs) == 0:
            continue  # a constant: the caller's exact evaluation counts it
        if len(xs) == 1:
            obj_x[xs[0]] += cj
        else:
            products.append((float(cj), xs))
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    lo: list[float] = []
    hi: list[float] = []

    def add(entries: dict[int, float], low: float, high: float) -> None:
        r = len(lo)
        for col, v in entries.items():
            rows.append(r)
            cols.append(col)
            vals.append(v)
        lo.append(low)
        hi.append(high)

    # sequence form of each member: the actions of an infoset sum to its parent sequence
    parent = last_sequences(game, members)
    for inf in game.infosets:
        if inf.player not in members or inf.restricted:
            continue
        entries: dict[int, float] = defaultdict(float)
        for s in range(inf.offset, inf.offset + len(inf.actions)):
            entries[int(var_of_sigma[s])] += 1.0
        ps = parent[members.index(inf.player), game.infoset_rep_row[inf.index]]
        if ps >= 0:
            entries[int(var_of_sigma[ps])] -= 1.0
            add(entries, 0.0, 0.0)
        else:
            add(entries, 1.0, 1.0)
    for j, (cj, xs) in enumerate(products):
        z = n_x + j
        if cj > 0:
            for x in xs:
                add({z: 1.0, x: -1.0}, -np.inf, 0.0)
        else:
            add({z: 1.0, **{x: -1.0 for x in xs}}, -(len(xs) - 1.0), np.inf)
    n = n_x + len(products)
    a = coo_array((vals, (rows, cols)), shape=(len(lo), n)).tocsr()
    objective = -np.concatenate([obj_x, [cj for cj, _ in products]])
    return a, lo, hi, objective, mine, n_x


def joint_plan(
    game: Game,
    members: tuple[int, ...],
    coef: np.ndarray,
    time_limit: float | None = None,
    model: str = "auto",
) -> np.ndarray:
    """The team's best joint pure plan for terminal coefficients ``coef``: the plan of
    :func:`joint_response` (same parameters and errors).

    Returns
    -------
    numpy.ndarray
        A 0/1 vector over the game's actions: 1 at the chosen action of every free
        infoset of the members (0 elsewhere).
    """
    return joint_response(game, members, coef, time_limit, model)[0]


def _plan_of(game: Game, members: tuple[int, ...], res: object, sigma: np.ndarray,
             cols: np.ndarray) -> np.ndarray:  # fmt: skip
    """The 0/1 plan of a finished MILP: ``res.x[cols]`` at the flat actions ``sigma``,
    the first action at every free infoset of the members the plan never reaches."""
    if res.status != 0 or res.x is None:  # type: ignore[attr-defined]
        raise MilpUnfinishedError(
            f"the team's best-response MILP did not finish: {res.message}"  # type: ignore[attr-defined]
        )
    choice = np.zeros(game.n_sigma, dtype=np.int8)
    choice[sigma] = np.round(res.x[cols]).astype(np.int8)  # type: ignore[attr-defined]
    return complete_plan(game, members, choice)


#: most pairs of sequences (the two members' sequences, empty ones included) for which
#: :func:`joint_plan` builds the lifted model; bigger teams get the product model
MAX_PAIRS = 400_000


def _pair_count(game: Game, members: tuple[int, ...]) -> int:
    """Pairs of sequences of a two-member team, the empty ones included."""
    a, b = (len(member_sequences(game, p)) + 1 for p in members)
    return a * b


def _joint_plan_lifted(
    game: Game, members: tuple[int, ...], coef: np.ndarray, time_limit: float | None
) -> tuple[np.ndarray, bool]:
    """:func:`joint_plan` for two members by the lifted (pairwise) model, and whether its
    LP relaxation answered (integral).

    One variable ``w(i, j)`` per pair of sequences, ``i`` of the first member and
    ``j`` of the second (``0``: the empty sequence; ``w(i, 0)`` and ``w(0, j)`` are the
    members' own plans, ``w(0, 0) = 1``), and each member's sequence-form constraints
    multiplied by every sequence of the other::

        sum_a w(I a, j) = w(p_I, j)   for each infoset I of the first member, each j,
        sum_b w(i, J b) = w(i, p_J)   for each infoset J of the second, each i,

    ``w >= 0``, the members' own plans binary.  These are the reformulation-
    linearization products (Sherali and Adams 1990) of the sequence form -- the
    pairwise consistency constraints of von Stengel and Forges's (2008) extensive-form
    correlation plans.  With binary plans they force ``w(i, j)`` to the product of the
    two plans (a member's root infosets split its partner's sequence variable among
    their actions, and inductively below), so the MILP is exact; its LP relaxation is
    far tighter than the product model's (on 3P-SMH the relaxation was integral in
    every case tried: one branch-and-bound node, ``benchmarks/bench_team_response.py``).
    So the LP relaxation is solved first, and the MILP only when the members' plans come
    out fractional; the model's structure is built once per game and team.
    """
    from scipy.optimize import Bounds, LinearConstraint, linprog, milp

    lifted = per_team(game, _Lifted, members)
    obj = np.bincount(lifted.term_key, weights=np.asarray(coef, float), minlength=lifted.n)
    options: dict[str, object] = {}
    if time_limit is not None:
        options["time_limit"] = float(time_limit)
    # the LP relaxation first: when the members' own plans come out 0/1 it is a feasible
    # point of the MILP at the relaxation's optimum, so the MILP's optimum (the common
    # case: integral on every 3P-SMH case tried)
    res = interruptible(linprog, -obj, A_eq=lifted.a, b_eq=lifted.rhs, bounds=(0.0, 1.0),
                        method="highs", options=options)  # fmt: skip
    if res.status == 0:
        x = res.x[lifted.cols_x]
        if np.all(np.minimum(np.abs(x), np.abs(x - 1.0)) <= 1e-9):
            return _plan_of(game, members, res, lifted.sigma, lifted.cols_x), True
    n = lifted.n
    res = interruptible(milp, -obj, constraints=LinearConstraint(lifted.a, lifted.rhs, lifted.rhs),
                        integrality=lifted.integrality, bounds=Bounds(np.zeros(n), np.ones(n)),
                        options={"mip_rel_gap": 0.0, **options})  # fmt: skip
    return _plan_of(game, members, res, lifted.sigma, lifted.cols_x), False


class _Lifted:
    """The lifted model's structure for one team (built once per game and team): the
    pair of last sequences at each terminal row, the constraints, the plan columns."""

    def __init__(self, game: Game, members: tuple[int, ...]):
        from scipy.sparse import coo_array

        seqs = [member_sequences(game, p) for p in members]
        index = np.zeros((2, game.n_sigma), dtype=np.int64)
        for k, s in enumerate(seqs):
            index[k, s] = 1 + np.arange(len(s))
        n_a, n_b = len(seqs[0]) + 1, len(seqs[1]) + 1
        parent = last_sequences(game, members)
        last = parent[:, game.term_rows]
        seq = [np.where(last[k] >= 0, index[k, last[k].clip(0)], 0) for k in range(2)]
        self.term_key = seq[0] * n_b + seq[1]
        # constraints as (row, column, value) blocks: row 0 fixes w(0, 0) = 1
        rows, cols, vals = [np.zeros(1, np.int64)], [np.zeros(1, np.int64)], [np.ones(1)]
        n_rows = 1
        for k, other in ((0, n_b), (1, n_a)):
            for inf in game.infosets:
                if inf.player != members[k] or inf.restricted:
                    continue
                ps = parent[k, game.infoset_rep_row[inf.index]]
                mine = [int(index[k, ps]) if ps >= 0 else 0]
                mine += [int(index[k, s]) for s in range(inf.offset, inf.offset + len(inf.actions))]
                sign = np.array([-1.0] + [1.0] * (len(mine) - 1))
                r = n_rows + np.repeat(np.arange(other), len(mine))
                m = np.tile(mine, other)
                o = np.repeat(np.arange(other), len(mine))
                rows.append(r)
                cols.append(m * n_b + o if k == 0 else o * n_b + m)
                vals.append(np.tile(sign, other))
                n_rows += other
        self.n = n_a * n_b
        self.a = coo_array(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
            shape=(n_rows, self.n),
        ).tocsr()
        self.rhs = np.zeros(n_rows)
        self.rhs[0] = 1.0
        self.integrality = np.zeros(self.n)
        self.integrality[1:n_b] = 1
        self.integrality[n_b * np.arange(1, n_a)] = 1
        self.sigma = np.concatenate(seqs)
        self.cols_x = np.concatenate([n_b * (1 + np.arange(n_a - 1)), 1 + np.arange(n_b - 1)])


def joint_plan_alternating(
    game: Game,
    members: tuple[int, ...],
    coef: np.ndarray,
    starts: list[np.ndarray] | None = None,
    max_rounds: int = 100,
) -> tuple[np.ndarray, float]:
    """A good joint pure plan, fast: the members best-respond to each other in turn.

    From each start plan (default: every member's first actions), each member in turn
    replaces its plan by its best response to the others' current plans (a backward
    induction over its own sequences: a member alone has perfect recall), until no
    member improves.  The result is a joint plan no single member can improve
    (a local optimum of :func:`joint_plan`'s program, not necessarily the global one):
    its value is a lower bound on the team's best-response value.

    Parameters
    ----------
    game, members, coef
        As in :func:`joint_plan`.
    starts
        Plans (as :func:`joint_plan` returns) to start from; the best result wins.
    max_rounds
        Cap on the rounds (every member once) per start.

    Returns
    -------
    tuple of numpy.ndarray and float
        The plan and its value ``sum_j coef_j * (the plan reaches row j)``.
    """
    coef = np.asarray(coef, dtype=np.float64)
    last = last_sequences(game, members)[:, game.term_rows]
    last = np.where(last >= 0, last, game.n_sigma)  # slot n_sigma: the empty sequence
    trees = [_member_tree(game, p) for p in members]
    if not starts:
        starts = [np.zeros(game.n_sigma, dtype=np.int8)]
    best: tuple[np.ndarray, float] | None = None
    for start in starts:
        x = np.asarray(start, dtype=np.float64).copy()
        for order, _ in trees:  # complete plans
            for _inf, acts, _ in order:
                if not x[acts].any():
                    x[acts[0]] = 1.0
        value = -np.inf
        for _ in range(max_rounds):
            before = value
            for j, (order, seqs) in enumerate(trees):
                others = np.ones(len(coef))
                for k in range(len(members)):
                    if k != j:  # the realization plan of member k's behaviour
                        r = np.ones(game.n_sigma + 1)
                        for _inf, acts, parent in reversed(trees[k][0]):
                            r[acts] = r[parent] * x[acts]
                        others *= r[last[k]]
                v = np.bincount(last[j], weights=coef * others, minlength=game.n_sigma + 1)
                x[seqs] = 0.0
                for _inf, acts, parent in order:
                    a = acts[int(np.argmax(v[acts]))]
                    x[a] = 1.0
                    v[parent] += v[a]
                value = float(v[game.n_sigma])  # never below the last: x was a candidate
            if value <= before + 1e-12 * max(1.0, abs(value)):
                break
        if best is None or value > best[1]:
            best = (x.astype(np.int8), value)
    assert best is not None
    return best


def _member_tree(game: Game, p: int) -> tuple[list[tuple[int, np.ndarray, int]], np.ndarray]:
    """Seat ``p``'s free infosets deepest first, each with its actions (flat sigma) and
    parent sequence (``game.n_sigma`` for the empty one), and all its free actions."""
    parent = last_sequences(game, (p,))[0]
    order = []
    for inf in game.infosets:
        if inf.player == p and not inf.restricted:
            ps = int(parent[game.infoset_rep_row[inf.index]])
            acts = np.arange(inf.offset, inf.offset + len(inf.actions))
            order.append((inf.index, acts, ps if ps >= 0 else game.n_sigma))
    order.sort(key=lambda t: -game.nodes[game.infosets[t[0]].node].depth)
    return order, member_sequences(game, p)


def alternating_starts(
    game: Game,
    members: tuple[int, ...],
    sigma: np.ndarray,
    restarts: int,
    rng: np.random.Generator | None,
) -> list[np.ndarray]:
    """Start plans of :func:`joint_plan_alternating`: the members' likeliest actions
    under ``sigma``, their first actions, and ``restarts`` :func:`random_plans` drawn
    with ``rng`` (default: seed 0)."""
    mode = np.zeros(game.n_sigma, dtype=np.int8)
    probs = np.asarray(sigma, dtype=np.float64)
    for inf in game.infosets:
        if inf.player in members:
            row = probs[inf.offset : inf.offset + len(inf.actions)]
            mode[inf.offset + int(np.argmax(row))] = 1
    starts = [mode, np.zeros(game.n_sigma, dtype=np.int8)]
    return starts + random_plans(game, members, restarts, rng or np.random.default_rng(0))


def random_plans(
    game: Game, members: tuple[int, ...], n: int, rng: np.random.Generator
) -> list[np.ndarray]:
    """``n`` joint pure plans, an action drawn uniformly at every free infoset of the
    members (start plans for :func:`joint_plan_alternating`)."""
    infs = [i for i in game.infosets if i.player in members and not i.restricted]
    out = []
    for _ in range(n):
        plan = np.zeros(game.n_sigma, dtype=np.int8)
        for inf in infs:
            plan[inf.offset + int(rng.integers(len(inf.actions)))] = 1
        out.append(plan)
    return out
