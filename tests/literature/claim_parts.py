"""The literature check in parts, each part run once per test process.

``check()`` runs the whole catalogue in one process (minutes, most of it three solves:
2P-SMH, 2P-MMH and 3P-SMH twice, at bet 4 and 8).  The tests run it as the parts of
:data:`PARTS`, each by one ``check(ids)`` call, so that pytest-xdist's two workers share
it (each part is one ``xdist_group``).  The parts' rows are the whole run's rows:

- only the claims of the first part (Kuhn, Szafron et al., Billingham) draw random
  family members; that part is the catalogue's prefix, run with the same seed, so it
  draws the same members in the same order;
- the other parts run with a generator that refuses every draw (:class:`_NoDraws`),
  so a claim there that drew would fail its part, not silently draw other members;
- a claim reads nothing of another claim but the compiled games and their solutions,
  which each part compiles and solves again (``Game.derived``, one per game).
"""

from __future__ import annotations

import pytest

from toypoker.literature import claims as catalogue
from toypoker.literature.claims import Context, Row, check

#: the parts, each a tuple of claim ids; together the catalogue, each claim once
PARTS: dict[str, tuple[str, ...]] = {
    "papers": (
        "kuhn-family",
        "kuhn-basic",
        "kuhn-matrices",
        "kuhn-general",
        "szafron-table3",
        "szafron-text-b33",
        "szafron-table4",
        "szafron-robust",
        "billingham-expectations",
        "billingham-third-street",
        "billingham-solution-b",
        "billingham-alliance",
        "billingham-p-star",
        "billingham-skp",
        "billingham-maxmin",
        "billingham-table1-solution2",
        "billingham-table2",
        "billingham-estimators",
    ),
    # the two-player games: LP equilibria and his fictitious play on 2P-SMH and 2P-MMH
    "ullman-2p": (
        "ullman-2p-smh-values",
        "ullman-table1",
        "ullman-2p-smh-profile",
        "ullman-2p-mmh-values",
        "ullman-table2",
        "ullman-table3",
        "ullman-runs",
    ),
    # 3P-SMH: CFR+ equilibria (bet 4 and 8), his fictitious play, collusion
    "ullman-3p-smh": (
        "ullman-3p-smh-values",
        "ullman-3p-smh-collusion-code",
        "ullman-footnote6",
        "ullman-smh-shape",
    ),
    # 3P-MMH from its stored equilibria, the collusion tables, the sizes
    "ullman-3p-mmh": (
        "ullman-table4",
        "ullman-table5",
        "ullman-table6",
        "ullman-table8",
        "ullman-table7",
        "ullman-table7-values",
        "ullman-sizes",
        "ullman-mmh-runs",
        "ullman-mmh-table7-runs",
        "ullman-tree-sizes",
    ),
}

_ROWS: dict[str, list[Row]] = {}


class _NoDraws:
    """A random generator that refuses every draw (the parts after the first)."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"a claim outside the first part drew from the generator: {name}")


class _Undrawn(Context):
    """The check's context with :class:`_NoDraws` for its generator."""

    def __init__(self, rng: object) -> None:
        super().__init__(_NoDraws())  # type: ignore[arg-type]


def part_rows(part: str) -> list[Row]:
    """The rows of ``check(PARTS[part])``, run once per process."""
    if part not in _ROWS:
        if part == "papers":
            _ROWS[part] = check(PARTS[part])
        else:
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(catalogue, "Context", _Undrawn)
                _ROWS[part] = check(PARTS[part])
    return _ROWS[part]
