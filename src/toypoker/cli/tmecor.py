"""What ``toypoker collusion tmecor`` adds around the library: the brackets file it
adds to, and ``solve --method tmecor``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from toypoker.errors import ToypokerError

if TYPE_CHECKING:
    from toypoker.game import Game
    from toypoker.teams.tmecor import TMECor


def check_tmecor_options(options: dict[str, object], files: Path | None) -> None:
    """``solve --method tmecor``'s options, checked: ``toypoker collusion tmecor`` with
    the method's options (``--option oracle=...``, ``tol``, ``max_columns``,
    ``relaxation_seconds``) and no profile file to write."""
    if files:
        raise ToypokerError(
            "--method tmecor gives a correlated plan, not one profile: no -o, --csv or "
            "--result (toypoker collusion tmecor --save keeps the bracket)"
        )
    known = {"oracle", "tol", "max_columns", "relaxation_seconds"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ToypokerError(
            f"tmecor does not read option(s) {', '.join(unknown)}; it reads: "
            f"{', '.join(sorted(known))}"
        )


def save_bracket_of(save: Path, game: Game, r: TMECor, argv: list[str]) -> None:
    """Add ``r`` to the brackets file ``save`` with the command line that ran."""
    import shlex

    from toypoker.collusion.brackets import save_bracket
    from toypoker.collusion.store import fingerprint

    save_bracket(save, r, fingerprint(game), shlex.join([*argv, "--save", save.name]))
