"""Whole CFR+ and PDCFR+ runs on the vector layout against the row layout (issue 21,
item 3).  Independent path for every expected number: the row layout's fused kernel
(``toypoker.solvers.cfr.step_many`` over the deal table); the vector layout never
forms a joint deal.

Two checks, by what floating point allows:

* **Whole runs** (:data:`WHOLE_RUNS`): 100 iterations from the uniform start in each
  layout separately; the final average and current profiles agree to 1e-12
  (``rtol=0``), the infoset labels are the same, and the profile files agree (same
  labels, actions and order, numbers to 1e-12; the vector run's profile written from
  the vector layout's game and from the row layout's game is the same text).  Before
  regret matching had its tolerance (``toypoker.engines.rows.cfr.regret_tolerance``), 11 of
  the quick cases here failed on games with exact regret ties, e.g.
  ``kuhn(players=3,cards=6)`` (0.28 apart in the average after 100 CFR+ iterations),
  ``holdem(players=2,ranks=3,suits=1,...)`` (0.33), the suit-symmetric
  ``holdem(players=2,ranks=3,suits=3,...)`` and ``holdem(players=3,ranks=4,suits=3,...)``,
  and 14 of the map cases (the strategy flipped within one step), e.g. the suited
  ``rhode_island(ranks=3,suits=2,cap=1)`` and
  ``holdem(players=2,ranks=4,suits=2,hole=2,...)``.
* **The iteration map along the whole run** (:data:`MAPS`): the games where whole runs
  cannot agree to 1e-12 in floating point at all.  There the CFR+/PDCFR+ dynamics
  amplify rounding exponentially -- the row layout's own two backends (numba and
  numpy: the same sums in another order) part too, measured after 100 iterations:
  ``leduc(players=2)`` 2.6e-10 in the average (CFR+), ``rhode_island(ranks=3,
  suits=2,cap=1)`` 1.1e-10, a three-player two-round hold'em 0.38 (the difference
  grows about tenfold every five iterations), ``holdem(players=2,ranks=5,suits=2,
  hole=1,rounds=1,evaluator=high_card)`` 3.3e-3 under PDCFR+.  No summation order
  is shared by the two layouts (the vector layout sums over hands by
  inclusion-exclusion, the row layout over deals), so there the check is every
  step: from the row run's state at each of its 100 iterations, one vector step
  equals the row step in regrets, average *and* strategy (the strategy is where the
  ties used to flip: a regret pair ``[0, 4e-17]`` against ``[0, 0]``).

In the slow part: three-player games with two or more rounds, ``leduc(players=3)``
and ``mercer(players=2,variant=mmh)`` (4-150 s a case).  Excluded:
``mercer(players=3,...)`` (785,060 rows and more: 100 row iterations of 3P-SMH take
9 s, and building both layouts was killed for memory on the shared machine here);
collusion games (the vector layout refuses them, ``tests/engines/vectors/test_values.py``).
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from tests.engines.vectors.specs import RANDOM, SLOW
from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors import regrets as VC
from toypoker.engines.vectors.direct import build_vector
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.profile import Profile
from toypoker.solvers import cfr as C
from toypoker.solvers.registry import METHODS

ITERATIONS = 100
STRATEGY_ATOL = 1e-6  # one step's strategies (see test_iteration_map_along_the_whole_run)

BUILT_IN = [
    "kuhn(players=2)",
    "kuhn(players=3)",
    "kuhn(players=3,cards=6)",
    "kuhn_third_street",
    "skp",
    "leduc(players=2)",
    "mercer(players=2,variant=smh)",
    "rhode_island(ranks=3,suits=2,cap=1)",
    "holdem(players=2,ranks=3,suits=1,hole=1,rounds=1,evaluator=ullman4)",
    "holdem(players=2,ranks=4,suits=2,hole=2,rounds=1,evaluator=high_card)",
    "mercer(players=2,variant=mmh)",
    "leduc(players=3)",
]
HEAVY = {"leduc(players=3)", "mercer(players=2,variant=mmh)"}  # slow part: 4-15 s a case
# (spec, method) pairs whose whole runs agree to 1e-12 (measured: at most 4e-13);
# every other pair of BUILT_IN + RANDOM x (cfr+, pdcfr+) is in MAPS
WHOLE_RUNS = [
    *[(s, m) for s in BUILT_IN[:5] for m in ("cfr+", "pdcfr+")],
    (BUILT_IN[6], "cfr+"),
    (BUILT_IN[8], "cfr+"),
    (BUILT_IN[8], "pdcfr+"),
    (BUILT_IN[9], "pdcfr+"),
    (BUILT_IN[10], "cfr+"),
    *[(RANDOM[i], m) for i in (0, 2, 5, 8, 9, 13) for m in ("cfr+", "pdcfr+")],
    (RANDOM[10], "cfr+"),
    (RANDOM[7], "cfr+"),
]
MAPS = [(s, m) for s in BUILT_IN + RANDOM for m in ("cfr+", "pdcfr+") if (s, m) not in WHOLE_RUNS]


def _param(spec: str, method: str) -> object:
    marks = [pytest.mark.slow] if spec in SLOW | HEAVY else []
    return pytest.param(spec, method, marks=marks, id=f"{method}-{spec}")


def _vector(spec: str):
    """The deal-free build where it applies (one hole card), else the compiled one."""
    try:
        return build_vector(spec)
    except ToypokerError:  # refused (two hole cards, skp, ...): the compiled path
        return compile_vector(load_rows(spec))


def _options(method: str) -> C.CFROptions:
    return METHODS[method].defaults  # the numba kernels, as a user runs them


@pytest.mark.parametrize(("spec", "method"), [_param(s, m) for s, m in WHOLE_RUNS])
def test_whole_runs_equal_rows(spec: str, method: str) -> None:
    g = load_rows(spec)
    vg = _vector(spec)
    opts = _options(method)
    assert [i.label for i in vg.game.infosets] == [i.label for i in g.infosets]
    row = C.step_many(g, C.init(g, opts), opts, ITERATIONS)
    vec = VC.step_many(vg, VC.init(vg), opts, ITERATIONS)
    for output in (C.Output.AVERAGE, C.Output.CURRENT):
        o = replace(opts, output=output)
        want, got = C.output(g, row, o), C.output(vg.game, vec, o)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=str(output))
    # profile files: the vector run's profile reads the same from either game, and
    # the two runs' files differ only in the numbers, by at most 1e-12
    got_probs = C.output(vg.game, vec, opts)
    text_vec = Profile(vg.game, got_probs, validate=False).to_json()
    assert Profile(g, got_probs, validate=False).to_json() == text_vec
    a = json.loads(text_vec)
    b = json.loads(Profile(g, C.output(g, row, opts), validate=False).to_json())
    assert a["game"] == b["game"] and list(a["infosets"]) == list(b["infosets"])
    for label, acts in a["infosets"].items():
        assert list(acts) == list(b["infosets"][label])
        assert max(abs(x - b["infosets"][label][k]) for k, x in acts.items()) <= 1e-12


def _close(a: np.ndarray, b: np.ndarray, tol: float = 1e-12) -> bool:
    """|a - b| <= tol * max(1, |b|_max) (regrets and sums grow with the iterations)."""
    return float(np.abs(a - b).max()) <= tol * max(1.0, float(np.abs(b).max()))


@pytest.mark.parametrize(("spec", "method"), [_param(s, m) for s, m in MAPS])
def test_iteration_map_along_the_whole_run(spec: str, method: str) -> None:
    g = load_rows(spec)
    vg = _vector(spec)
    opts = _options(method)
    row = C.init(g, opts)
    for t in range(1, ITERATIONS + 1):
        nxt = C.step(g, row, opts)
        vec = VC.step(vg, row, opts)
        assert _close(vec.regrets, nxt.regrets), f"regrets, iteration {t}"
        assert _close(vec.average, nxt.average), f"average, iteration {t}"
        # strategies: a tie flip moves one by 1/(2 actions) or more; a strategy matched
        # on regrets that sum to S carries their absolute rounding (1e-18 on regrets of
        # 1e-6 at rarely reached infosets) as a relative error: measured up to 1.4e-9
        # a step (leduc(players=3)), 2.6e-12 on the quick cases
        np.testing.assert_allclose(vec.sigma, nxt.sigma, rtol=0, atol=STRATEGY_ATOL,
                                   err_msg=f"strategy, iteration {t}")  # fmt: skip
        row = nxt
