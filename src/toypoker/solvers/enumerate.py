"""All equilibria of small games, exactly (generalising Billingham's Appendix C).

For a game whose free action probabilities ``x_i`` are binary choices, every
equilibrium satisfies, for each ``i`` with owner ``p`` and
``D_i = dE_p/dx_i`` (which does not contain ``x_i``; expected values are
multilinear)::

    x_i = 0 and D_i <= 0,   or   x_i = 1 and D_i >= 0,   or   D_i = 0.

The enumerator walks the ``3^k`` combinations depth first, pruning with exact
bounds: ``D_i`` is multilinear, so its range over the box of the still-open
variables is attained at the box's vertices, and a branch whose condition
cannot hold anywhere in the box is cut before anything is solved.  At each
surviving leaf the polynomial system ``D_i = 0`` (indifferent ``i``) is solved
exactly with sympy; solutions whose inequalities hold are kept, with their free
parameters and the inequalities that bound them.  Pieces contained in other
pieces are dropped.  The pot ``P`` may be a rational, an algebraic number such
as ``P* = (5 + sqrt 73)/2``, or a symbol (then the result says for which ``P``).

The conditions are those of each infoset separately (agent form); in games
where a player's own infosets follow each other (not the case in the
one-third street game or SKP), certify the pieces with the exact best response.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

import sympy as sp

from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.solvers.options import Pot
from toypoker.symbolic import symbolic_values, values_in_pot


class Status(StrEnum):
    """A variable's case at a leaf of the enumeration (``int()`` of 0 and 1 works)."""

    ZERO = "0"  # x_i = 0 and D_i <= 0
    ONE = "1"  # x_i = 1 and D_i >= 0
    FREE = "D=0"  # D_i = 0 (indifferent)


ZERO, ONE, FREE = Status.ZERO, Status.ONE, Status.FREE


@dataclass(frozen=True)
class Piece:
    """One connected family (or point) of equilibria.

    ``values`` gives every variable as an expression in the ``free`` symbols
    (and ``P`` when symbolic); ``constraints`` are the inequalities the free
    symbols (or ``P``) must satisfy; ``status`` the leaf's combination.
    """

    values: dict[sp.Symbol, sp.Expr]
    free: tuple[sp.Symbol, ...]
    constraints: tuple[sp.Basic, ...]
    status: tuple[Status, ...]
    region: sp.Basic | None = None  # the set of P (symbolic P) or of the one free symbol
    extra: dict = field(default_factory=dict)

    def to_json_dict(self) -> dict[str, object]:
        """The piece as JSON data (sympy values and sets as strings)."""
        return {
            "status": [s.value for s in self.status],
            "description": self.describe(),
            "values": {str(k): str(v) for k, v in self.values.items()},
            "free": [str(f) for f in self.free],
            "region": None if self.region is None else str(self.region),
        }

    def describe(self) -> str:
        """The piece in one line: values, free symbols and their range."""
        parts = [f"{k} = {sp.simplify(v)}" for k, v in self.values.items()]
        text = ", ".join(parts)
        if self.free:
            text += f"; free: {', '.join(map(str, self.free))}"
        if self.region is not None:
            text += f"; for {self.region}"
        elif "polygon" in self.extra:
            verts = ", ".join(f"({a}, {b})" for a, b in self.extra["polygon"])
            text += f"; ({', '.join(map(str, self.free))}) in the polygon with vertices {verts}"
        elif self.constraints:
            text += "; with " + ", ".join(str(c) for c in self.constraints)
        return text


class _Multilinear:
    """A multilinear polynomial as {frozenset(variable indices): coefficient}."""

    def __init__(self, expr: sp.Expr, variables: Sequence[sp.Symbol]):
        self.terms: dict[frozenset[int], sp.Expr] = {}
        poly = sp.Poly(sp.expand(expr), *variables)
        for monom, coeff in poly.terms():
            if any(e > 1 for e in monom):
                raise ToypokerError("expected values must be multilinear in the probabilities")
            key = frozenset(i for i, e in enumerate(monom) if e)
            self.terms[key] = self.terms.get(key, 0) + coeff

    def bounds(self, fixed: dict[int, int]) -> tuple[sp.Expr, sp.Expr]:
        """Min and max over the box: fixed variables at their 0/1, the rest in [0, 1]."""
        open_vars = sorted({i for k in self.terms for i in k} - set(fixed))
        vals = []
        for corner in itertools.product((0, 1), repeat=len(open_vars)):
            point = dict(fixed)
            point.update(zip(open_vars, corner, strict=True))
            total = sp.Integer(0)
            for key, c in self.terms.items():
                if all(point[i] for i in key):
                    total += c
            vals.append(total)
        if all(v.is_Rational for v in vals):
            return min(vals), max(vals)
        return min(vals, key=_key), max(vals, key=_key)


