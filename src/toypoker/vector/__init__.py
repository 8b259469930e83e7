"""Hands as vectors on the public tree (issue 21): the vector layout.

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
  :mod:`toypoker.layouts.vector.regrets` (the CFR family's regrets),
  :mod:`~toypoker.layouts.vector.responses` (fictitious play's best responses),
  :mod:`~toypoker.layouts.vector.chance_sampling` (public-chance-sampling CFR) and
  :mod:`~toypoker.layouts.vector.sequence_form` (the sequence-form LP's payoff matrix);
* :mod:`.direct` -- :func:`~toypoker.vector.direct.build_vector`: the layout built
  without a deal table for ``kuhn(...)``, ``holdem(...)`` (rank decks, and suited
  evaluators on suit-canonical boards) and ``rhode_island(...)`` specs (same infosets,
  order and labels as the compiled game);
* :mod:`.kernel` -- :class:`~toypoker.vector.kernel.VectorKernel`: one CFR iteration
  as one compiled (numba) call over flat arrays prepared once per game, for two
  players, three with one card a hand and three on rank pairs, and the values and
  best responses of a profile in one call (``VectorKernel.evaluate``); its terminal
  values are in :mod:`.terminals`; the numpy code above stays the reference it is
  tested against (``tests/vector/test_kernel.py``, ``tests/vector/test_rank_pairs.py``);
* :mod:`.subtrees` -- the kernel's passes cut into public subtrees that run on numba's
  threads (:func:`toypoker.threads.kernel_threads`; issue 36), the same numbers on any
  thread count, bit for bit (``tests/vector/test_kernel_threads.py``);
* :mod:`.merged` -- a strong team merged into one player (hand pairs);
* :mod:`.sampled` -- public chance sampling: one board path an update and the
  importance weights of the subtree it fixes (``pcs-cfr+``).

Status (issue 21): equal to the row layout in values, best responses, NashConv and
CFR iterations (``tests/vector``, ``tests/solvers/test_vector_cfr.py``).  Weak
collusion (``team=..``, win or pot sharing) is a payoff map on the same tree
(``VectorGame.payoff``): player ``i``'s terminal value mixes every player's pot share
by row ``i`` of the map, so it runs on the dense product (the numpy reference on
physical hands; the fused kernel on rank hands, one or two cards a hand, three
players), ``tests/vector/test_collusion.py``.  A strong team merged into one player
(the default for strong win sharing) is :func:`~toypoker.vector.merged.compile_merged`:
the team's hand is an ordered pair of hands, showdowns the dense product over (team
pair, outsider hand) -- three seats, rank decks (3P-SMH: 29,070 team pairs), numpy
reference, from the compiled row game.  ``compile_vector``/``build_vector`` refuse strong collusion
in one line naming ``--layout rows`` (and ``compile_merged`` for a merged game).  CFR runs in
the fused kernel where the sweeps apply and on rank pairs; three players with two or
more physical cards a hand and four or more players run on the numpy reference (the
dense product).  Rank decks are expanded into physical cards (``H`` = physical hands,
e.g. 52 for one card from a 52-card deck where the row layout sees 13 ranks);
:func:`~toypoker.vector.layout.rank_hands` folds them back into one hand a rank
multiset: with one hole card, card removal as a weight (``VectorGame.hand_count``);
with two or more (three players), the board's deal counts of each triple of rank
hands (``VectorGame.rank_deals``; ``mercer(players=3,variant=mmh)``: 15 rank pairs
for 190 physical hands, a CFR+ iteration about 25x faster than the row layout's in
CPU time, ``benchmarks/bench_vector.py``).

One engine: which layout runs each method, and why (measured by
``benchmarks/bench_engine.py``; the table is in :mod:`toypoker.layouts.vector.methods`).
``tp.solve`` runs on a ``VectorGame``: the CFR family, ``fp``, ``pcs-cfr+`` and ``lp``;
``toypoker solve`` uses it for ``rhode_island`` and for a ``holdem`` spec whose counted
row layout needs more than 2 GB (``--layout auto|rows|vector``;
:func:`~toypoker.layouts.vector.methods.choose_layout` states the rule), e.g.
three-player Leduc on a full deck and three-player Rhode Island decks. No method has two
schedules: the CFR family shares :func:`~toypoker.solvers.cfr.scheduled_step` (the fused
kernels its ``kernel_schedule``), fictitious play
:func:`~toypoker.solvers.fictitious.layout_step`, the LP
:func:`~toypoker.solvers.lp.solve_sequence_form` (LP and exact certificate); each layout
supplies only its regrets, best responses or payoff matrix, tested equal to the other's.
``pcs-cfr+`` exists only here (a row game runs it on its :func:`compile_vector`). The
deal table stays, behind the same :class:`~toypoker.game.Game`: it is what
:func:`compile_vector` reads for the catalogue's games, the exact path for tiny games
(``enumerate``, rational evaluation, strong collusion and team best responses, which
the vector layout refuses in one line) and the oracle of every test here; deal-sampling MCCFR
(``es-mccfr``, ``os-mccfr``) samples its joint deals and stays there. Compiled catalogue
games keep the row layout for the CLI: on them it is as fast or faster (Leduc: CFR+ 0.1
ms against 0.2 ms an iteration, ``fp`` 11 ms against 48 ms) at the same memory.
"""

from .layout import VectorGame, compile_vector

__all__ = ["VectorGame", "compile_vector"]
