"""All equilibria of small games, exactly (Billingham Appendix C, generalised)."""

from fractions import Fraction as F

import pytest
import sympy as sp

from toypoker.errors import ToypokerError
from toypoker.evaluation import evaluate
from toypoker.literature import billingham
from toypoker.profile import Profile
from toypoker.result import Result
from toypoker.solvers import solve
from toypoker.solvers.enumerate import Pot, game_equilibria

P = sp.Symbol("P", positive=True)


def named(pieces, variables):
    """Pieces with values keyed by Billingham's names."""
    inv = {label: name for name, label in billingham.LABELS.items()}
    out = []
    for pc in pieces:
        out.append({inv[x.name.replace("_", ":", 2)]: v for x, v in pc.values.items()})
    return out


@pytest.mark.slow
def test_skp_symbolic_pot_reproduces_eqs_12_to_14(game):
    pieces, vs = game_equilibria(game("skp"), pot=Pot.SYMBOLIC, P_domain=sp.Interval.open(5, sp.oo))
    check_eqs_12_to_14(pieces, vs)


@pytest.mark.slow
def test_solve_enumerate_returns_the_papers_solutions(game):
    # the same through the one entry point: a Result with the pieces and symbols
    r = solve(game("skp"), "enumerate", pot="symbolic", pot_min=5)
    assert isinstance(r, Result) and r.exact and r.profile is None
    assert r.stopped == "solved" and r.options["pot"] == "symbolic"
    check_eqs_12_to_14(list(r.equilibria), list(r.variables))
    assert len(r.to_json_dict()["equilibria"]) == 3


def test_enumerate_options_are_checked(game):
    with pytest.raises(ToypokerError, match="pot_min is read only"):
        solve(game("skp"), "enumerate", pot_min=5)
    with pytest.raises(ToypokerError, match="no pot parameter"):
        solve(game("leduc(players=2)"), "enumerate", pot=F(3))
    with pytest.raises(ToypokerError, match="12 free choices: too many"):
        solve(game("kuhn(players=2)"), "enumerate")
    with pytest.raises(ToypokerError, match="too many to enumerate"):
        solve(game("skp"), "enumerate", max_free=2)
    with pytest.raises(ToypokerError, match="number or 'symbolic'"):
        solve(game("skp"), "enumerate", pot="big")


def check_eqs_12_to_14(pieces, vs):
    sols = named(pieces, vs)
    assert len(sols) == 3
    want = {
        1: (2 / (P + 1), 0, (P - 5) / (P + 1)),
        2: (2 / P, (P - 5) / (P + 1), 0),
        3: (2 / P, 2 / (P + 2), (P**2 - 5 * P - 12) / (P * (P + 1))),
    }
    for k, (b, c, d) in want.items():
        assert any(
            sp.simplify(s["b_J"] - b) == 0
            and sp.simplify(s["c_K"] - c) == 0
            and sp.simplify(s["d_Q"] - d) == 0
            for s in sols
        ), k
    regions = {str(pc.region) for pc in pieces}
    # Solution 1 for 5 < P; Solutions 2, 3 for P >= P* (closed at P*)
    assert regions == {str(sp.Interval.open(5, sp.oo)), str(sp.Interval(billingham.P_STAR, sp.oo))}


def test_skp_counts_and_p_star(game):
    # one equilibrium for 5 < P < P*, three for P > P*
    assert len(game_equilibria(game("skp"), pot=F(6))[0]) == 1
    assert len(game_equilibria(game(billingham.skp_spec(F(6))))[0]) == 1  # the game as given
    assert len(game_equilibria(game("skp"), pot=F(9))[0]) == 3
    # at P = P* exactly: two (Solutions 2 and 3 coincide), not one as the abstract says
    pieces, vs = game_equilibria(game("skp"), pot=billingham.P_STAR)
    sols = named(pieces, vs)
    assert len(sols) == 2
    assert any(s["d_Q"] == 0 and sp.simplify(s["b_J"] - 2 / billingham.P_STAR) == 0 for s in sols)


@pytest.mark.slow
def test_third_street_regimes(game):
    def run(p):
        return game_equilibria(game(billingham.third_street_spec(F(1))), pot=p)

    # P = 3 (eq. 2): b_J + b_Q = 2/(P+1), d_K = (2P-4)/(P+1), b_Q free in [0, 1/2]
    pieces, vs = run(F(3))
    assert len(pieces) == 1
    s = named(pieces, vs)[0]
    assert s["d_K"] == sp.Rational(1, 2) and sp.simplify(s["b_J"] + s["b_Q"]) == sp.Rational(1, 2)
    assert pieces[0].region == sp.Interval(0, sp.Rational(1, 2))
    # P = 9 (eqs. 5, 6): Solution A (b_J + b_Q = 2/9) and Solution B (c_Q in [0, 2/13])
    pieces, vs = run(F(9))
    regions = sorted(str(pc.region) for pc in pieces)
    assert regions == sorted(
        [str(sp.Interval(0, sp.Rational(2, 13))), str(sp.Interval(0, sp.Rational(2, 9)))]
    )
    # P = 5: 1/3 <= b_J + b_Q <= 2/5 and b_J <= 1/3 (eq. 3 omits the last)
    pieces, _ = run(F(5))
    assert len(pieces) == 1
    assert set(pieces[0].extra["polygon"]) == {
        (sp.Rational(1, 3), 0),
        (sp.Rational(1, 3), sp.Rational(1, 15)),
        (0, sp.Rational(2, 5)),
        (0, sp.Rational(1, 3)),
    }
    # P = 2 (eq. 1): b_J + b_Q <= 2/3 (and, with no bluffs, o_K is free)
    pieces, _ = run(F(2))
    polys = [pc.extra.get("polygon") for pc in pieces]
    assert {(0, 0), (sp.Rational(2, 3), 0), (0, sp.Rational(2, 3))} in [set(p) for p in polys if p]


def test_every_enumerated_point_is_certified(game):
    # cross-check: exact best responses of the enumerated points (P = 9, SKP)
    g = game(billingham.skp_spec(F(9)))
    pieces, vs = game_equilibria(g)
    for pc in pieces:
        m = {x.name.replace("_", ":", 2): F(str(v)) for x, v in pc.values.items()}
        ev = evaluate(g, Profile.from_mapping(g, m, exact=True))
        assert ev.gains == (0, 0, 0)
