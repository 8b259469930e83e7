"""The report's catalogue: the papers, how a checked row counts (exactly, to a
tolerance, or disagreeing), and where an item's files and cache record live."""

from __future__ import annotations

import hashlib
import re
import shlex
from collections.abc import Sequence

from toypoker import __version__
from toypoker.errors import ToypokerError
from toypoker.literature.claims import CLAIMS, Row
from toypoker.literature.claims import billingham as claims_billingham
from toypoker.literature.claims import kuhn1950 as claims_kuhn1950
from toypoker.literature.claims import szafron2013 as claims_szafron2013
from toypoker.literature.claims import ullman2015 as claims_ullman2015
from toypoker.literature.claims import ullman2015_runs as claims_ullman2015_runs
from toypoker.report.model import Paper

PAPERS: tuple[Paper, ...] = (
    Paper(
        "kuhn1950",
        "Kuhn (1950)",
        'H. W. Kuhn, "A simplified two-person poker", Contributions to the Theory of '
        "Games I (1950)",
        "Two-person Kuhn poker with antes a and bets b: the one-parameter family of "
        "equilibria, the basic strategies and their matrices.",
    ),
    Paper(
        "szafron2013",
        "Szafron, Gibson, Sturtevant (2013)",
        'D. Szafron, R. Gibson, N. Sturtevant, "A parameterized family of equilibrium '
        'profiles for three-player Kuhn poker", AAMAS 2013',
        "Three-player Kuhn poker: the family of equilibria (Tables 2-4) and what each "
        "player can guarantee.",
    ),
    Paper(
        "billingham",
        "Billingham, simplified three-player Kuhn poker",
        'J. Billingham, "Simplified three player Kuhn poker"',
        "The one-third street game and SKP: equilibria in every regime of the pot P, "
        "the adaptation ODE (Figs. 7-10), repeated play with estimators (Figs. 11-17, "
        "Table 1).",
    ),
    Paper(
        "billingham-ncards",
        "Billingham, three-player Kuhn poker with N > 3 cards",
        'J. Billingham, "Equilibrium curves of three-player Kuhn poker with N cards" '
        "(regularization and arclength continuation)",
        "Curves of (regularized) equilibria in the pot for N = 4, 5, ... cards: "
        "expectations and frequencies against P, range bars (Fig. 10), and how many "
        "equilibria coexist.",
    ),
    Paper(
        "ullman2015",
        "Ullman (2015)",
        "Ullman, Mercer Hold'em (thesis, 2015)",
        "Mercer Hold'em (SMH, MMH) for two and three players: values, bet-percentage "
        "Tables 1-6 and 8, and the collusion scenarios of Table 7.",
    ),
)
PAPER_IDS: tuple[str, ...] = tuple(p.id for p in PAPERS)

#: the claims of each paper that has some
_PAPER_CLAIMS = {
    "kuhn1950": claims_kuhn1950.CLAIMS,
    "szafron2013": claims_szafron2013.CLAIMS,
    "billingham": claims_billingham.CLAIMS,
    "ullman2015": (*claims_ullman2015.CLAIMS, *claims_ullman2015_runs.CLAIMS),
}
#: claims that need the 3-player MMH game (6 million rows, CFR+): not in ``--quick``
SLOW_CLAIMS: frozenset[str] = frozenset(
    {"ullman-table4", "ullman-table5", "ullman-table6", "ullman-table8"}
)

# ------------------------------------------------------------------ precision
#: claims whose checks compare floating-point numbers within a tolerance (printed
#: decimals, solver accuracy); all others compare exactly (rationals, polynomials,
#: counts)
TOLERANCE_CLAIMS: frozenset[str] = frozenset(
    {"billingham-p-star", "billingham-table1-solution2"}
    | {c.id for c in _PAPER_CLAIMS["ullman2015"]}
    - {"ullman-sizes", "ullman-tree-sizes"}  # integer counts (an "about" row is tolerance)
)
_EXACT_ROW = re.compile(r"iterations to eps")  # an iteration count: an exact integer
_TOLERANCE_ROW = re.compile(r"\babout\b")  # "about 5,000,000 nodes"


def precision(row: Row) -> str:
    """``"exact"`` when a verified row was checked in exact arithmetic (rationals,
    polynomial identities, integer counts), ``"tolerance"`` when floating-point
    numbers were compared within a stated tolerance.

    Decided from the claim (:data:`TOLERANCE_CLAIMS`, and every figure item's rows
    are Monte Carlo or solver output) and, for a few mixed claims, the row's
    parameters.
    """
    if _TOLERANCE_ROW.search(row.params):
        return "tolerance"
    if _EXACT_ROW.search(row.params):
        return "exact"
    known = {c.id for c in CLAIMS}
    if row.claim in known and row.claim not in TOLERANCE_CLAIMS:
        return "exact"
    return "tolerance"


def status_of(row: Row) -> str:
    """``verified exactly``, ``verified to tolerance`` or ``disagrees``."""
    if row.status != "verified":
        return "disagrees"
    return "verified exactly" if precision(row) == "exact" else "verified to tolerance"


def item_key(*inputs: str) -> str:
    """What an item's cache is keyed on: the package version and the item's inputs
    (its command with the folder left out, the digest of any file it reads) -- never
    where the package is installed, so a second install reuses the cache."""
    return " | ".join((f"toypoker {__version__}", *inputs))


def folder_of(item: str, key: str) -> str:
    """The folder of an item's files and cache record, relative to the report folder:
    ``items/<id>-<hash of its inputs>`` (``--quick`` and full results side by side)."""
    return f"items/{item}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"


def command_line(argv: Sequence[str]) -> str:
    """``toypoker ARGV`` as a shell would read it (quoted where needed)."""
    return shlex.join(["toypoker", *argv])


def claim_paper(claim_id: str) -> str:
    """The paper id of a claim (the claims module that holds it)."""
    for paper, claims in _PAPER_CLAIMS.items():
        if any(c.id == claim_id for c in claims):
            return paper
    raise ToypokerError(f"unknown claim {claim_id!r}")


__all__ = [
    "PAPERS",
    "PAPER_IDS",
    "SLOW_CLAIMS",
    "TOLERANCE_CLAIMS",
    "claim_paper",
    "command_line",
    "folder_of",
    "item_key",
    "precision",
    "status_of",
]
