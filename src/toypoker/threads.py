"""Explicit thread control: BLAS/OpenMP pools (threadpoolctl) and numba.

The small dense linear algebra of the exact LP certificate, the curve tracer
and polishing is 10-15x *slower* when OpenBLAS starts its default threads on a
busy machine (issue 11).  Wrap such work in :func:`limit_blas`::

    from toypoker.threads import limit_blas

    with limit_blas():          # the module default: 1 thread
        certificate = certify(...)

Wrap a whole computation, not each small call.  Inspecting the loaded
libraries costs threadpoolctl about 3 ms, so the inspection is kept (a
``ThreadpoolController``, rebuilt when modules were imported since, which is
how new BLAS/OpenMP libraries arrive) and entering a block then costs about
20 us; a block nested in a block with the same limit (same thread) costs
nothing.

The CLI's ``--threads N`` sets both defaults once at start-up with
:func:`configure`; library code never reads the shell environment
(``OPENBLAS_NUM_THREADS``, ``NUMBA_NUM_THREADS``) to decide.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

from .errors import ToypokerError

P = ParamSpec("P")
T = TypeVar("T")

# The BLAS/OpenMP thread count limit_blas() uses when not told (CLI: --threads).
# None leaves the libraries' own setting alone.
DEFAULT_BLAS_THREADS: int | None = 1


def _count(name: str, n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ToypokerError(f"{name} must be a whole number >= 1, not {n!r}")
    return n


def set_default_blas_threads(n: int | None) -> None:
    """Set the thread count :func:`limit_blas` uses by default (``None``: no limit).

    Parameters
    ----------
    n
        Threads for BLAS/OpenMP pools inside :func:`limit_blas`, or ``None``.
    """
    global DEFAULT_BLAS_THREADS
    DEFAULT_BLAS_THREADS = None if n is None else _count("BLAS threads", n)


class _Controller:
    """threadpoolctl's view of the loaded libraries, kept until modules are imported."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.controller: object | None = None
        self.modules = -1
        self.local = threading.local()  # the limit in force in this thread's blocks

    def get(self) -> object:
        with self.lock:
            n = len(sys.modules)
            if self.controller is None or n != self.modules:
                from threadpoolctl import ThreadpoolController

                self.controller, self.modules = ThreadpoolController(), n
            return self.controller


_CONTROLLER = _Controller()


@contextmanager
def limit_blas(n: int | None = None) -> Iterator[int | None]:
    """Limit BLAS and OpenMP thread pools to ``n`` threads inside the block.

    Parameters
    ----------
    n
        Thread count; by default :data:`DEFAULT_BLAS_THREADS` (1 unless the
        CLI set it).  With no limit at all the block runs unchanged.

    Yields
    ------
    int or None
        The limit in force.
    """
    limit = DEFAULT_BLAS_THREADS if n is None else _count("BLAS threads", n)
    local = _CONTROLLER.local
    if limit is None or getattr(local, "limit", None) == limit:
        yield limit  # no limit, or already inside a block with this one
        return
    outer = getattr(local, "limit", None)
    with _CONTROLLER.get().limit(limits=limit):  # type: ignore[attr-defined]
        local.limit = limit
        try:
            yield limit
        finally:
            local.limit = outer


def blas_limited(fn: Callable[P, T]) -> Callable[P, T]:
    """Decorator: run ``fn`` inside :func:`limit_blas` with the module default."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        with limit_blas():
            return fn(*args, **kwargs)

    return wrapper


def set_numba_threads(n: int | None = None) -> int:
    """Set numba's thread count for parallel kernels, explicitly.

    Parameters
    ----------
    n
        Threads (at most numba's pool size, ``numba.config.NUMBA_NUM_THREADS``);
        by default the CPUs this process may run on.

    Returns
    -------
    int
        The count now in force.
    """
    import numba

    top = int(numba.config.NUMBA_NUM_THREADS)
    if n is None:
        n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        n = max(1, min(int(n or 1), top))
    n = _count("numba threads", n)
    if n > top:
        raise ToypokerError(f"numba threads must be at most {top} (its pool size), not {n}")
    numba.set_num_threads(n)
    return int(numba.get_num_threads())


def configure(threads: int | None) -> None:
    """What the CLI's ``--threads N`` does: BLAS/OpenMP default and numba threads to ``N``.

    Parameters
    ----------
    threads
        Thread count, or ``None`` for the defaults (1 BLAS thread inside
        :func:`limit_blas`; numba on every available CPU).  With ``None`` numba
        is configured only if a command loaded it already: importing numba costs
        a light command (``games``, ``info``) most of its start-up, and no kernel
        uses numba's thread pool (they are serial), so its own default serves.
    """
    set_default_blas_threads(1 if threads is None else threads)
    if threads is not None or "numba" in sys.modules:
        set_numba_threads(threads)


def thread_info() -> dict[str, object]:
    """The thread pools in force: ``{"numba": n, "blas": [...], "openmp": [...]}``."""
    import numba
    from threadpoolctl import threadpool_info

    out: dict[str, object] = {"numba": int(numba.get_num_threads())}
    for pool in threadpool_info():
        out.setdefault(str(pool.get("user_api")), []).append(  # type: ignore[union-attr]
            {"library": pool.get("internal_api"), "threads": pool.get("num_threads")}
        )
    return out
