"""What ``toypoker collusion tmecor`` does beyond column generation: the sharing
bound's stage, the brackets file it adds to, and ``solve --method tmecor``."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from toypoker.cli.common import Bar, stopped_name
from toypoker.errors import Interrupted, ToypokerError

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


def sharing_stage(
    game: Game, r: TMECor, iterations: int, pdlp_seconds: float
) -> tuple[TMECor, int]:
    """``r`` tightened by the team seeing its cards against the merged game's outsider
    after ``iterations`` PDCFR+ iterations (and the PDLP bound at that outsider); Ctrl-C
    there keeps the bound of the iterations done (any outsider strategy bounds the
    team's value from above) and marks ``r`` interrupted.  Returns the iterations run."""
    from toypoker.solvers import solve as solve_game
    from toypoker.teams.bounds import sharing_bound, strong_game, tighten

    strong = strong_game(game, r.team)
    try:
        with Bar("sharing bound: PDCFR+ on the merged team", iterations) as bar:
            res = solve_game(strong, "pdcfr+", merge=True, team=False, iterations=iterations,
                             progress=lambda t, _nc: bar.update(t))  # fmt: skip
    except Interrupted as exc:  # the iterations done still bound the team's value
        res = exc.result
    assert res.profile is not None
    bound = sharing_bound(game, r.team, res.profile, strong)
    r = tighten(r, bound)
    if stopped_name(res.stopped) == "interrupted":
        return dataclasses.replace(r, stopped="interrupted"), res.iterations
    if pdlp_seconds > 0:
        from toypoker.teams.bounds import relaxed_bound

        r = tighten(r, relaxed_bound(game, r.team, bound.outsider, pdlp_seconds))
    return r, res.iterations


def save_bracket_of(save: Path, game: Game, r: TMECor, argv: list[str]) -> None:
    """Add ``r`` to the brackets file ``save`` with the command line that ran."""
    import shlex

    from toypoker.collusion.brackets import save_bracket
    from toypoker.collusion.store import fingerprint

    save_bracket(save, r, fingerprint(game), shlex.join([*argv, "--save", save.name]))
