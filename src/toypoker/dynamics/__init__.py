"""Learning dynamics: Billingham's ODE model, the same dynamics for any game, and
repeated play with frequency estimators."""
