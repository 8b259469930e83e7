"""Hands as vectors on the public tree: the vector layout.

The deal-table layout (:mod:`toypoker.game`) stores one row per (public node, joint
deal), so it grows as ``H^n``.  This package keeps the same public tree and stores,
at every public node, one vector per player over her private hands (her range):
reach, counterfactual values and regrets are ``(nodes, H)`` arrays and an infoset is
(decision node, hand), mapped onto the compiled game's infoset labels so that a
:class:`~toypoker.profile.Profile` reads and writes it unchanged.

* :mod:`.layout` -- :func:`compile_vector`: the layout compiled from a row-layout
  :class:`~toypoker.game.Game` (physical cards, hands, boards with multiplicities,
  infoset map, strengths);
* :mod:`.values` -- reach, counterfactual values (fold terminals by
  inclusion-exclusion over cards, two-player showdowns by a sorted sweep, the dense
  product for three or more players), expected values, best responses, NashConv;
* on the solvers' floor, the methods' parts that read the layout:
  :mod:`toypoker.engines.vectors.regrets` (the CFR family's regrets),
  :mod:`~toypoker.engines.vectors.responses` (fictitious play's best responses),
  :mod:`~toypoker.solvers.pcs` (public-chance-sampling CFR) and
  :mod:`~toypoker.engines.vectors.sequence_form` (the sequence-form LP's payoff matrix);
* :mod:`.direct` -- :func:`~toypoker.engines.vectors.direct.build_vector`: the layout built
  without a deal table for ``kuhn(...)``, ``holdem(...)`` (rank decks, and suited
  evaluators on suit-canonical boards) and ``rhode_island(...)`` specs (same infosets,
  order and labels as the compiled game);
* :mod:`.kernel` -- :class:`~toypoker.engines.vectors.kernel.VectorKernel`: one CFR iteration
  as one compiled (numba) call over flat arrays prepared once per game, for two
  players, three with one card a hand and three on rank pairs, and the values and
  best responses of a profile in one call (``VectorKernel.evaluate``); its terminal
  values are in :mod:`.terminals`; the numpy code above stays the reference it is
  tested against (``tests/engines/vectors/test_kernel.py``,
  ``tests/engines/vectors/test_rank_pairs.py``);
* :mod:`.subtrees` -- the kernel's passes cut into public subtrees that run on numba's
  threads (:func:`toypoker.threads.kernel_threads`), the same numbers on any
  thread count, bit for bit (``tests/engines/vectors/test_kernel_threads.py``);
* :mod:`.merged` -- a strong team merged into one player (hand pairs);
* :mod:`.sampled` -- public chance sampling: one board path an update and the
  importance weights of the subtree it fixes (``pcs-cfr+``).

Equal to the row layout in values, best responses, NashConv and CFR iterations
(``tests/engines/vectors``, ``tests/engines/vectors/test_regrets.py``).  Weak collusion
(``team=..``, win or pot sharing) is a payoff map on the same tree
(``VectorGame.payoff``): player ``i``'s terminal value mixes every player's pot share by
row ``i`` of the map, so it runs on the dense product (the numpy reference on physical
hands; the fused kernel on rank hands, one or two cards a hand, three players),
``tests/engines/vectors/test_collusion.py``.  A strong team merged into one player (the
default for strong win sharing) is
:func:`~toypoker.engines.vectors.merged.compile_merged`: the team's hand is an ordered
pair of hands, showdowns the dense product over (team pair, outsider hand) -- three
seats, rank decks (3P-SMH: 29,070 team pairs), numpy reference, from the compiled row
game.  ``compile_vector``/``build_vector`` refuse strong collusion in one line naming
``--layout rows`` (and ``compile_merged`` for a merged game).  CFR runs in the fused
kernel where the sweeps apply and on rank pairs; three players with two or more physical
cards a hand and four or more players run on the numpy reference (the dense product).
Rank decks are expanded into physical cards (``H`` = physical hands, e.g. 52 for one
card from a 52-card deck where the row layout sees 13 ranks);
:func:`~toypoker.engines.vectors.layout.rank_hands` folds them back into one hand a rank
multiset: with one hole card, card removal as a weight (``VectorGame.hand_count``); with
two or more (three players), the board's deal counts of each triple of rank hands
(``VectorGame.rank_deals``; ``mercer(players=3,variant=mmh)``: 15 rank pairs for 190
physical hands; the ladder of both layouts' iteration times is in
``benchmarks/results/vector.md``).

One engine behind one :class:`~toypoker.game.Game`: :func:`toypoker.load_game` puts a
game on this layout when a CFR+ iteration is predicted faster here
(:mod:`toypoker.engines.choice`), and every public function takes it.  The methods'
parts that read hand vectors are in :mod:`toypoker.engines.vectors` (the CFR family,
``fp``, ``pcs-cfr+`` and ``lp``); no method has two schedules: each layout supplies only
its regrets, best responses or payoff matrix, tested equal to the other's.  The deal
table stays behind the same ``Game``: what :func:`compile_vector` reads for the
catalogue's games without a deal-free builder, the path of the methods only it runs
(``enumerate``, deal-sampling MCCFR, TMECor, a weak team's best response) and the
oracle of every test here.
"""

from toypoker.engines.vectors.layout import VectorGame, compile_vector

__all__ = ["VectorGame", "compile_vector"]
