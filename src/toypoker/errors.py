"""User-facing errors.

Every error a user can cause with bad input (a malformed spec, a profile that
does not sum to one, an unknown infoset...) is a :class:`ToypokerError`; the
CLI prints its message as one line and exits with status 2.
"""

from __future__ import annotations

from toypoker import interrupts

# the package's first module: the ``toypoker`` command answers Ctrl-C in one line from
# here on, while its heavy modules load (a library import changes nothing)
interrupts.arm_command_line()


class ToypokerError(ValueError):
    """Bad input: a malformed game spec, an invalid profile, a bad parameter.

    Examples
    --------
    >>> import toypoker as tp
    >>> try:
    ...     tp.load_game("kuhn(players=1)")
    ... except tp.ToypokerError as e:
    ...     print(type(e).__name__)
    SpecError
    """


class UnknownNameError(ToypokerError):
    """An unknown name (a claim id, a report item) with the names that are known: the
    command line prints the known names whole, however many (they are ours, not an
    echo of the input)."""

    def __init__(self, message: str, known: list[str] | tuple[str, ...]):
        self.message, self.known = message, tuple(known)
        super().__init__(f"{message}; known: {', '.join(self.known)}")


class SpecError(ToypokerError):
    """A game spec string that cannot be parsed or names unknown things.

    Examples
    --------
    >>> import toypoker as tp
    >>> try:
    ...     tp.load_game("kuhn(cards=2")
    ... except tp.SpecError:
    ...     print("refused")
    refused
    """


class ProfileError(ToypokerError):
    """A strategy profile that is invalid for its game.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn(players=2)")
    >>> try:
    ...     tp.Profile(g, [0.5] * 3)
    ... except tp.ProfileError:
    ...     print("refused")
    refused
    """
