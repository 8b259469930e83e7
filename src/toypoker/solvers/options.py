"""Enums and value checks shared by the typed options of the solvers.

Each method family has a frozen options dataclass next to its code
(:class:`~toypoker.solvers.cfr.CFROptions`,
:class:`~toypoker.solvers.mccfr.ESOptions` /
:class:`~toypoker.solvers.mccfr.OSOptions`,
:class:`~toypoker.solvers.fictitious.FPOptions`,
:class:`~toypoker.solvers.lp.LPOptions`,
:class:`~toypoker.solvers.enumerate_method.EnumerateOptions`); their ``__post_init__``
checks and normalises values with the helpers below, so a bad value is a
one-line :class:`~toypoker.errors.ToypokerError`.

>>> Output("current") is Output.CURRENT
True
>>> real("gamma", 2)
2.0
>>> Average("quadratic").exponent
2.0
"""

from __future__ import annotations

import math
from enum import IntEnum, StrEnum

from toypoker.checks import plain, whole
from toypoker.errors import ToypokerError


class Output(StrEnum):
    """Which strategy an iterative method outputs (accepts the plain strings)."""

    AVERAGE = "average"  # the converging one for the CFR family
    CURRENT = "current"  # the last iterate


class Average(StrEnum):
    """Named weights of iteration ``t`` in the average strategy: ``t**exponent``.

    ``uniform`` (vanilla CFR, Zinkevich et al. 2007), ``linear`` (CFR+,
    Tammelin et al. 2015), ``quadratic`` (DCFR's ``gamma = 2``, Brown &
    Sandholm 2019; PCFR+, Farina, Kroer & Sandholm 2021).  The CFR family's
    ``average`` option is the named form of its ``gamma``.
    """

    UNIFORM = "uniform"
    LINEAR = "linear"
    QUADRATIC = "quadratic"

    @property
    def exponent(self) -> float:
        """The ``gamma`` of these weights (0, 1 or 2)."""
        return {"uniform": 0.0, "linear": 1.0, "quadratic": 2.0}[self.value]


class Pot(StrEnum):
    """How the enumerator (:func:`~toypoker.solvers.enumerate.game_equilibria`)
    treats the pot besides a number."""

    SYMBOLIC = "symbolic"  # a symbol P: the result says for which P each piece holds


class Sampling(IntEnum):
    """How Monte Carlo CFR samples (Lanctot et al. 2009); an int for the kernels."""

    EXTERNAL = 0  # the deal and the other players' actions
    OUTCOME = 1  # one trajectory, the traverser exploring with epsilon


MAX_EXPONENT = 20.0
"""Largest exponent option (``alpha``, ``beta``, ``gamma``): iteration ``t``'s ``t**x``
stays a float (10^9 iterations ^ 20 < 10^308)."""


def boolean(name: str, value: object) -> bool:
    """``value`` if it is a bool (numpy's too), else a ToypokerError."""
    if not isinstance(plain(value), bool):
        raise ToypokerError(f"option {name} must be true or false, not {value!r}")
    return bool(value)


def real(
    name: str,
    value: object,
    *,
    low: float | None = None,
    high: float | None = None,
    open_low: bool = False,
) -> float:
    """``value`` as a float within ``[low, high]`` (``(low, high]`` if ``open_low``)."""
    value = plain(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        try:
            value = float(value)  # Fractions, Decimals
        except (TypeError, ValueError):
            raise ToypokerError(f"option {name} must be a number, not {value!r}") from None
    x = float(value)
    lo = "" if low is None else f" {'above' if open_low else 'at least'} {low:g}"
    hi = "" if high is None else f" at most {high:g}"
    allowed = f"a finite number{lo}{' and' if lo and hi else ''}{hi}"
    if (
        not math.isfinite(x)
        or (low is not None and (x < low or (open_low and x == low)))
        or (high is not None and x > high)
    ):
        raise ToypokerError(f"option {name} must be {allowed}, got {value!r}")
    return x


def integer(name: str, value: object, *, low: int = 0) -> int:
    """``value`` as an int at least ``low`` (a numpy integer, or a Fraction or Decimal of
    integral value, too: :func:`~toypoker.checks.whole`)."""
    n = whole(value)
    if n is None or n < low:
        raise ToypokerError(f"option {name} must be an integer >= {low}, not {value!r}")
    return n


def choice(name: str, value: object, enum: type[StrEnum]) -> StrEnum:
    """``value`` (a member or its string) as a member of ``enum``."""
    try:
        return enum(value)
    except ValueError:
        known = ", ".join(repr(m.value) for m in enum)
        raise ToypokerError(f"option {name} must be one of {known}, not {value!r}") from None


__all__ = ["Average", "Output", "Pot", "Sampling", "boolean", "choice", "integer", "real"]
