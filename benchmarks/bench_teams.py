"""Teams (issue 22 targets): the team's joint best-response gain beside a NashConv
evaluation, and TMECor brackets by column generation.

Tables (load average printed with each):

1. team gain against NashConv: on each game, median of ``--repeats`` over
   ``--profiles`` profiles (CFR+ iterates and random ones), interleaved (each repeat
   runs every column as one pass over the profiles, so that no column runs right
   after another column's different work, e.g. the old path's MILPs): the seconds of
   ``evaluate`` (the numpy passes: values, every player's best response, NashConv),
   of the fused NashConv kernel (``nash_conv``), of ``evaluate(..., team=...)``
   (the same plus the team's joint best response) by the **old path** (the lifted
   LP/MILP of ``joint_plan(model="lifted")``, the plan evaluated by a numpy pass,
   ``sees_together`` found per call: the code before the terminal-pairs LP,
   rebuilt here from the library's parts), by the **LP path** (the terminal-pairs LP
   certified by its plan, ``team_plans.USE_ENUMERATION = False``) started afresh each
   call (**cold**: the default before this session, ``team_pairs.WARM_START = False``)
   and from the last optimal basis (**warm**; each column one pass over the profiles,
   so each start is from another profile's basis), by the **new path** (the library's
   default: the enumeration of :mod:`toypoker.teams.plans` on games whose member plans
   are few, four-card Kuhn; else the warm LP path) and of ``team_evaluation`` alone
   (what ``solve`` calls after a run: the kernel's values and gains, then the team's
   best response); the ratios to ``evaluate`` and ``team_evaluation / kernel``; the
   gains' largest differences, old path and LP path against the new one;
2. where the time goes, per game and team (two profiles in turn, median): the outside
   weights, the LP (HiGHS, warm from the other profile's basis), the enumeration
   (where it answers: the default there), the rest of ``team_evaluation`` (the
   default path: enumeration or LP), the LP model's one-off build;
3. TMECor: per game and team placement, the exact bracket, its width, the plans
   generated and the seconds with the hybrid oracle and with the MILP at every step
   (``--smh``: also 3P-SMH, weak and strong, every placement, each with ``--budget``
   seconds of column generation; ``--no-tmecor`` skips the table).

Usage::

    python benchmarks/bench_teams.py [--repeats 3] [--profiles 4] [--holdem] [--smh]
        [--budget 300] [--no-tmecor] [--scipy] [--only SUBSTRING]

``--scipy``: the LP through ``scipy.optimize.linprog`` even when ``highspy`` is
installed; ``--holdem`` adds ``holdem(players=3,ranks=4,suits=2,team=13)`` (its
terminal-pairs LP alone takes ~20 s; the old path falls back to alternating best
responses after ``TEAM_MILP_SECONDS``).

Targets (issue 22): team gain in <= 2x a NashConv evaluation; TMECor exact on
three-player Kuhn (3 and 4 cards) in < 10 s each; 3P-SMH every placement in < 5 min.
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
from toypoker.evaluation import evaluate, nash_conv
from toypoker.teams import pairs as tp_pairs
from toypoker.teams import plans as tp_plans
from toypoker.teams.evaluation import TEAM_MILP_SECONDS, team_evaluation, team_weights
from toypoker.teams.response import MAX_PAIRS, joint_plan
from toypoker.teams.tmecor import tmecor
from toypoker.teams.transfer import _sees_together

CASES = [
    ("kuhn(players=3,team=12)", (0, 1)),
    ("kuhn(players=3,team=13)", (0, 2)),
    ("kuhn(players=3,team=23)", (1, 2)),
    ("kuhn(players=3,team=12,strong=true,merge=false)", (0, 1)),
    ("mercer(players=3,variant=smh,team=23,strong=true,merge=false)", (1, 2)),
    ("mercer(players=3,variant=smh,team=23)", (1, 2)),
    ("mercer(players=3,variant=smh,team=13)", (0, 2)),
    ("mercer(players=3,variant=smh,team=12)", (0, 1)),
]
HOLDEM = ("holdem(players=3,ranks=4,suits=2,team=13)", (0, 2))


def load() -> str:
    """The machine's load averages (1, 5, 15 min)."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def timed(f: object) -> float:
    """Seconds of one call."""
    t0 = time.perf_counter()
    f()  # type: ignore[operator]
    return time.perf_counter() - t0


def profiles(g: object, n: int) -> list[Profile]:
    """``n`` float profiles: CFR+ iterates (20, 60, 200 iterations), then random ones."""
    out = [solve(g, "cfr+", iterations=it, team=False).profile for it in (20, 60, 200)[:n]]
    rng = np.random.default_rng(1)
    return out + [Profile.random(g, rng) for _ in range(n - len(out))]  # type: ignore[arg-type]


