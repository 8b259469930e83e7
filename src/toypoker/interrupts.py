"""Ctrl-C, SIGTERM and SIGHUP taken between steps, never inside one.

A signal that lands while compiled code runs (a numba kernel, one ``play`` run)
would surface as a ``SystemError`` from the dispatcher, or as a
``KeyboardInterrupt`` raised after a step has changed the state but before its
iteration was counted: neither can be resumed exactly.  Inside
:func:`deferred_interrupts` the first signal only sets a flag, which the loop
reads between steps; a second one raises ``KeyboardInterrupt`` at once (the
user insists).

Outside such a block the command line's handler (:func:`interrupt_now`) raises
``KeyboardInterrupt`` and remembers it: an interrupt raised inside a ctypes
callback (numba compiling or loading a kernel from its cache) is printed as
"Exception ignored" and dropped by CPython, and the run would go on deaf to it.
A deferred block entered after that starts with its flag set, and
:func:`quiet_dropped_interrupts` keeps CPython from printing the dropped
interrupt as a traceback on the user's terminal.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(eq=False)  # compared by identity: nested blocks keep their own
class InterruptFlag:
    """Set when a Ctrl-C or SIGTERM arrived inside :func:`deferred_interrupts`."""

    requested: bool = False


STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that stop a run the way Ctrl-C does (its state kept, the resume said):
Ctrl-C, SIGTERM, and SIGHUP (the terminal closed; where the system has it)."""

_ACTIVE: list[InterruptFlag] = []  # the flags of the enclosing deferred blocks
_SEEN = [False]  # an interrupt was raised outside a deferred block (maybe swallowed)


_KEEPING: list[str | None] = [None]  # a stopping run's state is being kept: signals wait


def interrupt_now(_signum: int, _frame: object) -> None:
    """Signal handler outside deferred blocks: raise ``KeyboardInterrupt`` and remember
    it, so that the next deferred block stops at once even if CPython dropped this one.

    Once a run stopped by a signal keeps its state (:func:`deferred_interrupts` with
    ``keeping``), further signals are absorbed until the command ends: the command
    still has to write what it keeps and print the line that resumes it."""
    if _KEEPING[0] is not None:
        return
    _SEEN[0] = True
    raise KeyboardInterrupt


def is_command_line() -> bool:
    """Whether this process is the ``toypoker`` command: the console script (its
    ``sys.argv[0]`` named ``toypoker``) or ``python -m toypoker`` -- not a program or a
    test that imports the library."""
    if sys.argv and os.path.basename(sys.argv[0]) == "toypoker":
        return True
    argv = list(getattr(sys, "orig_argv", ()))[1:]
    while argv:
        arg = argv.pop(0)
        if arg == "-m":
            return argv[:1] == ["toypoker"]
        if arg.startswith("-m"):
            return arg == "-mtoypoker"
        if arg in ("-X", "-W"):  # an interpreter option with its value
            argv = argv[1:]
        elif arg.startswith("-c") or not arg.startswith("-"):  # -c or a script: not ours
            return False
    return False


def _stop_at_start(_signum: int, _frame: object) -> None:
    """The command's handler while it starts (before :func:`toypoker.cli.main` installs
    :func:`interrupt_now`): nothing is computed or written yet, so say so in one line and
    stop -- no ``KeyboardInterrupt`` traceback through the imports.

    The process ends at once (``os._exit``): an exception raised here can land inside an
    import's C code (numpy's ``PyCapsule_Import`` of ``datetime``), which turns it into an
    ``ImportError`` with a traceback instead of an exit."""
    os.write(2, b"toypoker: interrupted\n")
    os._exit(130)


def arm_command_line() -> None:
    """In the ``toypoker`` command only (:func:`is_command_line`), from its first instant:
    Ctrl-C or SIGTERM while the command's modules load (numpy, typer, rich: half a
    second) prints one line and exits 130 (:func:`_stop_at_start`).  A library import
    changes no handler.  Called by the package's first module, :mod:`toypoker.errors`."""
    if not is_command_line() or threading.current_thread() is not threading.main_thread():
        return
    for s in STOP_SIGNALS:
        if signal.getsignal(s) in (signal.default_int_handler, signal.SIG_DFL):
            signal.signal(s, _stop_at_start)


def interrupt_seen() -> bool:
    """Whether a Ctrl-C (or another of :data:`~toypoker.interrupts.STOP_SIGNALS`) was
    raised outside a deferred block since the command started: an error that follows it
    may be its debris."""
    return _SEEN[0]


def forget_interrupts() -> None:
    """Start a new command with no interrupt remembered."""
    _SEEN[0] = False
    _KEEPING[0] = None


def interrupt_debris(unraisable: object) -> bool:
    """Whether an exception CPython could not raise (``sys.unraisablehook``'s argument) is
    what an interrupt leaves behind: the ``KeyboardInterrupt`` itself, dropped inside a
    ctypes callback, or an error in the finalizer of an llvmlite object the interrupt
    left half-built while numba compiled (``ObjectRef.__del__``: "'PassBuilder' object
    has no attribute '_as_parameter_'")."""
    exc_type = getattr(unraisable, "exc_type", None)
    if isinstance(exc_type, type) and issubclass(exc_type, KeyboardInterrupt):
        return True
    where = getattr(getattr(unraisable, "object", None), "__module__", None) or ""
    return where == "llvmlite" or where.startswith("llvmlite.")


