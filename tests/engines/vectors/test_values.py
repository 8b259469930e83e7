"""The vector layout against the deal-table layout (independent path:
``toypoker.engines.rows.values``).

Every expected number here comes from the row layout (``evaluate``, which sums over
the joint deals of the deal table); the vector layout never forms a joint deal.
Floats agree to 1e-12 (``rtol=0``); Fraction profiles agree exactly.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from toypoker.engines.rows.values import evaluate
from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors import values as V
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.profile import Profile

from .specs import RANDOM as ISSUE_SPECS
from .specs import SLOW as ISSUE_SLOW

# small games: kuhn and leduc with 2 and 3 players, and holdem(...) specs
QUICK = [
    "kuhn(players=2)",
    "kuhn(players=3)",
    "kuhn(players=3,cards=6)",
    "leduc(players=2)",
    "holdem(players=2,ranks=3,suits=1,hole=1,rounds=1,evaluator=ullman4)",
    "holdem(players=2,ranks=4,suits=3,hole=1,rounds=2,board2=1,evaluator=ullman4)",
    "holdem(players=2,ranks=4,suits=2,hole=2,rounds=1,evaluator=high_card)",
    "holdem(players=3,ranks=3,suits=2,hole=2,rounds=1,evaluator=ullman4)",
    "holdem(players=2,ranks=3,suits=2,hole=1,rounds=2,board2=2,evaluator=ullman4)",
    # a suited evaluator (five cards), suit isomorphism on: canonical boards standing
    # for their orbits (off: in RANDOM)
    "holdem(players=2,ranks=4,suits=2,hole=2,rounds=2,board2=3,evaluator=standard)",
]
# drawn with numpy.random.default_rng(21) over players 2-3, ranks 3-5, suits 1-3,
# hole 1-2, rounds 1-3, boards 0-2, evaluators high_card/ullman4 (rows < 150,000)
RANDOM = [
    "holdem(players=2,ranks=5,suits=2,hole=2,rounds=2,board2=1,evaluator=ullman4)",
    "holdem(players=3,ranks=4,suits=3,hole=2,rounds=1,evaluator=ullman4)",
    "holdem(players=3,ranks=4,suits=3,hole=2,rounds=1,evaluator=high_card)",
    "holdem(players=2,ranks=4,suits=3,hole=1,rounds=3,board2=2,board3=0,evaluator=high_card)",
    "holdem(players=3,ranks=3,suits=3,hole=1,rounds=2,board2=0,evaluator=ullman4)",
    "holdem(players=2,ranks=5,suits=3,hole=1,rounds=2,board2=0,evaluator=ullman4)",
    "holdem(players=3,ranks=3,suits=1,hole=1,rounds=1,evaluator=ullman4)",
    "holdem(players=2,ranks=3,suits=2,hole=2,rounds=3,board2=1,board3=0,evaluator=ullman4)",
    "holdem(players=2,ranks=5,suits=1,hole=2,rounds=1,evaluator=high_card)",
    "holdem(players=2,ranks=4,suits=1,hole=1,rounds=2,board2=0,evaluator=ullman4)",
    "holdem(players=2,ranks=5,suits=2,hole=2,rounds=2,board2=2,evaluator=ullman4)",
    "holdem(players=2,ranks=5,suits=3,hole=2,rounds=1,evaluator=ullman4)",
    "holdem(players=3,ranks=3,suits=3,hole=1,rounds=2,board2=1,evaluator=ullman4)",
    "holdem(players=2,ranks=5,suits=2,hole=2,rounds=2,board2=2,evaluator=high_card)",
    "holdem(players=3,ranks=5,suits=2,hole=2,rounds=1,evaluator=high_card)",
    "holdem(players=3,ranks=5,suits=2,hole=1,rounds=1,evaluator=high_card)",
    "holdem(players=2,ranks=4,suits=3,hole=2,rounds=1,evaluator=high_card)",
    "holdem(players=3,ranks=3,suits=2,hole=2,rounds=1,evaluator=ullman4)",
    "leduc(players=3)",
    "holdem(players=2,ranks=4,suits=2,hole=2,rounds=2,board2=1,evaluator=ullman4)",
    "holdem(players=2,ranks=4,suits=2,hole=2,rounds=2,board2=3,evaluator=standard,"
    "suit_isomorphism=false)",
    # suited, three players
    "holdem(players=3,ranks=4,suits=2,hole=1,rounds=2,board2=4,evaluator=standard)",
    "holdem(players=3,ranks=4,suits=2,hole=1,rounds=2,board2=4,evaluator=standard,"
    "suit_isomorphism=false)",
]


def _check_floats(spec: str, seed: int, dense: bool = False) -> None:
    g = load_rows(spec)
    vg = compile_vector(g)
    rng = np.random.default_rng(seed)
    for _ in range(2):
        prof = Profile.random(g, rng)
        ev = evaluate(g, prof)
        got = V.expected_values(vg, prof.probs, dense=dense)
        np.testing.assert_allclose(got, ev.values, atol=1e-12, rtol=0)
        for p in range(g.n_players):
            br, _ = V.best_response_value(vg, prof.probs, p)
            assert abs(br - ev.br_values[p]) <= 1e-12
        assert abs(V.nash_conv(vg, prof.probs) - ev.nash_conv) <= 1e-12


@pytest.mark.parametrize("spec", QUICK)
def test_values_and_nash_conv_match_rows(spec: str) -> None:
    _check_floats(spec, seed=len(spec))


@pytest.mark.slow
@pytest.mark.parametrize("spec", RANDOM)
def test_random_specs_match_rows(spec: str) -> None:
    _check_floats(spec, seed=len(spec))


@pytest.mark.parametrize(
    "spec",
    [pytest.param(s, marks=[pytest.mark.slow] if s in ISSUE_SLOW else []) for s in ISSUE_SPECS],
)
def test_issue_random_specs_match_rows(spec: str) -> None:
    """The 20 random specs of the whole-run tests (``tests/engines/vectors/specs.py``)."""
    _check_floats(spec, seed=len(spec))


@pytest.mark.parametrize(
    "spec", ["leduc(players=2)", "kuhn(players=2,cards=5)", "kuhn(players=3,cards=5)"]
)
def test_dense_terminals_equal_rows(spec: str) -> None:
    """The O(H^n) dense product (the reference for the sweeps) against the rows."""
    _check_floats(spec, seed=3, dense=True)


# the smallest of the issue's random specs too (one round, 2 and 3 players, suits 1 and 3)
@pytest.mark.parametrize(
    "spec",
    [
        "kuhn(players=2)",
        "kuhn(players=3)",
        "leduc(players=2)",
        *(ISSUE_SPECS[i] for i in (0, 8, 13)),
    ],
)
def test_exact_values_equal_rows(spec: str) -> None:
    g = load_rows(spec)
    vg = compile_vector(g)
    prof = Profile.random(g, np.random.default_rng(7)).to_exact(max_denominator=60)
    ev = evaluate(g, prof)
    got = V.expected_values(vg, prof.probs)
    assert all(isinstance(x, Fraction) for x in got)
    assert tuple(got) == ev.values
    assert V.nash_conv(vg, prof.probs) == ev.nash_conv


def test_layout_sizes_kuhn3() -> None:
    """kuhn(players=3): 4 cards, one card a hand (Kuhn 1950); the vector layout has
    4 hands a player where the deal table has 24 deals."""
    g = load_rows("kuhn(players=3)")
    vg = compile_vector(g)
    assert vg.n_hands == 4 and g.n_deals == 24
    assert vg.entries == len(g.nodes) * 3 * 4


def test_leduc_board_multiplicity() -> None:
    """Leduc: two copies of each of three ranks (Southey et al. 2005); a board rank
    stands for its two physical cards."""
    vg = compile_vector(load_rows("leduc(players=2)"))
    assert vg.n_cards == 6
    assert set(vg.node_mult[vg.node_mult > 1].tolist()) == {2}


@pytest.mark.parametrize("spec", ["kuhn(players=3,team=12,strong=true,merge=false)",
                                  "kuhn(players=3,team=12,strong=true,merge=true)"])  # fmt: skip
def test_strong_collusion_is_refused(spec: str) -> None:
    # weak collusion (a payoff map) is tested in tests/engines/vectors/test_collusion.py
    g = load_rows(spec)
    with pytest.raises(ToypokerError, match="vector layout cannot express.*--layout rows"):
        compile_vector(g)
