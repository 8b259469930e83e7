"""The CFR family behind solve(): convergence and the result object."""

import dataclasses

import numpy as np
import pytest

from tests.conftest import game
from toypoker.errors import ToypokerError
from toypoker.solvers import solve


def test_cfr_plus_three_player_kuhn_below_1e3():
    # Issue 2: CFR+ on kuhn(players=3) reaches NashConv below 1e-3
    r = solve(game("kuhn(players=3)"), method="cfr+", iterations=3000, target_nash_conv=1e-3)
    assert r.nash_conv < 1e-3
    assert r.stopped == "target"
    # Szafron et al. Table 3: every equilibrium of the family gives P2 -k/2 = -1/48
    assert r.values[1] == pytest.approx(-1 / 48, abs=2e-3)


def test_cfr_plus_two_player_kuhn_value():
    # Kuhn (1950): value -1/18
    r = solve(game("kuhn(players=2)"), method="cfr+", iterations=2000)
    assert r.values[0] == pytest.approx(-1 / 18, abs=1e-3)
    assert r.nash_conv < 1e-3


@pytest.mark.parametrize("method", ["cfr", "cfr+", "lcfr", "dcfr"])
def test_every_variant_converges_on_leduc(method):
    # Leduc value for player 1: -0.085606424078 (OpenSpiel's test value)
    r = solve(game("leduc(players=2)"), method=method, iterations=400)
    tol = {"cfr": 0.3, "cfr+": 0.01, "lcfr": 0.05, "dcfr": 0.01}[method]
    assert r.nash_conv < tol
    assert r.values[0] == pytest.approx(-0.085606424078, abs=0.01)


def test_result_is_frozen_and_complete():
    r = solve(game("kuhn(players=2)"), iterations=50)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.iterations = 3  # type: ignore[misc]
    assert r.iterations == 50 and r.trace[-1].iteration == 50
    its = [p.iteration for p in r.trace]
    assert its == sorted(its)
    d = r.to_json_dict()
    assert d["params"]["options"]["floor"] is True
    assert d["profile"]["game"] == r.game


def test_restrictions_stay_fixed():
    g = game("skp(pot=9)")
    r = solve(g, iterations=200)
    assert np.array_equal(r.profile.probs[g.sigma_fixed], g.fixed_values[g.sigma_fixed])


def test_bad_arguments():
    with pytest.raises(ToypokerError, match="unknown method"):
        solve(game("kuhn(players=2)"), method="magic")
    with pytest.raises(ToypokerError, match="at least 1"):
        solve(game("kuhn(players=2)"), iterations=0)
