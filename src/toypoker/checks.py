"""Argument checks of the public Python API, one clear sentence each.

The command line checks its options before any work; these helpers give the
library's own functions (:func:`toypoker.evaluate`, :func:`toypoker.solve`,
:func:`toypoker.load_game`, ...) the same: a wrong type, a value out of range or
a profile of another game raises :class:`~toypoker.errors.ToypokerError` (or
:class:`~toypoker.errors.ProfileError`) naming the argument and what is
allowed, never ``AttributeError``/``TypeError``/``IndexError`` from deep inside.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np

from toypoker.errors import ToypokerError


def shown(value: object) -> str:
    """A short description of a wrong argument (its type, and the value if short)."""
    text = repr(value)
    kind = type(value).__name__
    return f"{kind} {text}" if len(text) <= 40 and text.isprintable() else kind


def plain(value: object) -> object:
    """``value`` as a Python scalar if it is a numpy scalar or a 0-d numpy array
    (``np.float64(4)`` -> ``4.0``, ``np.int64(5)`` -> ``5``); anything else unchanged.

    The one place where numpy numbers become the Python numbers the checks know, so a
    numpy value is accepted wherever the Python number is, with the same answer.
    """
    if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value.item()
    return value


def plain_values(value: object) -> list[object] | None:
    """The items of a list, tuple, range or 1-d numpy array as Python scalars
    (:func:`plain`); ``None`` for anything else (a single value, a str, a mapping)."""
    if isinstance(value, np.ndarray):
        return [plain(x) for x in value.ravel()] if value.ndim == 1 else None
    if isinstance(value, list | tuple | range):
        return [plain(x) for x in value]
    if isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray):
        return [plain(x) for x in value]
    return None


def whole(value: object) -> int | None:
    """``value`` as an int if it is an exact whole number -- an int, a numpy integer, or a
    Fraction or Decimal of integral value (not a bool, not a float) -- else ``None``."""
    value = plain(value)
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
        return int(value)
    return None


def check_int(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    error: type[ToypokerError] = ToypokerError,
) -> int:
    """``value`` as an int if it is a whole number (not a bool, not 2.5) in ``[low, high]``:
    an int, a numpy integer, or a Fraction or Decimal of integral value (:func:`whole`).

    Raises
    ------
    ToypokerError
        (or ``error``) For another type, a fractional value or a value out of range.
    """
    n = whole(value)
    if n is None:
        allowed = "a whole number" if low is None else f"a whole number >= {low}"
        raise error(f"{name} must be {allowed}, not {shown(value)}")
    if low is not None and n < low:
        raise error(f"{name} must be at least {low}, got {n}")
    if high is not None and n > high:
        raise error(f"{name} must be at most {high}, got {n}")
    return n


def check_number(
    value: object, name: str, *, positive: bool = False, nonnegative: bool = False
) -> float:
    """``value`` as a finite float (an int, float, Fraction, Decimal or numpy number --
    a scalar or a 0-d array -- not a bool).

    Raises
    ------
    ToypokerError
        For another type, NaN or an infinity, or a sign the argument does not allow.
    """
    given, value = value, plain(value)
    ok = isinstance(value, int | float | Fraction | Decimal)
    if isinstance(value, bool) or not ok:
        raise ToypokerError(f"{name} must be a number, not {shown(given)}")
    if isinstance(value, Decimal) and value.is_nan():  # float() of a signalling NaN raises
        raise ToypokerError(f"{name} must be finite, not {value}")
    try:
        x = float(value)  # type: ignore[arg-type]
    except OverflowError:  # an int or Fraction beyond float range
        raise ToypokerError(f"{name} is too large: {shown(given)}") from None
    if not math.isfinite(x):
        raise ToypokerError(f"{name} must be finite, not {x}")
    if positive and not x > 0:
        raise ToypokerError(f"{name} must be positive, got {x}")
    if nonnegative and not x >= 0:
        raise ToypokerError(f"{name} must be >= 0, got {x}")
    return x


def check_text(
    value: object, name: str, what: str = "text", error: type[ToypokerError] = ToypokerError
) -> str:
    """``value`` if it is a ``str``.

    Raises
    ------
    ToypokerError
        (or ``error``) Otherwise (bytes included: decode them first), naming ``what``
        is expected.
    """
    if isinstance(value, str):
        return value
    hint = ""
    if isinstance(value, Path):
        hint = " (read the file first: Path(...).read_text())"
    elif isinstance(value, bytes | bytearray):
        hint = " (decode the bytes first: data.decode())"
    raise error(f"{name} must be {what} (a str){hint}, not {shown(value)}")


def check_callable(value: object, name: str) -> None:
    """Refuse a ``value`` that is neither ``None`` nor callable (a progress callback).

    Raises
    ------
    ToypokerError
        Naming the argument.
    """
    if value is not None and not callable(value):
        raise ToypokerError(f"{name} must be callable or None, not {shown(value)}")


def check_path(value: object, name: str) -> Path:
    """``value`` as a :class:`~pathlib.Path` if it is a ``str`` or ``os.PathLike`` path.

    Raises
    ------
    ToypokerError
        For another type or an empty string.
    """
    if isinstance(value, str):
        if not value.strip():
            raise ToypokerError(f"{name} must name a file, not an empty string")
        if "\0" in value:
            raise ToypokerError(f"{name} must not contain a NUL character")
        return Path(value)
    if isinstance(value, Path):
        return value
    raise ToypokerError(f"{name} must be a path (str or pathlib.Path), not {shown(value)}")


__all__ = [
    "check_callable",
    "check_int",
    "check_number",
    "check_path",
    "check_text",
    "plain",
    "plain_values",
    "shown",
    "whole",
]
