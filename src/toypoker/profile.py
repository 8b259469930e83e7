"""Strategy profiles: one flat vector of action probabilities per game.

A :class:`Profile` holds ``probs``, a flat vector over the game's
(infoset, action) pairs, either ``float64`` or an object array of exact
:class:`fractions.Fraction`.  It is validated on construction: probabilities
non-negative, each infoset summing to one (floats within :data:`SUM_TOL`),
restricted infosets at their fixed values.  It is read-only (its attributes and
its array), and every evaluator checks its rows again (:func:`check_profile`).
Profiles are read from mappings keyed by infoset label (``"P2:3:kb"``) or
``(player, private, history)`` -- Python, numpy, Fraction or Decimal numbers --
and round-trip through JSON (with the game spec) and CSV; no pickle files (the
objects still pickle, for worker processes).

Exact profiles may be written with decimals by the iterative solvers: a row of
decimals whose exact sum is within :data:`SNAP_TOL` of one is snapped onto the
simplex (divided by its sum) and the profile records it in ``snapped``.
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

from .checks import plain, plain_values, shown
from .errors import ProfileError, SpecError
from .game import ACTION_NAMES, Game, check_game
from .games import canonical_spec
from .io import atomic_open, atomic_write_text, in_place, write_in_two, write_target
from .spec import parse_number

FORMAT = "toypoker-profile/1"
FLOAT_TOL = 1e-9
"""Float probabilities may be this far below zero (rounding), no further."""
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


def _own_probs(probs: np.ndarray, name: str = "probs") -> np.ndarray:
    """A new array of ``probs``: float64 for a numeric array; for an object array,
    Fractions when every entry is exact (ints, Fractions, numpy integers), float64 when
    some are floats or Decimals (decimals as written, as :meth:`Profile.from_mapping`
    reads them by default).

    Raises
    ------
    ProfileError
        For entries that are not real numbers (bools, strings, complex numbers, None).
    """
    if probs.dtype != object:
        if probs.dtype.kind not in "biuf":
            raise ProfileError(f"{name} must hold real numbers, not {probs.dtype} values")
        return np.array(probs, dtype=np.float64)
    items = [plain(x) for x in probs.ravel()]
    for x in items:
        if isinstance(x, bool) or not isinstance(x, int | float | Fraction | Decimal):
            raise ProfileError(f"{name} must hold real numbers, not {shown(x)}")
    if all(isinstance(x, int | Fraction) for x in items):
        return np.array([Fraction(x) for x in items], dtype=object).reshape(probs.shape)
    try:
        return np.array([float(x) for x in items], dtype=np.float64).reshape(probs.shape)
    except (ValueError, OverflowError) as exc:  # a signalling NaN among Decimals
        raise ProfileError(f"{name} must hold real numbers: {exc}") from None


def check_rows(profile: Profile) -> None:
    """Check a profile's rows: every probability finite and non-negative (floats: not
    below ``-FLOAT_TOL``), every infoset's summing to one (floats: within
    :data:`SUM_TOL`; exact: exactly).  Evaluators run it on every profile they take
    (:func:`check_profile`), so a profile changed after it was made is never evaluated.

    Raises
    ------
    ProfileError
        Naming the first infoset (and action) that breaks a rule.
    """
    g, p = profile.game, profile.probs
    if profile.exact:
        bad = [k for k, x in enumerate(p) if not isinstance(x, Fraction) or x < 0]
        if bad:
            raise ProfileError(f"negative or non-rational probability at {profile._where(bad[0])}")
        sums = np.zeros(g.n_infosets, dtype=object)
        np.add.at(sums, g.sigma_infoset, p)
        off = [i for i in range(g.n_infosets) if sums[i] != 1]
        if off:
            i = off[0]
            raise ProfileError(f"probabilities at {g.infosets[i].label} sum to {sums[i]}, not 1")
        return
    if not np.all(np.isfinite(p)):
        k = int(np.argmin(np.isfinite(p)))
        raise ProfileError(f"non-finite probability at {profile._where(k)}")
    if np.any(p < -FLOAT_TOL):
        raise ProfileError(f"negative probability at {profile._where(int(np.argmin(p)))}")
    sums = np.bincount(g.sigma_infoset, weights=p, minlength=g.n_infosets)
    dev = np.abs(sums - 1.0)
    if g.n_infosets and dev.max() > SUM_TOL:
        i = int(np.argmax(dev))
        raise ProfileError(f"probabilities at {g.infosets[i].label} sum to {sums[i]:.12g}, not 1")


JSON_BATCH = 20_000
"""Infosets a piece of a streamed profile file (:meth:`Profile.write_json`)."""

PARALLEL_JSON_INFOSETS = 200_000
"""A profile with this many infosets or more is written as JSON in two halves at once
(:func:`toypoker.io.write_in_two`); a smaller one takes less than a second."""


def _float_texts(xs: np.ndarray) -> list[str]:
    """``json.dumps``'s text of each number of the float vector ``xs`` (``repr``), made
    by ``orjson``: the same shortest round-trip digits, written the same way for zero and
    magnitudes in [1e-4, 1e16) (checked on 5.5 million random floats); the others (an
    exponent from ``repr``, ``orjson`` writes them another way) and non-finite numbers
    by Python.  Rhode Island's 9.8 million probabilities: 0.7 s, not 12 s.

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


