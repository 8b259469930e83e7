"""Shared fixtures, and how the tests are shared between pytest-xdist's workers.

Compiled games are immutable, so each spec is compiled once per test session:
tests take the ``game`` fixture and call it with a spec string.

The workers (``-n 3 --dist loadgroup --no-loadscope-reorder``, pyproject.toml) take the
tests in the order of :func:`pytest_collection_modifyitems`: the literature check's parts
first (``xdist_group("claims-...")``, minutes each), then the other slow cases, then the
quick ones, so that the long ones start early and the short ones fill the end.  Tests of
a module that share a module- or class-scoped fixture stay on one worker (one group per
module: the fixture is computed once); every other test goes to whichever worker is free.
"""

from __future__ import annotations

import copyreg
import pickle
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from toypoker import Game
from toypoker.games import load_rows  # the deal table: these tests read its rows

_COMPILED: dict[str, Game] = {}


@pytest.fixture(scope="session")
def game() -> Callable[[str], Game]:
    """``game(spec)``: the compiled game, compiled once per session."""

    def get(spec: str) -> Game:
        if spec not in _COMPILED:
            _COMPILED[spec] = load_rows(spec)
        return _COMPILED[spec]

    return get


def game_pickles() -> bool:
    """Whether a compiled :class:`~toypoker.Game` pickles (the lead's ``Game.__reduce__``)."""
    try:
        pickle.dumps(load_rows("kuhn(players=2)"))
    except (TypeError, AttributeError, pickle.PicklingError):
        return False
    return True


@pytest.fixture
def pickled_games() -> Iterator[None]:
    """Games pickle within the test: by their own ``__reduce__`` once they have one,
    until then by a stand-in that pickles a game as its spec (``load_rows(spec)``
    rebuilds it), so that what holds a game -- a profile, a result -- is tested now."""
    if game_pickles():
        yield
        return
    copyreg.pickle(Game, lambda g: (load_rows, (g.spec,)))
    try:
        yield
    finally:
        copyreg.dispatch_table.pop(Game, None)


@pytest.fixture(autouse=True)
def _budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory budget the tests were written against, 2 GiB, whatever this machine's
    default (half its memory): the refusals they check stay the same on every machine
    (a test that needs more sets ``TOYPOKER_MAX_BYTES`` itself)."""
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", str(2**31))


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261121)


#: modules whose shared fixtures cost less than keeping their tests on one worker
#: would: their tests go to the workers one by one all the same
CHEAP_SHARED = {
    "tests/robustness/test_cases.py",  # a fork server a worker (a second or two)
    "tests/robustness/test_fuzz.py",  # Kuhn poker compiled
    "tests/games/test_rhode_island.py",  # a small deck compiled (under a second)
    "tests/test_checks.py",  # Kuhn poker compiled
}


def _shares_a_fixture(item: pytest.Item) -> bool:
    """Whether ``item`` uses a module-, class- or package-scoped fixture."""
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs.values() if info is not None else ()
    return any(d[-1].scope in ("module", "class", "package") for d in defs if d)


def pytest_configure(config: pytest.Config) -> None:
    """A suite started with SIGINT ignored (``pytest ... &`` from a script: a shell
    without job control starts background commands so) gets Python's handler back.  The
    signal tests send SIGINT to child processes, and an ignored disposition survives
    ``exec``: every child would ignore it as well, and seven tests fail for a reason
    that is the shell's, not toypoker's."""
    del config
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups into the test ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Order the tests (the claims' parts, other slow cases, quick ones: a stable sort)
    and put the tests of a module that share a fixture in one group (module docstring)."""
    root = Path(str(config.rootpath))
    for item in items:
        module = item.path.relative_to(root).as_posix()
        if item.get_closest_marker("xdist_group") is None and module not in CHEAP_SHARED:
            if _shares_a_fixture(item):
                item.add_marker(pytest.mark.xdist_group(module))

    def rank(item: pytest.Item) -> int:
        group = item.get_closest_marker("xdist_group")
        if group is not None and str(group.args[0] if group.args else "").startswith("claims-"):
            return 0
        return 1 if item.get_closest_marker("slow") is not None else 2

    items.sort(key=rank)


@pytest.fixture
def char_device(tmp_path) -> Callable[[str], Path]:
    """``char_device("null")`` (or ``"full"``): a character device to write to that a
    test may break without harm -- its own node made in ``tmp_path`` as root (a writer
    that replaced the device then replaces this copy, never the machine's ``/dev/null``),
    the system's as another user (who cannot replace it)."""
    import os
    import stat

    numbers = {"null": 3, "full": 7}  # Linux's mem devices, major 1 (devices.txt)

    def make(name: str) -> Path:
        if os.geteuid() != 0:
            return Path("/dev") / name
        node = tmp_path / f"dev-{name}"
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, numbers[name]))
        return node

    return make