def old_team_part(g: object, prof: Profile, team: tuple[int, ...], ev: object,
                  eprob: np.ndarray, reach: np.ndarray) -> float:  # fmt: skip
    """The team gain as ``evaluate(..., team=...)`` computed it before the terminal-pairs
    LP, given the evaluation's edge probabilities and reaches: ``sees_together`` found
    afresh, the lifted LP/MILP (the product MILP past ``MAX_PAIRS``, ``TEAM_MILP_SECONDS``
    given: it raises past them), the plan's value by a numpy pass (``expected_values``)."""
    if _sees_together(g, team):  # type: ignore[arg-type]
        from toypoker.engines.rows.values import best_response

        br = best_response(g, prof.probs, team, reach, eprob).value  # type: ignore[arg-type]
    else:
        cf = counterfactual_reach(g, reach, team)[g.term_rows].astype(np.float64)  # type: ignore[arg-type, attr-defined]
        coef = cf * g.term_u[list(team)].sum(axis=0)  # type: ignore[attr-defined]
        sizes = [len(tp_pairs.member_sequences(g, p)) + 1 for p in team]  # type: ignore[arg-type]
        model = "lifted" if sizes[0] * sizes[1] <= MAX_PAIRS else "product"
        choice = joint_plan(g, team, coef, TEAM_MILP_SECONDS, model)  # type: ignore[arg-type]
        vals = expected_values(g, BestResponse(team, None, choice).as_profile(prof))  # type: ignore[arg-type]
        br = float(sum(vals[p] for p in team))
    value = sum(ev.values[p] for p in team)  # type: ignore[attr-defined]
    return max(br - value, 0.0)


def team_gain_table(repeats: int, n_profiles: int, cases: list[tuple[str, tuple[int, ...]]]
                    ) -> None:  # fmt: skip
    """Table 1."""
    print(f"\n1. team gain against NashConv (median of {repeats} x {n_profiles} profiles, "
          f"interleaved; LP via {'highspy' if tp_pairs.USE_HIGHSPY and _highspy() else 'scipy'}"
          f"); load {load()}")  # fmt: skip
    print(f"{'game':58} {'team':>4} {'evaluate s':>10} {'kernel s':>9} {'old s':>7} "
          f"{'cold s':>7} {'warm s':>7} {'new s':>7} {'team_ev s':>9} {'old/ev':>6} "
          f"{'cold/ev':>7} {'warm/ev':>7} {'new/ev':>6} {'tev/ev':>6} {'tev/ker':>7} "
          f"{'gain (last)':>12} {'max|old-new|':>12} {'max|lp-new|':>11}  "
          "how (new, last)")  # fmt: skip
    for spec, team in cases:
        g = load_game(spec)
        profs = profiles(g, n_profiles)
        nash_conv(g, profs[0])  # compile the kernel
        evaluate(g, profs[0], team=team)  # build the team's models once
        for enumerate_ in (False, True):
            tp_plans.USE_ENUMERATION = enumerate_
            evaluate(g, profs[0], team=team)
        times: dict[str, list[float]] = {k: [] for k in ("ev", "ker", "old", "cold", "warm",
                                                         "new", "tev")}  # fmt: skip
        diff, lp_diff, gain, how = 0.0, 0.0, 0.0, ""
        reps = 1 if spec == HOLDEM[0] else repeats
        for _ in range(reps):  # each column one pass over the profiles, in turn
            evs, gains = [], []
            for prof in profs:
                t0 = time.perf_counter()
                evs.append(evaluate(g, prof))
                times["ev"].append(time.perf_counter() - t0)
            for prof in profs:
                times["ker"].append(timed(lambda g=g, prof=prof: nash_conv(g, prof)))
            olds = []
            for prof, ev, ev_s in zip(profs, evs, times["ev"][-len(profs) :], strict=True):
                eprob = edge_probabilities(g, prof.probs)
                reach = reaches(g, eprob)
                t0 = time.perf_counter()
                try:
                    olds.append(old_team_part(g, prof, team, ev, eprob, reach))
                except ToypokerError:
                    olds.append(float("nan"))
                times["old"].append(ev_s + time.perf_counter() - t0)
            for prof, old_gain in zip(profs, olds, strict=True):
                t0 = time.perf_counter()
                new = evaluate(g, prof, team=team).team
                times["new"].append(time.perf_counter() - t0)
                assert new is not None
                gain, how = float(new.gain), new.how
                gains.append(gain)
                failed = np.isnan(old_gain) or np.isnan(diff)  # shown as "old failed"
                diff = float("nan") if failed else max(diff, abs(old_gain - gain))
            # the LP path, enumeration off: warm (each start from another profile's
            # basis), then cold
            tp_plans.USE_ENUMERATION = False
            for key, warm in (("warm", True), ("cold", False)):
                tp_pairs.WARM_START = warm
                for prof, g_new in zip(profs, gains, strict=True):
                    t0 = time.perf_counter()
                    lp = evaluate(g, prof, team=team).team
                    times[key].append(time.perf_counter() - t0)
                    assert lp is not None
                    lp_diff = max(lp_diff, abs(float(lp.gain) - g_new))
            tp_pairs.WARM_START, tp_plans.USE_ENUMERATION = True, True
            for prof in profs:
                times["tev"].append(timed(lambda g=g, p=prof, t=team: team_evaluation(g, p, t)))
        e, k, o, c, w, n, t = (statistics.median(times[x]) for x in times)
        diff_text = "old failed" if np.isnan(diff) else f"{diff:.2g}"
        digits = "".join(str(p + 1) for p in team)
        print(f"{spec:58} {digits:>4} {e:10.4f} {k:9.4f} {o:7.4f} {c:7.4f} {w:7.4f} {n:7.4f} "
              f"{t:9.4f} {o / e:6.2f} {c / e:7.2f} {w / e:7.2f} {n / e:6.2f} {t / e:6.2f} "
              f"{t / k:7.2f} {gain:12.6g} {diff_text:>12} {lp_diff:11.2g}  {how}",
              flush=True)  # fmt: skip


