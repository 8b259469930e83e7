"""A command's game built on the layout the library chose, its size said first.

The choice is the library's (:func:`toypoker.engines.registry.layout_for`: the layout
a method, a team and ``--layout`` take, counted before anything is built);
:func:`build_on_layout` says the counted size, then builds.
"""

from __future__ import annotations

import time

from toypoker.cli.common import err
from toypoker.engines import LayoutChoice, build_on
from toypoker.game import Game


def build_on_layout(spec: str, choice: LayoutChoice) -> Game:
    """Say ``spec``'s counted size where the choice says it (hand vectors:
    :meth:`~toypoker.engines.LayoutChoice.building`), then build it
    (:func:`toypoker.engines.build_on`)."""
    line = choice.building(spec)
    if line is None:
        return build_on(spec, choice)
    err.print(line, highlight=False, soft_wrap=True)
    t0 = time.perf_counter()
    game = build_on(spec, choice)
    err.print(f"built in {time.perf_counter() - t0:.1f} s")
    return game
