"""Atomic writes: complete or absent, ordinary permissions."""

import os
import stat

from toypoker.io import atomic_write_text


def test_atomic_write_replaces_and_leaves_no_temporaries(tmp_path):
    path = tmp_path / "out" / "r.json"
    atomic_write_text(path, "one")
    atomic_write_text(path, "two")
    assert path.read_text() == "two"
    assert os.listdir(path.parent) == ["r.json"]
    mode = stat.S_IMODE(path.stat().st_mode)
    assert mode & stat.S_IRGRP  # not mkstemp's 0600
