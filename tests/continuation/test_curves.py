"""Equilibrium curves of N-card three-player Kuhn poker (Billingham, N cards, Sec. 5)
checked against exact results: Szafron et al. at N = 4, P = 3; zero expectations
below P_min = 2/(N-3); certified, deduplicated equilibria; and beyond the paper."""

from fractions import Fraction

import numpy as np
import pytest

from toypoker import deal_table
from toypoker.continuation.crossings import equilibria_at, multiplicity, turning_points
from toypoker.continuation.curves import EquilibriumCurve, resume_curve, trace_curve
from toypoker.engines.rows.values import expected_values
from toypoker.errors import Interrupted, ToypokerError
from toypoker.evaluation import evaluate, nash_conv
from toypoker.games import load_rows
from toypoker.profile import Profile
from toypoker.result import Result


@pytest.fixture(scope="module")
def curve4(game):
    # the default eps of `toypoker trace` (1e-6), over the window of the paper's Fig. 6
    return trace_curve(game("kuhn(players=3,cards=4)"), "pot", 0.5, 10.0, eps=1e-6).curve


@pytest.mark.slow
def test_n4_curve_is_traced(curve4):
    assert curve4.reason == "reached"
    assert curve4.theta[0] == 0.5 and curve4.theta[-1] == 10.0
    # the tracer's expectations (payoff-tensor contractions) equal the core evaluator's
    # backward pass at the same profiles and pots: two independent paths
    g = curve4.system.game
    for i in np.linspace(0, len(curve4.theta) - 1, 7).astype(int):
        core = expected_values(g.at(pot=float(curve4.theta[i])), curve4.sigma[i])
        assert np.allclose(curve4.expectations[i], core, rtol=0, atol=1e-12)


@pytest.mark.slow
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
    g = load_rows("kuhn(players=3,cards=4,pot=3)")
    exact = Profile(
        g, np.array([Fraction(v).limit_denominator(10**6) for v in eq.sigma], dtype=object)
    )
    ev = evaluate(g, exact)
    assert ev.nash_conv < Fraction(1, 10**5)


@pytest.mark.parametrize("N", [4, 5, 6])
def test_expectations_vanish_below_p_min(N, game):
    # Billingham (N cards), Sec. 2: no profit below P_min = 2/(N-3)
    p_min = 2 / (N - 3)
    g = game(f"kuhn(players=3,cards={N})")
    c = trace_curve(g, "pot", 0.2 * p_min, 0.9 * p_min, eps=1e-6).curve
    assert np.abs(c.expectations).max() < 1e-4  # regularized, O(eps/|D|)
    for v in (0.3 * p_min, 0.8 * p_min):
        for eq in equilibria_at(c, v):
            assert eq.nash_conv < 1e-10
            assert np.abs(eq.expectations).max() < 1e-12


@pytest.mark.slow
def test_n4_multiplicity_and_certificates(curve4):
    # Sec. 5.1: a small range of P with distinct equilibria of very similar expectations
    m = multiplicity(curve4)
    assert m.distinct.max() == 3
    rows = [r for r in m.rows() if r[3] == 3]
    a, b, _, _, _ = rows[0]
    eqs = equilibria_at(curve4, 0.5 * (a + b))
    assert len(eqs) == 3
    g = load_rows(f"kuhn(players=3,cards=4,pot={0.5 * (a + b)!r})")
    for e in eqs:
        assert e.nash_conv < 1e-6  # certified on the unregularized game
        assert float(nash_conv(g, e.sigma)) < 1e-6
    spread = max(np.abs(x.sigma - y.sigma).max() for x in eqs for y in eqs)
    assert spread > 1e-3  # genuinely different profiles
    assert len(turning_points(curve4)) >= 2


