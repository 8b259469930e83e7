"""Exact suit isomorphism for games whose evaluator sees suits (``games/deals.py``).

Merging deals that differ by a permutation of the suits is exact because the
evaluator is suit-symmetric: a profile that is the same on suit-isomorphic
information sets (a *symmetric* profile) has the same value in the merged and in
the unmerged game, and best responses to symmetric profiles can be chosen
symmetric.  The expected numbers therefore come from the unmerged game itself
(``suit_isomorphism=false``, every card identity kept): the merged game must give
the same exact values, the same exact LP value and the same NashConv for the same
(mapped) profile.  Deal counts are checked against Burnside's lemma (the number of
orbits is the mean number of fixed points of the group's elements) and against a
brute-force canonicalisation of every deal.
"""

import itertools
import math
import re
from fractions import Fraction

import numpy as np
import pytest

from toypoker import Profile, nash_conv, solve
from toypoker.definition import suit_canonical
from toypoker.engines.rows.values import expected_values
from toypoker.games import (
    GAMES,
    load_rows,  # the deal table: these tests read its rows
)
from toypoker.games.deals import count_suit_orbits, suit_orbit_table
from toypoker.spec import parse_spec

# five cards (1 hole + 4 board): flushes and straights decide showdowns
TWO_SUITS = "holdem(ranks=5,suits=2,hole=1,rounds=2,board2=4,cap1=1,cap2=1,evaluator=standard)"
# boards over two rounds: observations canonical per round (betting after each board)
TWO_ROUNDS = (
    "holdem(ranks=5,suits=2,hole=1,rounds=3,board2=2,board3=2,cap1=0,cap2=1,cap3=1,"
    "evaluator=standard)"
)
# its compile (merged and unmerged) is ~30 s of the quick part: slow; TINY_ROUNDS keeps
# boards over two rounds in the quick part
TWO_ROUNDS_SLOW = pytest.param(TWO_ROUNDS, marks=pytest.mark.slow)
THREE_PLAYERS = (
    "holdem(players=3,ranks=5,suits=2,hole=1,rounds=2,board2=4,cap1=1,cap2=1,evaluator=standard)"
)
THREE_SUITS = "holdem(ranks=5,suits=3,hole=1,rounds=2,board2=4,cap1=1,cap2=0,evaluator=standard)"
# small enough for exact rationals and the LP's exact certificate in well under a second
# (no betting after the board: flushes and straights still decide the showdown)
FLUSH_SHOWDOWN = "holdem(ranks=5,suits=2,hole=1,rounds=2,board2=4,cap1=1,cap2=0,evaluator=standard)"
# two board rounds, every card of 3 ranks x 2 suits dealt; no betting after the last
# board (the LP's exact certificate stays under a second)
TINY_LP = (
    "holdem(ranks=3,suits=2,hole=1,rounds=3,board2=2,board3=2,cap1=1,cap2=1,cap3=0,"
    "evaluator=standard)"
)
TINY_ROUNDS = (
    "holdem(ranks=3,suits=2,hole=1,rounds=3,board2=2,board3=2,cap1=1,cap2=1,cap3=1,"
    "evaluator=standard)"
)


def unmerged(spec: str) -> str:
    return spec[:-1] + ",suit_isomorphism=false)"


_SOURCES: dict[tuple[str, str], np.ndarray] = {}


def mapped(merged, full, probs):
    """A profile of the merged game as the symmetric profile of the unmerged game:
    every unmerged infoset plays as its canonical (merged) infoset.

    Which merged entry each unmerged entry copies is found once per pair of games, by
    label (canonicalising every unmerged label costs ~20 s on ``TWO_ROUNDS``' 92,160
    infosets), and kept for the next profile: the mapping does not depend on it."""
    key = (merged.spec, full.spec)
    if key not in _SOURCES:
        source = np.empty(full.n_sigma, dtype=np.int64)
        for inf in full.infosets:
            j = merged.infoset(inf.label)  # the label canonicalised by the suit permutation
            assert j.actions == inf.actions
            source[inf.offset : inf.offset + len(inf.actions)] = np.arange(
                j.offset, j.offset + len(j.actions)
            )
        _SOURCES[key] = source
    return np.asarray(probs)[_SOURCES[key]]


