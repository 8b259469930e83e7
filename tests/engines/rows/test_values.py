"""Expected values, best responses and NashConv, exact and float."""

import importlib
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toypoker.engines.rows.values import best_response, evaluate, expected_values
from toypoker.profile import Profile


def kuhn_family(gamma: F) -> dict[str, F]:
    """Kuhn (1950): player I's one-parameter family alpha = gamma/3,
    beta = gamma/3 + 1/3 (0 <= gamma <= 1), player II's unique (xi, eta) = (1/3, 1/3).

    alpha: bet with 1 in the first round; beta: bet (call) with 2 in the second
    round; gamma: bet with 3 in the first round; xi: bet with 1 against a pass;
    eta: bet (call) with 2 against a bet.  Dominated choices as in the paper.
    """
    return {
        "P1:1:": gamma / 3,
        "P1:2:": 0,
        "P1:3:": gamma,
        "P1:1:kb": 0,
        "P1:2:kb": gamma / 3 + F(1, 3),
        "P1:3:kb": 1,
        "P2:1:k": F(1, 3),
        "P2:2:k": 0,
        "P2:3:k": 1,
        "P2:1:b": 0,
        "P2:2:b": F(1, 3),
        "P2:3:b": 1,
    }


@pytest.mark.parametrize("gamma", [F(0), F(1, 7), F(1, 3), F(1, 2), F(5, 6), F(1)])
def test_kuhn_family_value_and_exact_nash_conv(gamma, game):
    # Kuhn (1950): "These strategies yield the value of Simplified Poker as -1/18."
    g = game("kuhn(players=2)")
    ev = evaluate(g, Profile.from_mapping(g, kuhn_family(gamma)))
    assert ev.exact
    assert ev.values == (F(-1, 18), F(1, 18))
    assert ev.gains == (0, 0)
    assert ev.nash_conv == 0
    assert all(isinstance(x, F) for x in ev.values + ev.gains)


def test_kuhn_off_family_is_not_an_equilibrium(game):
    # alpha = gamma/3 violated.  Player II still plays his optimal strategy, which
    # guarantees the value -1/18 (Kuhn 1950), so player I gains nothing by
    # deviating; but the family is all of player I's optimal strategies, so II
    # can now exploit I.
    g = game("kuhn(players=2)")
    m = kuhn_family(F(1, 2))
    m["P1:1:"] = F(1, 2)
    ev = evaluate(g, Profile.from_mapping(g, m))
    assert ev.br_values[0] == F(-1, 18)
    assert ev.gains[0] == 0
    assert ev.gains[1] > 0


def test_uniform_leduc_nash_conv(game):
    # OpenSpiel's published NashConv of the uniform policy on leduc_poker
    g = game("leduc(players=2)")
    assert evaluate(g, Profile.uniform(g)).nash_conv == pytest.approx(4.747222222222222, abs=1e-12)


@pytest.mark.parametrize(
    "spec", ["kuhn(players=3)", "leduc(players=2)", "skp(pot=7)", "kuhn_third_street(pot=5)"]
)
def test_exact_and_float_agree(spec, rng, game):
    g = game(spec)
    p = Profile.random(g, rng).to_exact(max_denominator=97)
    exact = evaluate(g, p)
    flt = evaluate(g, p.to_float())
    assert np.allclose([float(x) for x in exact.values], flt.values, rtol=0, atol=1e-12)
    assert np.allclose([float(x) for x in exact.gains], flt.gains, rtol=0, atol=1e-12)
    assert sum(exact.values) == 0  # poker is zero-sum, exactly


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(
        [
            "kuhn(players=2)",
            "kuhn(players=3)",
            "kuhn(players=3,cards=5,pot=2)",
            "leduc(players=2)",
            "kuhn(players=2,ante=2,bet=3)",
        ]
    ),
)
def test_best_response_dominates_and_is_consistent(seed, spec, game):
    g = game(spec)
    p = Profile.random(g, np.random.default_rng(seed))
    values = expected_values(g, p)
    for player in range(g.n_players):
        br = best_response(g, p, player)
        assert br.value >= values[player] - 1e-12
        # playing the returned pure response achieves the claimed value
        assert expected_values(g, br.as_profile(p))[player] == pytest.approx(br.value, abs=1e-12)
        # and no single-infoset deviation from it does better
        q = br.as_profile(p)
        assert best_response(g, q, player).value == pytest.approx(br.value, abs=1e-12)


