"""Atomic writes: complete or absent, ordinary permissions; sizes for people."""

import os
import stat

from toypoker.io import atomic_write_text, size_text


def test_atomic_write_replaces_and_leaves_no_temporaries(tmp_path):
    path = tmp_path / "out" / "r.json"
    atomic_write_text(path, "one")
    atomic_write_text(path, "two")
    assert path.read_text() == "two"
    assert os.listdir(path.parent) == ["r.json"]
    mode = stat.S_IMODE(path.stat().st_mode)
    assert mode & stat.S_IRGRP  # not mkstemp's 0600


def test_temporaries_of_killed_writers_are_cleaned(tmp_path):
    # issue 14 item 6: a writer killed mid-write leaves .NAME.PID.*.tmp; the next write of
    # the same file removes it when that process is gone, never a live writer's
    import subprocess
    import sys

    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        dead_tmp = tmp_path / f".r.json.{done.pid}.x1.tmp"
        live_tmp = tmp_path / f".r.json.{live.pid}.x2.tmp"
        other = tmp_path / f".s.json.{done.pid}.x3.tmp"  # another file's: not ours to touch
        for p in (dead_tmp, live_tmp, other):
            p.write_text("partial")
        atomic_write_text(tmp_path / "r.json", "done")
        assert sorted(os.listdir(tmp_path)) == sorted(["r.json", live_tmp.name, other.name])
    finally:
        live.kill()
        live.wait()


def test_size_text_uses_the_unit_of_the_size():
    # issue 22 leftover: `toypoker info` printed "386,994.1 GB" for a huge deck; TB from
    # 1 TB, PB from 1 PB, GB and MB (as before) from a tenth of them (values by hand)
    assert size_text(31_200) == "31.2 kB"
    assert size_text(49_900_000) == "49.9 MB"
    assert size_text(87_700_000_000) == "87.7 GB"  # tests/cli/test_games.py's 87.7 GB
    assert size_text(999_900_000_000) == "999.9 GB"
    assert size_text(386_994_100_000_000) == "387.0 TB"
    assert size_text(1_234_000_000_000_000) == "1.2 PB"
    assert size_text(5_000_000_000_000_000_000) == "5,000.0 PB"
