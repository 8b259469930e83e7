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
* :mod:`toypoker.solvers.vector_cfr` -- the CFR family's iteration
  (:class:`~toypoker.solvers.cfr.CFROptions`) on the vector layout (on the solvers'
  floor: it shares the schedule of :mod:`toypoker.solvers.cfr`);
* :mod:`.direct` -- :func:`~toypoker.vector.direct.build_vector`: the layout built
  without a deal table for ``kuhn(...)``, ``holdem(...)`` (rank decks, and suited
  evaluators on suit-canonical boards) and ``rhode_island(...)`` specs (same infosets,
  order and labels as the compiled game);
* :mod:`.kernel` -- :class:`~toypoker.vector.kernel.VectorKernel`: one CFR iteration
  as one compiled (numba) call over flat arrays prepared once per game, for two
  players and for three with one card a hand; the numpy code above stays the
  reference it is tested against (``tests/vector/test_kernel.py``).

Status (issue 21): equal to the row layout in values, best responses, NashConv and
CFR iterations (``tests/vector``, ``tests/solvers/test_vector_cfr.py``).  CFR runs in
the fused kernel where the sweeps apply; three players with two or more cards a hand
and four or more players run on the numpy reference (the dense product).  Rank decks
are expanded into physical cards (``H`` = physical hands, e.g. 52 for one card from a
52-card deck where the row layout sees 13 ranks); with one hole card,
:func:`~toypoker.vector.layout.rank_hands` folds them back into one hand a rank
(card removal as a weight, ``VectorGame.hand_count``).  The CFR family runs on it
through the normal run loop (:class:`~toypoker.solvers.vector_solver.VectorSolver`:
budgets, NashConv trace, checkpoints, Ctrl-C; ``tp.solve`` takes a ``VectorGame``), and
``toypoker solve`` uses it for ``rhode_island`` and for a ``holdem`` spec whose counted
row layout needs more than 2 GB (``--layout auto|rows|vector``;
:func:`~toypoker.solvers.vector_solver.choose_layout` states the rule), e.g.
three-player Leduc on a full deck and three-player Rhode Island decks; the other
methods and collusion still run on the row layout (``benchmarks/bench_vector.py`` and
``benchmarks/bench_rhode.py`` measure both).
"""

from .layout import VectorGame, compile_vector

__all__ = ["VectorGame", "compile_vector"]
