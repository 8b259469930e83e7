"""Checkpoints: a solver's full state in one ``.npz`` (arrays + JSON metadata).

No pickle.  The metadata records the game's spec, the method (the registry
gives the state type), its options, the seed, the trace and the time spent, so
:func:`load_checkpoint` needs nothing but the path.  Anything malformed -- not
a zip, truncated, missing keys, wrong shapes, non-finite numbers -- is one
:class:`~toypoker.errors.ToypokerError` naming the file and what is wrong.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from toypoker.archive import CHECKPOINT, holds_json, refuse_kept_work
from toypoker.checks import check_path
from toypoker.errors import ToypokerError
from toypoker.io import atomic_write_bytes
from toypoker.result import TracePoint, jsonable
from toypoker.solvers.base import Method
from toypoker.solvers.registry import METHODS, options_dict, parse_options

CHECKPOINT_FORMAT = "toypoker-checkpoint/2"
MAX_CHECKPOINT_BYTES = 2**31
"""Largest total uncompressed size of a checkpoint's arrays :func:`load_checkpoint` reads
(the size limit of :func:`toypoker.load_game`)."""
META_KEYS = (
    "format",
    "game",
    "method",
    "options",
    "seed",
    "state_type",
    "scalars",
    "trace",
    "seconds",
)


@dataclass(frozen=True)
class Checkpoint:
    """What a checkpoint holds.

    Attributes
    ----------
    path : Path
    spec : str
        Canonical spec of the game (compile it with :func:`toypoker.load_game`).
    method : str
    options : object
        The method's typed options.
    seed : int or None
    state : object
        The method's state (``METHODS[method].state_type``).
    trace : tuple of TracePoint
    seconds : float
        Time spent stepping so far.
    """

    path: Path
    spec: str
    method: str
    options: Any
    seed: int | None
    state: Any
    trace: tuple[TracePoint, ...]
    seconds: float


class ScratchCheckpoint(type(Path())):  # type: ignore[misc]  # PosixPath or WindowsPath
    """A checkpoint path the user did not ask for (the command line's state of a run
    without ``--checkpoint``, kept so an interrupted run can resume).  A run writes it
    only when interrupted, or periodically while a long run goes on -- best-effort and
    silently: a read-only or full temporary folder, or a file-size limit, never fails
    the run.  No lock: the name holds the process id."""


def checkpoint_head(path: str | Path) -> tuple[str, str, int] | None:
    """``(method, spec, iteration)`` of the checkpoint at ``path``, read from its metadata
    only (no state array): for messages before a run.  ``None`` when it cannot be read
    so (:func:`load_checkpoint` then says why)."""
    try:
        if not _check_archive_ok(Path(path)):
            return None
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["__meta__"]))
        it = meta["scalars"]["iteration"]
        if isinstance(it, bool) or not isinstance(it, int):
            return None
        return str(meta["method"]), str(meta["game"]), it
    except Exception:  # noqa: BLE001 - only words for a message: a file it cannot read says none
        return None


def _check_archive_ok(path: Path) -> bool:
    """Whether ``path`` is a regular file whose zip members are of a checkpoint's size."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return False
        _check_archive(path)
    except (OSError, ToypokerError):
        return False
    return True


def describe_checkpoint(path: str | Path) -> str:
    """A few words on what the checkpoint at ``path`` holds (``cfr+ on kuhn(...), 200
    iterations``); ``""`` when its metadata cannot be read (:func:`checkpoint_head`)."""
    head = checkpoint_head(path)
    return "" if head is None else f"{head[0]} on {head[1]}, {head[2]} iterations"


