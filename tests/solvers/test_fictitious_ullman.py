"""Ullman's fictitious play (``fp`` with ``ullman=True``), against an independent
re-implementation of his loop (Ullman 2015, Sec. 2.2, and his code's
``Strategies.nes``: simultaneous best responses, ``s_t = (1 - 1/(t+1)) s_{t-1} +
1/(t+1) BR_t``, stop at the first ``t`` whose answered profile has largest gain
below eps, return the profile one update past that check)."""

import numpy as np
import pytest

import toypoker as tp
from toypoker.engines.rows.responses import ullman_best_response
from toypoker.engines.rows.values import edge_probabilities, reaches
from toypoker.errors import ToypokerError
from toypoker.solvers import Solver
from toypoker.solvers.fictitious import ullman_order
from toypoker.solvers.ullman import run_ullman


def reference_ullman(game, eps, limit=5000):
    """His loop, written from the thesis/issue text; the gains recomputed with
    toypoker.engines.rows.values (independent of the solver), the pure responses taken with his
    tie rule (tested on its own in test_ties_bet_before_fold)."""
    s = tp.Profile.uniform(game).probs.copy()
    for t in range(1, limit + 1):
        ev = tp.evaluate(game, tp.Profile(game, s))
        gain = max(ev.gains)
        eprob = edge_probabilities(game, s)
        reach = reaches(game, eprob)
        w = 1.0 / (t + 1)
        new = s.copy()
        for p in range(game.n_players):
            value, choice = ullman_best_response(game, s, p, reach, eprob)
            assert value == pytest.approx(float(ev.br_values[p]), abs=1e-12)
            m = game.free_mask(p)
            new[m] = (1 - w) * s[m] + w * choice[m]
        s = new
        if gain < eps:
            return t, gain, s
    raise AssertionError("reference did not stop")


@pytest.mark.parametrize(("spec", "eps"), [("kuhn(players=2)", 0.01), ("kuhn(players=3)", 0.02)])
def test_stops_at_first_iteration_below_eps(spec, eps):
    game = tp.load_game(spec)
    t, gain, s = reference_ullman(game, eps)
    r = run_ullman(game, eps)
    assert r.stopped.value == "target"
    assert r.iterations == t
    assert r.options["last_check_gain"] == pytest.approx(gain, abs=1e-12)
    # the returned profile is one update past the check, so its own gain may exceed eps
    np.testing.assert_allclose(r.profile.probs, s, rtol=0, atol=1e-12)
    # and the previous iteration's profile had not met eps (first below eps)
    before = Solver(game, "fp", ullman=True).step(t - 1)
    assert before.state.gain >= eps or t == 1


def test_first_step_mixes_uniform_and_best_response_half_half():
    # the uniform start is sample 0: s_1 = (uniform + BR_1) / 2 at every infoset
    game = tp.load_game("kuhn(players=2)")
    u = tp.Profile.uniform(game).probs
    ev = tp.evaluate(game, tp.Profile.uniform(game))
    s1 = Solver(game, "fp", ullman=True).step(1).profile().probs
    br = sum(np.where(game.free_mask(p), b.choice, 0) for p, b in enumerate(ev.best_responses))
    np.testing.assert_allclose(s1, (u + br) / 2)


def test_behaviour_mixing_differs_from_realization_average():
    game = tp.load_game("kuhn(players=2)")
    a = Solver(game, "fp", ullman=True).step(5).profile().probs
    b = Solver(game, "fp").step(5).profile().probs
    assert not np.allclose(a, b)


def test_ties_bet_before_fold():
    # hand-made tie: P1 always checks, so P2's "facing a bet" infosets have zero
    # counterfactual reach and fold and call tie at 0.  Ullman keeps the first
    # maximal action in his order (bets, then fold): call; our default order
    # (f, c) gives fold.
    game = tp.load_game("kuhn(players=2)")
    mapping = {i.label: {"k": 1, "b": 0} for i in game.infosets_of(0) if i.history == ""}
    prof = tp.Profile.from_mapping(game, mapping, exact=False, fill="uniform")
    sigma = prof.probs
    eprob = edge_probabilities(game, sigma)
    reach = reaches(game, eprob)
    _, choice = ullman_best_response(game, sigma, 1, reach, eprob)
    ours = tp.best_response(game, prof, 1).choice
    for card in (1, 2, 3):
        i = game.infoset(f"P2:{card}:b")
        assert i.actions == ("f", "c")
        assert choice[i.offset : i.offset + 2].tolist() == [0, 1]  # call
        assert ours[i.offset : i.offset + 2].tolist() == [1, 0]  # fold
    # elsewhere the value is the same as the default best response's
    value, _ = ullman_best_response(game, sigma, 1, reach, eprob)
    assert value == pytest.approx(float(tp.best_response(game, prof, 1).value))


def test_order_moves_only_fold():
    game = tp.load_game("leduc")
    order = ullman_order(game)
    for i in game.infosets:
        acts = [i.actions[k - i.offset] for k in order[i.index] if k >= 0]
        assert sorted(acts) == sorted(i.actions)
        assert acts == [a for a in i.actions if a != "f"] + (["f"] if "f" in i.actions else [])


def test_bad_input_is_one_error():
    game = tp.load_game("kuhn(players=2)")
    with pytest.raises(ToypokerError, match="ullman"):
        Solver(game, "fp", ullman="yes")
    with pytest.raises(ToypokerError, match="eps"):
        run_ullman(game, 0)
    r = run_ullman(game, 1e-9, iterations=3)
    assert r.stopped.value == "iterations" and r.iterations == 3


@pytest.mark.slow
def test_the_run_loop_stops_by_his_rule_like_run_ullman():
    # `solve(..., "fp", ullman=True, target_max_gain=eps)` is Ullman's loop: the first
    # iteration whose answered profile's gain is < eps, checked every iteration; his
    # code's 2P-SMH run at eps 0.001 took 704 iterations (NOTES.md, Ullman section)
    from toypoker import load_game
    from toypoker.solvers import solve
    from toypoker.solvers.ullman import run_ullman

    g = load_game("mercer(players=2,variant=smh)")
    a = run_ullman(g, 0.001)
    b = solve(g, "fp", ullman=True, target_max_gain=0.001, iterations=None)
    assert a.iterations == b.iterations == 704 and b.stopped == "target"
    assert (a.profile.probs == b.profile.probs).all()