def _is_real(x: sp.Expr) -> bool:
    n = sp.N(x, 30)
    return bool(n.is_real) or abs(complex(n).imag) < 1e-25


def _key(x: sp.Expr) -> float:
    return float(sp.N(x, 30))


def _sign_ok(value: sp.Expr, need: str) -> bool | None:
    """``value`` compared with 0 as ``need`` ('<=', '>=', '=='); None if undecidable.

    Rationals are compared exactly; algebraic numbers by simplification, then by
    a 30-digit evaluation (exact zero is decided symbolically first).
    """
    v = sp.sympify(value)
    if v.free_symbols:
        return None
    if not v.is_Rational:
        v = sp.simplify(v)
        if not v.is_Rational:
            if not _is_real(v):
                return False  # a complex root is not a probability
            if need == "==":
                return bool(v.equals(0))
            if v.equals(0):
                return True
            x = _key(v)
            return x <= 0 if need == "<=" else x >= 0
    if need == "==":
        return v == 0
    return v <= 0 if need == "<=" else v >= 0


class _Fast:
    """A polynomial in a few symbols evaluated exactly with Fractions (rational
    coefficients), falling back to sympy otherwise."""

    def __init__(self, expr: sp.Expr, syms: Sequence[sp.Symbol]):
        self.expr, self.syms = sp.expand(expr), tuple(syms)
        self.terms = None
        try:
            poly = sp.Poly(self.expr, *self.syms) if self.syms else None
        except sp.PolynomialError:
            poly = None
        if poly is not None and all(c.is_Rational for c in poly.coeffs()):
            self.terms = [(m, Fraction(int(c.p), int(c.q))) for m, c in poly.terms()]
        elif not self.syms and self.expr.is_Rational:
            self.terms = [((), Fraction(int(self.expr.p), int(self.expr.q)))]

    def sign_ok(self, point: Sequence, need: str) -> bool | None:
        if self.terms is None:
            return _sign_ok(self.expr.subs(dict(zip(self.syms, point, strict=True))), need)
        total = 0
        for monom, c in self.terms:
            t = c
            for x, e in zip(point, monom, strict=False):
                if e:
                    t *= x**e
            total += t
        if need == "==":
            return total == 0
        return total <= 0 if need == "<=" else total >= 0


def equilibrium_conditions(
    E: Sequence[sp.Expr], variables: Sequence[sp.Symbol], owners: Sequence[int]
) -> list[sp.Expr]:
    """``D_i = dE_{owner(i)}/dx_i`` for every variable."""
    return [sp.expand(sp.diff(E[owners[i]], x)) for i, x in enumerate(variables)]


def enumerate_equilibria(
    E: Sequence[sp.Expr],
    variables: Sequence[sp.Symbol],
    owners: Sequence[int],
    P: sp.Symbol | None = None,
    P_domain: sp.Set | None = None,
    sample_grid: int = 24,
) -> list[Piece]:
    """All equilibria of the binary-choice game with expected values ``E``.

    Parameters
    ----------
    E
        Expected value of each player, multilinear in ``variables`` (may contain
        the symbol ``P``).
    variables, owners
        The free probabilities and the player (index into ``E``) of each.
    P, P_domain
        A symbolic pot and the set it ranges over (e.g. ``Interval.open(5, oo)``);
        when ``P`` is None every coefficient must be a number.
    """
    D = equilibrium_conditions(E, variables, owners)
    symbolic = P is not None and any(d.has(P) for d in D)
    ml = None if symbolic else [_Multilinear(d, variables) for d in D]
    k = len(variables)
    leaves: list[tuple[Status, ...]] = []

    def dfs(i: int, status: list[Status], fixed: dict[int, int]) -> None:
        if i == k:
            leaves.append(tuple(status))
            return
        options = (ZERO, ONE, FREE)
        if ml is not None:
            lo, hi = ml[i].bounds(fixed)
            options = tuple(
                o
                for o in options
                if (
                    (o == ZERO and _key(lo) <= 1e-30)
                    or (o == ONE and _key(hi) >= -1e-30)
                    or (o == FREE and _key(lo) <= 1e-30 <= _key(hi) + 2e-30)
                )
            )
        for o in options:
            nf = dict(fixed)
            if o in (ZERO, ONE):
                nf[i] = int(o)
            # re-check earlier decided variables under the narrower box
            if ml is not None and not _consistent(ml, status + [o], nf, i + 1):
                continue
            dfs(i + 1, status + [o], nf)

    dfs(0, [], {})
    pieces: list[Piece] = []
    for st in leaves:
        pieces.extend(_solve_leaf(st, D, variables, P if symbolic else None, P_domain, sample_grid))
    return _merge(pieces, D, variables)


