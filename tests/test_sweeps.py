"""Sweeps on dask.distributed (src/toypoker/sweeps/).

Expected numbers: Kuhn's 2-player value -1/18 (Kuhn 1950); the uniform
profile of 2-player Kuhn at pot 2 has values (1/8, -1/8) (the toypoker doctest,
by hand: P1 wins the ante-weighted showdowns 1/8 net); Billingham's Table 1
cell (L = 6, k = 0.01) = (-0.134, -0.101, 0.235) and his Solution 3 existing
for P > P* ~ 6.77 (so S3 is a fixed point of the ODE at P = 9).  Everything
else is the serial run's own numbers (CFR+ is deterministic and MCCFR seeded,
so a cluster must reproduce them exactly).
"""

from __future__ import annotations

import csv
import io
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

SPEC = "kuhn(players=3)"
TIMING = ("seconds", "solve_seconds", "trace_seconds")


def _same(a, b) -> bool:
    """Two sweeps' rows equal except for wall times."""
    strip = [[{k: v for k, v in r.items() if k not in TIMING} for r in x.rows] for x in (a, b)]
    return strip[0] == strip[1]


def test_grid_parses_ranges_and_lists() -> None:
    assert grid("pot=2:4:3") == ("pot", [Fraction(2), Fraction(3), Fraction(4)])
    assert grid("bet=1/2,1") == ("bet", [Fraction(1, 2), Fraction(1)])
    assert grid("profile=uniform,/tmp/p.json") == ("profile", ["uniform", "/tmp/p.json"])
    with pytest.raises(ToypokerError, match="exact numbers"):
        grid("pot=1:x:3")


def test_multi_axis_grid_is_the_cartesian_product_and_dedupes_seeds() -> None:
    r = sweep(
        "solve", "kuhn(players=2)", {"pot": [2, 3], "iterations": 20},
        methods=["cfr+", "es-mccfr"], seeds=3, scheduler="serial",
    )  # fmt: skip
    # 2 pots x (cfr+ once: deterministic, seed dropped + es-mccfr x 3 seeds) = 8 jobs
    assert len(r.rows) == 8
    assert [(x["pot"], x["method"], x["seed"]) for x in r.rows[:4]] == [
        (2, "cfr+", None), (2, "es-mccfr", 0), (2, "es-mccfr", 1), (2, "es-mccfr", 2),
    ]  # fmt: skip
    assert len({x["job"] for x in r.rows}) == 8


def test_each_job_kind_on_a_tiny_game(tmp_path: Path) -> None:
    from toypoker import load_game, solve
    from toypoker.literature.papers import billingham

    lp = sweep("solve", "kuhn(players=2)", {"method": "lp"}, scheduler="serial").rows[0]
    assert lp["value_exact_P1"] == "-1/18" and lp["certified"] is True  # Kuhn (1950)
    ev = sweep("eval", "kuhn(players=2)", {"exact": True}, scheduler="serial").rows[0]
    assert (ev["value_P1"], ev["value_P2"]) == (0.125, -0.125)
    prof = tmp_path / "lp.json"
    solve(load_game("kuhn(players=2)"), "lp").equilibria[0].to_json(prof)
    ver = sweep("verify", "kuhn(players=2)", {"profile": ["uniform", str(prof)]},
                scheduler="serial").rows  # fmt: skip
    assert [v["equilibrium"] for v in ver] == [False, True]
    assert ver[1]["nash_conv_exact"] == "0"
    eq = sweep("equilibria", "skp", {"pot": 9}, scheduler="serial").rows[0]
    assert eq["status"] == "ok" and eq["pieces"] >= 1
    tr = sweep("trace", "kuhn(players=3,cards=4)", {"lo": 2, "hi": 2.5}, scheduler="serial")
    assert tr.rows[0]["complete"] is True and tr.rows[0]["points"] > 10
    pl = sweep("play", "skp", {"k": 0.01, "L": 6, "rounds": 20_000, "record_every": 1000},
               scheduler="serial").rows[0]  # fmt: skip
    assert (pl["published_P1"], pl["published_P2"], pl["published_P3"]) == billingham.TABLE1[
        (6, 0.01)
    ]
    assert abs(pl["E_P1"] + pl["E_P2"] + pl["E_P3"]) < 1e-9  # zero-sum ex-showdown
    ode = sweep("ode", "skp", {"t_end": 20.0}, scheduler="serial").rows[0]
    assert "S3:" in ode["fixed_points"]


