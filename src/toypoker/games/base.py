"""What every built-in game declares: its parameters (:class:`Param`) and its
registry entry (:class:`GameInfo`) with the game's hooks.

A game's module (``kuhn.py``, ``third_street.py``, ``leduc.py``) holds every
fact about that game -- validation, defaults, building, size, dominated
actions, the OpenSpiel counterpart -- as hooks on its :class:`GameInfo`; the
registry in ``games/__init__.py`` is a literal.  Defaults come from
:attr:`Param.default` (a default of ``None`` is "computed by the game's
``check``", e.g. Kuhn's ``cards = players + 1``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from toypoker.definition import GameDefinition
from toypoker.errors import SpecError
from toypoker.spec import format_value

Params = dict[str, object]


@dataclass(frozen=True)
class Param:
    """A documented game parameter.

    ``kind`` is ``"int"``, ``"number"`` (exact rational), ``"bool"`` or ``"word"``
    (a bare word such as ``mmh``);
    ``default`` fills the parameter when it is not given (``None``: no default,
    or one computed by the game's ``check``); ``low``/``high`` bound ints;
    ``positive`` requires a number > 0; ``excludes`` names alternatives that
    may not be given together with this one (its default applies only when
    none of them is given).
    """

    name: str
    kind: str
    default: object
    doc: str
    low: int | None = None
    high: int | None = None
    positive: bool = False
    excludes: tuple[str, ...] = ()


def _no_check(p: Params) -> Params:
    return p


def _no_size(p: Params, max_entries: int | None = None) -> tuple[int, int, int] | None:
    return None


def _no_dominated(game: object) -> dict[int, float]:
    return {}


def _no_openspiel(game: object) -> tuple[str, dict[str, object]] | None:
    return None


def _players_param(p: Params) -> int:
    return int(p["players"])  # type: ignore[call-overload]


def _unrestricted(p: Params) -> bool:
    return False


@dataclass(frozen=True)
class GameInfo:
    """A built-in game: parameters, description, source, and its hooks.

    Hooks
    -----
    check(params) -> params
        Game-specific checks and derived defaults after :meth:`validate`'s
        generic ones (types, bounds, :attr:`Param.default`).
    build(params) -> GameDefinition
        The deal table and public tree (with the chips as affine forms).
    size(params, max_entries) -> (deals, public nodes, players) | None
        Counted before anything is allocated (``load_game`` refuses what would
        not fit); raises ``games.limit.TooLargeError`` once
        ``deals x nodes x players`` passes ``max_entries``.
    dominated(game) -> {sigma index: probability}
        Choices fixed as dominated (continuation pins them); empty by default.
    openspiel(game) -> (OpenSpiel game name, parameters) | None
        OpenSpiel's identical game, if any.
    players(params) -> int
        The number of players, without building (default: the ``players`` parameter).
    restricted(params) -> bool
        Whether the built game fixes some choices (default False); with
        :attr:`players`, what :func:`~toypoker.games.canonical_spec` checks a
        collusion team against without building the game.
    """

    name: str
    doc: str
    source: str
    params: tuple[Param, ...]
    build: Callable[[Params], GameDefinition]
    check: Callable[[Params], Params] = _no_check
    size: Callable[..., tuple[int, int, int] | None] = _no_size
    dominated: Callable[..., dict[int, float]] = _no_dominated
    openspiel: Callable[..., tuple[str, dict[str, object]] | None] = _no_openspiel
    players: Callable[[Params], int] = _players_param
    restricted: Callable[[Params], bool] = _unrestricted

    def validate(self, given: Mapping[str, object]) -> Params:
        """Canonical parameters from the given ones: names, types and bounds
        checked, defaults filled from :attr:`Param.default`, then :attr:`check`;
        in the order of :attr:`params`.

        Raises
        ------
        SpecError
            For an unknown parameter or an invalid value.
        """
        known = {p.name: p for p in self.params}
        for k in given:
            if k not in known:
                raise SpecError(
                    f"unknown parameter {k!r} for {self.name}; known: {', '.join(known)}"
                )
        out: Params = {}
        for p in self.params:
            clash = [e for e in p.excludes if e in given]
            if p.name in given:
                if clash:
                    raise SpecError(f"give either {p.name} or {clash[0]} for {self.name}, not both")
                out[p.name] = _typed(p, given[p.name])
            elif p.default is not None and not clash:
                out[p.name] = _typed(p, p.default)
        out = self.check(out)
        return {p.name: out[p.name] for p in self.params if p.name in out}


def _typed(p: Param, v: object) -> object:
    if p.kind == "word":
        if not isinstance(v, str):
            raise SpecError(f"parameter {p.name!r} must be a word, not {format_value(v)}")
        return v
    if p.kind == "bool":
        if not isinstance(v, bool):
            raise SpecError(f"parameter {p.name!r} must be true or false, not {format_value(v)}")
        return v
    if isinstance(v, bool) or not isinstance(v, Fraction | int):
        what = "a whole number" if p.kind == "int" else "a number"
        raise SpecError(f"parameter {p.name!r} must be {what}, not {format_value(v)}")
    v = Fraction(v)
    if p.kind == "int":
        if v.denominator != 1:
            raise SpecError(f"parameter {p.name!r} must be a whole number, not {format_value(v)}")
        n = int(v)
        if p.low is not None and n < p.low:
            raise SpecError(f"parameter {p.name!r} needs {p.name} >= {p.low}, got {n}")
        if p.high is not None and n > p.high:
            raise SpecError(f"parameter {p.name!r} needs {p.name} <= {p.high}, got {n}")
        return n
    if p.positive and v <= 0:
        raise SpecError(f"parameter {p.name!r} must be positive, got {format_value(v)}")
    return v
