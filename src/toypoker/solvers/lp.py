"""The sequence-form linear program for two-player zero-sum games
(Koller, Megiddo, von Stengel 1996), solved with scipy's HiGHS on sparse
matrices, then certified exactly.

Player 1's realization plan ``x`` and player 2's ``y`` satisfy ``E x = e`` and
``F y = f`` (the empty sequence has weight 1; each infoset's actions sum to its
parent sequence; restricted infosets keep their fixed probabilities).  With
``A[s1, s2] = sum_z chance(z) u_1(z)`` over terminal rows whose sequences are
``(s1, s2)``, player 1 solves::

    max_{x, q}  f^T q   s.t.  F^T q - A^T x <= 0,  E x = e,  x >= 0

and player 2 the symmetric problem.  The value and strategies are then
rationalised (continued fractions of growing precision) and certified by the
exact evaluator: when both players' exact best-response gains are 0 the value
is exact; otherwise the exact security levels bracket it.  :func:`solve_lp`
runs with BLAS limited (:func:`toypoker.threads.limit_blas`): the certificate's
QR factorisations are small, and OpenBLAS's default threads slow them on a busy
machine (``benchmarks/results/peers.md``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from types import ModuleType

import numpy as np
import scipy.sparse as sp
from scipy.linalg import qr
from scipy.optimize import linprog

from toypoker.engines.protocol import Evaluation
from toypoker.errors import ToypokerError
from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.highs import interruptible
from toypoker.profile import Profile
from toypoker.sequence_form import constraint_matrix, constraint_rows, seat_sequences
from toypoker.solvers.base import OneShotState
from toypoker.solvers.options import integer
from toypoker.threads import blas_limited


@dataclass(frozen=True)
class SequenceForm:
    """Sequences and constraints of both players (sequence 0 is the empty one)."""

    seq_of_sigma: np.ndarray  # flat action index -> sequence index of its player (>= 1)
    n_seq: tuple[int, int]
    E: tuple[sp.csr_matrix, sp.csr_matrix]
    e: tuple[np.ndarray, np.ndarray]
    A: sp.csr_matrix  # (n_seq[0], n_seq[1]) expected payoff of player 1
    parent_seq: np.ndarray  # per infoset: its player's parent sequence


def sequence_form(game: Game) -> SequenceForm:
    """Sequences, constraint matrices ``E``, ``F`` and payoff matrix ``A`` of a
    two-player game (Koller, Megiddo, von Stengel 1996), as the engine the game is built
    on assembles them (:meth:`toypoker.engines.protocol.Engine.sequence_form`)."""
    return game.engine.sequence_form().form  # type: ignore[no-any-return]


def sequences(game: Game) -> tuple[np.ndarray, tuple[int, int]]:
    """Each flat action's sequence index within its player's (``>= 1``; 0 is the empty
    sequence) and the players' sequence counts, of a two-player game
    (:func:`toypoker.sequence_form.seat_sequences` of each)."""
    if game.n_players != 2:
        raise ToypokerError(
            f"the sequence-form LP is for two-player games; {game.spec} has "
            f"{game.n_players} players"
        )
    (s0, n0), (s1, n1) = seat_sequences(game, (0,)), seat_sequences(game, (1,))
    return s0 + s1, (n0, n1)


def constraints(
    game: Game,
    seq_of_sigma: np.ndarray,
    n_seq: tuple[int, int],
    parent_seq: np.ndarray,
    A: sp.csr_matrix,
) -> SequenceForm:
    """The :class:`SequenceForm` with the players' constraints ``E x = e``
    (:func:`toypoker.sequence_form.constraint_rows`, from the infosets and their parent
    sequences), and the payoff matrix ``A`` as given (the layouts assemble ``A``: rows
    here, :mod:`toypoker.engines.vectors.sequence_form`)."""
    Es, es_ = [], []
    for p in range(2):
        mine = [i for i in game.infosets if i.player == p]
        rows = constraint_rows(mine, seq_of_sigma, parent_seq, game.fixed_values)
        Es.append(constraint_matrix(rows, n_seq[p]))
        rhs = np.zeros(len(rows))
        rhs[0] = 1.0
        es_.append(rhs)
    return SequenceForm(seq_of_sigma, n_seq, (Es[0], Es[1]), (es_[0], es_[1]), A, parent_seq)


def _solve_player(sf: SequenceForm, player: int) -> tuple[np.ndarray, float]:
    """Realization plan of ``player`` maximising its guaranteed payoff, and that value."""
    if player == 0:
        M, E, e, F, f = sf.A, sf.E[0], sf.e[0], sf.E[1], sf.e[1]
    else:
        M, E, e, F, f = (-sf.A).T.tocsr(), sf.E[1], sf.e[1], sf.E[0], sf.e[0]
    nx, nq = E.shape[1], F.shape[0]
    c = np.concatenate([np.zeros(nx), -f])
    A_ub = sp.hstack([-M.T, F.T]).tocsr()
    A_eq = sp.hstack([E, sp.csr_matrix((E.shape[0], nq))]).tocsr()
    bounds = [(0, None)] * nx + [(None, None)] * nq
    res = interruptible(  # Ctrl-C heard while HiGHS runs (minutes on a large game)
        linprog, c, A_ub=A_ub, b_ub=np.zeros(A_ub.shape[0]), A_eq=A_eq, b_eq=e, bounds=bounds,
        method="highs",
    )  # fmt: skip
    if res.status != 0:
        raise ToypokerError(f"the LP solver failed: {res.message}")
    return res.x[:nx], float(-res.fun)


def _exact_E(game: Game, sf: SequenceForm, player: int) -> list[dict[int, Fraction]]:
    """Rows of ``E`` (``F``) with exact entries."""
    mine = [i for i in game.infosets if i.player == player]
    fixed = game.fixed_values_exact
    return constraint_rows(mine, sf.seq_of_sigma, sf.parent_seq, fixed, Fraction(1))  # type: ignore[return-value]


def exact_plan(
    game: Game,
    sf: SequenceForm,
    player: int,
    x: np.ndarray,
    payoffs: dict[tuple[int, int], Fraction],
    tol: float = 1e-9,
) -> list[Fraction] | None:
    """An exact realization plan on the face the LP's float optimum ``x`` lies on.

    Complementary slackness: ``E x = e`` and the inequalities ``F^T q <= M^T x``
    that are tight at the float optimum hold with equality; sequences at zero
    stay zero.  Independent rows and columns are chosen by pivoted QR in
    floats, the square system is solved in exact rationals (python-flint), and
    any free unknowns are fixed at rounded float values.  ``None`` if the
    result is not a valid plan (the caller then keeps the float bracket).
    """
    try:
        import flint
    except ImportError:  # pragma: no cover - optional speed-up
        return None
    me, other = player, 1 - player
    nx = sf.n_seq[me]
    Erows = _exact_E(game, sf, me)
    Frows = _exact_E(game, sf, other)
    nq = len(Frows)
    M = _own_payoffs(payoffs, player)
    # float q from the LP dual is not at hand: tightness from x alone via a dual solve
    xf = np.maximum(x, 0.0)
    support = [i for i in range(nx) if xf[i] > tol]
    dual = _tight_rows(Frows, M, xf, sf.n_seq[other], tol)
    if dual is None:
        return None
    qf, tight = dual
    # unknowns: x_support then q; equations: E rows then tight rows
    cols = [("x", i) for i in support] + [("q", i) for i in range(nq)]
    eqs = _face_equations(Erows, Frows, M, sf.n_seq[other], support, tight)
    values = _solve_face(flint, eqs, cols, np.concatenate([xf[support], qf]))
    if values is None:
        return None
    plan = [Fraction(0)] * nx
    for k, (kind, i) in enumerate(cols):
        if kind == "x":
            plan[i] = values[k]
    if any(v < 0 for v in plan):
        return None
    return plan


#: one linear equation of the optimal face: coefficients by unknown (``("x", i)`` or
#: ``("q", i)``), and the right-hand side
_Equation = tuple[dict[tuple[str, int], Fraction], Fraction]


def _own_payoffs(
    payoffs: dict[tuple[int, int], Fraction], player: int
) -> dict[tuple[int, int], Fraction]:
    """``M[s_me, s_other]``: the payoff of ``player`` from player 1's exact payoffs (an
    engine's exact ``A``, :meth:`~toypoker.engines.protocol.Engine.sequence_form`),
    keyed by its own sequence first."""
    sign = 1 if player == 0 else -1
    M: dict[tuple[int, int], Fraction] = {}
    for (s1, s2), c in payoffs.items():
        key = (s1, s2) if player == 0 else (s2, s1)
        M[key] = sign * c
    return M


def _tight_rows(
    Frows: list[dict[int, Fraction]], M: dict[tuple[int, int], Fraction], xf: np.ndarray,
    n_other: int, tol: float,
) -> tuple[np.ndarray, list[int]] | None:  # fmt: skip
    """The float dual ``q`` at the plan ``xf`` and the other player's sequences whose
    rows of ``F^T q <= M^T x`` are tight there (within ``tol``); ``None`` if the dual
    LP fails."""
    nq = len(Frows)
    # slack of each other-sequence row needs q; solve the LP dual in floats for it
    Fmat = np.zeros((nq, n_other))
    for i, row in enumerate(Frows):
        for s, c in row.items():
            Fmat[i, s] = float(c)
    Mx = np.zeros(n_other)
    for (sm, so), c in M.items():
        Mx[so] += float(c) * xf[sm]
    f = np.zeros(nq)
    f[0] = 1.0
    res = interruptible(
        linprog, -f, A_ub=Fmat.T, b_ub=Mx, bounds=[(None, None)] * nq, method="highs"
    )
    if res.status != 0:
        return None
    qf = res.x
    slack = Mx - Fmat.T @ qf
    return qf, [j for j in range(n_other) if abs(slack[j]) < tol]


def _face_equations(
    Erows: list[dict[int, Fraction]], Frows: list[dict[int, Fraction]],
    M: dict[tuple[int, int], Fraction], n_other: int, support: list[int], tight: list[int],
) -> list[_Equation]:  # fmt: skip
    """The exact equations of the optimal face: ``E x = e`` over the support, then
    ``F^T q - M^T x = 0`` at each tight row of the other player's sequences."""
    # the q-side: F^T q - M^T x <= 0, one row per sequence of the other player
    Fcols: list[dict[int, Fraction]] = [dict() for _ in range(n_other)]
    for i, row in enumerate(Frows):
        for s, c in row.items():
            Fcols[s][i] = c
    Mcols: list[dict[int, Fraction]] = [dict() for _ in range(n_other)]
    for (sm, so), c in M.items():
        Mcols[so][sm] = c
    eqs: list[_Equation] = []
    sup = set(support)
    for row in Erows:
        eqs.append(
            (
                {("x", s): c for s, c in row.items() if s in sup},
                Fraction(1) if row is Erows[0] else Fraction(0),
            )
        )
    for j in tight:
        eq = {("q", i): c for i, c in Fcols[j].items()}
        for sm, c in Mcols[j].items():
            if sm in sup:
                eq[("x", sm)] = eq.get(("x", sm), Fraction(0)) - c
        eqs.append((eq, Fraction(0)))
    return eqs


