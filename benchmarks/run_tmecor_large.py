"""TMECor anytime brackets on games whose exact team oracle (the MILP) is out of reach:
3P-MMH and three-player Leduc, weak team.

Column generation with ``--oracle relaxation`` (default: the relevant-pairs LP of
:mod:`toypoker.teams.relaxation` gives each plan, polished by the members' alternating
best responses, and its certified bound the upper end) or ``--oracle alternating``
(the members' alternating best responses; the upper end is the exact best response of
the same team seeing its cards, ``upper_game``, so the width includes the value of
seeing the partner's cards).  The lower end is exact either way (the mixture against
the outsider's exact best response).  The run goes in segments of
``--segment`` seconds; after each, the plans of the mixture are saved (``numpy.save``,
the checkpoint) and the next segment starts from them.  One line per segment: elapsed
seconds, plans, the segment's lower, upper and width, the best width over the
segments so far (largest lower, smallest upper), load average.

``--sharing-iterations N`` adds the information-sharing upper end
(:mod:`toypoker.teams.bounds`): the merged team's game is solved N PDCFR+
iterations, and the team seeing its cards best-responds exactly to that outsider; the
bracket's upper end is the smaller of the two.  Without a checkpoint the master then
starts from two joint plans answering that outsider (the members' alternating best
responses from their first actions and from one random plan, seed 0).

``--pdlp-seconds S`` (with ``--sharing-iterations``) adds the relevant-pairs upper end
at that same outsider strategy (:func:`toypoker.teams.bounds.relaxed_bound`):
HiGHS's PDLP runs S seconds on the relaxation's LP and its multipliers are certified in
integers; unlike the sharing bound it can go below the strong team's value (3P-MMH,
300 s of PDLP at the merged outsider: team 23 0.428558 alone, 0.440-0.442 beside another
run; the sharing bound 0.479225; team 13 0.206760 vs 0.304654; team 12 -0.328333 vs
-0.221096).  PDLP stops at its time limit: the bound depends on the iterations it got.
``--oracle relaxation --relaxation-seconds S`` solves each column's relevant-pairs LP
by PDLP too (the interior point did not finish one 3P-MMH LP in 22 min).

``--saddle-seconds S --saddle-file F.npz`` solves the relaxation's saddle LP (the outsider
free: :func:`toypoker.teams.saddle.saddle_bounds`, PDLP S seconds; the iterate
saved to F, or read from F when it exists) and certifies both its sides: an upper end
at the LP's outsider (with ``--pdlp-seconds``, also the relevant-pairs bound recomputed
at that outsider) and the **floor**, below which no upper end of this relaxation can go
(saved in the JSON record as ``relaxation_floor``).

``--projected-starts`` (with ``--oracle alternating``) starts the members' alternating
best responses at each step also from the strong team's best response projected on
each member's information (:func:`toypoker.teams.bounds.projected_starts`), and
from ``--random-starts N`` random plans (``--seed``).  3P-MMH, from the checkpoints of the
last brackets, two random starts, load 3-5: team 23 0.354072 -> 0.382186 in 10 min (77
columns, ~7 s each) -> 0.390799 in 6 more; team 13 -0.134674 -> 0.006494 in 7 min (63
columns), where the alternating best responses alone had stopped finding columns.

``--save F`` also writes the witness of the lower end (the mixture's plans and exact
weights) to ``F``'s ``_mixtures.npz``; ``--check`` recomputes a stored lower end
exactly from it (:func:`toypoker.collusion.brackets.recheck_lower`; 3P-MMH: 21-43 s).

``--floor-minutes M`` (after the segments) raises the relaxation's floor by column
generation over relaxation points (:func:`toypoker.teams.saddle.floor_generation`,
each relevant-pairs LP by PDLP ``--floor-lp-seconds`` seconds) from the mixture's plans;
its certified relaxed bounds are upper ends too.

Usage::

    python benchmarks/run_tmecor_large.py --game "mercer(players=3,variant=mmh)" \\
        --team 23 --minutes 30 --segment 300 --checkpoint /tmp/mmh23.npy
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shlex
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

from toypoker import load_game
from toypoker.collusion.brackets import recheck_lower, save_bracket
from toypoker.collusion.store import fingerprint
from toypoker.engines.rows.values import counterfactual_reach, edge_probabilities, reaches
from toypoker.profile import Profile
from toypoker.teams.bounds import (
    merged_outsider,
    projected_starts,
    relaxed_bound,
    sharing_bound,
    strong_game,
    tighten,
)
from toypoker.teams.relaxation import RelaxedSaddle
from toypoker.teams.response import joint_plan_alternating, random_plans
from toypoker.teams.saddle import floor_generation, saddle_bounds
from toypoker.teams.tmecor import tmecor
from toypoker.teams.transfer import splice


def load() -> str:
    """The machine's load averages (1, 5, 15 min)."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def reply_plans(game, seats: tuple[int, ...], outsider: Profile) -> list[np.ndarray]:
    """Joint plans answering the outsider's strategy in ``outsider`` (the merged game's):
    the members' alternating best responses from their first actions and from one
    random plan (seed 0) -- start columns for the master."""
    prof = splice(Profile.uniform(game), outsider, set(range(game.n_players)) - set(seats))
    sigma = np.asarray(prof.probs, dtype=np.float64)
    cf = counterfactual_reach(game, reaches(game, edge_probabilities(game, sigma)), seats)
    coef = cf[game.term_rows] * game.term_u[list(seats)].sum(axis=0)
    starts = [np.zeros(game.n_sigma, dtype=np.int8),
              *random_plans(game, seats, 1, np.random.default_rng(0))]  # fmt: skip
    return [joint_plan_alternating(game, seats, coef, [x])[0] for x in starts]


