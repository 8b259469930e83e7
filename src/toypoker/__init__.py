"""toypoker: small poker games compiled once into arrays; exact evaluation,
best responses and equilibria.

The flat public API (``import toypoker as tp``), in the style of pygambit's
``nash.*_solve`` and OpenSpiel's objects-not-strings.  One :class:`Game` for every
game, whatever its size: :func:`load_game` counts it first and puts it on the deal
table or on hand vectors, whichever is faster (``game.layout`` says which); every
function below takes either.

>>> import toypoker as tp
>>> g = tp.load_game("kuhn(players=2)")
>>> tp.solve(g, "lp").value_exact
(Fraction(-1, 18), Fraction(1, 18))
>>> r = tp.solve(g, "cfr+", iterations=500)
>>> r.method, r.exact, bool(r.nash_conv < 1e-2)
('cfr+', False, True)
>>> float(tp.nash_conv(g, tp.Profile.uniform(g))) > 0
True
>>> g.at(pot=4).spec
'kuhn(players=2,cards=3,bet=1,pot=4)'
>>> tp.load_game("kuhn(players=3,cards=52)").layout
'vector'
>>> t = tp.solve(tp.load_game("kuhn(players=3,cards=4,team=23,sharing=win)"), "tmecor")
>>> t.bracket.lower, t.bracket.certified
(Fraction(5, 132), True)

:data:`GAMES` is the catalogue (name -> its parameters), :data:`METHODS` the solvers:

>>> sorted(tp.GAMES)[:3], "tmecor" in tp.METHODS
(['holdem', 'kuhn', 'kuhn_third_street'], True)
>>> tp.GAMES["kuhn"].params[0].name
'players'

This module is the front end of the library (it may import every floor); the
solvers, kernels, curves, gamedefs and sweeps are imported on first use, so
``import toypoker`` loads no symbolic, plotting or distributed stack.
"""

from typing import TYPE_CHECKING

# the first of the package's modules to load: it arms Ctrl-C for the command line while
# the heavy ones load (toypoker.errors)
from toypoker.errors import Interrupted, ProfileError, SpecError, ToypokerError

# isort: split
from toypoker.engines import load_game
from toypoker.engines.protocol import BestResponse, Evaluation
from toypoker.evaluation import best_response, evaluate, nash_conv
from toypoker.game import Game, InfoSet
from toypoker.games import GAMES, canonical_spec
from toypoker.lazy import lazy_names
from toypoker.profile import Profile
from toypoker.result import Result, Stopped, TracePoint

if TYPE_CHECKING:
    from toypoker.archive import load_profile
    from toypoker.continuation.curves import trace_curve
    from toypoker.interop.acpc import load_gamedef, to_gamedef
    from toypoker.solvers import METHODS, Solver, load_checkpoint, solve
    from toypoker.sweeps import sweep

__version__ = "0.1.0"

#: names imported on first use (PEP 562), so ``import toypoker`` loads the games,
#: profiles and evaluation but no solver, kernel, symbolic, plotting or distributed
#: stack: name -> module (no name here may equal a submodule's name)
_LAZY = {
    "METHODS": "solvers",
    "Solver": "solvers",
    "load_checkpoint": "solvers",
    "solve": "solvers",
    "load_gamedef": "interop.acpc",
    "load_profile": "archive",
    "to_gamedef": "interop.acpc",
    "trace_curve": "continuation.curves",
    "sweep": "sweeps",
}


__getattr__ = lazy_names(__name__, {k: f"toypoker.{v}" for k, v in _LAZY.items()})


def __dir__() -> list[str]:
    """The public API: :data:`__all__` (no submodules, no helpers)."""
    return sorted(__all__)


__all__ = [
    "GAMES",
    "METHODS",
    "BestResponse",
    "Evaluation",
    "Game",
    "InfoSet",
    "Interrupted",
    "Profile",
    "ProfileError",
    "Result",
    "Solver",
    "SpecError",
    "Stopped",
    "ToypokerError",
    "TracePoint",
    "best_response",
    "canonical_spec",
    "evaluate",
    "load_checkpoint",
    "load_game",
    "load_gamedef",
    "load_profile",
    "nash_conv",
    "solve",
    "sweep",
    "to_gamedef",
    "trace_curve",
]
