"""Issue 24, "Faults": a real SIGINT or SIGTERM sent to a real ``python -m toypoker``
child, once it has visibly started work, stops the command: exit 130, the line
``toypoker: interrupted...``, no traceback, what was finished kept and nothing
unfinished written as if final.

:data:`SIGNAL_CASES` names every command of the CLI that runs longer than a second,
each sent one of the two signals, in turn (the command line handles both with one
handler, :func:`toypoker.interrupts.interrupt_now`, and so does every deferred block:
tested below); ``solve``, ``compare``, ``trace``, ``dynamics table1`` and
``collusion tmecor`` also have interrupt-and-resume tests (the resumed result equals an
uninterrupted one) beside their other tests (test_solve.py, test_trace.py,
test_dynamics.py, test_collusion.py).  The other commands (``games``, ``info``,
``eval``, ``verify``, ``equilibria``, ``export``, ``import-acpc``) are one step each,
without progress lines: a signal raises ``KeyboardInterrupt`` there, which ``main``
reports (exit 130), and they write their one output file atomically after the work.
Every child process a command started must be gone when it exits
(:func:`run_and_signal`).
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

from .conftest import signal_when, toypoker_process


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
    # and says how to go on without running them again (tests/cli/test_literature.py)
    assert "resume with: toypoker literature check -o rows.json --resume rows.json" in err


def _detect_wrote_nothing(cwd: Path, err: str) -> None:
    # the H0 solve was cut short: no verdict on a truncated profile, no power curve
    assert "H0 solve stopped after" in err and not (cwd / "power.png").exists()
    assert "hands to detection" not in err


def _detect_h1_wrote_nothing(cwd: Path, err: str) -> None:
    # the TMECor of H1 (--h1-play team-optimal) was cut short: no verdict, no curve
    assert "H1 team-optimal solve stopped" in err and not (cwd / "power.png").exists()
    assert "hands to detection" not in err


def _table7_kept_the_finished_file(cwd: Path, err: str) -> None:
    # the finished run's equilibria stand; the interrupted one kept none (0 solved)
    assert (cwd / "eq.npz").read_bytes() == (cwd / "eq.finished").read_bytes()
    assert not (cwd / "bars.png").exists() and not (cwd / "eq2.npz").exists()


K3 = "kuhn(players=3)"


def _sweep_kept_finished_jobs(cwd: Path, err: str) -> None:
    # the first job (20 iterations) finished; the interrupted one is not recorded as done
    records = [json.loads(f.read_text()) for f in (cwd / "sw" / "jobs").glob("*.json")]
    assert [r["params"]["iterations"] for r in records] == [20], records
    assert records[0]["status"] == "ok" and "1 finished job(s) kept" in err
    assert not (cwd / "sw" / "results.csv").exists()


def _play_wrote_nothing(cwd: Path, err: str) -> None:
    # one compiled run is one step: stopped when it returned, nothing written
    assert "the run is not written" in err and not (cwd / "d").exists()


def _ode_kept_the_finished_files(cwd: Path, err: str) -> None:
    # the steps before the basin grid wrote their files whole; the grid's are absent
    assert (cwd / "d" / "ode.csv").read_text().startswith("t,b_J,c_K,d_Q,E1,E2,E3\n")
    assert (cwd / "d" / "fig7_limit_cycles.png").stat().st_size > 0
    assert not (cwd / "d" / "basins.csv").exists() and "kept in d/" in err


def _estimators_wrote_nothing(cwd: Path, err: str) -> None:
    # the figures need every run: none drawn from part of them
    assert re.search(r"\d+ of 12 runs done", err) and not list(cwd.glob("d/*.png"))


def _reproduce_kept_the_finished_item(cwd: Path, err: str) -> None:
    # the first item finished and is in the cache; the interrupted one is not; no report
    # (an item's record is its ITEM-KEY.json; the unfinished one's work folder may be
    # there, empty or partial, and is redone on the rerun)
    kept = [f.name for f in (cwd / "rep" / "items").glob("*.json")]
    assert len(kept) == 1 and kept[0].startswith("kuhn-basic-"), kept
    assert not (cwd / "rep" / "index.html").exists() and "resume with: toypoker reproduce" in err
    # stopped inside an item's command (compare, after its first method): reproduce's own
    # resume command only, and the item's partial file in its folder, not the cwd
    # (issue 47: "7 finished methods saved in compare-kuhn-2p.json; resume with:
    # toypoker compare ...", written where the user stood)
    assert "toypoker compare" not in err and not list(cwd.glob("compare-*")), err


def _solve_saved_a_checkpoint(cwd: Path, err: str) -> None:
    # the state so far is in the checkpoint, with the command that resumes it
    # (exact resumption: test_solve.py::test_ctrl_c_during_solve_saves_and_resumes_exactly)
    assert (cwd / "ck.npz").stat().st_size > 0 and "--resume ck.npz" in err


def _seeds_kept_finished_seeds(cwd: Path, err: str) -> None:
    # the first seed finished (the second too, when the signal came late: a cold numba
    # cache makes the first seed slow and the others fast), the next stopped with its
    # state saved; no summary over a part of the seeds is printed as the result
    assert re.search(r"\([12] of 3 seeds done\)", err), err
    assert "--resume" in err and "spread" not in err


def _compare_kept_finished_methods(cwd: Path, err: str) -> None:
    # cfr+ finished before fp began: it is kept in --result, fp is not
    done = [m["method"] for m in json.loads((cwd / "cmp.json").read_text())["methods"]]
    assert done == ["cfr+"] and not (cwd / "cmp.png").exists(), done


def _trace_kept_the_curve_so_far(cwd: Path, err: str) -> None:
    # the points traced so far are saved, with the command that continues the curve
    # (exact continuation: test_trace.py::test_ctrl_c_during_trace_saves_and_resumes)
    assert (cwd / "t" / "curve.csv").read_text().count("\n") >= 2 and "--resume" in err


def _table1_kept_finished_runs(cwd: Path, err: str) -> None:
    # each finished run is its own file; the table is not written from part of them
    assert list((cwd / "t1" / "table1-runs").glob("run-*.npz")) and "resume with:" in err


def _tmecor_printed_a_valid_bracket(cwd: Path, err: str) -> None:
    assert "the bracket above is valid, not converged" in err


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
        "solve",
        (
            "solve",
            "leduc(players=2)",
            "--iterations",
            "100000000",
            "--checkpoint",
            "ck.npz",
            "--no-table",
        ),
        r"toypoker: cfr\+ leduc.*: [1-9]\d*/",
        _solve_saved_a_checkpoint,
    ),  # fmt: skip
    SignalCase(
        "solve-seeds",
        (
            "solve",
            "leduc(players=2)",
            "--method",
            "es-mccfr",
            "--iterations",
            "20000",
            "--seeds",
            "3",
            "--no-table",
        ),
        r"toypoker: es-mccfr leduc.*: seeds: 1/3",
        _seeds_kept_finished_seeds,
    ),  # fmt: skip
    SignalCase(
        "compare",
        (
            "compare",
            "kuhn(players=2)",
            "--methods",
            "cfr+,fp",
            "--seconds",
            "10",
            "--result",
            "cmp.json",
            "--plot",
            "cmp.png",
        ),
        r"^toypoker: fp ",
        _compare_kept_finished_methods,
    ),  # fmt: skip
    SignalCase(
        "trace",
        (
            "trace",
            "kuhn(players=3,cards=5)",
            "--pot",
            "2.5:4",
            "--no-gif",
            "--outdir",
            "t",
            "--checkpoint-every",
            "0.2",
        ),
        r"toypoker: trace .*, at pot = ",  # on the curve (after the eps stage to its start)
        _trace_kept_the_curve_so_far,
    ),  # fmt: skip
    SignalCase(
        "dynamics-table1",
        (
            "dynamics",
            "table1",
            "--rounds",
            "2000000",
            "--k",
            "0.01",
            "--L",
            "6,12,24,48,96,192",
            "--workers",
            "1",
            "--outdir",
            "t1",
        ),
        r"toypoker: repeated play: [1-9]",
        _table1_kept_finished_runs,
    ),  # fmt: skip
    SignalCase(
        "collusion-tmecor",
        ("collusion", "tmecor", "kuhn(players=3,cards=5)", "--team", "23"),
        r"toypoker: TMECor columns: [1-9]",
        _tmecor_printed_a_valid_bracket,
    ),  # fmt: skip
    SignalCase(
        "sweep-local",
        (
            "sweep",
            "solve",
            "leduc(players=2)",
            "--param",
            "iterations=20,400000000",
            "--scheduler",
            "local",
            "--workers",
            "1",
            "--out",
            "sw",
        ),
        r"toypoker: sweep solve: 1/2",
        _sweep_kept_finished_jobs,  # its LocalCluster's worker ends too (run_and_signal)
    ),  # fmt: skip
    SignalCase(
        "dynamics-play",
        ("dynamics", "play", "--rounds", "20000000", "--out-dir", "d"),
        r"toypoker: repeated play: 0/",
        _play_wrote_nothing,
    ),  # fmt: skip
    SignalCase(
        "dynamics-ode",
        ("dynamics", "ode", "--basins-grid", "30", "--out-dir", "d"),
        r"toypoker: dynamics ode: .*step basins",
        _ode_kept_the_finished_files,
    ),  # fmt: skip
    SignalCase(
        "dynamics-estimators",
        ("dynamics", "estimators", "--rounds", "2000000", "--out-dir", "d"),
        r"toypoker: estimator runs: [1-9]",
        _estimators_wrote_nothing,
    ),  # fmt: skip
    SignalCase(
        "reproduce",
        (
            "reproduce",
            "--quick",
            "--item",
            "kuhn-basic",
            "--item",
            "fig-kuhn1950-convergence",
            "--out-dir",
            "rep",
        ),
        r"^toypoker: cfr\+ ",  # the item's compare, its second method
        _reproduce_kept_the_finished_item,
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
            "eq2.npz",  # eq.npz, the finished study, is refused as an output (N60)
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
    SignalCase(  # a sharded solve: its LocalCluster's worker ends too (run_and_signal)
        "solve-sharded",
        (
            "solve",
            "rhode_island(ranks=3,suits=2,cap=1)",
            "--iterations",
            "100000000",
            "--checkpoint",
            "ck.npz",
            "--no-table",
            "--scheduler",
            "local",
            "--workers",
            "1",
        ),
        r"toypoker: cfr\+ rhode_island.*: [1-9]\d*/",
        _solve_saved_a_checkpoint,
    ),  # fmt: skip
)


def run_and_signal(args: tuple[str, ...], started: str, sig: int, cwd: Path) -> tuple[int, str]:
    """Start ``toypoker ARGS`` in ``cwd``, wait however long it takes for a stderr line
    matching ``started``, send ``sig``; returns the exit status and the whole stderr
    (:func:`~tests.cli.conftest.signal_when`)."""
    code, err, _ = signal_when(args, started, sig, cwd)
    return code, err


def _params():
    for i, case in enumerate(SIGNAL_CASES):
        sig = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)[i % 3]
        # a fresh interpreter, numba's start-up and the work before the signal: 5-10 s
        yield pytest.param(case, sig, id=f"{case.id}-{sig.name}", marks=[pytest.mark.slow])


def test_both_signals_get_one_handler(monkeypatch: pytest.MonkeyPatch) -> None:
    # why each command above gets one of the three signals: what one does, the others do
    # (SIGHUP, the terminal closed: the fourth audit round's N159, N173, N176, N178 lost
    # a checkpoint, a curve, checked claims and a compare's runs to it)
    from toypoker import cli, interrupts

    seen: dict[int, list[object]] = {}
    real = signal.signal

    def record(signum: int, handler: object) -> object:
        seen.setdefault(signum, []).append(handler)
        return real(signum, handler)

    monkeypatch.setattr(cli.signal, "signal", record)
    assert cli.main(["games"]) == 0
    assert seen[signal.SIGINT][0] is seen[signal.SIGTERM][0] is interrupts.interrupt_now
    assert seen[signal.SIGHUP][0] is interrupts.interrupt_now
    with interrupts.deferred_interrupts():
        taken = signal.getsignal(signal.SIGINT)
        assert signal.getsignal(signal.SIGTERM) is taken
        assert signal.getsignal(signal.SIGHUP) is taken


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


def test_exit_130_survives_a_caught_interrupt_in_generated_code(tmp_path: Path) -> None:
    # CPython (python -m) dies by SIGINT (status -2) at exit when a string exec ended in
    # a KeyboardInterrupt, even one caught since: seen as "-2" in the reproduce and
    # dynamics-play signal runs above when the signal landed in generated code.  Here
    # the same state is made on purpose before toypoker's entry point runs.
    import subprocess
    import sys

    (tmp_path / "kimain.py").write_text(
        "import sys\n"
        "import toypoker.cli as cli\n"
        "inner = cli.main\n"
        "def main(argv=None):\n"  # the command's last string exec ends in a caught Ctrl-C
        "    code = inner(argv)\n"
        "    try:\n"
        "        exec('raise KeyboardInterrupt')\n"
        "    except KeyboardInterrupt:\n"
        "        pass\n"
        "    return code\n"
        "cli.main = main\n"
        "sys.argv = ['toypoker', '--version']\n"
        "cli.run()\n"
    )
    done = subprocess.run([sys.executable, "-m", "kimain"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, (done.returncode, done.stderr)


# ------------------------------------------- the first half second (issue 35, item 6)
def _maps_hold(pid: int, needle: str) -> bool:
    try:
        return needle in Path(f"/proc/{pid}/maps").read_text()
    except OSError:  # gone
        return True


def _console_script() -> str | None:
    import shutil

    return shutil.which("toypoker")


@pytest.mark.parametrize("entry", ["python -m", "console script"])
@pytest.mark.parametrize(
    "sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["SIGINT", "SIGTERM", "SIGHUP"]
)
def test_a_signal_while_the_command_starts_prints_one_line(
    entry: str, sig: int, tmp_path: Path
) -> None:
    """Issue 35: Ctrl-C in the first half second printed a KeyboardInterrupt traceback
    through the package's imports (SIGTERM killed the command without a word).  The
    signal is sent the moment numpy's compiled core is mapped into the process (read
    from /proc/PID/maps: no timing): the command's own modules are still loading."""
    import subprocess
    import sys

    if entry == "console script":
        script = _console_script()
        if script is None:
            pytest.skip("no toypoker console script on PATH")
        argv = [script]
    else:
        argv = [sys.executable, "-m", "toypoker"]
    proc = subprocess.Popen(
        [*argv, "solve", "leduc(players=2)", "--iterations", "100000000", "--no-table"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not _maps_hold(proc.pid, "_multiarray_umath") and time.monotonic() < deadline:
            time.sleep(0.001)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, (proc.returncode, err)
    assert err == "toypoker: interrupted\n", err
    assert out == ""


# --------------------------------------- a second signal while the first saves (issue 47)
@pytest.mark.slow
@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_second_signal_while_the_first_saves_is_absorbed(second: int, tmp_path: Path) -> None:
    """Issue 47: a second Ctrl-C while the first one's step finished and its checkpoint
    was written exited 130 with only ``toypoker: interrupted``: no checkpoint, no resume
    command, and nothing had acknowledged the first.  Two signals 50 ms apart: the first
    is acknowledged at once, the second absorbed, the checkpoint written and resumable."""
    args = ("solve", "leduc(players=3)", "--iterations", "100000000", "--no-table",
            "--checkpoint", "ck.npz")  # fmt: skip
    proc = toypoker_process(*args, cwd=tmp_path, env={"TOYPOKER_PROGRESS_EVERY": "0"})
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(proc.stderr.readline, "")))
    reader.start()
    try:
        t0 = time.monotonic()
        while not any(re.search(r"cfr\+ leduc.*: [1-9]\d*", line) for line in list(seen)):
            assert proc.poll() is None and time.monotonic() - t0 < 300, "".join(seen)
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        time.sleep(0.05)
        proc.send_signal(second)
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        reader.join(timeout=60)
    err = "".join(seen)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert "toypoker: interrupted: finishing the step and saving the checkpoint" in err, err
    assert (tmp_path / "ck.npz").stat().st_size > 0, err
    assert "resume with: toypoker solve" in err.strip().splitlines()[-1], err
    from toypoker.solvers.checkpoint import load_checkpoint

    assert load_checkpoint(tmp_path / "ck.npz").state.iteration > 0