def saddle(g, seats: tuple[int, int], args: argparse.Namespace) -> tuple[object, dict]:
    """The relaxation's saddle LP (solved, or read from ``--saddle-file``), certified: its
    upper end (the smaller of its own multipliers' and, with ``--pdlp-seconds``, the
    relevant-pairs bound recomputed at its outsider) and its floor, as JSON fields."""
    t0 = time.perf_counter()
    lp = None
    read = args.saddle_file is not None and args.saddle_file.exists()
    if read:
        with np.load(args.saddle_file) as f:
            lp = RelaxedSaddle(float(f["value"]), f["w"], f["z"], f["duals"], f["outsider"],
                               str(f["status"]), float(f["seconds"]))  # fmt: skip
    sb = saddle_bounds(g, seats, args.saddle_seconds, lp=lp)
    if lp is None and args.saddle_file is not None:
        lp = sb.lp
        np.savez(args.saddle_file, value=lp.value, w=lp.w, z=lp.z, duals=lp.duals,
                 outsider=lp.outsider, status=lp.status, seconds=lp.seconds)  # fmt: skip
    print(f"saddle LP {sb.lp.value:.6f} (PDLP {sb.lp.status}{', read' if read else ''}): "
          f"upper end {float(sb.upper.value):.6f}, "
          f"floor {float(sb.floor):.6f} ({time.perf_counter() - t0:.0f} s); load {load()}",
          flush=True)  # fmt: skip
    bound = sb.upper
    if args.pdlp_seconds > 0:
        relaxed = relaxed_bound(g, seats, sb.upper.outsider, args.pdlp_seconds)
        print(
            f"relevant-pairs bound at the saddle's outsider {float(relaxed.value):.6f} "
            f"(PDLP {relaxed.status}, {relaxed.seconds:.0f} s); load {load()}",
            flush=True,
        )
        bound = relaxed if relaxed.value < bound.value else bound
    extra = {"relaxation_floor": str(sb.floor), "relaxation_floor_float": float(sb.floor),
             "saddle_status": sb.lp.status, "saddle_lp_value": sb.lp.value}  # fmt: skip
    return bound, extra


