"""Thread control: BLAS/OpenMP limits inside a block, numba threads set explicitly."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from threadpoolctl import threadpool_info

from toypoker import threads
from toypoker.errors import ToypokerError


def blas_threads() -> list[int]:
    return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]


def test_limit_blas_limits_and_restores():
    np.dot(np.ones((4, 4)), np.ones((4, 4)))  # BLAS loaded
    before = blas_threads()
    with threads.limit_blas(1) as n:
        assert n == 1
        assert all(x == 1 for x in blas_threads())
    assert blas_threads() == before


def test_default_is_one_thread_and_settable(monkeypatch):
    monkeypatch.setattr(threads, "DEFAULT_BLAS_THREADS", 1)
    with threads.limit_blas() as n:
        assert n == 1
    threads.set_default_blas_threads(None)
    with threads.limit_blas() as n:
        assert n is None
    threads.set_default_blas_threads(2)
    assert threads.DEFAULT_BLAS_THREADS == 2


def test_decorator_runs_limited(monkeypatch):
    monkeypatch.setattr(threads, "DEFAULT_BLAS_THREADS", 1)

    @threads.blas_limited
    def f() -> list[int]:
        return blas_threads()

    assert all(x == 1 for x in f())


def test_numba_threads_explicit():
    before = numba.get_num_threads()
    try:
        assert threads.set_numba_threads(1) == 1
        assert numba.get_num_threads() == 1
        assert threads.set_numba_threads() >= 1
    finally:
        numba.set_num_threads(before)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_bad_counts_raise(bad):
    with pytest.raises(ToypokerError):
        threads.set_numba_threads(bad)
    with pytest.raises(ToypokerError):
        with threads.limit_blas(bad):
            pass
    with pytest.raises(ToypokerError):
        threads.set_default_blas_threads(bad)


def test_too_many_numba_threads_raise():
    with pytest.raises(ToypokerError):
        threads.set_numba_threads(int(numba.config.NUMBA_NUM_THREADS) + 1)


def test_configure_and_info(monkeypatch):
    monkeypatch.setattr(threads, "DEFAULT_BLAS_THREADS", 1)
    monkeypatch.setattr(threads, "DEFAULT_KERNEL_THREADS", None)
    before = numba.get_num_threads()
    try:
        threads.configure(1)
        info = threads.thread_info()
        assert info["numba"] == 1
        assert threads.DEFAULT_BLAS_THREADS == 1
        assert threads.kernel_thread_count() == 1  # the vector kernels' count too
    finally:
        numba.set_num_threads(before)


def test_kernel_threads_nest_and_restore(monkeypatch):
    monkeypatch.setattr(threads, "DEFAULT_KERNEL_THREADS", None)
    pool = int(numba.config.NUMBA_NUM_THREADS)
    every = threads.kernel_thread_count()
    assert 1 <= every <= pool  # default: every CPU (numba's pool at most)
    with threads.kernel_threads(1) as n:
        assert n == threads.kernel_thread_count() == 1
        with threads.kernel_threads() as inner:  # None keeps the enclosing count
            assert inner == 1
        with threads.kernel_threads(pool + 5) as inner:  # more than the pool: the pool
            assert inner == pool
        assert threads.kernel_thread_count() == 1
    assert threads.kernel_thread_count() == every
    threads.set_default_kernel_threads(1)
    assert threads.kernel_thread_count() == 1


def test_use_kernel_threads_sets_numba():
    before = numba.get_num_threads()
    try:
        with threads.kernel_threads(1):
            assert threads.use_kernel_threads() == 1
            assert numba.get_num_threads() == 1
    finally:
        numba.set_num_threads(before)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_bad_kernel_counts_raise(bad):
    with pytest.raises(ToypokerError):
        with threads.kernel_threads(bad):
            pass
    with pytest.raises(ToypokerError):
        threads.set_default_kernel_threads(bad)
