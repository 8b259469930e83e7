"""Stored TMECor brackets: weak collusion's team-optimal values, computed once by a
documented command and shipped with the package (like the stored equilibria of
:mod:`toypoker.collusion.store`), so that a report can show them without a solve.

One JSON file (no pickle) holds one record per (game, team): the exact ends as
``"p/q"``, the oracle, the seconds, why the generation stopped, the game's
fingerprint (:func:`toypoker.collusion.store.fingerprint`) and the command that made
it.  ``toypoker collusion tmecor SPEC --save FILE`` adds or replaces a record (the
3P-MMH ones: ``benchmarks/run_tmecor_large.py ... --save FILE``, brackets of nonzero
width: a lower end by column generation, the upper end the smaller of the team seeing
its cards and the relevant-pairs relaxation certified at the same outsider strategy).  The
shipped file is ``toypoker/literature/data/ullman_tmecor.json`` (:data:`SHIPPED`);
its commands are in the README's "Teams and collusion" section.

Every record keeps the witness of its lower end beside the JSON file
(:func:`mixtures_path`, a compressed ``.npz`` without pickle): the team's joint pure
plans and their exact weights, so that anyone can recompute the lower end exactly
(:func:`recheck_lower`, :func:`toypoker.teams.bounds.mixture_lower`) rather
than trust the run that found it.

Each file holds its format (the JSON's ``"format"``: :data:`BRACKETS_FORMAT`; the
``.npz``'s ``format`` entry: :data:`MIXTURES_FORMAT`); a file without one (written
before toypoker versioned them, the shipped ones among them) is read as it was, one of
another format refused in one line.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from dataclasses import dataclass
from fractions import Fraction
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

import numpy as np
from numpy.lib.npyio import NpzFile

from toypoker.archive import kept_work
from toypoker.collusion.store import fingerprint
from toypoker.collusion.table7 import TeamOptimal
from toypoker.errors import ToypokerError
from toypoker.formats import check_format
from toypoker.game import Game
from toypoker.games import canonical_spec
from toypoker.games.team_transform import collusion_spec, placements, seat_digits
from toypoker.io import atomic_write_bytes, atomic_write_text
from toypoker.teams.bounds import mixture_lower
from toypoker.teams.tmecor import TMECor

__all__ = [
    "BRACKETS_FORMAT",
    "MIXTURES_FORMAT",
    "SHIPPED",
    "load_brackets",
    "mixtures_path",
    "recheck_lower",
    "Mixture",
    "save_bracket",
    "stored_mixture",
    "stored_weak_brackets",
]

#: the brackets shipped with the package (3P-SMH and 3P-MMH, Table 7's placements)
SHIPPED = "ullman_tmecor.json"

#: the format of a brackets file (its JSON's ``"format"``)
BRACKETS_FORMAT = "toypoker-brackets/1"

#: the format of a mixtures file (its ``.npz``'s ``format`` entry, a 0-d string)
MIXTURES_FORMAT = "toypoker-mixtures/1"


def _key(spec: str, team: tuple[int, ...]) -> str:
    return f"{canonical_spec(spec)} team {seat_digits(team)}"


def _read(source: Path | Traversable) -> dict[str, dict[str, object]]:
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        kept = kept_work(source) if isinstance(source, Path) else None
        if kept is not None:  # another kind of file: say which, as a wrong --resume hears
            raise ToypokerError(
                f"{source} is {kept[0]}, not a brackets file (JSON): give the brackets' own "
                "file (collusion tmecor --save FILE.json), or another path"
            ) from None
        raise ToypokerError(f"cannot read TMECor brackets from {source}: {exc}") from None
    if isinstance(data, dict):
        check_format(data.get("format"), BRACKETS_FORMAT, source, "TMECor brackets")
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
    missing; written atomically), and the witness of its lower end (``result.plans``
    and ``weights``) in the mixtures file beside it (:func:`mixtures_path`).

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
        certified floor (:func:`toypoker.teams.saddle.saddle_bounds`).
    """
    brackets = _read(path) if path.exists() else {}
    _save_mixture(path, result)  # the witness first: recheck_lower names a mismatch
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
    data = {"format": BRACKETS_FORMAT, "brackets": dict(sorted(brackets.items()))}
    text = json.dumps(data, indent=1) + "\n"
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
    no-collusion game ``spec``, in the order of :func:`~toypoker.games.team_transform.placements`
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


def mixtures_path(path: Path | None = None) -> Path | Traversable:
    """The witnesses' file beside a brackets file (``x.json``: ``x_mixtures.npz``;
    default: beside the shipped one)."""
    if path is None:
        return files("toypoker.literature") / "data" / _beside(Path(SHIPPED)).name
    return _beside(path)


def _beside(path: Path) -> Path:
    return path.with_name(f"{path.stem}_mixtures.npz")


