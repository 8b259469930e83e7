"""Expected values as exact polynomials (sympy) over the compiled game.

The exact evaluator runs over object arrays; filled with sympy expressions it
returns each player's expected value as a polynomial in the free action
probabilities -- multilinear, as every expected value of a behaviour profile
is.  Payoffs of the Kuhn-type games are affine in the pot ``P`` (each player
put in ``P/n``), so values at two pots give the polynomial in ``P`` exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

import numpy as np
import sympy as sp

from .errors import ToypokerError
from .evaluate import backward_values, edge_probabilities, root_value
from .game import Game


def _q(x: object) -> sp.Expr:
    if isinstance(x, Fraction):
        return sp.Rational(x.numerator, x.denominator)
    return sp.sympify(x)


def symbolic_sigma(game: Game, assignment: Mapping[str, object]) -> np.ndarray:
    """A flat strategy vector of sympy expressions.

    ``assignment`` maps infoset labels to the probability of the aggressive
    (last) action of a two-action infoset, or to a list over the actions.
    Restricted infosets take their fixed values; every free infoset must be
    assigned.
    """
    sigma = np.empty(game.n_sigma, dtype=object)
    fixed = game.fixed_values_exact
    for info in game.infosets:
        k = len(info.actions)
        if info.restricted:
            for j in range(k):
                sigma[info.offset + j] = _q(fixed[info.offset + j])
            continue
        if info.label not in assignment:
            raise ToypokerError(f"no symbol or value for infoset {info.label}")
        v = assignment[info.label]
        if isinstance(v, list | tuple):
            row = [_q(x) for x in v]
        else:
            if k != 2:
                raise ToypokerError(f"{info.label} has {k} actions: give a list")
            row = [1 - _q(v), _q(v)]
        for j in range(k):
            sigma[info.offset + j] = row[j]
    return sigma


def symbolic_values(game: Game, assignment: Mapping[str, object]) -> list[sp.Expr]:
    """Each player's expected value as an expanded polynomial."""
    sigma = symbolic_sigma(game, assignment)
    eprob = edge_probabilities(game, sigma)
    vals = backward_values(game, eprob)
    return [sp.expand(sp.nsimplify(root_value(game, vals[p]))) for p in range(game.n_players)]


def values_in_pot(
    make_game: Callable[[Fraction], Game], assignment: Mapping[str, object], P: sp.Symbol
) -> list[sp.Expr]:
    """Expected values as polynomials in the free probabilities and the pot ``P``.

    Uses that payoffs are affine in ``P``: ``E(P) = E(1) + (P - 1)(E(2) - E(1))``.
    """
    e1 = symbolic_values(make_game(Fraction(1)), assignment)
    e2 = symbolic_values(make_game(Fraction(2)), assignment)
    return [sp.expand(a + (P - 1) * (b - a)) for a, b in zip(e1, e2, strict=True)]
