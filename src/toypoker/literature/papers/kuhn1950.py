"""Kuhn (1950), "A simplified two-person poker".

Behaviour parameters (after dominated choices are removed): player I bets a 1
in the first round with probability ``alpha``, bets (calls) a 2 in the second
round with ``beta``, bets a 3 in the first round with ``gamma``; player II bets
a 1 against a pass with ``xi`` and bets (calls) a 2 against a bet with ``eta``.
Pure strategies are triples ``(x1, x2, x3)``, ``x_i`` in 0..2 (binary digits:
first round, second round) for player I, and ``(y1, y2, y3)``, ``y_j`` in 0..3
(digits: against a pass, against a bet) for player II.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from toypoker.game import Game
from toypoker.profile import Profile

F = Fraction
SOURCE = "Kuhn (1950)"


def behaviour(alpha: F, beta: F, gamma: F, xi: F, eta: F) -> dict[str, F]:
    """The profile of ``kuhn(players=2, ...)`` for Kuhn's behaviour parameters;
    dominated choices fixed as in the paper (never bet a 1 or pass a 3 facing a
    bet; I passes a 2 in the first round; II passes a 2 against a pass)."""
    return {
        "P1:1:": alpha,
        "P1:2:": F(0),
        "P1:3:": gamma,
        "P1:1:kb": F(0),
        "P1:2:kb": beta,
        "P1:3:kb": F(1),
        "P2:1:k": xi,
        "P2:2:k": F(0),
        "P2:3:k": F(1),
        "P2:1:b": F(0),
        "P2:2:b": eta,
        "P2:3:b": F(1),
    }


def family(gamma: F) -> dict[str, F]:
    """``a = b = 1``: I's one-parameter family ``alpha = gamma/3``,
    ``beta = gamma/3 + 1/3``; II's unique ``(xi, eta) = (1/3, 1/3)``."""
    return behaviour(gamma / 3, gamma / 3 + F(1, 3), gamma, F(1, 3), F(1, 3))


def general_case(a: F, b: F, eta: F | None = None) -> tuple[str, dict[str, F], F]:
    """The stated solution and value for ante ``a`` and bet ``b`` (the four cases).

    Returns ``(case, profile mapping, value)``.  Case 3 leaves ``eta`` in an
    interval (default: its midpoint).  Case 4 (printed ``0 <= 2a = b``): I never
    bluffs, always underbids and never bets a 2; II bets only, and always, with
    a 3; value 0.
    """
    s = 2 * a + b
    if b < a:
        return "case 1", behaviour(b / s, 2 * a / s, F(1), b / s, (2 * a - b) / s), -b / (6 * s)
    if b == a:
        return "case 2", family(F(1, 2)), -b / 18
    if b < 2 * a:
        lo, hi = b / s, (a + b) / s
        e = (lo + hi) / 2 if eta is None else eta
        return (
            "case 3",
            behaviour(F(0), (2 * a - b) / s, F(0), b / s, e),
            -(b / 6) * (2 * a - b) / s,
        )
    return "case 4", behaviour(F(0), F(0), F(0), F(0), F(0)), F(0)


# ----------------------------------------------------------- normal form
def pure_profile(game: Game, x: tuple[int, int, int], y: tuple[int, int, int]) -> Profile:
    """The profile of pure strategies ``(x1, x2, x3)`` and ``(y1, y2, y3)``."""
    m: dict[str, list[int]] = {}
    for card in (1, 2, 3):
        first, second = divmod(x[card - 1], 2)
        m[f"P1:{card}:"] = [1 - first, first]
        m[f"P1:{card}:kb"] = [1 - second, second] if not first else [1, 0]
        vs_pass, vs_bet = divmod(y[card - 1], 2)
        m[f"P2:{card}:k"] = [1 - vs_pass, vs_pass]
        m[f"P2:{card}:b"] = [1 - vs_bet, vs_bet]
    return Profile.from_mapping(game, m, exact=True)


PURE_I = list(itertools.product(range(3), repeat=3))  # 27
PURE_II = list(itertools.product(range(4), repeat=3))  # 64

# Kuhn's payoff scheme: payoff to I for (x_i, y_j); "s" = +-1 by the higher card
SCHEME = {
    0: ("s1", "s1", -1, -1),
    1: ("s1", "s1", "s2", "s2"),
    2: (1, "s2", 1, "s2"),
}


def scheme_payoff(x: tuple[int, int, int], y: tuple[int, int, int]) -> F:
    """Expected payoff to I from the paper's payoff scheme (1/6 per deal)."""
    total = F(0)
    for i, j in itertools.permutations((1, 2, 3), 2):
        e = SCHEME[x[i - 1]][y[j - 1]]
        if isinstance(e, str):
            e = int(e[1]) * (1 if i > j else -1)
        total += e
    return total / 6


