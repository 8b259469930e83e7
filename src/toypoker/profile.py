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
objects still pickle, for worker processes); the reading and writing is
:mod:`toypoker.profile_io`'s.

Exact profiles may be written with decimals by the iterative solvers: a row of
decimals whose exact sum is within :data:`SNAP_TOL` of one is snapped onto the
simplex (divided by its sum) and the profile records it in ``snapped``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np

from toypoker.checks import plain, shown
from toypoker.errors import ProfileError
from toypoker.game import Game, check_game
from toypoker.io import atomic_write_text
from toypoker.kept import refuse_kept_work
from toypoker.profile_io import (  # noqa: F401 (re-exported: imported from here)
    FORMAT,
    JSON_BATCH,
    MAX_PROFILE_BYTES,
    PARALLEL_JSON_INFOSETS,
    SNAP_TOL,
    SUM_TOL,
    _loads,
    _row_sums,
    json_infosets,
    json_pieces,
    max_profile_bytes,
    profile_csv,
    read_mapping,
    read_profile_file,
    to_fraction,
    uniform_sigma,
    write_json,
)

FLOAT_TOL = 1e-9
"""Float probabilities may be this far below zero (rounding), no further."""


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
        probs, snapped = read_mapping(game, mapping, exact=exact, fill=fill)
        return cls(game, probs, snapped=snapped)

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
            refuse_kept_work(path, "a profile")  # another run's resumable work stays
            atomic_write_text(path, text)
        return text

    def write_json(self, path: str | Path) -> None:
        """Write :meth:`to_json`'s text to ``path`` atomically, in pieces: the same bytes,
        never the whole text (nor its dict) in memory at once.  What ``toypoker solve -o
        FILE.json`` writes (Rhode Island's profile is a file of hundreds of MB).

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
        refuse_kept_work(path, "a profile")  # another run's resumable work stays
        write_json(self.game, self.probs, path)

    def _json_pieces(self, batch: int = JSON_BATCH, stop: int | None = None) -> Iterator[str]:
        """:meth:`to_json`'s text in pieces of ``batch`` infosets
        (:func:`~toypoker.profile_io.json_pieces`)."""
        return json_pieces(self.game, self.probs, batch, stop)

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
        infosets, exact = json_infosets(data, game, exact)
        return cls.from_mapping(game, infosets, exact=exact)

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
        return cls.from_json_dict(read_profile_file(path, game), game, exact=exact)

    def to_csv(self, path: str | Path | None = None) -> str:
        """One row per (infoset, action): label, player (1-based), private, history,
        action, action name, probability (exact as ``p/q`` when exact)."""
        if path is not None:
            refuse_kept_work(path, "a profile's CSV")
        return profile_csv(self.game, self.probs, path)

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