def random_exact(game, rng) -> np.ndarray:
    """A random profile in exact rationals (denominators up to 8)."""
    parts = []
    for inf in game.infosets:
        w = [int(x) for x in rng.integers(1, 8, size=len(inf.actions))]
        parts += [Fraction(x, sum(w)) for x in w]
    return np.array(parts, dtype=object)


@pytest.fixture(scope="module")
def pairs():
    cache = {}

    def get(spec):
        # the unmerged games pass the default size limit only just: allow them
        if spec not in cache:
            cache[spec] = tuple(load_rows(s, max_bytes=2**40) for s in (spec, unmerged(spec)))
        return cache[spec]

    return get


@pytest.mark.parametrize(
    "spec", [TWO_SUITS, TWO_ROUNDS_SLOW, pytest.param(THREE_PLAYERS, marks=pytest.mark.slow)]
)
def test_probabilities_and_orbit_counts(spec, pairs):
    m, f = pairs(spec)
    assert m.definition.suits > 0 and f.definition.suits == 0
    assert sum(int(x) for x in m.weight_num) == m.weight_den  # exactly 1
    # Burnside's lemma, and the orbits found by canonicalising every unmerged deal
    d = m.definition
    groups = [len(h) for h in d.hole_slots] + [len(b) for b in d.board_slots if b]
    assert m.n_deals == count_suit_orbits(5, 2, groups)
    cols = [list(b) for b in d.board_slots if b] + [list(h) for h in d.hole_slots]
    canon = suit_canonical(f.cards, cols, 2)
    uniq, counts = np.unique(canon, axis=0, return_counts=True)
    assert len(uniq) == m.n_deals
    # each merged row is its orbit, weighted by the orbit's size (every deal of
    # distinct cards is equally likely: weight_num 1 in the unmerged table)
    assert f.weight_den == m.weight_den and set(f.weight_num.tolist()) == {1}
    mine = suit_canonical(m.cards, cols, 2)
    assert np.array_equal(mine, m.cards[:, [c for g in cols for c in g]])  # canonical rows
    order = np.lexsort(mine.T[::-1])
    assert np.array_equal(mine[order], uniq)
    assert np.array_equal(m.weight_num[order], counts)
    # the size hook counts the merged deals without building, and bounds the nodes
    p = GAMES["holdem"].validate(parse_spec(spec).as_dict())
    deals, nodes, _ = GAMES["holdem"].size(p, max_entries=None)
    assert deals == m.n_deals and nodes >= len(m.nodes)
    s = m.summary()
    assert s["suit_isomorphism"] is True
    assert s["deals_without_suit_isomorphism"] == f.n_deals


@pytest.mark.parametrize("suits, groups", [(2, [1, 1, 4]), (3, [1, 1, 2, 2]), (4, [2, 3])])
def test_burnside_count_equals_the_built_table(suits, groups):
    ranks = 5 if suits < 4 else 3
    cards, num, den = suit_orbit_table(ranks * suits, suits, groups, [len(groups) - 1])
    assert len(cards) == count_suit_orbits(ranks, suits, groups)
    assert int(num.sum()) == den  # probabilities sum to one
    # the unmerged deal count, |G| x orbits >= deals >= orbits
    full = math.perm(ranks * suits, sum(groups)) // math.prod(math.factorial(g) for g in groups)
    assert int(num.sum()) * 1 == den and den == full
    assert full <= math.factorial(suits) * len(cards)


