"""The adaptation dynamics from the compiled game agree with eqs. (21)-(23) on SKP."""

import numpy as np

from toypoker.dynamics.general import GameDynamics
from toypoker.dynamics.ode import SKPDynamics


def test_d_equals_the_brackets_of_eqs_18_to_20(game):
    P = 9.0
    gd = GameDynamics(game("skp(pot=9)"))
    assert gd.labels == ["P3:1:kk", "P1:3:kkb", "P2:2:kkbf"]  # b_J, c_K, d_Q
    rng = np.random.default_rng(0)
    for _ in range(10):
        x = rng.random(3)
        scaled = gd.D(x) * np.array([24 / (P + 1), 24 / P, 24 / (P + 1)])
        assert np.allclose(scaled, SKPDynamics(P).brackets(x), rtol=1e-12, atol=1e-14)


def test_trajectories_agree_with_eqs_21_to_23(game):
    P = 9.0
    gd = GameDynamics(game("skp(pot=9)"), k=[24 / (P + 1), 24 / P, 24 / (P + 1)])
    x0 = (0.25, 0.2, 0.3)
    t = np.linspace(0, 50, 11)
    a = gd.integrate(x0, 50.0, t_eval=t)
    b = SKPDynamics(P).integrate(x0, 50.0, t_eval=t)
    assert np.allclose(a.y, b.y, rtol=1e-5, atol=1e-6)


def test_other_games(game):
    # the one-third street game: 7 variables, equilibrium (Solution A at P = 9) is a rest point
    gd = GameDynamics(game("kuhn_third_street(pot=9,rational=true)"))
    assert len(gd.labels) == 7
    x = {l: 0.0 for l in gd.labels}
    x.update({"P3:1:kk": 1 / 9, "P3:2:kk": 1 / 9, "P1:3:kkb": 0.4, "P2:3:kkbf": 1.0})
    v = np.array([x[l] for l in gd.labels])
    assert np.allclose(gd.rhs(0, v), 0.0, rtol=0, atol=1e-14)
