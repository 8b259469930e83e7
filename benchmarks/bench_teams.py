"""Teams (issue 22 targets): the team's joint best-response gain beside a NashConv
evaluation, and TMECor brackets by column generation.

Tables (load average printed with each):

1. team gain against NashConv: on each game, the seconds of ``evaluate`` (values,
   every player's best response, NashConv; numpy passes), of the fused NashConv
   kernel, of ``evaluate(..., team=...)`` (the same plus the team's joint best
   response: backward induction for a team that sees its cards, the lifted MILP
   otherwise) and of ``team_evaluation(..., method="alternating")`` (the members'
   alternating best responses: a lower bound on a weak team's gain), interleaved,
   median of ``--repeats``; the ratios of these two to ``evaluate``;
2. TMECor: per game and team placement, the exact bracket, its width, the plans
   generated and the seconds with the hybrid oracle and with the MILP at every step
   (``--smh``: also 3P-SMH, weak and strong, every placement, each with ``--budget``
   seconds of column generation).

Usage::

    python benchmarks/bench_teams.py [--repeats 3] [--smh] [--budget 300]

Targets (issue 22): team gain in <= 2x a NashConv evaluation; TMECor exact on
three-player Kuhn (3 and 4 cards) in < 10 s each; 3P-SMH every placement in < 5 min.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from toypoker import load_game, solve
from toypoker.evaluate import evaluate, nash_conv, team_evaluation
from toypoker.solvers.tmecor import tmecor


def load() -> str:
    """The machine's load averages (1, 5, 15 min)."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def timed(f: object) -> float:
    """Seconds of one call."""
    t0 = time.perf_counter()
    f()  # type: ignore[operator]
    return time.perf_counter() - t0


def team_gain_table(repeats: int) -> None:
    """Table 1."""
    print(f"\n1. team gain against NashConv (median of {repeats}, interleaved); load {load()}")
    print(f"{'game':62} {'team':>4} {'how':>18} {'evaluate s':>10} {'kernel s':>9} "
          f"{'+team s':>8} {'ratio':>6} {'+alt s':>7} {'ratio':>6} {'team gain':>10} "
          f"{'alt gain':>10}")  # fmt: skip
    cases = [
        ("kuhn(players=3,team=12)", (0, 1)),
        ("kuhn(players=3,team=12,strong=true,merge=false)", (0, 1)),
        ("mercer(players=3,variant=smh,team=23,strong=true,merge=false)", (1, 2)),
        ("mercer(players=3,variant=smh,team=23)", (1, 2)),
        ("mercer(players=3,variant=smh,team=13)", (0, 2)),
        ("mercer(players=3,variant=smh,team=12)", (0, 1)),
    ]
    for spec, team in cases:
        g = load_game(spec)
        prof = solve(g, "cfr+", iterations=200, team=False).profile
        nash_conv(g, prof)  # compile the kernel
        ev, ker, tm, alt = [], [], [], []
        te = ta = None
        for _ in range(repeats):
            ev.append(timed(lambda g=g, prof=prof: evaluate(g, prof)))
            ker.append(timed(lambda g=g, prof=prof: nash_conv(g, prof)))
            t0 = time.perf_counter()
            te = evaluate(g, prof, team=team).team
            tm.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            ta = team_evaluation(g, prof, team, method="alternating")
            alt.append(time.perf_counter() - t0)
        assert te is not None and ta is not None
        e, k, t, a = (statistics.median(x) for x in (ev, ker, tm, alt))
        digits = "".join(str(p + 1) for p in team)
        print(f"{spec:62} {digits:>4} {te.how:>18} {e:10.4f} {k:9.4f} {t:8.4f} "
              f"{t / e:6.2f} {a:7.4f} {a / e:6.2f} {float(te.gain):10.3g} "
              f"{float(ta.gain):10.3g}", flush=True)  # fmt: skip


def tmecor_table(smh: bool, budget: float) -> None:
    """Table 2."""
    print(
        f"\n2. TMECor by column generation, exact bracket; hybrid oracle (alternating best "
        f"responses, the MILP to certify) beside the MILP at every step; load {load()}"
    )
    print(f"{'game':52} {'team':>4} {'oracle':>18} {'lower':>14} {'upper':>14} "
          f"{'width':>9} {'plans':>5} {'hybrid s':>8} {'MILP s':>7}")  # fmt: skip
    games = ["kuhn(players=3,cards=3)", "kuhn(players=3)"]
    if smh:
        games += ["mercer(players=3,variant=smh)"]
    for base in games:
        g = load_game(base)
        for team in [(0, 1), (0, 2), (1, 2)]:
            for strong in [False, True] if base.startswith("mercer") else [False]:
                gg = g
                if strong:
                    digits = "".join(str(p + 1) for p in team)
                    gg = load_game(base[:-1] + f",team={digits},strong=true,merge=false)")
                r = tmecor(gg, team, seconds=budget)
                x = tmecor(gg, team, seconds=budget, oracle="exact")
                assert x.lower <= r.upper and r.lower <= x.upper  # both brackets hold
                name = base + (" strong" if strong else "")
                print(f"{name:52} {''.join(str(p + 1) for p in team):>4} {r.how:>18} "
                      f"{float(r.lower):14.8f} {float(r.upper):14.8f} {float(r.width):9.2g} "
                      f"{r.columns:5d} {r.seconds:8.1f} {x.seconds:7.1f}", flush=True)  # fmt: skip
    print(f"load at the end {load()}")


def main() -> None:
    """Run the tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--smh", action="store_true", help="also TMECor on 3P-SMH")
    ap.add_argument("--budget", type=float, default=300.0, help="seconds per TMECor")
    args = ap.parse_args()
    team_gain_table(args.repeats)
    tmecor_table(args.smh, args.budget)


if __name__ == "__main__":
    main()
