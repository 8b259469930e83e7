"""Three players on rank pairs (:func:`toypoker.engines.vectors.layout.rank_hands` with two hole
cards: one hand per rank multiset, card removal between the players as the board's deal
counts ``rank_deals``) against independent paths: the row layout
(:mod:`toypoker.engines.rows.values`, :func:`toypoker.solvers.cfr.step` over the deal table) and
the same game's physical-hand vector layout (the dense numpy reference).

Values and NashConv of random profiles equal the row layout's to 1e-12 (exactly in
rationals against physical hands on the smallest deck: ``test_rank_hands.py``); the
fused kernel's CFR+ and PDCFR+ iterations (a dense ``O(R^3)`` sum per terminal) equal
the physical-hand reference from its own state at every iteration; and on
``mercer(players=3,variant=mmh)`` (issue 21's 5.9 M-row game), built without a deal
table, values, NashConv and CFR+ iterations equal the row layout's to 1e-12.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from toypoker.engines.rows.values import expected_values as row_values
from toypoker.engines.rows.values import nash_conv as row_nash_conv
from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors import regrets as VC
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.direct import build_vector
from toypoker.engines.vectors.kernel import vector_kernel
from toypoker.engines.vectors.layout import VectorGame, rank_hands
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.solvers import cfr as C
from toypoker.solvers.registry import METHODS

from .maps import assert_same_map, close

SPECS = [
    "holdem(players=3,ranks=3,suits=2,hole=2,rounds=1,evaluator=ullman4)",
    "holdem(players=3,ranks=3,suits=3,hole=2,rounds=2,board2=1,evaluator=ullman4)",
    "mercer(players=3)",
]


def _random_sigma(vg: VectorGame, seed: int) -> np.ndarray:
    game = vg.game
    x = np.random.default_rng(seed).random(game.n_sigma)
    return x / np.bincount(game.sigma_infoset, x)[game.sigma_infoset]


def test_deal_counts_by_brute_force() -> None:
    # Mercer's deck (ranks 2-6 x 4 suits) before the flop: deals of three disjoint
    # physical hands with given rank pairs, counted by enumerating the 190 hands
    rg = rank_hands(build_vector("mercer(players=3)"))
    hands = rg.hands.tolist()
    cards = [(r, s) for r in range(5) for s in range(4)]
    by_ranks: dict[tuple[int, int], list[frozenset]] = {}
    for i in range(20):
        for j in range(i + 1, 20):
            key = tuple(sorted((cards[i][0], cards[j][0])))
            by_ranks.setdefault(key, []).append(frozenset((i, j)))
    root = int(rg.node_board[0])
    for a, b, c in [(0, 0, 0), (0, 1, 2), (3, 3, 1), (4, 4, 4), (2, 5, 9)]:
        h = [by_ranks[tuple(hands[x])] for x in (a, b, c)]
        brute = sum(
            1 for x in h[0] for y in h[1] if not x & y for z in h[2] if not (x | y) & z
        )  # fmt: skip
        assert int(rg.rank_deals[root, a, b, c]) == brute
    # total: ordered deals of three disjoint physical hands, 20C2 18C2 16C2
    assert int(rg.rank_deals[root].sum()) == math.comb(20, 2) * math.comb(18, 2) * math.comb(16, 2)


@pytest.mark.parametrize("spec", SPECS)
def test_values_and_nash_conv_match_row_layout(spec: str) -> None:
    g = load_rows(spec)
    rg = rank_hands(compile_vector(g))
    assert rg.rank_deals is not None and rg.n_hands < compile_vector(g).n_hands
    for seed in range(2):
        sigma = _random_sigma(rg, seed)
        assert close(V.expected_values(rg, sigma), row_values(g, sigma))
        assert abs(V.nash_conv(rg, sigma) - row_nash_conv(g, sigma)) <= 1e-12


@pytest.mark.parametrize(
    "spec",
    [SPECS[0], pytest.param(SPECS[1], marks=pytest.mark.slow)],  # 9 s: 36 hands dense
)
@pytest.mark.parametrize("method", ["cfr+", "pdcfr+"])
def test_kernel_matches_physical_reference(spec: str, method: str) -> None:
    vg = compile_vector(load_rows(spec))
    rg = rank_hands(vg)
    assert vector_kernel(rg) is not None and vector_kernel(vg) is None
    ref = replace(METHODS[method].defaults, backend=C.Backend.NUMPY)
    fused = replace(ref, backend=C.Backend.NUMBA)
    assert_same_map(lambda s: VC.step(vg, s, ref), lambda s: VC.step(rg, s, fused), VC.init(vg), 5)


def test_two_players_with_two_hole_cards_refused() -> None:
    vg = build_vector("mercer(players=2)")
    with pytest.raises(ToypokerError, match="three players"):
        rank_hands(vg)


@pytest.mark.slow  # ~15 s: the 5.9 M-row game is built and evaluated
def test_mercer_mmh_equals_row_layout() -> None:
    spec = "mercer(players=3,variant=mmh)"
    g = load_rows(spec)
    rg = rank_hands(build_vector(spec))
    sigma = _random_sigma(rg, 3)
    assert close(V.expected_values(rg, sigma), row_values(g, sigma))
    assert abs(V.nash_conv(rg, sigma) - row_nash_conv(g, sigma)) <= 1e-12
    opts = replace(METHODS["cfr+"].defaults, backend=C.Backend.NUMBA)
    start = C.init(g, opts)
    assert_same_map(lambda s: C.step(g, s, opts), lambda s: VC.step(rg, s, opts), start, 3)
