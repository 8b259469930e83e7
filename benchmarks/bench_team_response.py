"""A weak team's joint best response: the MILP (team_response.joint_plan) in its lifted
model (pairs of sequences, the default) and its product model (the one before),
backward induction over the team's public belief states (joint_plan_by_beliefs) and
the members' alternating best responses (joint_plan_alternating: a lower bound).

One table (load average printed): per game and team, against a fixed random outsider
profile, the seconds of each (interleaved, median of ``--repeats``) and the values of
their plans (the exact ones equal when optimal; the alternating one at most that); on
3P-SMH the induction is capped at ``--max-states`` states and reported as given up
when it needs more.

Usage::

    python benchmarks/bench_team_response.py [--repeats 3] [--smh] [--max-states 200000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from toypoker import Profile, load_game
from toypoker.errors import ToypokerError
from toypoker.evaluate import (
    BestResponse,
    counterfactual_reach,
    edge_probabilities,
    expected_values,
    reaches,
)
from toypoker.team_response import joint_plan, joint_plan_alternating, joint_plan_by_beliefs


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
    return joint_plan(g, team, coef, model=kind)  # type: ignore[arg-type]


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
    print(f"weak team best response, MILP (lifted, product) vs belief states vs alternating; "
          f"load {load()}")  # fmt: skip
    print(f"{'game':30} {'team':>4} {'lifted s':>8} {'product s':>9} {'beliefs s':>9} "
          f"{'altern. s':>9} {'MILP value':>13} {'product':>13} {'beliefs':>13} "
          f"{'alternating':>13}")  # fmt: skip
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
        times: dict[str, list[float]] = {k: [] for k in ("lifted", "product", "beliefs", "alt")}
        plans: dict[str, np.ndarray] = {}
        runs = ("lifted", "product", "beliefs", "alt")
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
        cells = " ".join(f"{statistics.median(times[k]):9.3f}" for k in runs)
        shown = " ".join(f"{vals[k]:13.9f}" if k in vals else f"{'gave up':>13}" for k in runs)
        print(f"{spec:30} {digits:>4} {cells} {shown}", flush=True)
    print(f"load at the end {load()}")


if __name__ == "__main__":
    main()