@contextmanager
def quiet_dropped_interrupts() -> Iterator[None]:
    """Within the block, once an interrupt came (:func:`interrupt_now`), what it leaves
    behind (:func:`interrupt_debris`) is not printed as "Exception ignored" with a
    traceback: a dropped ``KeyboardInterrupt`` is remembered and stops the run at its
    next step.  Every other unraisable exception goes to the hook that was there
    before."""
    previous: Callable[..., object] = sys.unraisablehook

    def hook(unraisable: object) -> None:
        if not (_SEEN[0] and interrupt_debris(unraisable)):
            previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


def quiet_at_exit() -> None:
    """For a process ending after an interrupt (the command line's exit 130): from now
    on what the interrupt left behind (:func:`interrupt_debris`), collected as the
    interpreter shuts down, is not printed."""
    previous = sys.unraisablehook

    def hook(unraisable: object) -> None:
        if not interrupt_debris(unraisable):
            previous(unraisable)

    sys.unraisablehook = hook


def end_process(code: int, *, exit_handlers: bool = True) -> None:
    """End the process at once with ``code``: Python's exit handlers run (unless
    ``exit_handlers`` is false: from one of them), then the standard streams are
    flushed and ``os._exit`` skips the rest.

    A normal exit while HiGHS still runs in an abandoned thread crashes the process
    (C++'s static destructors pull its scheduler from under the solve: SIGSEGV or
    "terminate called without an active exception", SIGABRT), and CI saw an interrupted
    ``collusion table7`` end with SIGSEGV after it had said what it kept: an interrupt
    can leave native code mid-way.  Skipping the interpreter's teardown avoids that step
    altogether; what a command keeps is written by then."""
    if exit_handlers:  # dask's clusters, multiprocessing's children, temp folders
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001, S110 - a closed stream: nothing more to say on it
            pass
    os._exit(code)


_SAY: list[Callable[[str], None] | None] = [None]  # how a signal is acknowledged (the CLI's)


def acknowledge_with(say: Callable[[str], None] | None) -> None:
    """Acknowledge signals taken by :func:`deferred_interrupts` at once with ``say(text)``
    (the command line prints ``toypoker: TEXT`` on stderr); ``None``: silently (the
    library's default)."""
    _SAY[0] = say


def _say(text: str) -> None:
    say = _SAY[0]
    if say is not None:
        try:
            say(text)
        except Exception:  # noqa: BLE001, S110 - a closed stderr: the flag is what matters
            pass


@contextmanager
def deferred_interrupts(keeping: str | None = None) -> Iterator[InterruptFlag]:
    """Within the block, the :data:`~toypoker.interrupts.STOP_SIGNALS` set
    ``flag.requested`` instead of raising.

    The first signal is acknowledged at once (:func:`acknowledge_with`).  With
    ``keeping`` (what the run keeps when it stops, e.g. ``"the checkpoint"``) every
    further signal is absorbed until the block ends -- the block writes what it keeps
    before it ends, and a second Ctrl-C during that write would lose it;
    without, a second signal raises ``KeyboardInterrupt`` at once (the user insists).
    Outside the main thread, where handlers cannot be installed, signals behave as
    usual."""
    flag = InterruptFlag(requested=_SEEN[0])
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    outer = tuple(_ACTIVE)  # an enclosing block (a sweep around a solve) learns of it too
    told = [False]  # the second signal's line, said once

    def handler(_signum: int, _frame: object) -> None:
        if flag.requested and keeping is None:
            _SEEN[0] = True  # raised: it may be dropped, and leave debris, as outside
            raise KeyboardInterrupt
        if flag.requested:  # absorbed: the state is being kept
            if not told[0]:
                told[0] = True
                _say(f"still saving {keeping}: the signal is ignored until it is written")
            return
        flag.requested = True
        for f in outer:
            f.requested = True
        if keeping is not None:
            _KEEPING[0] = keeping  # and until the command has said how to resume
            _say(
                f"interrupted: finishing the step and saving {keeping}... "
                "(Ctrl-C again is ignored until it is written)"
            )
        else:
            _say("interrupted: stopping after the current step... (Ctrl-C again stops at once)")

    previous = {s: signal.signal(s, handler) for s in STOP_SIGNALS}
    _ACTIVE.append(flag)
    try:
        yield flag
    finally:
        _ACTIVE.remove(flag)
        for s, h in previous.items():
            signal.signal(s, h)


def caused_by_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` (e.g. a dispatcher's ``SystemError``) stems from a KeyboardInterrupt."""
    seen = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return True
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return False


def ignore_interrupts_in_worker() -> None:
    """Pool initializer: workers leave Ctrl-C to the parent, which stops between runs."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
