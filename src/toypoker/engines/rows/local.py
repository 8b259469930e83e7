"""One kernel per game and per thread: what the solvers and evaluators call.

A :class:`~.arrays.GameKernel` owns scratch buffers that every call
overwrites, so one kernel must not serve two threads at once.  The prepared
index arrays, on the other hand, are read-only.  :func:`kernel_for` therefore
keeps, with the game (``game.derived``), the prepared arrays once and a
:class:`~.cfr.CFRKernel` per calling thread built over them: the solver's
pure ``step(game, state, options)`` needs no kernel in its (checkpointed)
state, and two threads solving the same game never share scratch.

>>> from toypoker import load_game
>>> g = load_game("kuhn(players=2)")
>>> kernel_for(g) is kernel_for(g)
True
"""

from __future__ import annotations

import threading
import weakref

from toypoker.engines.rows.arrays import prepare
from toypoker.engines.rows.cfr import CFRKernel
from toypoker.game import Game


class KernelCache:
    """The prepared arrays of one game and one :class:`CFRKernel` per thread.

    Built by ``game.derived(KernelCache)``; use :func:`kernel_for`.
    """

    def __init__(self, game: Game):
        self._game = weakref.ref(game)  # the game holds this cache: no cycle
        self.arrays = prepare(game)
        self._local = threading.local()

    def kernel(self) -> CFRKernel:
        """The calling thread's kernel (built on its first call)."""
        k = getattr(self._local, "kernel", None)
        if k is None:
            game = self._game()
            assert game is not None  # a caller holds it: kernel_for(game)
            k = self._local.kernel = CFRKernel(game, self.arrays)
        return k


def kernel_for(game: Game) -> CFRKernel:
    """The calling thread's :class:`CFRKernel` of ``game`` (prepared once per game).

    Parameters
    ----------
    game
        A compiled game.

    Returns
    -------
    CFRKernel
        Also serves :func:`~.best_response.kernel_evaluate` and
        :func:`~.best_response.kernel_nash_conv` (a ``GameKernel``).
    """
    return game.derived(KernelCache).kernel()


__all__ = ["KernelCache", "kernel_for"]
