"""Compiled (numba) kernels of the full-width passes: CFR updates, best response, NashConv.

The numpy passes of :mod:`toypoker.evaluate` and :mod:`toypoker.solvers.cfr`
are the readable reference; the kernels here compute the same numbers (to
1e-12, checked in ``tests/kernels``) in one compiled call per update, over
index arrays prepared once per game (:func:`prepare`).  Modules:
:mod:`.arrays` (``prepare``, ``GameKernel``), :mod:`.passes` (the shared
forward/backward loops), :mod:`.cfr` (``CFRKernel``), :mod:`.best_response`
(``best_response``, ``evaluate``, ``nash_conv``), :mod:`.local`
(``kernel_for(game)``: the calling thread's kernel, prepared once per game).

The kernels are serial (``nogil``, no ``prange``): numba's thread pool is not
used by them, so :func:`toypoker.threads.set_numba_threads` does not change
their speed; several threads may run them at once on different kernels.

Floor of profile and evaluate: may import the game and the ground only.

>>> from toypoker import load_game
>>> from toypoker.kernels import CFRKernel, nash_conv
>>> g = load_game("kuhn(players=2)")
>>> k = CFRKernel(g)          # prepare once, keep it
>>> round(nash_conv(k, k.uniform()), 6)
0.916667
"""

from __future__ import annotations

from .arrays import GameArrays, GameKernel, prepare
from .best_response import KernelEvaluation, evaluate, nash_conv, team_values
from .cfr import CFRKernel
from .local import KernelCache, kernel_for

__all__ = [
    "CFRKernel",
    "GameArrays",
    "GameKernel",
    "KernelCache",
    "KernelEvaluation",
    "evaluate",
    "kernel_for",
    "nash_conv",
    "prepare",
    "team_values",
]
