"""The vector kernel's iterates, bit for bit, against a fixture the kernel wrote
(``kernel_iterates.json``: a change to its passes must keep every iterate), and its
iteration map against the numpy reference to 1e-12.

30 iterations of PDCFR+ and DCFR+ (alternating, their defaults) from the uniform start,
on one thread and, the size floor lowered to 0, on two (the subtrees on threads): the
SHA-256 of the bytes of ``sigma``, ``regrets`` and ``average`` must be the fixture's.
Regenerate the fixture only from a kernel known to be right::

    python tests/engines/vectors/test_kernel_iterates.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np
import pytest

import toypoker as tp
from toypoker.engines.evaluation import vector_of
from toypoker.engines.vectors import kernel as K
from toypoker.engines.vectors import regrets as VC
from toypoker.solvers import cfr as C
from toypoker.solvers.registry import METHODS as REGISTRY

FIXTURE = Path(__file__).with_name("kernel_iterates.json")
SPECS = ["rhode_island(ranks=4,suits=2)", "rhode_island(players=3,ranks=3,suits=2,cap=1)"]
METHODS = ["pdcfr+", "dcfr+"]
ITERATIONS = 30


def _run(spec: str, method: str, threads: int) -> object:
    solver = tp.Solver(tp.load_game(spec, layout="vector"), method, threads=threads)
    solver.step(ITERATIONS)
    return solver.state


def _digests(state: object) -> dict[str, str]:
    return {name: hashlib.sha256(np.ascontiguousarray(getattr(state, name)).tobytes()).hexdigest()
            for name in ("sigma", "regrets", "average")}  # fmt: skip


def _key(spec: str, method: str) -> str:
    return f"{spec} {method}"


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("method", METHODS)
def test_iterates_equal_the_fixture(spec: str, method: str) -> None:
    want = json.loads(FIXTURE.read_text())[_key(spec, method)]
    assert _digests(_run(spec, method, 1)) == want


@pytest.mark.skipif(int(numba.config.NUMBA_NUM_THREADS) < 2, reason="numba's pool has one thread")
@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("method", METHODS)
def test_iterates_on_threads_equal_the_fixture(
    spec: str, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(K.VectorKernel, "min_parallel_entries", 0)
    want = json.loads(FIXTURE.read_text())[_key(spec, method)]
    assert _digests(_run(spec, method, 2)) == want


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("method", METHODS)
def test_iteration_map_matches_the_reference_engine(spec: str, method: str) -> None:
    # from the reference's own state at every iteration (whole trajectories may part
    # by rounding: tests/engines/vectors/test_kernel.py), regrets and average to 1e-12
    from .maps import assert_same_map  # here: the file also runs as a script (--write)

    vg = vector_of(tp.load_game(spec, layout="vector"))
    ref = replace(REGISTRY[method].defaults, backend=C.Backend.NUMPY)
    fused = replace(ref, backend=C.Backend.NUMBA)
    assert_same_map(lambda s: VC.step(vg, s, ref), lambda s: VC.step(vg, s, fused), VC.init(vg),
                    ITERATIONS)  # fmt: skip


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    table = {_key(s, m): _digests(_run(s, m, 1)) for s in SPECS for m in METHODS}
    FIXTURE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {FIXTURE}")
