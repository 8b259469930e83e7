"""The generic pseudo-arclength tracer, on curves whose exact shape is known."""

import numpy as np

from toypoker.continuation.tracer import trace


def test_passes_a_fold():
    # G(y, lam) = y^2 - lam: from (y, lam) = (-1, 1), lam first decreases to the fold at
    # lam = 0, then increases along y > 0 to lam = 4, where y = 2 exactly
    def G(u):
        return np.array([u[0] ** 2 - u[1]])

    def J(u):
        return np.array([[2 * u[0], -1.0]])

    def GJ(u):
        return G(u), J(u)

    br = trace(GJ, np.array([-1.0, 1.0]), -10.0, 4.0, direction=-1.0, ds=0.1)
    assert br.reason == "reached"
    assert br.y[:, 0].min() < 0 < br.y[:, 0].max()  # went round the fold at y = 0
    assert np.argmin(br.lam) not in (0, len(br.lam) - 1)  # lam fell, then rose
    assert abs(br.points[-1][0] - 2.0) < 1e-6 and abs(br.points[-1][1] - 4.0) < 1e-9
    assert np.all(np.abs(br.y[:, 0] ** 2 - br.lam) < 1e-8)  # every point on the curve
    assert np.all(np.diff(br.arclength) > 0)


def test_circle_arclength():
    # the unit circle from (1, 0) to lam = 0.8: arclength asin(0.8)
    def G(u):
        return np.array([u[0] ** 2 + u[1] ** 2 - 1.0])

    def J(u):
        return np.array([[2 * u[0], 2 * u[1]]])

    def GJ(u):
        return G(u), J(u)

    br = trace(GJ, np.array([1.0, 0.0]), -2.0, 0.8, ds=0.01, ds_max=0.02)
    assert br.reason == "reached"
    assert abs(br.points[-1][0] - 0.6) < 1e-9
    assert abs(br.arclength[-1] - np.arcsin(0.8)) < 1e-3
