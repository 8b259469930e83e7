"""toypoker: small poker games compiled once into arrays; exact evaluation,
best responses and equilibria."""

from .errors import ProfileError, SpecError, ToypokerError
from .game import Game, InfoSet
from .games import load_game

__version__ = "0.1.0"

__all__ = ["Game", "InfoSet", "ProfileError", "SpecError", "ToypokerError", "load_game"]
