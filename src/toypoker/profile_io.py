"""A profile's data read and written: mappings, JSON and CSV.

What :class:`~toypoker.profile.Profile` reads and writes, as functions of a game and
a flat vector of probabilities (``probs``: float64, or an object array of Fractions),
so the Profile's own module keeps the type and its checks: a mapping keyed by infoset
label or ``(player, private, history)`` read into a vector (:func:`read_mapping`, the
plain float rows ``solve -o`` writes in bulk), a JSON file read within its size limit
(:func:`read_profile_file`, :func:`json_infosets`), and the JSON and CSV texts written
(:func:`json_pieces`, :func:`write_json`, :func:`profile_csv`).  The tolerances the
reading applies and the uniform rows it fills in live here too; ``toypoker.profile``
re-exports them.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import warnings
from collections.abc import Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import orjson

from toypoker.checks import plain, plain_values
from toypoker.errors import ProfileError, SpecError
from toypoker.game import ACTION_NAMES, Game
from toypoker.games import canonical_spec
from toypoker.io import atomic_open, atomic_write_text, in_place, write_in_two, write_target
from toypoker.spec import parse_number

FORMAT = "toypoker-profile/1"
SUM_TOL = 1e-6
"""Each infoset's float probabilities must sum to one within this."""
SNAP_TOL = Fraction(1, 10**9)
"""Rows of decimals (exact mode) whose sum is within this of one are snapped onto the simplex."""
MAX_PROFILE_BYTES = 256 * 2**20  # a profile file larger than this is refused unread


def max_profile_bytes(game: Game) -> int:
    """The largest profile file read for ``game``: :data:`MAX_PROFILE_BYTES` plus room for
    what :meth:`Profile.to_json` writes of its infosets (256 bytes an infoset for its
    label and braces, 64 a flat action for its name and number; Rhode Island's own
    0.4 GB file is under its 1.6 GB), so a device such as ``/dev/zero`` is still refused."""
    return MAX_PROFILE_BYTES + 256 * (len(game.infoset_offset) - 1) + 64 * int(game.n_sigma)


def uniform_sigma(game: Game, exact: bool = False) -> np.ndarray:
    """The uniform strategy vector: every free infoset uniform, restricted infosets at
    their fixed values (float64, or Fractions if ``exact``).  The one place for it."""
    k = game.infoset_n_actions[game.sigma_infoset]
    if exact:
        probs = np.array([Fraction(1, int(x)) for x in k], dtype=object)
        for i, v in game.fixed_values_exact.items():
            probs[i] = v
    else:
        probs = 1.0 / k
        probs[game.sigma_fixed] = game.fixed_values[game.sigma_fixed]
    return probs


def to_fraction(x: object) -> Fraction:
    """An exact probability from an int, Fraction, string like ``"1/3"``, a float or
    Decimal (read as written: ``0.1`` is ``1/10``) or a numpy number."""
    x = plain(x)
    if isinstance(x, bool):
        raise ProfileError(f"a probability must be a number, not {x!r}")
    if isinstance(x, Fraction | int):
        return Fraction(x)
    if isinstance(x, str):
        try:
            return parse_number(x)  # bounded: "1e999999999" is an error, not a hang
        except SpecError as exc:
            raise ProfileError(f"bad probability: {exc}") from None
    if isinstance(x, float):
        if not np.isfinite(x):
            raise ProfileError(f"a probability must be finite, not {x!r}")
        # read a decimal as written (0.1 -> 1/10), not as its binary expansion
        return parse_number(repr(x))
    if isinstance(x, Decimal):
        if not x.is_finite():
            raise ProfileError(f"a probability must be finite, not {x}")
        return Fraction(x)
    raise ProfileError(f"a probability must be a number, not {x!r}")


def _is_exact_value(x: object) -> bool:
    return isinstance(x, Fraction | int | str) and not isinstance(x, bool)


def _is_decimal(x: object) -> bool:
    """Written as a decimal (``0.25``, ``1e-3``, a float or Decimal), not as an int or
    ``p/q``."""
    if isinstance(x, float | Decimal):
        return True
    return isinstance(x, str) and "/" not in x and any(c in x for c in ".eE")