def _consistent(
    ml: list[_Multilinear], status: list[Status], fixed: dict[int, int], n: int
) -> bool:
    for j in range(n):
        lo, hi = ml[j].bounds(fixed)
        s = status[j]
        if s == ZERO and _key(lo) > 1e-30:
            return False
        if s == ONE and _key(hi) < -1e-30:
            return False
        if s == FREE and (_key(lo) > 1e-30 or _key(hi) < -1e-30):
            return False
    return True


def _solve_leaf(
    status: tuple[Status, ...],
    D: Sequence[sp.Expr],
    variables: Sequence[sp.Symbol],
    P: sp.Symbol | None,
    P_domain: sp.Set | None,
    grid: int,
) -> list[Piece]:
    """The pieces of equilibria whose variables are at the bounds ``status`` gives."""
    sub = {x: int(s) for x, s in zip(variables, status, strict=True) if s != FREE}
    unknowns = [x for x, s in zip(variables, status, strict=True) if s == FREE]
    eqs = [sp.expand(D[i].subs(sub)) for i, s in enumerate(status) if s == FREE]
    eqs = [e for e in eqs if e != 0]
    if eqs:
        try:
            sols = sp.solve(eqs, unknowns, dict=True)
        except NotImplementedError:
            return []
    else:
        sols = [{}]
    out = []
    for sol in sols:
        out += _solution_pieces(sol, sub, unknowns, status, D, variables, P, P_domain, grid)
    return out


def _leaf_constraints(
    status: tuple[Status, ...],
    D: Sequence[sp.Expr],
    variables: Sequence[sp.Symbol],
    values: dict[sp.Symbol, sp.Expr],
) -> list[sp.Basic]:
    """The conditions ``values`` must meet: free variables in [0, 1], each one's sign."""
    cons = []
    for i, x in enumerate(variables):
        v = values[x]
        if status[i] == FREE:
            cons += [v >= 0, v <= 1]
        d = sp.simplify(D[i].subs(values))
        if status[i] == ZERO:
            cons.append(d <= 0)
        elif status[i] == ONE:
            cons.append(d >= 0)
        elif status[i] == FREE and d != 0:
            cons.append(sp.Eq(d, 0))
    return [c for c in cons if c is not sp.true]


def _solution_pieces(
    sol: dict,
    sub: dict[sp.Symbol, int],
    unknowns: list[sp.Symbol],
    status: tuple[Status, ...],
    D: Sequence[sp.Expr],
    variables: Sequence[sp.Symbol],
    P: sp.Symbol | None,
    P_domain: sp.Set | None,
    grid: int,
) -> list[Piece]:
    """The pieces one solution ``sol`` of a leaf's equations gives (none if it fails)."""
    values = {x: sp.simplify(sp.sympify(sub[x]) if x in sub else sol.get(x, x)) for x in variables}
    if P is None and any(not v.free_symbols and not _is_real(v) for v in values.values()):
        return []
    free = tuple(x for x in unknowns if x not in sol)
    cons = _leaf_constraints(status, D, variables, values)
    if any(c is sp.false for c in cons):
        return []
    pinned = _pin_free(values, free, cons)
    if pinned is None:
        return []
    values, free, cons = pinned
    region = None
    if P is not None and not free:
        region = _solve_region(cons, P, P_domain)
        if region is None or region is sp.EmptySet:
            return []
    elif free:
        pts = _sample_points(cons, free, grid)
        if not pts:
            return []
        if len(free) == 1:
            region = _solve_region(cons, free[0], sp.Interval(0, 1))
            if isinstance(region, sp.FiniteSet):  # a point after all
                out = []
                for r in region:
                    pv = {x: sp.simplify(v.subs(free[0], r)) for x, v in values.items()}
                    out.append(Piece(pv, (), (), status, None))
                return out
    else:
        if not all(_sign_ok(_as_expr(c), _need(c)) for c in cons):
            return []
    extra = {}
    if len(free) == 2:
        poly = _polygon(cons, free)
        if poly is not None and len(poly) == 1:  # a point after all
            pt = dict(zip(free, poly[0], strict=True))
            pv = {x: sp.simplify(v.subs(pt)) for x, v in values.items()}
            return [Piece(pv, (), (), status, None)]
        if poly is not None:
            extra["polygon"] = poly
    return [Piece(values, free, tuple(cons), status, region, extra)]


