"""Frozen records that hold arrays: read-only copies, equality by content, pickling.

The library's result types (:class:`~toypoker.result.Result`,
:class:`~toypoker.engines.rows.values.BestResponse`, a continuation curve) are frozen dataclasses;
:class:`FrozenRecord` gives them what ``dataclass(frozen=True)`` does not: equality that
compares arrays by content (and a compiled game by kind and canonical spec), and
pickling through the constructor, so the copy's arrays are read-only again
(numpy unpickles every array writeable).

>>> import numpy as np
>>> a = read_only_copy([1, 2])
>>> a.flags.writeable, same({"x": (a,)}, {"x": (np.array([1, 2]),)})
(False, True)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from types import MappingProxyType

import numpy as np


def read_only_copy(value: object) -> np.ndarray:
    """A new array of ``value`` that cannot be written: what a frozen record exposes (the
    caller's array may change later; this one cannot, ``x[0] = 1`` raises)."""
    out = np.array(value)
    out.setflags(write=False)
    return out


def _is_game(x: object) -> bool:
    return hasattr(x, "spec") and hasattr(x, "n_sigma") and not isinstance(x, type)


def same(a: object, b: object) -> bool:
    """``a == b`` for what a record holds: compiled games by kind and canonical spec
    (a copy made in another process is the same game), arrays by content, NaN equal
    to NaN, dataclasses by the fields they compare, mappings and sequences item by item."""
    if _is_game(a) or _is_game(b):
        return type(a) is type(b) and a.spec == b.spec  # type: ignore[attr-defined]
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True  # an unknown NashConv equals itself
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return type(a) is type(b) and np.array_equal(a, b)  # type: ignore[arg-type]
    if isinstance(a, tuple | list) and isinstance(b, tuple | list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if dataclasses.is_dataclass(a) and not isinstance(a, type) and type(a) is type(b):
        names = [f.name for f in dataclasses.fields(a) if f.compare]
        return all(same(getattr(a, n), getattr(b, n)) for n in names)
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def _rebuilt(cls: type, fields: dict[str, object]) -> object:
    """``cls(**fields)``: how a pickled record is made again."""
    return cls(**fields)


class FrozenRecord:
    """Mixin of a frozen dataclass (declared ``eq=False``) holding arrays: equality by
    :func:`same`, pickling and ``copy.deepcopy`` through the constructor (its
    ``__post_init__`` makes the arrays read-only again; a read-only mapping is passed
    as a dict).  Unhashable, as arrays are."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and same(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        fields = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            fields[f.name] = dict(value) if isinstance(value, MappingProxyType) else value
        return (_rebuilt, (type(self), fields))


__all__ = ["FrozenRecord", "read_only_copy", "same"]
