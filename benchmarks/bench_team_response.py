"""A weak team's joint best response: the terminal-pairs LP certified by its plan
(team_pairs, the default: ``joint_plan(model="auto")``, through ``highspy`` and through
scipy's ``linprog``), the MILP (team_response.joint_plan) in its lifted model (pairs of
sequences, the default before) and its product model, backward induction over the
team's public belief states (joint_plan_by_beliefs) and the members' alternating best
responses (joint_plan_alternating: a lower bound).

Table 1 (load average printed): per game and team, against a fixed random outsider
profile, the seconds of each (interleaved, median of ``--repeats``; the models kept
per game and team built before, untimed) and the values of
their plans (the exact ones equal when optimal; the alternating one at most that); on
3P-SMH the induction is capped at ``--max-states`` states and reported as given up
when it needs more.  Table 2: HiGHS settings on the terminal-pairs LP (through
``highspy``, the model kept, a cold start per solve): milliseconds per solve, median
over ``--repeats`` x three CFR+ profiles, per setting.

Usage::

    python benchmarks/bench_team_response.py [--repeats 3] [--smh] [--max-states 200000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

from toypoker import Profile, load_game, solve
from toypoker.engines.protocol import BestResponse
from toypoker.engines.rows.values import (
    counterfactual_reach,
    edge_probabilities,
    expected_values,
    reaches,
)
from toypoker.errors import ToypokerError
from toypoker.teams import pairs as tp_pairs
from toypoker.teams.response import joint_plan, joint_plan_alternating, joint_plan_by_beliefs


def load() -> str:
    """The machine's load averages (1, 5, 15 min)."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def plan_of(kind: str, g: object, team: tuple[int, ...], coef: np.ndarray, cap: int
            ) -> np.ndarray:  # fmt: skip
    """One joint plan by method ``kind``."""
    if kind == "alt":
        return joint_plan_alternating(g, team, coef)[0]  # type: ignore[arg-type]
    if kind == "beliefs":
        return joint_plan_by_beliefs(g, team, coef, cap)  # type: ignore[arg-type]
    if kind.startswith("pairs"):
        tp_pairs.USE_HIGHSPY = kind == "pairs"
        try:
            return joint_plan(g, team, coef)  # type: ignore[arg-type]
        finally:
            tp_pairs.USE_HIGHSPY = True
    return joint_plan(g, team, coef, model=kind)  # type: ignore[arg-type]


SETTINGS = {
    "default": {},
    "presolve off": {"presolve": "off"},
    "primal": {"simplex_strategy": 4},
    "primal, no presolve": {"simplex_strategy": 4, "presolve": "off"},
    "threads 1, no presolve": {"threads": 1, "presolve": "off"},
    "ipm": {"solver": "ipm"},
}


def settings_table(cases: list[tuple[str, tuple[int, int]]], repeats: int) -> None:
    """Table 2: HiGHS settings on the terminal-pairs LP."""
    try:
        import highspy  # noqa: F401
    except ImportError:
        print("\n2. HiGHS settings: highspy is not installed")
        return
    print(f"\n2. HiGHS settings on the terminal-pairs LP, ms per cold solve (median); "
          f"load {load()}")  # fmt: skip
    print(f"{'game':30} {'team':>4} {'vars':>6} " + " ".join(f"{k:>22}" for k in SETTINGS))
    for spec, team in cases:
        g = load_game(spec)
        model = tp_pairs.TerminalPairs(g, team)
        objs = []
        for it in (20, 60, 200):
            prof = solve(g, "cfr+", iterations=it, team=False).profile
            eprob = edge_probabilities(g, prof.probs)
            cf = counterfactual_reach(g, reaches(g, eprob), team)[g.term_rows]
            objs.append(model.objective(cf.astype(np.float64) * g.term_u[list(team)].sum(axis=0)))
        h = model._model()
        assert h is not None
        times: dict[str, list[float]] = {k: [] for k in SETTINGS}
        for _ in range(repeats):
            for name, opts in SETTINGS.items():  # interleaved
                h.resetOptions()  # type: ignore[attr-defined]
                h.setOptionValue("output_flag", False)  # type: ignore[attr-defined]
                for k, v in opts.items():
                    h.setOptionValue(k, v)  # type: ignore[attr-defined]
                for c in objs:
                    times[name].append(timed_solve(model, c))
        h.resetOptions()  # type: ignore[attr-defined]
        h.setOptionValue("output_flag", False)  # type: ignore[attr-defined]
        h.setOptionValue("presolve", "off")  # type: ignore[attr-defined]
        digits = "".join(str(p + 1) for p in team)
        cells = " ".join(f"{1000 * statistics.median(times[k]):22.2f}" for k in SETTINGS)
        print(f"{spec:30} {digits:>4} {model.n_vars:6d} {cells}", flush=True)


