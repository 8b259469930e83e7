"""``python -m toypoker`` runs the command line."""

from .cli import run

run()
