"""Explicit thread control: BLAS/OpenMP pools (threadpoolctl) and numba.

The small dense linear algebra of the exact LP certificate, the curve tracer
and polishing runs *slower*, not faster, when OpenBLAS starts its default threads
on a busy machine (``benchmarks/results/peers.md``).  Wrap such work in
:func:`limit_blas`::

    from toypoker.threads import limit_blas

    with limit_blas():          # the module default: 1 thread
        certificate = certify(...)

Wrap a whole computation, not each small call: threadpoolctl's inspection of
the loaded libraries is the expensive part, so it is kept (a
``ThreadpoolController``, rebuilt when modules were imported since, which is how
new BLAS/OpenMP libraries arrive) and entering a block only sets the limits; a
block nested in a block with the same limit (same thread) does nothing.

The vector layout's kernels (:mod:`toypoker.engines.vectors.kernel`) run the public
subtrees below a cut on numba's threads; how many is :func:`kernel_thread_count`:
the innermost :func:`kernel_threads` block of the calling thread, else the
module default (:func:`set_default_kernel_threads`, the CLI's ``--threads``),
else every CPU this process may use.  Results do not depend on the count (each
thread writes its own subtrees; sums across them run in a fixed order)::

    from toypoker.threads import kernel_threads

    with kernel_threads(1):     # one thread: the same numbers, bit for bit
        result = solve(...)

The CLI's ``--threads N`` sets all defaults once at start-up with
:func:`configure`; library code never reads the shell environment
(``OPENBLAS_NUM_THREADS``, ``NUMBA_NUM_THREADS``) to decide.
"""

from __future__ import annotations

import operator
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

from toypoker.errors import ToypokerError

P = ParamSpec("P")
T = TypeVar("T")

# The BLAS/OpenMP thread count limit_blas() uses when not told (CLI: --threads).
# None leaves the libraries' own setting alone.
DEFAULT_BLAS_THREADS: int | None = 1
# The vector kernels' thread count when no kernel_threads() block is open (CLI:
# --threads); None: every CPU this process may use.
DEFAULT_KERNEL_THREADS: int | None = None
_KERNEL = threading.local()  # the kernel_threads() limit in force in this thread


def _count(name: str, n: object) -> int:
    """``n`` as an int >= 1: an int or a numpy integer (``np.int64(2)``, as every other
    count takes), never a bool or a float."""
    try:
        whole = None if isinstance(n, bool) else operator.index(n)  # type: ignore[arg-type]
    except TypeError:
        whole = None
    if whole is None or whole < 1:
        raise ToypokerError(
            f"{name} must be a whole number >= 1, not {n if whole is None else whole!r}"
        )
    return whole


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
        n = min(_cpus(), top)
    n = _count("numba threads", n)
    if n > top:
        raise ToypokerError(f"numba threads must be at most {top} (its pool size), not {n}")
    numba.set_num_threads(n)
    return int(numba.get_num_threads())


def _cpus() -> int:
    """The CPUs this process may run on."""
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, int(n or 1))


def set_default_kernel_threads(n: int | None) -> None:
    """Set the vector kernels' thread count outside :func:`kernel_threads` blocks.

    Parameters
    ----------
    n
        Threads, or ``None`` for every CPU this process may use.
    """
    global DEFAULT_KERNEL_THREADS
    DEFAULT_KERNEL_THREADS = None if n is None else _count("threads", n)


@contextmanager
def kernel_threads(n: int | None = None) -> Iterator[int]:
    """Run the vector kernels called from this thread on ``n`` threads inside the block.

    Parameters
    ----------
    n
        Thread count (``None``: the default, :func:`kernel_thread_count` outside any
        block).  More than numba's pool (``numba.config.NUMBA_NUM_THREADS``, the
        CPUs at start-up) runs on the pool.  The results are the same for every
        count, bit for bit.

    Yields
    ------
    int
        The count the kernels use inside the block.
    """
    limit = None if n is None else _count("threads", n)
    outer = getattr(_KERNEL, "limit", None)
    _KERNEL.limit = limit if limit is not None else outer
    try:
        yield kernel_thread_count()
    finally:
        _KERNEL.limit = outer


def kernel_thread_count() -> int:
    """The thread count the vector kernels use now, in this thread (see
    :func:`kernel_threads`); at most numba's pool size once numba is loaded."""
    n = getattr(_KERNEL, "limit", None) or DEFAULT_KERNEL_THREADS or _cpus()
    if "numba" in sys.modules:
        n = min(n, int(sys.modules["numba"].config.NUMBA_NUM_THREADS))
    return n


def use_kernel_threads() -> int:
    """Set numba's thread count (per calling thread, in numba) to
    :func:`kernel_thread_count` before a parallel kernel runs; returns it."""
    import numba

    n = kernel_thread_count()
    if numba.get_num_threads() != n:
        numba.set_num_threads(n)
    return n


def configure(threads: int | None) -> None:
    """What the CLI's ``--threads N`` does: BLAS/OpenMP default, numba threads and the
    vector kernels' threads (:func:`set_default_kernel_threads`) to ``N``.

    Parameters
    ----------
    threads
        Thread count, or ``None`` for the defaults (1 BLAS thread inside
        :func:`limit_blas`; numba and the vector kernels on every available CPU).
        With ``None`` numba is configured only if a command loaded it already:
        importing numba costs a light command (``games``, ``info``) most of its
        start-up, and the vector kernels set numba's count themselves
        (:func:`use_kernel_threads`).
    """
    if threads is not None:  # the option's own name, not the BLAS pool's it also sets
        threads = _count("--threads", threads)
    set_default_blas_threads(1 if threads is None else threads)
    set_default_kernel_threads(threads)
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