def test_failing_job_is_recorded_and_the_rest_finish(tmp_path: Path) -> None:
    r = sweep("eval", "kuhn(players=2)", {"pot": [-1, 2]}, scheduler="serial", out=tmp_path / "s")
    assert r.failed == 1
    bad, good = r.rows
    assert bad["status"] == "failed" and "must be positive" in bad["error"]
    assert good["status"] == "ok" and abs(good["value_P1"] - 0.125) < 1e-12


def test_csv_and_parquet_tables(tmp_path: Path) -> None:
    out = tmp_path / "s"
    r = sweep("eval", "kuhn(players=2)", {"pot": ["2", "5/2"]}, scheduler="serial", out=out)
    rows = list(csv.DictReader(io.StringIO((out / "results.csv").read_text())))
    assert [row["pot"] for row in rows] == ["2", "2.5"]
    assert [float(row["value_P1"]) for row in rows] == [x["value_P1"] for x in r.rows]
    pq = pytest.importorskip("pyarrow.parquet", reason='pip install "toypoker[dask]"')
    t = pq.read_table(out / "results.parquet").to_pylist()
    assert [x["pot"] for x in t] == [2.0, 2.5]
    assert [x["value_P1"] for x in t] == [x["value_P1"] for x in r.rows]
    assert t[0]["status"] == "ok" and t[0]["exact"] is False


def test_resume_skips_finished_jobs(tmp_path: Path) -> None:
    out = tmp_path / "s"
    axes = {"pot": [2, 3], "iterations": 20}
    full = sweep("solve", SPEC, axes, scheduler="serial", out=out)
    first = out / "jobs" / f"{full.rows[0]['job']}.json"
    data = json.loads(first.read_text())
    data["result"]["nash_conv"] = -1.0  # a marker: a skipped job is kept as found
    first.write_text(json.dumps(data))
    (out / "jobs" / f"{full.rows[1]['job']}.json").unlink()
    seen: list[tuple[int, int]] = []
    again = sweep("solve", SPEC, axes, scheduler="serial", out=out,
                  progress=lambda d, t, f: seen.append((d, t)))  # fmt: skip
    assert seen == [(1, 2), (2, 2)]  # one job found finished, one run
    assert again.rows[0]["nash_conv"] == -1.0
    assert again.rows[1]["nash_conv"] == full.rows[1]["nash_conv"]


def test_folder_of_another_sweep_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "s"
    sweep("eval", "kuhn(players=2)", {}, scheduler="serial", out=out)
    with pytest.raises(ToypokerError, match="another sweep"):
        sweep("eval", "kuhn(players=3)", {}, scheduler="serial", out=out)
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "x").write_text("")
    with pytest.raises(ToypokerError, match="holds no sweep"):
        sweep("eval", "kuhn(players=2)", {}, scheduler="serial", out=tmp_path / "t")


