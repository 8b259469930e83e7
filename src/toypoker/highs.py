"""HiGHS without its banner: toypoker's output is toypoker's (issue 34 item 4).

``highspy.Highs()`` prints a copyright banner ("Running HiGHS 1.x ...: Copyright ...")
on the process's standard output -- from C++, at the first construction in a process,
before any option (``output_flag``) can be set -- so it landed in the middle of
``toypoker collusion table7`` and ``tmecor`` output.  :func:`silence_banner` builds
that first instance with file descriptor 1 pointed at ``/dev/null``: call it before
``highspy.Highs()``.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys


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


__all__ = ["silence_banner"]
