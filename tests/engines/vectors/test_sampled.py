"""Public chance sampling on the vector layout (``toypoker.engines.vectors.sampled``): the sampled
update's expectation over every board path, with the paths' probabilities, equals the
full update exactly (Fractions)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.direct import build_vector
from toypoker.engines.vectors.regrets import instant_regrets
from toypoker.engines.vectors.sampled import board_paths, path_subtree, sample_path
from toypoker.games import load_rows
from toypoker.profile import Profile

SPECS = [
    "leduc(players=2)",
    # two board rounds (flop, turn) and three players: ~10 s and ~24 s in Fractions
    pytest.param("rhode_island(ranks=3,suits=2,cap=1)", marks=pytest.mark.slow),
    pytest.param("holdem(players=3,ranks=3)", marks=pytest.mark.slow),
]


def _exact_profile(spec: str):
    g = load_rows(spec)
    vg = build_vector(spec) if spec.startswith("rhode_island") else compile_vector(g)
    x = np.random.default_rng(1).random(g.n_sigma) + 0.1
    probs = x / np.bincount(g.sigma_infoset, x)[g.sigma_infoset]
    return vg, Profile(g, probs).to_exact(max_denominator=50).probs


@pytest.mark.parametrize("spec", SPECS)
def test_expected_update_is_the_full_update_exactly(spec: str) -> None:
    # independent path: the full (unsampled) regrets and own reaches of the same exact
    # profile; the sampled ones averaged over every board path with its probability
    vg, sigma = _exact_profile(spec)
    paths = list(board_paths(vg))
    assert len(paths) > 1 and sum(p for _, p in paths) == 1
    rep = V.plan_for(vg).infoset_rep[vg.game.sigma_infoset]
    reach = V.reaches(vg, sigma)
    for p in range(vg.n_players):
        regrets = np.full(vg.game.n_sigma, Fraction(0), dtype=object)
        own = np.full(vg.game.n_sigma, Fraction(0), dtype=object)
        for path, prob in paths:
            active, scale = path_subtree(vg, path, exact=True)
            r = V.reaches(vg, sigma, active)
            regrets = regrets + prob * instant_regrets(vg, sigma, p, r, (active, scale))
            own = own + prob * r[p].ravel()[rep] * scale[rep // vg.n_hands]
        assert all(regrets == instant_regrets(vg, sigma, p, reach))  # CFR's regrets
        assert all(own == reach[p].ravel()[rep])  # CFR's average-strategy weights


def test_paths_are_drawn_with_their_probabilities() -> None:
    # independent path: board_paths' exact probabilities against 5,000 draws
    vg, _ = _exact_profile("leduc(players=2)")
    rng = np.random.default_rng(7)
    want = dict(board_paths(vg))
    draws = [sample_path(vg, rng) for _ in range(5000)]
    for path, prob in want.items():
        freq = sum(d == path for d in draws) / len(draws)
        assert abs(freq - float(prob)) < 0.035  # 5 standard errors at p = 1/3