def test_burnside_hand_count():
    # one card to each of two players from 1 rank x 2 suits: the two deals (c|d, d|c)
    # are one orbit; from 2 ranks x 2 suits, 12 ordered pairs of distinct cards form
    # 6 orbits (the swap of the suits fixes none of them): (12 + 0) / 2
    assert count_suit_orbits(1, 2, [1, 1]) == 1
    assert count_suit_orbits(2, 2, [1, 1]) == 6
    # two cards to one player from 1 rank x 2 suits: one deal, fixed by both: (1 + 1) / 2
    assert count_suit_orbits(1, 2, [2]) == 1
    # 52-card deck, one two-card hand: the 169 starting-hand classes of hold'em
    assert count_suit_orbits(13, 4, [2]) == 169
    # ... and the flop after it: 1,286,792 (Waugh 2013, "A fast and optimal hand
    # isomorphism algorithm", Table 1: 169 preflop, 1,286,792 flop)
    assert count_suit_orbits(13, 4, [2, 3]) == 1_286_792


# exact on the five-card deck without betting after the board and on two board rounds
# with betting (TWO_SUITS, the same deck with betting after it, took 40 CPU s in
# Fractions: its merged and unmerged values are compared in floats and by NashConv below)
@pytest.mark.parametrize("spec", [FLUSH_SHOWDOWN, TINY_ROUNDS])
def test_exact_values_of_symmetric_profiles(spec, pairs, rng):
    m, f = pairs(spec)
    u = Profile.uniform(m, exact=True)
    assert list(expected_values(m, u)) == list(expected_values(f, Profile.uniform(f, exact=True)))
    for _ in range(2):
        probs = random_exact(m, rng)
        a = expected_values(m, Profile(m, probs))
        b = expected_values(f, Profile(f, mapped(m, f, probs)))
        assert list(a) == list(b)
        assert all(isinstance(x, Fraction) for x in a)


@pytest.mark.parametrize(
    "spec", [TWO_SUITS, TWO_ROUNDS_SLOW, pytest.param(THREE_PLAYERS, marks=pytest.mark.slow)]
)
def test_float_values_of_symmetric_profiles(spec, pairs, rng):
    # millions of rows: exact rationals would take minutes, floats agree to rounding
    m, f = pairs(spec)
    for _ in range(2):
        probs = Profile.random(m, rng).probs
        a = np.array(expected_values(m, Profile(m, probs)), dtype=float)
        b = np.array(expected_values(f, Profile(f, mapped(m, f, probs))), dtype=float)
        assert np.allclose(a, b, rtol=0, atol=1e-12)
        assert np.abs(a).max() > 1e-3


@pytest.mark.parametrize(
    "spec", [TWO_SUITS, TWO_ROUNDS_SLOW, pytest.param(THREE_PLAYERS, marks=pytest.mark.slow)]
)
def test_nash_conv_of_cfr_profiles(spec, pairs):
    m, f = pairs(spec)
    r = solve(m, "cfr+", iterations=30)
    probs = np.asarray(r.profile.probs, dtype=np.float64)
    ours = nash_conv(m, probs)
    assert ours > 0
    assert nash_conv(f, mapped(m, f, probs)) == pytest.approx(ours, rel=0, abs=1e-12)


@pytest.mark.parametrize("spec", [pytest.param(FLUSH_SHOWDOWN, marks=pytest.mark.slow), TINY_LP])
def test_lp_value_is_exactly_the_unmerged_one(spec, pairs):
    m, f = pairs(spec)
    a, b = solve(m, "lp"), solve(f, "lp")
    assert a.value_exact == b.value_exact
    assert a.value_exact != 0


def test_labels_are_cards_and_any_suits_find_the_canonical_infoset(pairs):
    m, f = pairs(TINY_ROUNDS)
    inf = m.infosets[-1]
    assert ":" in inf.label and inf.private_label[1] in "cd"
    # relabelling every card of a label by the suit swap finds the same infoset
    swap = str.maketrans("cd", "dc")
    player, private, history = inf.label.split(":", 2)
    # cards only: the boards in brackets (action letters such as "c" stay)
    history = re.sub(r"\[([^\]]*)\]", lambda b: "[" + b[1].translate(swap) + "]", history)
    other = f"{player}:{private.translate(swap)}:{history}"
    assert other != inf.label
    assert m.infoset(other).index == inf.index and m.has_infoset(other)
    assert not m.has_infoset(f"{player}:{private}:{history}x")
    # the round-1 infoset of a hand is its rank's lowest suit: 5 ranks, both players
    m, f = pairs(TWO_SUITS)
    first = sorted(i.label for i in m.infosets if i.history == "")
    assert first == ["P1:2c:", "P1:3c:", "P1:4c:", "P1:5c:", "P1:6c:"]


