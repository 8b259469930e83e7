"""User-facing errors.

Every error a user can cause with bad input (a malformed spec, a profile that
does not sum to one, an unknown infoset...) is a :class:`ToypokerError`; the
CLI prints its message as one line and exits with status 2.
"""

from __future__ import annotations


class ToypokerError(ValueError):
    """Bad input: a malformed game spec, an invalid profile, a bad parameter."""


class SpecError(ToypokerError):
    """A game spec string that cannot be parsed or names unknown things."""


class ProfileError(ToypokerError):
    """A strategy profile that is invalid for its game."""
