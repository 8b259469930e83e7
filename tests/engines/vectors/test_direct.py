"""The deal-free build (``toypoker.engines.vectors.direct``) against the layout compiled from the
row-layout game (independent path: the deal table's infosets and ``compile_vector``)."""

from __future__ import annotations

import numpy as np
import pytest

from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.direct import build_vector
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.profile import Profile

SPECS = [
    "kuhn(players=2)",
    "kuhn(players=3,cards=6)",
    "holdem(players=2,ranks=4,suits=3,hole=1,rounds=2,board2=1,evaluator=ullman4)",
    "holdem(players=3,ranks=3,suits=2,hole=2,rounds=1,evaluator=ullman4)",
    "holdem(players=2,ranks=3,suits=2,hole=2,rounds=3,board2=1,board3=0,evaluator=ullman4)",
    # suited evaluators: canonical boards and observations (suit isomorphism), or not
    "rhode_island(ranks=3,suits=2,cap=1)",
    "mercer(players=2)",  # Mercer's rules (mercer.limit_shape), two hole cards
    # slow (4-17 s: the row game they are compared with is built too)
    pytest.param(
        "holdem(players=2,ranks=4,suits=2,hole=2,rounds=2,board2=3,evaluator=standard)",
        marks=pytest.mark.slow,
    ),
    pytest.param("rhode_island(ranks=4,suits=3,cap=1)", marks=pytest.mark.slow),
    pytest.param(
        "rhode_island(ranks=3,suits=2,cap=1,suit_isomorphism=false)", marks=pytest.mark.slow
    ),
    pytest.param("rhode_island(players=3,ranks=3,suits=2,cap=1)", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("spec", SPECS)
def test_deal_free_build_equals_compiled(spec: str) -> None:
    g = load_rows(spec)
    built = build_vector(spec)
    # same infosets, in the same order, with the same labels: profiles carry over
    assert [i.label for i in built.game.infosets] == [i.label for i in g.infosets]
    # the archive's fast path: labels straight from the arrays, in chunks
    n = g.n_infosets
    labels = built.game.infosets.labels(0, n // 2) + built.game.infosets.labels(n // 2, n)
    assert labels == [i.label for i in g.infosets]
    assert built.game.n_sigma == g.n_sigma
    compiled = compile_vector(g)
    prof = Profile.random(g, np.random.default_rng(5))
    a = V.expected_values(built, prof.probs)
    b = V.expected_values(compiled, prof.probs)
    np.testing.assert_allclose(a, b, atol=1e-12, rtol=0)
    assert abs(V.nash_conv(built, prof.probs) - V.nash_conv(compiled, prof.probs)) <= 1e-12


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("leduc(players=2)", "only kuhn, holdem, mercer and rhode_island"),
        ("kuhn(players=3,team=12,strong=true)", "strong collusion .* --layout rows"),
        ("kuhn(players=3,team=12,strong=true,merge=false)", "strong collusion"),
    ],
)
def test_refused_with_one_line(spec: str, why: str) -> None:
    with pytest.raises(ToypokerError, match=why):
        build_vector(spec)


@pytest.mark.slow  # 12 s: Fractions through the row game's and the vector layout's passes
def test_rhode_island_exact_on_the_smallest_deck() -> None:
    """Exact (Fractions) values and NashConv of a random rational profile: the
    deal-free build equals the layout compiled from the row game (independent path:
    the suit-isomorphic deal table) and the row layout's own evaluation."""
    from fractions import Fraction

    from toypoker.engines.rows.values import evaluate

    spec = "rhode_island(ranks=3,suits=2,cap=1)"
    g = load_rows(spec)
    rng = np.random.default_rng(11)
    probs = []
    for info in g.infosets:
        w = [int(x) for x in rng.integers(1, 5, size=len(info.actions))]
        probs += [Fraction(x, sum(w)) for x in w]
    prof = Profile(g, np.array(probs, dtype=object))
    built = build_vector(spec)
    a = V.expected_values(built, prof.probs)
    ev = evaluate(g, prof)
    assert list(a) == list(ev.values)
    assert V.nash_conv(built, prof.probs) == ev.nash_conv


# three players, as ``toypoker solve`` builds them (``rank=True``: one hand a rank on a
# rank deck): 3-player Leduc's structure on a small deck, and a small 3-player Rhode Island
THREE = [
    "holdem(players=3,ranks=4,suits=2)",
    pytest.param("rhode_island(players=3,ranks=3,suits=2,cap=1)", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("spec", THREE)
def test_three_players_as_solved_equal_the_row_layout(spec: str) -> None:
    """Values and NashConv of a random profile, and one CFR+ step from the row layout's
    own state after 3 iterations, equal to 1e-12 (independent path: the row layout's
    evaluation, :func:`toypoker.engines.rows.values.evaluate`, and its numpy CFR step).  The step
    compares regrets and the average, as ``tests/solvers/test_vector_cfr.py`` does: where
    regrets cancel exactly, a 1e-17 residue of the other summation order turns the next
    strategy pure (a tie flipped), so the strategy itself can differ by 0.5; and the
    players update simultaneously (``alternating=False``) so that no player's regrets
    are taken against a strategy a flipped tie changed within the step."""
    from dataclasses import replace

    from toypoker.engines.rows.values import evaluate
    from toypoker.engines.vectors import regrets as VC
    from toypoker.solvers import cfr as C
    from toypoker.solvers.registry import METHODS

    g = load_rows(spec)
    built = build_vector(spec, rank=True)
    if "holdem" in spec:  # one hand a rank (4), not a physical card (8)
        assert built.n_hands == 4
    assert [i.label for i in built.game.infosets] == [i.label for i in g.infosets]
    prof = Profile.random(g, np.random.default_rng(3))
    ev = evaluate(g, prof)
    np.testing.assert_allclose(V.expected_values(built, prof.probs), ev.values, atol=1e-12, rtol=0)
    assert abs(V.nash_conv(built, prof.probs) - float(ev.nash_conv)) <= 1e-12
    opts = replace(METHODS["cfr+"].defaults, backend=C.Backend.NUMPY, alternating=False)
    row = C.init(g, opts)
    for _ in range(3):
        row = C.step(g, row, opts)
    want, got = C.step(g, row, opts), VC.step(built, row, opts)
    for a, b in ((got.regrets, want.regrets), (got.average, want.average)):
        assert float(np.abs(a - b).max()) <= 1e-12 * max(1.0, float(np.abs(b).max()))


def test_a_json_profile_is_read_by_label_on_the_deal_free_game(tmp_path) -> None:
    # `toypoker eval SPEC p.json` on a game solve runs on the vector layout ended in an
    # AttributeError (the deal-free game had no label index); audit 2026-11-26
    from toypoker.errors import ProfileError
    from toypoker.profile import Profile

    spec = "rhode_island(ranks=3,suits=2,cap=1)"
    tree = build_vector(spec).game
    rng = np.random.default_rng(3)
    probs = rng.random(tree.n_sigma)
    sums = np.bincount(tree.sigma_infoset, weights=probs)[tree.sigma_infoset]
    prof = Profile(tree, probs / sums)
    path = tmp_path / "p.json"
    prof.to_json(path)
    back = Profile.from_json(path, tree)
    assert np.array_equal(np.asarray(back.probs), np.asarray(prof.probs))
    label = tree.infosets[5].label
    assert tree.has_infoset(label) and tree.infoset(label).index == 5
    assert not tree.has_infoset("P1:9:zz")
    with pytest.raises(ProfileError, match="unknown infoset"):
        tree.infoset("P1:9:zz")


def test_a_game_too_large_to_count_is_refused_before_anything_is_built(monkeypatch) -> None:
    """Issue 47: a 52-card, two-hole-card, three-round hold'em has more boards at a depth
    than count_layout visits (layout_count.MAX_BOARDS), so it went uncounted and
    unchecked into the build: 7 GB in 150 s, then chained MemoryErrors (`toypoker info`
    refused it in one line).  Now refused in one line before the deck is dealt (the
    build's first allocation, made to fail here)."""
    from toypoker.engines.vectors import direct

    def dealt(*_a: object, **_k: object) -> None:
        raise AssertionError("the build started")

    monkeypatch.setattr(direct, "limit_deck", dealt)
    spec = "holdem(ranks=13,suits=4,hole=2,rounds=3,board2=3,board3=1,evaluator=standard)"
    with pytest.raises(ToypokerError, match="too large for the vector layout: more than 20,000"):
        build_vector(spec)
