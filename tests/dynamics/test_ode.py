"""Billingham Sec. 4.1: the ODE model of adapting players in SKP."""

import numpy as np
import pytest
import sympy as sp

from toypoker.dynamics.ode import (
    SKPDynamics,
    basin,
    classify,
    exact_jacobian,
    expectations,
    poincare,
)


def test_fixed_points_and_stability_at_p9():
    # Sec. 4.1 bullet list: S1 and S2 have a 1-d stable manifold and a 2-d centre
    # manifold (P > P*); S3 a 1-d unstable and a 2-d (oscillatory) stable manifold
    rep = {r.name: r for r in classify(SKPDynamics(P=9.0))}
    assert (rep["S1"].stable, rep["S1"].unstable, rep["S1"].centre) == (1, 0, 2)
    assert (rep["S2"].stable, rep["S2"].unstable, rep["S2"].centre) == (1, 0, 2)
    assert (rep["S3"].stable, rep["S3"].unstable, rep["S3"].centre) == (2, 1, 0)
    s3 = rep["S3"].eigenvalues
    assert np.any(np.abs(s3.imag) > 0.1)  # "the dynamics on the stable manifold are oscillatory"
    # S1, S2, S3 are eqs. (12)-(14)
    assert np.allclose(rep["S3"].point, [2 / 9, 2 / 11, (81 - 45 - 12) / 90], rtol=0, atol=1e-15)


def test_s2_manifold_unstable_below_p_star():
    # Sec. 4.1: S2's one-dimensional manifold is unstable for P < P*
    rep = {r.name: r for r in classify(SKPDynamics(P=6.5))}
    assert (rep["S2"].unstable, rep["S2"].centre) == (1, 2)
    assert "S3" not in rep


def test_exact_eigenvalues_at_s1():
    # J at S1 for P = 9: -1/45 and a centre pair +-(2 sqrt 6 / 25) i
    _, at = exact_jacobian(sp.Integer(9))
    ev = set(at["S1"].eigenvals())
    assert ev == {sp.Rational(-1, 45), 2 * sp.sqrt(6) * sp.I / 25, -2 * sp.sqrt(6) * sp.I / 25}


def test_invariant_planes_and_limit_cycles():
    dyn = SKPDynamics(P=9.0)
    sol = dyn.integrate((0.25, 0.0, 0.4), 200.0)
    assert np.all(sol.y[1] == 0.0)  # c_K = 0 is invariant
    # a small cycle around S1 has the period of the centre: 2 pi / (2 sqrt 6 / 25)
    lc = poincare(dyn, (0.205, 0.0, 0.4), t_end=600.0)
    assert lc.converged
    assert lc.period == pytest.approx(2 * np.pi / (2 * np.sqrt(6) / 25), rel=0.01)


def test_two_basins():
    # Sec. 4.1: for P > P* the attractor (c_K = 0 or d_Q = 0) depends on the start
    dyn = SKPDynamics(P=9.0)
    assert basin(dyn, (0.22, 0.1, 0.35)).startswith("S1")
    assert basin(dyn, (0.22, 0.3, 0.1)).startswith("S2")


def test_expectation_integrals_at_a_fixed_point():
    # (24)-(26) at S2 grow linearly with slope eq. (16)
    P = 9.0
    dyn = SKPDynamics(P=P)
    sol = dyn.integrate(dyn.fixed_points()["S2"], 10.0, t_eval=np.linspace(0, 10, 11))
    e = expectations(dyn, sol)[:, -1] / 10.0
    want = [-(P - 2) / (12 * P), -(P - 1) * (P - 2) / (12 * P * (P + 1)), (P - 2) / (6 * (P + 1))]
    assert np.allclose(e, want, rtol=0, atol=1e-9)


def test_an_integration_that_fails_is_one_line_not_an_empty_trajectory(
    capsys, tmp_path, monkeypatch
):
    """The fuzzer's case (tests/robustness/test_fuzz.py, a CI run): rates k = 38.7 and a
    start at the simplex's corner make the system too stiff for DOP853, which stops
    early ("Required step size is less than spacing between numbers"); the basin step
    read the empty trajectory and crashed with a TypeError traceback.  Now the
    integration is refused in one line saying where it stopped and why."""
    from toypoker.cli import main
    from toypoker.errors import ToypokerError

    dyn = SKPDynamics(P=38.74910467850527, k=(38.74910467850527,) * 3)
    with pytest.raises(ToypokerError, match=r"could not be integrated to t = 13\.766 \(it stopped"):
        dyn.integrate([1.1754943508222875e-38] * 3, 13.766, t_eval=[13.766])
    monkeypatch.chdir(tmp_path)
    code = main([
        "dynamics", "ode", "--t-end", "13.766222495679024", "--basins-grid", "2", "--pot",
        "38.74910467850527", "--k", "38.74910467850527", "--y0", "1.1754943508222875e-38",
        "--outdir", "out",
    ])  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("toypoker: error: the ODE from")
    assert "could not be integrated" in err[0] and "spacing between numbers" in err[0]
