"""Stored collusion equilibria: one ``.npz`` per study (float64 vectors, infosets in
label order, metadata as JSON text; no pickle), tied to their games by a fingerprint.
The metadata holds the file's format: :data:`COMPLETE_FORMAT` for a file holding every
equilibrium of its study (the layout older versions read), :data:`COLLUSION_FORMAT` for
an interrupted study's file, which also lists the games still to solve (older versions
refuse it in one line rather than evaluate a table from part of it).  A file without a
format (written before toypoker versioned it, the shipped ones among them) is read as it
was, and is complete.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib.resources.abc import Traversable
from pathlib import Path

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.evaluation import evaluate
from toypoker.formats import FormatError, check_format
from toypoker.game import Game
from toypoker.games import canonical_spec, load_rows
from toypoker.games.team_transform import Team, merged_spec, with_spec
from toypoker.io import atomic_write_bytes, npz_reason
from toypoker.profile import Profile
from toypoker.spec import parse_spec
from toypoker.teams.transfer import sees_together

__all__ = [
    "COLLUSION_FORMAT",
    "COMPLETE_FORMAT",
    "CollusionProfiles",
    "Measured",
    "by_label",
    "fingerprint",
    "from_label_order",
    "measure",
    "store_key",
]

#: the format this toypoker reads (its metadata's ``"format"``): the layout of
#: :data:`COMPLETE_FORMAT` and, for an interrupted study, ``"missing"``: the games not
#: solved yet
COLLUSION_FORMAT = "toypoker-collusion/2"
#: the format of a complete study's file (no ``"missing"``), which older versions read
COMPLETE_FORMAT = "toypoker-collusion/1"


def _label_order(game: Game) -> np.ndarray:
    """``game``'s infoset indices sorted by label (stored profiles do not depend on the
    order in which a compiler numbers the infosets)."""
    return np.array(sorted(range(game.n_infosets), key=lambda i: game.infosets[i].label))


def _flat_index(game: Game, order: np.ndarray) -> np.ndarray:
    """Flat action indices of ``game``'s infosets taken in ``order``."""
    n = game.infoset_n_actions[order]
    start = np.repeat(game.infoset_offset[order], n)
    within = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
    return start + within


def fingerprint(game: Game) -> str:
    """A short hash of ``game``'s infosets (labels and actions, sorted by label): a stored
    profile fits a game with the same fingerprint."""
    h = hashlib.sha256()
    for i in _label_order(game):
        inf = game.infosets[i]
        h.update(f"{inf.label}:{','.join(inf.actions)};".encode())
    return h.hexdigest()[:20]


def by_label(game: Game, probs: np.ndarray) -> np.ndarray:
    """A flat strategy of ``game`` rewritten infoset by infoset in label order."""
    return np.asarray(probs, dtype=np.float64)[_flat_index(game, _label_order(game))]


def from_label_order(game: Game, vector: np.ndarray) -> np.ndarray:
    """The inverse of :func:`by_label`."""
    sigma = np.empty(game.n_sigma, dtype=np.float64)
    sigma[_flat_index(game, _label_order(game))] = vector
    return sigma


def store_key(spec: str) -> str:
    """The name a game is stored under: its canonical spec, a strong team's with
    ``merge=false`` written out (the members' game, however the spec was given)."""
    canon = canonical_spec(spec)
    if merged_spec(canon, default_only=True) is None:
        return canon
    return canonical_spec(with_spec(canon, "merge=false"))


@dataclass(frozen=True)
class Measured:
    """What a stored equilibrium reached, evaluated on its own (n-player) game when it
    was stored.

    Attributes
    ----------
    nash_conv
        The profile's NashConv (the members counted as separate players).
    team_gain
        A team that sees its cards together (strong collusion): what the team gains by
        best-responding jointly (the team as one player, backward induction); ``None``
        without such a team (a weak team's joint best response is an MILP: not cheap).
    """

    nash_conv: float
    team_gain: float | None = None


