"""Equilibrium curves by regularization and arc-length continuation (Billingham, N cards).

``tensors`` (expected values and exact derivatives as contractions of per-terminal
payoff tensors), ``regularized`` (the system ``x = F(D/eps)``, logit for more
actions, dominated choices, polishing and certification), ``tracer`` (generic
pseudo-arclength continuation), ``curves`` (first point, curves, multiplicity),
``figures`` (expectations, frequencies, range bars, animation).
"""
