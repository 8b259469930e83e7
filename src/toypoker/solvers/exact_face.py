"""An exact rational point on the face of a linear program that a float solution lies on.

Given the equations that hold at a float optimum (the tight inequalities and the
equalities, with the variables at zero dropped), :func:`solve_face` picks a maximal
independent set of rows and unknowns by pivoted QR in floats, fixes the remaining
unknowns at their float values rounded to small fractions, and solves the square
system in exact rationals (python-flint's ``fmpq_mat``).  The caller checks the
result (signs, the equations it did not keep): a wrong guess of the face gives a point
that fails the check, never a wrong certificate.  :func:`exact_master` applies it to
the TMECor master LP (:mod:`toypoker.teams.tmecor`).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import scipy.sparse as sp

__all__ = ["MAX_EXACT_SEQUENCES", "exact_master", "solve_face"]

MAX_EXACT_SEQUENCES = 2000
"""Most outsider sequences for which the TMECor master LP's optimum is solved exactly."""


def solve_face(a: np.ndarray, b: list[Fraction], guess: np.ndarray) -> list[Fraction] | None:
    """An exact solution of ``a u = b`` near ``guess``.

    Parameters
    ----------
    a
        Object array ``(m, n)`` of exact rationals (``Fraction`` or ``int``).
    b
        ``m`` exact right-hand sides.
    guess
        The float solution (``n``): unknowns outside the independent set keep it,
        rounded to a denominator of at most ``10**6``.

    Returns
    -------
    list of Fraction or None
        ``n`` exact values solving the independent rows, or ``None`` without
        python-flint or when the system is singular.
    """
    try:
        import flint
    except ImportError:  # pragma: no cover - optional dependency
        return None
    from scipy.linalg import qr

    m, n = a.shape
    if m == 0 or n == 0:
        return None
    af = a.astype(np.float64)
    rank = int(np.linalg.matrix_rank(af))
    if rank == 0:
        return None
    _, _, col_piv = qr(af, pivoting=True, mode="economic")
    cols = sorted(int(c) for c in col_piv[:rank])
    _, _, row_piv = qr(af[:, cols].T, pivoting=True, mode="economic")
    rows = sorted(int(r) for r in row_piv[:rank])
    free = [k for k in range(n) if k not in set(cols)]
    values: list[Fraction] = [Fraction(0)] * n
    for k in free:
        values[k] = Fraction(float(guess[k])).limit_denominator(10**6)
    mat = flint.fmpq_mat(rank, rank)
    rhs = flint.fmpq_mat(rank, 1)
    for i, r in enumerate(rows):
        acc = Fraction(b[r]) - sum((Fraction(a[r, k]) * values[k] for k in free), Fraction(0))
        rhs[i, 0] = flint.fmpq(acc.numerator, acc.denominator)
        for j, k in enumerate(cols):
            v = Fraction(a[r, k])
            if v:
                mat[i, j] = flint.fmpq(v.numerator, v.denominator)
    try:
        sol = mat.solve(rhs)
    except (ZeroDivisionError, ValueError):
        return None
    for j, k in enumerate(cols):
        q = sol[j, 0]
        values[k] = Fraction(int(q.p), int(q.q))
    return values


def exact_master(
    ft: sp.csr_array,
    cols: list[np.ndarray],
    zf: np.ndarray,
    lam: np.ndarray,
    y: np.ndarray,
    value: float,
    tol: float = 1e-9,
) -> tuple[list[Fraction] | None, list[Fraction] | None]:
    """The master LP's exact optimum on the face its float optimum lies on
    (:func:`~toypoker.solvers.exact_face.solve_face`): the team's weights on the
    plans ``cols`` (exact columns) and the outsider's realization plan, each ``None``
    when the exact point fails its checks (signs, sequence form, sum 1).

    Primal: ``F^T z - C lambda = 0`` on the outsider's sequences whose inequality is
    tight, ``sum lambda = 1``.  Dual: ``F y = e_0`` with ``y`` zero off its float
    support, ``c_k^T y = v`` for every plan in the mixture."""
    n_seq, nz = ft.shape
    if n_seq > MAX_EXACT_SEQUENCES:
        return None, None
    ft = ft.toarray()
    k = len(cols)
    c = np.stack(cols, axis=1)  # (n_seq, k) exact
    slack = c.astype(np.float64) @ lam - ft @ zf
    tight = np.flatnonzero(np.abs(slack) < tol)
    a = np.zeros((len(tight) + 1, nz + k), dtype=object)
    a[: len(tight), :nz] = ft[tight].astype(np.int64)
    a[: len(tight), nz:] = -c[tight]
    a[-1, nz:] = 1
    b = [Fraction(0)] * len(tight) + [Fraction(1)]
    sol = solve_face(a, b, np.concatenate([zf, lam]))
    w = None if sol is None else sol[nz:]
    if w is not None and (min(w) < 0 or sum(w) != 1):
        w = None
    sup = np.flatnonzero(y > tol)
    a = np.zeros((nz + k, len(sup) + 1), dtype=object)
    a[:nz, : len(sup)] = ft[sup].T.astype(np.int64)
    a[nz:, : len(sup)] = c[sup].T
    a[nz:, -1] = -1
    b = [Fraction(1)] + [Fraction(0)] * (nz + k - 1)
    sol = solve_face(a, b, np.concatenate([y[sup], [value]]))
    ye = None
    if sol is not None and min(sol[:-1], default=0) >= 0:
        ye = [Fraction(0)] * n_seq
        for s, v in zip(sup, sol[:-1], strict=True):
            ye[int(s)] = v
        root = [sum((int(ft[s, r]) * ye[s] for s in sup), Fraction(0)) for r in range(nz)]
        if root != b[:nz]:
            ye = None
    return w, ye
