"""The format of each file toypoker writes to resume or reuse a long computation.

Every such file carries a format string, ``"toypoker-<kind>/<n>"`` (the solver
checkpoint's ``toypoker-checkpoint/2``, a traced curve's ``toypoker-trace/1``, ...),
inside its JSON or as a small entry of its ``.npz``.  A reader takes the formats it
knows and a file without the field (written before toypoker versioned that file: the
layout version 1 kept unchanged, read with the same numbers), and refuses any other
in one line naming the file, the format it holds and the one this toypoker reads
(:func:`check_format`).  A changed layout gets a new number; its reader keeps reading
the old one.
"""

from __future__ import annotations

from collections.abc import Sequence

from toypoker.errors import ToypokerError


class FormatError(ToypokerError):
    """A file of a format this toypoker does not read (:func:`check_format`)."""


def _version(fmt: object) -> tuple[str, int] | None:
    """``("toypoker-trace", 1)`` of ``"toypoker-trace/1"``; ``None`` for anything else."""
    if not isinstance(fmt, str):
        return None
    kind, _, number = fmt.rpartition("/")
    if not kind or not number.isdigit() or not number.isascii():
        return None
    return kind, int(number)


def check_format(
    found: object, reads: str, path: object, what: str, older: Sequence[str] = ()
) -> str | None:
    """The format a file holds, checked against the ones this toypoker reads.

    Parameters
    ----------
    found
        The file's format field (``None``: the file has none, written before toypoker
        versioned it, and is read as the first layout).
    reads
        The format this toypoker writes.
    path, what
        The file and what it is (``"curve settings"``), for the message.
    older
        Earlier formats this toypoker still reads.

    Returns
    -------
    str or None
        ``found``.

    Raises
    ------
    FormatError
        A :class:`~toypoker.errors.ToypokerError`, one line, for any other format: the
        file, the format it holds and ``reads`` (written by a newer toypoker when its
        number is higher).
    """
    if found is None or found == reads or found in older:
        return found  # type: ignore[return-value]
    shown = repr(found)[:60]
    mine, theirs = _version(reads), _version(found)
    newer = mine is not None and theirs is not None and theirs[0] == mine[0] and theirs[1] > mine[1]
    hint = " (written by a newer toypoker: upgrade to read it)" if newer else ""
    also = "".join(f", {f}" for f in older)
    raise FormatError(
        f"cannot read {what} {path}: it is of format {shown}, this toypoker reads "
        f"{reads}{also}{hint}"
    )


__all__ = ["FormatError", "check_format"]
