"""The papers' data: formulas and printed numbers, each with its source.

The low layer of :mod:`toypoker.literature`: no claims machinery here.
:mod:`.kuhn1950`, :mod:`.szafron2013`, :mod:`.billingham`, :mod:`.ullman2015`.
May import the game and profiles only (the dynamics and continuation read it).
"""

from toypoker.literature.papers import billingham, kuhn1950, szafron2013

__all__ = ["billingham", "kuhn1950", "szafron2013"]
