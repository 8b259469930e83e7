"""Checks every command makes before any work: numeric options (finite, positive, in
range, lists and windows) and output paths (writable folders, distinct files, figure
formats, readable inputs, the scratch checkpoint)."""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from toypoker.archive import CHECKPOINT, refuse_kept_work
from toypoker.cli.held import hold
from toypoker.errors import ToypokerError
from toypoker.io import in_place, write_target
from toypoker.locks import run_lock

if TYPE_CHECKING:
    from toypoker.solvers.checkpoint import ScratchCheckpoint


# ------------------------------------------------------------ option checks
def finite(name: str, x: float | None) -> float | None:
    """``x`` unless it is NaN or infinite."""
    if x is not None and not math.isfinite(x):
        raise ToypokerError(f"{name} must be a finite number, got {x}")
    return x


def positive(name: str, x: float | None) -> float | None:
    """``x`` unless it is NaN, infinite, zero or negative (``None`` passes)."""
    if x is not None and not (math.isfinite(x) and x > 0):
        raise ToypokerError(f"{name} must be a positive number, got {x}")
    return x


def non_negative(name: str, x: float | None) -> float | None:
    if x is not None and not (math.isfinite(x) and x >= 0):
        raise ToypokerError(f"{name} must be a number >= 0, got {x}")
    return x


def at_least(name: str, x: int | None, low: int) -> int | None:
    if x is not None and x < low:
        raise ToypokerError(f"{name} must be at least {low}, got {x}")
    return x


def at_most(name: str, x: int | None, high: int) -> int | None:
    if x is not None and x > high:
        raise ToypokerError(f"{name} must be at most {high}, got {x}")
    return x


def floats(text: str, n: int | None = None, name: str = "value") -> list[float]:
    """Comma-separated finite numbers; one value stands for all ``n``."""
    try:
        vals = [float(x) for x in text.split(",") if x.strip()]
    except ValueError as exc:
        raise ToypokerError(f"{name} must be comma-separated numbers, not {text!r}") from exc
    if not vals:
        raise ToypokerError(f"{name} needs at least one number")
    for v in vals:
        finite(name, v)
    if n is not None and len(vals) == 1:
        vals = vals * n
    if n is not None and len(vals) != n:
        raise ToypokerError(f"{name} needs {n} numbers (or one for all), got {len(vals)}")
    return vals


def integers(text: str, name: str, low: int = 1) -> list[int]:
    """Comma-separated integers, each at least ``low``."""
    vals = floats(text, None, name)
    if any(v != int(v) for v in vals):
        raise ToypokerError(f"{name} must be whole numbers, not {text!r}")
    for v in vals:
        at_least(name, int(v), low)
    return [int(v) for v in vals]


def window(text: str, name: str) -> tuple[float, float]:
    """``LO:HI``, both finite, ``LO < HI``."""
    try:
        a, b = (float(v) for v in text.split(":"))
    except ValueError:
        raise ToypokerError(f"{name} must be LO:HI, e.g. 0.5:20, not {text!r}") from None
    if not (math.isfinite(a) and math.isfinite(b)):
        raise ToypokerError(f"{name} must be finite, not {text!r}")
    if not a < b:
        raise ToypokerError(f"{name} needs LO < HI, got {text!r}")
    return a, b


# --------------------------------------------------------------- output paths
def _folder_ok(folder: Path, option: str, path: Path) -> None:
    """``folder`` (or its nearest existing ancestor, to be created) is a writable folder."""
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise ToypokerError(f"{option} {path}: {probe} is a file, not a folder")
    if probe != folder:
        raise ToypokerError(f"{option} {path}: the folder {folder} does not exist")
    _writable(probe, option, path)


