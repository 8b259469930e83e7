"""Learning dynamics: Billingham's ODE model (``ode``), the same dynamics for any
game (``general``), repeated play with frequency estimators (``play``), his Table 1
(``table1``) and the figures (``figures``).

Studies floor: may import the library, the ground and the paper data of
:mod:`toypoker.literature.papers`; never a front end.
"""