@pytest.mark.slow
def test_csv_round_trip(curve4, tmp_path):
    path = curve4.save(tmp_path / "curve.csv")
    back = EquilibriumCurve.load(path)
    assert back.spec == curve4.spec and back.eps == curve4.eps
    assert np.allclose(back.theta, curve4.theta, rtol=1e-11)
    assert np.allclose(back.sigma, curve4.sigma, rtol=0, atol=1e-11)
    header = path.read_text().splitlines()[0].split(",")
    assert header[:5] == ["pot", "arclength", "E1", "E2", "E3"]
    assert len(header) == 5 + 12 * 4  # every frequency, dominated ones included


@pytest.mark.slow
def test_beyond_the_paper_four_players_and_other_games(game):
    c = trace_curve(game("kuhn(players=4,cards=6)"), "pot", 1.0, 3.0, eps=1e-5).curve
    assert c.reason == "reached"
    (eq,) = equilibria_at(c, 2.0)[:1]
    assert eq.nash_conv < 1e-6
    c = trace_curve(game("kuhn_third_street(pot=2)"), "pot", 2.0, 9.0, eps=1e-6).curve
    assert c.reason == "reached"
    for eq in equilibria_at(c, 8.0):
        assert eq.nash_conv < 1e-9
    # Leduc has no numeric parameter: its logit branch in eps (agent QRE)
    c = trace_curve(game("leduc(players=2)"), "eps", 1e-4, 1.0).curve
    assert c.reason == "reached"
    # Leduc's exact value: the sequence-form LP's certified optimum (tests/solvers, README)
    exact = -1454920850547486749701863871533 / 16995463438839962469905132501930
    assert abs(c.expectations[-1, 0] - exact) < 1e-3


@pytest.mark.slow
def test_interrupt_checkpoint_and_resume(curve4, tmp_path, game):
    # Ctrl-C in the middle: the curve so far is kept and written; resuming reaches the
    # end of the window on the same branch as an uninterrupted run
    calls = {"n": 0}

    def progress(stage, lam, ds):
        if stage == "pot":
            calls["n"] += 1
            if calls["n"] == 150:
                raise KeyboardInterrupt

    ckpt = tmp_path / "curve.csv"
    g = game("kuhn(players=3,cards=4)")
    with pytest.raises(Interrupted) as stop:  # the script hears it; the curve rides on it
        trace_curve(g, "pot", 0.5, 10.0, eps=1e-6, progress=progress, checkpoint=ckpt)
    r = stop.value.result
    assert r.stopped == "interrupted" and r.method == "trace"
    part = r.curve
    assert part.reason == "interrupted" and part.theta[-1] < 10.0
    saved = EquilibriumCurve.load(ckpt)
    assert saved.info["todo"] == ["last"] and len(saved.theta) == len(part.theta)
    resumed = resume_curve(saved, g)
    assert resumed.stopped == "finished" and resumed.game is g
    done = resumed.curve
    assert done.reason == "reached" and done.theta[-1] == 10.0
    assert np.allclose(done.expectations[-1], curve4.expectations[-1], rtol=0, atol=1e-9)
    m1, m2 = multiplicity(done), multiplicity(curve4)
    assert m1.distinct.max() == m2.distinct.max() == 3


@pytest.mark.slow
def test_n5_up_to_five_coexisting_equilibria(game):
    # Billingham (N cards), Sec. 5.2: "a multiplicity of up to five" for N = 5; found
    # at the default eps near P = 1.777 (and five other short intervals), all certified
    c = trace_curve(game("kuhn(players=3,cards=5)"), "pot", 1.0, 3.0, eps=1e-6).curve
    m = multiplicity(c)
    assert m.distinct.max() == 5
    a, b, _, _, _ = next(r for r in m.rows() if r[3] == 5)
    eqs = equilibria_at(c, 0.5 * (a + b))
    assert len(eqs) == 5 and all(e.certified for e in eqs)
    E = np.array([e.expectations for e in eqs])
    assert np.ptp(E, axis=0).max() > 1e-4  # different expectations, not one family


