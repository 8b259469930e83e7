"""The vector kernel's average accumulation and regret update of one infoset (numba).

:func:`update_infoset` does, on one infoset's flat actions, the arithmetic of
:func:`toypoker.engines.rows.cfr.update_infoset` (the row layout's update, with its
regret tolerance) operation for operation, so both layouts' iterates stay the same bit
for bit; it is a copy shaped for the vector kernel's pass over millions of small
infosets:

* the schedule's factors come in as scalars the caller reads once a segment
  (:func:`rule_scalars`), not from the rule vector an infoset;
* where the owner's reach at the infoset is zero the average accumulation is skipped:
  it would add ``0 * sigma``, which leaves the (never negative) sums as they are.
"""

from __future__ import annotations

from toypoker.jit import njit


@njit(nogil=True, inline="always")
def rule_scalars(rule):
    """``rule`` (the float64 vector of :meth:`~.kernel.VectorKernel.rule`) as the
    scalars :func:`update_infoset` takes: (pos_discount, neg_discount, floor,
    predictive, predict_discount, predict_neg_discount, tolerance), flags as bools."""
    return (rule[0], rule[1], rule[2] != 0.0, rule[3] != 0.0, rule[4], rule[5], rule[6])


@njit(nogil=True, inline="always")
def update_infoset(lo, hi, sigma, regrets, inst, row, rs, average, wr, sigma_free):
    """The regret update and regret matching of the flat actions ``lo..hi - 1`` (one
    free infoset) and, first, ``average[s] += wr * sigma[s]`` where ``sigma_free[s]``
    (skipped where ``wr`` is zero).

    ``R <- R * (pos_discount if R > 0 else neg_discount) + inst[row]``, set to 0 where
    ``R <= tol`` if ``floor``; ``sigma`` = the entries of ``R`` (or, if ``predictive``,
    of ``R * (predict_discount if R > 0 else predict_neg_discount) + inst[row]``) above
    ``tol``, normalised, uniform where none is.  ``rs``: :func:`rule_scalars`.  (``inst``
    is indexed whole: a row view an infoset costs more than its arithmetic.)
    """
    pos, neg, floor, predictive, p_pos, p_neg, tol = rs
    total = 0.0
    acc = wr != 0.0
    for s in range(lo, hi):
        if acc and sigma_free[s]:
            average[s] += wr * sigma[s]
        x = inst[row, s]
        r = regrets[s]
        r = r * (pos if r > 0 else neg)
        r = r + x
        if floor and r <= tol:
            r = 0.0
        regrets[s] = r
        if predictive:
            r = r * (p_pos if r > 0 else p_neg) + x
        sigma[s] = r
        total += r if r > tol else 0.0
    if total > 0.0:  # some x > tol >= 0
        for s in range(lo, hi):
            x = sigma[s]
            sigma[s] = x / total if x > tol else 0.0
    else:
        u = 1.0 / (hi - lo)
        for s in range(lo, hi):
            sigma[s] = u
