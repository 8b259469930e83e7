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
