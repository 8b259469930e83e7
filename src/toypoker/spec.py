"""Game spec strings: ``name(key=value, ...)``, parsed without ``eval``.

Values are exact numbers (``3``, ``1.5``, ``3/2`` -> :class:`fractions.Fraction`),
booleans (``true``/``false``) or bare words.  The grammar is deliberately tiny.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .errors import SpecError

_NAME = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?(/[+-]?\d+)?$")

Value = Fraction | bool | str


@dataclass(frozen=True)
class Spec:
    """A parsed game spec: the game's name and its keyword arguments in order."""

    name: str
    params: tuple[tuple[str, Value], ...]

    def as_dict(self) -> dict[str, Value]:
        return dict(self.params)

    def __str__(self) -> str:
        return format_spec(self.name, dict(self.params))


def parse_value(text: str) -> Value:
    """Parse one spec value: an exact number, a boolean, or a bare word."""
    t = text.strip()
    if not t:
        raise SpecError("empty value")
    if _NUMBER.match(t):
        try:
            if "/" in t:
                num, den = t.split("/")
                return Fraction(num) / Fraction(den)
            return Fraction(t)
        except (ValueError, ZeroDivisionError) as exc:
            raise SpecError(f"bad number {t!r}") from exc
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if re.match(r"^[A-Za-z_][A-Za-z0-9_.-]*$", t):
        return t
    raise SpecError(f"bad value {t!r}")


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
