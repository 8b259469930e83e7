"""Profiles and results as a compact archive (``.npz``), written and read in pieces.

A profile of Rhode Island Hold'em has millions of infosets, too many to hold as one
JSON object (``{label: {action: p}}``; ``benchmarks/results/vector.md``).  A path
ending in ``.npz`` (``toypoker solve -o p.npz`` or ``--result r.npz``,
:func:`write_archive`, :meth:`~toypoker.result.Result.save`) writes this format
instead, streamed and atomically (:func:`~toypoker.io.atomic_open`); ``toypoker
eval``/``verify`` and :func:`read_profile` read it back.

Format ``toypoker-archive/1``: a zip file (deflated, zip64) holding

* ``meta.json`` -- ``{"format": "toypoker-archive/1", "game": spec, "exact": bool,
  "infosets": n, "actions": n_sigma, "result": {...} or null}``; ``result`` is the
  result's JSON (:meth:`~toypoker.result.Result.to_json_dict`) without its profile;
* ``probs.npy`` -- the probabilities, float64, in the game's flat action order
  (infosets in the game's order, each one's actions in order): a plain ``.npy``
  array, so ``numpy.load(path)["probs"]`` reads it (no pickle anywhere);
  an exact profile writes ``probs.txt`` instead, one ``p/q`` a line;
* ``actions.npy`` -- each infoset's number of actions (int64);
* ``labels.txt`` -- each infoset's label, one a line (UTF-8), in the same order.

The reader checks the spec, the counts, every label and the actions against the game
before it accepts the numbers, so a profile never lands on the wrong infosets.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
from numpy.lib import format as npy

from toypoker.checks import check_path, shown
from toypoker.errors import ProfileError, SpecError, ToypokerError
from toypoker.game import Game, check_game
from toypoker.games import canonical_spec
from toypoker.io import atomic_open, npz_reason
from toypoker.kept import (  # noqa: F401 - re-exported: imported from here
    BRACKETS,
    CHECKPOINT,
    COMPARISON,
    CURVE,
    MIXTURES,
    PLAY_RUN,
    REPORT,
    ROWS,
    STUDY,
    SWEEP,
    kept_work,
    refuse_checkpoint,
    refuse_kept_work,
)
from toypoker.profile import Profile, to_fraction

ARCHIVE_FORMAT = "toypoker-archive/1"
CHUNK = 1 << 16
"""Infosets written or checked at a time (labels are made on access for big games)."""
MAX_LABEL = 1 << 16
"""Longest label line read (a longer one is not a label: refused unread)."""


def is_archive(path: str | Path) -> bool:
    """Whether ``path`` names an archive: its name ends in ``.npz``."""
    return Path(path).suffix.lower() == ".npz"


def holds_json(path: str | Path) -> bool:
    """Whether the file at ``path`` begins (after white space) with ``{``: JSON, as older
    versions wrote a profile or result under any name, ``.npz`` included."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(64).lstrip()
    except (OSError, ValueError):
        return False
    return head.startswith(b"{")


def reads_as_archive(path: str | Path) -> bool:
    """Whether reading ``path`` reads an archive: a ``.npz`` name (:func:`is_archive`)
    whose file is not JSON -- a file older versions wrote as JSON under a ``.npz`` name
    is read as the JSON it is (it failed with "File is not a zip file")."""
    return is_archive(path) and not holds_json(path)


def _label_chunks(game: Game) -> Iterator[list[str]]:
    """The game's infoset labels in chunks of :data:`CHUNK` (a lazy sequence of
    infosets that makes labels without the objects is asked for them directly)."""
    infosets = game.infosets
    fast = getattr(infosets, "labels", None)
    for lo in range(0, game.n_infosets, CHUNK):
        hi = min(lo + CHUNK, game.n_infosets)
        yield fast(lo, hi) if fast else [i.label for i in infosets[lo:hi]]


def _labels(game: Game) -> Iterator[bytes]:
    """The game's infoset labels, one a line, encoded in chunks."""
    for rows in _label_chunks(game):
        yield "".join(f"{x}\n" for x in rows).encode("utf-8")


def write_archive(path: str | Path, profile: Profile, result: dict | None = None) -> None:
    """Write ``profile`` (and the rest of a result, ``result``: its JSON without the
    profile) to ``path`` in the archive format (module docstring), atomically."""
    game = profile.game
    meta = {
        "format": ARCHIVE_FORMAT,
        "game": game.spec,
        "exact": profile.exact,
        "infosets": int(game.n_infosets),
        "actions": int(game.n_sigma),
        "result": result,
    }
    with (
        atomic_open(path) as fh,
        zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf,
    ):
        zf.writestr("meta.json", json.dumps(meta, indent=1) + "\n")
        if profile.exact:
            with zf.open("probs.txt", "w", force_zip64=True) as out:
                for lo in range(0, len(profile.probs), CHUNK):
                    part = profile.probs[lo : lo + CHUNK]
                    out.write("".join(f"{Fraction(x)}\n" for x in part).encode())
        else:
            with zf.open("probs.npy", "w", force_zip64=True) as out:
                npy.write_array(out, np.ascontiguousarray(profile.probs, dtype=np.float64))
        with zf.open("actions.npy", "w", force_zip64=True) as out:
            npy.write_array(out, np.asarray(game.infoset_n_actions, dtype=np.int64))
        with zf.open("labels.txt", "w", force_zip64=True) as out:
            for chunk in _labels(game):
                out.write(chunk)


def read_meta(path: str | Path) -> dict:
    """The ``meta.json`` of an archive (one-line :class:`ProfileError` otherwise)."""
    try:
        with zipfile.ZipFile(path) as zf:
            return _meta(zf, path)
    except (OSError, zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
        raise ProfileError(f"cannot read {path}: {npz_reason(exc)}") from None


def _meta(zf: zipfile.ZipFile, path: object) -> dict:
    try:
        info = zf.getinfo("meta.json")
        if info.file_size > 1 << 24:
            raise ProfileError(f"{path}: meta.json is too large to be an archive's")
        meta = json.loads(zf.read(info).decode("utf-8"))
    except KeyError:
        if "__meta__.npy" in zf.namelist():  # what Solver.save_checkpoint writes
            raise ProfileError(
                f"{path} is a solver checkpoint, not a profile: resume the run from it "
                "(solve --resume, tp.solve(resume=...)), or read the profile the run wrote"
            ) from None
        raise ProfileError(f"{path} is not a toypoker archive (no meta.json)") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ProfileError(f"{path}: meta.json is not valid JSON") from None
    if not isinstance(meta, dict) or meta.get("format") != ARCHIVE_FORMAT:
        raise ProfileError(f"{path} is not a {ARCHIVE_FORMAT} archive")
    return meta


def read_profile(path: str | Path, game: Game) -> Profile:
    """The profile an archive holds, for ``game`` (its spec, counts, labels and
    actions checked against the game first).

    Raises
    ------
    ProfileError
        One line, for a file that is not an archive of a profile of this game.
    """
    try:
        with zipfile.ZipFile(path) as zf:
            meta = _meta(zf, path)
            _check_game(meta, game, path)
            _check_actions(zf, game, path)
            _check_labels(zf, game, path)
            probs = _probs(zf, meta, game, path)
    except ProfileError:
        raise
    except (OSError, zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise ProfileError(f"cannot read {path}: {npz_reason(exc)}") from None
    except KeyError as exc:
        # zipfile's KeyError says "There is no item named 'x' in the archive"
        what = (
            str(exc.args[0]).removeprefix("There is no item named ").removesuffix(" in the archive")
        )
        raise ProfileError(f"{path}: the archive has no {what}") from None
    return Profile(game, probs)


def _check_game(meta: dict, game: Game, path: object) -> None:
    spec = meta.get("game")
    try:
        same = isinstance(spec, str) and canonical_spec(spec) == game.spec
    except SpecError as exc:
        raise ProfileError(f"{path}: the archive's game: {exc}") from None
    if not same:
        raise ProfileError(f"{path} holds a profile of {spec}, not of {game.spec}")
    if (meta.get("infosets"), meta.get("actions")) != (game.n_infosets, game.n_sigma):
        raise ProfileError(
            f"{path}: {meta.get('infosets')} infosets / {meta.get('actions')} actions, "
            f"the game has {game.n_infosets} / {game.n_sigma}"
        )


def _read_npy(zf: zipfile.ZipFile, name: str, length: int, dtype: type) -> np.ndarray:
    """A 1-d ``.npy`` member of ``length`` entries (a larger member is refused unread)."""
    info = zf.getinfo(name)
    if info.file_size > length * 8 + 4096:
        raise ValueError(f"{name} is larger than {length} numbers")
    with zf.open(info) as fh:
        a = npy.read_array(fh, allow_pickle=False)
    if a.shape != (length,) or not np.issubdtype(a.dtype, dtype):
        raise ValueError(f"{name} is not {length} numbers of type {dtype.__name__}")
    return a


def _check_actions(zf: zipfile.ZipFile, game: Game, path: object) -> None:
    got = _read_npy(zf, "actions.npy", game.n_infosets, np.integer)
    if not np.array_equal(got, game.infoset_n_actions):
        raise ProfileError(f"{path}: the infosets' action counts are not this game's")


def _check_labels(zf: zipfile.ZipFile, game: Game, path: object) -> None:
    with zf.open("labels.txt") as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
        index = 0
        for rows in _label_chunks(game):
            for label in rows:
                line = text.readline(MAX_LABEL)
                if line.rstrip("\n") != label:
                    raise ProfileError(
                        f"{path}: infoset {index} is {line.strip()[:60]!r} in the "
                        f"archive, {label!r} in the game"
                    )
                index += 1
        if text.readline(MAX_LABEL):
            raise ProfileError(f"{path}: more labels than the game's {game.n_infosets}")


def _probs(zf: zipfile.ZipFile, meta: dict, game: Game, path: object) -> np.ndarray:
    if meta.get("exact") is True:
        info = zf.getinfo("probs.txt")
        if info.file_size > game.n_sigma * 200:
            raise ValueError("probs.txt is too large")
        lines = zf.read(info).decode("utf-8").split()
        if len(lines) != game.n_sigma:
            raise ProfileError(f"{path}: {len(lines)} probabilities, the game has {game.n_sigma}")
        return np.array([to_fraction(x) for x in lines], dtype=object)
    return _read_npy(zf, "probs.npy", game.n_sigma, np.floating).astype(np.float64)


_HEAD_BYTES = 1 << 16  # where a JSON profile (or result) written by toypoker names its game
_HEAD_GAME = re.compile(rb'\A\s*\{\s*"format"\s*:\s*"[^"]*"\s*,\s*"game"\s*:\s*"([^"]{1,2000})"')


def profile_game(path: str | Path) -> str | None:
    """The game a profile file says it is of, read from its head only (before a game is
    built): an archive's ``meta.json``, or the ``"game"`` a JSON profile or result
    written by toypoker opens with; ``None`` when a JSON file does not say so at its
    head (its full reading checks it).

    Raises
    ------
    ProfileError
        One line: not a zip archive (a ``.npz`` name), a solver checkpoint, not JSON
        text opening with an object.
    """
    if reads_as_archive(path):
        spec = read_meta(path).get("game")
        return spec if isinstance(spec, str) else None
    try:
        with open(path, "rb") as fh:
            head = fh.read(_HEAD_BYTES)
    except OSError as exc:
        raise ProfileError(f"cannot read profile {path}: {exc.strerror}") from None
    if not head.lstrip().startswith(b"{"):
        raise ProfileError(f"{path} is not a profile: a JSON object or a .npz archive")
    found = _HEAD_GAME.match(head)
    return found.group(1).decode("utf-8", "replace") if found else None


def save_profile(profile: Profile, path: str | Path) -> None:
    """Write a profile as JSON (streamed: :meth:`~toypoker.profile.Profile.write_json`),
    or as the compact archive for a name ending in ``.npz``: what :func:`load_profile`
    reads back (never over a solver checkpoint)."""
    refuse_checkpoint(path)
    if is_archive(path):
        write_archive(path, profile)
    else:
        profile.write_json(path)


def load_profile(path: str | Path, game: Game, *, exact: bool | None = None) -> Profile:
    """Read a profile file of either format (``tp.load_profile``): JSON
    (:meth:`~toypoker.profile.Profile.to_json`, ``toypoker solve -o p.json``, or a result
    file's profile) or the ``.npz`` archive (``-o p.npz``, ``--result r.npz``), by the
    name's ending.

    Parameters
    ----------
    path
        The file; a name ending in ``.npz`` is read as the archive.
    game
        The compiled game: the file's spec, infoset labels and action counts are
        checked against it.
    exact
        ``True``: exact rationals (an archive of floats is turned exact, as
        :meth:`~toypoker.profile.Profile.to_exact`); ``False``: floats; ``None``
        (default): as the file holds them.

    Raises
    ------
    ProfileError
        For an unreadable file or one that is not a profile of this game (one line).

    Examples
    --------
    >>> import tempfile, toypoker as tp
    >>> g = tp.load_game("kuhn(players=2)")
    >>> p = tp.solve(g, "cfr+", iterations=50).profile
    >>> folder = tempfile.mkdtemp()
    >>> p.to_json(folder + "/p.json")  # doctest: +ELLIPSIS
    '...'
    >>> tp.solve(g, "cfr+", iterations=50).save(folder + "/r.npz")
    >>> tp.load_profile(folder + "/p.json", g) == tp.load_profile(folder + "/r.npz", g)
    True
    """
    path = check_path(path, "path")
    game = check_game(game)
    if exact is not None and not isinstance(exact, bool):
        raise ToypokerError(f"exact must be True, False or None, not {shown(exact)}")
    if not reads_as_archive(path):
        return Profile.from_json(path, game, exact=exact)
    profile = read_profile(path, game)
    if exact and not profile.exact:
        return profile.to_exact()
    if exact is False and profile.exact:
        return profile.to_float()
    return profile
