"""toypoker: small poker games compiled once into arrays; exact evaluation,
best responses and equilibria.

The flat public API (``import toypoker as tp``), in the style of pygambit's
``nash.*_solve`` and OpenSpiel's objects-not-strings:

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
"""

from .continuation.curves import trace_curve
from .errors import ProfileError, SpecError, ToypokerError
from .evaluate import BestResponse, Evaluation, best_response, evaluate, nash_conv
from .game import Game, InfoSet
from .games import GAMES, canonical_spec, load_game
from .interop.acpc import load_gamedef, to_gamedef
from .profile import Profile
from .result import Result, Stopped, TracePoint
from .solvers import METHODS, Solver, load_checkpoint, solve

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """``tp.sweep``, imported on first use: the sweeps sit on the front-end floor and
    bring every job kind's study with them."""
    if name == "sweep":
        from .sweeps import sweep

        return sweep
    raise AttributeError(f"module 'toypoker' has no attribute {name!r}")

__all__ = [
    "GAMES",
    "METHODS",
    "BestResponse",
    "Evaluation",
    "Game",
    "InfoSet",
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
    "nash_conv",
    "solve",
    "sweep",
    "to_gamedef",
    "trace_curve",
]
