"""What the claims of Ullman (2015) share: solved games, stored equilibria, his runs.

Each game is solved once (``Game.derived``): two-player games by the exact
sequence-form LP, 3P-SMH by CFR+ to NashConv 1e-4, 3P-MMH and the collusion games
from the equilibria stored in ``toypoker/literature/data/`` (their values and
NashConv evaluated at check time); his fictitious play
(:func:`toypoker.solvers.ullman.run_ullman`) once per game and eps.  See
:mod:`.ullman2015` for what the claims check.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib.resources import files

from toypoker.collusion import CollusionProfiles, CollusionTable, collusion_table_from
from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.literature.claims.base import Claim, Context, Row
from toypoker.literature.papers import ullman2015
from toypoker.profile import Profile
from toypoker.solvers import solve
from toypoker.solvers.ullman import run_ullman

#: CFR+ budget for the 3-player games: target NashConv and iteration cap
NASHCONV_TARGET = 1e-4
#: the 3P-SMH variant the text's values fit (Sec. 4.3): bet 8 instead of 4
BET8_SPEC = "mercer(players=3,variant=smh,bet=8)"
CFR_ITERATIONS = 20000
#: games this large (3P-MMH: ~6 million rows) take their equilibrium from the stored file
LARGE_ROWS = 2_000_000
#: the stored equilibria (see the module's docstring), per game
COLLUSION_DATA = {
    "3P-SMH": "ullman_collusion_3p_smh.npz",
    "3P-MMH": "ullman_collusion_3p_mmh.npz",
}
#: Table 7's colluders: the equal (win-sharing) rows are B and C, so A is the outsider
#: and the team is seats 2 and 3 in the first placement (0-based)
TABLE7_TEAM = (1, 2)
#: his fictitious play's collusion values reproduced to this (float summation order)
REPRODUCED = 1e-9
#: largest gain a profile printed in whole percentages may show and still be an
#: equilibrium "to the printed digits" (0.5 % of a 4-chip bet's difference, loosely)
PRINTED_ROUNDING = 0.005
#: a situation is "mixed" (bluffs "some, albeit small, amount") above this
MIXED = 0.01
#: cap on his fictitious play (his runs stopped after 116-1901 iterations)
FP_ITERATIONS = 20000


@dataclass(frozen=True)
class Solved:
    """A solution of one game: the profile, its values and how it was obtained."""

    profile: Profile
    values: tuple[float, ...]
    how: str
    nash_conv: float


def _exact(game: Game) -> Solved:
    r = solve(game, "lp")
    vals = tuple(float(v) for v in r.value_exact) if r.value_exact else r.values
    return Solved(r.profile, vals, "LP (exact)", 0.0)


def _cfr(game: Game) -> Solved:
    r = solve(game, "cfr+", iterations=CFR_ITERATIONS, target_nash_conv=NASHCONV_TARGET)
    how = f"CFR+ {r.iterations} it., NashConv {r.nash_conv:.2e}"
    return Solved(r.profile, r.values, how, float(r.nash_conv))


@functools.cache
def stored_profiles(name: str) -> CollusionProfiles:
    """The stored equilibria of ``name`` (``"3P-SMH"`` or ``"3P-MMH"``): no collusion and
    the strong and weak collusion games of Table 7's placements."""
    return CollusionProfiles.load(files("toypoker.literature") / "data" / COLLUSION_DATA[name])


def _name(game: Game) -> str:
    return next(k for k, v in ullman2015.SPEC.items() if game.spec == v)


def checked_solution(game: Game, profiles: CollusionProfiles) -> Solved:
    """A stored profile of ``game``, its values and NashConv evaluated now."""
    prof = profiles.profile(game)
    ev = evaluate(game, prof)
    nc = float(ev.nash_conv)
    how = f"stored {profiles.how.split(',')[0]} profile, NashConv {nc:.2e} evaluated now"
    return Solved(prof, tuple(float(v) for v in ev.values), how, nc)


def _stored(game: Game) -> Solved:
    return checked_solution(game, stored_profiles(_name(game)))


def equilibrium_of(game: Game) -> Solved:
    """The exact LP equilibrium (2 players), CFR+ to NashConv 1e-4 (3P-SMH) or the stored
    3P-MMH profile (its NashConv evaluated), once per game."""
    if game.n_players == 2:
        return game.derived(_exact)
    return game.derived(_stored if game.n_rows > LARGE_ROWS else _cfr)


def _table_of(game: Game) -> CollusionTable:
    """Table 7 of the no-collusion ``game`` from its stored equilibria, evaluated now."""
    return collusion_table_from(stored_profiles(_name(game)), game=game)


def collusion_table_of(ctx: Context, name: str) -> CollusionTable:
    return ctx.game(ullman2015.SPEC[name]).derived(_table_of)


def _run(eps: float):
    """The factory of his fictitious play at ``eps`` (one per eps: ``Game.derived`` keys)."""
    if eps not in _RUNS:
        raise KeyError(eps)
    return _RUNS[eps]


def _fp_0001(game: Game):
    return run_ullman(game, 0.001, iterations=FP_ITERATIONS)


def _fp_001(game: Game):
    return run_ullman(game, 0.01, iterations=FP_ITERATIONS)


_RUNS = {0.001: _fp_0001, 0.01: _fp_001}


def fp_run(game: Game, eps: float):
    """His fictitious play on ``game`` at ``eps``, run once per compiled game."""
    return game.derived(_run(eps))


def fp_eps(name: str) -> float:
    """The eps of his code's run of ``name``
    (:data:`~toypoker.literature.papers.ullman2015.CODE_RUNS`), 0.01 otherwise."""
    return next((r.eps for r in ullman2015.CODE_RUNS if r.game == name), ullman2015.MMH3_EPS)


def claim_row(c: Claim, params: str, ok: bool, detail: str, exact: dict | None = None) -> Row:
    return Row(c.id, c.source, params, "verified" if ok else "disagrees", detail, exact or {})