def main() -> None:
    """Run the segments."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="mercer(players=3,variant=mmh)")
    ap.add_argument("--team", default="23", help="1-based seats, e.g. 23")
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--segment", type=float, default=300.0, help="seconds per segment")
    ap.add_argument("--checkpoint", type=Path, default=None, help=".npy file of plans")
    ap.add_argument("--oracle", choices=("relaxation", "alternating"), default="relaxation")
    ap.add_argument("--sharing-iterations", type=int, default=0,
                    help="also bound the upper end by the team seeing its cards against the "
                    "outsider of the merged game solved this many PDCFR+ iterations")  # fmt: skip
    ap.add_argument("--pdlp-seconds", type=float, default=0.0,
                    help="with --sharing-iterations: also certify the relevant-pairs LP "
                    "(HiGHS PDLP, this many seconds) at the same outsider strategy")  # fmt: skip
    ap.add_argument("--relaxation-seconds", type=float, default=None,
                    help="with --oracle relaxation: PDLP this many seconds per LP "
                    "instead of the interior point")  # fmt: skip
    ap.add_argument("--save", type=Path, default=None,
                    help="add the best bracket to this JSON file of TMECor brackets")  # fmt: skip
    ap.add_argument("--saddle-seconds", type=float, default=0.0,
                    help="solve the relaxation's saddle LP (PDLP, this many seconds) and "
                    "certify its upper end and its floor")  # fmt: skip
    ap.add_argument(
        "--saddle-file",
        type=Path,
        default=None,
        help=".npz of the saddle LP's iterate: read if it exists, else saved",
    )
    ap.add_argument("--projected-starts", action="store_true",
                    help="alternating oracle: start also from the strong team's best "
                    "response projected on each member's information")  # fmt: skip
    ap.add_argument(
        "--random-starts",
        type=int,
        default=0,
        help="with --projected-starts: this many random start plans per step",
    )
    ap.add_argument("--seed", type=int, default=0, help="seed of the random start plans")
    ap.add_argument("--floor-minutes", type=float, default=0.0,
                    help="after the segments: raise the relaxation's floor by column "
                    "generation over relaxation points for this many minutes")  # fmt: skip
    ap.add_argument("--floor-lp-seconds", type=float, default=60.0,
                    help="PDLP seconds per relaxation LP of --floor-minutes")  # fmt: skip
    ap.add_argument("--check", action="store_true",
                    help="only recompute the stored lower end of this game and team exactly "
                    "from its stored mixture (the shipped brackets, or --save's file)")  # fmt: skip
    args = ap.parse_args()
    seats = tuple(int(c) - 1 for c in args.team)
    begin = time.perf_counter()
    g = load_game(args.game)
    if args.check:
        low = recheck_lower(g, seats, args.save)
        print(f"{args.game} team {args.team}: the stored mixture is worth exactly the recorded "
              f"lower end {float(low):.9f} ({time.perf_counter() - begin:.0f} s)")  # fmt: skip
        return
    plans: list[np.ndarray] = []
    if args.checkpoint is not None and args.checkpoint.exists():
        plans = list(np.load(args.checkpoint))
    checkpointed = len(plans)
    strong = None
    if args.oracle == "alternating" or args.sharing_iterations or args.projected_starts:
        strong = strong_game(g, seats)
    bound = None
    extra: dict[str, object] = {}
    if args.saddle_seconds or (args.saddle_file is not None and args.saddle_file.exists()):
        bound, extra = saddle(g, (seats[0], seats[1]), args)
    if args.sharing_iterations:  # the information-sharing upper bound (team_bounds.py)
        t0 = time.perf_counter()
        y = merged_outsider(strong, "pdcfr+", iterations=args.sharing_iterations)
        t1 = time.perf_counter()
        sharing = sharing_bound(g, seats, y, strong)
        print(f"sharing bound {float(sharing.value):.6f} (merged PDCFR+ "
              f"{args.sharing_iterations} iterations {t1 - t0:.0f} s, exact best response "
              f"{sharing.seconds:.0f} s); load {load()}", flush=True)  # fmt: skip
        if args.pdlp_seconds > 0:  # the relevant-pairs upper end at the same outsider
            relaxed = relaxed_bound(g, (seats[0], seats[1]), sharing.outsider,
                                    args.pdlp_seconds)  # fmt: skip
            print(f"relevant-pairs bound {float(relaxed.value):.6f} (PDLP {relaxed.status}, "
                  f"{relaxed.seconds:.0f} s; at {time.perf_counter() - begin:.0f} s of the "
                  f"run); load {load()}", flush=True)  # fmt: skip
            if relaxed.value < sharing.value:
                sharing = relaxed
        if bound is None or sharing.value < bound.value:
            bound = sharing
        if not plans:  # first columns: the members' alternating best responses to y
            t0 = time.perf_counter()
            plans = reply_plans(g, seats, y)
            print(f"{len(plans)} start plans answering it ({time.perf_counter() - t0:.0f} s)")
    more = None
    if args.projected_starts:
        assert strong is not None
        rng = np.random.default_rng(args.seed)
        more = projected_starts(g, strong, seats, rng, args.random_starts)
    if args.oracle != "alternating":
        strong = None
    print(f"{args.game} team {args.team}, oracle {args.oracle}; load {load()}; "
          f"{checkpointed} plans from checkpoint")  # fmt: skip
    print(f"{'s':>7} {'plans':>5} {'lower':>12} {'upper':>12} {'width':>10} {'stopped':>9} "
          f"{'best width':>10} load")  # fmt: skip
    start = time.perf_counter()
    low, up = None, None  # the best ends over the segments (each is a valid bound)
    witness = None  # the segment whose mixture gives the lower end
    while time.perf_counter() - start < 60 * args.minutes:

        def step(columns: int, value: float, upper: float) -> None:
            print(f"  {time.perf_counter() - start:7.0f} s: {columns} columns, master "
                  f"{value:.6f}, upper (float) {upper:.6f}; load {load()}", flush=True)  # fmt: skip

        r = tmecor(g, seats, oracle=args.oracle, upper_game=strong, seconds=args.segment,
                   start_plans=plans, progress=step,
                   relaxation_seconds=args.relaxation_seconds, more_starts=more)  # fmt: skip
        plans = list(r.plans)
        if args.checkpoint is not None:
            np.save(args.checkpoint, np.stack(plans))
        if bound is not None:
            r = tighten(r, bound)
        if low is None or r.lower > low:
            low, witness = r.lower, r
        up = r.upper if up is None else min(up, r.upper)
        print(f"{time.perf_counter() - start:7.0f} {len(plans):5d} {float(r.lower):12.6f} "
              f"{float(r.upper):12.6f} {float(r.width):10.6f} {r.stopped:>9} "
              f"{float(up - low):10.6f} {load()}", flush=True)  # fmt: skip
        if r.stopped == "heuristic":
            break
    if args.floor_minutes > 0 and low is not None:

        def fstep(points: int, value: float, upper: float) -> None:
            print(f"  floor: {points} points, master {value:.6f}, upper {upper:.6f}; "
                  f"load {load()}", flush=True)  # fmt: skip

        fg = floor_generation(g, (seats[0], seats[1]), plans, 60 * args.floor_minutes,
                              args.floor_lp_seconds, progress=fstep)  # fmt: skip
        print(f"relaxation floor {float(fg.floor):.6f} ({fg.points} points, "
              f"{fg.seconds:.0f} s); load {load()}", flush=True)  # fmt: skip
        old = Fraction(str(extra.get("relaxation_floor", fg.floor)))
        extra.update(relaxation_floor=str(max(old, fg.floor)),
                     relaxation_floor_float=float(max(old, fg.floor)))  # fmt: skip
        if fg.upper is not None and fg.upper.value < up:
            r = tighten(r, fg.upper)
            up = fg.upper.value
    if low is not None and up is not None:
        print(f"best bracket (exact): [{low}, {up}]")
        if args.save is not None:  # the best ends over the segments, each a valid bound
            assert witness is not None
            best = dataclasses.replace(r, lower=low, upper=up, plans=witness.plans,
                                       weights=witness.weights,
                                       seconds=time.perf_counter() - begin)  # fmt: skip
            argv = ["python", "benchmarks/run_tmecor_large.py", *sys.argv[1:]]
            # with the lower end's witness (the best segment's mixture), beside the file
            save_bracket(args.save, best, fingerprint(g), shlex.join(argv), extra)


if __name__ == "__main__":
    main()
