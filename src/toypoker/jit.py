"""Compiled kernels whose on-disk cache is safe when several processes fill it at once.

Every numba kernel of the package is compiled with :func:`njit`, numba's ``njit`` with
``cache=True`` and one change: the cache's index and data files are read and written
under a file lock.

Why: numba keeps one index per function (signature -> data file) and picks the next free
data file name from the index it has just read.  Two processes that compile two
*different* signatures of one function at the same moment (pytest workers, dask workers,
two terminals after an upgrade, each on a cold cache) both read the same index, both
pick data file 1, and the last writer wins each file separately: the index can then map
one signature to the other signature's machine code, and the next process that loads it
crashes (SIGSEGV) or computes garbage.  Numba's ``IndexDataCacheFile.save`` takes no
lock (reported upstream in numba's tracker, still open).

Under the lock a save reads the index afresh, writes the data file first and the index
last, and a load reads both under a shared lock, so no process sees an index entry whose
data file is missing or another signature's.  Where the lock file cannot be created (a
read-only cache folder) or locked (a file system without locks) numba's own behaviour
is kept.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import os
from collections.abc import Callable, Iterator
from typing import Any

import numba
from numba.core.caching import IndexDataCacheFile

__all__ = ["LockedCacheFile", "njit"]


class LockedCacheFile(IndexDataCacheFile):
    """Numba's index-and-data cache file, read and written under an ``flock``.

    The lock is ``<index file>.lock`` beside the index: shared for a load, exclusive
    for a save.
    """

    @contextlib.contextmanager
    def _locked(self, how: int) -> Iterator[None]:
        try:
            fd = os.open(self._index_path + ".lock", os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:  # a read-only cache folder: numba's behaviour, unlocked
            yield
            return
        try:
            try:
                fcntl.flock(fd, how)
            except OSError:  # a file system without locks: numba's behaviour, unlocked
                pass
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the lock

    def load(self, key: Any) -> Any:
        """The cached entry of ``key``, or None, read under a shared lock."""
        with self._locked(fcntl.LOCK_SH):
            return super().load(key)

    def save(self, key: Any, data: Any) -> None:
        """Save ``key``'s entry: the index read afresh under an exclusive lock, the
        data file written before the index names it."""
        with self._locked(fcntl.LOCK_EX):
            overloads = self._load_index()
            name = overloads.get(key)
            if name is None:
                taken = set(overloads.values())
                name = next(
                    n for n in map(self._data_name, itertools.count(1)) if n not in taken
                )
            self._save_data(name, data)
            overloads[key] = name
            self._save_index(overloads)


def locked(dispatcher: Any) -> Any:
    """``dispatcher`` (a cached numba function) with its cache file under the lock."""
    cache = getattr(dispatcher, "_cache", None)
    old = getattr(cache, "_cache_file", None)
    if isinstance(old, IndexDataCacheFile) and not isinstance(old, LockedCacheFile):
        new = LockedCacheFile.__new__(LockedCacheFile)
        new.__dict__.update(old.__dict__)
        cache._cache_file = new
    return dispatcher


def njit(*args: Any, **options: Any) -> Callable[..., Any]:
    """numba's ``njit`` with ``cache=True`` and the cache under a file lock.

    Used as numba's is: ``@njit``, ``@njit(nogil=True)``, or ``njit(**options)(f)``.
    """
    if args and callable(args[0]):  # @njit without options
        return locked(numba.njit(cache=True, **options)(args[0]))
    return lambda f: locked(numba.njit(*args, cache=True, **options)(f))
