"""Issue 24, "Faults": a real SIGINT or SIGTERM sent to a real ``python -m toypoker``
child, once it has visibly started work, stops the command: exit 130, the line
``toypoker: interrupted...``, no traceback, what was finished kept and nothing
unfinished written as if final.

:data:`SIGNAL_CASES` names every long command covered here; ``solve``, ``compare``,
``trace`` and ``dynamics table1`` have their interrupt-and-resume tests beside their
other tests (test_solve.py, test_trace.py, test_dynamics.py).
"""

from __future__ import annotations

import json
import re
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import toypoker_process


@dataclass(frozen=True)
class SignalCase:
    """A long command, the stderr line that shows it is at work, and what must hold
    in its folder after the signal (``check(folder, stderr)``)."""

    id: str
    args: tuple[str, ...]
    started: str  # a stderr line matching this regex: the work has begun
    check: Callable[[Path, str], None]
    setup: tuple[str, ...] = ()  # a command run to the end first (its files then copied
    # to NAME.finished for the check)


def _literature_rows_kept(cwd: Path, err: str) -> None:
    rows = json.loads((cwd / "rows.json").read_text())
    claims = {r["claim"] for r in rows}
    # "claims: 2/..." was seen: the first claim had finished before the signal
    assert len(claims) >= 1 and all(r["status"] in ("verified", "disagrees") for r in rows)
    assert f"{len(claims)} claim(s) checked" in err and "rows.json" in err


def _detect_wrote_nothing(cwd: Path, err: str) -> None:
    # the H0 solve was cut short: no verdict on a truncated profile, no power curve
    assert "H0 solve stopped after" in err and not (cwd / "power.png").exists()
    assert "hands to detection" not in err


def _detect_h1_wrote_nothing(cwd: Path, err: str) -> None:
    # the TMECor of H1 (--h1-play team-optimal) was cut short: no verdict, no curve
    assert "H1 team-optimal solve stopped" in err and not (cwd / "power.png").exists()
    assert "hands to detection" not in err


def _table7_kept_the_finished_file(cwd: Path, err: str) -> None:
    # the finished run's equilibria stand: an interrupted run does not overwrite them
    assert (cwd / "eq.npz").read_bytes() == (cwd / "eq.finished").read_bytes()
    assert not (cwd / "bars.png").exists()


K3 = "kuhn(players=3)"


def _sweep_kept_finished_jobs(cwd: Path, err: str) -> None:
    # the first job (20 iterations) finished; the interrupted one is not recorded as done
    records = [json.loads(f.read_text()) for f in (cwd / "sw" / "jobs").glob("*.json")]
    assert [r["params"]["iterations"] for r in records] == [20], records
    assert records[0]["status"] == "ok" and "1 finished job(s) kept" in err
    assert not (cwd / "sw" / "results.csv").exists()


SIGNAL_CASES: tuple[SignalCase, ...] = (
    SignalCase(
        "sweep-serial",
        (
            "sweep",
            "solve",
            "leduc(players=2)",
            "--param",
            "iterations=20,400000,400001",
            "--scheduler",
            "serial",
            "--out",
            "sw",
        ),
        r"toypoker: sweep solve: 1/3",
        _sweep_kept_finished_jobs,
    ),  # fmt: skip
    SignalCase(
        "collusion-table7",
        (
            "collusion",
            "table7",
            K3,
            "--iterations",
            "100000000",
            "--save",
            "eq.npz",
            "--plot",
            "bars.png",
        ),
        r"toypoker: collusion solves: .*game cfr\+",
        _table7_kept_the_finished_file,
        setup=("collusion", "table7", K3, "--iterations", "20", "--save", "eq.npz"),
    ),  # fmt: skip
    SignalCase(
        "detect",
        (
            "detect",
            K3,
            "--collusion",
            f"{K3[:-1]},team=12,sharing=win,strong=true)",
            "--iterations",
            "100000000",
            "--plot",
            "power.png",
        ),
        r"toypoker: H0: cfr\+ .*: [1-9]",
        _detect_wrote_nothing,
    ),  # fmt: skip
    SignalCase(
        "detect-team-optimal",
        (
            "detect",
            "kuhn(players=3,cards=6)",
            "--collusion",
            "kuhn(players=3,cards=6,team=12)",
            "--h1-play",
            "team-optimal",
            "--iterations",
            "20",
            "--team-seconds",
            "600",
            "--plot",
            "power.png",
        ),
        # the weak team's TMECor in six-card Kuhn: a MILP oracle call takes seconds
        # from the second plan on (measured: 5 plans in 32 s)
        r"toypoker: H1: team-optimal .*plans [1-9]",
        _detect_h1_wrote_nothing,
    ),  # fmt: skip
    SignalCase(
        "literature-check",
        ("literature", "check", "-o", "rows.json"),
        r"toypoker: claims: ([2-9]|\d\d+)/",
        _literature_rows_kept,
    ),
)


def run_and_signal(args: tuple[str, ...], started: str, sig: int, cwd: Path) -> tuple[int, str]:
    """Start ``toypoker ARGS`` in ``cwd`` (progress lines at every update), wait however
    long it takes for a stderr line matching ``started``, send ``sig``; returns the
    exit status and the whole stderr."""
    proc = toypoker_process(*args, cwd=cwd, env={"TOYPOKER_PROGRESS_EVERY": "0"})
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(proc.stderr.readline, "")))
    reader.start()
    t0 = time.monotonic()
    try:
        while not any(re.search(started, line) for line in list(seen)):
            assert proc.poll() is None, f"ended before {started!r}: {''.join(seen)}"
            assert time.monotonic() - t0 < 300, f"no {started!r} in 300 s: {''.join(seen)}"
            time.sleep(0.05)
        proc.send_signal(sig)
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        reader.join(timeout=60)
    return proc.returncode, "".join(seen)


def _params():
    for case in SIGNAL_CASES:
        for sig in (signal.SIGINT, signal.SIGTERM):
            # a fresh interpreter, numba's start-up and the work before the signal: 5-10 s
            yield pytest.param(case, sig, id=f"{case.id}-{sig.name}", marks=[pytest.mark.slow])


@pytest.mark.parametrize("case,sig", list(_params()))
def test_signal_stops_the_command(case: SignalCase, sig: int, tmp_path: Path) -> None:
    if case.setup:
        done = toypoker_process(*case.setup, cwd=tmp_path)
        _, err = done.communicate(timeout=300)
        assert done.returncode == 0, err
        for f in list(tmp_path.iterdir()):
            f.with_name(f.name.rsplit(".", 1)[0] + ".finished").write_bytes(f.read_bytes())
    code, err = run_and_signal(case.args, case.started, sig, tmp_path)
    assert code == 130, err
    assert "Traceback" not in err and "SystemError" not in err, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("toypoker: interrupted"), err
    case.check(tmp_path, err)