def _check_row(label: str, row: list[object]) -> None:
    """Reject a negative entry or a row that does not sum to one (before any fill);
    exact decimals within :data:`SNAP_TOL` of one pass (they are snapped later)."""
    try:
        vals = [to_fraction(x) if _is_exact_value(x) else float(x) for x in row]
    except (TypeError, ValueError) as exc:
        raise ProfileError(f"bad probability at {label}: {exc}") from None
    if any(x < 0 for x in vals):
        raise ProfileError(f"negative probability at {label}")
    total = sum(vals)
    exact_row = all(isinstance(x, Fraction) for x in vals)
    snappable = any(_is_decimal(x) for x in row) and abs(total - 1) <= SNAP_TOL
    if abs(float(total) - 1.0) > SUM_TOL or (exact_row and total != 1 and not snappable):
        raise ProfileError(f"probabilities at {label} sum to {total}, not 1")


def _missing(label: str, n: int) -> ProfileError:
    more = f" (and {n - 1} more)" if n > 1 else ""
    return ProfileError(f"no probabilities for infoset {label}{more}")


def _plain_float_rows(
    game: Game, mapping: Mapping[object, object], fill: str | None
) -> np.ndarray | None:
    """The flat float vector of ``mapping`` when it is what :meth:`Profile.to_json`
    writes of a float profile -- every key a label as the game writes it, every value a
    ``{action: float}`` dict in the infoset's action order, no restricted infosets --
    read in bulk with numpy (Rhode Island's 3.9 M infosets: seconds, not minutes);
    ``None`` for anything else, which :meth:`Profile.from_mapping` reads row by row.
    The same probabilities and the same errors as that reading (the first bad row is
    checked by :func:`_check_row`)."""
    if np.any(game.infoset_restricted):
        return None
    # (map and set over millions of rows: C loops, no Python frame an item)
    keys = list(mapping)
    rows = list(mapping.values())
    if set(map(type, keys)) - {str} or set(map(type, rows)) - {dict}:
        return None
    at = list(map(game._label_index.get, keys))
    if None in at:
        return None
    if list(map(tuple, rows)) != list(map(_actions_of(game).__getitem__, at)):
        return None
    vals = list(itertools.chain.from_iterable(map(dict.values, rows)))
    if set(map(type, vals)) - {float}:
        return None  # ints, strings, Fractions, numpy numbers: row by row
    x = np.array(vals, dtype=np.float64)
    idx = np.array(at, dtype=np.int64)
    n_act = np.asarray(game.infoset_n_actions, dtype=np.int64)[idx]
    starts = np.cumsum(n_act) - n_act  # each row's first value in x
    if len(x):
        sums = _row_sums(x, starts, n_act)
        bad = ~np.isfinite(sums) | (np.abs(sums - 1.0) > SUM_TOL)
        bad |= np.logical_or.reduceat(x < 0, starts)
        if bad.any():
            r = int(np.argmax(bad))
            _check_row(keys[r], list(rows[r].values()))
            return None  # not refused there (a NaN): row by row, as ever
    seen = np.zeros(len(game.infoset_offset) - 1, dtype=bool)
    seen[idx] = True
    if fill is None and not seen.all():
        missing = np.flatnonzero(~seen)
        raise _missing(game.infosets[int(missing[0])].label, len(missing))
    probs = uniform_sigma(game)
    probs[np.repeat(np.asarray(game.infoset_offset)[idx] - starts, n_act) + np.arange(len(x))] = x
    return probs


