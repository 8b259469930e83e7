"""The built-in games and the spec-string entry points :func:`load_rows` and
:func:`canonical_spec`.

``GAMES`` is a literal registry: each entry is the :class:`GameInfo` of a
game's own module (``kuhn``, ``third_street``, ``leduc``, ``mercer``,
``holdem``), whose hooks hold the game's validation, defaults, builder, size,
dominated actions and OpenSpiel counterpart.  The builders share ``limit``
(the betting tree), ``deals`` (the deal tables) and ``hands`` (the showdown
evaluators); ``collusion`` transforms any game's definition.

Games floor: may import the game, the definition and the ground only -- never
profiles, evaluation, the solvers or anything above.

>>> from toypoker.games import canonical_spec, load_rows
>>> g = load_rows("kuhn(players=3)")
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

from toypoker import deal_table
from toypoker.checks import check_int, check_text
from toypoker.errors import SpecError
from toypoker.game import Game
from toypoker.games import kuhn, mercer
from toypoker.games.base import GameInfo, Param, Params
from toypoker.games.holdem import HOLDEM
from toypoker.games.kuhn import KUHN
from toypoker.games.layout_count import LayoutCount, count_holdem, count_shape
from toypoker.games.leduc import LEDUC
from toypoker.games.limit import TooLargeError
from toypoker.games.mercer import MERCER
from toypoker.games.rhode_island import RHODE_ISLAND, holdem_params
from toypoker.games.team_transform import (
    COLLUSION_KEYS,
    apply_collusion,
    check_collusion,
    split_collusion,
)
from toypoker.games.third_street import SKP, THIRD_STREET
from toypoker.spec import format_spec, parse_spec

GAMES: Mapping[str, GameInfo] = MappingProxyType(
    {
        "kuhn": KUHN,
        "kuhn_third_street": THIRD_STREET,
        "skp": SKP,
        "leduc": LEDUC,
        "mercer": MERCER,
        "holdem": HOLDEM,
        "rhode_island": RHODE_ISLAND,
    }
)


DEFAULT_MAX_BYTES = 2**31
"""The memory budget of a build when ``TOYPOKER_MAX_BYTES`` does not set one and the
machine's memory cannot be read (else half of it, :func:`default_max_bytes`): a game
whose counted size on its layout passes it is refused in one line before anything is
allocated (the deal table: deals x public nodes x players x 8 bytes, and its counted
rows; hand vectors: their counted entries, :mod:`toypoker.engines.vectors.size`)."""


def _cgroup_limit() -> int | None:
    """The memory limit of this process's cgroup (v2, else v1), if one is set."""
    for name in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(name, encoding="ascii") as f:  # noqa: PTH123 - a one-line system file
                text = f.read().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 2**62:  # "max" or v1's huge number: no limit
            return int(text)
    return None


def default_max_bytes() -> int:
    """The budget without ``TOYPOKER_MAX_BYTES``: half the machine's memory (the lower of
    its physical memory and this process's cgroup limit), as the docs promise;
    :data:`DEFAULT_MAX_BYTES` where the memory cannot be read."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return DEFAULT_MAX_BYTES
    limit = _cgroup_limit()
    if limit is not None:
        total = min(total, limit)
    return total // 2 if total > 0 else DEFAULT_MAX_BYTES


BYTES_PER_ENTRY = 8


def _info(name: str) -> GameInfo:
    info = GAMES.get(name)
    if info is None:
        raise SpecError(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    return info


SPEC_WHAT = 'a game spec such as "kuhn(players=3)"'


def parse_game_spec(spec: str) -> tuple[GameInfo, Params, dict[str, object]]:
    """A spec read and validated, without building: ``(game info, its parameters,
    the generic collusion parameters)``.

    Raises
    ------
    SpecError
        For an unknown game or parameter, or an invalid value.
    """
    parsed = parse_spec(check_text(spec, "spec", SPEC_WHAT, SpecError))
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
        For an unknown game or parameter, or an invalid value (a collusion team
        is checked as :func:`load_rows` checks it).

    Examples
    --------
    >>> canonical_spec("kuhn(pot=3, players=3)")
    'kuhn(players=3,cards=4,bet=1,pot=3)'
    """
    info, params, coll = parse_game_spec(spec)
    if coll:  # the team checks load_rows makes, without building the game
        check_collusion(coll, info.players(params), info.restricted(params))
    return format_spec(info.name, {**params, **coll})


def max_bytes_allowed(max_bytes: int | None = None) -> int:
    """The memory budget of a build: ``max_bytes`` when given, else the environment
    variable ``TOYPOKER_MAX_BYTES``, else half the machine's memory
    (:func:`default_max_bytes`)."""
    if max_bytes is not None:
        return check_int(max_bytes, "max_bytes", low=1, error=SpecError)
    env = os.environ.get("TOYPOKER_MAX_BYTES", "").strip()
    if env:
        try:
            value = float(env)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value > 0):  # inf, nan, 0, -1: no budget at all
            raise SpecError(
                f"TOYPOKER_MAX_BYTES must be a positive finite number of bytes "
                f"(e.g. 8e9), got {env[:40]!r}"
            )
        return int(value)
    return default_max_bytes()