def refuse_reuse(
    checkpoint: str | Path | None,
    resume: object,
    overwrite: bool,
    resume_how: str = "resume=",
    overwrite_how: str = "overwrite=True",
) -> None:
    """One line when ``checkpoint`` names a file that exists and the run neither resumes
    (``resume``) nor may overwrite (``overwrite``): it holds another run's work, never
    replaced silently.  A :class:`ScratchCheckpoint` is the run's own.  A file holding
    work of another kind (a traced curve, a collusion store...:
    :func:`~toypoker.archive.kept_work`) is refused whatever ``overwrite`` says."""
    if checkpoint is None or isinstance(checkpoint, ScratchCheckpoint):
        return  # the run's own scratch state
    if not isinstance(checkpoint, str | Path):
        return  # a wrong type is refused by the run's checks
    refuse_kept_work(checkpoint, "a checkpoint", own=CHECKPOINT)
    if overwrite or resume is not None:
        return
    if not Path(checkpoint).is_file():
        return
    what = describe_checkpoint(checkpoint)
    if not what:  # no checkpoint: nothing to resume, say so rather than advise resuming
        raise ToypokerError(
            f"{checkpoint} exists and is not a checkpoint: give another path, or "
            f"{overwrite_how} to replace it"
        )
    raise ToypokerError(
        f"checkpoint {checkpoint} exists ({what}): give {resume_how}{checkpoint} to continue "
        f"it, {overwrite_how} to replace it, or another path"
    )


def check_state(state: Any, where: str) -> None:
    """ToypokerError unless every array of ``state`` is finite (``where`` names it)."""
    for f in dataclasses.fields(state):
        v = getattr(state, f.name)
        if isinstance(v, np.ndarray) and v.dtype.kind == "f" and not np.isfinite(v).all():
            raise ToypokerError(f"{where}: non-finite values in {f.name}")


def save_checkpoint(
    path: str | Path,
    spec: str,
    method: Method,
    options: object,
    seed: int | None,
    state: Any,
    trace: tuple[TracePoint, ...] | list[TracePoint],
    seconds: float,
) -> None:
    """Write a checkpoint atomically; a corrupt state (NaN, inf) is refused and the
    file already at ``path`` is left as it was."""
    if method.one_shot:
        raise ToypokerError(f"{method.name} finishes in one step: it has no checkpoints")
    check_state(state, f"not writing checkpoint {path}")
    arrays, scalars = {}, {}
    for f in dataclasses.fields(state):
        v = getattr(state, f.name)
        if isinstance(v, np.ndarray):
            arrays[f.name] = v
        else:
            scalars[f.name] = v
    meta = {
        "format": CHECKPOINT_FORMAT,
        "game": spec,
        "method": method.name,
        "options": jsonable(options_dict(options)),
        "seed": seed,
        "state_type": type(state).__name__,
        "scalars": scalars,
        "trace": [[p.iteration, p.seconds, p.nash_conv] for p in trace],
        "seconds": seconds,
    }
    buf = io.BytesIO()
    np.savez(buf, __meta__=np.array(json.dumps(meta)), **arrays)
    atomic_write_bytes(path, buf.getvalue())


def load_checkpoint(path: str | Path) -> Checkpoint:
    """Read and check a checkpoint written by a solver run (no pickle).

    Parameters
    ----------
    path
        The ``.npz`` file.

    Returns
    -------
    Checkpoint
        Its :meth:`~toypoker.solvers.Solver.from_checkpoint` continues the run.

    Raises
    ------
    ToypokerError
        One line naming the file and what is wrong with it.

    Examples
    --------
    >>> import tempfile, pathlib, toypoker as tp
    >>> ck = pathlib.Path(tempfile.mkdtemp()) / "ck.npz"
    >>> _ = tp.solve(tp.load_game("kuhn(players=2)"), "cfr+", iterations=20, checkpoint=ck)
    >>> c = tp.load_checkpoint(ck)
    >>> c.method, c.spec, int(c.state.iteration)
    ('cfr+', 'kuhn(players=2,cards=3,ante=1,bet=1)', 20)
    """
    try:
        return _load(check_path(path, "path"))
    except ToypokerError as exc:
        text = str(exc)
        if "\n" in text or "\r" in text:  # a key or value of the file quoted in the message
            raise ToypokerError(" ".join(text.split())) from None
        raise