def test_any_numeric_parameter_the_bet(game):
    # two-player Kuhn traced in the bet: at a = b = 1 the value is -1/18 (Kuhn 1950)
    c = trace_curve(game("kuhn(players=2)"), "bet", 0.5, 1.5, start=1.0).curve
    assert c.reason == "reached / reached" and c.theta.min() == 0.5 and c.theta.max() == 1.5
    (eq,) = equilibria_at(c, 1.0)
    assert eq.certified and abs(eq.expectations[0] + 1 / 18) < 1e-12


@pytest.mark.slow
def test_a_trace_compiles_the_game_once(monkeypatch):
    # `toypoker trace "kuhn(players=3,cards=4)" --pot 2:4 --at 3`: the library calls the
    # CLI makes (load_game, trace_curve with at, multiplicity) compile the game once
    # (it used to be 9 times: every pot value was a new spec string)
    calls = []
    compile_game = deal_table.compile_game
    monkeypatch.setattr(
        deal_table, "compile_game", lambda *a, **k: calls.append(1) or compile_game(*a, **k)
    )
    g = load_rows("kuhn(players=3,cards=4)")
    r = trace_curve(g, "pot", 2.0, 4.0, eps=1e-6, at=(3.0,))
    m = multiplicity(r.curve)
    assert len(calls) == 1
    assert isinstance(r, Result) and r.method == "trace" and r.game is g
    assert r.curve.spec == g.spec and r.curve.reason == "reached"
    assert len(r.equilibria) == 1 and r.certified and r.equilibria[0].theta == 3.0
    assert abs(r.equilibria[0].expectations[1] + 1 / 48) < 1e-12  # Szafron et al.: E2 = -1/48
    assert r.stopped == "finished" and r.options["at"] == [3.0]
    csv_text = m.to_csv()
    assert csv_text.splitlines()[0] == "pot_from,pot_to,crossings,distinct,unpolished"
    assert len(csv_text.splitlines()) == 1 + len(m.rows())
    assert isinstance(r.to_json_dict()["curve"], dict)


def test_trace_curve_bad_inputs(game):
    g = game("kuhn(players=3,cards=4)")
    with pytest.raises(ToypokerError, match="compiled game"):
        trace_curve("kuhn(players=3)", "pot", 1.0, 2.0)
    with pytest.raises(ToypokerError, match="outside"):
        trace_curve(g, "pot", 1.0, 2.0, at=(3.0,))
    with pytest.raises(ToypokerError, match="no numeric parameter 'cards'"):
        trace_curve(g, "cards", 1.0, 2.0)


def test_eps_trace_interrupt_checkpoint_and_resume(tmp_path, game):
    # issue 14 item 6: an eps trace (the logit branch) is resumable like a pot trace: Ctrl-C
    # keeps the curve so far (with what is left to do); the resumed branch ends where an
    # uninterrupted one does (the window's end, polished at fixed eps)
    g = game("kuhn(players=3)")
    whole = trace_curve(g, "eps", 1e-4, 1.0).curve
    calls = {"n": 0}

    def progress(stage, lam, ds):
        calls["n"] += 1
        if calls["n"] == 6:
            raise KeyboardInterrupt

    ckpt = tmp_path / "curve.csv"
    with pytest.raises(Interrupted) as stop:
        trace_curve(g, "eps", 1e-4, 1.0, progress=progress, checkpoint=ckpt)
    r = stop.value.result
    assert r.stopped == "interrupted" and r.curve.theta[-1] > 1e-4
    saved = EquilibriumCurve.load(ckpt)
    assert saved.info["todo"] == ["eps"] and len(saved.theta) == len(r.curve.theta)
    done = resume_curve(saved, g)
    assert done.stopped == "finished" and done.curve.reason == "reached"
    assert done.curve.theta[0] == whole.theta[0] and done.curve.theta[-1] == pytest.approx(1e-4)
    assert np.all(np.diff(done.curve.theta) < 0)  # one branch, eps decreasing throughout
    assert np.allclose(done.curve.expectations[-1], whole.expectations[-1], rtol=0, atol=1e-9)
