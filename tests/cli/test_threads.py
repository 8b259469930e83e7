"""The global ``--threads`` option (issue 11, item 3): honoured for BLAS and numba."""

from __future__ import annotations

import numba

from toypoker import threads


def test_threads_option_sets_blas_and_numba(cli):
    before_blas, before_numba = threads.DEFAULT_BLAS_THREADS, numba.get_num_threads()
    try:
        code, out, _ = cli("--threads", "1", "info", "kuhn(players=2)")
        assert code == 0 and "kuhn" in out
        assert threads.DEFAULT_BLAS_THREADS == 1
        assert numba.get_num_threads() == 1
        assert threads.kernel_thread_count() == 1  # the vector kernels' subtrees
        with threads.limit_blas():  # the library's limited blocks use the configured count
            for pool in threads.thread_info()["blas"]:
                assert pool["threads"] == 1
    finally:
        threads.set_default_blas_threads(before_blas)
        threads.set_default_kernel_threads(None)
        numba.set_num_threads(before_numba)


def test_bad_thread_count_is_one_line(one_line_error):
    assert "threads" in one_line_error("--threads", "0", "info", "kuhn(players=2)")