def _solve_face(
    flint: ModuleType, eqs: list[_Equation], cols: list[tuple[str, int]], guess: np.ndarray
) -> dict[int, Fraction] | None:
    """The exact value of each unknown (by its position in ``cols``) on the face
    ``eqs``: independent rows and columns chosen by pivoted QR in floats, free unknowns
    fixed at ``guess`` rounded, the square system solved in FLINT's rationals; ``None``
    if it is singular."""
    col_index = {c: k for k, c in enumerate(cols)}
    K = np.zeros((len(eqs), len(cols)))
    for r, (eq, _) in enumerate(eqs):
        for c, v in eq.items():
            K[r, col_index[c]] = float(v)
    _, _, piv = qr(K, pivoting=True, mode="economic")
    rank = int(np.linalg.matrix_rank(K))
    keep_cols = sorted(piv[:rank])
    kept = set(keep_cols)
    free_cols = [k for k in range(len(cols)) if k not in kept]
    fixed_vals = {k: Fraction(float(guess[k])).limit_denominator(10**6) for k in free_cols}
    _, _, rpiv = qr(K[:, keep_cols].T, pivoting=True, mode="economic")
    keep_rows = sorted(rpiv[:rank])
    A_ = flint.fmpq_mat(rank, rank)
    b_ = flint.fmpq_mat(rank, 1)
    at_col = {k: ci for ci, k in enumerate(keep_cols)}
    for ri, r in enumerate(keep_rows):
        eq, rhs = eqs[r]
        acc = rhs
        for c, v in eq.items():  # the row's nonzeros only (the matrix starts at zero)
            k = col_index[c]
            if k in fixed_vals:
                acc -= v * fixed_vals[k]
            elif v and k in at_col:
                A_[ri, at_col[k]] = flint.fmpq(v.numerator, v.denominator)
        b_[ri, 0] = flint.fmpq(acc.numerator, acc.denominator)
    try:
        sol = A_.solve(b_)
    except (ZeroDivisionError, ValueError):
        return None
    values = dict(fixed_vals)
    for ci, k in enumerate(keep_cols):
        q = sol[ci, 0]
        values[k] = Fraction(int(q.p), int(q.q))
    return values


