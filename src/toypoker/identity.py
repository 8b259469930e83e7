"""A game's identity: the engine it is built on and how it is built again.

:class:`Identity` is what :class:`~toypoker.game.Game` adds to its public tree so that
one public type serves every engine (``game.engine``: the deal table, or hand vectors,
:mod:`toypoker.engines`; ``game.layout`` names it) and so that a game pickles, copies
and compares as its spec (games are pure functions of their spec: a Dask worker or a
child process builds one again from the builder recorded by :func:`toypoker.load_game`).

The engines sit above the game: a game holds its engine's data and name, and the
engine itself (:func:`toypoker.engines.registry.engine_on`) is made on first use, its
module imported by name then.
Game floor: imports only the ground.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, Self

from toypoker.errors import ToypokerError
from toypoker.spec import format_spec


class Identity:
    """The engine and identity of a game (mixed into :class:`~toypoker.game.Game`)."""

    spec: str
    name: str
    params: Mapping[str, object]

    # ------------------------------------------------------------------ engine
    @property
    def engine(self) -> Any:
        """The engine the game is built on (:mod:`toypoker.engines`: ``engine.name``
        ``"rows"``, the deal table, or ``"vectors"``, hands as vectors on the public
        tree; a :class:`toypoker.engines.protocol.Engine`), made once a game."""
        return self.derived(_engine)  # type: ignore[attr-defined,no-any-return]

    @property
    def layout(self) -> str:
        """Where the game lives, named after its engine: ``"rows"`` (the deal table)
        or ``"vector"`` (hands as vectors on the public tree,
        :mod:`toypoker.engines.vectors`; :func:`toypoker.load_game` chooses, by cost)."""
        return self.__dict__["_engine_data"].layout  # type: ignore[no-any-return]

    def with_builder(self, builder: Callable[[str], Self]) -> Self:
        """This game, recording ``builder(spec)`` as how to build it again (what
        pickling sends: the spec, not the arrays)."""
        self.__dict__["_builder"] = builder
        return self

    def __reduce__(self) -> tuple[object, tuple[str]]:
        """Pickled as its spec and builder (a Dask worker or a child process builds it
        again: games are pure functions of their spec)."""
        builder = self.__dict__.get("_builder")
        if builder is None:
            raise TypeError(
                f"game {self.spec} was not built from a spec (toypoker.load_game): "
                "it cannot be pickled"
            )
        return builder, (self.spec,)

    def __copy__(self) -> Self:
        return self  # immutable

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self  # immutable

    def __eq__(self, other: object) -> bool:
        """Games built from the same spec on the same layout are equal (a pickled game
        equals its original); other games only to themselves."""
        if other is self:
            return True
        if not isinstance(other, Identity) or "_builder" not in self.__dict__:
            return False
        return (
            "_builder" in other.__dict__ and other.spec == self.spec and other.layout == self.layout
        )

    def __hash__(self) -> int:
        return hash((self.spec, self.layout))

    def _at_by_spec(self, values: Mapping[str, object]) -> Self:
        """:meth:`~toypoker.game.Game.at` of a game without an affine deal table: its
        builder at the new parameters (validated by the builder, as ``load_game``
        validates a spec)."""
        builder = self.__dict__.get("_builder")
        if builder is None:
            raise ToypokerError(f"game {self.spec} cannot be rebuilt at other values")
        _, params = self.numeric.assign(self.name, self.params, values)
        return builder(format_spec(self.name, params))

    numeric: object

    def __repr__(self) -> str:
        return f"Game({self.spec!r}, layout={self.layout!r})"


def _engine(game: Identity) -> Any:
    """The engine ``game`` is built on, from the table of engines (imported here, on
    first use: the engines sit above the game)."""
    registry = importlib.import_module("toypoker.engines.registry")
    return registry.engine_on(game)  # type: ignore[no-any-return]
