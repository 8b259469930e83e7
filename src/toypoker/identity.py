"""A game's identity: the layout it lives on and how it is built again.

:class:`Identity` is what :class:`~toypoker.game.Game` adds to its compiled arrays so
that one public type serves both layouts (``game.layout``: the deal table, or hand
vectors read through :mod:`toypoker.engines.vectors`) and so that a game pickles, copies and
compares as its spec (games are pure functions of their spec: a Dask worker or a child
process builds one again from the builder recorded by :func:`toypoker.load_game`).
Game floor: imports only the ground.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Self

from toypoker.errors import ToypokerError
from toypoker.spec import format_spec


class Identity:
    """The layout and identity of a compiled game (mixed into :class:`~toypoker.game.Game`)."""

    spec: str
    name: str
    params: Mapping[str, object]

    # ------------------------------------------------------------------ layout
    @property
    def layout(self) -> str:
        """Where the game lives: ``"rows"`` (the deal table, what this class compiles)
        or ``"vector"`` (hands as vectors on the public tree,
        :mod:`toypoker.engines.vectors`; :func:`toypoker.load_game` chooses, by cost)."""
        return "vector" if self.__dict__.get("_vector") is not None else "rows"

    def with_vector(self, vg: object, builder: Callable[[str], Self] | None = None) -> Self:
        """This game on the vector layout ``vg`` (a :class:`toypoker.engines.vectors.VectorGame`
        of it): the same infosets, labels and flat actions, now read through ``vg``
        (a copy sharing every array; a game without rows is marked in place).
        ``builder(spec)`` builds it again (pickling, :meth:`~toypoker.game.Game.at`)."""
        new = self if "row_node" not in self.__dict__ else object.__new__(type(self))
        if new is not self:
            new.__dict__.update(self.__dict__)
        new.__dict__["_vector"] = vg
        if builder is not None:
            new.__dict__["_builder"] = builder
        return new

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
        numeric = self.__dict__.get("numeric") or self.definition.numeric
        _, params = numeric.assign(self.name, self.params, values)
        return builder(format_spec(self.name, params))

    def __repr__(self) -> str:
        where = "" if self.layout == "rows" else ", layout='vector'"
        return f"Game({self.spec!r}{where})"
