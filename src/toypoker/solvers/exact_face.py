"""An exact rational point on the face of a linear program that a float solution lies on.

Given the equations that hold at a float optimum (the tight inequalities and the
equalities, with the variables at zero dropped), :func:`solve_face` picks a maximal
independent set of rows and unknowns by pivoted QR in floats, fixes the remaining
unknowns at their float values rounded to small fractions, and solves the square
system in exact rationals (python-flint's ``fmpq_mat``).  The caller checks the
result (signs, the equations it did not keep): a wrong guess of the face gives a point
that fails the check, never a wrong certificate.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = ["solve_face"]


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
