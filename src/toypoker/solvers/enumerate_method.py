"""The exact enumerator (:mod:`.enumerate`) as the registry's ``"enumerate"`` method.

``solve(game, "enumerate", pot=..., pot_min=...)`` returns a
:class:`~toypoker.result.Result` whose ``equilibria`` are the pieces and whose
``variables`` are the symbols (named after the infoset labels).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.games import count_layout
from toypoker.solvers.base import OneShotState
from toypoker.solvers.options import Pot, integer

if TYPE_CHECKING:
    import sympy as sp

#: the most free binary choices the enumerator takes (3^9 = 19683 combinations before
#: pruning): the one home of this policy (``solve``, ``toypoker equilibria``, sweeps)
MAX_FREE = 9


def _is_sympy_number(x: object) -> bool:
    """A sympy expression (only possible when sympy is loaded already)."""
    sympy = sys.modules.get("sympy")
    return sympy is not None and isinstance(x, sympy.Expr)


def check_free_choices(
    game: Game, free_labels: tuple[str, ...] | None = None, most: int = MAX_FREE
) -> int:
    """The number of free choices the enumerator would walk (``free_labels``, or every
    unrestricted infoset); a :class:`~toypoker.errors.ToypokerError` past ``most``."""
    n_free = (
        len(free_labels)
        if free_labels is not None
        else sum(not i.restricted for i in game.infosets)
    )
    if n_free > most:
        raise ToypokerError(f"{n_free} free choices: too many to enumerate (3^k); at most {most}")
    return n_free


def check_counted_choices(spec: str, most: int = MAX_FREE) -> None:
    """Refuse, before building, a game whose counted infosets are so many that it cannot
    have at most ``most`` free choices (a game restricts few of its infosets): what
    :func:`check_free_choices` would say after the build, without building the deals
    (``kuhn(cards=1000)``: 4,000 infosets, a build of gigabytes)."""
    counted = count_layout(spec)
    if counted is not None and counted.infosets > 100 * most:
        raise ToypokerError(
            f"{counted.infosets:,} infosets: too many free choices to enumerate (3^k); "
            f"at most {most}"
        )


@dataclass(frozen=True)
class EnumerateOptions:
    """Options of the exact enumerator.

    Attributes
    ----------
    pot : Fraction, sympy number, Pot or None
        ``None``: the game as given; a rational or an algebraic sympy number
        (e.g. ``(5 + sqrt(73))/2``): the game at that pot; ``Pot.SYMBOLIC``
        (or ``"symbolic"``): a symbol ``P``.
    pot_min : Fraction or None
        With a symbolic pot: ``P`` ranges over ``(pot_min, oo)`` (default 0).
    free_labels : tuple of str or None
        The infosets whose probabilities are unknowns (default: every free one).
    max_free : int
        Refuse games with more free choices than this (the walk is ``3^k``).
    """

    pot: Fraction | sp.Expr | Pot | None = None
    pot_min: Fraction | None = None
    free_labels: tuple[str, ...] | None = None
    max_free: int = MAX_FREE

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        pot = self.pot
        if isinstance(pot, str):
            try:
                pot = Pot(pot)
            except ValueError:
                msg = f"option pot must be a number or 'symbolic', not {pot!r}"
                raise ToypokerError(msg) from None
        elif isinstance(pot, bool) or not (
            pot is None or isinstance(pot, int | Fraction) or _is_sympy_number(pot)
        ):
            raise ToypokerError(f"option pot must be a number or 'symbolic', not {pot!r}")
        if isinstance(pot, int):
            pot = Fraction(pot)
        set_(self, "pot", pot)
        if self.pot_min is not None:
            if pot is not Pot.SYMBOLIC:
                raise ToypokerError("option pot_min is read only with pot='symbolic'")
            if isinstance(self.pot_min, bool) or not isinstance(self.pot_min, int | Fraction):
                raise ToypokerError(f"option pot_min must be a rational, not {self.pot_min!r}")
            set_(self, "pot_min", Fraction(self.pot_min))
        if self.free_labels is not None:
            set_(self, "free_labels", tuple(str(x) for x in self.free_labels))
        set_(self, "max_free", integer("max_free", self.max_free, low=1))

    @property
    def P_domain(self) -> sp.Set | None:
        """The set a symbolic pot ranges over: ``(pot_min, oo)``."""
        if self.pot is not Pot.SYMBOLIC:
            return None
        import sympy as sp  # the symbolic stack loads with the enumerator, not the registry

        lo = self.pot_min or Fraction(0)
        return sp.Interval.open(sp.Rational(lo.numerator, lo.denominator), sp.oo)


def init(game: Game, options: EnumerateOptions, seed: int | None = None) -> OneShotState:
    """Check the game before the walk: a pot to vary, few enough free choices."""
    if options.pot is not None and "pot" not in game.numeric_params:
        raise ToypokerError(f"{game.name} has no pot parameter")
    check_free_choices(game, options.free_labels, options.max_free)
    return OneShotState()


def step(game: Game, state: OneShotState, options: EnumerateOptions) -> OneShotState:
    """Enumerate (once; a finished state is returned unchanged)."""
    if state.iteration:
        return state
    from toypoker.solvers.enumerate import (
        game_equilibria,  # sympy: loaded when something is enumerated
    )

    pieces, variables = game_equilibria(
        game, options.free_labels, pot=options.pot, P_domain=options.P_domain
    )
    return OneShotState(1, (tuple(pieces), tuple(variables)))


def summary(game: Game, state: OneShotState, options: EnumerateOptions) -> dict[str, object]:
    """The :class:`~toypoker.result.Result` fields: the pieces and the symbols."""
    if state.outcome is None:
        raise ToypokerError("nothing enumerated yet: call step() first")
    pieces, variables = state.outcome  # type: ignore[misc]
    return {"equilibria": pieces, "variables": variables, "exact": True}


__all__ = ["MAX_FREE", "EnumerateOptions", "check_free_choices", "init", "step", "summary"]
