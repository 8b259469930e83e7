"""The stepping API and run loop on the vector layout: :class:`VectorSolver`.

A :class:`~toypoker.solvers.solver.Solver` whose iterations, output and NashConv
run on a :class:`~toypoker.vector.layout.VectorGame` (hands as vectors on the
public tree) instead of the row layout: the registry's methods with their layout
parts swapped (:data:`_STEPS`) -- the CFR family (:mod:`toypoker.solvers.vector_cfr`,
the fused vector kernel), fictitious play (:mod:`~toypoker.solvers.vector_fp`),
public-chance-sampling CFR (``pcs-cfr+``, :mod:`~toypoker.solvers.vector_pcs`) and
the sequence-form LP (:mod:`~toypoker.solvers.vector_lp`) -- with NashConv and the
players' values from the vector layout's best responses
(:mod:`toypoker.vector.values`).  Everything else is the row layout's run loop
unchanged -- budgets, the NashConv trace, atomic checkpoints (the same state
arrays over the same flat actions, so a checkpoint names the spec and nothing of
the layout), seeds, progress callbacks and Ctrl-C.  ``toypoker solve`` takes this
path for games the row layout cannot hold that
:func:`~toypoker.vector.direct.build_vector` builds without a deal table
(:func:`choose_layout` states the rule).

Which layout runs each method, and why.  Measured with ``python
benchmarks/bench_engine.py --reps 2`` (2026-11-26, load 4.8-8.0 on the shared 2-core
machine; medians of fresh processes, rows and vector interleaved; build = game and
solver set-up, for the row layout's kernels their numba cache; an LP "iteration" is
its one solve with the exact certificate; ``pcs-cfr+`` on a row game runs on its
compiled vector layout, so its row column pays the deal table too):

=====================  =========  ===============  ================  ===============
game                   method     build s (r / v)  s an it. (r / v)  peak MB (r / v)
=====================  =========  ===============  ================  ===============
leduc(players=2)       cfr+       3.26 / 0.25      0.0001 / 0.0002   183 / 187
leduc(players=2)       fp         0.15 / 0.30      0.0110 / 0.0484   140 / 140
leduc(players=2)       pcs-cfr+   0.20 / 0.23      0.0308 / 0.0203   141 / 140
leduc(players=2)       es-mccfr   1.81 / refused   0.0002 / -        185 / -
leduc(players=2)       lp         0.10 / 0.08      1.61 / 1.70       166 / 166
RI(3x2, cap=1)         cfr+       1.51 / 0.15      0.0005 / 0.0004   190 / 188
RI(3x2, cap=1)         fp         0.52 / 0.20      0.0190 / 0.0314   143 / 141
RI(3x2, cap=1)         pcs-cfr+   0.60 / 0.19      0.0251 / 0.0228   144 / 141
RI(3x2, cap=1)         es-mccfr   1.62 / refused   0.0002 / -        190 / -
RI(3x2, cap=1)         lp         0.28 / 0.16      124.7 / 131.2     606 / 606
RI(4x2)                cfr+       14.6 / 3.46      0.0533 / 0.0673   378 / 235
RI(4x2)                fp         12.8 / 5.22      0.4238 / 0.5355   317 / 191
RI(4x2)                pcs-cfr+   13.1 / 3.51      0.0594 / 0.0676   289 / 195
RI(4x2)                es-mccfr   14.5 / refused   0.0013 / -        456 / -
=====================  =========  ===============  ================  ===============

(RI = ``rhode_island(ranks=..,suits=..)``.)  So:

* **CFR family** -- both layouts, one schedule (:func:`~.cfr.scheduled_step`, the
  kernels' :func:`~.cfr.kernel_schedule`; every step equal to 1e-12): the row
  layout's fused kernel for the catalogue's compiled games (as fast or faster on
  small ones), the vector layout for what the row layout cannot hold (the full
  Rhode Island: 438 M rows counted, 35 M hand entries) and where it is lighter
  (4x2 deck: 235 against 378 MB; 6x4 deck 2.2x faster, ``bench_rhode.py``).
* **fp** -- both layouts, one schedule (:func:`~.fictitious.layout_step`; whole runs
  equal to 1e-12): the rows are faster on small games (4.4x on Leduc, 1.3x on the 4x2
  deck: the vector best responses run in numpy), the vector layout holds the full
  game (50 s an iteration, 2.0 GB peak, build 100 s, at load ~6; ``toypoker solve
  rhode_island --method fp --iterations 2`` exits 0 at 2.18 GB peak after 65 CPU
  seconds in all, build and NashConv check included, getting 22% of a core) and uses
  less memory.
* **pcs-cfr+** -- the vector layout only (it samples public boards and keeps hand
  vectors; a row game runs it on :func:`~toypoker.vector.layout.compile_vector`).
  Cheaper iterations (4.4x the fused CFR+ kernel on the 6x4 deck, 2.1x on the full
  game) but far slower convergence (NashConv 12.75 against 0.129 after 60 s on the
  6x4 deck): see :mod:`~toypoker.solvers.vector_pcs`.
* **lp** -- both layouts, one LP and certificate
  (:func:`~.lp.solve_sequence_form`); only ``A`` is assembled per layout (tested
  equal entry by entry); the certificate dominates (125-131 s on the 3x2 deck).  The
  full Rhode Island is refused in one line: 508,619,462 payoff entries over
  4,921,411 sequences a player (:data:`~.vector_lp.MAX_ENTRIES`).
* **es-mccfr, os-mccfr** -- the row layout only: they sample joint deals, which is
  what the deal table stores (a fraction of a millisecond an iteration); their
  vector-layout counterpart samples public chance (``pcs-cfr+``).
* **weak collusion** -- both layouts: a payoff map on the same tree (the vector
  layout's dense terminals, ``tests/vector/test_collusion.py``); ``toypoker solve``
  runs it on vectors by the same rule as the uncolluded game, e.g.
  ``holdem(players=3,ranks=13,suits=4,team=12)`` (its dense ``O(R^3)`` terminal on 13
  rank hands is slower an iteration than the uncolluded game's ``O(H)`` sweep).
* **strong collusion, merged team** -- ``tp.solve`` on
  :func:`~toypoker.vector.merged.compile_merged` (the team's hand pairs; it reads the
  compiled row game, numpy reference, no LP: 3P-SMH's values ~60 s, 2.7 GB);
  ``toypoker solve`` keeps strong collusion on the rows.
* **enumerate, strong collusion unmerged, weak teams' best responses, exact rational
  evaluation** -- the row layout only: tiny games, members who see each other's
  cards as separate players (refused in one line naming ``--layout rows``), and the
  lifted team best response, which reads the deal table.  The deal table stays as
  their exact path and as the oracle of the vector tests.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ToypokerError
from ..games import count_layout, parse_game_spec
from ..games.layout_count import LayoutCount
from ..io import size_text
from ..profile import Profile
from ..spec import format_spec
from ..vector import values as V
from ..vector.direct import build_vector
from ..vector.kernel import vector_kernel
from ..vector.layout import VectorGame
from . import cfr, lp, vector_cfr, vector_fp, vector_lp, vector_pcs
from .checkpoint import Checkpoint, load_checkpoint
from .fictitious import FPOptions
from .lp import LPOptions, certified_fields
from .registry import METHODS, get_method, parse_options
from .solver import Solver, check_schedule, method_seed

FIRST_CHECK = 50
"""The first iteration :class:`VectorSolver` checks NashConv at (without ``check_every``)."""

VECTOR_GAMES = ("rhode_island",)
"""Games solved on the vector layout whenever the CLI solves them (the row layout
holds only toy decks of them)."""

ROW_LAYOUT_LIMIT = 2 * 10**9
"""Counted peak bytes of the row layout (rows x
:data:`~toypoker.games.layout_count.BYTES_PER_ROW`) above which ``toypoker solve``
runs a ``holdem(...)`` spec on the vector layout (:func:`choose_layout`)."""

LAYOUTS = ("auto", "rows", "vector")


@dataclasses.dataclass(frozen=True)
class LayoutChoice:
    """Where ``toypoker solve`` runs a spec: ``layout`` ``"rows"`` or ``"vector"``,
    ``why`` one line saying why, ``counted`` the count it was decided by (or None)."""

    layout: str
    why: str
    counted: LayoutCount | None


def choose_layout(
    spec: str, method: str, layout: str = "auto", *, plain_run: bool = True
) -> LayoutChoice:
    """The layout ``toypoker solve`` runs ``spec`` on.

    The rule (``layout="auto"``): ``rhode_island(...)`` always runs on the vector
    layout (the row layout holds only toy decks of it); a ``holdem(...)`` spec runs on
    it when its row layout, counted before anything is built
    (:func:`~toypoker.games.count_layout`), would need more than
    :data:`ROW_LAYOUT_LIMIT` bytes and the run is one the vector layout can do (a
    method it runs -- the CFR family, ``fp``, ``pcs-cfr+``, ``lp`` -- and no strong
    collusion: weak collusion is a payoff map there; ``plain_run`` false --
    ``--seeds`` or ``--team`` -- keeps the rows, and is refused in one line for a weak
    collusion spec over the limit: its team best response would build the rows);
    everything else runs on the row layout.
    ``layout="rows"``/``"vector"`` force one (the vector layout refuses in one line
    what it cannot do).
    """
    if layout not in LAYOUTS:
        raise ToypokerError(f"--layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    info, _, coll = parse_game_spec(spec)
    strong = bool(coll.get("strong"))
    counted = vector_count(spec)
    if layout == "rows":
        return LayoutChoice("rows", "--layout rows", counted)
    if layout == "vector":
        check_vector_method(method, spec)
        if strong or not plain_run:
            raise ToypokerError(
                f"{spec} on the vector layout: no strong collusion, --seeds or --team "
                "(use --layout rows)"
            )
        return LayoutChoice("vector", "--layout vector", counted)
    if strong or info.name not in ("holdem", *VECTOR_GAMES) or counted is None:
        return LayoutChoice("rows", "not counted here", counted)
    size = f"{counted.rows:,} rows, about {size_text(counted.row_bytes)}"
    if info.name in VECTOR_GAMES:
        check_vector_method(method, spec)
        if not plain_run:
            raise ToypokerError(f"{spec} runs on the vector layout: no --seeds or --team")
        return LayoutChoice("vector", f"{info.name} always; the row layout: {size}", counted)
    limit = f"{ROW_LAYOUT_LIMIT / 1e9:g} GB"
    if counted.row_bytes <= ROW_LAYOUT_LIMIT:
        return LayoutChoice("rows", f"{size} <= {limit}", counted)
    if coll and not plain_run:  # a weak team's lifted best response reads the rows
        raise ToypokerError(
            f"weak team's --team/--seeds need the rows ({size}); drop them for vectors"
        )
    if get_method(method).options not in _STEPS or not plain_run:
        why = "the method does not run on the vector layout" if plain_run else "--seeds or --team"
        return LayoutChoice("rows", f"{size} > {limit}, but {why}", counted)
    return LayoutChoice("vector", f"the row layout: {size} > {limit}", counted)


def vector_count(spec: str) -> LayoutCount | None:
    """:func:`~toypoker.games.count_layout` for the layout decision: a weak collusion
    spec is counted as its uncolluded game (the same deals, tree, rows and infosets:
    collusion is a payoff map); strong collusion is not counted (``None``)."""
    info, params, coll = parse_game_spec(spec)
    if coll.get("strong"):
        return None
    return count_layout(format_spec(info.name, params) if coll else spec)


@dataclasses.dataclass(frozen=True)
class VectorEvaluation:
    """Each player's value and best-response gain, and NashConv, of a float profile
    on the vector layout."""

    values: tuple[float, ...]
    gains: tuple[float, ...]
    nash_conv: float


def vector_evaluate(vg: VectorGame, sigma: np.ndarray) -> VectorEvaluation:
    """Values, gains and NashConv of the flat profile ``sigma`` (floats), by the vector
    layout's best responses: one compiled call where the game has a fused kernel
    (:meth:`toypoker.vector.kernel.VectorKernel.evaluate`), else the numpy reference
    (:func:`toypoker.vector.values.best_response_value`)."""
    kernel = vector_kernel(vg)
    if kernel is not None:
        values, best = kernel.evaluate(sigma)
    else:
        values = V.expected_values(vg, sigma)
        best = [V.best_response_value(vg, sigma, p)[0] for p in range(vg.n_players)]
    gains = tuple(max(float(best[p]) - float(values[p]), 0.0) for p in range(vg.n_players))
    return VectorEvaluation(tuple(float(v) for v in values), gains, float(sum(gains)))


def check_vector_method(name: str, spec: str) -> None:
    """Refuse (one line) a method that does not run on the vector layout: the exact
    enumerator and the row layout's deal-sampling MCCFR."""
    if get_method(name).options not in _STEPS:
        raise ToypokerError(
            f"{name} does not run on the vector layout ({spec}): use "
            f"{', '.join(n for n, m in METHODS.items() if m.options in _STEPS)}"
        )


