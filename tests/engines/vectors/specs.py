"""The 20 random ``holdem(...)`` specs of issue 21, item 3 (2 and 3 players, suits
blind and suited, 1-2 hole cards, 1-3 rounds), shared by the layout-equivalence tests
(``tests/engines/vectors/test_values.py``: values and NashConv; ``tests/solvers/
test_vector_cfr_runs.py``: whole CFR+/PDCFR+ runs)."""

from __future__ import annotations

# the 20 random holdem(...) specs: drawn with numpy.random.default_rng(21) over
# (players 2-3) x (hole 1-2) x (rounds 1-3) in turn, suits blind (high_card,
# ullman4) and suited (standard, three_card; suit isomorphism on or off at random)
# in turn, ranks 3-5, suits 1-3, boards 0-2 (suited: cards to make 3 or 5), at
# most 4,000 deals (20,000 with three players); three specs added by hand so that
# three players meet two hole cards and two rounds
RANDOM = [
    "holdem(players=2,ranks=3,suits=3,hole=1,rounds=1,evaluator=high_card)",
    "holdem(players=2,ranks=3,suits=2,hole=1,rounds=3,board2=2,board3=0,evaluator=ullman4)",
    "holdem(players=3,ranks=5,suits=3,hole=1,rounds=1,evaluator=high_card)",
    "holdem(players=2,ranks=3,suits=2,hole=1,rounds=2,board2=2,evaluator=three_card,"
    "suit_isomorphism=false)",
    "holdem(players=2,ranks=5,suits=1,hole=2,rounds=2,board2=1,evaluator=high_card)",
    "holdem(players=3,ranks=4,suits=3,hole=1,rounds=1,evaluator=high_card)",
    "holdem(players=2,ranks=3,suits=2,hole=1,rounds=2,board2=4,evaluator=standard,"
    "suit_isomorphism=false)",
    "holdem(players=2,ranks=3,suits=2,hole=1,rounds=3,board2=2,board3=2,evaluator=ullman4)",
    "holdem(players=3,ranks=3,suits=1,hole=1,rounds=1,evaluator=ullman4)",
    "holdem(players=3,ranks=5,suits=1,hole=1,rounds=1,evaluator=ullman4)",
    "holdem(players=2,ranks=5,suits=2,hole=1,rounds=1,evaluator=high_card)",
    "holdem(players=2,ranks=3,suits=2,hole=2,rounds=2,board2=1,evaluator=three_card)",
    "holdem(players=2,ranks=4,suits=3,hole=2,rounds=2,board2=0,evaluator=ullman4)",
    "holdem(players=2,ranks=4,suits=3,hole=1,rounds=1,evaluator=ullman4)",
    "holdem(players=2,ranks=4,suits=2,hole=1,rounds=2,board2=2,evaluator=three_card)",
    "holdem(players=2,ranks=4,suits=1,hole=1,rounds=3,board2=0,board3=1,evaluator=ullman4)",
    "holdem(players=2,ranks=4,suits=1,hole=2,rounds=2,board2=0,evaluator=high_card)",
    "holdem(players=3,ranks=3,suits=2,hole=2,rounds=1,evaluator=ullman4)",
    "holdem(players=3,ranks=3,suits=2,hole=1,rounds=2,board2=1,evaluator=ullman4)",
    "holdem(players=3,ranks=4,suits=2,hole=1,rounds=2,board2=2,evaluator=three_card)",
]
# slow part: 1-150 s each (two or three rounds, five-card hands, three players with two hole
# cards or two rounds on the numpy reference)
SLOW = {RANDOM[i] for i in (1, 3, 6, 7, 14, 15, 17, 18, 19)}
