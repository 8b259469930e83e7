"""Szafron, Gibson, Sturtevant (2013): a parameterized family of equilibria of
three-player Kuhn poker (AAMAS 2013).

Notation (their Sec. 3 and Table 1): ``a_jk``, ``b_jk``, ``c_jk`` are the
probabilities that P1, P2, P3 holding card ``j`` (1..4) take the aggressive
action (bet or call) in situation ``k``:

==========  =====  ======  ====
situation   P1     P2      P3
==========  =====  ======  ====
1           ``-``  K       KK
2           KKB    B       KB
3           KBF    KKBF    BF
4           KBC    KKBC    BC
==========  =====  ======  ====

Table 2 fixes 21 parameters (dominated choices); Table 3 defines three
sub-families by ``c11 = 0``, ``0 < c11 < 1/2`` and ``c11 = 1/2``, with
utilities ``u1 = -k(1/2 + beta)``, ``u2 = -k/2``, ``u3 = k(1 + beta)``,
``beta = max(b11, b21)``, ``k = 1/24``.  Table 4 is a non-equilibrium mix.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.profile import Profile

GAME_SPEC = "kuhn(players=3)"
KAPPA = Fraction(1, 24)  # probability of each deal (Sec. 3)

# (player index, history) of situation k for each player letter (Table 1)
SITUATIONS: dict[str, dict[int, tuple[int, str]]] = {
    "a": {1: (0, ""), 2: (0, "kkb"), 3: (0, "kbf"), 4: (0, "kbc")},
    "b": {1: (1, "k"), 2: (1, "b"), 3: (1, "kkbf"), 4: (1, "kkbc")},
    "c": {1: (2, "kk"), 2: (2, "kb"), 3: (2, "bf"), 4: (2, "bc")},
}

F = Fraction
Z, ONE, HALF, QUARTER = F(0), F(1), F(1, 2), F(1, 4)

# Table 2: the 21 necessary parameter values (0 for 12, 13, 14, 24; 1 for 42, 43, 44)
TABLE2: dict[str, Fraction] = {
    x + name: (ONE if name[0] == "4" else Z)
    for x in "abc"
    for name in ("12", "13", "14", "24", "42", "43", "44")
}

SUBFAMILIES = ("c11=0", "0<c11<1/2", "c11=1/2")


def label(param: str) -> str:
    """Infoset label of a parameter name such as ``"b23"`` (P2, card 2, KKBF)."""
    letter, card, situation = param[0], int(param[1]), int(param[2])
    player, history = SITUATIONS[letter][situation]
    return f"P{player + 1}:{card}:{history}"


def table3(
    b11: Fraction,
    b21: Fraction,
    b23: Fraction,
    b32: Fraction,
    c11: Fraction,
    c33: Fraction,
    c34: Fraction = Z,
) -> dict[str, Fraction]:
    """All 48 parameters of the Table 2 + Table 3 profile for the free ones given.

    The dependent values are Table 3's formulas, e.g.
    ``b33 = 1/2 + (b11 + b21)/2 + beta/2 - b23 (1 - b21)``.
    """
    beta = max(b11, b21)
    p: dict[str, Fraction] = dict(TABLE2)
    # P1 (Table 3, first column): never bets first, a33 = 1/2
    p.update(a11=Z, a21=Z, a22=Z, a23=Z, a31=Z, a32=Z, a33=HALF, a34=Z, a41=Z)
    p.update(
        b11=b11,
        b21=b21,
        b22=Z,
        b23=b23,
        b31=Z,
        b32=b32,
        b33=HALF + (b11 + b21) / 2 + beta / 2 - b23 * (1 - b21),
        b34=Z,
        b41=2 * b11 + 2 * b21,
    )
    p.update(c11=c11, c21=HALF - c11, c22=Z, c23=Z, c31=Z, c32=Z, c33=c33, c34=c34, c41=ONE)
    return p


def table3_utilities(b11: Fraction, b21: Fraction) -> tuple[Fraction, Fraction, Fraction]:
    """Table 3: ``u1 = -k(1/2 + beta)``, ``u2 = -k/2``, ``u3 = k(1 + beta)``."""
    beta = max(b11, b21)
    return (-KAPPA * (HALF + beta), -KAPPA * HALF, KAPPA * (1 + beta))


def _rand(
    rng: np.random.Generator,
    lo: Fraction,
    hi: Fraction,
    den: int = 48,
    open_lo: bool = False,
    open_hi: bool = False,
) -> Fraction:
    """A random rational in [lo, hi] (ends included unless open), often an endpoint."""
    if hi < lo:
        raise ToypokerError(f"empty range [{lo}, {hi}]")
    choice = rng.random()
    if choice < 0.15 and not open_lo:
        return lo
    if choice < 0.30 and not open_hi:
        return hi
    for _ in range(100):
        x = lo + (hi - lo) * F(int(rng.integers(0, den + 1)), den)
        if (x > lo or not open_lo) and (x < hi or not open_hi):
            return x
    return (lo + hi) / 2


def sample_member(
    rng: np.random.Generator, subfamily: str | None = None
) -> tuple[str, dict[str, Fraction]]:
    """A random member of a Table 3 sub-family, every range constraint respected.

    Ranges as stated in Sec. 5 for each sub-family; parameters are clipped to
    [0, 1] where a stated bound leaves it.  Returns ``(subfamily, params)``.
    """
    sub = subfamily or SUBFAMILIES[int(rng.integers(0, 3))]
    c34 = _rand(rng, Z, ONE)
    if sub == "c11=0":
        b21 = _rand(rng, Z, QUARTER)
        b11 = _rand(rng, Z, b21)
        b23, c11 = Z, Z
        b32 = _rand(rng, Z, min(ONE, (2 + 3 * b11 + 4 * b21) / 4))
        width = (3 * b11 + 4 * b21) / 4
    elif sub == "0<c11<1/2":
        b11 = _rand(rng, Z, QUARTER)
        b21, b23 = b11, Z
        hi = HALF if b11 <= F(1, 6) else min(HALF, (2 - b11) / (3 + 4 * b11))
        c11 = _rand(rng, Z, hi, open_lo=True, open_hi=(hi == HALF))
        b32 = _rand(rng, Z, min(ONE, (2 + 7 * b11) / 4))
        width = 7 * b11 / 4
    elif sub == "c11=1/2":
        b11 = _rand(rng, Z, QUARTER)
        b21 = _rand(rng, Z, b11 if b11 <= F(1, 6) else HALF - 2 * b11)
        b23 = _rand(rng, Z, (b11 - b21) / (2 * (1 - b21)))
        c11 = HALF
        b32 = _rand(rng, Z, min(ONE, (2 + 4 * b11 + 3 * b21) / 4))
        width = (4 * b11 + 3 * b21) / 4
    else:
        raise ToypokerError(f"unknown sub-family {sub!r}; known: {SUBFAMILIES}")
    c33 = _rand(rng, max(Z, HALF - b32), min(ONE, HALF - b32 + width))
    return sub, table3(b11, b21, b23, b32, c11, c33, c34)


def table4() -> dict[str, Fraction]:
    """Table 4: P2 from the ``c11 = 1/2`` sub-family, P3 from ``c11 = 0``.

    Published utilities: ``u1 = -k/2``, ``u2 = -k(1/2 + beta)``,
    ``u3 = k(1 + beta)`` with ``beta = b11 = 1/4``.
    """
    p: dict[str, Fraction] = dict(TABLE2)
    p.update(a11=Z, a21=Z, a22=Z, a23=Z, a31=Z, a32=Z, a33=HALF, a34=Z, a41=Z)
    p.update(b11=QUARTER, b21=Z, b22=Z, b23=F(1, 8), b31=Z, b32=Z, b33=F(5, 8), b34=Z, b41=HALF)
    p.update(c11=Z, c21=HALF, c22=Z, c23=Z, c31=Z, c32=Z, c33=QUARTER, c34=Z, c41=ONE)
    return p


TABLE4_UTILITIES = (-KAPPA * HALF, -KAPPA * (HALF + QUARTER), KAPPA * (1 + QUARTER))


def profile(game: Game, params: dict[str, Fraction]) -> Profile:
    """The exact profile of ``kuhn(players=3)`` given all 48 parameters."""
    if len(params) != 48:
        raise ToypokerError(f"expected 48 parameters, got {len(params)}")
    return Profile.from_mapping(game, {label(k): v for k, v in params.items()}, exact=True)