def _writable(folder: Path, option: str, path: Path) -> None:
    """Create (and remove) a file in ``folder``: ``os.access`` says yes as root, and on
    read-only or network mounts, where the write later fails."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".toypoker-probe-", dir=folder)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ToypokerError(
            f"{option} {path}: cannot create a file in {folder} ({reason})"
        ) from None
    os.close(fd)
    os.unlink(probe)


def check_file(path: Path | None, option: str, own: object = None) -> None:
    """An output file: not a folder, in an existing writable folder, not another run's
    work to resume (:func:`toypoker.archive.kept_work`; ``own``: the kind this output
    is, which it may replace -- ``--checkpoint`` a checkpoint). Checked before work, and
    locked until the command ends (:func:`toypoker.locks.run_lock`)."""
    if path is None:
        return
    if str(path).endswith(os.sep) or path.is_dir():
        raise ToypokerError(f"{option} {path} is a folder; give a file name")
    if in_place(path):  # a named pipe or a device: written in place, its folder untouched
        return
    target = write_target(path)  # a symbolic link's target is what gets written
    _folder_ok(target.parent if str(target.parent) else Path("."), option, path)
    refuse_kept_work(target, f"{option}'s output", CHECKPOINT if option == "--checkpoint" else own)
    what = "checkpoint" if option == "--checkpoint" else option
    hold(run_lock(target, what))  # a second run writing the same file is refused at once


def same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (links followed; neither need exist)."""
    return os.path.realpath(a) == os.path.realpath(b)


def check_distinct(*outputs: tuple[Path | None, str]) -> None:
    """Refuse, in one line, two output options naming the same file (the later write
    would replace the earlier one, which the command would still report written)."""
    seen: dict[Path, str] = {}
    for path, option in outputs:
        if path is None or in_place(path):
            continue
        key = Path(os.path.abspath(write_target(path)))
        if key in seen:
            raise ToypokerError(f"{seen[key]} and {option} name the same file {path}")
        seen[key] = option


#: figure formats every ``--plot`` writes (matplotlib's, by the file's suffix)
FIGURE_SUFFIXES = (".png", ".pdf", ".svg", ".jpg", ".jpeg", ".eps", ".ps")


def check_figure(path: Path | None, option: str = "--plot") -> None:
    """An output figure: :func:`check_file`, and a format matplotlib writes, before work."""
    if path is None:
        return
    if path.suffix.lower() not in FIGURE_SUFFIXES:
        raise ToypokerError(
            f"{option} {path}: give a figure file ending in {', '.join(FIGURE_SUFFIXES)}"
        )
    check_file(path, option)


def check_folder(path: Path | None, option: str) -> None:
    """An output folder: a folder (or creatable inside a writable folder), not a file."""
    if path is None:
        return
    if path.exists() and not path.is_dir():
        raise ToypokerError(f"{option} {path} is a file, not a folder")
    if path.exists():
        _writable(path, option, path)
        return
    probe = path.parent
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    if not probe.is_dir():
        raise ToypokerError(f"{option} {path}: {probe} is a file, not a folder")
    _writable(probe, option, path)


def check_readable(path: Path | None, option: str) -> None:
    """An input file that must exist and be a regular file."""
    if path is None:
        return
    if path.is_dir():
        raise ToypokerError(f"{option} {path} is a folder, not a file")


def check_exists(path: Path, option: str) -> None:
    """An input file read after a build: refused now, not after the build, when it is
    missing or a folder."""
    check_readable(path, option)
    if not path.exists():
        raise ToypokerError(f"cannot read {option} {path}: no such file")


def temp_checkpoint(kind: str) -> ScratchCheckpoint:
    """Where an interrupted run without ``--checkpoint`` keeps its state: written only
    to resume, best-effort (:class:`~toypoker.solvers.checkpoint.ScratchCheckpoint`)."""
    from toypoker.solvers.checkpoint import ScratchCheckpoint  # the solvers load with the run

    try:
        folder = tempfile.gettempdir()  # it tries to write a file in each candidate
    except OSError:  # none writable now (a file-size limit, a full disk): writes fail quietly
        folder = os.environ.get("TMPDIR") or "/tmp"  # noqa: S108 -- only a name here
    return ScratchCheckpoint(folder) / f"toypoker-{kind}-{os.getpid()}.npz"


def refuse_replacing(
    path: Path | None, option: str, resume: Path | None, overwrite: bool, holds: str
) -> None:
    """One line when ``path`` (what ``option`` writes, an interrupted run's kept work
    too, and what ``--resume`` reads) exists and the command neither resumes nor may
    overwrite: another run's work is never replaced silently (``holds``: what such a
    file holds, for the message)."""
    if path is None or overwrite or resume is not None or in_place(path):
        return
    if Path(path).is_file():
        raise ToypokerError(
            f"{option} {path} exists (it holds {holds}): give --resume {path} to continue "
            "that run, --overwrite to replace it, or another path"
        )
