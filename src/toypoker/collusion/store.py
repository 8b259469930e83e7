"""Stored collusion equilibria: one ``.npz`` per study (float64 vectors, infosets in
label order, metadata as JSON text; no pickle), tied to their games by a fingerprint.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

import numpy as np

from ..errors import ToypokerError
from ..game import Game
from ..games import canonical_spec
from ..games.collusion import merged_spec, with_spec
from ..io import atomic_write_bytes
from ..profile import Profile

__all__ = ["CollusionProfiles", "by_label", "fingerprint", "from_label_order", "store_key"]


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
    """

    spec: str
    team: tuple[int, ...]
    sharing: str
    how: str
    sigma: dict[str, np.ndarray]
    fingerprints: dict[str, str]

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

    def save(self, path: str | Path) -> None:
        """Write an ``.npz`` atomically: one float64 array per game, metadata as JSON text."""
        specs = list(self.sigma)
        meta = {
            "spec": self.spec,
            "team": list(self.team),
            "sharing": self.sharing,
            "how": self.how,
            "games": specs,
            "fingerprints": [self.fingerprints[s] for s in specs],
        }
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
            For a missing or malformed file.
        """
        try:
            source = Path(path) if isinstance(path, str) else path
            with source.open("rb") as fh:
                data = np.load(io.BytesIO(fh.read()), allow_pickle=False)
                meta = json.loads(str(data["meta"]))
                # canonical again: files written before a weak team's spec lost its
                # ``merge=false`` name their games as they were then
                games = [store_key(str(s)) for s in meta["games"]]
                sigma = {s: np.asarray(data[f"sigma_{i}"], np.float64) for i, s in enumerate(games)}
            return cls(
                str(meta["spec"]),
                tuple(int(x) for x in meta["team"]),
                str(meta["sharing"]),
                str(meta["how"]),
                sigma,
                dict(zip(games, (str(f) for f in meta["fingerprints"]), strict=True)),
            )
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ToypokerError(f"cannot read collusion profiles {path}: {e}") from e
