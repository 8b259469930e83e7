"""Equilibrium curves of N-card three-player Kuhn poker (Billingham, N cards, Sec. 5)
checked against exact results: Szafron et al. at N = 4, P = 3; zero expectations
below P_min = 2/(N-3); certified, deduplicated equilibria; and beyond the paper."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker.continuation.curves import (
    EquilibriumCurve,
    equilibria_at,
    multiplicity,
    resume_curve,
    trace_curve,
    turning_points,
)
from toypoker.evaluate import evaluate, nash_conv
from toypoker.games import load_game
from toypoker.profile import Profile


@pytest.fixture(scope="module")
def curve4():
    # the default eps of `toypoker trace` (1e-6), over the window of the paper's Fig. 6
    return trace_curve("kuhn(players=3,cards=4)", 0.5, 10.0, eps=1e-6)


def test_n4_curve_is_traced(curve4):
    assert curve4.reason == "reached"
    assert curve4.theta[0] == 0.5 and curve4.theta[-1] == 10.0
    assert np.all(np.abs(curve4.expectations.sum(axis=1)) < 1e-12)  # zero-sum


def test_n4_at_pot_3_is_in_the_szafron_family(curve4):
    # NOTES.md / Szafron et al. (2013), Table 3 utilities: E2 = -1/48,
    # E1 = -(1 + 2 beta)/48, E3 = (1 + beta)/24 with beta in [0, 1/4]
    (eq,) = equilibria_at(curve4, 3.0)
    assert eq.nash_conv < 1e-12
    E1, E2, E3 = eq.expectations
    assert abs(E2 + 1 / 48) < 1e-12
    beta = 24 * E3 - 1
    assert -1e-12 <= beta <= 0.25 + 1e-12
    assert abs(E1 + (1 + 2 * beta) / 48) < 1e-12
    # the same profile, rounded to fractions, is an exact equilibrium of the core
    g = load_game("kuhn(players=3,cards=4,pot=3)")
    exact = Profile(
        g, np.array([Fraction(v).limit_denominator(10**6) for v in eq.sigma], dtype=object)
    )
    ev = evaluate(g, exact)
    assert ev.nash_conv < Fraction(1, 10**5)


@pytest.mark.parametrize("N", [4, 5, 6])
def test_expectations_vanish_below_p_min(N):
    # Billingham (N cards), Sec. 2: no profit below P_min = 2/(N-3)
    p_min = 2 / (N - 3)
    c = trace_curve(f"kuhn(players=3,cards={N})", 0.2 * p_min, 0.9 * p_min, eps=1e-6)
    assert np.abs(c.expectations).max() < 1e-4  # regularized, O(eps/|D|)
    for v in (0.3 * p_min, 0.8 * p_min):
        for eq in equilibria_at(c, v):
            assert eq.nash_conv < 1e-10
            assert np.abs(eq.expectations).max() < 1e-12


def test_n4_multiplicity_and_certificates(curve4):
    # Sec. 5.1: a small range of P with distinct equilibria of very similar expectations
    m = multiplicity(curve4)
    assert m.distinct.max() == 3
    rows = [r for r in m.rows() if r[3] == 3]
    a, b, _, _, _ = rows[0]
    eqs = equilibria_at(curve4, 0.5 * (a + b))
    assert len(eqs) == 3
    g = load_game(f"kuhn(players=3,cards=4,pot={0.5 * (a + b)!r})")
    for e in eqs:
        assert e.nash_conv < 1e-6  # certified on the unregularized game
        assert float(nash_conv(g, e.sigma)) < 1e-6
    spread = max(np.abs(x.sigma - y.sigma).max() for x in eqs for y in eqs)
    assert spread > 1e-3  # genuinely different profiles
    assert len(turning_points(curve4)) >= 2


def test_csv_round_trip(curve4, tmp_path):
    path = curve4.save(tmp_path / "curve.csv")
    back = EquilibriumCurve.load(path)
    assert back.spec == curve4.spec and back.eps == curve4.eps
    assert np.allclose(back.theta, curve4.theta, rtol=1e-11)
    assert np.allclose(back.sigma, curve4.sigma, atol=1e-11)
    header = path.read_text().splitlines()[0].split(",")
    assert header[:5] == ["pot", "arclength", "E1", "E2", "E3"]
    assert len(header) == 5 + 12 * 4  # every frequency, dominated ones included


def test_beyond_the_paper_four_players_and_other_games():
    c = trace_curve("kuhn(players=4,cards=6)", 1.0, 3.0, eps=1e-5)
    assert c.reason == "reached"
    (eq,) = equilibria_at(c, 2.0)[:1]
    assert eq.nash_conv < 1e-6
    c = trace_curve("kuhn_third_street(pot=2)", 2.0, 9.0, eps=1e-6)
    assert c.reason == "reached"
    for eq in equilibria_at(c, 8.0):
        assert eq.nash_conv < 1e-9
    # Leduc has no numeric parameter: its logit branch in eps (agent QRE)
    c = trace_curve("leduc(players=2)", 1e-4, 1.0, parameter="eps")
    assert c.reason == "reached"
    # Leduc's exact value: the sequence-form LP's certified optimum (tests/solvers, README)
    exact = -1454920850547486749701863871533 / 16995463438839962469905132501930
    assert abs(c.expectations[-1, 0] - exact) < 1e-3


def test_interrupt_checkpoint_and_resume(curve4, tmp_path):
    # Ctrl-C in the middle: the curve so far is kept and written; resuming reaches the
    # end of the window on the same branch as an uninterrupted run
    calls = {"n": 0}

    def progress(stage, lam, ds):
        if stage == "pot":
            calls["n"] += 1
            if calls["n"] == 150:
                raise KeyboardInterrupt

    ckpt = tmp_path / "curve.csv"
    part = trace_curve(
        "kuhn(players=3,cards=4)", 0.5, 10.0, eps=1e-6, progress=progress, checkpoint=ckpt
    )
    assert part.reason == "interrupted" and part.theta[-1] < 10.0
    saved = EquilibriumCurve.load(ckpt)
    assert saved.info["todo"] == ["last"] and len(saved.theta) == len(part.theta)
    done = resume_curve(saved)
    assert done.reason == "reached" and done.theta[-1] == 10.0
    assert np.allclose(done.expectations[-1], curve4.expectations[-1], atol=1e-9)
    m1, m2 = multiplicity(done), multiplicity(curve4)
    assert m1.distinct.max() == m2.distinct.max() == 3


def test_n5_up_to_five_coexisting_equilibria():
    # Billingham (N cards), Sec. 5.2: "a multiplicity of up to five" for N = 5; found
    # at the default eps near P = 1.777 (and five other short intervals), all certified
    c = trace_curve("kuhn(players=3,cards=5)", 1.0, 3.0, eps=1e-6)
    m = multiplicity(c)
    assert m.distinct.max() == 5
    a, b, _, _, _ = next(r for r in m.rows() if r[3] == 5)
    eqs = equilibria_at(c, 0.5 * (a + b))
    assert len(eqs) == 5 and all(e.certified for e in eqs)
    E = np.array([e.expectations for e in eqs])
    assert np.ptp(E, axis=0).max() > 1e-4  # different expectations, not one family


def test_any_numeric_parameter_the_bet():
    # two-player Kuhn traced in the bet: at a = b = 1 the value is -1/18 (Kuhn 1950)
    c = trace_curve("kuhn(players=2)", 0.5, 1.5, parameter="bet", start=1.0)
    assert c.reason == "reached / reached" and c.theta.min() == 0.5 and c.theta.max() == 1.5
    (eq,) = equilibria_at(c, 1.0)
    assert eq.certified and abs(eq.expectations[0] + 1 / 18) < 1e-12
