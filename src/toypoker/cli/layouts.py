"""A command's game built on the layout the library chose, its size said first.

The choice is the library's (:func:`toypoker.engines.registry.layout_for`: the layout
a method, a team and ``--layout`` take, counted before anything is built);
:func:`build_on_layout` says the counted size, then builds.
"""

from __future__ import annotations

import functools
import time

from toypoker.cli.common import err
from toypoker.engines import LayoutChoice, build
from toypoker.engines import load_game as tp_load_game
from toypoker.engines.choice import vector_bytes
from toypoker.game import Game
from toypoker.games import load_rows
from toypoker.io import size_text


def build_on_layout(spec: str, choice: LayoutChoice) -> Game:
    """Say ``spec``'s counted vector layout (size and memory) when it goes there, then
    build it (:func:`toypoker.engines.build`)."""
    counted = choice.counted
    if choice.layout != "vector":
        return load_rows(spec).with_builder(functools.partial(tp_load_game, layout="rows"))
    if counted is not None:
        err.print(
            f"vector layout: {counted.public_nodes:,} public nodes x {counted.players} players "
            f"x {counted.hands} hands = {counted.entries:,} entries, about "
            f"{size_text(vector_bytes(spec, counted))}; building (deal-free)...",
            highlight=False,
            soft_wrap=True,
        )
    t0 = time.perf_counter()
    game = build(spec, choice)
    err.print(f"built in {time.perf_counter() - t0:.1f} s")
    return game
