"""One :class:`~toypoker.game.Game`, an engine behind it.

:func:`load_game` is the flat API's ``tp.load_game``: it counts the game before
building anything and builds it on the engine the cost model predicts faster
(:mod:`.choice`), or the layout ``layout=`` forces.  Every game is one
:class:`~toypoker.game.Game` (its public tree, infosets, labels, identity) holding the
data of its engine (``game.engine``):

* the **deal table** (``game.layout == "rows"``): the game compiled by
  :func:`toypoker.games.load_rows`, its :class:`toypoker.deal_table.DealTable`; every
  method, exact ones included;
* **hand vectors** (``game.layout == "vector"``): :mod:`toypoker.engines.vectors` (the
  layout, its kernels, values and each method's part on it,
  :class:`~toypoker.engines.vectors.layout.OnVectors`); the same infosets, labels and
  flat actions, so profiles, results and checkpoints are the same files.

Every public function takes either (:mod:`.evaluation` for evaluation;
:class:`toypoker.solvers.Solver` runs each method on the engine's steps).  What one
layout cannot do is refused in one line naming the way out.

The package is on the floor of one game (``tests/test_layers.py``): it imports the
game, the catalogue and profiles, never a method, a study or a front end; the engines'
method parts, their ``engine`` modules and :mod:`toypoker.engines.registry` sit on the
solvers' floor.
"""

from __future__ import annotations

import functools

from toypoker.checks import check_text
from toypoker.deal_table import OnRows
from toypoker.engines.choice import DIRECT_GAMES, LAYOUTS, LayoutChoice, check_layout, choose_layout
from toypoker.engines.evaluation import vector_of
from toypoker.engines.vectors.direct import build_vector
from toypoker.engines.vectors.layout import OnVectors, VectorGame, compile_vector
from toypoker.errors import SpecError
from toypoker.game import Game
from toypoker.games import load_rows, parse_game_spec
from toypoker.spec import format_spec


def load_game(spec: str, *, layout: str = "auto", max_bytes: int | None = None) -> Game:
    """A game from a spec string such as ``"kuhn(players=3, cards=5, pot=4)"``.

    Parameters
    ----------
    spec
        ``name(key=value, ...)``; :data:`toypoker.GAMES` lists the games and their
        parameters (``toypoker games``).
    layout
        ``"auto"`` (default): counted first, then built where a CFR+ iteration is
        predicted faster among the layouts that fit in ``max_bytes`` -- the deal
        table for small games, hand vectors for large ones (``rhode_island``,
        ``kuhn(players=3,cards=52)``, ``mercer(players=3,variant=mmh)``).
        ``"rows"`` or ``"vector"`` force one; ``game.layout`` says which.
    max_bytes
        Refuse, in one line and before allocating, a game whose counted size on its
        layout passes this many bytes; default the environment variable
        ``TOYPOKER_MAX_BYTES``, else half the machine's memory.

    Returns
    -------
    Game
        The game, on the layout chosen.  It pickles as its spec (a worker builds it
        again) and equals a game built from the same spec on the same layout.

    Raises
    ------
    SpecError
        For an unknown game or parameter, an invalid value, or a game too large.
    ToypokerError
        For a bad ``layout``, or one that cannot hold the game (strong collusion on
        hand vectors).

    Examples
    --------
    >>> import toypoker as tp
    >>> tp.load_game("kuhn(players=3)").layout
    'rows'
    >>> g = tp.load_game("kuhn(players=3,cards=52)")
    >>> g.layout, g.n_players
    ('vector', 3)
    >>> tp.load_game("leduc(players=2)", layout="vector").layout
    'vector'
    """
    spec = check_text(spec, "spec", "a game spec", SpecError)
    check_layout(layout)
    choice = choose_layout(spec, layout, max_bytes=max_bytes)
    return build_on(spec, choice, max_bytes=max_bytes)


def build_on(spec: str, choice: LayoutChoice, *, max_bytes: int | None = None) -> Game:
    """Build ``spec`` on the layout ``choice`` names (see :func:`load_game`)."""
    builder = functools.partial(load_game, layout=choice.layout)
    if choice.layout == "rows":
        return load_rows(spec, max_bytes=max_bytes).with_builder(builder)
    info, params, coll = parse_game_spec(spec)
    if info.name in DIRECT_GAMES:  # no deal table at all
        vg = build_vector(
            format_spec(info.name, {**params, **coll}), rank=True, max_bytes=max_bytes
        )
        return vg.game.with_builder(builder)
    rows = load_rows(spec, max_bytes=max_bytes)  # read once, then left to the vectors
    return as_game(compile_vector(rows)).with_builder(builder)


def rows_of(game: Game, why: str) -> Game:
    """``game`` on the deal table, for ``why`` (a method or computation only the deal
    table does): ``game`` itself there; the deal table it was compiled from; else built
    once from its spec (and kept with it), or refused in one line when the deal table
    does not fit."""
    if game.layout == "rows":
        return game
    data: OnVectors = game.engine_data  # type: ignore[assignment]
    if data.rows is None:
        if data.table is not None:  # compiled from it: the same table, on the rows
            rows = Game(game.tree, OnRows(data.table))  # type: ignore[arg-type]
            data.rows = rows.with_builder(functools.partial(load_game, layout="rows"))
        else:
            try:
                data.rows = load_game(game.spec, layout="rows")
            except SpecError as exc:
                raise SpecError(f"{why} needs the deal table, and it does not fit: {exc}") from None
    return data.rows


def hand_vectors(game: Game) -> VectorGame:
    """The hand vectors of ``game``: its own on hand vectors, else compiled once from its
    deal table (what a method that samples boards runs on whatever the layout)."""
    vg = vector_of(game)
    return vg if vg is not None else game.derived(compile_vector)


def as_game(vg: VectorGame) -> Game:
    """The :class:`~toypoker.game.Game` on the hand vectors ``vg`` (built by
    :func:`~toypoker.engines.vectors.direct.build_vector` or
    :func:`~toypoker.engines.vectors.layout.compile_vector`): what every public function
    takes.  A game compiled from a deal table keeps that table (and how to build it
    again)."""
    source = vg.game
    if vector_of(source) is vg:
        return source
    table = getattr(source.engine_data, "table", None)
    game = Game(source.tree, OnVectors(vg, table))
    builder = source.__dict__.get("_builder")
    return game if builder is None else game.with_builder(builder)


__all__ = [
    "LAYOUTS",
    "as_game",
    "rows_of",
    "LayoutChoice",
    "build_on",
    "hand_vectors",
    "choose_layout",
    "load_game",
    "vector_of",
]
