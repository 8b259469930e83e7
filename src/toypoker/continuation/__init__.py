"""Equilibrium curves by regularization and arc-length continuation (Billingham, N cards).

Every entry point takes a compiled :class:`~toypoker.game.Game` (other
parameter values are ``game.at``: nothing is recompiled).  ``tensors``
(expected values and exact derivatives as contractions of per-terminal payoff
tensors), ``regularized`` (the system ``x = F(D/eps)``, logit for more
actions, dominated choices, polishing and certification), ``tracer`` (generic
pseudo-arclength continuation), ``curves`` (first point and curves;
``trace_curve`` returns the one :class:`~toypoker.result.Result`), ``crossings``
(the equilibria a curve crosses, their multiplicity, turning points), ``records``
(the curve, equilibrium and multiplicity records with their CSV/JSON),
``figures`` (expectations, frequencies, range bars, animation).

Studies floor: may import the library (games, profile, evaluate, solvers), the
ground and the paper data of :mod:`toypoker.literature.papers`; never a front end.
"""
