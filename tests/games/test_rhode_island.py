"""Rhode Island Hold'em (``toypoker.games.rhode_island``) and the counted row-layout
size (``toypoker.games.layout_count``).

The rules checked are Shi and Littman's (2001) as Gilpin and Sandholm (2005/2007)
restate them: ante 5; one private card; a betting round; a flop card; a betting round;
a turn card; a betting round; bets 10, 20, 20; at most three bets or raises a round.
"""

import re
from fractions import Fraction

import numpy as np
import pytest

from toypoker import Profile, nash_conv, solve
from toypoker.engines.rows.values import expected_values
from toypoker.errors import SpecError, ToypokerError
from toypoker.games import (
    GAMES,
    count_layout,
    load_rows,  # the deal table: these tests read its rows
)
from toypoker.games.deals import count_suit_orbits
from toypoker.games.three_card import three_card_strength
from toypoker.interop.acpc import gamedef_of

# one bet or raise a round: compiles in well under a second
SMALL = "rhode_island(ranks=3,suits=2,cap=1)"
# the papers' three bets a round (15,897 public nodes: a few seconds to build)
FULL_CAPS = "rhode_island(ranks=3,suits=2)"


def as_holdem(ranks: int, suits: int, cap: int) -> str:
    caps = ",".join(f"cap{i}={cap}" for i in (1, 2, 3))
    return (
        f"holdem(ranks={ranks},suits={suits},hole=1,rounds=3,board2=1,board3=1,ante=5,"
        f"bet1=10,bet2=20,bet3=20,{caps},evaluator=three_card)"
    )


def unmerged(spec: str) -> str:
    return spec[:-1] + ",suit_isomorphism=false)"


@pytest.fixture(scope="module")
def small():
    return load_rows(SMALL)


def test_defaults_are_the_papers_game():
    # Shi and Littman (2001): a 52-card deck, ante 5, bets 10/20/20, three bets a round
    p = GAMES["rhode_island"].validate({})
    assert p == {
        "players": 2,
        "ranks": 13,
        "suits": 4,
        "ante": 5,
        "bet1": 10,
        "bet2": 20,
        "bet3": 20,
        "cap": 3,
    }


@pytest.mark.parametrize(
    "ranks, suits",
    [
        (3, 2),
        (5, 1),
        pytest.param(4, 2, marks=pytest.mark.slow),
        pytest.param(5, 2, marks=pytest.mark.slow),
        pytest.param(4, 3, marks=pytest.mark.slow),
        pytest.param(3, 3, marks=pytest.mark.slow),
    ],
)
def test_small_decks_compile_and_are_counted_exactly(ranks, suits):
    spec = f"rhode_island(ranks={ranks},suits={suits},cap=1)"
    for s in (spec, unmerged(spec)):
        g = load_rows(s, max_bytes=2**34)
        assert sum(int(x) for x in g.weight_num) == g.weight_den  # probabilities sum to 1
        c = count_layout(s)
        assert c is not None and c.spec == g.spec
        # the counter (without building) against the compiled game, number for number
        summary = g.summary()
        assert (c.deals, c.public_nodes, c.infosets, c.rows) == (
            g.n_deals,
            len(g.nodes),
            g.n_infosets,
            g.n_rows,
        )
        assert c.decision_nodes == summary["decision_nodes"]
        assert c.deals_without_suit_isomorphism == math_perm(ranks * suits, 4)
    if suits > 1:
        assert load_rows(spec).n_deals == count_suit_orbits(ranks, suits, [1, 1, 1, 1])


def math_perm(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["rhode_island(players=3,ranks=4,suits=2,cap=1)", FULL_CAPS])
def test_counter_with_three_players_and_full_caps(spec):
    g = load_rows(spec, max_bytes=2**34)
    c = count_layout(spec)
    assert (c.deals, c.public_nodes, c.infosets, c.rows) == (
        g.n_deals,
        len(g.nodes),
        g.n_infosets,
        g.n_rows,
    )


@pytest.mark.parametrize("cap", [1, pytest.param(3, marks=pytest.mark.slow)])
def test_structure_antes_bets_caps_and_who_acts(cap):
    # ante 5 each; P1 acts first in every round; bets 10 in round 1, 20 in rounds 2-3;
    # at most `cap` (the papers': 3) bets or raises a round; a card before rounds 2, 3
    small = load_rows(SMALL if cap == 1 else FULL_CAPS)
    root = small.nodes[0]
    assert root.kind == "decision" and root.actor == 0 and root.committed == (5, 5)
    bet = {0: 10, 1: 20, 2: 20}
    top = 0
    for node in small.nodes:
        rounds = node.history.split("/")
        rnd = len(rounds) - 1
        actions = re.sub(r"\[.*?\]", "", rounds[-1])
        assert rounds[-1].startswith("[") == (rnd > 0)  # each later round shows its card
        if rnd:
            assert len(re.findall(r"\[[^\]]+\]", node.history)) == rnd
        top = max(top, max(node.committed))
        if node.kind != "decision":
            continue
        if actions == "":
            assert node.actor == 0  # P1 opens every round
        n_bets = sum(a in "br" for a in actions)
        assert n_bets <= cap
        can_raise = "b" in node.actions or "r" in node.actions
        assert can_raise == (n_bets < cap)
        for a, child in zip(node.actions, node.children, strict=True):
            c = small.nodes[child]
            if a in "br":
                assert max(c.committed) - max(node.committed) == bet[rnd]
    # the most a player can put in: 5 + cap x (10 + 20 + 20); 155 with three bets
    assert top == 5 + cap * 50


