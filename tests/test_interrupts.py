"""Interrupts CPython drops still stop the run (toypoker.interrupts)."""

from __future__ import annotations

import ctypes
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import toypoker as tp
from toypoker import interrupts
from toypoker.cli import main

# the dropped exception is reported by pytest as unraisable: that is the point here
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


@contextmanager
def dropped_interrupt() -> Iterator[None]:
    """A SIGTERM whose KeyboardInterrupt CPython printed as "Exception ignored" and
    dropped: raised inside a ctypes callback, as when it lands while numba's llvmlite
    runs its object-cache callback.  Seen in CI: ``collusion table7 --iterations
    100000000`` went on for minutes after SIGTERM."""
    interrupts.forget_interrupts()
    callback = ctypes.CFUNCTYPE(None)(lambda: interrupts.interrupt_now(signal.SIGTERM, None))
    callback()  # returns normally: the exception is gone
    try:
        yield
    finally:
        interrupts.forget_interrupts()


def test_a_dropped_interrupt_stops_the_next_solve_before_its_first_step() -> None:
    game = tp.load_game("kuhn(players=3)")
    with dropped_interrupt(), pytest.raises(tp.Interrupted) as stop:
        tp.solve(game, method="cfr+", iterations=10**8)
    result = stop.value.result
    assert result.stopped == "interrupted"
    assert result.iterations == 0


def test_without_an_interrupt_the_solve_runs_its_iterations() -> None:
    interrupts.forget_interrupts()
    result = tp.solve(tp.load_game("kuhn(players=3)"), method="cfr+", iterations=7)
    assert result.stopped == "iterations" and result.iterations == 7


@pytest.mark.usefixtures("capsys")
def test_a_command_forgets_the_interrupts_of_the_one_before() -> None:
    with dropped_interrupt():
        assert main(["solve", "kuhn", "--iterations", "5"]) == 0
        # and the Python API after it starts clean as well
        result = tp.solve(tp.load_game("kuhn"), method="cfr+", iterations=5)
    assert result.iterations == 5


def test_a_dropped_interrupt_prints_no_traceback() -> None:
    """CI (stop 31): SIGTERM while numba loaded a kernel from its cache printed
    "Exception ignored on calling ctypes callback function ... Traceback ...
    KeyboardInterrupt" above toypoker's own "interrupted" lines: CPython hands the
    dropped exception to ``sys.unraisablehook``, which printed it.  The hook in place
    before the block (here a list, not pytest's) must not receive it."""
    import sys

    seen: list[object] = []
    before = sys.unraisablehook
    sys.unraisablehook = seen.append
    interrupts.forget_interrupts()
    callback = ctypes.CFUNCTYPE(None)(lambda: interrupts.interrupt_now(signal.SIGTERM, None))
    try:
        with interrupts.quiet_dropped_interrupts():
            callback()
        assert interrupts._SEEN[0]  # remembered, so the next step stops
        callback()  # outside the block: the hook before it gets it, as without toypoker
    finally:
        sys.unraisablehook = before
        interrupts.forget_interrupts()
    assert [getattr(u, "exc_type", None) for u in seen] == [KeyboardInterrupt]


def test_other_unraisable_errors_still_reach_the_previous_hook() -> None:
    import sys

    seen: list[object] = []
    before = sys.unraisablehook
    sys.unraisablehook = seen.append
    try:
        with interrupts.quiet_dropped_interrupts():
            ctypes.CFUNCTYPE(None)(lambda: 1 / 0)()
        assert sys.unraisablehook == seen.append  # restored
    finally:
        sys.unraisablehook = before
    assert len(seen) == 1 and getattr(seen[0], "exc_type", None) is ZeroDivisionError


def _half_built() -> object:
    """An object whose finalizer fails as llvmlite's do when an interrupt stopped numba
    half-way through building one (CI-like run of tests/cli/test_signals.py,
    collusion-table7-SIGINT: "Exception ignored in: <function ObjectRef.__del__> ...
    AttributeError: 'PassBuilder' object has no attribute '_as_parameter_'", printed
    after toypoker's own "interrupted" line)."""

    class PassBuilder:
        def __del__(self) -> None:
            raise AttributeError("'PassBuilder' object has no attribute '_as_parameter_'")

    PassBuilder.__del__.__module__ = "llvmlite.binding.ffi"
    return PassBuilder()


class _Other:
    def __del__(self) -> None:
        raise ValueError("not an interrupt's debris")


def _unraisable_seen(body) -> list[object]:
    import sys

    seen: list[object] = []
    before = sys.unraisablehook
    sys.unraisablehook = seen.append
    try:
        body()
    finally:
        sys.unraisablehook = before
        interrupts.forget_interrupts()
    return [getattr(u, "exc_type", None) for u in seen]