def _pin_free(values: dict, free: tuple, cons: list) -> tuple[dict, tuple, list] | None:
    """Substitute free symbols that the constraints pin to one value.

    Constraints linear in a single free symbol bound it; when the bounds meet,
    the symbol is that value (e.g. ``b_J = -b_Q`` with both ``>= 0``).
    """
    changed = True
    while changed and free:
        changed = False
        for f in free:
            lo, hi = sp.Integer(0), sp.Integer(1)
            for c in cons:
                e = sp.expand(_as_expr(c))
                if e.free_symbols != {f} or not e.is_polynomial(f) or sp.Poly(e, f).degree() != 1:
                    continue
                a, b = sp.Poly(e, f).all_coeffs()
                root = -b / a
                need = _need(c)
                if need == "==":
                    lo, hi = max(lo, root), min(hi, root)
                elif (need == ">=") == (a > 0):
                    lo = max(lo, root)
                else:
                    hi = min(hi, root)
            if lo > hi:
                return None
            if lo == hi:
                try:
                    values = {x: sp.simplify(v.subs(f, lo)) for x, v in values.items()}
                    cons = [sp.simplify(c.subs(f, lo)) for c in cons]
                except TypeError:  # undefined at the pinned value: no valid point
                    return None
                if any(v.has(sp.zoo, sp.nan) for v in values.values()) or any(
                    c is sp.false for c in cons
                ):
                    return None
                cons = [c for c in cons if c is not sp.true]
                free = tuple(x for x in free if x != f)
                changed = True
                break
    return values, free, cons


def _as_expr(c: sp.Basic) -> sp.Expr:
    return c.lhs - c.rhs


def _need(c: sp.Basic) -> str:
    if isinstance(c, sp.Equality):
        return "=="
    if isinstance(c, sp.LessThan | sp.StrictLessThan):
        return "<="
    return ">="


def _solve_region(cons: list[sp.Basic], sym: sp.Symbol, domain: sp.Set | None) -> sp.Set | None:
    region = domain if domain is not None else sp.S.Reals
    for c in cons:
        if not c.free_symbols:
            if not _sign_ok(_as_expr(c), _need(c)):
                return sp.EmptySet
            continue
        try:
            s = sp.solveset(c, sym, domain=sp.S.Reals)
        except (NotImplementedError, ValueError):
            return None
        region = sp.Intersection(region, s)
    return sp.simplify(region)


def _sample_points(
    cons: list[sp.Basic], free: tuple[sp.Symbol, ...], grid: int
) -> list[dict[sp.Symbol, sp.Rational]]:
    """Up to 8 rational points of the free symbols' grid that satisfy ``cons``."""
    fast = [(_Fast(_as_expr(c), free), _need(c)) for c in cons]
    pts = []
    axis = [Fraction(j, grid) for j in range(grid + 1)]
    for combo in itertools.product(axis, repeat=len(free)):
        if all(f.sign_ok(combo, need) for f, need in fast):
            pts.append(
                {
                    x: sp.Rational(v.numerator, v.denominator)
                    for x, v in zip(free, combo, strict=True)
                }
            )
            if len(pts) >= 8:
                break
    return pts


def _polygon(cons: list[sp.Basic], free: tuple[sp.Symbol, ...]) -> list[tuple] | None:
    """Vertices of the region of two free symbols cut out by linear inequalities."""
    if len(free) != 2:
        return None
    x, y = free
    lines = []
    for c in cons:
        e = sp.expand(_as_expr(c))
        if not e.is_polynomial(x, y) or sp.Poly(e, x, y).total_degree() > 1:
            return None
        lines.append(e)
    lines += [x, x - 1, y, y - 1]
    verts = set()
    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            sol = sp.solve([lines[i], lines[j]], [x, y], dict=True)
            if len(sol) != 1 or len(sol[0]) != 2:
                continue
            pt = (sol[0][x], sol[0][y])
            if all(
                _sign_ok(_as_expr(c).subs({x: pt[0], y: pt[1]}), _need(c)) for c in cons
            ) and all(0 <= v <= 1 for v in pt):
                verts.add(pt)
    if not verts:
        return None
    cx = sum(v[0] for v in verts) / len(verts)
    cy = sum(v[1] for v in verts) / len(verts)
    return sorted(verts, key=lambda v: float(sp.atan2(v[1] - cy, v[0] - cx)))