def _row_sums(x: np.ndarray, starts: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Each row's sum, ``x[starts[i] : starts[i] + n[i]]`` added left to right as a loop
    adds them (``np.add.reduceat`` pairs them: other last bits)."""
    sums = np.zeros(len(n))
    for j in range(int(n.max()) if len(n) else 0):
        has = n > j
        sums[has] += x[starts[has] + j]
    return sums


def _actions_of(game: Game) -> list[tuple[str, ...]]:
    """Each infoset's actions, in the game's infoset order (a vector game's without
    making its infoset objects)."""
    infosets = game.infosets
    every = getattr(infosets, "every_actions", None)
    return every() if every is not None else [i.actions for i in infosets]


def _reject_constant(name: str) -> object:
    raise ProfileError(f"{name} is not a probability")


def _version(text: str) -> tuple[int, ...]:
    """``"3.9.15"`` as ``(3, 9, 15)`` (what follows the digits of a part is dropped)."""
    parts = []
    for part in text.split(".")[:3]:
        digits = "".join(itertools.takewhile(str.isdigit, part))
        parts.append(int(digits or 0))
    return tuple(parts)


_ORJSON_READS = _version(orjson.__version__) >= (3, 9, 15)


def _loads(text: str, path: object) -> object:
    """JSON without NaN/Infinity; errors (deep nesting, huge ints) as one line.

    orjson reads it first (twice as fast on a large profile file); what orjson refuses
    (NaN, numbers beyond 64 bits, nesting past 1024, lone surrogates, a byte-order mark)
    the standard library reads, or says why in its words: orjson accepts strict JSON
    only, which the standard library reads to the same values.  An orjson before 3.9.15
    (no depth limit: CVE-2024-27454) is not used to read."""
    if _ORJSON_READS:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ProfileError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise ProfileError(f"{path} is nested too deeply to be a profile") from None
    except ProfileError as exc:
        raise ProfileError(f"{path}: {exc}") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise ProfileError(f"{path} is not a profile: {str(exc).splitlines()[0]}") from None


JSON_BATCH = 20_000
"""Infosets a piece of a streamed profile file (:meth:`Profile.write_json`)."""

PARALLEL_JSON_INFOSETS = 200_000
"""A profile with this many infosets or more is written as JSON in two halves at once
(:func:`toypoker.io.write_in_two`); a smaller one takes less than a second."""


def _float_texts(xs: np.ndarray) -> list[str]:
    """``json.dumps``'s text of each number of the float vector ``xs`` (``repr``), made
    by ``orjson``: the same shortest round-trip digits, written the same way for zero and
    magnitudes in [1e-4, 1e16) (``tests/test_profile.py`` checks them against
    ``json.dumps``); the others (an exponent from ``repr``, ``orjson`` writes them
    another way) and non-finite numbers by Python.

    Examples
    --------
    >>> _float_texts(np.array([0.5, 1e-05, 1.0, 0.1 + 0.2, 0.0]))
    ['0.5', '1e-05', '1.0', '0.30000000000000004', '0.0']
    """
    if not len(xs):
        return []
    x = np.ascontiguousarray(xs, dtype=np.float64)
    if not np.isfinite(x).all():
        return json.dumps(x.tolist())[1:-1].split(", ")
    texts = orjson.dumps(x, option=orjson.OPT_SERIALIZE_NUMPY)[1:-1].decode().split(",")
    a = np.abs(x)
    odd = np.flatnonzero((a != 0) & ((a < 1e-4) | (a >= 1e16)))
    for i, text in zip(odd.tolist(), map(float.__repr__, x[odd].tolist()), strict=True):
        texts[i] = text
    return texts


def _plain(text: str) -> bool:
    """Whether ``json.dumps`` writes ``text`` as it is between its quotes (printable
    ASCII without quotes or backslashes: nothing to escape).

    Examples
    --------
    >>> _plain("P1:Ah:kb"), _plain('say "hi"'), _plain("tab\\there"), _plain("café")
    (True, False, False, False)
    """
    return text.isascii() and text.isprintable() and '"' not in text and "\\" not in text


def _float_json(x: object) -> str:
    """``json.dumps(float(x))``, faster for the finite floats of a profile."""
    f = float(x)  # type: ignore[arg-type]
    return repr(f) if math.isfinite(f) else json.dumps(f)


# ------------------------------------------------------------- reading a mapping
def _mapping_row(info: object, value: object) -> list[object]:
    """The row of probabilities ``value`` gives at ``info``: a ``{action: p}`` mapping,
    a sequence in the infoset's action order, or -- at a two-action infoset -- the
    probability of the aggressive action."""
    if isinstance(value, Mapping):
        unknown = set(value) - set(info.actions)
        if unknown:
            raise ProfileError(
                f"unknown action(s) {sorted(unknown)} at {info.label}; "
                f"actions are {list(info.actions)}"
            )
        return [plain(value.get(a, 0)) for a in info.actions]
    values = plain_values(value)
    if values is not None:  # a list, tuple or numpy row
        if len(values) != len(info.actions):
            raise ProfileError(
                f"{info.label} has {len(info.actions)} actions, got {len(values)} values"
            )
        return values
    if len(info.actions) != 2:
        raise ProfileError(f"{info.label} has {len(info.actions)} actions: give a mapping")
    x = plain(value)
    try:
        inside = 0 <= (to_fraction(x) if _is_exact_value(x) else float(x)) <= 1
    except (TypeError, ValueError):  # not a number: the row check says so
        inside = True
    if not inside:  # its complement would be reported, not what was written
        raise ProfileError(
            f"the probability of {info.actions[1]!r} at {info.label} must be in [0, 1], "
            f"got {x}"
        )
    one_minus = (1 - to_fraction(x)) if _is_exact_value(x) else 1.0 - float(x)
    return [one_minus, x]


def _exact_row(info: object, row: list[object], snapped: list[str]) -> list[Fraction]:
    """A given row as Fractions; decimals within :data:`SNAP_TOL` of the simplex divided
    by their sum (the infoset's label added to ``snapped``)."""
    fr = [to_fraction(x) for x in row]
    total = sum(fr, Fraction(0))
    if total != 1 and any(_is_decimal(x) for x in row):
        if abs(total - 1) > SNAP_TOL:
            raise ProfileError(
                f"probabilities at {info.label} sum to {float(total)!r}, not 1 "
                f"(exact mode snaps decimals within {float(SNAP_TOL):g} only)"
            )
        fr = [x / total for x in fr]  # onto the simplex
        snapped.append(info.label)
    return fr


def read_mapping(
    game: Game,
    mapping: Mapping[object, object],
    *,
    exact: bool | None = None,
    fill: str | None = None,
) -> tuple[np.ndarray, tuple[str, ...]]:
    """``(probs, snapped)`` of ``{infoset key: probabilities}``, as
    :meth:`Profile.from_mapping <toypoker.profile.Profile.from_mapping>` reads it (its
    docstring says how); a ``UserWarning`` names the rows snapped onto the simplex."""
    if fill not in (None, "uniform"):
        raise ProfileError(f"fill must be None or 'uniform', not {fill!r}")
    if exact is not True:
        probs = _plain_float_rows(game, mapping, fill)
        if probs is not None:
            return probs, ()
    given: dict[int, list[object]] = {}
    all_exact = True
    for key, value in mapping.items():
        info = game.infoset(key)
        row = _mapping_row(info, value)
        all_exact &= all(_is_exact_value(x) for x in row)
        _check_row(info.label, row)
        if info.index in given:
            raise ProfileError(f"infoset {info.label} given twice")
        given[info.index] = row
    if exact is None:
        exact = all_exact
    base = uniform_sigma(game, exact=exact)
    missing = [i for i in game.infosets if not i.restricted and i.index not in given]
    if missing and fill is None:
        raise _missing(missing[0].label, len(missing))
    snapped: list[str] = []
    for idx, row in given.items():
        info = game.infosets[idx]
        if exact:
            fr = _exact_row(info, row, snapped)
            base[info.offset : info.offset + len(fr)] = fr
            continue
        for k, x in enumerate(row):
            try:
                base[info.offset + k] = float(x)
            except (TypeError, ValueError):
                raise ProfileError(f"bad probability {x!r} at {info.label}") from None
    if snapped:
        more = f" and {len(snapped) - 1} more" if len(snapped) > 1 else ""
        warnings.warn(
            f"decimals at {snapped[0]}{more} did not sum to 1 exactly; snapped onto the "
            f"simplex (within {float(SNAP_TOL):g})",
            UserWarning,
            stacklevel=3,  # the caller of Profile.from_mapping
        )
    return base, tuple(snapped)


# ------------------------------------------------------------------ reading JSON
def json_infosets(
    data: object, game: Game, exact: bool | None = None
) -> tuple[dict[object, object], bool | None]:
    """``(infosets, exact)`` of a profile's JSON object, for :meth:`Profile.from_mapping
    <toypoker.profile.Profile.from_mapping>`: a result file's profile read as its
    profile, the format and the game's spec checked (as
    :meth:`Profile.from_json_dict <toypoker.profile.Profile.from_json_dict>` says)."""
    if isinstance(data, dict) and "infosets" not in data and "profile" in data:
        data = data["profile"]  # a result file (Result.save): its profile
    if not isinstance(data, dict) or "infosets" not in data:
        raise ProfileError("not a toypoker profile: expected an object with 'infosets'")
    version = data.get("format", FORMAT)
    if version != FORMAT:  # a file of another version is not read as this one
        raise ProfileError(
            f"profile format {str(version)[:40]!r} is not {FORMAT!r}, the one this toypoker reads"
        )
    spec = data.get("game")
    if spec is not None and not isinstance(spec, str):
        raise ProfileError(f"'game' must be a game spec string, not {type(spec).__name__}")
    try:
        if spec is not None and canonical_spec(spec) != game.spec:
            raise ProfileError(f"the profile is for {spec}, not for {game.spec}")
    except SpecError as exc:
        raise ProfileError(f"the profile's game: {exc}") from None
    infosets = data["infosets"]
    if not isinstance(infosets, dict):
        raise ProfileError("'infosets' must map infoset labels to action probabilities")
    if exact is None:
        exact = data.get("exact")
    return infosets, exact if isinstance(exact, bool) else None


def read_profile_file(path: str | Path, game: Game) -> object:
    """The decoded JSON of a profile file of ``game``: at most
    :func:`max_profile_bytes` read (a device such as ``/dev/zero`` is refused, not read
    forever), UTF-8 text, JSON without NaN or Infinity (:func:`_loads`)."""
    limit = max_profile_bytes(game)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise ProfileError(f"cannot read profile {path}: {exc.strerror}") from None
    if len(raw) > limit:
        raise ProfileError(f"{path} is larger than {limit} bytes: not a profile")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProfileError(f"{path} is not a text (UTF-8) file") from None
    return _loads(text, path)


# ------------------------------------------------------------------ writing JSON
def write_json(game: Game, probs: np.ndarray, path: str | Path) -> None:
    """Write the JSON text of the profile ``probs`` of ``game`` to ``path`` atomically,
    in pieces (:meth:`Profile.write_json <toypoker.profile.Profile.write_json>`); a
    large one in two halves at once (:data:`PARALLEL_JSON_INFOSETS`)."""
    n = len(game.infosets)
    with atomic_open(path) as fh:
        if n < PARALLEL_JSON_INFOSETS or in_place(path):  # a pipe, a device: one writer
            for piece in json_pieces(game, probs):
                fh.write(piece.encode("utf-8"))
            return
        mid = n // 2
        write_in_two(
            fh,
            lambda: json_pieces(game, probs, stop=mid),
            lambda: itertools.chain(_json_body(game, probs, mid, n), [" }\n}\n"]),
            write_target(path).parent,
        )


def json_pieces(
    game: Game, probs: np.ndarray, batch: int = JSON_BATCH, stop: int | None = None
) -> Iterator[str]:
    """:meth:`Profile.to_json <toypoker.profile.Profile.to_json>`'s text
    (``json.dumps(..., indent=1)``) in pieces of ``batch`` infosets; with ``stop``, only
    the head and the infosets before ``stop`` (the rest: :func:`_json_body` from
    ``stop`` on, then the closing braces)."""
    head = {"format": FORMAT, "game": game.spec, "exact": probs.dtype == object}
    text = json.dumps(head, indent=1)
    n = len(game.infosets)
    if not n:
        yield text[:-2] + ',\n "infosets": {}\n}\n'
        return
    yield text[:-2] + ',\n "infosets": {\n'
    yield from _json_body(game, probs, 0, n if stop is None else stop, batch)
    if stop is None:
        yield " }\n}\n"


def _infoset_template(actions: tuple[str, ...]) -> str:
    """The text of an infoset with these actions, as ``json.dumps(..., indent=1)`` lays
    it out: a ``str.format`` template of its label and its probabilities."""
    dumps = json.encoder.encode_basestring_ascii
    k = len(actions)
    body = ",".join(f"\n   {dumps(a)}: {{}}" for a in actions)
    body = body.replace("{}", "\0").replace("{", "{{").replace("}", "}}")
    return '  "{}": {{' + body.replace("\0", "{}") + "\n  }}" if k else '  "{}": {{}}'


def _json_body(
    game: Game, probs: np.ndarray, start: int, stop: int, batch: int = JSON_BATCH
) -> Iterator[str]:
    """The text of infosets ``start .. stop - 1`` in :func:`json_pieces`, in pieces of
    ``batch``, each piece ending with its separator."""
    infosets = game.infosets
    dumps = json.encoder.encode_basestring_ascii  # json.dumps of a str, without the rest
    # runs of infosets at one node, as (labels, actions, first offset); hand vectors
    # make them from arrays (no objects), a compiled game's objects are runs of one
    runs = getattr(infosets, "runs", None)
    templates: dict[tuple[str, ...], str] = {}  # an infoset's text, per action tuple
    n = len(infosets)
    for lo in range(start, stop, batch):
        hi = min(stop, lo + batch)
        if runs is None:
            rows = [([i.label], i.actions, i.offset) for i in infosets[lo:hi]]
        else:
            rows = runs(lo, hi)
        first = rows[0][2]
        end = rows[-1][2] + len(rows[-1][0]) * len(rows[-1][1])
        values = json_values(probs[first:end])
        out = []
        for labels, actions, offset in rows:
            k = len(actions)
            if actions not in templates:
                templates[actions] = _infoset_template(actions)
            args = np.empty((len(labels), k + 1), dtype=object)
            if _plain(" ".join(labels)):  # json.dumps would escape nothing
                args[:, 0] = labels
            else:
                args[:, 0] = [dumps(x)[1:-1] for x in labels]
            if k:
                at = offset - first
                args[:, 1:] = np.array(values[at : at + len(labels) * k], dtype=object).reshape(
                    len(labels), k
                )
            out.append(",\n".join([templates[actions]] * len(labels)).format(*args.ravel()))
        text = ",\n".join(out)
        yield text + (",\n" if hi < n else "\n")


def json_values(xs: np.ndarray) -> list[str]:
    """The JSON text of each probability in ``xs``, as :meth:`Profile.to_json_dict
    <toypoker.profile.Profile.to_json_dict>` writes it: a Fraction as a ``"p/q"``
    string, a float as ``json.dumps`` writes it (its ``repr`` when finite; one C call
    for a float vector)."""
    if xs.dtype != object:
        return _float_texts(xs)
    dumps = json.encoder.encode_basestring_ascii
    return [dumps(str(x)) if isinstance(x, Fraction) else _float_json(x) for x in xs]


# ------------------------------------------------------------------- writing CSV
def profile_csv(game: Game, probs: np.ndarray, path: str | Path | None = None) -> str:
    """One row per (infoset, action): label, player (1-based), private, history,
    action, action name, probability (exact as ``p/q`` when exact); written atomically
    to ``path`` if given (:meth:`Profile.to_csv <toypoker.profile.Profile.to_csv>`)."""
    exact = probs.dtype == object
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["infoset", "player", "private", "history", "action", "name", "probability"])
    for info in game.infosets:
        for k, a in enumerate(info.actions):
            x = probs[info.offset + k]
            w.writerow(
                [
                    info.label,
                    info.player + 1,
                    info.private_label,
                    info.history,
                    a,
                    ACTION_NAMES[a],
                    str(x) if exact else repr(float(x)),
                ]
            )
    text = buf.getvalue()
    if path is not None:
        atomic_write_text(path, text)
    return text
