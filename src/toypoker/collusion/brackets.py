"""Stored TMECor brackets: weak collusion's team-optimal values, computed once by a
documented command and shipped with the package (like the stored equilibria of
:mod:`.store`), so that a report can show them without a solve.

One JSON file (no pickle) holds one record per (game, team): the exact ends as
``"p/q"``, the oracle, the seconds, why the generation stopped, the game's
fingerprint (:func:`toypoker.collusion.store.fingerprint`) and the command that made
it.  ``toypoker collusion tmecor SPEC --save FILE`` adds or replaces a record (the
3P-MMH ones: ``benchmarks/run_tmecor_large.py ... --save FILE``, brackets of nonzero
width: a lower end by column generation, the upper end the smaller of the team seeing
its cards and the relevant-pairs relaxation certified at the same outsider strategy).  The
shipped file is ``toypoker/literature/data/ullman_tmecor.json`` (:data:`SHIPPED`);
its commands are in the README's "Teams and collusion" section.
"""

from __future__ import annotations

import json
from fractions import Fraction
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from ..errors import ToypokerError
from ..games import canonical_spec
from ..games.collusion import collusion_spec, placements, seat_digits
from ..io import atomic_write_text
from ..solvers.tmecor import TMECor
from .table7 import TeamOptimal

__all__ = ["SHIPPED", "load_brackets", "save_bracket", "stored_weak_brackets"]

#: the brackets shipped with the package (3P-SMH and 3P-MMH, Table 7's placements)
SHIPPED = "ullman_tmecor.json"


def _key(spec: str, team: tuple[int, ...]) -> str:
    return f"{canonical_spec(spec)} team {seat_digits(team)}"


def _read(source: Path | Traversable) -> dict[str, dict[str, object]]:
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ToypokerError(f"cannot read TMECor brackets from {source}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("brackets"), dict):
        raise ToypokerError(f"{source} is not a file of TMECor brackets")
    return data["brackets"]


def save_bracket(
    path: Path,
    result: TMECor,
    fingerprint: str,
    command: str,
    extra: dict[str, object] | None = None,
) -> None:
    """Add (or replace) ``result``'s record in the brackets file ``path`` (created if
    missing; written atomically).

    Parameters
    ----------
    path
        The JSON file.
    result
        A TMECor bracket.
    fingerprint
        The game's fingerprint (:func:`toypoker.collusion.store.fingerprint`).
    command
        The command line that computed it (kept with the record).
    extra
        More fields of the record (JSON values), e.g. the relevant-pairs relaxation's
        certified floor (:func:`toypoker.solvers.team_saddle.saddle_bounds`).
    """
    brackets = _read(path) if path.exists() else {}
    brackets[_key(result.spec, result.team)] = {
        "game": canonical_spec(result.spec),
        "team": seat_digits(result.team),
        "lower": str(result.lower),
        "upper": str(result.upper),
        "width": float(result.width),
        "oracle": result.how,
        "stopped": result.stopped,
        "columns": result.columns,
        "seconds": round(result.seconds, 1),
        "fingerprint": fingerprint,
        "command": command,
        **(extra or {}),
    }
    text = json.dumps({"brackets": dict(sorted(brackets.items()))}, indent=1) + "\n"
    atomic_write_text(path, text)


def load_brackets(source: Path | Traversable | None = None) -> dict[str, dict[str, object]]:
    """The records of a brackets file (default: the shipped one), keyed by
    ``"<canonical spec> team <seats>"``."""
    if source is None:
        source = files("toypoker.literature") / "data" / SHIPPED
    return _read(source)


def stored_weak_brackets(
    spec: str,
    team: tuple[int, ...],
    n_players: int,
    sharing: str = "win",
    source: Path | None = None,
) -> list[TeamOptimal | None]:
    """The stored weak-collusion TMECor bracket of each placement of ``team`` in the
    no-collusion game ``spec``, in the order of :func:`~toypoker.games.collusion.placements`
    (``None`` where none is stored).

    Returns
    -------
    list of TeamOptimal or None
        ``how`` names the oracle and whether the bracket converged.
    """
    brackets = load_brackets(source)
    out: list[TeamOptimal | None] = []
    for members in placements(n_players, team):
        # the weak collusion game, or the game itself with the team's seats: sharing
        # moves payoffs within the team, so the team's summed value is the same
        rec = brackets.get(_key(collusion_spec(spec, members, sharing, "weak"), members))
        rec = rec or brackets.get(_key(spec, members))
        if rec is None:
            out.append(None)
            continue
        how = f"TMECor, stored ({rec['oracle']}; {rec['stopped']})"
        out.append(
            TeamOptimal("weak", members, Fraction(str(rec["lower"])),
                        Fraction(str(rec["upper"])), how, float(rec["seconds"]))  # type: ignore[arg-type]
        )  # fmt: skip
    return out
