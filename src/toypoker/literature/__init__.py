"""The papers: their data (:mod:`.papers`, low layer: formulas and printed numbers)
and the claims framework that checks them exactly (:mod:`.claims`, high layer).

``from toypoker.literature import billingham`` (or ``kuhn1950``, ``szafron2013``)
gives the paper's data module; ``figures_ullman`` draws Ullman's tables.

Studies floor: may import the library (solvers included) and the other studies'
lower parts; never a front end.
"""

from toypoker.literature.papers import billingham, kuhn1950, szafron2013

__all__ = ["billingham", "kuhn1950", "szafron2013"]