# the reduced game matrix (six times the payoff), rows and columns as printed
REDUCED_ROWS = [
    (0, 0, 1),
    (0, 0, 2),
    (0, 1, 1),
    (0, 1, 2),
    (2, 0, 1),
    (2, 0, 2),
    (2, 1, 1),
    (2, 1, 2),
]
REDUCED_COLS = [(0, 0, 3), (0, 1, 3), (2, 0, 3), (2, 1, 3)]
REDUCED = [
    [0, 0, -1, -1],
    [0, 1, -2, -1],
    [-1, -1, 1, 1],
    [-1, 0, 0, 1],
    [1, -2, 0, -3],
    [1, -1, -1, -3],
    [0, -3, 2, -1],
    [0, -2, 1, -1],
]

# the basic optimal mixed strategies of player I, (A)-(L), and their printed
# behaviour parameters (alpha, beta, gamma)
BASIC = {
    "A": [(F(2, 3), (0, 0, 1)), (F(1, 3), (0, 1, 1))],
    "B": [(F(1, 3), (0, 0, 1)), (F(1, 2), (0, 1, 2)), (F(1, 6), (2, 0, 1))],
    "C": [(F(5, 9), (0, 0, 1)), (F(1, 3), (0, 1, 2)), (F(1, 9), (2, 1, 1))],
    "D": [(F(1, 2), (0, 0, 1)), (F(1, 3), (0, 1, 2)), (F(1, 6), (2, 1, 2))],
    "E": [(F(2, 5), (0, 0, 2)), (F(7, 15), (0, 1, 1)), (F(2, 15), (2, 0, 1))],
    "F": [(F(1, 3), (0, 0, 2)), (F(1, 2), (0, 1, 1)), (F(1, 6), (2, 0, 2))],
    "G": [(F(1, 2), (0, 0, 2)), (F(1, 3), (0, 1, 1)), (F(1, 6), (2, 1, 1))],
    "H": [(F(4, 9), (0, 0, 2)), (F(1, 3), (0, 1, 1)), (F(2, 9), (2, 1, 2))],
    "I": [(F(1, 6), (0, 0, 2)), (F(7, 12), (0, 1, 2)), (F(1, 4), (2, 0, 1))],
    "J": [(F(5, 12), (0, 0, 2)), (F(1, 3), (0, 1, 2)), (F(1, 4), (2, 1, 1))],
    "K": [(F(1, 3), (0, 0, 2)), (F(1, 3), (0, 1, 2)), (F(1, 3), (2, 1, 2))],
    "L": [(F(2, 3), (0, 1, 2)), (F(1, 3), (2, 0, 2))],
}
BASIC_BEHAVIOUR = {
    "A": (F(0), F(1, 3), F(0)),
    "C": (F(1, 9), F(4, 9), F(1, 3)),
    "E": (F(2, 15), F(7, 15), F(2, 5)),
    "B": (F(1, 6), F(1, 2), F(1, 2)),
    "D": (F(1, 6), F(1, 2), F(1, 2)),
    "F": (F(1, 6), F(1, 2), F(1, 2)),
    "G": (F(1, 6), F(1, 2), F(1, 2)),
    "H": (F(2, 9), F(5, 9), F(2, 3)),
    "I": (F(1, 4), F(5, 12), F(3, 4)),
    "J": (F(1, 4), F(5, 12), F(3, 4)),
    "K": (F(1, 3), F(2, 3), F(1)),
    "L": (F(1, 3), F(2, 3), F(1)),
}
II_OPTIMAL = [
    [(F(1, 3), (0, 0, 3)), (F(1, 3), (0, 1, 3)), (F(1, 3), (2, 0, 3))],
    [(F(2, 3), (0, 0, 3)), (F(1, 3), (2, 1, 3))],
]


def mixed_to_behaviour_I(mix: list[tuple[F, tuple[int, int, int]]]) -> tuple[F, F, F]:
    """(alpha, beta, gamma) of a mixture of player I's pure strategies (Kuhn's
    reduction: a realization-weighted average of the pure behaviours)."""
    alpha = sum((w for w, x in mix if x[0] == 2), F(0))
    passed2 = sum((w for w, x in mix if x[1] in (0, 1)), F(0))
    beta = sum((w for w, x in mix if x[1] == 1), F(0)) / passed2 if passed2 else F(0)
    gamma = sum((w for w, x in mix if x[2] == 2), F(0))
    return alpha, beta, gamma


def mixed_to_behaviour_II(mix: list[tuple[F, tuple[int, int, int]]]) -> tuple[F, F]:
    """(xi, eta) of a mixture of player II's pure strategies."""
    xi = sum((w for w, y in mix if y[0] in (2, 3)), F(0))
    eta = sum((w for w, y in mix if y[1] in (1, 3)), F(0))
    return xi, eta
