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
from fractions import Fraction
from pathlib import Path

import numpy as np

from .errors import ToypokerError


def shown(value: object) -> str:
    """A short description of a wrong argument (its type, and the value if short)."""
    text = repr(value)
    kind = type(value).__name__
    return f"{kind} {text}" if len(text) <= 40 and text.isprintable() else kind


def check_int(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    error: type[ToypokerError] = ToypokerError,
) -> int:
    """``value`` as an int if it is a whole number (not a bool, not 2.5) in ``[low, high]``.

    Raises
    ------
    ToypokerError
        (or ``error``) For another type, a fractional value or a value out of range.
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        allowed = "a whole number" if low is None else f"a whole number >= {low}"
        raise error(f"{name} must be {allowed}, not {shown(value)}")
    n = int(value)
    if low is not None and n < low:
        raise error(f"{name} must be at least {low}, got {n}")
    if high is not None and n > high:
        raise error(f"{name} must be at most {high}, got {n}")
    return n


def check_number(
    value: object, name: str, *, positive: bool = False, nonnegative: bool = False
) -> float:
    """``value`` as a finite float (an int, float, Fraction or numpy number, not a bool).

    Raises
    ------
    ToypokerError
        For another type, NaN or an infinity, or a sign the argument does not allow.
    """
    ok = isinstance(value, int | float | Fraction | np.integer | np.floating)
    if isinstance(value, bool) or not ok:
        raise ToypokerError(f"{name} must be a number, not {shown(value)}")
    try:
        x = float(value)  # type: ignore[arg-type]
    except OverflowError:  # an int or Fraction beyond float range
        raise ToypokerError(f"{name} is too large: {shown(value)}") from None
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
    "shown",
]
