"""Cross-checks against OpenSpiel's kuhn_poker and leduc_poker (peer tests)."""

import numpy as np
import pytest

from toypoker.evaluation import evaluate
from toypoker.profile import Profile

pyspiel = pytest.importorskip("pyspiel")
from toypoker.interop import openspiel as bridge  # noqa: E402

pytestmark = pytest.mark.peer


@pytest.mark.parametrize(
    "spec", ["kuhn(players=2)", "kuhn(players=3)", "kuhn(players=4)", "leduc(players=2)"]
)
def test_values_and_nash_conv_equal_openspiel(spec, game):
    g = game(spec)
    rng = np.random.default_rng(11)
    os_game = bridge.openspiel_game(g)
    for k in range(3):
        p = Profile.random(g, rng)
        ours = evaluate(g, p)
        # OpenSpiel's policy built once for both (and, the first time, by each function)
        pol = bridge.openspiel_policy(p, os_game) if k else None
        values = bridge.openspiel_values(p, os_game, pol)
        assert np.allclose(values, ours.values, rtol=0, atol=1e-12)
        nc = bridge.openspiel_nash_conv(p, os_game, pol)
        assert nc == pytest.approx(ours.nash_conv, rel=0, abs=1e-12)


def test_uniform_leduc_nash_conv_equals_openspiel(game):
    g = game("leduc(players=2)")
    assert bridge.openspiel_nash_conv(Profile.uniform(g)) == pytest.approx(
        4.747222222222222, abs=1e-12
    )


@pytest.mark.slow
def test_three_player_leduc_equals_openspiel(game):
    # one random profile, values only: OpenSpiel's policy table (every state listed)
    # takes ~17 s here, its values 2 s, its NashConv 80 s more (measured 2026-11-26); the
    # best responses of three and four players are compared on Kuhn above and on a
    # three-player Leduc with one raise through universal_poker (tests/interop/test_acpc.py)
    g = game("leduc(players=3)")
    p = Profile.random(g, np.random.default_rng(3))
    ours = evaluate(g, p)
    os_game = bridge.openspiel_game(g)
    pol = bridge.openspiel_policy(p, os_game)
    assert np.allclose(bridge.openspiel_values(p, os_game, pol), ours.values, rtol=0, atol=1e-12)