def _load(path: Path) -> Checkpoint:
    """Read the checkpoint at ``path`` and check every part of it."""
    raw, arrays = _read_archive(path)
    meta = _read_meta(path, raw)
    method = _meta_method(path, meta)
    try:
        options = parse_options(method, meta["options"])
    except ToypokerError as exc:
        raise ToypokerError(f"checkpoint {path}: {exc}") from None
    state = _state(path, method.state_type, arrays, meta["scalars"])
    trace = _trace(path, meta["trace"])
    seed, seconds = meta["seed"], meta["seconds"]
    _check_seed_and_seconds(path, seed, seconds)
    if method.stochastic:
        _check_rng(path, state)
    return Checkpoint(
        path, str(meta["game"]), method.name, options, seed, state, trace, float(seconds)
    )


def _read_archive(path: Path) -> tuple[str, dict[str, np.ndarray]]:
    """The metadata text and the state arrays of the ``.npz`` at ``path``."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # a zip is read by seeking: no devices, pipes
            raise ToypokerError(f"cannot read checkpoint {path}: not a regular file")
        _check_archive(path)
        data = np.load(path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise ToypokerError(f"{path} is not a toypoker checkpoint (a bare array, not .npz)")
        with data:
            if "__meta__" not in data.files:
                raise ToypokerError(f"{path} is not a toypoker checkpoint (no metadata)")
            meta_array = data["__meta__"]
            if meta_array.dtype.kind != "U" or meta_array.ndim != 0:
                raise ToypokerError(f"checkpoint {path}: metadata is not a JSON string")
            raw = str(meta_array)
            arrays = {k: data[k] for k in data.files if k != "__meta__"}
    except ToypokerError:
        raise
    except FileNotFoundError:
        raise ToypokerError(f"cannot read checkpoint {path}: no such file") from None
    except OSError as exc:
        raise ToypokerError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None
    except (ValueError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if "pickle" in reason:  # numpy's hint (allow_pickle) would mislead: we never unpickle
            reason = "neither a .npz archive nor plain arrays"
        if holds_json(path):  # what older versions wrote under any name: say what it is
            reason = "it is JSON, a profile or result file, not a checkpoint"
        raise ToypokerError(
            f"cannot read checkpoint {path}: not a valid .npz file ({reason})"
        ) from None
    return raw, arrays


def _read_meta(path: Path, raw: str) -> dict[str, Any]:
    """The metadata parsed from ``raw``: a JSON object of this format with every key."""
    try:
        meta = json.loads(raw, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ToypokerError(f"checkpoint {path}: metadata is not JSON ({exc.msg})") from None
    except RecursionError:
        raise ToypokerError(f"checkpoint {path}: metadata is nested too deeply") from None
    except ValueError as exc:  # NaN/Infinity, an integer of more than 4300 digits
        reason = str(exc).splitlines()[0]
        raise ToypokerError(f"checkpoint {path}: bad metadata ({reason})") from None
    if not isinstance(meta, dict):
        raise ToypokerError(f"checkpoint {path}: metadata is not a JSON object")
    if meta.get("format") != CHECKPOINT_FORMAT:
        raise ToypokerError(
            f"{path} is not a toypoker checkpoint of format {CHECKPOINT_FORMAT} "
            f"(format: {meta.get('format')!r})"
        )
    missing = [k for k in META_KEYS if k not in meta]
    if missing:
        raise ToypokerError(f"checkpoint {path}: missing metadata key(s) {', '.join(missing)}")
    for key in ("game", "method", "state_type"):
        if not isinstance(meta[key], str):
            raise ToypokerError(f"checkpoint {path}: {key} must be a string, not {meta[key]!r:.60}")
    return meta


def _meta_method(path: Path, meta: dict[str, Any]) -> Method:
    """The method the metadata names, checked against its state type and option types."""
    method = METHODS.get(meta["method"])
    if method is None or method.one_shot:
        raise ToypokerError(f"checkpoint {path}: unknown method {meta['method']!r}")
    cls = method.state_type
    if meta["state_type"] != cls.__name__:
        raise ToypokerError(
            f"checkpoint {path}: state type {meta['state_type']!r} is not {method.name}'s "
            f"{cls.__name__}"
        )
    if not isinstance(meta["options"], dict) or not isinstance(meta["scalars"], dict):
        raise ToypokerError(f"checkpoint {path}: options and scalars must be JSON objects")
    return method


def _check_seed_and_seconds(path: Path, seed: object, seconds: object) -> None:
    """Refuse a seed that is not a whole number, or seconds not a finite number >= 0."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ToypokerError(f"checkpoint {path}: seed must be an integer, not {seed!r}")
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not math.isfinite(seconds)
        or seconds < 0
    ):
        raise ToypokerError(f"checkpoint {path}: seconds must be a number >= 0, not {seconds!r}")


