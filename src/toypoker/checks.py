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
from typing import TYPE_CHECKING

import numpy as np

from .errors import ProfileError, ToypokerError

if TYPE_CHECKING:
    from .game import Game
    from .profile import Profile


def shown(value: object) -> str:
    """A short description of a wrong argument (its type, and the value if short)."""
    text = repr(value)
    kind = type(value).__name__
    return f"{kind} {text}" if len(text) <= 40 and text.isprintable() else kind


def check_game(value: object, name: str = "game") -> Game:
    """``value`` itself if it is a compiled :class:`~toypoker.game.Game`.

    Raises
    ------
    ToypokerError
        Otherwise, with a hint to :func:`toypoker.load_game`.
    """
    from .game import Game

    if not isinstance(value, Game):
        raise ToypokerError(
            f"{name} must be a compiled game (toypoker.load_game(spec)), not {shown(value)}"
        )
    return value


def check_profile(
    game: Game, value: object, name: str = "profile", *, validate: bool = True
) -> Profile:
    """A :class:`~toypoker.profile.Profile` of ``game``: ``value`` itself, or a flat
    vector of ``game.n_sigma`` probabilities made into one (validated if ``validate``).

    A profile of the same tree at other numbers (``game.at(pot=...)``: the same
    infosets and actions) is a profile of ``game``.

    Raises
    ------
    ProfileError
        For another game's profile, a vector of the wrong length, or anything else.
    """
    from .profile import Profile

    check_game(game)
    if isinstance(value, Profile):
        if not same_tree(value.game, game):
            other = value.game
            raise ProfileError(f"{name} is a profile of {other.spec}, not of {game.spec}")
        return value
    if isinstance(value, np.ndarray | list | tuple) and not isinstance(value, str):
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError) as exc:  # ragged lists
            raise ProfileError(f"{name} is not a vector of probabilities: {exc}") from None
        if arr.dtype != object and not np.issubdtype(arr.dtype, np.number):
            raise ProfileError(f"{name} must hold numbers, not {arr.dtype} values")
        if arr.dtype.kind == "c":
            raise ProfileError(f"{name} must hold real numbers, not complex ones")
        if arr.dtype == object and not all(
            isinstance(x, Fraction | int) and not isinstance(x, bool) for x in arr.ravel()
        ):
            raise ProfileError(f"{name}: an exact profile must hold Fractions or ints only")
        if arr.dtype == object and not all(isinstance(x, Fraction) for x in arr.ravel()):
            arr = np.array([Fraction(x) for x in arr.ravel()], dtype=object).reshape(arr.shape)
        return Profile(game, arr, validate=validate)
    raise ProfileError(
        f"{name} must be a toypoker.Profile of {game.spec} or a vector of its "
        f"{game.n_sigma} action probabilities, not {shown(value)}"
    )


def same_tree(a: Game, b: Game) -> bool:
    """Whether ``a`` and ``b`` have the same infosets and actions (a profile of one is
    a profile of the other): the same game, ``game.at`` of it, or an identical tree."""
    if a is b or a.infosets is b.infosets:
        return True
    if a.n_sigma != b.n_sigma or a.n_infosets != b.n_infosets:
        return False
    return all(
        x.label == y.label and x.actions == y.actions
        for x, y in zip(a.infosets, b.infosets, strict=True)
    )


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
    "check_game",
    "check_int",
    "check_number",
    "check_path",
    "check_profile",
    "check_text",
    "same_tree",
    "shown",
]
