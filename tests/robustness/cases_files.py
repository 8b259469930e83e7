"""Issue 35's files, locks and output, as cases of the robustness table (:mod:`.cases`).

Kinds: an output path that is a symbolic link, a dangling one, a named pipe or a
character device (written, never replaced); a checkpoint or a sweep folder held by a
live run (refused, naming its pid); a profile file of another format version; a sweep
range breaking one rule (named); a profile toypoker wrote, read back (no note).  Each
was seen failing before its fix.  A case's ``after(folder, outcome)`` checks what the
exit status cannot show (the link still a link, the pipe's reader fed); it also ends
what the case's files started (a process holding a lock).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .cases import K2, Case

_HOLDERS: dict[Path, subprocess.Popen] = {}  # lock holders started by a case's files


@dataclass(frozen=True)
class FileCase(Case):
    """A :class:`~.cases.Case` with a check after the run: ``after(folder, outcome)``."""

    after: Callable[[Path, object], None] | None = None


# ------------------------------------------------------------------ file makers
def dangling_link(target: str) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.symlink_to(target)

    return make


def fifo_with_reader(path: Path) -> None:
    """A named pipe and a thread of this process reading it into ``NAME.got``."""
    os.mkfifo(path)
    got = path.with_name(path.name + ".got")

    def read() -> None:
        got.write_bytes(path.read_bytes())

    threading.Thread(target=read, daemon=True).start()


def null_device(path: Path) -> None:
    """A character device like ``/dev/null`` (1, 3) -- as root a node of the case's own,
    so a writer that replaces devices breaks nothing of the machine's."""
    if os.geteuid() == 0:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    else:  # another user cannot replace /dev/null: a link to it
        path.symlink_to("/dev/null")


def held(folder: bool) -> Callable[[Path], None]:
    """Another live process holding the run lock of the path (a checkpoint, a folder)."""

    def make(path: Path) -> None:
        code = textwrap.dedent(f"""
            import sys, time
            from toypoker.locks import run_lock
            with run_lock({str(path)!r}, "x", folder={folder}):
                print("locked", flush=True)
                time.sleep(120)
        """)
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline() == "locked\n"
        _HOLDERS[path.parent] = proc

    return make


# ------------------------------------------------------------------ checks after
def _release(folder: Path, _out: object) -> None:
    proc = _HOLDERS.pop(folder, None)
    if proc is not None:
        proc.kill()
        proc.wait()


def _link_target_written(folder: Path, _out: object) -> None:
    assert (folder / "p.json").is_symlink(), "the link was replaced by a file"
    assert '"format"' in (folder / "real.json").read_text(), "the link's target not written"


def _pipe_fed(folder: Path, _out: object) -> None:
    got = folder / "p.fifo.got"
    t0 = time.monotonic()
    while not got.exists() and time.monotonic() - t0 < 10:
        time.sleep(0.05)
    assert got.exists() and b'"format"' in got.read_bytes(), "the pipe's reader got nothing"
    assert stat.S_ISFIFO((folder / "p.fifo").stat().st_mode), "the pipe became a file"


def _still_a_device(folder: Path, _out: object) -> None:
    assert stat.S_ISCHR((folder / "null").stat().st_mode), "the device became a file"


def _no_snapping_note(_folder: Path, out: object) -> None:
    assert "snapped" not in out.stderr, out.stderr  # type: ignore[attr-defined]


def _profile_of_format(version: str) -> str:
    return (
        f'{{"format": "{version}", "game": "kuhn(players=2)", "exact": false, '
        '"infosets": {"P1:1:": {"k": 1, "b": 0}}}'
    )


def file_cases() -> list[Case]:
    """The cases of issue 35 items 1, 2 and 5 (section 35)."""
    solve5 = ("solve", K2, "--iterations", "5")
    lock_line = r"is in use by another run \(pid \d+\); wait for it to end"
    return [
        FileCase("out-symlink", (*solve5, "-o", "p.json"), "ok",
                 "the link replaced by a file, its target unchanged", 35,
                 files=(("real.json", "old"), ("p.json", dangling_link("real.json"))),
                 after=_link_target_written),
        FileCase("out-dangling-symlink", (*solve5, "-o", "p.json"), "ok",
                 "the dangling link replaced by a file", 35,
                 files=(("p.json", dangling_link("real.json")),), after=_link_target_written),
        FileCase("out-fifo", (*solve5, "-o", "p.fifo"), "ok",
                 "the named pipe replaced by a file: its reader got nothing", 35,
                 files=(("p.fifo", fifo_with_reader),), after=_pipe_fed),
        FileCase("out-char-device", (*solve5, "-o", "null"), "ok",
                 "as root, the device node replaced by a regular file", 35,
                 files=(("null", null_device),), after=_still_a_device),
        FileCase("checkpoint-in-use", (*solve5, "--checkpoint", "ck.npz"), "error",
                 "both runs wrote ck.npz; the resume failed", 35,
                 files=(("ck.npz", held(False)),), match="checkpoint ck.npz " + lock_line,
                 after=_release),
        FileCase("sweep-folder-in-use",
                 ("sweep", "solve", "kuhn()", "--param", "pot=2:3:2", "--scheduler", "serial",
                  "--out-dir", "out"), "error",
                 "two sweeps wrote one folder at once", 35,
                 files=(("out", held(True)),), match="sweep folder out " + lock_line,
                 after=_release),
        Case("profile-format-unknown", ("eval", K2, "p.json"), "error",
             "read as version 1", 35, files=(("p.json", _profile_of_format("toypoker-profile/9")),),
             match="toypoker-profile/9.*toypoker-profile/1"),
        Case("sweep-range-steps", ("sweep", "solve", "kuhn()", "--param", "pot=2:4:0.5",
                                   "--scheduler", "serial"), "error",
             "blamed 'exact numbers'", 35, match="STEPS is how many values"),
        Case("sweep-range-parts", ("sweep", "solve", "kuhn()", "--param", "pot=2:4",
                                   "--scheduler", "serial"), "error",
             "blamed 'exact numbers'", 35, match="three parts"),
        FileCase("profile-read-back", ("verify", K2, "p.json"), "no",
                 "noted 'did not sum to 1 exactly; snapped' about toypoker's own file", 35,
                 setup=((*solve5, "-o", "p.json"),), after=_no_snapping_note),
    ]  # fmt: skip


__all__ = ["FileCase", "file_cases"]