def _state(path: Path, cls: type, arrays: dict[str, np.ndarray], scalars: dict) -> Any:
    fields = {f.name for f in dataclasses.fields(cls)}
    given = set(arrays) | set(scalars)
    if given != fields:
        parts = []
        if fields - given:
            parts.append(f"missing {', '.join(sorted(fields - given))}")
        if given - fields:
            parts.append(f"unexpected {', '.join(sorted(given - fields))}")
        raise ToypokerError(f"checkpoint {path}: state fields {'; '.join(parts)}")
    it = scalars.get("iteration")
    if isinstance(it, bool) or not isinstance(it, int) or it < 0:
        raise ToypokerError(f"checkpoint {path}: iteration must be an integer >= 0, not {it!r}")
    shapes = {a.shape for a in arrays.values()}
    if len(shapes) > 1 or any(a.ndim != 1 or a.dtype != np.float64 for a in arrays.values()):
        desc = ", ".join(f"{k} {a.dtype}{list(a.shape)}" for k, a in sorted(arrays.items()))
        raise ToypokerError(
            f"checkpoint {path}: state arrays must be float64 vectors of one length ({desc})"
        )
    state = cls(**arrays, **scalars)
    check_state(state, f"checkpoint {path}")
    return state


def _trace(path: Path, rows: object) -> tuple[TracePoint, ...]:
    bad = ToypokerError(
        f"checkpoint {path}: trace must be [iteration, seconds, nash_conv] rows of finite numbers"
    )
    if not isinstance(rows, list):
        raise bad
    points = []
    for row in rows:
        if not isinstance(row, list) or len(row) != 3:
            raise bad
        if any(isinstance(x, bool) or not isinstance(x, int | float) for x in row):
            raise bad
        i, s, n = row
        if not isinstance(i, int) or i < 0 or not (math.isfinite(s) and math.isfinite(n)):
            raise bad
        points.append(TracePoint(i, float(s), float(n)))
    return tuple(points)


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} in the metadata")


def _check_archive(path: Path) -> None:
    """Refuse, before reading any array, a zip whose members would expand past
    :data:`MAX_CHECKPOINT_BYTES` (a small file can hold a huge compressed array)."""
    try:
        with zipfile.ZipFile(path) as z:
            total = sum(info.file_size for info in z.infolist())
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError):
        return  # not a zip: np.load says what it is
    if total > MAX_CHECKPOINT_BYTES:
        raise ToypokerError(
            f"checkpoint {path}: its arrays would take {total:,} bytes "
            f"(more than {MAX_CHECKPOINT_BYTES:,}): not a checkpoint of a game this size"
        )


def _check_rng(path: Path, state: Any) -> None:
    try:
        np.random.PCG64().state = state.rng
    except (TypeError, ValueError, KeyError) as exc:
        raise ToypokerError(f"checkpoint {path}: bad random generator state ({exc})") from None


__all__ = [
    "CHECKPOINT_FORMAT",
    "Checkpoint",
    "checkpoint_head",
    "ScratchCheckpoint",
    "check_state",
    "describe_checkpoint",
    "load_checkpoint",
    "refuse_reuse",
    "save_checkpoint",
]
