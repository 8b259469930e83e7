"""Game spec strings: ``name(key=value, ...)``, parsed without ``eval``.

Values are exact numbers (``3``, ``1.5``, ``3/2`` -> :class:`fractions.Fraction`),
booleans (``true``/``false``) or bare words.  The grammar is deliberately tiny.
Numbers are parsed with bounded size (:func:`parse_number`): ``1e999999999``
is one clear error, never a hang building a billion-digit integer.
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from toypoker.errors import SpecError

_NAME = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?(/[+-]?\d+)?$")
_DECIMAL = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE]([+-]?\d+))?$")

MAX_EXPONENT = 300  # |decimal exponent| of a number written in a spec or profile
MAX_NUMBER_CHARS = 400  # characters of one written number

Value = Fraction | bool | str


@dataclass(frozen=True)
class Spec:
    """A parsed game spec: the game's name and its keyword arguments in order."""

    name: str
    params: tuple[tuple[str, Value], ...]

    def as_dict(self) -> dict[str, Value]:
        """The parameters as a dict, in the order written."""
        return dict(self.params)

    def __str__(self) -> str:
        return format_spec(self.name, dict(self.params))


def _show(text: str) -> str:
    """A written number for an error message (long ones shortened)."""
    return repr(text if len(text) <= 40 else text[:20] + "..." + text[-12:])


def _decimal(text: str) -> Fraction:
    m = _DECIMAL.match(text)
    if not m:
        raise SpecError(f"bad number {_show(text)}")
    exp = m.group(4)
    if exp is not None and (len(exp.lstrip("+-").lstrip("0")) > 6 or abs(int(exp)) > MAX_EXPONENT):
        raise SpecError(f"number {_show(text)} out of range: exponents are limited to +-300")
    whole, _, frac = m.group(1).partition(".")
    whole = whole.lstrip("0")
    if whole:
        lead = len(whole) - 1  # the leading digit's power of ten
    elif frac.strip("0"):
        lead = -(len(frac) - len(frac.lstrip("0")) + 1)
    else:
        return Fraction(0)
    if abs(lead + (int(exp) if exp is not None else 0)) > MAX_EXPONENT:
        raise SpecError(f"number {_show(text)} out of range: magnitudes are limited to 1e+-300")
    return Fraction(text)


def parse_number(text: str) -> Fraction:
    """An exact number from ``3``, ``-1.5``, ``2e-3`` or ``3/2``, with bounded size.

    Parameters
    ----------
    text
        The written number.

    Returns
    -------
    Fraction
        Its exact value.

    Raises
    ------
    SpecError
        For anything else, for more than ``MAX_NUMBER_CHARS`` characters, an
        exponent or magnitude beyond ``1e+-MAX_EXPONENT``, or a zero denominator.
    """
    t = text.strip()
    if len(t) > MAX_NUMBER_CHARS:
        raise SpecError(f"number too long ({len(t)} characters; at most {MAX_NUMBER_CHARS})")
    if not _NUMBER.match(t):
        raise SpecError(f"bad number {_show(t)}")
    num, _, den = t.partition("/")
    value = _decimal(num)
    if den:
        d = _decimal(den)
        if d == 0:
            raise SpecError(f"bad number {_show(t)}: zero denominator")
        value /= d
    return value


def parse_value(text: str) -> Value:
    """Parse one spec value: an exact number, a boolean, or a bare word."""
    t = text.strip()
    if not t:
        raise SpecError("empty value")
    if _NUMBER.match(t):
        return parse_number(t)
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if re.match(r"^[A-Za-z_][A-Za-z0-9_.-]*$", t):
        return t
    raise SpecError(f"bad value {_show(t)}")


def parse_spec(text: str) -> Spec:
    """Parse ``name(key=value, ...)``; raise :class:`SpecError` on anything else."""
    if not isinstance(text, str):
        raise SpecError("a game spec must be a string like 'kuhn(players=3)'")
    m = _NAME.match(text)
    if not m:
        raise SpecError(f"malformed game spec {text!r}: expected name(key=value,...)")
    name, body = m.group(1), m.group(2)
    params: list[tuple[str, Value]] = []
    if body is not None and body.strip():
        seen = set()
        for part in body.split(","):
            if "=" not in part:
                raise SpecError(f"malformed game spec {text!r}: {part.strip()!r} is not key=value")
            key, _, val = part.partition("=")
            key = key.strip()
            if not _KEY.match(key):
                raise SpecError(f"malformed game spec {text!r}: bad parameter name {key!r}")
            if key in seen:
                raise SpecError(f"parameter {key!r} given twice in {text!r}")
            seen.add(key)
            params.append((key, parse_value(val)))
    return Spec(name, tuple(params))


def format_value(v: object) -> str:
    """A spec value as written in a canonical spec (``3/2``, ``true``, a bare word)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return str(v)


def format_spec(name: str, params: dict[str, object]) -> str:
    """The canonical spec string of a game (parameters in the given order)."""
    if not params:
        return f"{name}()"
    inner = ",".join(f"{k}={format_value(v)}" for k, v in params.items())
    return f"{name}({inner})"


def parameter_value(name: str, v: object) -> Fraction:
    """An exact parameter value from an int, a rational, a finite float (read as written:
    ``0.1`` is ``1/10``), a finite Decimal (exactly), a numpy number or a string
    (:func:`parse_number`); SpecError otherwise."""
    if getattr(v, "shape", None) == () and hasattr(v, "item"):  # numpy: a Python scalar
        v = v.item()
    if isinstance(v, bool):
        raise SpecError(f"parameter {name!r} must be a number, not {v!r}")
    if isinstance(v, Decimal):
        if not v.is_finite():
            raise SpecError(f"parameter {name!r} must be finite, got {v}")
        return Fraction(v)
    if isinstance(v, numbers.Rational):
        return Fraction(int(v.numerator), int(v.denominator))
    if isinstance(v, numbers.Real):
        f = float(v)
        if not math.isfinite(f):
            raise SpecError(f"parameter {name!r} must be finite, got {f}")
        return parse_number(repr(f))
    if isinstance(v, str):
        return parse_number(v)
    raise SpecError(f"parameter {name!r} must be a number, not {v!r}")
