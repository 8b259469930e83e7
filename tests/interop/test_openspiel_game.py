"""Our games inside OpenSpiel (issue 13 item 4): OpenSpiel's algorithms on ``python_toypoker``."""

import numpy as np
import pytest

from toypoker import nash_conv
from toypoker.engines.rows.values import expected_values
from toypoker.errors import ToypokerError
from toypoker.game import ACTION_NAMES
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.profile import Profile

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install open_spiel)"
)
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability  # noqa: E402

from toypoker.interop import openspiel_game as og  # noqa: E402

pytestmark = pytest.mark.peer

KUHN3 = "kuhn(players=3,cards=5)"


@pytest.fixture(scope="module")
def kuhn3():
    g = load_rows(KUHN3)
    return g, og.openspiel_game(g)


def test_registered_game_loads_from_its_string(kuhn3):
    g, os_game = kuhn3
    loaded = pyspiel.load_game("python_toypoker(spec=kuhn(players=3,cards=5))")
    assert loaded.toypoker_game.spec == g.spec
    assert pyspiel.load_game(str(os_game)).toypoker_game.spec == g.spec
    assert os_game.num_players() == 3
    assert os_game.max_chance_outcomes() == g.n_deals == 60
    exact = og.openspiel_game("kuhn(players=3,pot=7/2)")
    assert "pot=7/2" in str(exact)
    assert pyspiel.load_game(str(exact)).toypoker_game.spec == exact.toypoker_game.spec


def test_chance_actions_and_information_states(kuhn3):
    g, os_game = kuhn3
    state = os_game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [d for d, _ in outcomes] == list(range(g.n_deals))
    assert [p for _, p in outcomes] == [float(w) for w in g.weights]
    state.apply_action(7)
    for p in range(3):
        private = g.obs_private[p][g.obs[p, 7]][0]
        assert state.information_state_string(p) == f"P{p + 1}:{private}:"
    assert state.legal_actions() == [og.ACTION_ID["k"], og.ACTION_ID["b"]]
    state.apply_action(og.ACTION_ID["b"])
    assert state.legal_actions() == [og.ACTION_ID["c"], og.ACTION_ID["f"]]
    label = state.information_state_string(state.current_player())
    assert set(g.infoset(label).actions) == {"c", "f"}
    clone = state.clone()
    for a in (og.ACTION_ID["f"], og.ACTION_ID["f"]):
        clone.apply_action(a)
    assert clone.is_terminal() and not state.is_terminal()
    assert sum(clone.returns()) == pytest.approx(0.0, abs=1e-12)


def test_nash_conv_of_a_random_profile_equals_ours(kuhn3):
    g, os_game = kuhn3
    rng = np.random.default_rng(13)
    for _ in range(2):
        p = Profile.random(g, rng)
        theirs = exploitability.nash_conv(os_game, og.to_tabular_policy(p, os_game))
        assert theirs == pytest.approx(nash_conv(g, p), rel=0, abs=1e-12)


def test_round_trip_is_exact(kuhn3):
    g, os_game = kuhn3
    p = Profile.random(g, np.random.default_rng(5))
    tab = og.to_tabular_policy(p, os_game)
    assert set(tab.state_lookup) == {i.label for i in g.infosets}
    assert np.array_equal(og.from_tabular_policy(g, tab).probs, p.probs)
    # any policy object (asked at states), e.g. OpenSpiel's C++ TabularPolicy
    cpp = pyspiel.TabularPolicy(tab.to_dict())
    assert np.array_equal(og.from_tabular_policy(g, cpp).probs, p.probs)


@pytest.mark.slow
def test_openspiel_cfr_converges_to_our_nash_conv(kuhn3):
    g, os_game = kuhn3
    solver = cfr.CFRPlusSolver(os_game)
    seen = []
    for it in range(1, 31):
        solver.evaluate_and_update_policy()
        if it % 10 == 0:
            avg = solver.average_policy()
            theirs = exploitability.nash_conv(os_game, avg)
            ours = nash_conv(g, og.from_tabular_policy(g, avg))
            assert ours == pytest.approx(theirs, rel=0, abs=1e-10)
            seen.append(ours)
    assert seen[0] > seen[1] > seen[2]
    assert seen[-1] < 0.03


def test_leduc_expected_values_equal_ours():
    g = load_rows("leduc(players=2)")
    os_game = og.openspiel_game(g)
    p = Profile.random(g, np.random.default_rng(2))
    tab = og.to_tabular_policy(p, os_game)
    theirs = expected_game_score.policy_value(os_game.new_initial_state(), [tab, tab])
    np.testing.assert_allclose(theirs, expected_values(g, p), rtol=0, atol=1e-12)
    # the board is part of the information state
    assert any("/[" in label for label in tab.state_lookup)


def test_restricted_infosets_keep_the_tree_actions():
    g = load_rows("skp")
    assert g.infoset_restricted.any()
    os_game = og.openspiel_game(g)
    p = Profile.random(g, np.random.default_rng(0))
    tab = og.to_tabular_policy(p, os_game)
    info = next(i for i in g.infosets if i.restricted)
    row = tab.policy_for_key(info.label)
    assert sorted(np.nonzero(row)[0]) == sorted(
        og.ACTION_ID[a] for k, a in enumerate(info.actions) if p.probs[info.offset + k] > 0
    )
    tab.action_probability_array[tab.state_lookup[info.label]] = 0.0  # OpenSpiel moves it ...
    tab.action_probability_array[tab.state_lookup[info.label], og.ACTION_ID[info.actions[0]]] = 1
    back = og.from_tabular_policy(g, tab)  # ... the profile keeps the fixed values
    assert np.array_equal(back.probs, p.probs)


def test_action_ids_cover_our_letters():
    assert set(og.ACTIONS) == set(ACTION_NAMES)
    assert [og.ACTION_ID[a] for a in og.ACTIONS] == list(range(len(og.ACTIONS)))


def test_bad_spec_parameter():
    with pytest.raises(ToypokerError):
        og.spec_from_parameter(3)
    with pytest.raises(ToypokerError):
        og.spec_from_parameter({"name": "nosuchgame"})
