"""The one result type every method returns: :class:`Result`.

Iterative solvers (the CFR family, Monte Carlo CFR, fictitious play), the
exact ones (the sequence-form LP, the equilibrium enumerator) and the
continuation tracer all answer with a frozen :class:`Result`, as pygambit's
``nash.*_solve`` functions all answer with one ``NashComputationResult``.

>>> from fractions import Fraction
>>> Stopped("target") is Stopped.TARGET
True
>>> jsonable({"pot": Fraction(9, 2), "why": Stopped.SOLVED})
{'pot': '9/2', 'why': 'solved'}
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType

import numpy as np

from toypoker.archive import is_archive, reads_as_archive, refuse_checkpoint, write_archive
from toypoker.engines.protocol import TeamEvaluation
from toypoker.errors import ToypokerError
from toypoker.frozen import FrozenRecord
from toypoker.game import Game
from toypoker.io import atomic_open, atomic_write_text
from toypoker.profile import Profile

RESULT_FORMAT = "toypoker-result/2"


class Stopped(StrEnum):
    """Why a run stopped (a ``str``: ``Stopped.TARGET == "target"``).

    Examples
    --------
    >>> import toypoker as tp
    >>> r = tp.solve(tp.load_game("kuhn(players=2)"), "cfr+", iterations=10)
    >>> r.stopped is tp.Stopped.ITERATIONS, r.stopped == "iterations"
    (True, True)
    """

    ITERATIONS = "iterations"  # the iteration budget was spent
    SECONDS = "seconds"  # the time budget was spent
    TARGET = "target"  # NashConv (or the largest gain) reached its target
    INTERRUPTED = "interrupted"  # Ctrl-C: the result (and checkpoint) are usable
    SOLVED = "solved"  # an exact method finished
    FINISHED = "finished"  # a sweep (e.g. a continuation trace) covered its range


@dataclass(frozen=True)
class TracePoint:
    """One NashConv check of an iterative run.

    Examples
    --------
    >>> import toypoker as tp
    >>> r = tp.solve(tp.load_game("kuhn(players=2)"), "cfr+", iterations=100, check_every=50)
    >>> [p.iteration for p in r.trace]
    [50, 100]
    """

    iteration: int
    seconds: float
    nash_conv: float


def jsonable(x: object) -> object:
    """``x`` as plain JSON data: Fractions and sympy numbers as strings, enums as
    their values, objects with ``to_json_dict()`` through it, arrays as lists."""
    if x is None or isinstance(x, bool | int | str):
        return x.value if isinstance(x, Enum) else x
    if isinstance(x, Enum):
        return jsonable(x.value)
    if isinstance(x, float):
        return x
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, np.generic):
        return jsonable(x.item())
    if isinstance(x, np.ndarray):
        return [jsonable(v) for v in x.tolist()]
    if hasattr(x, "to_json_dict"):
        return x.to_json_dict()
    if isinstance(x, Mapping):
        return {str(k): jsonable(v) for k, v in x.items()}
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: jsonable(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, list | tuple | set | frozenset):
        return [jsonable(v) for v in x]
    return str(x)  # sympy expressions and sets, paths


@dataclass(frozen=True)
class ValueBracket:
    """Player 1's value of a two-player zero-sum game: ``lower <= value of the game <=
    upper`` (:attr:`Result.value_bracket`); ``value`` is player 1's value under the
    profile itself."""

    value: object
    lower: object
    upper: object

    def to_dict(self) -> dict[str, object]:
        """As JSON data (exact numbers as ``"p/q"`` strings)."""
        return {"player": 1, **{k: jsonable(getattr(self, k)) for k in ("value", "lower", "upper")}}


@dataclass(frozen=True, eq=False)  # equality and pickling: FrozenRecord
class Result(FrozenRecord):
    """The outcome of any method: one frozen record, JSON-able.

    Attributes
    ----------
    game : Game
        The compiled game solved (``spec`` gives its canonical spec).
    method : str
        ``"cfr+"``, ``"lp"``, ``"enumerate"``, ``"trace"``, ...
    options : Mapping[str, object]
        Every parameter of the run (method options and budgets), read-only.
    profile : Profile or None
        The main profile (None for set-valued results such as ``enumerate``).
    equilibria : tuple
        ``enumerate``: its pieces; ``lp``: ``(exact profile,)``; ``trace``: the
        equilibria at the requested points.
    values, gains : tuple of float
        Each player's expected value and best-response gain under ``profile``.
    nash_conv : float or None
        Sum of the gains.
    exact : bool
        The numbers are exact rationals.
    certified : bool
        An exact certificate backs the claim (e.g. the LP's exact best responses
        are all 0, so ``value_exact`` is the value of the game).
    value_exact : tuple of Fraction or None
        Each player's exact expected value.
    iterations : int
        Iterations (steps) performed.
    seconds : float
        Wall time spent stepping (NashConv checks excluded).
    trace : tuple of TracePoint
        NashConv against iterations and seconds.
    stopped : Stopped
        Why the run stopped.
    seed : int or None
        Seed of a sampling method.
    curve : object or None
        ``trace``: the continuation curve.
    variables : tuple
        ``enumerate``: the sympy symbols of the free probabilities, in order.
    team : TeamEvaluation or None
        A game with a team: the team's joint best-response gain beside the
        outsiders' gains (:func:`toypoker.teams.evaluation.team_evaluation`).
    solved_as : str or None
        The spec of the game actually solved when it is not ``game``: a strong
        team's merged game (the profile is mapped back onto the members' seats).
    bracket : TMECor or None
        ``tmecor``: the exact bracket on the team's value (``lower``, ``upper``,
        ``certified`` when they meet), the team's correlated plan (``plans``,
        ``weights``) and the outsider's strategy (``profile``).

    Examples
    --------
    >>> import toypoker as tp
    >>> r = tp.solve(tp.load_game("kuhn(players=2)"), "lp")
    >>> r.method, r.certified, r.value_exact[0]
    ('lp', True, Fraction(-1, 18))
    >>> r.to_json_dict()["format"]
    'toypoker-result/2'
    """

    game: Game
    method: str
    options: Mapping[str, object] = field(default_factory=dict)
    profile: Profile | None = None
    equilibria: tuple = ()
    values: tuple[float, ...] = ()
    gains: tuple[float, ...] = ()
    nash_conv: float | None = None
    exact: bool = False
    certified: bool = False
    value_exact: tuple[Fraction, ...] | None = None
    iterations: int = 0
    seconds: float = 0.0
    trace: tuple[TracePoint, ...] = ()
    stopped: Stopped = Stopped.SOLVED
    seed: int | None = None
    curve: object | None = None
    variables: tuple = ()
    team: TeamEvaluation | None = None
    solved_as: str | None = None
    bracket: object | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        object.__setattr__(self, "stopped", Stopped(self.stopped))
        object.__setattr__(self, "equilibria", tuple(self.equilibria))
        object.__setattr__(self, "trace", tuple(self.trace))
        object.__setattr__(self, "variables", tuple(self.variables))

    @property
    def spec(self) -> str:
        """The canonical spec of the game solved."""
        return self.game.spec

    @property
    def value_bracket(self) -> ValueBracket | None:
        """Player 1's value of a two-player zero-sum game, bracketed by the two best
        responses to the profile (None for other games and for runs without gains).

        Against player 1's strategy, player 2's best response holds player 1 to
        ``values[0] - gains[1]``; against player 2's, player 1's best response earns
        ``values[0] + gains[0]``.  The game's value lies between, and the width is
        NashConv.  Exact where the run is (an exact profile; the LP's certified value
        is the value itself).

        Examples
        --------
        >>> import toypoker as tp
        >>> tp.solve(tp.load_game("kuhn(players=2)"), "lp").value_bracket
        ValueBracket(value=Fraction(-1, 18), lower=Fraction(-1, 18), upper=Fraction(-1, 18))
        >>> b = tp.solve(tp.load_game("kuhn(players=2)"), "cfr+", iterations=200).value_bracket
        >>> bool(b.lower <= -1 / 18 <= b.upper), round(b.upper - b.lower, 12) > 0
        (True, True)
        """
        if self.game.n_players != 2 or self.team is not None or len(self.gains) != 2:
            return None
        if self.value_exact is not None and self.certified:
            v = self.value_exact[0]
            return ValueBracket(v, v, v)
        v = self.values[0]
        return ValueBracket(v, v - self.gains[1], v + self.gains[0])

    def to_json_dict(self) -> dict[str, object]:
        """Everything as plain JSON data (exact numbers as ``"p/q"`` strings)."""
        out = self._json_without_profile()
        out["profile"] = None if self.profile is None else self.profile.to_json_dict()
        return {k: out[k] for k in self._json_keys()}

    @staticmethod
    def _json_keys() -> tuple[str, ...]:
        return (
            "format", "game", "method", "options", "exact", "certified", "values",
            "value_exact", "gains", "nash_conv", "iterations", "seconds", "stopped", "seed",
            "trace", "profile", "equilibria", "variables", "curve", "team", "solved_as",
            "bracket", "value_bracket",
        )  # fmt: skip

    def _json_without_profile(self) -> dict[str, object]:
        return {
            "format": RESULT_FORMAT,
            "game": self.spec,
            "method": self.method,
            "options": jsonable(self.options),
            "exact": self.exact,
            "certified": self.certified,
            "values": list(self.values),
            "value_exact": jsonable(self.value_exact),
            "gains": list(self.gains),
            "nash_conv": _finite(self.nash_conv),
            "iterations": self.iterations,
            "seconds": self.seconds,
            "stopped": self.stopped.value,
            "seed": self.seed,
            "trace": [[p.iteration, p.seconds, _finite(p.nash_conv)] for p in self.trace],
            "equilibria": [jsonable(e) for e in self.equilibria],
            "variables": [str(v) for v in self.variables],
            "curve": jsonable(self.curve),
            "team": None if self.team is None else self.team.to_dict(),
            "solved_as": self.solved_as,
            "bracket": jsonable(self.bracket),
            "value_bracket": None if self.value_bracket is None else self.value_bracket.to_dict(),
        }

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_json_dict` as JSON, atomically; a path ending in ``.npz``
        writes the compact archive instead (:mod:`toypoker.archive`: the profile as
        arrays and labels, streamed; the rest as the archive's ``result``).

        Raises
        ------
        ToypokerError
            ``.npz`` for a result without a profile, or ``path`` a solver checkpoint
            (one line: a run's state is never replaced by a result).
        """
        refuse_checkpoint(path)
        if is_archive(path):
            if self.profile is None:
                raise ToypokerError(f"{path}: a {self.method} result has no profile to archive")
            write_archive(path, self.profile, self._json_without_profile())
            return
        if self.profile is None:
            atomic_write_text(path, json.dumps(self.to_json_dict(), indent=1) + "\n")
            return
        with atomic_open(path) as fh:
            for piece in self._json_pieces():
                fh.write(piece.encode("utf-8"))

    def _json_pieces(self) -> Iterator[str]:
        """The text :meth:`save` writes (``json.dumps(self.to_json_dict(), indent=1)``
        and a newline) in pieces: the profile's streamed by
        :meth:`~toypoker.profile.Profile._json_pieces`, one level deeper (Rhode Island's
        3.9 M infosets never as one dict or one string)."""
        assert self.profile is not None
        out = self._json_without_profile()
        out["profile"] = _SLOT
        text = json.dumps({k: out[k] for k in self._json_keys()}, indent=1)
        if text.count(json.dumps(_SLOT)) != 1:  # some field holds it too: all at once
            yield json.dumps(self.to_json_dict(), indent=1) + "\n"
            return
        before, after = text.split(json.dumps(_SLOT), 1)
        yield before
        last = None
        for piece in self.profile._json_pieces():
            if last is not None:
                yield last.replace("\n", "\n ")
            last = piece
        if last is not None:
            yield last.removesuffix("\n").replace("\n", "\n ")
        yield after + "\n"

    @classmethod
    def load(cls, path: str | Path, game: Game | None = None) -> Result:
        """Read a result written by :meth:`save`: its JSON, or the ``.npz`` archive.

        Parameters
        ----------
        path
            The file :meth:`save` (``toypoker solve --result``) wrote; a name ending
            in ``.npz`` is read as the archive.
        game
            The compiled game, if at hand (it must be the file's); by default the
            file's own spec is loaded (:func:`toypoker.load_game`).

        Returns
        -------
        Result
            The method, options, profile (exact or float, as written), values, gains,
            NashConv, exact values, iterations, seconds, trace, stop and seed as they
            were saved.  The fields a file holds as JSON data only (``equilibria``,
            ``variables``, ``curve``, ``team``, ``bracket``) come back as that data:
            dicts, lists and ``"p/q"`` strings.

        Raises
        ------
        ToypokerError
            For a missing or unreadable file, or one that is not a toypoker result of
            this game (:class:`~toypoker.errors.ProfileError`): one line.

        Examples
        --------
        >>> import tempfile, toypoker as tp
        >>> r = tp.solve(tp.load_game("kuhn(players=2)"), "lp")
        >>> path = tempfile.mkdtemp() + "/r.json"
        >>> r.save(path)
        >>> back = tp.Result.load(path)
        >>> back.value_exact == r.value_exact, back.profile == r.profile
        (True, True)
        """
        from toypoker.archive import read_meta, read_profile
        from toypoker.engines import load_game
        from toypoker.errors import ProfileError
        from toypoker.games import canonical_spec
        from toypoker.io import read_text_limited
        from toypoker.profile import MAX_PROFILE_BYTES, _loads, max_profile_bytes

        if reads_as_archive(path):
            meta = read_meta(path)
            data = meta.get("result")
            if not isinstance(data, dict):
                raise ProfileError(
                    f"{path} holds a profile, not a result: read it with toypoker.load_profile"
                )
            data = dict(data, game=meta.get("game"))
        else:
            head = read_text_limited_head(path)
            spec = _spec_of(head, path)
            game = game if game is not None else load_game(spec)
            limit = max_profile_bytes(game) + MAX_PROFILE_BYTES
            data = _loads(read_text_limited(path, limit, "result"), path)
        if not isinstance(data, dict) or data.get("format") != RESULT_FORMAT:
            found = data.get("format") if isinstance(data, dict) else None
            raise ProfileError(
                f"{path} is not a {RESULT_FORMAT} result (format {str(found)[:40]!r})"
            )
        spec = data.get("game")
        if not isinstance(spec, str):
            raise ProfileError(f"{path}: the result names no game")
        if game is None:
            game = load_game(spec)
        elif canonical_spec(spec) != game.spec:
            raise ProfileError(f"{path} is a result of {spec}, not of {game.spec}")
        if reads_as_archive(path):
            profile = read_profile(path, game)
        elif data.get("profile") is not None:
            profile = Profile.from_json_dict(data["profile"], game)
        else:
            profile = None
        try:
            return cls(
                game=game,
                method=str(data["method"]),
                options=dict(data.get("options") or {}),
                profile=profile,
                equilibria=tuple(data.get("equilibria") or ()),
                values=tuple(float(x) for x in data.get("values") or ()),
                gains=tuple(float(x) for x in data.get("gains") or ()),
                nash_conv=None if data.get("nash_conv") is None else float(data["nash_conv"]),
                exact=bool(data.get("exact")),
                certified=bool(data.get("certified")),
                value_exact=None
                if data.get("value_exact") is None
                else tuple(Fraction(str(x)) for x in data["value_exact"]),
                iterations=int(data.get("iterations") or 0),
                seconds=float(data.get("seconds") or 0.0),
                trace=tuple(
                    TracePoint(int(t), float(s), math.nan if nc is None else float(nc))
                    for t, s, nc in data.get("trace") or ()
                ),
                stopped=Stopped(data.get("stopped", Stopped.SOLVED)),
                seed=data.get("seed"),
                curve=data.get("curve"),
                variables=tuple(data.get("variables") or ()),
                team=data.get("team"),
                solved_as=data.get("solved_as"),
                bracket=data.get("bracket"),
            )
        except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
            raise ProfileError(f"{path} is not a valid result: {exc}") from None

    def to_csv(self, path: str | Path | None = None) -> str:
        """The trace as CSV (``iteration,seconds,nash_conv``); written atomically
        to ``path`` if given."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["iteration", "seconds", "nash_conv"])
        for p in self.trace:
            w.writerow([p.iteration, repr(float(p.seconds)), repr(float(p.nash_conv))])
        text = buf.getvalue()
        if path is not None:
            atomic_write_text(path, text)
        return text


HEAD_BYTES = 1 << 16
"""How much of a result file is read first, for its game's spec."""


def read_text_limited_head(path: str | Path) -> str:
    """The first :data:`HEAD_BYTES` of ``path`` as text (one line if unreadable)."""
    from toypoker.errors import ProfileError

    try:
        with open(path, "rb") as fh:
            return fh.read(HEAD_BYTES).decode("utf-8-sig", errors="replace")
    except OSError as exc:
        raise ProfileError(f"cannot read result {path}: {exc.strerror or exc}") from None


def _spec_of(head: str, path: object) -> str:
    """The ``"game"`` of a result file from its first bytes (:meth:`Result.save` writes
    ``format`` and ``game`` first)."""
    import re

    from toypoker.errors import ProfileError

    m = re.search(r'"game":\s*("(?:[^"\\]|\\.)*")', head)
    if m is None:
        raise ProfileError(f"{path} is not a toypoker result: no game near its start")
    return json.loads(m.group(1))


_SLOT = "toypoker: the profile goes here"  # a JSON string no other field holds


def _finite(x: float | None) -> float | None:
    """JSON has no NaN or infinity: those become null."""
    if x is None or not math.isfinite(float(x)):
        return None
    return float(x)


__all__ = ["RESULT_FORMAT", "Result", "Stopped", "TracePoint", "jsonable"]
