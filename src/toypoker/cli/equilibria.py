"""``toypoker equilibria``: every equilibrium of a small game, exactly."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Annotated

import sympy as sp
import typer
from rich.table import Table

from toypoker.cli.common import JsonOpt, SpecArg, out, print_json
from toypoker.cli.tables import set_text
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.literature.papers import billingham
from toypoker.solvers.enumerate import game_equilibria
from toypoker.solvers.enumerate_method import check_counted_choices, check_free_choices
from toypoker.spec import parse_number


def bounded_number(text: str, name: str) -> Fraction:
    """An exact number from ``text`` with a bounded exponent (no huge integers built)."""
    try:
        return parse_number(text)
    except ToypokerError as exc:
        raise ToypokerError(f"{name}: {exc}") from None


def _label(e: object, names: dict) -> str:
    """A sympy expression with the infosets' labels for its symbols (``P3:1:kk``)."""
    text = sp.sstr(e)
    for v, lbl in names.items():
        text = re.sub(rf"\b{re.escape(v.name)}\b", lbl, text)
    return text


def _symbol(pc: object, names: dict, symbolic: bool) -> str:
    """The variable a piece's region is a set of: P, or its one free parameter."""
    return "P" if symbolic or len(pc.free) != 1 else names[pc.free[0]]


def _describe(pc: object, names: dict, symbolic: bool) -> str:
    """One piece in words: each probability (or "free"), and where it holds."""
    parts = []
    for var, value in pc.values.items():
        value = sp.simplify(value)
        text = _label(value, names)
        parts.append(f"{names[var]} free" if value == var else f"{names[var]} = {text}")
    text = ", ".join(parts)
    if pc.region is not None:
        text += f"; for {set_text(pc.region, _symbol(pc, names, symbolic))}"
    elif "polygon" in pc.extra:
        verts = ", ".join(
            f"({_label(a, names)}, {_label(b, names)})" for a, b in pc.extra["polygon"]
        )
        free = ", ".join(names[f] for f in pc.free)
        text += f"; ({free}) in the polygon with vertices {verts}"
    elif pc.constraints:
        text += "; where " + ", ".join(_label(c, names) for c in pc.constraints)
    return text


def equilibria(
    spec: SpecArg,
    symbolic_pot: Annotated[
        bool,
        typer.Option("--symbolic-pot/--no-symbolic-pot", help="Treat the pot P as a symbol."),
    ] = False,
    pot_min: Annotated[
        str | None, typer.Option(help="With --symbolic-pot: P ranges over (pot_min, oo).")
    ] = None,
    at_p_star: Annotated[
        bool,
        typer.Option("--at-p-star/--no-at-p-star", help="Solve at P* = (5 + sqrt 73)/2 exactly."),
    ] = False,
    json_: JsonOpt = False,
) -> None:
    """All equilibria of a small game with binary choices, exactly (free parameters
    and their ranges included)."""

    if pot_min is not None and not symbolic_pot:
        raise ToypokerError("--pot-min needs --symbolic-pot")
    if symbolic_pot and at_p_star:
        raise ToypokerError("give --symbolic-pot or --at-p-star, not both")
    lo = bounded_number(pot_min, "--pot-min") if pot_min is not None else Fraction(0)
    if lo < 0:
        raise ToypokerError(f"--pot-min must be >= 0, got {pot_min}")
    check_counted_choices(spec)  # before the deals are built
    g = load_rows(spec)
    if (symbolic_pot or at_p_star) and "pot" not in g.numeric_params:
        raise ToypokerError(f"{g.name} has no pot parameter")
    check_free_choices(g)
    if symbolic_pot:
        pot: object = "symbolic"
        domain = sp.Interval.open(sp.Rational(lo.numerator, lo.denominator), sp.oo)
    else:  # Billingham's P* exactly, or the game as given
        pot, domain = (billingham.P_STAR if at_p_star else None), None
    pieces, vs = game_equilibria(g, pot=pot, P_domain=domain)
    names = {v: v.name.replace("_", ":", 2) for v in vs}
    rows = [
        {
            "status": list(pc.status),
            "description": _describe(pc, names, symbolic_pot),
            "values": {names[k]: _label(v, names) for k, v in pc.values.items()},
            "free": [names[f] for f in pc.free],
            "region": None
            if pc.region is None
            else set_text(pc.region, _symbol(pc, names, symbolic_pot)),
        }
        for pc in pieces
    ]
    title = g.spec if not symbolic_pot else f"{g.name} with symbolic pot P > {lo}"
    if at_p_star:
        title = f"{g.name} at P* = (5 + sqrt(73))/2"
    if json_:
        print_json({"game": title, "equilibria": rows})
        return
    t = Table(title=f"All equilibria of {title}: {len(rows)} piece(s)", title_justify="left")
    t.add_column("#", justify="right")
    t.add_column(
        "equilibrium (aggressive-action probabilities; free parameters and ranges)", overflow="fold"
    )
    for k, r in enumerate(rows, 1):
        t.add_row(str(k), r["description"])
    out.print(t)
