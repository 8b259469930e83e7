"""Expected values as exact polynomials (sympy) over the compiled game.

The exact evaluator runs over object arrays; filled with sympy expressions it
returns each player's expected value as a polynomial in the free action
probabilities -- multilinear, as every expected value of a behaviour profile
is.  Payoffs are affine in the game's numeric parameters (the compiled game
records it: :meth:`toypoker.game.Game.at`), so values at two pots give the
polynomial in the pot ``P`` exactly, without recompiling.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import sympy as sp

from toypoker.engines.rows.values import backward_values, edge_probabilities, root_value
from toypoker.errors import ToypokerError
from toypoker.game import Game


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
    game: Game, assignment: Mapping[str, object], P: sp.Symbol, parameter: str = "pot"
) -> list[sp.Expr]:
    """Expected values as polynomials in the free probabilities and a numeric parameter.

    Parameters
    ----------
    game
        The compiled game (any value of ``parameter``; it is moved with
        :meth:`~toypoker.game.Game.at`, never recompiled).
    assignment
        As for :func:`symbolic_values`.
    P
        The symbol standing for the parameter.
    parameter
        A numeric parameter of the game (``game.numeric_params``), the pot by default.

    Returns
    -------
    list of sympy.Expr
        Each player's expected value: payoffs are affine in ``parameter``, so
        ``E(P) = E(1) + (P - 1)(E(2) - E(1))`` exactly.
    """
    if parameter not in game.numeric_params:
        known = ", ".join(game.numeric_params) or "none"
        raise ToypokerError(f"{game.name} has no numeric parameter {parameter!r}; numeric: {known}")
    e1 = symbolic_values(game.at(**{parameter: 1}), assignment)
    e2 = symbolic_values(game.at(**{parameter: 2}), assignment)
    return [sp.expand(a + (P - 1) * (b - a)) for a, b in zip(e1, e2, strict=True)]
