"""The reference engine: the numpy passes, selected by name, held equal to the kernels.

Independent paths: the fused numba kernels of the deal table
(:mod:`toypoker.engines.rows`) and of hand vectors (:mod:`toypoker.engines.vectors.kernel`)
against the readable numpy traversal and evaluation of the same layout
(:mod:`toypoker.engines.reference`).  Exact numbers come from Kuhn (1950): two-player
Kuhn poker's value to player 1 is -1/18.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import toypoker as tp
from toypoker.engines.registry import engine_for, engine_of
from toypoker.errors import ToypokerError


def _close(a: np.ndarray, b: np.ndarray, tol: float = 1e-12) -> bool:
    return float(np.abs(a - b).max()) <= tol * max(1.0, float(np.abs(b).max()))


@pytest.mark.parametrize(
    ("spec", "layout"),
    [("kuhn(players=3)", "rows"), ("leduc(players=2)", "rows"),
     ("kuhn(players=3,cards=6)", "vector"), ("leduc(players=2)", "vector")],
)  # fmt: skip
@pytest.mark.parametrize("method", ["cfr+", "pdcfr+", "dcfr"])
def test_the_kernels_run_the_reference_iterates(spec: str, layout: str, method: str) -> None:
    g = tp.load_game(spec, layout=layout)
    fast = tp.Solver(g, method)
    ref = tp.Solver(g, method, engine="reference")
    assert fast.engine.name == ("rows" if layout == "rows" else "vectors")
    assert ref.engine.name == "reference" and ref.options.backend == "numpy"
    for t in range(1, 16):
        fast.step()
        ref.step()
        assert _close(fast.state.regrets, ref.state.regrets), f"regrets, iteration {t}"
        assert _close(fast.profile().probs, ref.profile().probs), f"output, iteration {t}"
    assert abs(fast.result().nash_conv - ref.result().nash_conv) <= 1e-12


def test_the_reference_evaluates_exactly_on_either_layout() -> None:
    # Kuhn (1950): the value of two-player Kuhn poker is -1/18 to player 1; the LP's
    # equilibrium evaluated by the numpy passes of both layouts, exactly
    lp = tp.solve(tp.load_game("kuhn(players=2)"), "lp")
    for layout in ("rows", "vector"):
        g = tp.load_game("kuhn(players=2)", layout=layout)
        ref = engine_of(g, "reference")
        prof = tp.Profile(g, lp.profile.probs)
        ev = ref.evaluate(prof)
        assert ev.values == (Fraction(-1, 18), Fraction(1, 18))
        assert ev.nash_conv == 0 == ref.nash_conv(prof)
        assert ev.values == tp.evaluate(g, prof).values  # the engine's own path
        br = ref.best_response(tp.Profile.uniform(g, exact=True), 0)
        assert br.value == tp.best_response(g, tp.Profile.uniform(g, exact=True), 0).value


def test_engines_are_chosen_by_name_or_refused_in_one_line() -> None:
    g = tp.load_game("kuhn(players=3)")
    assert engine_of(g, "rows") is engine_of(g) and engine_of(g, "reference").name == "reference"
    with pytest.raises(ToypokerError, match="engine must be one of rows, vectors, reference"):
        engine_of(g, "gpu")
    with pytest.raises(ToypokerError, match=r"built on rows \(load it with layout='vector'"):
        engine_of(g, "vectors")  # built on the deal table: not on hand vectors
    # a method that needs the deals: the reference engine on the deal table
    v = tp.load_game("kuhn(players=3,cards=6)", layout="vector")
    assert engine_for(v, "es-mccfr", "reference").name == "reference"
    assert engine_for(v, "es-mccfr", "reference").game.layout == "rows"
    r = tp.solve(g, "cfr+", iterations=20, engine="reference")
    assert r.nash_conv == pytest.approx(tp.solve(g, "cfr+", iterations=20).nash_conv, abs=1e-12)
