"""The team wing: a team of players against the others, in one package.

On the evaluation floor (one game, one profile):

* :mod:`.transfer` -- profiles moved between a strong team's game and its merged form,
  seats spliced, a team's seats checked, :class:`~.transfer.TeamEvaluation`;
* :mod:`.response` -- a weak team's joint best response (alternating, exact);
* :mod:`.pairs` -- a two-member team's best response by a small certified LP over the
  pairs of the members' sequences that meet;
* :mod:`.plans` -- the same by enumeration (small games);
* :mod:`.relaxation` -- a certified upper bound on a team's best response.

On the solvers' floor (team-optimal play):

* :mod:`.tmecor` -- TMECor by column generation with an exact bracket (``tp.solve(game,
  "tmecor")``, :mod:`toypoker.solvers.tmecor`);
* :mod:`.forms` -- the outsider's sequence form, the team's columns, the master LP;
* :mod:`.bounds`, :mod:`.saddle` -- cheap exact upper ends, a saddle-point polish.

The stored 3P-SMH/3P-MMH brackets and their witnesses are the collusion study's
(:mod:`toypoker.collusion.brackets`).

This ``__init__`` imports nothing: import the module you need.
"""

TEAM_MILP_SECONDS = 30.0
"""Default time limit (seconds) of HiGHS on a team's exact best-response MILP."""