@dataclass(frozen=True)
class Mixture:
    """The witness of a bracket's lower end: the team's joint pure plans, their exact
    weights and the lower end they were stored with."""

    plans: tuple[np.ndarray, ...]
    weights: tuple[Fraction, ...]
    lower: Fraction


def _read_mixtures(source: Path | Traversable) -> dict[str, np.ndarray]:
    """The arrays of a mixtures file, its format checked and left out."""
    try:
        data = np.load(io.BytesIO(source.read_bytes()), allow_pickle=False)
        if not isinstance(data, NpzFile):
            raise ValueError("not an .npz archive")
        with data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        raise ToypokerError(f"cannot read TMECor mixtures from {source}: {exc}") from None
    fmt, found = arrays.pop("format", None), None
    if fmt is not None:  # a 0-d string; anything else is shown as it is
        found = str(fmt) if fmt.shape == () and fmt.dtype.kind == "U" else fmt.tolist()
    check_format(found, MIXTURES_FORMAT, source, "TMECor mixtures")
    return arrays


def _save_mixture(path: Path, result: TMECor) -> None:
    """Add (or replace) the witness of ``result``'s lower end -- its plans, exact
    weights and the lower end itself -- in the mixtures file beside the brackets file
    ``path`` (written atomically)."""
    target = _beside(path)
    data = _read_mixtures(target) if target.exists() else {}
    key = _key(result.spec, result.team)
    keys = _keys(data.pop("keys", np.array([], dtype=str)), target)
    k = keys.index(key) if key in keys else len(keys)
    keys[k:k + 1] = [key]  # fmt: skip
    plans = np.stack([np.asarray(x, dtype=np.uint8) for x in result.plans])
    data[f"plans_{k}"] = np.packbits(plans, axis=1)
    data[f"n_sigma_{k}"] = np.array(plans.shape[1])
    data[f"weights_{k}"] = np.array([str(w) for w in result.weights])
    data[f"lower_{k}"] = np.array(str(result.lower))
    buf = io.BytesIO()
    np.savez_compressed(buf, format=np.array(MIXTURES_FORMAT), keys=np.array(keys), **data)
    atomic_write_bytes(target, buf.getvalue())


def _keys(keys: np.ndarray, source: object) -> list[str]:
    if keys.ndim != 1:
        raise ToypokerError(f"{source}: not a file of TMECor mixtures (its keys)")
    return [str(k) for k in keys]


def stored_mixture(spec: str, team: tuple[int, ...], source: Path | None = None) -> Mixture | None:
    """The stored witness of a bracket's lower end from the mixtures file beside
    ``source`` (default: the shipped brackets); ``None`` when none is stored."""
    target = mixtures_path(source)
    if not target.is_file():
        return None
    data = _read_mixtures(target)
    keys = _keys(data.get("keys", np.array([], dtype=str)), target)
    key = _key(spec, team)
    if key not in keys:
        return None
    k = keys.index(key)
    try:
        n = int(data[f"n_sigma_{k}"])
        plans = np.unpackbits(data[f"plans_{k}"], axis=1, count=n).astype(np.int8)
        weights = tuple(Fraction(str(w)) for w in data[f"weights_{k}"])
        return Mixture(tuple(plans), weights, Fraction(str(data[f"lower_{k}"])))
    except (KeyError, ValueError, TypeError, ZeroDivisionError) as exc:
        raise ToypokerError(f"{target}: the mixture of {key} is damaged ({exc})") from None


def recheck_lower(game: Game, team: tuple[int, ...], source: Path | None = None) -> Fraction:
    """A stored bracket's lower end recomputed exactly from its witness
    (:func:`toypoker.teams.bounds.mixture_lower`); it must equal the record's.

    Raises
    ------
    ToypokerError
        When no record or no witness is stored, the witness was stored with another
        lower end (another run), the game's fingerprint differs from the record's, or
        the recomputed value is not the recorded lower end.
    """
    rec = load_brackets(source).get(_key(game.spec, team))
    mixture = stored_mixture(game.spec, team, source)
    name = f"{game.spec} team {seat_digits(team)}"
    if rec is None or mixture is None:
        raise ToypokerError(f"no stored bracket with a witness for {name}")
    recorded = Fraction(str(rec["lower"]))
    if mixture.lower != recorded:
        raise ToypokerError(
            f"{name}: the stored mixture is the witness of another run (lower end "
            f"{float(mixture.lower):.9g}, the record's {float(recorded):.9g})"
        )
    if rec["fingerprint"] != fingerprint(game):
        raise ToypokerError(f"{game.spec}: the game changed since its bracket was stored")
    low = mixture_lower(game, team, mixture.plans, mixture.weights)
    if low != recorded:
        raise ToypokerError(
            f"{name}: the stored mixture is worth {float(low):.9g}, not the recorded lower "
            f"end {float(recorded):.9g}"
        )
    return low
