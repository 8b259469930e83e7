"""What resumable work a file holds, so that no output replaces it.

:func:`kept_work` recognises each kind of file a run keeps to resume or reuse (a solver
checkpoint, a traced curve, a literature check's rows, a compare's runs, a collusion
study, TMECor brackets and their mixtures, a sweep's or a report's record, a
repeated-play run) by the format it carries (:mod:`toypoker.formats`), without reading
it whole; :func:`refuse_kept_work` is the one line every writer says before it would
replace one (the CLI's outputs, :meth:`toypoker.Result.save`,
:meth:`toypoker.Profile.write_json`).
Ground floor: no knowledge of games.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import numpy as np
from numpy.lib import format as npy

from toypoker.errors import ToypokerError

_HEAD_BYTES = 1 << 16  # where a JSON file written by toypoker names its format

#: what :func:`kept_work` says a file holds: (kind, how a run resumes or reuses it)
CHECKPOINT = ("a solver checkpoint", "solve --resume")
CURVE = ("a traced equilibrium curve", "trace --resume")
ROWS = ("the rows of a literature check", "literature check --resume")
COMPARISON = ("the runs of a compare", "compare --resume")
STUDY = ("the equilibria of a collusion table7", "table7 --profiles FILE")
BRACKETS = ("a collusion tmecor's brackets", "collusion tmecor --save FILE adds to them")
MIXTURES = ("the mixtures of a collusion tmecor's brackets",
            "collusion tmecor --save on the brackets' JSON adds to them")  # fmt: skip
SWEEP = ("a sweep's record", "the sweep rerun into its --out-dir")
REPORT = ("a report's item", "reproduce rerun into its --out-dir")
PLAY_RUN = ("a repeated-play run", "dynamics table1 or estimators --checkpoint")

#: the kinds by the name of their files' ``format`` (the part before ``/``)
_KEPT_FORMATS = {
    "toypoker-checkpoint": CHECKPOINT,
    "toypoker-trace": CURVE,
    "toypoker-comparison": COMPARISON,  # a curve's settings (curve.csv.json): the curve needs them
    "toypoker-collusion": STUDY,
    "toypoker-brackets": BRACKETS,
    "toypoker-mixtures": MIXTURES,
    "toypoker-sweep": SWEEP,
    "toypoker-sweep-job": SWEEP,
    "toypoker-report-item": REPORT,
    "toypoker-play-run": PLAY_RUN,
}

#: the largest JSON file :func:`kept_work` reads whole to recognise it (rows, a compare)
_KEPT_JSON_BYTES = 64 * 2**20
_ROW_FIELDS = {"claim", "source", "params", "status", "detail", "exact"}
_FORMAT_AT_HEAD = re.compile(rb'"format"\s*:\s*"(toypoker-[a-z-]+)/')


def kept_work(path: str | Path) -> tuple[str, str] | None:
    """What work of a run ``path`` holds -- one of :data:`CHECKPOINT`, :data:`CURVE`
    (a curve's CSV, with its ``toypoker-trace`` settings beside it, or those settings),
    :data:`ROWS`, :data:`COMPARISON`, :data:`STUDY`, :data:`BRACKETS`, :data:`SWEEP`,
    :data:`REPORT`, :data:`PLAY_RUN` -- or ``None`` (a profile, a result, anything
    else): a file no output of another kind replaces."""
    path = Path(path)
    try:
        if not path.is_file():
            return None
        if zipfile.is_zipfile(path):
            return _kept_in_zip(path)
        sidecar = path.with_name(path.name + ".json")
        if sidecar.is_file() and _format_at_head(sidecar) == "toypoker-trace":
            return CURVE
        kind = _KEPT_FORMATS.get(_format_at_head(path) or "")
        if kind is not None or path.stat().st_size >= _KEPT_JSON_BYTES:
            return kind
        with path.open("rb") as f:
            if f.read(1).strip() not in (b"[", b"{"):  # neither rows nor a comparison
                return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, zipfile.BadZipFile):
        return None
    if (
        isinstance(data, list)
        and data
        and all(isinstance(d, dict) and set(d) == _ROW_FIELDS for d in data)
    ):
        return ROWS
    if isinstance(data, dict) and {"game", "seconds", "methods"} <= set(data):
        return COMPARISON
    return None


def _format_at_head(path: Path) -> str | None:
    """The ``toypoker-...`` format a JSON file names near its start, if any."""
    with path.open("rb") as f:
        found = _FORMAT_AT_HEAD.search(f.read(_HEAD_BYTES))
    return found.group(1).decode() if found else None


def _kept_in_zip(path: Path) -> tuple[str, str] | None:
    """:func:`kept_work` of a zip (an ``.npz``): a checkpoint (``__meta__.npy``), a
    collusion store (``meta.npy``), a play run or a brackets' witnesses
    (``format.npy``)."""
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        if "__meta__.npy" in names:
            return CHECKPOINT
        for name in ("meta.npy", "format.npy"):
            if name in names and z.getinfo(name).file_size < 1 << 24:
                with z.open(name) as f:
                    value = npy.read_array(f, allow_pickle=False)
                text = bytes(value).decode() if value.dtype == np.uint8 else str(value)
                found = _FORMAT_AT_HEAD.search(text.encode()) or re.match(
                    rb"(toypoker-[a-z-]+)/", text.encode()
                )
                if found:
                    return _KEPT_FORMATS.get(found.group(1).decode())
    return None


def refuse_kept_work(path: str | Path, what: str = "this output", own: object = None) -> None:
    """One line when writing ``what`` to ``path`` would replace another run's resumable
    work (:func:`kept_work`); ``own``: the kind this output is (it may replace its own)."""
    kept = kept_work(path)
    if kept is not None and kept != own:
        raise ToypokerError(
            f"{path} is {kept[0]} (a run's work to resume: "
            f"{kept[1].replace('FILE', str(path))}), not to be "
            f"replaced by {what}: give another path"
        )


def refuse_checkpoint(path: str | Path) -> None:
    """One line when writing an output to ``path`` would replace another run's resumable
    work (a solver checkpoint, a traced curve, a literature check's rows...)."""
    refuse_kept_work(path)