def _cfr_steps(vg: VectorGame) -> dict[str, Any]:
    return {
        "init": lambda game, options, seed: vector_cfr.init(vg),
        "step": lambda game, state, options: vector_cfr.step(vg, state, options),
        "step_many": lambda game, state, options, n: vector_cfr.step_many(vg, state, options, n),
    }


def _fp_steps(vg: VectorGame) -> dict[str, Any]:
    return {
        "init": lambda game, options, seed: vector_fp.init(vg, options),
        "step": lambda game, state, options: vector_fp.step(vg, state, options),
        "step_many": None,
    }


def _pcs_steps(vg: VectorGame) -> dict[str, Any]:
    return {
        "init": lambda game, options, seed: vector_pcs.vector_init(vg, seed),
        "step": lambda game, state, options: vector_pcs.vector_step(vg, state, options),
        "step_many": None,
    }


def _lp_steps(vg: VectorGame) -> dict[str, Any]:
    def init(game: Any, options: Any, seed: int | None) -> Any:
        vector_lp.check_size(vg)  # refused in one line before anything is assembled
        return lp.init(game, options)

    return {
        "init": init,
        "step": lambda game, state, options: vector_lp.step(vg, state, options),
        "step_many": None,
    }


_STEPS: dict[type, Callable[[VectorGame], dict[str, Any]]] = {
    cfr.CFROptions: _cfr_steps,
    FPOptions: _fp_steps,
    vector_pcs.PCSOptions: _pcs_steps,
    LPOptions: _lp_steps,
}
"""Each method family that runs on the vector layout: its steps there."""


