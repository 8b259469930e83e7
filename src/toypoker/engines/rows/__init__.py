"""Compiled (numba) kernels of the full-width passes: CFR updates, best response, NashConv.

The numpy passes of :mod:`toypoker.engines.rows.values` and :mod:`toypoker.solvers.cfr`
are the readable reference; the kernels here compute the same numbers (to
1e-12, checked in ``tests/engines/rows``) in one compiled call per update, over
index arrays prepared once per game (:func:`prepare`).  Modules:
:mod:`.arrays` (``prepare``, ``GameKernel``), :mod:`.passes` (the shared
forward/backward loops), :mod:`.cfr` (``CFRKernel``), :mod:`.best_response`
(``kernel_best_response``, ``kernel_evaluate``, ``kernel_nash_conv``: named apart
from the flat API's ``tp.evaluate``, which they serve), :mod:`.local`
(``kernel_for(game)``: the calling thread's kernel, prepared once per game).

The kernels are serial (``nogil``, no ``prange``): numba's thread pool is not
used by them, so :func:`toypoker.threads.set_numba_threads` does not change
their speed; several threads may run them at once on different kernels.

Floor of profile and evaluate: may import the game and the ground only.

>>> from toypoker import load_game
>>> from toypoker.engines.rows import CFRKernel, kernel_nash_conv
>>> g = load_game("kuhn(players=2)")
>>> k = CFRKernel(g)          # prepare once, keep it
>>> round(kernel_nash_conv(k, k.uniform()), 6)
0.916667
"""

from __future__ import annotations

from toypoker.lazy import lazy_names

#: names imported on first use (PEP 562): the numpy passes (:mod:`.values`) load without
#: numba; the kernels compile with the first float computation that asks for them
_LAZY = {
    "CFRKernel": "toypoker.engines.rows.cfr",
    "GameArrays": "toypoker.engines.rows.arrays",
    "GameKernel": "toypoker.engines.rows.arrays",
    "KernelCache": "toypoker.engines.rows.local",
    "KernelEvaluation": "toypoker.engines.rows.best_response",
    "kernel_evaluate": "toypoker.engines.rows.best_response",
    "kernel_for": "toypoker.engines.rows.local",
    "kernel_nash_conv": "toypoker.engines.rows.best_response",
    "prepare": "toypoker.engines.rows.arrays",
    "team_values": "toypoker.engines.rows.best_response",
}


__getattr__ = lazy_names(__name__, _LAZY)


__all__ = [
    "CFRKernel",
    "GameArrays",
    "GameKernel",
    "KernelCache",
    "KernelEvaluation",
    "kernel_evaluate",
    "kernel_for",
    "kernel_nash_conv",
    "prepare",
    "team_values",
]