def behaviour_of_plans(game: Game, sf: SequenceForm, plans: list[np.ndarray]) -> np.ndarray:
    """Behaviour strategies from realization plans (uniform where unreachable)."""
    probs = np.empty(game.n_sigma)
    for info in game.infosets:
        x = plans[info.player]
        sl = slice(info.offset, info.offset + len(info.actions))
        if info.restricted:
            probs[sl] = game.fixed_values[sl]
            continue
        px = x[sf.parent_seq[info.index]]
        num = np.maximum(x[sf.seq_of_sigma[sl]], 0.0)
        tot = num.sum()
        probs[sl] = num / tot if px > 1e-12 and tot > 0 else 1.0 / len(num)
    return probs


@dataclass(frozen=True)
class LPResult:
    """What :func:`solve_lp` found: the LP's float solution and its exact certificate."""

    profile: Profile  # float behaviour profile from the LP
    value: float  # player 1's value from the LP
    exact_profile: Profile | None  # rationalised profile
    value_bounds: tuple[Fraction, Fraction]  # exact security levels [lower, upper]
    certified: bool  # lower == upper: the exact value
    seconds: float  # the LP itself (certification excluded)
    evaluation: Evaluation | None = None  # exact evaluation of ``exact_profile``


@blas_limited
def solve_lp(game: Game, max_denominator: int = 10**12) -> LPResult:
    """Solve a two-player zero-sum game exactly: LP, then rational certification.

    Parameters
    ----------
    game
        A two-player zero-sum game.
    max_denominator
        Largest denominator tried when the exact plans are not found on the LP's
        optimal face and the float profile is rationalised instead.

    Returns
    -------
    LPResult
        ``certified`` when both exact best-response gains of the exact profile
        are 0; then ``value_bounds[0]`` is the value of the game.
    """
    t0 = time.perf_counter()
    data = game.engine.sequence_form()  # the engine's sequence form, assembled (or refused)
    return solve_sequence_form(
        game, data.form, data.exact_payoffs, data.evaluate_exact, max_denominator, t0
    )


