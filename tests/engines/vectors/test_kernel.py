"""The fused vector-layout kernel against the numpy reference of the same layout
(independent path: ``toypoker.engines.vectors.values`` and ``solvers.vector_cfr.reference_step``,
themselves checked against the row layout in ``tests/engines/vectors/test_values.py`` and
``tests/solvers/test_vector_cfr.py``).

Values of a random profile at every (node, hand) and the instantaneous regrets agree
to 1e-12 (the kernel sums in another order).  The iteration map is compared from
the reference's own state at every iteration, as the row layout's backends are
(``tests/solvers/test_cfr.py``): where regrets cancel exactly, a rounding residue
decides between uniform and pure play, so whole trajectories may part while every
iteration agrees.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors import kernel as K
from toypoker.engines.vectors import regrets as VC
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.layout import rank_hands
from toypoker.games import load_rows
from toypoker.solvers import cfr as C
from toypoker.solvers.registry import METHODS

from .maps import assert_same_map, close

SPECS = [
    "kuhn(players=2)",
    "kuhn(players=3)",
    "kuhn(players=3,cards=6)",
    "leduc(players=2)",
    "holdem(players=2,ranks=4,suits=2,hole=2,rounds=1,evaluator=high_card)",
    "holdem(players=2,ranks=3,suits=1,hole=1,rounds=1,evaluator=ullman4)",
    "holdem(players=2,ranks=3,suits=2,hole=2,rounds=2,board2=1,evaluator=ullman4)",
]


def _random_sigma(vg: object, seed: int) -> np.ndarray:
    game = vg.game  # type: ignore[attr-defined]
    x = np.random.default_rng(seed).random(game.n_sigma)
    return x / np.bincount(game.sigma_infoset, x)[game.sigma_infoset]


@pytest.mark.parametrize("spec", [*SPECS, pytest.param("leduc(players=3)", marks=pytest.mark.slow)])
def test_values_and_regrets_match_reference(spec: str) -> None:
    vg = compile_vector(load_rows(spec))
    k = K.vector_kernel(vg)
    assert k is not None
    sigma = _random_sigma(vg, 7)
    reach, cfv, inst = k.work
    for p in range(vg.n_players):
        K._reach_player(p, sigma, k.tree, k.parts, reach, False)
    ref_reach = V.reaches(vg, sigma)
    assert close(reach, ref_reach)
    for p in range(vg.n_players):
        value = K._values(p, sigma, reach, k.tree, k.terms, k.parts, cfv, inst[p], k.sizes, False)
        ref = V.counterfactual_values(vg, sigma, p, ref_reach)
        assert close(cfv, ref)
        assert abs(value - ref[0].sum()) <= 1e-12
        assert close(inst[p], VC.instant_regrets(vg, sigma, p, ref_reach))


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("method", ["cfr+", "pdcfr+"])
@pytest.mark.parametrize("alternating", [True, False])
def test_iteration_map_matches_reference(spec: str, method: str, alternating: bool) -> None:
    vg = compile_vector(load_rows(spec))
    ref = replace(METHODS[method].defaults, backend=C.Backend.NUMPY, alternating=alternating)
    fused = replace(ref, backend=C.Backend.NUMBA)
    assert_same_map(lambda s: VC.step(vg, s, ref), lambda s: VC.step(vg, s, fused), VC.init(vg), 10)


@pytest.mark.parametrize("spec", ["kuhn(players=3)", "leduc(players=2)", SPECS[-1]])
@pytest.mark.parametrize("method", ["cfr+", "pdcfr+"])
def test_kept_reach_equals_fresh_reach(spec: str, method: str) -> None:
    # step_many runs its iterations after the first on the reach the one before left
    # (VectorKernel.iteration's reach_kept); a call a step computes every reach afresh
    vg = compile_vector(load_rows(spec))
    opts = replace(METHODS[method].defaults, backend=C.Backend.NUMBA)
    many = VC.step_many(vg, VC.init(vg), opts, 7)
    one = VC.init(vg)
    for _ in range(7):
        one = VC.step(vg, one, opts)
    for a, b in ((many.sigma, one.sigma), (many.regrets, one.regrets),
                 (many.average, one.average)):  # fmt: skip
        assert np.array_equal(a, b)
    # and the kept reach is what a fresh pass gives: every player's but the last
    k = K.vector_kernel(vg)
    kept = k.work[0].copy()
    for p in range(vg.n_players):
        K._reach_player(p, many.sigma, k.tree, k.parts, k.work[0], None)
    assert np.array_equal(kept[:-1], k.work[0][:-1])


def test_no_kernel_without_sweeps() -> None:
    # three players with two cards a hand: only the dense reference applies
    spec = "holdem(players=3,ranks=3,suits=2,hole=2,rounds=1,evaluator=ullman4)"
    vg = compile_vector(load_rows(spec))
    assert K.vector_kernel(vg) is None
    opts = replace(METHODS["cfr+"].defaults, backend=C.Backend.NUMBA)
    a = VC.step(vg, VC.init(vg), opts)
    b = VC.step(vg, VC.init(vg), replace(opts, backend=C.Backend.NUMPY))
    assert np.array_equal(a.regrets, b.regrets)


@pytest.mark.parametrize(
    "spec", [*SPECS, "holdem(players=3,ranks=3,suits=2,hole=2,rounds=1,evaluator=ullman4)"]
)
def test_evaluate_matches_reference(spec: str) -> None:
    # values and best-response values of the fused call against the numpy reference
    # (expected_values, best_response_value); the last spec on rank pairs; seed 2 is a
    # near-pure profile, where exact ties between actions pick the first in both
    vg = compile_vector(load_rows(spec))
    if vg.n_players == 3 and vg.hands.shape[1] == 2:
        vg = rank_hands(vg)
    k = K.vector_kernel(vg)
    assert k is not None
    game = vg.game
    for seed in range(3):
        x = np.random.default_rng(seed).random(game.n_sigma)
        if seed == 2:
            x = (x > 0.5) + 1e-300
        sigma = x / np.bincount(game.sigma_infoset, x)[game.sigma_infoset]
        values, best = k.evaluate(sigma)
        assert close(values, V.expected_values(vg, sigma))
        ref = [V.best_response_value(vg, sigma, p)[0] for p in range(vg.n_players)]
        assert close(best, np.array(ref, dtype=np.float64))
