"""The catalogue of the papers' closed-form claims, each checked exactly.

:data:`CLAIMS` is a literal tuple of :class:`Claim` (per paper in
:mod:`.kuhn1950`, :mod:`.szafron2013`, :mod:`.billingham`,
:mod:`.ullman2015` and :mod:`.ullman2015_runs`); :func:`check` runs
them and returns one :class:`Row` per checked instance.  The framework is in
:mod:`.base`; the papers' data in :mod:`toypoker.literature.papers`.  May import
the library, the papers' data and the collusion study; never a front end.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

import numpy as np

from toypoker.errors import ToypokerError, UnknownNameError
from toypoker.io import read_text_limited
from toypoker.literature.claims import (
    billingham,
    kuhn1950,
    szafron2013,
    ullman2015,
    ullman2015_runs,
)
from toypoker.literature.claims.base import Claim, Context, Row, certify

# the order fixes which random family members a seed draws
CLAIMS: tuple[Claim, ...] = (
    *kuhn1950.CLAIMS,
    *szafron2013.CLAIMS,
    *billingham.CLAIMS,
    *ullman2015.CLAIMS,
    *ullman2015_runs.CLAIMS,
)


#: each claim's paper (its module), for summaries by paper
PAPERS: dict[str, str] = {
    c.id: paper
    for paper, claims in (
        ("Kuhn (1950)", kuhn1950.CLAIMS),
        ("Szafron et al. (2013)", szafron2013.CLAIMS),
        ("Billingham", billingham.CLAIMS),
        ("Ullman (2015)", ullman2015.CLAIMS),
        ("Ullman (2015)", ullman2015_runs.CLAIMS),
    )
    for c in claims
}


def claim_ids() -> tuple[str, ...]:
    """The ids of :data:`CLAIMS`, in order."""
    return tuple(c.id for c in CLAIMS)


def check(
    claims: Sequence[str] | None = None,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
    rows: list[Row] | None = None,
    skip: Collection[str] = (),
) -> list[Row]:
    """Run the claims (all by default) and return one row per checked instance.

    Parameters
    ----------
    claims
        Claim ids to run (all if ``None`` or empty); an unknown id is a
        :class:`~toypoker.errors.ToypokerError`.
    seed
        Seed of the random family members drawn by some claims.
    progress
        Called with each claim's id before it runs.
    rows
        Each claim's rows are appended here as it finishes (and the list returned):
        what a Ctrl-C leaves behind is every finished claim's rows.
    skip
        Claim ids not run (their rows kept from an interrupted run).  Claims drawing
        random family members after a skipped one that draws too get other members
        than a run of every claim with the same ``seed`` (as with ``claims``).

    Returns
    -------
    list of Row
    """
    known = claim_ids()
    unknown = [c for c in claims or () if c not in known]
    if unknown:
        raise UnknownNameError(f"unknown claim {unknown[0]!r}", known)
    ctx = Context(np.random.default_rng(seed))  # games compiled once per call
    rows = [] if rows is None else rows
    for claim in CLAIMS:
        if (claims and claim.id not in claims) or claim.id in skip:
            continue
        if progress:
            progress(claim.id)
        rows.extend(claim.run(claim, ctx))
    return rows


MAX_ROWS_BYTES = 64 * 2**20
"""The largest rows file :func:`read_rows` reads (far above a whole check's rows)."""

ROW_FIELDS = ("claim", "source", "params", "status", "detail", "exact")
"""The fields of a row as a rows file holds it (:meth:`Row.to_dict`; a JSON list of
such objects, the layout every version has written)."""


def read_rows(path: str | Path, wanted: Collection[str]) -> list[Row]:
    """The rows a (interrupted) check kept in ``path`` -- the JSON list of
    :meth:`Row.to_dict` that ``toypoker literature check -o`` writes -- checked: each a
    row of a claim in ``wanted``, with every field.  What :func:`check` takes back as
    ``rows``, with their claims as ``skip``.

    Raises
    ------
    ToypokerError
        One line: unreadable, not JSON, or not such rows.
    """
    text = read_text_limited(Path(path), MAX_ROWS_BYTES, "the rows")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToypokerError(f"{path} is not JSON ({exc.msg}, line {exc.lineno})") from None
    rows = []
    for k, d in enumerate(data if isinstance(data, list) else [None]):
        if not (isinstance(d, dict) and set(d) == set(ROW_FIELDS)):
            raise ToypokerError(f"{path}: row {k + 1} is not a row of literature check -o "
                                f"(fields {', '.join(ROW_FIELDS)})")  # fmt: skip
        if d["claim"] not in wanted or d["status"] not in ("verified", "disagrees"):
            raise ToypokerError(f"{path}: row {k + 1} is of claim {d['claim']!r} "
                                f"(status {d['status']!r}), not one asked for")  # fmt: skip
        rows.append(Row(*(d[f] for f in ROW_FIELDS)))
    return rows


__all__ = ["CLAIMS", "Claim", "Context", "Row", "certify", "check", "claim_ids", "read_rows"]
