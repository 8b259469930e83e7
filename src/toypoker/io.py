"""Small I/O helpers: atomic writes (a result file is either complete or absent)."""

from __future__ import annotations

import contextlib
import glob
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from .errors import ToypokerError


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


@contextlib.contextmanager
def atomic_open(path: str | Path) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, atomically: a temporary file in the
    same folder, flushed and fsynced when the block ends, then renamed over the
    target (removed instead if the block raises).  Temporaries of earlier writers
    that were killed mid-write are removed first (:func:`clean_stale_temporaries`).
    A large file can so be streamed in pieces, never held whole in memory."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    clean_stale_temporaries(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a result file is ordinary
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`atomic_open`)."""
    with atomic_open(path) as fh:
        fh.write(data)


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


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