def test_best_response_respects_restrictions(game):
    # SKP: P2 must call with K (d_K = 1); her best response may not fold it
    g = game("skp(pot=9)")
    p = Profile.uniform(g)
    br = best_response(g, p, 1)
    q = br.as_profile(p)
    assert q["P2:3:kkbf"] == {"f": 0.0, "c": 1.0}


def test_values_in_pot_uses_the_games_affine_payoffs(game):
    # SKP: E(P) as polynomials in (b_J, c_K, d_Q, P) equal the values at P = 7 exactly
    import sympy as sp

    from toypoker.symbolic import symbolic_values, values_in_pot

    g = game("skp(pot=9)")
    b, c, d, P = sp.symbols("b c d P")
    assign = {"P3:1:kk": b, "P1:3:kkb": c, "P2:2:kkbf": d}
    E = values_in_pot(g, assign, P)
    at7 = symbolic_values(g.at(pot=7), assign)
    assert all(sp.expand(e.subs(P, 7) - v) == 0 for e, v in zip(E, at7, strict=True))
    assert sp.expand(sum(E)) == 0  # zero-sum


def test_reach_names(game):
    from toypoker.engines.rows.values import (
        edge_probabilities,
        infoset_reach,
        player_reach,
        realization,
    )

    g = game("kuhn(players=2)")
    p = Profile.uniform(g)
    rows = player_reach(g, edge_probabilities(g, p.probs), 0)
    assert rows.shape == (g.n_rows,)
    r = infoset_reach(g, p.probs)
    assert r[g.infoset("P1:1:kb").offset] == 0.5  # P1 checked with probability 1/2
    assert np.allclose(realization(g, p.probs), r * p.probs, rtol=0, atol=0)


@pytest.mark.usefixtures("pickled_games")
def test_evaluations_are_read_only_and_pickle(game):
    """Issue 35: a best response's ``choice`` was writeable; the evaluation round-trips
    through pickle and ``copy.deepcopy`` equal, read-only again."""
    import copy
    import pickle

    g = game("kuhn(players=3)")
    ev = evaluate(g, Profile.uniform(g, exact=True))
    choice = ev.best_responses[0].choice
    with pytest.raises(ValueError, match="read-only"):
        choice[0] = 1
    for back in (pickle.loads(pickle.dumps(ev)), copy.deepcopy(ev)):
        assert back == ev and not back.best_responses[0].choice.flags.writeable


@pytest.mark.parametrize(
    "spec", ["kuhn(players=3)", "leduc(players=2)", "skp(pot=9)", "kuhn(players=4)"]
)
def test_exact_passes_in_flint_rationals_equal_the_fraction_passes(spec, rng, game, monkeypatch):
    # the exact backward passes run in python-flint's fmpq (C arithmetic, several times
    # Fraction's speed) and give back Fractions: the same numbers and the same responses
    # as the passes in Fractions, for every player and for a team of two
    E = importlib.import_module("toypoker.engines.rows.values")  # (tp.evaluate is the function)

    g = game(spec)
    p = Profile.random(g, rng).to_exact(max_denominator=40)
    eprob = E.edge_probabilities(g, p.probs)
    reach = E.reaches(g, eprob)
    fast_values = E.backward_values(g, eprob)
    fast_ev = evaluate(g, p)
    fast_br = [best_response(g, p, q) for q in (0, 1, (0, 1))]
    assert all(type(x) is F for x in fast_values.ravel())
    assert all(type(br.value) is F for br in fast_br)
    monkeypatch.setattr(E, "_rational", lambda a: None)  # the passes in Fractions
    assert (E.backward_values(g, eprob) == fast_values).all()
    slow_ev = evaluate(g, p)
    assert (fast_ev.values, fast_ev.br_values) == (slow_ev.values, slow_ev.br_values)
    for q, br in zip((0, 1, (0, 1)), fast_br, strict=True):
        slow = best_response(g, p, q, reach, eprob)
        assert br.value == slow.value and (br.choice == slow.choice).all()


def test_exact_passes_take_any_exact_object_arrays(game):
    # what is not Fractions and ints (sympy numbers: toypoker.symbolic) takes the
    # general object path
    import sympy

    E = importlib.import_module("toypoker.engines.rows.values")

    g = game("kuhn(players=2)")
    eprob = E.edge_probabilities(g, Profile.uniform(g, exact=True).probs)
    as_sympy = np.array([sympy.Rational(x.numerator, x.denominator) for x in eprob], dtype=object)
    assert E._rational(as_sympy) is None
    vals = E.backward_values(g, as_sympy)
    assert (vals == E.backward_values(g, eprob)).all()