def _highspy() -> bool:
    """Whether ``highspy`` is installed."""
    try:
        import highspy  # noqa: F401
    except ImportError:
        return False
    return True


def breakdown_table(cases: list[tuple[str, tuple[int, ...]]]) -> None:
    """Table 2: where the new path's time goes (weak teams)."""
    print(f"\n2. where the time goes, weak teams (CFR+ profiles of 60 and 200 iterations in "
          f"turn, each warm start from the other's basis, median of 5 each; build: the "
          f"model's first use); load {load()}")  # fmt: skip
    print(f"{'game':46} {'team':>4} {'t.pairs':>7} {'pairs':>7} {'lifted':>9} {'build s':>8} "
          f"{'weights s':>9} {'LP s':>7} {'enum s':>7} {'rest s':>7} {'team s':>7}")  # fmt: skip
    for spec, team in [c for c in cases if "strong" not in c[0]]:
        g = load_game(spec)
        profs = [solve(g, "cfr+", iterations=it, team=False).profile for it in (60, 200)]
        t0 = time.perf_counter()
        model = tp_pairs.TerminalPairs(g, team)  # type: ignore[arg-type]
        build = time.perf_counter() - t0
        evaluate(g, profs[0], team=team)  # the library's own copy of the model, built
        w_t, lp_t, en_t, all_t = [], [], [], []
        listed = tp_pairs.per_team(g, tp_plans.PlanTable, team).plans > 0  # type: ignore[arg-type]
        for _ in range(1 if spec == HOLDEM[0] else 5):
            for prof in profs:
                eprob = edge_probabilities(g, prof.probs)
                reach = reaches(g, eprob)
                t0 = time.perf_counter()
                coef = team_weights(g, prof.probs, team) * g.term_u[list(team)].sum(axis=0)
                w_t.append(time.perf_counter() - t0)
                c = model.objective(coef)
                lp_t.append(timed(lambda c=c, model=model: model.solve(c)))
                if listed:
                    en_t.append(timed(lambda g=g, t=team, coef=coef:
                                      tp_plans.enumerated_response(g, t, coef)))  # fmt: skip
                ev = evaluate(g, prof)
                t0 = time.perf_counter()
                team_evaluation(g, prof, team, evaluation=ev, reach=reach, eprob=eprob)
                all_t.append(time.perf_counter() - t0)
        w, lp, a = (statistics.median(x) for x in (w_t, lp_t, all_t))
        en = statistics.median(en_t) if listed else float("nan")
        sizes = [len(tp_pairs.member_sequences(g, p)) + 1 for p in team]
        digits = "".join(str(p + 1) for p in team)
        print(f"{spec:46} {digits:>4} {model.n_terminal_pairs:7d} {model.n_vars:7d} "
              f"{sizes[0] * sizes[1]:9d} {build:8.3f} {w:9.4f} {lp:7.4f} {en:7.4f} "
              f"{a - w - (en if listed else lp):7.4f} {a:7.4f}", flush=True)  # fmt: skip


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
    ap.add_argument("--profiles", type=int, default=4, help="profiles per game (>= 1)")
    ap.add_argument("--holdem", action="store_true", help="also the small hold'em (minutes)")
    ap.add_argument("--smh", action="store_true", help="also TMECor on 3P-SMH")
    ap.add_argument("--budget", type=float, default=300.0, help="seconds per TMECor")
    ap.add_argument("--no-tmecor", action="store_true", help="skip the TMECor table")
    ap.add_argument("--scipy", action="store_true", help="the LP by scipy's linprog")
    ap.add_argument("--only", default="", help="only the games whose spec contains this")
    args = ap.parse_args()
    tp_pairs.USE_HIGHSPY = not args.scipy
    cases = [c for c in CASES + ([HOLDEM] if args.holdem else []) if args.only in c[0]]
    team_gain_table(args.repeats, args.profiles, cases)
    breakdown_table(cases)
    if not args.no_tmecor:
        tmecor_table(args.smh, args.budget)


if __name__ == "__main__":
    from results_file import saved_output, take_save_flag  # benchmarks/results_file.py

    with saved_output(__file__, take_save_flag(sys.argv)):
        main()
