"""Small I/O helpers: the one writer of every output file (a result file is either
complete or absent; a link, a pipe or a device is written, never replaced)."""

from __future__ import annotations

import contextlib
import csv
import glob
import io
import os
import shutil
import signal
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from toypoker.errors import ToypokerError


def size_text(n_bytes: int) -> str:
    """Bytes for people, in decimal units as every size is printed (``toypoker info``'s
    counts, ``toypoker solve``'s layout lines): ``1.2 PB`` from 1 PB, ``387.0 TB`` from
    1 TB, ``87.7 GB`` from 0.1 GB, ``49.9 MB`` from 0.1 MB, else ``31.2 kB``."""
    for unit, size, start in (("PB", 1e15, 1e15), ("TB", 1e12, 1e12), ("GB", 1e9, 1e8),
                              ("MB", 1e6, 1e5)):  # fmt: skip
        if n_bytes >= start:
            return f"{n_bytes / size:,.1f} {unit}"
    return f"{n_bytes / 1e3:,.1f} kB"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but not ours to signal
        return True
    return True


def clean_stale_temporaries(path: str | Path) -> list[Path]:
    """Remove the temporary files that writers of ``path`` killed mid-write left behind
    (``.NAME.PID.*.tmp`` whose process is gone); returns what was removed."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    removed = []
    for tmp in folder.glob(f".{glob.escape(path.name)}.*.tmp"):
        pid = tmp.name[len(path.name) + 2 :].split(".", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            try:
                tmp.unlink()
                removed.append(tmp)
            except OSError:
                pass
    return removed


def write_target(path: str | Path) -> Path:
    """The file a write of ``path`` lands in: ``path`` itself, or for a symbolic link
    its final target (followed through every link, a dangling one included), so the
    link stays a link and its target gets the data."""
    path = Path(path)
    if not path.is_symlink():
        return path
    real = Path(os.path.realpath(path))
    # /dev/stdout -> /proc/self/fd/1 -> "pipe:[123]": a link whose target has no name
    # in the file system is opened through the link itself
    return path if path.exists() and not real.exists() else real


def in_place(path: str | Path) -> bool:
    """Whether ``path`` (its :func:`write_target`) exists and is not a regular file or
    folder -- a named pipe, a device such as ``/dev/null``, a socket: written in place
    with a plain open, never replaced by a file."""
    try:
        mode = write_target(path).stat().st_mode
    except OSError:  # absent (a new file), or a folder we cannot look into
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _named(exc: OSError, path: Path) -> ToypokerError:
    return ToypokerError(f"cannot write {path}: {exc.strerror or exc}")


@contextlib.contextmanager
def atomic_open(path: str | Path) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, the one way every output is written.

    A regular file (or a new path) is replaced atomically: a temporary file in the same
    folder, flushed and fsynced when the block ends, then renamed over the target
    (removed instead if the block raises); temporaries of earlier writers that were
    killed mid-write are removed first (:func:`clean_stale_temporaries`).  A symbolic
    link's target is written so (the link stays).  A named pipe, a device or any other
    file that is not regular (:func:`in_place`) is opened and written in place, never
    replaced.  A large file can so be streamed in pieces, never held whole in memory.

    Raises
    ------
    ToypokerError
        One line naming the file when it cannot be written (a full disk, a file-size
        limit, a read-only folder).
    """
    shown = Path(path)
    target = write_target(shown)
    if in_place(target):
        try:
            fh = open(target, "wb")  # noqa: SIM115 -- closed below, its errors named
        except OSError as exc:
            raise _named(exc, shown) from None
        try:
            with fh:  # closing flushes too: a full device fails there
                yield fh
                fh.flush()
        except OSError as exc:
            if exc.filename is not None:
                raise
            raise _named(exc, shown) from None
        return
    folder = target.parent if str(target.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        clean_stale_temporaries(target)
        fd, tmp = tempfile.mkstemp(
            prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=folder
        )
    except OSError as exc:
        raise _named(exc, shown) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a result file is ordinary
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and exc.filename in (None, tmp):  # ours, not the block's
            raise _named(exc, shown) from None
        raise


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`atomic_open`)."""
    with atomic_open(path) as fh:
        fh.write(data)


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def csv_text(rows: Sequence[Sequence[object]], path: str | Path | None = None) -> str:
    """``rows`` as CSV text, also written (atomically) to ``path`` when given."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    text = buf.getvalue()
    if path is not None:
        atomic_write_text(path, text)
    return text