def timed_solve(model: tp_pairs.TerminalPairs, c: np.ndarray) -> float:
    """Seconds of one solve of the model's LP."""
    t0 = time.perf_counter()
    model.solve(c)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--smh", action="store_true", help="also 3P-SMH (product MILP ~1 min)")
    ap.add_argument("--max-states", type=int, default=200_000)
    args = ap.parse_args()
    cases = [("kuhn(players=3,cards=3)", t) for t in ((0, 1), (0, 2), (1, 2))]
    cases += [("kuhn(players=3,cards=4)", t) for t in ((0, 1), (0, 2), (1, 2))]
    if args.smh:
        cases.append(("mercer(players=3,variant=smh)", (1, 2)))
    runs = ("pairs", "pairs-scipy", "lifted", "product", "beliefs", "alt")
    print(f"1. weak team best response: terminal-pairs LP (highspy, scipy), MILP (lifted, "
          f"product), belief states, alternating; load {load()}")  # fmt: skip
    print(f"{'game':30} {'team':>4} " + " ".join(f"{k + ' s':>13}" for k in runs) + " "
          + " ".join(f"{k:>13}" for k in runs))  # fmt: skip
    rng = np.random.default_rng(0)
    for spec, team in cases:
        g = load_game(spec)
        probs = np.empty(g.n_sigma)
        for inf in g.infosets:
            x = rng.random(len(inf.actions))
            probs[inf.offset : inf.offset + len(x)] = x / x.sum()
        prof = Profile(g, probs)
        cf = counterfactual_reach(g, reaches(g, edge_probabilities(g, probs)), team)
        coef = cf[g.term_rows].astype(np.float64) * g.term_u[list(team)].sum(axis=0)
        reps = 1 if spec.startswith("mercer") else args.repeats
        times: dict[str, list[float]] = {k: [] for k in runs}
        plans: dict[str, np.ndarray] = {}
        for k in ("pairs", "pairs-scipy", "lifted"):  # models kept per game: built untimed
            plan_of(k, g, team, coef, args.max_states)
        for _ in range(reps):
            for k in runs:
                t0 = time.perf_counter()
                try:
                    plans[k] = plan_of(k, g, team, coef, args.max_states)
                except ToypokerError as exc:
                    plans.pop(k, None)
                    print(f"  {k} gave up: {exc}")
                times[k].append(time.perf_counter() - t0)
        vals = {
            k: sum(expected_values(g, BestResponse(team, None, c).as_profile(prof))[list(team)])
            for k, c in plans.items()
        }
        digits = "".join(str(p + 1) for p in team)
        cells = " ".join(f"{statistics.median(times[k]):13.4f}" for k in runs)
        shown = " ".join(f"{vals[k]:13.9f}" if k in vals else f"{'gave up':>13}" for k in runs)
        print(f"{spec:30} {digits:>4} {cells} {shown}", flush=True)
    smh = [("mercer(players=3,variant=smh)", t) for t in ((0, 1), (0, 2), (1, 2))]
    settings = [c for c in cases if c[0] == "kuhn(players=3,cards=4)"]
    settings_table(settings + (smh if args.smh else []), args.repeats)
    print(f"load at the end {load()}")


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
