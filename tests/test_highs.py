"""HiGHS's banner never reaches toypoker's standard output (issue 34 item 4)."""

import subprocess
import sys

import pytest

pytest.importorskip("highspy")

_BANNER = "Running HiGHS"  # highspy 1.16's first line: "Running HiGHS 1.16.0 (git hash ...)"


@pytest.mark.parametrize("silenced", [False, True])
def test_the_first_highs_model_prints_no_banner_once_silenced(silenced):
    # before: `collusion table7` / `tmecor` output carried HiGHS's copyright banner,
    # printed from C++ by the process's first highspy.Highs(), whatever its options
    code = (
        "import highspy\n"
        + ("from toypoker.highs import silence_banner\nsilence_banner()\n" if silenced else "")
        + "h = highspy.Highs()\nh.setOptionValue('output_flag', False)\nprint('done')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)  # fmt: skip
    assert (_BANNER in done.stdout) is not silenced  # the unsilenced run shows the need
    assert done.stdout.endswith("done\n")


def test_a_signal_while_highs_runs_stops_the_solve_at_once():
    # issue 47: `solve --method lp` on rhode_island(ranks=3,suits=4) went on "solving"
    # 300 s after SIGINT: HiGHS runs in C++ and Python's handlers wait for it.  A solve
    # that releases the GIL (here a 30 s sleep) run through interruptible() hears a
    # SIGINT sent 0.5 s in: KeyboardInterrupt within a second, not after 30 s.
    code = (
        "import os, signal, threading, time\n"
        "from toypoker.highs import interruptible\n"
        "threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()\n"
        "t0 = time.monotonic()\n"
        "try:\n"
        "    interruptible(time.sleep, 30)\n"
        "except KeyboardInterrupt:\n"
        "    print(f'interrupted after {time.monotonic() - t0:.1f} s')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.stdout.startswith("interrupted after "), (done.stdout, done.stderr)
    assert float(done.stdout.split()[2]) < 2.0


def test_interruptible_returns_and_raises_what_the_solve_does():
    from toypoker.highs import interruptible

    assert interruptible(divmod, 7, 2) == (3, 1)
    with pytest.raises(ZeroDivisionError):
        interruptible(divmod, 7, 0)


_ABANDON = (
    "import _thread, threading, time\n"
    "import numpy as np, scipy.sparse as sp\n"
    "from scipy.optimize import linprog\n"
    "from toypoker.highs import abandoned, interruptible\n"
    "n = 12000  # a random LP HiGHS takes about 5 s on\n"
    "A = sp.random(n, n, density=0.002, random_state=1, format='csr')\n"
    "rng = np.random.default_rng(0)\n"
    "c, b = rng.standard_normal(n), np.abs(rng.standard_normal(n)) + 1\n"
    "threading.Timer({delay}, _thread.interrupt_main).start()\n"
    "try:\n"
    "    interruptible(linprog, c, A_ub=A, b_ub=b, bounds=(-10, 10), method='highs')\n"
    "except KeyboardInterrupt:\n"
    "    print('interrupted; still solving:', abandoned(), flush=True)\n"
)


@pytest.mark.parametrize("delay", [0.2, 0.6])
def test_a_process_ending_while_an_abandoned_solve_runs_exits_130_not_a_crash(delay):
    # CI, stop 51: `collusion table7` interrupted ended with SIGSEGV after saying what it
    # kept; by hand, a script that exits while HiGHS still runs in a thread crashed 1 in 6
    # ("terminate called without an active exception", SIGABRT): C++'s static
    # destructors run under the solve.  The process now ends past them, with 130.
    done = subprocess.run([sys.executable, "-c", _ABANDON.format(delay=delay)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.stdout == "interrupted; still solving: True\n", (done.stdout, done.stderr)
    assert done.returncode == 130, done.stderr
    assert "terminate called" not in done.stderr


def test_every_highs_solve_in_the_package_hears_signals() -> None:
    """Issue 47, fourth audit round (N182): ``collusion tmecor --oracle exact`` ran its
    first exact joint response (a HiGHS MILP) in the main thread, deaf to Ctrl-C for
    25 s; a second Ctrl-C was ignored too.  Every HiGHS call of the package (scipy's
    ``linprog``/``milp``, a ``highspy`` model's ``run``) goes through
    :func:`toypoker.highs.interruptible`: none is called directly."""
    import ast
    from pathlib import Path

    import toypoker

    direct = []
    for path in sorted(Path(toypoker.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if isinstance(f, ast.Name) and f.id in ("linprog", "milp"):
                direct.append(f"{path.name}:{node.lineno} {f.id}")
            elif isinstance(f, ast.Attribute) and f.attr == "run" and "highspy" in path.read_text():
                direct.append(f"{path.name}:{node.lineno} .run")
    assert direct == []