def test_same_game_as_holdem_with_the_three_card_evaluator(small):
    h = load_rows(as_holdem(3, 2, 1))
    assert [i.label for i in h.infosets] == [i.label for i in small.infosets]
    assert np.array_equal(h.term_u, small.term_u)
    assert np.array_equal(h.cards, small.cards) and np.array_equal(h.weight_num, small.weight_num)
    assert small.spec == (
        "rhode_island(players=2,ranks=3,suits=2,ante=5,bet1=10,bet2=20,bet3=20,cap=1)"
    )


def test_showdown_strengths_are_three_card_hands(small):
    d = small.definition
    board = d.cards[:, [c for b in d.board_slots for c in b]]
    for p, slots in enumerate(d.hole_slots):
        hand = np.concatenate([d.cards[:, list(slots)], board], axis=1)
        assert np.array_equal(d.strength[p], three_card_strength(hand, 2))


def test_exact_values_equal_on_the_merged_and_unmerged_games(small):
    # suits matter (flushes), so the merged game is a real reduction: 180 deals for
    # 360; the uniform profile is symmetric under the suits, and its exact values
    # must be the unmerged game's (the independent path: every card identity kept)
    full = load_rows(unmerged(SMALL))
    assert full.n_deals == 6 * 5 * 4 * 3 and small.n_deals == 180
    a = expected_values(small, Profile.uniform(small, exact=True))
    b = expected_values(full, Profile.uniform(full, exact=True))
    assert list(a) == list(b) and a[0] + a[1] == 0 and a[0] != 0


@pytest.mark.slow
def test_lp_value_equals_cfr_limit_and_is_zero_sum(small):
    # ~2.5 min under load: the LP and its exact certificate
    lp = solve(small, "lp")
    assert lp.certified
    v1, v2 = lp.value_exact
    assert isinstance(v1, Fraction) and v1 + v2 == 0
    assert v1 == Fraction(-92, 567)  # measured by this LP (2026-11-25); CFR+ agrees below
    cfr = solve(small, "cfr+", iterations=2000, check_every=10**9)
    assert nash_conv(small, cfr.profile.probs) < 2e-3
    assert cfr.values[0] == pytest.approx(float(v1), rel=0, abs=2e-3)
    assert cfr.values[0] + cfr.values[1] == pytest.approx(0, rel=0, abs=1e-12)


@pytest.mark.slow
def test_lp_value_is_exactly_the_unmerged_ones():
    # the LP's certified value on the suit-isomorphic game equals the unmerged game's
    # (every card identity kept: the independent path); Rhode Island's deal and
    # hand ranking with betting after the flop and the turn only (~35 s under load;
    # the full cap=1 game: -92/567 on both, 2.5 and 14 minutes)
    spec = (
        "holdem(ranks=3,suits=2,hole=1,rounds=3,board2=1,board3=1,ante=5,bet1=10,bet2=20,"
        "bet3=20,cap1=0,cap2=1,cap3=1,evaluator=three_card)"
    )
    a = solve(load_rows(spec), "lp")
    b = solve(load_rows(unmerged(spec)), "lp")
    assert a.certified and b.certified
    assert a.value_exact == b.value_exact and a.value_exact[0] != 0


def test_every_hand_class_reaches_the_showdown():
    # suits matter: on a 5 x 3 deck every class of three-card hand occurs
    d = load_rows("rhode_island(ranks=5,suits=3,cap=0)").definition
    classes = set((d.strength // 16**3).reshape(-1).tolist())
    assert classes == {0, 1, 2, 3, 4, 5}  # high card .. straight flush


def test_acpc_cannot_express_the_three_card_ranking(small):
    with pytest.raises(ToypokerError) as e:
        gamedef_of(small)
    msg = str(e.value)
    assert "\n" not in msg and "ACPC cannot express" in msg and "three_card" in msg


def test_full_game_is_counted_and_refused():
    c2 = count_layout("rhode_island")
    assert c2 is not None
    assert (
        c2.spec == "rhode_island(players=2,ranks=13,suits=4,ante=5,bet1=10,bet2=20,bet3=20,cap=3)"
    )
    assert c2.deals == count_suit_orbits(13, 4, [1, 1, 1, 1])
    assert c2.deals_without_suit_isomorphism == 52 * 51 * 50 * 49
    # the estimate: about 340 M rows, far beyond the row layout
    assert 2e8 < c2.rows < 6e8
    with pytest.raises(SpecError, match="too large to compile"):
        load_rows("rhode_island")
    with pytest.raises(SpecError, match="too large to compile"):
        load_rows("rhode_island(players=3)")


@pytest.mark.slow
def test_three_player_game_is_counted():
    c3 = count_layout("rhode_island(players=3)")
    c2 = count_layout("rhode_island")
    assert c3.rows > 1000 * c2.rows and c3.deals == count_suit_orbits(13, 4, [1, 1, 1, 1, 1])


def test_bad_decks():
    with pytest.raises(SpecError, match="deals 6 cards from a deck of 5"):
        load_rows("rhode_island(players=4,ranks=5,suits=1)")
    with pytest.raises(SpecError, match="3 cards in all"):
        load_rows("holdem(ranks=4,suits=2,rounds=2,evaluator=three_card)")
    assert list(GAMES)[-1] == "rhode_island"
