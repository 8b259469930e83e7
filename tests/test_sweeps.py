"""Sweeps on dask.distributed (src/toypoker/sweeps.py).

No paper numbers: every expected point is the serial run's own (CFR+ is
deterministic, so a cluster must reproduce it exactly).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import time
from fractions import Fraction
from pathlib import Path

import pytest

from toypoker.errors import ToypokerError
from toypoker.sweeps import grid, sweep

pytestmark = pytest.mark.slow  # starts dask clusters: part of CI, not of the quick part

SPEC = "kuhn(players=3)"


def test_grid_parses_ranges_and_lists() -> None:
    assert grid("pot=2:4:3") == ("pot", [Fraction(2), Fraction(3), Fraction(4)])
    assert grid("bet=1/2,1") == ("bet", [Fraction(1, 2), Fraction(1)])
    with pytest.raises(ToypokerError, match="exact numbers"):
        grid("pot=1:x")


def test_resume_skips_finished_points(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    full = sweep(SPEC, "pot", [2, 3], iterations=20, scheduler="serial", result=path)
    data = json.loads(path.read_text())
    data["points"] = data["points"][:1]
    data["points"][0]["nash_conv"] = -1.0  # a marker: a skipped point is kept as found
    path.write_text(json.dumps(data))
    again = sweep(SPEC, "pot", [2, 3], iterations=20, scheduler="serial", result=path)
    assert again.points[0]["nash_conv"] == -1.0
    assert again.points[1] == full.points[1]


def test_other_sweep_in_result_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    sweep(SPEC, "pot", [2], iterations=5, scheduler="serial", result=path)
    with pytest.raises(ToypokerError, match="another sweep"):
        sweep(SPEC, "pot", [2], iterations=6, scheduler="serial", result=path)


def test_local_cluster_equals_serial() -> None:
    pytest.importorskip("distributed", reason='pip install "toypoker[dask]"')
    values = [2, Fraction(5, 2), 3]
    serial = sweep(SPEC, "pot", values, iterations=30, scheduler="serial")
    local = sweep(SPEC, "pot", values, iterations=30, scheduler="local")
    assert local == serial


def test_cli_sweep_json_and_bad_param(capsys: pytest.CaptureFixture) -> None:
    from toypoker.cli import main

    args = ["sweep", SPEC, "--param", "pot=2,3", "--iterations", "10", "--scheduler", "serial"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["points"] == list(
        sweep(SPEC, "pot", [2, 3], iterations=10, scheduler="serial").points
    )
    assert main(["sweep", SPEC, "--param", "pot", "--scheduler", "serial"]) == 2
    assert "NAME=LO:HI:STEPS" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_external_scheduler_with_killed_worker(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason='pip install "toypoker[dask]"')
    dask = shutil.which("dask") or str(Path(sys.executable).parent / "dask")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    ]  # fmt: skip
    try:
        time.sleep(2)
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [dask, "worker", address, "--nthreads", "1", "--no-dashboard"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
            )  # fmt: skip
        values = [2, 3, 4, 5, 6, 7]
        serial = sweep(SPEC, "pot", values, iterations=300, scheduler="serial")
        first = threading.Event()
        path = tmp_path / "s.json"

        def kill_one(n: int) -> None:
            if n == 1 and not first.is_set():
                first.set()
                procs[1].kill()

        got = sweep(
            SPEC, "pot", values, iterations=300, scheduler=address, result=path, progress=kill_one
        )
        assert first.is_set()
        assert got == serial
        assert json.loads(path.read_text())["points"] == list(serial.points)
    finally:
        for p in procs:
            p.kill()
            p.wait(timeout=30)