class Profile:
    """A behaviour-strategy profile of a compiled game.

    Parameters
    ----------
    game
        The compiled game.
    probs
        Flat vector over ``game``'s actions (see ``InfoSet.offset``); float64
        or an object array of Fractions.
    validate
        Check non-negativity, sums and restrictions (default True).
    snapped
        Labels of infosets whose written decimals were snapped onto the exact
        simplex when read (see :data:`SNAP_TOL`); empty otherwise.

    Examples
    --------
    >>> import numpy as np, toypoker as tp
    >>> g = tp.load_game("kuhn(players=2)")
    >>> p = tp.Profile.uniform(g)
    >>> p.game is g, p.probs.shape, p.exact
    (True, (24,), False)
    >>> q = tp.Profile.random(g, np.random.default_rng(0))
    >>> q.to_json_dict()["game"]
    'kuhn(players=2,cards=3,ante=1,bet=1)'
    """

    __slots__ = ("game", "probs", "snapped")

    def __init__(
        self,
        game: Game,
        probs: np.ndarray,
        validate: bool = True,
        snapped: tuple[str, ...] = (),
    ):
        check_game(game)
        try:
            probs = np.asarray(probs)
        except (TypeError, ValueError) as exc:  # ragged nested lists
            raise ProfileError(f"probs is not a vector of probabilities: {exc}") from None
        if probs.shape != (game.n_sigma,):
            raise ProfileError(
                f"a profile of {game.spec} has {game.n_sigma} entries, got shape {probs.shape}"
            )
        # a copy of its own, read-only: the caller's array may change, this one cannot
        probs = _own_probs(probs)
        probs.setflags(write=False)
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "probs", probs)
        # infosets whose decimals were snapped onto the simplex
        object.__setattr__(self, "snapped", tuple(snapped))
        if validate:
            self._validate()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Profile is read-only: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Profile is read-only: cannot delete {name!r}")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle and deep-copy support: rebuilt from the game, a copy of the probabilities
        and ``snapped`` (read-only again; not re-validated: evaluators check the rows)."""
        return (Profile, (self.game, np.array(self.probs), False, self.snapped))

    def __eq__(self, other: object) -> bool:
        """Equal: profiles of the same game (kind and canonical spec, same infosets),
        both exact or both float, with equal probabilities and the same snapped rows."""
        if not isinstance(other, Profile):
            return NotImplemented
        return (
            type(self.game) is type(other.game)
            and self.game.spec == other.game.spec
            and same_tree(self.game, other.game)
            and self.exact == other.exact
            and bool(np.array_equal(self.probs, other.probs))
            and self.snapped == other.snapped
        )

    def __hash__(self) -> int:
        data = tuple(self.probs) if self.exact else self.probs.tobytes()
        return hash((self.game.spec, data, self.snapped))

    # ---------------------------------------------------------------- checks
    @property
    def exact(self) -> bool:
        """Whether the probabilities are exact Fractions (an object array)."""
        return self.probs.dtype == object

    def _validate(self) -> None:
        check_rows(self)
        g = self.game
        p = self.probs
        if self.exact:
            for k, v in g.fixed_values_exact.items():
                if p[k] != v:
                    raise ProfileError(f"{self._where(k)} is restricted to {v}, got {p[k]}")
        else:
            fixed = g.sigma_fixed
            if fixed.any() and np.abs(p[fixed] - g.fixed_values[fixed]).max() > 1e-9:
                k = int(np.nonzero(fixed & (np.abs(p - g.fixed_values) > 1e-9))[0][0])
                raise ProfileError(
                    f"{self._where(k)} is restricted to {g.fixed_values[k]}, got {p[k]}"
                )

    def _where(self, k: int) -> str:
        g = self.game
        info = g.infosets[g.sigma_infoset[k]]
        return f"{info.label} action {info.actions[k - info.offset]!r}"

    # ---------------------------------------------------------- constructors
    @classmethod
    def uniform(cls, game: Game, exact: bool = False) -> Profile:
        """Every free infoset uniform; restricted infosets at their fixed values
        (:func:`uniform_sigma`)."""
        return cls(game, uniform_sigma(game, exact))

    @classmethod
    def random(cls, game: Game, rng: np.random.Generator) -> Profile:
        """A random behaviour profile: a flat Dirichlet draw at every free infoset,
        restricted infosets at their fixed values.

        Parameters
        ----------
        game
            The compiled game.
        rng
            The random generator (explicit: no global random state).
        """
        # rng.dirichlet(np.ones(k)) infoset by infoset, vectorised to the same bits: with
        # every alpha 1 numpy draws k standard exponentials and scales them by 1 / their
        # sum (numpy's random_standard_gamma(1) is random_standard_exponential)
        n_act = np.asarray(game.infoset_n_actions, dtype=np.int64)
        draws = rng.standard_exponential(int(game.n_sigma))
        sums = _row_sums(draws, np.asarray(game.infoset_offset[:-1], dtype=np.int64), n_act)
        probs = draws * np.repeat(1.0 / sums, n_act)
        probs[game.sigma_fixed] = game.fixed_values[game.sigma_fixed]
        return cls(game, probs)

    @classmethod
    def from_mapping(
        cls,
        game: Game,
        mapping: Mapping[object, object],
        *,
        exact: bool | None = None,
        fill: str | None = None,
    ) -> Profile:
        """A profile from ``{infoset key: probabilities}``.

        Keys are labels (``"P2:3:kb"``) or ``(player, private, history)`` tuples
        (player 0-based).  Values are ``{action letter: p}``, a sequence in the
        infoset's action order, or -- for two-action infosets -- one number,
        the probability of the aggressive action (bet or call), as the papers
        write them.  Restricted infosets may be omitted.  Missing free
        infosets are an error unless ``fill="uniform"``.  ``exact`` defaults
        to True when every given value is an int, Fraction or string.  In exact
        mode a row written in decimals whose sum is within :data:`SNAP_TOL` of
        one (``0.33333333333333331``, as iterative solvers write) is divided by
        its sum; the profile's ``snapped`` lists those infosets and a
        ``UserWarning`` says so.
        """
        if fill not in (None, "uniform"):
            raise ProfileError(f"fill must be None or 'uniform', not {fill!r}")
        if exact is not True:
            probs = _plain_float_rows(game, mapping, fill)
            if probs is not None:
                return cls(game, probs)
        given: dict[int, list[object]] = {}
        all_exact = True
        for key, value in mapping.items():
            info = game.infoset(key)
            values = None if isinstance(value, Mapping) else plain_values(value)
            if isinstance(value, Mapping):
                unknown = set(value) - set(info.actions)
                if unknown:
                    raise ProfileError(
                        f"unknown action(s) {sorted(unknown)} at {info.label}; "
                        f"actions are {list(info.actions)}"
                    )
                row = [plain(value.get(a, 0)) for a in info.actions]
            elif values is not None:  # a list, tuple or numpy row
                if len(values) != len(info.actions):
                    raise ProfileError(
                        f"{info.label} has {len(info.actions)} actions, got {len(values)} values"
                    )
                row = values
            else:
                if len(info.actions) != 2:
                    raise ProfileError(
                        f"{info.label} has {len(info.actions)} actions: give a mapping"
                    )
                x = plain(value)
                one_minus = (1 - to_fraction(x)) if _is_exact_value(x) else 1.0 - float(x)
                row = [one_minus, x]
            all_exact &= all(_is_exact_value(x) for x in row)
            _check_row(info.label, row)
            if info.index in given:
                raise ProfileError(f"infoset {info.label} given twice")
            given[info.index] = row
        if exact is None:
            exact = all_exact
        base = cls.uniform(game, exact=exact).probs.copy()
        missing = [i for i in game.infosets if not i.restricted and i.index not in given]
        if missing and fill is None:
            raise _missing(missing[0].label, len(missing))
        snapped: list[str] = []
        for idx, row in given.items():
            info = game.infosets[idx]
            if exact:
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
                stacklevel=2,
            )
        return cls(game, base, snapped=tuple(snapped))

    # -------------------------------------------------------------- accessors
    def __getitem__(self, key: object) -> dict[str, object]:
        info = self.game.infoset(key)
        return {a: self.probs[info.offset + k] for k, a in enumerate(info.actions)}

    def aggressive(self, key: object) -> object:
        """Probability of the aggressive action (bet/call) at a two-action infoset."""
        info = self.game.infoset(key)
        return self.probs[info.offset + len(info.actions) - 1]

    def to_float(self) -> Profile:
        """A float64 copy."""
        return Profile(self.game, np.array([float(x) for x in self.probs]), validate=False)

    def to_exact(self, max_denominator: int | None = None) -> Profile:
        """Exact copy; floats become the nearest rational (bounded denominator if given),
        renormalised so each infoset sums to one exactly."""
        if self.exact:
            return self
        g = self.game
        fr = [Fraction(float(x)) for x in self.probs]
        if max_denominator:
            fr = [f.limit_denominator(max_denominator) for f in fr]
        probs = np.array(fr, dtype=object)
        for info in g.infosets:
            sl = slice(info.offset, info.offset + len(info.actions))
            s = sum(probs[sl], Fraction(0))
            probs[sl] = [x / s for x in probs[sl]]
        for k, v in g.fixed_values_exact.items():
            probs[k] = v
        return Profile(g, probs)

    def as_dict(self) -> dict[str, dict[str, object]]:
        """``{label: {action: probability}}`` in the game's infoset order."""
        return {
            info.label: {a: self.probs[info.offset + k] for k, a in enumerate(info.actions)}
            for info in self.game.infosets
        }

    # --------------------------------------------------------------------- I/O
    def to_json_dict(self) -> dict[str, object]:
        """The profile as JSON data: format, game spec, exactness, ``{label: {action: p}}``
        (exact probabilities as ``"p/q"`` strings)."""

        def enc(x: object) -> object:
            return str(x) if isinstance(x, Fraction) else float(x)

        return {
            "format": FORMAT,
            "game": self.game.spec,
            "exact": self.exact,
            "infosets": {
                label: {a: enc(x) for a, x in acts.items()}
                for label, acts in self.as_dict().items()
            },
        }

    def to_json(self, path: str | Path | None = None) -> str:
        """The JSON text of :meth:`to_json_dict`, written atomically to ``path`` if given."""
        text = json.dumps(self.to_json_dict(), indent=1) + "\n"
        if path is not None:
            atomic_write_text(path, text)
        return text

    def write_json(self, path: str | Path) -> None:
        """Write :meth:`to_json`'s text to ``path`` atomically, in pieces: the same bytes,
        never the whole text (nor its dict) in memory at once.  What ``toypoker solve -o
        FILE.json`` writes: Rhode Island's 3.9 million infosets are a 0.4 GB file.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> from toypoker import load_game
        >>> p = Profile.uniform(load_game("kuhn"), exact=True)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     f = pathlib.Path(d, "p.json")
        ...     p.write_json(f)
        ...     f.read_text(encoding="utf-8") == p.to_json()
        True
        """
        n = len(self.game.infosets)
        with atomic_open(path) as fh:
            if n < PARALLEL_JSON_INFOSETS or in_place(path):  # a pipe, a device: one writer
                for piece in self._json_pieces():
                    fh.write(piece.encode("utf-8"))
                return
            mid = n // 2
            write_in_two(
                fh,
                lambda: self._json_pieces(stop=mid),
                lambda: itertools.chain(self._json_body(mid, n), [" }\n}\n"]),
                write_target(path).parent,
            )

    def _json_pieces(self, batch: int = JSON_BATCH, stop: int | None = None) -> Iterator[str]:
        """:meth:`to_json`'s text (``json.dumps(..., indent=1)``) in pieces of ``batch``
        infosets; with ``stop``, only the head and the infosets before ``stop`` (the
        rest: :meth:`_json_body` from ``stop`` on, then the closing braces)."""
        head = {"format": FORMAT, "game": self.game.spec, "exact": self.exact}
        text = json.dumps(head, indent=1)
        n = len(self.game.infosets)
        if not n:
            yield text[:-2] + ',\n "infosets": {}\n}\n'
            return
        yield text[:-2] + ',\n "infosets": {\n'
        yield from self._json_body(0, n if stop is None else stop, batch)
        if stop is None:
            yield " }\n}\n"

    def _json_body(self, start: int, stop: int, batch: int = JSON_BATCH) -> Iterator[str]:
        """The text of infosets ``start .. stop - 1`` in :meth:`_json_pieces`, in pieces of
        ``batch``, each piece ending with its separator."""
        infosets = self.game.infosets
        probs = self.probs
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
            values = self._json_values(probs[first:end])
            out = []
            for labels, actions, offset in rows:
                k = len(actions)
                if actions not in templates:  # as json.dumps(..., indent=1) lays it out
                    body = ",".join(f"\n   {dumps(a)}: {{}}" for a in actions)
                    body = body.replace("{}", "\0").replace("{", "{{").replace("}", "}}")
                    templates[actions] = (
                        '  "{}": {{' + body.replace("\0", "{}") + "\n  }}" if k else '  "{}": {{}}'
                    )
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

    def _json_values(self, xs: np.ndarray) -> list[str]:
        """The JSON text of each probability in ``xs``, as :meth:`to_json_dict` writes
        it: a Fraction as a ``"p/q"`` string, a float as ``json.dumps`` writes it (its
        ``repr`` when finite; one C call for a float vector)."""
        if xs.dtype != object:
            return _float_texts(xs)
        dumps = json.encoder.encode_basestring_ascii
        return [dumps(str(x)) if isinstance(x, Fraction) else _float_json(x) for x in xs]

    @classmethod
    def from_json_dict(cls, data: object, game: Game, *, exact: bool | None = None) -> Profile:
        """A profile from its JSON object (``to_json_dict``).

        Parameters
        ----------
        data
            The decoded JSON: ``{"game": spec, "exact": bool, "infosets": {...}}``.
        game
            The compiled game (``load_game(data["game"])`` reads the file's own); the
            profile's spec, when it names one, must name the same game (compared as
            canonical specs, without compiling).
        exact
            Read the numbers as exact rationals (decimals as written: 0.1 = 1/10;
            rows within 1e-9 of the simplex are snapped onto it, said in
            :attr:`snapped` and a warning) or as floats; by default as the file's
            ``"exact"`` field says.

        Raises
        ------
        ProfileError
            For anything but a profile of this game (one line).
        """
        if isinstance(data, dict) and "infosets" not in data and "profile" in data:
            data = data["profile"]  # a result file (Result.save): its profile
        if not isinstance(data, dict) or "infosets" not in data:
            raise ProfileError("not a toypoker profile: expected an object with 'infosets'")
        version = data.get("format", FORMAT)
        if version != FORMAT:  # a file of another version is not read as this one
            raise ProfileError(
                f"profile format {str(version)[:40]!r} is not {FORMAT!r}, the one this "
                "toypoker reads"
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
        return cls.from_mapping(game, infosets, exact=exact if isinstance(exact, bool) else None)

    @classmethod
    def from_json(cls, path: str | Path, game: Game, *, exact: bool | None = None) -> Profile:
        """Read a profile written by :meth:`to_json` (``game`` and ``exact`` as for
        :meth:`from_json_dict`).  At most :func:`max_profile_bytes` are read, so a
        device such as ``/dev/zero`` is refused, not read forever.

        Raises
        ------
        ProfileError
            For an unreadable, binary, non-JSON (NaN and Infinity included),
            nested too deeply or invalid file (one line).
        """
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
        return cls.from_json_dict(_loads(text, path), game, exact=exact)

    def to_csv(self, path: str | Path | None = None) -> str:
        """One row per (infoset, action): label, player (1-based), private, history,
        action, action name, probability (exact as ``p/q`` when exact)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["infoset", "player", "private", "history", "action", "name", "probability"])
        for info in self.game.infosets:
            for k, a in enumerate(info.actions):
                x = self.probs[info.offset + k]
                w.writerow(
                    [
                        info.label,
                        info.player + 1,
                        info.private_label,
                        info.history,
                        a,
                        ACTION_NAMES[a],
                        str(x) if self.exact else repr(float(x)),
                    ]
                )
        text = buf.getvalue()
        if path is not None:
            atomic_write_text(path, text)
        return text

    def __repr__(self) -> str:
        return f"Profile({self.game.spec!r}, exact={self.exact})"


def same_tree(a: Game, b: Game) -> bool:
    """Whether ``a`` and ``b`` have the same infosets and actions (a profile of one is
    a profile of the other): the same game, ``game.at`` of it, or an identical tree."""
    if a is b or a.infosets is b.infosets:
        return True
    if a.n_sigma != b.n_sigma or a.n_infosets != b.n_infosets:
        return False
    return all(
        x.label == y.label and x.actions == y.actions
        for x, y in zip(a.infosets, b.infosets, strict=True)
    )


def check_profile(
    game: Game, value: object, name: str = "profile", *, validate: bool = True
) -> Profile:
    """A :class:`~toypoker.profile.Profile` of ``game``: ``value`` itself, or a flat
    vector of ``game.n_sigma`` probabilities made into one (validated if ``validate``).

    A profile of the same tree at other numbers (``game.at(pot=...)``: the same
    infosets and actions) is a profile of ``game``.  A :class:`Profile`'s rows are
    checked again (:func:`check_rows`), whatever ``validate`` says: its array is
    read-only, but a caller may have made it writeable and changed it.

    Raises
    ------
    ProfileError
        For another game's profile, a vector of the wrong length, rows that are not
        probabilities, or anything else.
    """
    check_game(game)
    if isinstance(value, Profile):
        if not same_tree(value.game, game):
            other = value.game
            raise ProfileError(f"{name} is a profile of {other.spec}, not of {game.spec}")
        check_rows(value)
        return value
    if isinstance(value, np.ndarray | list | tuple) and not isinstance(value, str):
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError) as exc:  # ragged lists
            raise ProfileError(f"{name} is not a vector of probabilities: {exc}") from None
        if arr.dtype != object and not np.issubdtype(arr.dtype, np.number):
            raise ProfileError(f"{name} must hold numbers, not {arr.dtype} values")
        if arr.dtype.kind == "c":
            raise ProfileError(f"{name} must hold real numbers, not complex ones")
        return Profile(game, _own_probs(arr, name), validate=validate)
    raise ProfileError(
        f"{name} must be a toypoker.Profile of {game.spec} or a vector of its "
        f"{game.n_sigma} action probabilities, not {shown(value)}"
    )
