"""User-facing errors.

Every error a user can cause with bad input (a malformed spec, a profile that
does not sum to one, an unknown infoset...) is a :class:`ToypokerError`; the
CLI prints its message as one line and exits with status 2.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading

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

    def __str__(self) -> str:
        """The message on one line: a line break inside it (a file name a user typed
        with one) is shown escaped, as ``\\n``."""
        return super().__str__().replace("\r", "\\r").replace("\n", "\\n")


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


class Interrupted(KeyboardInterrupt):
    """A Ctrl-C or SIGTERM stopped a long call (``tp.solve``); what it computed is kept
    on :attr:`result` (a :class:`~toypoker.Result` with ``stopped="interrupted"``, its
    checkpoint written if it had one).

    A :class:`KeyboardInterrupt`, so a script stops where the user stopped it -- a loop
    of solves does not run on -- and code that does not know toypoker ends as on any
    Ctrl-C.  At an interactive prompt the result is ``sys.last_value.result``.

    Examples
    --------
    >>> import toypoker as tp
    >>> g = tp.load_game("kuhn")
    >>> def stop(t, nash_conv):
    ...     raise KeyboardInterrupt  # as a Ctrl-C at iteration 1 would
    >>> try:
    ...     tp.solve(g, "cfr+", iterations=100, progress=stop)
    ... except tp.Interrupted as e:
    ...     print(e.result.stopped.value, e.result.iterations)
    interrupted 1
    """

    def __init__(self, result: object, what: str):
        self.result = result
        super().__init__(f"{what}; what it computed is this exception's .result")
        _end_as_python_does_if_uncaught()


def _end_as_python_does_if_uncaught() -> None:
    """Make an uncaught :class:`Interrupted` end the process as an uncaught
    ``KeyboardInterrupt`` does (killed by SIGINT: status 130 in a shell), not with
    status 1: CPython gives that ending to the exact class only.  Installed on
    ``sys.excepthook`` once, and only over Python's own hook (IPython and others that
    handle exceptions themselves are left alone)."""
    if sys.excepthook is not sys.__excepthook__:
        return
    default = sys.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: object) -> None:
        default(kind, value, tb)  # type: ignore[arg-type]
        if issubclass(kind, Interrupted) and threading.current_thread() is threading.main_thread():
            atexit._run_exitfuncs()
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)

    sys.excepthook = hook
