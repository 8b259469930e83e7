"""``python -m toypoker`` runs the command line."""

from toypoker.cli import run

if __name__ == "__main__":
    run()
