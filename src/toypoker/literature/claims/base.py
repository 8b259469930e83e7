"""The claims framework: a :class:`Claim` knows its source and how to instantiate
itself; :func:`certify` checks one instance with the exact evaluator and returns a
:class:`Row` (``verified``, or ``disagrees`` with the exact value beside the
printed one).  Games are compiled through a :class:`Context`, one per
:func:`toypoker.literature.claims.check` call (no process-wide cache)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import sympy as sp

from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.games import load_rows
from toypoker.profile import Profile


@dataclass(frozen=True)
class Row:
    """One checked instance of a claim.

    ``exact`` holds the exact values involved, as strings (e.g. ``"values"``,
    ``"gains"``, or a limit).
    """

    claim: str
    source: str
    params: str
    status: str  # "verified" or "disagrees"
    detail: str = ""
    exact: dict = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """The row as plain JSON types."""
        return {
            "claim": self.claim,
            "source": self.source,
            "params": self.params,
            "status": self.status,
            "detail": self.detail,
            "exact": self.exact,
        }


class Context:
    """What one check run shares: its random generator and the games it compiled."""

    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self._games: dict[str, Game] = {}

    def game(self, spec: str) -> Game:
        """The compiled game of ``spec``, compiled once per check run."""
        if spec not in self._games:
            self._games[spec] = load_rows(spec)
        return self._games[spec]


@dataclass(frozen=True)
class Claim:
    """A claim of a paper: ``run(claim, context)`` yields its checked rows."""

    id: str
    source: str
    statement: str
    run: Callable[[Claim, Context], Iterator[Row]] = field(repr=False)


def fmt(values: Iterable[object]) -> str:
    """``(a, b, c)`` of the values' ``str``."""
    return "(" + ", ".join(str(v) for v in values) + ")"


def certify(
    claim: Claim,
    params: str,
    game: Game,
    mapping: Mapping[str, object],
    printed: tuple | None,
    equilibrium: bool = True,
) -> Row:
    """Evaluate the profile ``mapping`` exactly on ``game``.

    Verified iff (``equilibrium`` implies all gains are 0) and the values equal
    ``printed`` (unless ``None``).
    """
    ev = evaluate(game, Profile.from_mapping(game, mapping, exact=True))
    problems = []
    if equilibrium and any(x != 0 for x in ev.gains):
        problems.append(f"not an equilibrium: gains {fmt(ev.gains)}")
    if printed is not None and tuple(ev.values) != tuple(printed):
        problems.append(f"values {fmt(ev.values)}, printed {fmt(printed)}")
    exact = {"values": [str(v) for v in ev.values], "gains": [str(v) for v in ev.gains]}
    if problems:
        return Row(claim.id, claim.source, params, "disagrees", "; ".join(problems), exact)
    return Row(claim.id, claim.source, params, "verified", f"values {fmt(ev.values)}", exact)


def identity_rows(
    claim: Claim, E: list[sp.Expr], printed: list[sp.Expr], params: list[str]
) -> Iterator[Row]:
    """One row per expected value: verified when ours equals the printed polynomial."""
    for e, q, label in zip(E, printed, params, strict=True):
        ok = sp.expand(e - q) == 0
        yield Row(
            claim.id,
            claim.source,
            label,
            "verified" if ok else "disagrees",
            "polynomial identity" if ok else f"difference {sp.factor(e - q)}",
        )


F = Fraction
