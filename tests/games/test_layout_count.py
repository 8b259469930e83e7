"""Counting a suited game's row layout without building it (``games/layout_count.py``).

The independent path is the compiled game itself: every count must equal what
``load_game`` builds, number for number (Rhode Island decks are checked in
``test_rhode_island.py``; here the other suited ``holdem`` games).
"""

import pytest

from toypoker.errors import SpecError
from toypoker.games import (
    check_size,
    count_layout,
    load_rows,  # the deal table: these tests read its rows
    parse_game_spec,
)
from toypoker.games.deals import count_suit_orbits
from toypoker.games.layout_count import orbit_count

SPECS = [
    # 4-card board, flushes and straights (test_suits.py's TWO_SUITS)
    pytest.param(
        "holdem(ranks=5,suits=2,hole=1,rounds=2,board2=4,cap1=1,cap2=1,evaluator=standard)",
        marks=pytest.mark.slow,
    ),
    # boards of two cards over two rounds (test_suits.py's TINY_ROUNDS)
    pytest.param(
        "holdem(ranks=3,suits=2,hole=1,rounds=3,board2=2,board3=2,cap1=1,cap2=1,cap3=1,"
        "evaluator=standard)",
        marks=pytest.mark.slow,
    ),
    # a two-card flop and blinds (the big blind may raise)
    "holdem(ranks=4,suits=2,hole=1,rounds=2,board2=2,evaluator=three_card,blind1=1,blind2=2)",
]


@pytest.mark.parametrize("spec", SPECS)
def test_counts_equal_the_compiled_game(spec):
    for s in (spec, spec[:-1] + ",suit_isomorphism=false)"):
        g = load_rows(s, max_bytes=2**34)
        c = count_layout(s)
        assert c is not None
        got = (c.deals, c.public_nodes, c.decision_nodes, c.infosets, c.rows)
        want = (g.n_deals, len(g.nodes), g.summary()["decision_nodes"], g.n_infosets, g.n_rows)
        assert got == want


@pytest.mark.parametrize(
    "spec",
    [
        "holdem(ranks=3,suits=2)",
        "holdem(players=3,ranks=4,suits=2)",
        "holdem(players=3,ranks=4,suits=3,hole=2,rounds=2,board2=2,evaluator=ullman4)",
        "holdem(players=2,ranks=5,suits=2,rounds=3,board2=1,board3=2,evaluator=high_card)",
    ],
)
def test_rank_decks_counted_equal_the_compiled_game(spec):
    # an evaluator blind to suits: boards and observations are rank multisets
    g = load_rows(spec)
    c = count_layout(spec)
    got = (c.deals, c.public_nodes, c.decision_nodes, c.infosets, c.rows)
    want = (g.n_deals, len(g.nodes), g.summary()["decision_nodes"], g.n_infosets, g.n_rows)
    assert got == want


def test_full_deck_three_player_leduc_counted():
    # the numbers load_game compiles for it (`toypoker info` prints them), counted unbuilt
    c = count_layout("holdem(players=3,ranks=13,suits=4)")
    assert (c.deals, c.public_nodes, c.infosets, c.rows) == (28_561, 14_051, 77_493, 32_873_711)
    assert c.hands == 13  # one hand a rank (rank_hands): 14,051 x 3 x 13 entries
    assert c.entries == 14_051 * 3 * 13


def test_games_not_counted_here():
    # other builders, collusion
    assert count_layout("leduc") is None
    # Kuhn is counted now (issue 33: the layout is chosen before building): every deal
    # reaches every one of its 25 public nodes, 24 deals x 25 = 600 rows
    kuhn3 = count_layout("kuhn(players=3)")
    assert (kuhn3.deals, kuhn3.public_nodes, kuhn3.rows) == (24, 25, 600)
    assert (
        count_layout("holdem(players=3,ranks=4,suits=2,rounds=3,evaluator=three_card,team=12)")
        is None
    )


def test_orbit_count_is_burnside_of_the_whole_table():
    # with no prefix the stabiliser is every suit permutation: count_suit_orbits
    for ranks, suits, groups in [(13, 4, [1, 1, 1, 1]), (5, 3, [1, 1, 2]), (13, 4, [2, 3])]:
        assert orbit_count(ranks, suits, [], groups, True) == count_suit_orbits(
            ranks, suits, groups
        )
    # one card given (2c): the other suits permute freely; the 51 cards left form
    # 12 (clubs) + 13 (one of d/h/s up to the suits) = 25 orbits
    assert orbit_count(13, 4, [(0,)], [1], True) == 25


@pytest.mark.parametrize(
    "spec, message",
    [
        ("rhode_island(ranks=9)", r"93,692,781 rows counted, about 18\.7 GB"),
        ("holdem(players=3,ranks=13,suits=4)", r"32,873,711 rows counted, about 6\.6 GB"),
    ],
)
def test_load_game_refuses_rows_past_the_budget_before_building(spec, message):
    # load_game's first check (check_size, before anything is built) estimated deals x
    # public nodes x players x 8 B and admitted these under its 2 GB default: the rows
    # counted here (count_layout, this module's subject) take BYTES_PER_ROW each while
    # a solver runs on them; now refused by that count
    info, params, _ = parse_game_spec(spec)
    with pytest.raises(SpecError, match=message):
        check_size(info, params)
