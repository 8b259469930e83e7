"""The readable numpy passes as an engine: what the fused kernels are tested against.

:class:`~toypoker.engines.reference.engine.ReferenceEngine` computes on the layout a game
is built on -- the deal table's passes (:mod:`toypoker.engines.rows.values`) or the
hand vectors' (:mod:`toypoker.engines.vectors.values`) -- with no compiled kernel: the
CFR family's numpy traversal, evaluation and best responses vectorised over rows or
hands, exact over Fractions.  Selected by name (``engine="reference"`` of
:class:`toypoker.Solver` and :func:`toypoker.solve`); the tests hold the other engines
to it.
"""
