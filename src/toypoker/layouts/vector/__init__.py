"""The vector layout's part of each method (the layout itself is :mod:`toypoker.vector`).

* :mod:`.methods` -- :func:`~.methods.vector_method`: a registry method with its steps on
  hand vectors (what :class:`~toypoker.solvers.Solver` runs on a vector-layout game);
* :mod:`.regrets` -- the CFR family's counterfactual regrets (the fused kernel and its
  numpy reference);
* :mod:`.responses` -- fictitious play's best responses;
* :mod:`.sequence_form` -- the sequence-form LP's payoff matrix;
* :mod:`.chance_sampling` -- public-chance-sampling CFR+ (``pcs-cfr+``).
"""

# The solvers' registry lists ``pcs-cfr+`` from :mod:`.chance_sampling`, which reads the
# CFR schedule from the solvers: the solvers load first, whichever module is imported
# first, so that neither finds the other half-built.
from ...solvers import registry as _registry  # noqa: E402, F401
