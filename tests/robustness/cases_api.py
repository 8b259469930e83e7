"""Issue 35's kinds of cases (items 3, 6 and 7) as command lines for the robustness table:
numbers written every way a user writes them (profile rows, sweep axes, spec values),
a profile whose row is not a probability row (the issue's row summing to 1.2), and a
sweep's Dask scheduler set up every way (a LocalCluster, none, a wrong one).

The Python API's cases of these kinds (a result's profile changed in place, pickling,
numpy, Fraction and Decimal arguments) and a signal in the command's first instant are
Python programs (``Case.script``, run as ``python -c``): ``main()`` raising a
ToypokerError is the one-line error (exit 2), finishing is "ok", anything else a
traceback.  Their unit tests: ``tests/test_profile.py``, ``tests/test_result.py``,
``tests/test_api_numbers.py``, ``tests/cli/test_signals.py``, ``tests/sweeps/``.
"""

from __future__ import annotations

import textwrap

from .cases import FILE, K2, Case, kuhn2_infosets, lazy

SECTION = 35


def _row_cases() -> list[Case]:
    """P1's first infoset written ``{"k": "1/2", "b": VALUE}``: VALUE in every form."""
    ok = [
        ("decimal", "0.5"), ("decimal-string", '"0.5"'), ("exponent", "5e-1"),
        ("exponent-string", '"5e-1"'), ("fraction-string", '"1/2"'),
        ("float-rounding", "0.50000000000000001"), ("trailing-zeros", '"0.5000"'),
    ]  # fmt: skip
    bad = [
        ("sum-1.2", "0.7", "sum to"),  # the mutated row, as a file
        ("sum-6/5", '"7/10"', "sum to"),
        ("sum-0.9", "0.4", "sum to"),
    ]
    out = []
    for mode, extra in (("eval", ()), ("eval-exact", ("--exact",))):
        args = ("eval", K2, FILE, *extra)
        for name, literal in ok:
            made = lazy(lambda lit=literal: kuhn2_infosets(literal=lit))
            out.append(Case(f"api-row-{name}-{mode}", args, "ok", "(new kind)", SECTION,
                            files=((FILE, made),), timeout=60))  # fmt: skip
        for name, literal, match in bad:
            made = lazy(lambda lit=literal: kuhn2_infosets(literal=lit))
            out.append(Case(f"api-row-{name}-{mode}", args, "error",
                            "a row summing to 1.2 was evaluated (Python API)", SECTION,
                            files=((FILE, made),), match=match, timeout=60))  # fmt: skip
    return out


def _number_cases() -> list[Case]:
    """Numbers written as decimals, exponents and fractions where numbers go."""
    sweep = ("sweep", "eval", K2, "--scheduler", "serial", "--out", "sw", "--param")
    return [
        Case("api-sweep-axis-every-form", (*sweep, "pot=2,2.5,5/2,2.50,25e-1"), "ok",
             "numpy axes crashed tp.sweep (Python API)", SECTION, timeout=120),
        Case("api-sweep-grid-exponents", (*sweep, "pot=2e0:3e0:3"), "ok", "(new kind)",
             SECTION, timeout=120),
        Case("api-spec-pot-exponent", ("info", "kuhn(pot=4.5e0)"), "ok", "(new kind)", SECTION),
        Case("api-spec-pot-fraction", ("info", "kuhn(pot=9/2)"), "ok", "(new kind)", SECTION),
        Case("api-iterations-exponent", ("solve", K2, "--iterations", "1e3"), "error",
             "(new kind)", SECTION, match="iterations"),
    ]  # fmt: skip


def _dask_cases() -> list[Case]:
    """A sweep's scheduler: a LocalCluster that works, and wrong ones refused in a line."""
    sweep = ("sweep", "eval", K2, "--param", "pot=2,3", "--out", "sw")
    return [
        Case("api-sweep-local-cluster", (*sweep, "--scheduler", "local", "--workers", "1"),
             "ok", "worker tracebacks after Ctrl-C; a dead worker: silent", SECTION,
             timeout=240, slow=True),
        Case("api-sweep-workers-zero", (*sweep, "--scheduler", "local", "--workers", "0"),
             "error", "(new kind)", SECTION, match="workers"),
        Case("api-sweep-scheduler-no-scheme", (*sweep, "--scheduler", "localhost:8786"),
             "error", "(new kind)", SECTION, match="scheduler"),
        Case("api-sweep-scheduler-closed-port", (*sweep, "--scheduler", "tcp://127.0.0.1:9"),
             "error", "(new kind)", SECTION, match="scheduler", timeout=90),
    ]  # fmt: skip