@pytest.mark.slow
def test_three_suits(pairs):
    m, f = pairs(THREE_SUITS)
    # 15 * 14 * C(13, 4) unmerged deals; S_3 has 6 elements
    assert f.n_deals == 15 * 14 * 715
    assert m.n_deals == count_suit_orbits(5, 3, [1, 1, 4]) and 6 * m.n_deals >= f.n_deals
    assert sum(int(x) for x in m.weight_num) == m.weight_den
    rng = np.random.default_rng(7)
    probs = Profile.random(m, rng).probs
    a = expected_values(m, Profile(m, probs))
    b = expected_values(f, Profile(f, mapped(m, f, probs)))
    assert np.allclose(np.array(a, dtype=float), np.array(b, dtype=float), rtol=0, atol=1e-12)
    assert nash_conv(f, mapped(m, f, probs)) == pytest.approx(nash_conv(m, probs), abs=1e-12)


def test_unsuited_games_are_unchanged():
    # no suit-seeing evaluator: no merging, the per-deal observations of before
    for spec in ["leduc(players=2)", "mercer(players=2)", "holdem(ranks=4,suits=2,board2=1)"]:
        g = load_rows(spec)
        assert g.definition.suits == 0 and g.obs_round is None
        assert "suit_isomorphism" not in g.summary()


def test_suit_isomorphism_false_is_a_spec_parameter():
    g = load_rows(unmerged(TWO_SUITS))
    assert "suit_isomorphism=false" in g.spec
    assert load_rows(TWO_SUITS).spec == TWO_SUITS.replace("holdem(", "holdem(players=2,").replace(
        "rounds=2,board2=4,cap1=1,cap2=1,evaluator=standard",
        "rounds=2,ante=1,check=true,evaluator=standard,bet1=2,cap1=1,first1=1,board2=4,bet2=4,"
        "cap2=1,first2=1",
    )


def test_canonical_matches_brute_force_minimum():
    # suit_canonical is the lexicographic minimum over every suit permutation
    rng = np.random.default_rng(3)
    suits, ranks = 4, 5
    rows = np.array([rng.permutation(ranks * suits)[:6] for _ in range(200)])
    groups = [[0, 1, 2], [3], [4, 5]]
    got = suit_canonical(rows, groups, suits)
    for row, canon in zip(rows, got, strict=True):
        best = None
        for perm in itertools.permutations(range(suits)):
            m = [(c // suits) * suits + perm[c % suits] for c in row]
            key = [x for g in groups for x in sorted(m[i] for i in g)]
            best = key if best is None or key < best else best
        assert list(canon) == best
        # one row at a time (an infoset label's cards): the plain-Python path
        assert suit_canonical(row[None, :], groups, suits).tolist() == [best]


@pytest.mark.parametrize("spec", [TWO_SUITS, TWO_ROUNDS_SLOW])
def test_size_check_counts_the_rows_each_deal_reaches(spec, pairs):
    # the size hook's budget is on deals x (public nodes a deal reaches) x players: exact
    # for these games (every board's subtree has one shape), merged or not
    from toypoker.games.limit import TooLargeError

    for g in pairs(spec):
        p = GAMES["holdem"].validate(parse_spec(g.spec).as_dict())
        entries = g.n_rows * g.n_players
        GAMES["holdem"].size(p, max_entries=int(entries * 1.001))
        with pytest.raises(TooLargeError):
            GAMES["holdem"].size(p, max_entries=int(entries * 0.999))