def solve_sequence_form(
    game: Game,
    sf: SequenceForm,
    payoffs: Callable[[], dict[tuple[int, int], Fraction]],
    evaluate_exact: Callable[[Profile], Evaluation],
    max_denominator: int,
    t0: float,
) -> LPResult:
    """:func:`solve_lp`'s LP and certificate: ``sf`` and ``payoffs()`` (``A`` exactly)
    assembled by an engine, ``evaluate_exact`` its exact evaluation of a profile
    (values, best-response values); ``t0`` when the assembly began."""
    x, v1 = _solve_player(sf, 0)
    y, _ = _solve_player(sf, 1)
    probs = behaviour_of_plans(game, sf, [x, y])
    prof = Profile(game, probs, validate=False)
    seconds = time.perf_counter() - t0
    best: tuple[Fraction, Fraction] | None = None
    best_prof = best_ev = None
    # first: the exact plans on the LP's optimal face
    exact = payoffs()
    plans = [exact_plan(game, sf, 0, x, exact), exact_plan(game, sf, 1, y, exact)]
    if all(p is not None for p in plans):
        cand = _exact_behaviour(game, sf, plans)
        if cand is not None:
            ev = evaluate_exact(cand)
            best, best_prof, best_ev = (-ev.br_values[1], ev.br_values[0]), cand, ev
            if best[0] == best[1]:
                return LPResult(Profile(game, probs), v1, cand, best, True, seconds, ev)
    den = 10
    while den <= max_denominator:
        cand = prof.to_exact(max_denominator=den)
        ev = evaluate_exact(cand)
        # security levels in a zero-sum game: P1 guarantees -BR2, P2 concedes BR1
        lower, upper = -ev.br_values[1], ev.br_values[0]
        if best is None or upper - lower < best[1] - best[0]:
            best, best_prof, best_ev = (lower, upper), cand, ev
        if lower == upper:
            break
        den *= 100
    assert best is not None
    return LPResult(Profile(game, probs), v1, best_prof, best, best[0] == best[1], seconds, best_ev)


