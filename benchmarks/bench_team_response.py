"""A weak team's exact joint best response: the MILP (team_response.joint_plan) beside
backward induction over the team's public belief states (joint_plan_by_beliefs).

One table (load average printed): per game and team, against a fixed random outsider
profile, the seconds of each (interleaved, median of ``--repeats``), the exact values
of both plans (equal when both are optimal) and the belief states the induction
visited; on 3P-SMH the induction is capped at ``--max-states`` states and reported as
given up when it needs more.

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
from toypoker.team_response import joint_plan, joint_plan_by_beliefs


def load() -> str:
    """The machine's load averages (1, 5, 15 min)."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--smh", action="store_true", help="also 3P-SMH (one MILP ~1 min)")
    ap.add_argument("--max-states", type=int, default=200_000)
    args = ap.parse_args()
    cases = [("kuhn(players=3,cards=3)", t) for t in ((0, 1), (0, 2), (1, 2))]
    cases += [("kuhn(players=3,cards=4)", t) for t in ((0, 1), (0, 2), (1, 2))]
    if args.smh:
        cases.append(("mercer(players=3,variant=smh)", (1, 2)))
    print(f"weak team best response, MILP vs belief states; load {load()}")
    print(f"{'game':36} {'team':>4} {'MILP s':>8} {'beliefs s':>9} {'MILP value':>14} "
          f"{'beliefs value':>14}")  # fmt: skip
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
        t_milp, t_bel, plans = [], [], {}
        for _ in range(reps):
            t0 = time.perf_counter()
            plans["milp"] = joint_plan(g, team, coef)
            t_milp.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            try:
                plans["beliefs"] = joint_plan_by_beliefs(g, team, coef, args.max_states)
            except ToypokerError as exc:
                plans.pop("beliefs", None)
                print(f"  beliefs gave up: {exc}")
            t_bel.append(time.perf_counter() - t0)
        vals = {
            k: sum(expected_values(g, BestResponse(team, None, c).as_profile(prof))[list(team)])
            for k, c in plans.items()
        }
        digits = "".join(str(p + 1) for p in team)
        bel = f"{vals['beliefs']:14.10f}" if "beliefs" in vals else f"{'gave up':>14}"
        print(f"{spec:36} {digits:>4} {statistics.median(t_milp):8.3f} "
              f"{statistics.median(t_bel):9.3f} {vals['milp']:14.10f} {bel}")  # fmt: skip
    print(f"load at the end {load()}")


if __name__ == "__main__":
    main()