def _member(
    point: dict[sp.Symbol, sp.Expr],
    piece: Piece,
    D: Sequence[sp.Expr],
    variables: Sequence[sp.Symbol],
) -> bool:
    for i, (x, s) in enumerate(zip(variables, piece.status, strict=True)):
        if s != FREE and sp.simplify(point[x] - int(s)) != 0:
            return False
        if s == FREE and sp.simplify(D[i].subs(point)) != 0:
            return False
    return True


def _points_of(piece: Piece, grid: int = 12) -> list[dict[sp.Symbol, sp.Expr]]:
    if not piece.free:
        return [dict(piece.values)]
    pts = _sample_points(list(piece.constraints), piece.free, grid)
    return [{x: sp.simplify(v.subs(pt)) for x, v in piece.values.items()} for pt in pts]


def _merge(
    pieces: list[Piece], D: Sequence[sp.Expr], variables: Sequence[sp.Symbol]
) -> list[Piece]:
    """Drop pieces contained in another piece (by exact membership of sample points)."""
    if any(p.region is not None and p.free == () for p in pieces):
        return pieces  # symbolic P: keep every regime
    keep = []
    for a, pa in enumerate(pieces):
        contained = False
        pts = _points_of(pa)
        for b, pb in enumerate(pieces):
            if a == b or len(pb.free) < len(pa.free):
                continue
            if len(pb.free) == len(pa.free) and b > a:
                continue  # equal-dimension duplicates: keep the first
            if pts and all(_member(pt, pb, D, variables) for pt in pts):
                contained = True
                break
        if not contained:
            keep.append(pa)
    return keep


# ------------------------------------------------------------------ for games
def game_equilibria(
    game: Game,
    free_labels: Sequence[str] | None = None,
    pot: Fraction | int | sp.Expr | Pot | None = None,
    P_domain: sp.Set | None = None,
) -> tuple[list[Piece], list[sp.Symbol]]:
    """All equilibria of a compiled game with binary free choices.

    Parameters
    ----------
    game
        The compiled game.
    free_labels
        The infosets whose probabilities are the unknowns (default: every free one).
    pot
        ``None``: the game as given; a rational: the game at that pot
        (:meth:`Game.at`, no recompilation); an algebraic sympy number such as
        ``(5 + sqrt(73))/2``; or :attr:`Pot.SYMBOLIC` (the string ``"symbolic"``
        is accepted) for a symbol ``P`` ranging over ``P_domain``.
    P_domain
        The set the symbolic pot ranges over, e.g. ``Interval.open(5, oo)``.

    Returns
    -------
    pieces, variables
        The equilibrium pieces and the symbols, named after the infoset labels
        (``"P2:3:kb"`` -> ``P2_3_kb``), in order.
    """
    if isinstance(pot, str):
        pot = _pot(pot)
    if pot is not None and "pot" not in game.numeric_params:
        raise ToypokerError(f"{game.name} has no pot parameter")
    if P_domain is not None and pot is not Pot.SYMBOLIC:
        raise ToypokerError("P_domain is for a symbolic pot (pot=Pot.SYMBOLIC)")
    infos = [i for i in game.infosets if not i.restricted]
    if free_labels is not None:
        infos = [game.infoset(lbl) for lbl in free_labels]
    if any(len(i.actions) != 2 for i in infos):
        raise ToypokerError("the enumerator needs binary choices at every free infoset")
    variables = [sp.Symbol(i.label.replace(":", "_")) for i in infos]
    assign = {i.label: v for i, v in zip(infos, variables, strict=True)}
    owners = [i.player for i in infos]
    if pot is None or isinstance(pot, Fraction | int):
        g = game if pot is None else game.at(pot=Fraction(pot))
        E = symbolic_values(g, assign)
        return enumerate_equilibria(E, variables, owners), variables
    P = sp.Symbol("P", positive=True)
    E = values_in_pot(game, assign, P)
    if pot is Pot.SYMBOLIC:
        return enumerate_equilibria(E, variables, owners, P=P, P_domain=P_domain), variables
    E = [sp.expand(e.subs(P, pot)) for e in E]
    return enumerate_equilibria(E, variables, owners), variables


def _pot(text: str) -> Pot:
    try:
        return Pot(text)
    except ValueError:
        msg = f"pot must be a number or {Pot.SYMBOLIC.value!r}, not {text!r}"
        raise ToypokerError(msg) from None
