"""Atomic writes: complete or absent, ordinary permissions; sizes for people."""

import os
import stat

import pytest

from toypoker.errors import ToypokerError
from toypoker.io import atomic_write_bytes, atomic_write_text, in_place, size_text


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


# ------------------------------------------------ issue 35 item 1: outputs go where meant
# Before: every writer renamed its temporary file over the path, whatever it was: a
# symlink became a file (its target unchanged), a FIFO's reader got nothing, and as root
# `-o /dev/full` replaced the device (issue 35, "Lost work").


def test_a_new_and_a_regular_file_are_replaced_atomically(tmp_path):
    new = tmp_path / "new.json"
    atomic_write_text(new, "one")
    old = tmp_path / "old.json"
    old.write_text("before")
    inode = old.stat().st_ino
    atomic_write_text(old, "after")
    assert (new.read_text(), old.read_text()) == ("one", "after")
    assert old.stat().st_ino != inode  # a new file renamed over it, as before
    assert sorted(os.listdir(tmp_path)) == ["new.json", "old.json"]


def test_a_symlink_keeps_being_a_link_and_its_target_is_written(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "r.json"
    target.write_text("before")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    atomic_write_text(link, "after")
    assert link.is_symlink() and target.read_text() == "after"
    assert os.listdir(tmp_path / "real") == ["r.json"]  # the temporary beside the target


def test_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "later.json")
    atomic_write_text(link, "data")
    assert link.is_symlink() and (tmp_path / "later.json").read_text() == "data"


def test_a_fifo_is_written_in_place_for_its_reader(tmp_path):
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    atomic_write_bytes(fifo, b"x" * 200_000)  # more than a pipe's buffer
    reader.join(30)
    assert got == [b"x" * 200_000]
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # still the pipe
    assert os.listdir(tmp_path) == ["pipe"]


def test_a_character_device_is_written_in_place(char_device):
    null = char_device("null")
    before = os.stat(null)
    atomic_write_text(null, "discarded")
    after = os.stat(null)
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert in_place(null) and not in_place(null.parent / "no-such-file")


def test_a_write_error_names_the_file(char_device):
    # a "full" device: every write fails with ENOSPC, the "disk full" of a real device
    full = char_device("full")
    with pytest.raises(ToypokerError, match=rf"^cannot write {full}: No space left"):
        atomic_write_text(full, "x" * 10_000)
    assert stat.S_ISCHR(os.stat(full).st_mode)