def measure(game: Game, profile: Profile) -> Measured:
    """NashConv of ``profile`` on ``game`` and, with a team that sees its cards together,
    the team's joint best-response gain (:func:`toypoker.engines.rows.values.evaluate`)."""
    team = Team.of_params(game.params)
    if team is None or not sees_together(game, team.seats):
        return Measured(float(evaluate(game, profile).nash_conv))
    ev = evaluate(game, profile, team=team)
    assert ev.team is not None  # asked for
    return Measured(float(ev.nash_conv), float(ev.team.gain))  # type: ignore[arg-type]


def _not_a_store(path: object, files: list[str] | None) -> str:
    """One line saying what ``path`` is instead of a collusion store (its archive's
    ``files``; ``None``: not an archive of arrays at all)."""
    store = "a collusion store written by `toypoker collusion table7 --save`"
    if files is not None and "__meta__" in files:  # what Solver.save_checkpoint writes
        return f"{path} is a solver checkpoint, not {store} (solve --resume continues it)"
    if files is not None and "meta.json" in files:  # solve -o p.npz / --result r.npz
        return f"{path} is a profile archive (solve -o or --result), not {store}"
    return f"{path} is not {store}"


@dataclass(frozen=True)
class CollusionProfiles:
    """The equilibria behind :func:`toypoker.collusion.table7.collusion_table`, kept so
    that the table can be recomputed -- values and NashConv evaluated afresh, the
    certificate -- without solving again.

    Attributes
    ----------
    spec
        The game without collusion (canonical spec).
    team, sharing
        As in :func:`toypoker.collusion.table7.collusion_table`.
    how
        The solver and budget that produced the profiles.
    sigma
        ``{canonical game spec: flat behaviour strategy}``, infosets in label order
        (:func:`by_label`): the no-collusion game and, per placement, the strong and
        weak collusion games (n players, unmerged).
    fingerprints
        ``{spec: fingerprint(game)}`` of the games the vectors belong to.
    measured
        ``{spec: Measured}``: the NashConv each equilibrium reached (and a strong team's
        joint gain), evaluated when it was stored; empty for a file written before
        toypoker recorded them (:meth:`with_measures` adds them).
    missing
        The games of the study not solved yet (canonical specs, :func:`store_key`), in
        solving order, when
        :func:`~toypoker.collusion.table7.solve_collusion_profiles` was interrupted;
        empty for a complete study, and for every file written before toypoker kept
        interrupted studies.
    """

    spec: str
    team: tuple[int, ...]
    sharing: str
    how: str
    sigma: dict[str, np.ndarray]
    fingerprints: dict[str, str]
    measured: dict[str, Measured] = field(default_factory=dict)
    missing: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether every equilibrium of the study is stored (no game :attr:`missing`)."""
        return not self.missing

    def progress(self) -> str:
        """``"3 of 7"``: the equilibria stored of the study's games."""
        return f"{len(self.sigma)} of {len(self.sigma) + len(self.missing)}"

    def profile(self, game: Game) -> Profile:
        """The stored profile of ``game``.

        Raises
        ------
        ToypokerError
            If none is stored for ``game.spec`` or the game's infosets changed.
        """
        key = store_key(game.spec)
        if key not in self.sigma:
            raise ToypokerError(f"no stored profile for {game.spec}")
        if fingerprint(game) != self.fingerprints[key]:
            raise ToypokerError(
                f"the stored profile of {game.spec} was made for other infosets "
                "(the game changed): solve it again"
            )
        return Profile(game, from_label_order(game, self.sigma[key]))

    def has(self, game: Game) -> bool:
        """Whether a profile of ``game`` is stored."""
        return store_key(game.spec) in self.sigma

    def with_measures(self, progress: Callable[[str], None] | None = None) -> CollusionProfiles:
        """A copy with :attr:`measured` evaluated afresh for every stored game (compiled
        one at a time; ``progress(spec)`` before each)."""
        found = {}
        for key in self.sigma:
            if progress is not None:
                progress(key)
            game = load_rows(key)
            found[key] = measure(game, self.profile(game))
            del game
        return replace(self, measured=found)

    def summary(self) -> str:
        """One line: the largest NashConv recorded per kind of game (no collusion,
        strong, weak) and the largest strong team's joint gain, or that none was
        recorded."""
        part = "" if self.complete else (
            f"{self.progress()} equilibria solved (an interrupted run), ")  # fmt: skip
        if set(self.measured) != set(self.sigma):
            return part + "NashConv not recorded in this file (written before toypoker stored it)"
        worst: dict[str, float] = {}
        gains = [m.team_gain for m in self.measured.values() if m.team_gain is not None]
        for key, m in self.measured.items():
            params = parse_spec(key).as_dict()
            kind = "no collusion" if "team" not in params else (
                "strong" if params.get("strong") else "weak")  # fmt: skip
            worst[kind] = max(worst.get(kind, 0.0), m.nash_conv)
        text = ", ".join(f"{k} {v:.3g}" for k, v in worst.items())
        if gains:
            text += f"; strong team's joint gain at most {max(gains):.3g}"
        if not worst:
            return part + "none recorded yet"
        return f"{part}NashConv recorded when solved (largest over placements): {text}"

    def save(self, path: str | Path) -> None:
        """Write an ``.npz`` atomically: one float64 array per game, metadata as JSON text
        (its format :data:`COMPLETE_FORMAT`, or :data:`COLLUSION_FORMAT` with the
        :attr:`missing` games for an incomplete study)."""
        specs = list(self.sigma)
        meta: dict[str, object] = {
            "format": COMPLETE_FORMAT if self.complete else COLLUSION_FORMAT,
            "spec": self.spec,
            "team": list(self.team),
            "sharing": self.sharing,
            "how": self.how,
            "games": specs,
            "fingerprints": [self.fingerprints[s] for s in specs],
        }
        if set(self.measured) == set(specs):
            meta["nash_conv"] = [self.measured[s].nash_conv for s in specs]
            meta["team_gain"] = [self.measured[s].team_gain for s in specs]
        if not self.complete:
            meta["missing"] = list(self.missing)
        arrays = {f"sigma_{i}": np.asarray(self.sigma[s], np.float64) for i, s in enumerate(specs)}
        buf = io.BytesIO()
        np.savez_compressed(buf, meta=np.array(json.dumps(meta)), **arrays)
        atomic_write_bytes(path, buf.getvalue())

    @classmethod
    def load(cls, path: str | Path | Traversable) -> CollusionProfiles:
        """Read what :meth:`save` wrote (no pickle).

        Raises
        ------
        ToypokerError
            For a missing or malformed file, or one of a format other than
            :data:`COLLUSION_FORMAT` and :data:`COMPLETE_FORMAT` (a file without one is
            read as it was: complete).
        """
        try:
            source = Path(path) if isinstance(path, str) else path
            with source.open("rb") as fh:
                data = np.load(io.BytesIO(fh.read()), allow_pickle=False)
                if not hasattr(data, "files") or "meta" not in data.files:
                    raise FormatError(_not_a_store(path, getattr(data, "files", None)))
                meta = json.loads(str(data["meta"]))
                if isinstance(meta, dict):
                    check_format(meta.get("format"), COLLUSION_FORMAT, path,
                                 "collusion profiles", older=(COMPLETE_FORMAT,))  # fmt: skip
                # canonical again: files written before a weak team's spec lost its
                # ``merge=false`` name their games as they were then
                games = [store_key(str(s)) for s in meta["games"]]
                sigma = {s: np.asarray(data[f"sigma_{i}"], np.float64) for i, s in enumerate(games)}
            missing = tuple(store_key(str(s)) for s in meta.get("missing", ()))
            if set(missing) & set(games):
                raise ValueError("a game is both stored and missing")
            measured = {}
            if "nash_conv" in meta:  # files from before they were recorded have none
                pairs = zip(meta["nash_conv"], meta["team_gain"], strict=True)
                measured = {s: Measured(float(nc), None if tg is None else float(tg))
                            for s, (nc, tg) in zip(games, pairs, strict=True)}  # fmt: skip
            return cls(
                str(meta["spec"]),
                tuple(int(x) for x in meta["team"]),
                str(meta["sharing"]),
                str(meta["how"]),
                sigma,
                dict(zip(games, (str(f) for f in meta["fingerprints"]), strict=True)),
                measured,
                missing,
            )
        except FormatError:
            raise  # one line naming the file already
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as e:
            raise ToypokerError(f"cannot read collusion profiles {path}: {npz_reason(e)}") from None
