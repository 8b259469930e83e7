"""Gambit interoperability: our .efg loads in pygambit, payoffs agree, and Gambit's
own agent_max_regret of our certified profiles is exactly zero."""

from fractions import Fraction as F

import numpy as np
import pytest

from toypoker.evaluation import evaluate
from toypoker.literature import kuhn1950, szafron2013
from toypoker.profile import Profile

gbt = pytest.importorskip("pygambit")
from toypoker.interop.gambit import (  # noqa: E402
    from_gambit_profile,
    gambit_game,
    to_gambit_profile,
)

pytestmark = pytest.mark.peer


def test_szafron_members_have_zero_agent_regret_in_gambit(game):
    g = game(szafron2013.GAME_SPEC)
    gg = gambit_game(g)
    assert [len(p.infosets) for p in gg.players] == [16, 16, 16]
    rng = np.random.default_rng(1)
    for sub in szafron2013.SUBFAMILIES:
        _, p = szafron2013.sample_member(rng, sub)
        prof = szafron2013.profile(g, p)
        gp = to_gambit_profile(gg, prof)
        assert gp.agent_max_regret() == 0
        ours = evaluate(g, prof).values
        assert tuple(F(str(gp.payoff(pl))) for pl in gg.players) == tuple(ours)


def test_table4_has_positive_agent_regret_in_gambit(game):
    g = game(szafron2013.GAME_SPEC)
    gp = to_gambit_profile(gambit_game(g), szafron2013.profile(g, szafron2013.table4()))
    assert gp.agent_max_regret() > 0


def test_kuhn_family_and_gambit_lp_agree(game):
    g = game("kuhn(players=2)")
    gg = gambit_game(g)
    gp = to_gambit_profile(gg, Profile.from_mapping(g, kuhn1950.family(F(1, 2))))
    assert gp.agent_max_regret() == 0
    eq = gbt.nash.lp_solve(gg, rational=True).equilibria[0]
    ev = evaluate(g, from_gambit_profile(g, eq))
    assert ev.values == (F(-1, 18), F(1, 18)) and ev.nash_conv == 0


def test_random_profiles_payoffs_equal_leduc(game):

    g = game("leduc(players=2)")
    gg = gambit_game(g)
    p = Profile.random(g, np.random.default_rng(4))
    gp = to_gambit_profile(gg, p)
    assert np.allclose(
        [float(gp.payoff(pl)) for pl in gg.players], evaluate(g, p).values, rtol=0, atol=1e-12
    )
