"""The built-in games and the spec-string entry points :func:`load_game` and
:func:`canonical_spec`.

``GAMES`` is a literal registry: each entry is the :class:`GameInfo` of a
game's own module (``kuhn``, ``third_street``, ``leduc``), whose hooks hold
the game's validation, defaults, builder, size, dominated actions and
OpenSpiel counterpart.

>>> from toypoker.games import canonical_spec, load_game
>>> g = load_game("kuhn(players=3)")
>>> g.n_players, g.n_deals, g.n_infosets
(3, 24, 48)
>>> canonical_spec("kuhn(pot=3, players=3)")
'kuhn(players=3,cards=4,bet=1,pot=3)'
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from types import MappingProxyType

from ..errors import SpecError
from ..game import Game
from ..spec import format_spec, parse_spec
from .base import GameInfo, Param, Params
from .collusion import COLLUSION_KEYS, apply_collusion, split_collusion
from .holdem import HOLDEM
from .kuhn import KUHN
from .leduc import LEDUC
from .limit import TooLargeError
from .mercer import MERCER
from .third_street import SKP, THIRD_STREET

GAMES: Mapping[str, GameInfo] = MappingProxyType(
    {
        "kuhn": KUHN,
        "kuhn_third_street": THIRD_STREET,
        "skp": SKP,
        "leduc": LEDUC,
        "mercer": MERCER,
        "holdem": HOLDEM,
    }
)

DEFAULT_MAX_BYTES = 2**31
"""Largest estimated size ``deals x public nodes x players x 8`` bytes :func:`load_game`
compiles (the environment variable ``TOYPOKER_MAX_BYTES`` overrides it)."""

BYTES_PER_ENTRY = 8


def _info(name: str) -> GameInfo:
    info = GAMES.get(name)
    if info is None:
        raise SpecError(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    return info


def parse_game_spec(spec: str) -> tuple[GameInfo, Params, dict[str, object]]:
    """A spec read and validated, without building: ``(game info, its parameters,
    the generic collusion parameters)``.

    Raises
    ------
    SpecError
        For an unknown game or parameter, or an invalid value.
    """
    parsed = parse_spec(spec)
    info = _info(parsed.name)
    raw, coll = split_collusion(parsed.as_dict())  # generic team=/sharing=/strong=/merge=
    return info, info.validate(raw), coll


def canonical_spec(spec: str) -> str:
    """The canonical spec of a game, without compiling it.

    Parameters
    ----------
    spec
        A spec string such as ``"kuhn(pot=3, players=3)"``.

    Returns
    -------
    str
        Every parameter given or defaulted, in the game's order:
        ``"kuhn(players=3,cards=4,bet=1,pot=3)"``.

    Raises
    ------
    SpecError
        For an unknown game or parameter, or an invalid value.
    """
    info, params, coll = parse_game_spec(spec)
    return format_spec(info.name, {**params, **coll})


def _max_bytes(max_bytes: int | None) -> int:
    if max_bytes is not None:
        return int(max_bytes)
    env = os.environ.get("TOYPOKER_MAX_BYTES", "").strip()
    if env:
        try:
            return int(float(env))
        except ValueError:
            raise SpecError(f"TOYPOKER_MAX_BYTES must be a number of bytes, got {env!r}") from None
    return DEFAULT_MAX_BYTES


def _count(x: int) -> str:
    """A count for people: digits grouped, or ``m.mmme+k`` for huge integers
    (math.log10 works on ints of any size; float() does not)."""
    if x < 10**15:
        return f"{x:,}"
    k = math.floor(math.log10(x))
    return f"{10 ** (math.log10(x) - k):.3f}e+{k}"


def check_size(info: GameInfo, params: Params, max_bytes: int | None = None) -> None:
    """Refuse a game whose estimated size ``deals x public nodes x players x 8`` bytes
    exceeds ``max_bytes`` (default :data:`DEFAULT_MAX_BYTES`), before allocating.

    Raises
    ------
    SpecError
        With the estimate, in one line.
    """
    limit = _max_bytes(max_bytes)
    spec = format_spec(info.name, params)
    hint = "(load_game(max_bytes=...) or TOYPOKER_MAX_BYTES allows more)"
    try:
        counted = info.size(params, max_entries=limit // BYTES_PER_ENTRY)
    except TooLargeError as e:
        nodes = "1 public node" if e.nodes == 1 else f"at least {e.nodes:,} public nodes each"
        raise SpecError(
            f"{spec} is too large to compile: {_count(e.deals)} deals x {nodes} x "
            f"{e.players} players x {BYTES_PER_ENTRY} bytes > {limit:,} bytes {hint}"
        ) from None
    # the hook raised above if the rows (deals x public nodes each deal reaches) pass the
    # budget; the public nodes it returns are all of them (an upper bound per deal)
    del counted


def load_game(spec: str, *, max_bytes: int | None = None) -> Game:
    """Compile a game from a spec string such as ``"kuhn(players=3, cards=5, pot=4)"``.

    Parameters
    ----------
    spec
        ``name(key=value, ...)``; see :data:`GAMES` for the games and parameters.
    max_bytes
        Refuse games whose estimated size (deals x public nodes x players x 8
        bytes) is larger; default :data:`DEFAULT_MAX_BYTES` or the environment
        variable ``TOYPOKER_MAX_BYTES``.

    Returns
    -------
    Game
        The compiled game (its payoffs affine in ``Game.numeric_params``).

    Raises
    ------
    SpecError
        For an unknown game or parameter, an invalid value, or a game too large.
    """
    info, params, coll = parse_game_spec(spec)
    check_size(info, params, max_bytes)
    definition = info.build(params)
    if coll:
        definition = apply_collusion(definition, coll)
        definition.params = {**definition.params, **coll}

        def validate(p: Mapping[str, object]) -> dict[str, object]:
            own = info.validate({k: v for k, v in p.items() if k not in COLLUSION_KEYS})
            return {**own, **coll}

        definition.validate = validate
    else:
        definition.validate = info.validate
    return Game(definition, format_spec(info.name, {**params, **coll}))


__all__ = [
    "DEFAULT_MAX_BYTES",
    "GAMES",
    "GameInfo",
    "Param",
    "canonical_spec",
    "check_size",
    "load_game",
    "parse_game_spec",
]
