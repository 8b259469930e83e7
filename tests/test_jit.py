"""The kernels' on-disk cache when several processes fill it at once (toypoker.jit).

Source of the failure: a CI run of the suite (three pytest workers, cold numba cache)
crashed with SIGSEGV in ``tests/engines/vectors/test_kernel.py``; numba's index of a
function's compiled signatures is read, extended and written without a lock (numba
issue 4807), so two processes compiling two signatures at once can leave an index that
maps one signature to the other's machine code.
"""

from __future__ import annotations

import importlib
import os
import pickle  # noqa: S403 -- reads numba's own index file, written by this test's children
import pkgutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numba
import pytest

import toypoker
from toypoker.jit import LockedCacheFile

CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from numba.core.caching import IndexDataCacheFile

    here, decorator, value = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    save = IndexDataCacheFile._save_index

    def slow_save(self, overloads):  # widens the window between reading and writing the index
        time.sleep(1.0)
        save(self, overloads)

    IndexDataCacheFile._save_index = slow_save
    sys.path.insert(0, str(here))
    (here / ("ready-" + value)).touch()
    while not (here / "go").exists():
        time.sleep(0.01)
    import racemod
    print(getattr(racemod, decorator)(float(value) if "." in value else int(value)))
    """
)

MODULE = textwrap.dedent(
    """
    import numba
    import toypoker.jit

    def _plus_one(x):
        return x + 1

    plain = numba.njit(cache=True)(_plus_one)
    locked = toypoker.jit.njit(_plus_one)
    """
)


def _race(tmp_path: Path, decorator: str) -> tuple[int, list[str]]:
    """Two processes compile ``plus_one`` for an int and a float at the same moment;
    return the entries the index kept and what a third process computes from the cache."""
    (tmp_path / "racemod.py").write_text(MODULE)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    children = [
        subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), decorator, value],
                         env=env, stdout=subprocess.PIPE, text=True)  # fmt: skip
        for value in ("1", "1.5")
    ]
    deadline = time.monotonic() + 60
    while not all((tmp_path / f"ready-{v}").exists() for v in ("1", "1.5")):
        assert time.monotonic() < deadline, "the children did not start"
        time.sleep(0.01)
    (tmp_path / "go").touch()
    assert [c.communicate(timeout=120)[0].strip() for c in children] == ["2", "2.5"]
    (index,) = (tmp_path / "cache").rglob("racemod._plus_one-*.nbi")
    with index.open("rb") as f:
        pickle.load(f)  # numba's version
        _, overloads = pickle.loads(f.read())  # noqa: S301 -- numba's own index file
    reader = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import racemod
        f = racemod.{decorator}
        print(f(1), f(1.5), sum(f.stats.cache_hits.values()))
        """
    )
    out = subprocess.run([sys.executable, "-c", reader], env=env, capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    return len(overloads), [out.returncode, *out.stdout.split()]


@pytest.mark.slow
def test_two_processes_compiling_two_signatures_keep_both(tmp_path: Path) -> None:
    entries, (rc, *read) = _race(tmp_path, "locked")
    assert entries == 2
    assert rc == 0 and read == ["2", "2.5", "2"]  # both loaded from the cache, both right


@pytest.mark.slow
def test_numba_alone_loses_one_of_the_two(tmp_path: Path) -> None:
    # the race toypoker.jit exists for; if numba ever keeps both, its lock can go
    entries, _ = _race(tmp_path, "plain")
    assert entries == 1


def test_every_cached_kernel_of_the_package_saves_under_the_lock() -> None:
    found = 0
    for info in pkgutil.walk_packages(toypoker.__path__, "toypoker."):
        if ".cli" in info.name or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, numba.core.registry.CPUDispatcher):
                found += 1
                assert isinstance(value._cache._cache_file, LockedCacheFile), value
    assert found > 40
    src = Path(toypoker.__file__).parent
    direct = [p.name for p in src.rglob("*.py")
              if p.name != "jit.py" and ("from numba import njit" in p.read_text()
                                         or "numba.njit" in p.read_text())]  # fmt: skip
    assert direct == []


def test_a_file_system_without_locks_keeps_numbas_behaviour(tmp_path, monkeypatch):
    # flock can fail (ENOLCK on some network file systems): the save goes on unlocked
    import fcntl

    def no_locks(fd: int, how: int) -> None:
        raise OSError(37, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    cache = LockedCacheFile(cache_path=str(tmp_path), filename_base="f-1.py311",
                            source_stamp=(0.0, 0))  # fmt: skip
    cache.save(("sig", "target"), {"code": 1})
    assert cache.load(("sig", "target")) == {"code": 1}