def test_cli_json_bad_param_and_exit_status(tmp_path: Path, capsys) -> None:
    from toypoker.cli import main

    base = ["sweep", "eval", "kuhn(players=2)", "--scheduler", "serial"]
    assert main([*base, "--param", "pot=2,3", "--out", str(tmp_path / "a"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["pot"] for r in data["rows"]] == [2, 3]
    # two failed jobs: exit status 2 says how many
    assert main([*base, "--param", "pot=-1,-2,2", "--out", str(tmp_path / "b")]) == 2
    assert "failed" in capsys.readouterr().out
    assert main([*base, "--param", "pot"]) == 2
    assert "NAME=LO:HI:STEPS" in capsys.readouterr().err
    assert main([*base, "--param", "nope=1"]) == 2
    assert "neither a parameter" in capsys.readouterr().err


@pytest.mark.slow
def test_local_cluster_equals_serial(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason='pip install "toypoker[dask]"')
    axes = {"pot": [2, Fraction(5, 2), 3], "iterations": 30}
    kw = {"methods": ["cfr+", "es-mccfr"], "seeds": 2}
    serial = sweep("solve", SPEC, axes, scheduler="serial", **kw)
    local = sweep("solve", SPEC, axes, scheduler="local", workers=2, out=tmp_path / "s", **kw)
    assert len(local.rows) == 9 and local.failed == 0
    assert _same(local, serial)


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
        axes = {"pot": [2, 3, 4, 5, 6, 7], "iterations": 300}
        serial = sweep("solve", SPEC, axes, scheduler="serial")
        first = threading.Event()
        out = tmp_path / "s"

        def kill_one(done: int, total: int, failed: int) -> None:
            if done == 1 and not first.is_set():
                first.set()
                procs[1].kill()

        got = sweep("solve", SPEC, axes, scheduler=address, out=out, progress=kill_one)
        assert first.is_set()
        assert got.failed == 0 and _same(got, serial)
        assert len(list((out / "jobs").glob("*.json"))) == 6
    finally:
        for p in procs:
            p.kill()
            p.wait(timeout=30)


def test_spec_column_is_the_jobs_game() -> None:
    """Issue 24: the CSV's spec column named the base game on every row; it is each
    job's own game (independent path: canonical_spec of the base with the job's pot),
    for a failed job too (pot=-1 is refused by load_game)."""
    from toypoker.games import canonical_spec

    res = sweep("eval", "kuhn(players=2)", {"pot": [3, 4, -1]}, scheduler="serial")
    specs = [r["spec"] for r in res.rows]
    assert specs[:2] == [canonical_spec("kuhn(players=2,pot=3)"),
                         canonical_spec("kuhn(players=2,pot=4)")]  # fmt: skip
    assert [r["status"] for r in res.rows] == ["ok", "ok", "failed"]
    assert "pot=-1" in specs[2]
    assert res.spec == canonical_spec("kuhn(players=2)")  # the sweep's base game


def test_equilibria_name_infosets_by_their_labels() -> None:
    """Issue 24: the equilibria column wrote the enumerator's symbols (P3_1_kk); the
    documented infoset labels are P3:1:kk (README, profiles)."""
    res = sweep("equilibria", "skp", {"pot": 9}, scheduler="serial")
    text = res.rows[0]["equilibria"]
    assert res.rows[0]["status"] == "ok" and text
    assert "P3_" not in text and "P1_" not in text and "P2_" not in text
    assert any(f"P{p}:" in text for p in (1, 2, 3)), text


def test_a_second_signal_while_a_serial_record_is_written_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 47, audit cases G4/G6/G7: the serial loop now runs each job so that a signal
    # cuts it, the bookkeeping between jobs staying deferred -- a first signal while a
    # finished job's record is written is taken after the write, and a second one then
    # is absorbed until it is written (before: raised at once, the record lost)
    import signal

    import toypoker.sweeps.run as sweep_run
    from toypoker import interrupts

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are the main thread's")
    real = sweep_run.atomic_write_text

    def write(path: Path, text: str) -> None:
        if path.parent.name == "jobs":
            signal.raise_signal(signal.SIGINT)  # the first: the sweep stops after this
            signal.raise_signal(signal.SIGINT)  # a second, during the write: waits
        real(path, text)

    monkeypatch.setattr(sweep_run, "atomic_write_text", write)
    try:
        with pytest.raises(KeyboardInterrupt):
            sweep("eval", "kuhn(players=2)", {"pot": [2, 3, 4]}, scheduler="serial",
                  out=tmp_path / "sw")  # fmt: skip
    finally:
        interrupts.forget_interrupts()  # the absorbed signals are this test's only
    records = [json.loads(p.read_text()) for p in (tmp_path / "sw" / "jobs").glob("*.json")]
    assert [r["status"] for r in records] == ["ok"], records
    assert not (tmp_path / "sw" / "results.csv").exists()