def _count(x: int) -> str:
    """A count for people: digits grouped, or ``m.mmme+k`` for huge integers
    (math.log10 works on ints of any size; float() does not)."""
    if x < 10**15:
        return f"{x:,}"
    k = math.floor(math.log10(x))
    return f"{10 ** (math.log10(x) - k):.3f}e+{k}"


def _named(spec: str) -> str:
    """``spec``, or ``name(...)`` when it is long: the refusal then fits one line whole
    (the CLI cuts a longer line in the middle, the estimate's middle)."""
    return spec if len(spec) <= 60 else spec.partition("(")[0] + "(...)"


def too_large(spec: str, deals: int, nodes: int, players: int, limit: int) -> str:
    """The one-line refusal of a game over the budget, with the estimate."""
    node = "1 public node" if nodes == 1 else f">= {_count(nodes)} public nodes each"
    return (
        f"{_named(spec)}: too large to compile: {_count(deals)} deals x {node} x {players} players "
        f"x {BYTES_PER_ENTRY} bytes > {limit:,} (TOYPOKER_MAX_BYTES allows more)"
    )


def check_size(info: GameInfo, params: Params, max_bytes: int | None = None) -> None:
    """Refuse a game whose estimated size ``deals x public nodes x players x 8`` bytes
    exceeds ``max_bytes`` (default :func:`max_bytes_allowed`), before allocating.

    Raises
    ------
    SpecError
        With the estimate, in one line.
    """
    limit = max_bytes_allowed(max_bytes)
    spec = format_spec(info.name, params)
    try:
        counted = info.size(params, max_entries=limit // BYTES_PER_ENTRY)
    except TooLargeError as e:
        if e.table is not None:
            raise SpecError(
                f"{_named(spec)}: too large to compile: its {_count(e.deals)} deals are built in "
                f"{_count(e.table)} x {BYTES_PER_ENTRY} bytes > {limit:,}"
            ) from None
        raise SpecError(too_large(spec, e.deals, e.nodes, e.players, limit)) from None
    # the hook raised above if the rows (deals x public nodes each deal reaches) pass the
    # budget; the public nodes it returns are all of them (an upper bound per deal)
    del counted
    # a game whose rows are counted exactly (holdem, rhode_island) is also held to what
    # its rows take while a solver runs on them (rows x BYTES_PER_ROW): the estimate
    # above can admit a game whose rows do not fit (rhode_island(ranks=9): 94 M rows)
    layout = _counted(info, params)
    if layout is not None and layout.row_bytes > limit:
        raise SpecError(
            f"{_named(spec)}: too large to compile: {layout.rows:,} rows counted, about "
            f"{layout.row_bytes / 1e9:.1f} GB > {limit / 1e9:.1f} GB (TOYPOKER_MAX_BYTES "
            "allows more)"
        )


def _counted(info: GameInfo, params: Params) -> LayoutCount | None:
    """The row layout counted for validated parameters of ``kuhn``, ``mercer``,
    ``holdem`` and ``rhode_island`` (None for other games, or boards beyond what is
    counted)."""
    spec = format_spec(info.name, params)
    if info.name in ("kuhn", "mercer"):  # rank decks: the builder's own deck and betting
        shape = (kuhn.limit_shape if info.name == "kuhn" else mercer.limit_shape)(params)
        try:  # stopped as soon as the rows pass the budget (kuhn(players=50): at once)
            return count_shape(shape, spec, max_entries=max_bytes_allowed() // BYTES_PER_ENTRY)
        except TooLargeError:
            return None
    if info.name not in ("rhode_island", "holdem"):
        return None
    p = holdem_params(params) if info.name == "rhode_island" else params
    return count_holdem(p, spec)


def count_layout(spec: str) -> LayoutCount | None:
    """The size of a game on the row layout, counted without building it.

    Parameters
    ----------
    spec
        A spec string; ``rhode_island(...)`` and ``holdem(...)`` are counted
        (:mod:`toypoker.games.layout_count`: suit-canonical boards for an evaluator
        that sees suits, rank multisets for one blind to them).

    Returns
    -------
    LayoutCount or None
        Deals, public nodes, decision nodes, infosets and rows (exactly what
        :func:`load_rows` would compile), or None for a game not counted here
        (other games, collusion, more boards at a depth than counted here).

    Raises
    ------
    SpecError
        For an invalid spec (as :func:`load_rows` would).
    """
    info, params, coll = parse_game_spec(spec)
    return None if coll else _counted(info, params)


def load_rows(spec: str, *, max_bytes: int | None = None) -> Game:
    """Compile a game from a spec string such as ``"kuhn(players=3, cards=5, pot=4)"``.

    Parameters
    ----------
    spec
        ``name(key=value, ...)``; see :data:`GAMES` for the games and parameters.
    max_bytes
        Refuse games whose estimated size (deals x public nodes x players x 8
        bytes) is larger; default the environment variable ``TOYPOKER_MAX_BYTES``,
        else half the machine's memory (:func:`default_max_bytes`).

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
    spec = format_spec(info.name, {**params, **coll})
    return deal_table.compile_game(definition, spec).with_builder(load_rows)


__all__ = [
    "DEFAULT_MAX_BYTES",
    "GAMES",
    "GameInfo",
    "Param",
    "canonical_spec",
    "check_size",
    "count_layout",
    "default_max_bytes",
    "load_rows",
    "max_bytes_allowed",
    "parse_game_spec",
]