def _vector_method(vg: VectorGame, name: str) -> Any:
    """The registry's method ``name`` with its steps, output and summary on ``vg``."""
    check_vector_method(name, vg.game.spec)
    m = get_method(name)

    def summary(game: Any, state: Any, options: Any) -> dict[str, object]:
        if m.one_shot:  # the LP: its certificate's fields when it certified
            fields = certified_fields(state.outcome)
            if fields is not None:
                return fields
        probs = m.output(game, state, options)  # type: ignore[misc]
        ev = vector_evaluate(vg, np.ascontiguousarray(probs, dtype=np.float64))
        return {
            "profile": Profile(game, probs, validate=False),
            "values": ev.values,
            "gains": ev.gains,
            "nash_conv": ev.nash_conv,
        }

    return dataclasses.replace(m, summary=summary, **_STEPS[m.options](vg))


class VectorSolver(Solver):
    """One method of the CFR family on a :class:`VectorGame`, stepped by the caller or
    run by :meth:`~toypoker.solvers.solver.Solver.run` (see the module docstring).

    Parameters
    ----------
    vg
        The game in the vector layout (``vg.game`` names its infosets and spec).
    method
        A method of the CFR family (``"cfr+"``, ``"pdcfr+"``, ...).
    **options
        The method's typed options, as for :class:`~toypoker.solvers.solver.Solver`.
    """

    def __init__(
        self, vg: VectorGame, method: str = "cfr+", *, seed: int | None = None, **options: object
    ) -> None:
        m = _vector_method(vg, method)
        opts = parse_options(m, options)
        seed = method_seed(m, seed)
        self.vg = vg
        self._setup(vg.game, m, opts, seed, m.init(vg.game, opts, seed), 0.0)  # type: ignore[arg-type]

    @classmethod
    def from_checkpoint(  # type: ignore[override]
        cls, checkpoint: str | Path | Checkpoint, vg: VectorGame | None = None
    ) -> VectorSolver:
        """The solver a checkpoint saved, ready to continue (``vg`` built from the
        recorded spec when not given)."""
        ck = checkpoint if isinstance(checkpoint, Checkpoint) else load_checkpoint(checkpoint)
        if vg is None:
            vg = build_vector(ck.spec, rank=True)
        elif vg.game.spec != ck.spec:
            raise ToypokerError(f"checkpoint {ck.path} is for {ck.spec}, not {vg.game.spec}")
        n = {a.shape for a in vars(ck.state).values() if isinstance(a, np.ndarray)}
        if n != {(vg.game.n_sigma,)}:
            raise ToypokerError(
                f"checkpoint {ck.path}: state arrays of shape {sorted(n)} do not fit "
                f"{vg.game.spec} ({vg.game.n_sigma} actions)"
            )
        s = cls.__new__(cls)
        s.vg = vg
        m = _vector_method(vg, ck.method)
        s._setup(vg.game, m, ck.options, ck.seed, ck.state, ck.seconds)  # type: ignore[arg-type]
        return s

    def _checks(self, iterations: int | None) -> Callable[[int], bool]:
        """Fewer checks than the row layout's: 10 a decade from iteration
        :data:`FIRST_CHECK` on (and the last), not 25 a decade from the first (set when a
        check ran in numpy, about 17 iterations on Rhode Island; the fused
        :meth:`~toypoker.vector.kernel.VectorKernel.evaluate` costs about 1.5)."""
        marks = check_schedule(iterations, per_decade=10)
        return lambda t: t == iterations or (t >= FIRST_CHECK and marks(t))

    def _nash_conv(self) -> tuple[float, float]:
        """NashConv and the largest gain of the current output, on the vector layout."""
        probs = self.method.output(self.game, self.state, self.options)
        ev = vector_evaluate(self.vg, np.ascontiguousarray(probs, dtype=np.float64))
        return ev.nash_conv, max(ev.gains)