def test_llvmlite_debris_is_quiet_only_after_an_interrupt() -> None:
    def after_an_interrupt() -> None:
        interrupts.forget_interrupts()
        with interrupts.quiet_dropped_interrupts():
            ctypes.CFUNCTYPE(None)(lambda: interrupts.interrupt_now(signal.SIGINT, None))()
            half = _half_built()
            del half  # the interrupt's debris: not printed
            other = _Other()
            del other  # anything else: printed as before

    def without_one() -> None:
        interrupts.forget_interrupts()
        with interrupts.quiet_dropped_interrupts():
            half = _half_built()
            del half  # no interrupt came: a real llvmlite error, printed

    assert _unraisable_seen(after_an_interrupt) == [ValueError]
    assert _unraisable_seen(without_one) == [AttributeError]


def test_an_interrupted_process_exits_without_the_debris() -> None:
    def exiting() -> None:
        interrupts.quiet_at_exit()  # the command line's run() after an exit 130
        half = _half_built()
        del half
        other = _Other()
        del other

    assert _unraisable_seen(exiting) == [ValueError]


@pytest.mark.parametrize(
    ("argv", "orig", "ours"),
    [
        (["/usr/bin/toypoker", "solve"], ["python", "/usr/bin/toypoker", "solve"], True),
        (["-m", "solve"], ["python", "-m", "toypoker", "solve"], True),
        (["-m"], ["python3", "-X", "importtime", "-mtoypoker"], True),
        (["-m"], ["python", "-m", "pytest", "tests"], False),
        (["-c"], ["python", "-c", "import toypoker"], False),
        (["script.py"], ["python", "script.py", "-m", "toypoker"], False),
        ([], ["python"], False),
    ],
)
def test_only_the_command_is_armed_at_import(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], orig: list[str], ours: bool
) -> None:
    """Issue 35: the command's early handler (one line for a Ctrl-C while it loads) is
    for the ``toypoker`` command only: a program importing the library keeps its own."""
    monkeypatch.setattr("sys.argv", argv)
    monkeypatch.setattr("sys.orig_argv", orig)
    assert interrupts.is_command_line() is ours


def test_importing_the_library_changes_no_signal_handler() -> None:
    """A script that imports toypoker (in a fresh interpreter) keeps Python's handlers."""
    import subprocess
    import sys

    code = (
        "import signal, toypoker, toypoker.cli\n"
        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler,"
        " signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.stdout.split() == ["True", "True"], done.stderr


_LOOP = """
import os, signal
import toypoker as tp
g = tp.load_game("kuhn(players=3)")
sent = []
def ctrl_c(t, nash_conv):
    if t >= 50 and not sent:  # a real Ctrl-C, in solve 0
        sent.append(t)
        os.kill(os.getpid(), signal.SIGINT)
for i in range(3):
    r = tp.solve(g, "cfr+", iterations=3000, progress=ctrl_c if i == 0 else None)
    print("solve", i, r.iterations, r.stopped.value, flush=True)
print("loop finished")
"""


def test_a_ctrl_c_in_a_script_stops_the_script_not_only_its_solve() -> None:
    # issue 47, audit case R191: a script looping over tp.solve went on with solves 1 and
    # 2 after a Ctrl-C in solve 0 ('loop finished', exit 0): the interrupted solve
    # returned its result.  It now raises tp.Interrupted (a KeyboardInterrupt) carrying it.
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _LOOP], capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.stdout == "", done.stdout
    # and it ends as an uncaught Ctrl-C does (killed by SIGINT: 130 in a shell), not 1
    # (audit round 3, RC1: CPython gives that ending to the exact KeyboardInterrupt only)
    assert done.returncode == -signal.SIGINT, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("toypoker.errors.Interrupted: cfr+ stopped by an interrupt after ")
    assert last.endswith(" iterations; what it computed is this exception's .result"), last


@pytest.mark.parametrize("budget", [{"iterations": 40}, {"target_nash_conv": 0.05}])
def test_a_signal_during_the_last_step_is_not_dropped(budget) -> None:
    # audit round 3 (LOSTA, CP1, T7RACE): a Ctrl-C that came during a run's last step or
    # final check was acknowledged, then dropped: the run returned as finished and the
    # script (or compare's next method, or table7's next solve) ran on
    import os

    game = tp.load_game("kuhn(players=3)")
    interrupts.forget_interrupts()
    last = [0]

    def progress(t: int, nash_conv: float | None) -> None:
        last[0] = t
        done = t >= budget.get("iterations", 10**9) or (
            nash_conv is not None and nash_conv <= budget.get("target_nash_conv", -1)
        )
        if done:  # the run is over after this step: the signal lands in its last moment
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(tp.Interrupted) as stop:
        tp.solve(game, "cfr+", progress=progress, **budget)
    assert stop.value.result.iterations == last[0]
    interrupts.forget_interrupts()
