"""Other tools' formats and games: OpenSpiel (``openspiel``: profiles and the
matching OpenSpiel game; ``openspiel_game``: any game as an OpenSpiel game),
Gambit (``gambit``: the ``.efg`` extensive form) and ACPC gamedefs (``acpc``).

Floor of profile and evaluate: may import the game, the catalogue, profiles and
evaluation; never the solvers or anything above.  The peers' packages are
imported only when a function needs them.
"""