def read_text_limited(path: str | Path, limit: int, what: str) -> str:
    """The UTF-8 text of ``path`` (a byte-order mark dropped), reading at most ``limit``
    bytes: a larger file, or a device such as ``/dev/zero``, is refused while reading.

    Raises
    ------
    ToypokerError
        One line naming ``what`` and ``path``: missing, unreadable, too large, not UTF-8.
    """
    try:
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    except FileNotFoundError:
        raise ToypokerError(f"cannot read {what} {path}: no such file") from None
    except OSError as exc:
        raise ToypokerError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise ToypokerError(f"cannot read {what} {path}: larger than {limit:,} bytes")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ToypokerError(f"cannot read {what} {path}: not a text (UTF-8) file") from None


def npz_reason(exc: BaseException) -> str:
    """Why numpy could not read a ``.npz``, in a few words for one line -- never numpy's
    hint to allow pickles (toypoker never loads one)."""
    text = " ".join(str(exc).split())
    if "pickle" in text:
        return "not an archive of plain arrays"
    return text[:120] or type(exc).__name__


def exact_text(x: object) -> str:
    """``str(x)`` of an exact number (int or Fraction) of any length.

    Python refuses to convert integers of over 4,300 digits to text by default, a guard
    against parsing hostile input that stays on for what we read; an exact certificate on
    a suited game reaches that length in what we write (``verify`` on a Rhode Island deck).
    """
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(x)
    finally:
        sys.set_int_max_str_digits(limit)


def write_in_two(
    fh: BinaryIO,
    first: Callable[[], Iterator[str]],
    second: Callable[[], Iterator[str]],
    folder: str | Path,
) -> None:
    """Write ``first()``'s pieces then ``second()``'s to ``fh`` (UTF-8), the two made at
    once on two cores: on Linux a forked child writes ``second()``'s into an unnamed
    temporary file in ``folder`` while this process writes ``first()``'s, then the
    child's file is copied after them.  Formatting a large profile is pure Python, one
    core's work, so two halves made at once take little more than half the time
    (``benchmarks/results/vector.md``: Rhode Island's profile file).

    Anything the child cannot do (no ``fork``, no room for the temporary file, a child
    that fails or is still not done long after this half) falls back to making
    ``second()``'s pieces here: the bytes are the same either way.  A child still
    running when this process stops (an error, Ctrl-C) is killed and reaped.
    """
    part = None
    pid = -1  # no child
    if sys.platform.startswith("linux"):
        try:
            part = tempfile.TemporaryFile(dir=folder)  # noqa: SIM115 -- closed below
            pid = os.fork()
        except OSError:
            pid = -1
    if pid == 0:
        _child_writes(part, second)  # type: ignore[arg-type]  # never returns
    try:
        start = time.monotonic()
        for piece in first():
            fh.write(piece.encode("utf-8"))
        if pid > 0:
            done = _reaped(pid, max(60.0, 3 * (time.monotonic() - start)))
            pid = -1
            if done:
                part.seek(0)  # type: ignore[union-attr]
                shutil.copyfileobj(part, fh, 1 << 24)  # type: ignore[arg-type]
                return
        for piece in second():
            fh.write(piece.encode("utf-8"))
    finally:
        if pid > 0:
            _kill(pid)
        if part is not None:
            part.close()


def _child_writes(part: BinaryIO, pieces: Callable[[], Iterator[str]]) -> None:
    """The forked child of :func:`write_in_two`: write the pieces, flush, and leave at
    once (``os._exit``: no inherited buffer flushed, no exit handler run), status 0 if
    all were written."""
    status = 1
    try:
        for piece in pieces():
            part.write(piece.encode("utf-8"))
        part.flush()
        status = 0
    except BaseException:  # noqa: BLE001 -- the parent makes these pieces itself then
        status = 1
    finally:
        os._exit(status)


def _reaped(pid: int, seconds: float) -> bool:
    """Wait up to ``seconds`` for child ``pid``; whether it ended with status 0 (one
    still running is killed and reaped: not done)."""
    deadline = time.monotonic() + seconds
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status) == 0
        if time.monotonic() > deadline:
            _kill(pid)
            return False
        time.sleep(0.01)


def _kill(pid: int) -> None:
    """Kill child ``pid`` and reap it."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
