"""HiGHS without its banner: toypoker's output is toypoker's.

``highspy.Highs()`` prints a copyright banner ("Running HiGHS 1.x ...: Copyright ...")
on the process's standard output -- from C++, at the first construction in a process,
before any option (``output_flag``) can be set -- so it landed in the middle of
``toypoker collusion table7`` and ``tmecor`` output.  :func:`silence_banner` builds
that first instance with file descriptor 1 pointed at ``/dev/null``: call it before
``highspy.Highs()``.
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import os
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

from toypoker import interrupts

T = TypeVar("T")


@functools.cache
def silence_banner() -> None:
    """Build the process's first ``highspy.Highs`` with standard output discarded at the
    descriptor level (and C's buffers flushed there), so the banner is never printed.
    Nothing without ``highspy``; once per process."""
    try:
        import highspy
    except ImportError:
        return
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        highspy.Highs()
        ctypes.CDLL(None).fflush(None)  # the banner may sit in C's stdout buffer
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


POLL_SECONDS = 0.1
"""How often the main thread looks up from a solve running in :func:`interruptible`."""


def interruptible(fn: Callable[..., T], *args: object, **kwargs: object) -> T:
    """``fn(*args, **kwargs)`` -- a HiGHS solve (``scipy.optimize.linprog``, ``milp``) --
    with Ctrl-C and SIGTERM heard while it runs.

    HiGHS runs in C++ for minutes on a large LP (``rhode_island(ranks=3,suits=4)``) and
    Python's signal handlers run only in the main thread between bytecodes, so a call
    in the main thread would not hear a signal until HiGHS returns.  Here the solve runs in a daemon
    thread (HiGHS releases the GIL) while the main thread waits in steps of
    :data:`POLL_SECONDS`, so its handler raises ``KeyboardInterrupt`` at once and the
    command stops; the abandoned solve ends with the process.  Outside the main thread
    ``fn`` is simply called."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args, **kwargs)
    box: list[tuple[bool, object]] = []
    done = threading.Event()

    def work() -> None:
        try:
            box.append((True, fn(*args, **kwargs)))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below
            box.append((False, exc))
        finally:
            done.set()

    thread = threading.Thread(target=work, name="toypoker-highs", daemon=True)
    thread.start()
    try:
        while not done.wait(POLL_SECONDS):
            pass  # a signal handler runs here, between waits
    except BaseException:
        _ABANDONED.append(thread)  # still inside HiGHS: the process must not exit normally
        raise
    ok, value = box[0]
    if not ok:
        raise value  # type: ignore[misc]
    return value  # type: ignore[return-value]


_ABANDONED: list[threading.Thread] = []


def abandoned() -> bool:
    """Whether a solve :func:`interruptible` gave up on (an interrupt) is still running."""
    return any(t.is_alive() for t in _ABANDONED)


@atexit.register
def _exit_past_an_abandoned_solve() -> None:
    # registered at import, so it runs after the handlers registered later (atexit is
    # last in, first out): a script interrupted during an LP ends with 130, not a crash
    if abandoned():
        interrupts.end_process(130, exit_handlers=False)


__all__ = ["abandoned", "interruptible", "silence_banner"]
