"""Run locks: a file or folder in use by a live run is not another run's to write.

A run that keeps its state in a checkpoint, or its results in a sweep or report
folder, holds an OS lock (``fcntl.flock``) on a sidecar file -- ``ck.npz.lock`` beside
a checkpoint, ``.toypoker.lock`` inside a folder -- that holds its process id.  A
second run asking for the same lock refuses in one line naming that pid.  The OS
drops the lock when its process ends, however it ends, so the file a killed run
left is stale and simply taken over; a finishing run removes its own.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from toypoker.errors import ToypokerError

LOCK_NAME = ".toypoker.lock"
"""The lock file inside a locked folder."""

_HELD: dict[tuple[str, int], int] = {}
"""The locks this process holds (by real path and thread): taken again by that thread,
they are re-entered, not refused -- the command line locks a checkpoint before it builds
the game, and the run loop locks it again."""


def lock_path(path: str | Path, folder: bool = False) -> Path:
    """The sidecar lock of ``path``: ``NAME.lock`` beside a file, ``.toypoker.lock``
    inside a folder."""
    path = Path(path)
    return path / LOCK_NAME if folder else path.with_name(path.name + ".lock")


def _holder(fd: int) -> str:
    """The pid the lock file of ``fd`` names (``?`` if it holds none yet)."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return text if text.isdigit() else "?"


@contextlib.contextmanager
def run_lock(path: str | Path, what: str, folder: bool = False) -> Iterator[Path]:
    """Hold the lock of ``path`` (:func:`lock_path`) while the block runs.

    Parameters
    ----------
    path
        The checkpoint file or output folder the run uses.
    what
        What ``path`` is, for the message (``"checkpoint"``, ``"sweep folder"``).
    folder
        ``path`` is a folder: its lock lives inside it.  The folder holding the lock
        is created if absent, as writing ``path`` would.

    Yields
    ------
    Path
        The lock file (it holds this process's pid).

    Raises
    ------
    ToypokerError
        One line naming the other run's pid when a live run holds the lock, or the
        lock file when it cannot be created.
    """
    if folder and Path(path).exists() and not Path(path).is_dir():
        raise ToypokerError(f"{what} {path} is a file, not a folder")
    if not folder and (Path(path).name in ("", "..") or Path(path).is_dir()):
        raise ToypokerError(f"{what} {path} is a folder, not a file")  # "/", ".", a folder
    lock = lock_path(path, folder)
    key = (os.path.realpath(lock), threading.get_ident())  # another thread is refused
    if key in _HELD:  # this process holds it already (a command locks before it builds)
        _HELD[key] += 1
        try:
            yield lock
        finally:
            _HELD[key] -= 1
        return
    made = [] if lock.parent.exists() else _missing(lock.parent)  # removed again if empty
    while True:
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)  # as the writer of path would
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise ToypokerError(f"cannot lock {what} {path}: {lock}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pid = _holder(fd)
            os.close(fd)
            raise ToypokerError(
                f"{what} {path} is in use by another run (pid {pid}); wait for it to end, "
                "or give another path"
            ) from None
        try:  # the file we locked may have been removed by the run that just ended
            same = os.fstat(fd).st_ino == os.stat(lock).st_ino
        except OSError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        with contextlib.suppress(OSError):  # the pid is for the message; the lock is held
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        _HELD[key] = 0
        yield lock
    finally:
        _HELD.pop(key, None)
        with contextlib.suppress(OSError):
            os.unlink(lock)  # while still held: a waiting run then locks a new file
        os.close(fd)
        for folder in made:  # the folders the lock alone made, if the run wrote nothing
            with contextlib.suppress(OSError):
                folder.rmdir()


def _missing(folder: Path) -> list[Path]:
    """``folder`` and its ancestors that do not exist yet, deepest first."""
    out = []
    while not folder.exists() and folder != folder.parent:
        out.append(folder)
        folder = folder.parent
    return out


__all__ = ["LOCK_NAME", "lock_path", "run_lock"]