# --------------------------------------------------------- the "lp" method
@dataclass(frozen=True)
class LPOptions:
    """Options of the sequence-form LP.

    Attributes
    ----------
    max_denominator : int
        See :func:`solve_lp`.
    """

    max_denominator: int = 10**12

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "max_denominator", integer("max_denominator", self.max_denominator, low=1)
        )


def init(game: Game, options: LPOptions, seed: int | None = None) -> OneShotState:
    """Check the game (two players) before anything is built."""
    if game.n_players != 2:
        raise ToypokerError(
            f"the sequence-form LP is for two-player games; {game.spec} has "
            f"{game.n_players} players"
        )
    return OneShotState()


def step(game: Game, state: OneShotState, options: LPOptions) -> OneShotState:
    """Solve (once; a solved state is returned unchanged)."""
    if state.iteration:
        return state
    return OneShotState(1, solve_lp(game, options.max_denominator))


def output(game: Game, state: OneShotState, options: LPOptions) -> np.ndarray:
    """The certified exact profile (else the LP's float profile)."""
    r = _solved(state)
    prof = r.exact_profile if r.certified and r.exact_profile is not None else r.profile
    return prof.probs


def summary(game: Game, state: OneShotState, options: LPOptions) -> dict[str, object]:
    """The :class:`~toypoker.result.Result` fields of a solved LP."""
    r = _solved(state)
    fields = certified_fields(r)
    if fields is not None:
        return fields
    ev = evaluate(game, r.profile)  # not certified: the LP's float solution
    return {
        "profile": r.profile,
        "values": tuple(float(v) for v in ev.values),
        "gains": tuple(float(v) for v in ev.gains),
        "nash_conv": float(ev.nash_conv),
    }


def certified_fields(r: LPResult) -> dict[str, object] | None:
    """The :class:`~toypoker.result.Result` fields of a certified solution (``None``
    when the LP's solution was not certified)."""
    if not (r.certified and r.exact_profile is not None and r.evaluation is not None):
        return None
    ev, prof = r.evaluation, r.exact_profile
    return {
        "profile": prof,
        "equilibria": (prof,),
        "values": tuple(float(v) for v in ev.values),
        "gains": tuple(float(v) for v in ev.gains),
        "nash_conv": float(ev.nash_conv),
        "exact": True,
        "certified": True,
        "value_exact": tuple(ev.values),
    }


def _solved(state: OneShotState) -> LPResult:
    if not isinstance(state.outcome, LPResult):
        raise ToypokerError("the LP has not been solved yet: call step() first")
    return state.outcome


def _exact_behaviour(game: Game, sf: SequenceForm, plans: list[list[Fraction]]) -> Profile | None:
    probs = np.empty(game.n_sigma, dtype=object)
    fixed = game.fixed_values_exact
    for info in game.infosets:
        x = plans[info.player]
        k = len(info.actions)
        if info.restricted:
            for j in range(k):
                probs[info.offset + j] = fixed[info.offset + j]
            continue
        px = x[int(sf.parent_seq[info.index])]
        num = [x[int(s)] for s in sf.seq_of_sigma[info.offset : info.offset + k]]
        if px > 0:
            if sum(num) != px:
                return None
            for j in range(k):
                probs[info.offset + j] = num[j] / px
        else:
            for j in range(k):
                probs[info.offset + j] = Fraction(1, k)
    return Profile(game, probs)
