"""Equilibrium curves by regularization and arc-length continuation (issue 5,
groundwork: the generic tracer and the regularized system for binary games)."""