PROGRAM = """
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np

import toypoker as tp


def main():
{body}


try:
    main()
except tp.ToypokerError as exc:
    print(f"toypoker: error: {{exc}}", file=sys.stderr)
    sys.exit(2)
"""

_CHANGED = """
g = tp.load_game("{K2}")
p = {make}
p.probs.setflags(write=True)  # the one way left to change a profile in place
{change}
print(tp.nash_conv(g, p))
"""

_START_SIGNAL = """
import signal, subprocess, time
from pathlib import Path
proc = subprocess.Popen([sys.executable, "-m", "toypoker", "solve", "leduc(players=2)",
                         "--iterations", "100000000", "--no-table"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
deadline = time.monotonic() + 60
while time.monotonic() < deadline:  # numpy's core mapped: the command is still loading
    try:
        if "_multiarray_umath" in Path(f"/proc/{proc.pid}/maps").read_text():
            break
    except OSError:
        break
    time.sleep(0.001)
proc.send_signal(signal.{sig})
out, err = proc.communicate(timeout=60)
sys.stderr.write(err)
sys.exit(0 if (proc.returncode, err) == (130, "toypoker: interrupted\\n") else 1)
"""


def _program(body: str) -> str:
    return PROGRAM.format(body=textwrap.indent(body.strip(), "    "))


def _script_cases() -> list[Case]:
    """The Python API used as issue 35 used it, and signals in the first instant."""
    E, OK = "error", "ok"
    uniform = "tp.Profile.uniform(g)"
    solved = 'tp.solve(g, "cfr+", iterations=20).profile'
    cases = [
        ("result-profile-zeroed", E, "nash_conv 0.0: a non-profile as an equilibrium",
         _CHANGED.format(K2=K2, make=solved, change="p.probs[:] = 0\np.probs[0] = 5")),
        ("profile-row-1.2", E, "a row summing to 1.2 evaluated",
         _CHANGED.format(K2=K2, make=uniform, change="p.probs[0] = 0.7")),
        ("profile-negative", E, "evaluated",
         _CHANGED.format(K2=K2, make=uniform, change="p.probs[0:2] = (-0.5, 1.5)")),
        ("from-mapping-numpy-rows", OK, "refused ('give a mapping')",
         f'g = tp.load_game("{K2}")\n'
         "tp.Profile.from_mapping(g, {i.label: np.array([0.5, 0.5]) for i in g.infosets})"),
        ("profile-decimal-array", OK, "refused",
         f'g = tp.load_game("{K2}")\n'
         'tp.Profile(g, np.array([Decimal("0.5")] * g.n_sigma, dtype=object))'),
        ("sweep-numpy-axis", OK, "TypeError traceback",
         f'tp.sweep("eval", "{K2}", {{"pot": np.array([2.0, 3.0])}}, scheduler="serial")'),
        ("sweep-numpy-float32", OK, "TypeError traceback",
         f'tp.sweep("eval", "{K2}", {{"pot": [np.float32(2.5)]}}, scheduler="serial")'),
        ("at-decimal", OK, "refused", f'tp.load_game("{K2}").at(pot=Decimal("4.5"))'),
        ("solve-decimal-seconds", OK, "refused",
         f'tp.solve(tp.load_game("{K2}"), iterations=5, seconds=Decimal("100"))'),
        ("solve-fraction-iterations", OK, "refused",
         f'tp.solve(tp.load_game("{K2}"), iterations=Fraction(5))'),
        ("solve-numpy-option", OK, "refused",
         f'tp.solve(tp.load_game("{K2}"), iterations=5, delay=np.int64(2))'),
        ("solve-snan-seconds", E, "(new kind)",
         f'tp.solve(tp.load_game("{K2}"), seconds=Decimal("sNaN"))'),
        ("solve-half-iterations", E, "(new kind)",
         f'tp.solve(tp.load_game("{K2}"), iterations=np.float64(2.5))'),
        ("start-SIGINT", OK, "KeyboardInterrupt traceback through the imports",
         _START_SIGNAL.replace("{sig}", "SIGINT")),
        ("start-SIGTERM", OK, "killed without a word",
         _START_SIGNAL.replace("{sig}", "SIGTERM")),
    ]  # fmt: skip
    return [
        Case(
            f"api-py-{name}", (name,), expect, before, SECTION, timeout=120, script=_program(body)
        )  # fmt: skip
        for name, expect, before, body in cases
    ]


API_CASES: tuple[Case, ...] = tuple(
    _row_cases() + _number_cases() + _dask_cases() + _script_cases()
)
