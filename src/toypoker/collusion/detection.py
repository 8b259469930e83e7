"""How many hands until collusion shows: a sequential likelihood-ratio test on what an
observer of the table sees.

Beyond Ullman (2015, Sec. 5), who compares the payoffs of colluding and honest
play but not whether anybody could tell them apart.  An observer (the outsider,
or the house) sees every public action and, at a showdown, the hole cards of the
players still in; never the cards of a player who folded.  Under two profiles --
H0, honest play, and H1, a team's collusion profile (possibly in a game where
the team sees each other's cards: the same public tree over the same deals, only
the information differs) -- each observation ``o`` (a terminal node and the
shown cards) has an exact probability ``P_k(o) = sum_d w(d) reach_k(o, d)``.
Wald's sequential probability-ratio test adds ``log P1(o)/P0(o)`` hand by hand
and stops at ``log((1 - beta)/alpha)`` (collusion) or ``log(beta/(1 - alpha))``
(honest).  :func:`detect` gives the exact per-hand Kullback-Leibler divergence,
Wald's approximate average sample numbers, the fixed-sample size of the
Neyman-Pearson test with the same errors (normal approximation) and, by
simulation with an explicit ``rng``, the distribution of the SPRT's stopping
time: the hands needed to detect collusion with 95 % power.

H1 may also be the team's optimal play (:func:`team_optimal_play`): a strong
win-sharing team's merged-game LP equilibrium mapped back onto the seats, or, for a
team that sees only its own cards, the TMECor plan -- a correlated mixture of the
team's joint pure plans (Celli and Gatti 2018; :mod:`toypoker.teams.tmecor`).  The
team draws one plan per hand played, so hands stay independent and the per-hand
observation law under H1 is the mixture of the plans' laws (exact, not sampled).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from toypoker.engines.protocol import BestResponse
from toypoker.engines.rows.values import edge_probabilities
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.games import load_rows
from toypoker.games.team_transform import COLLUSION_KEYS, Team, merged_spec
from toypoker.profile import Profile, uniform_sigma
from toypoker.spec import format_spec, parse_spec

#: H1 given as a correlated mixture: ``(probability, profile)`` pairs summing to 1
Mixture = Sequence[tuple[float, Profile]]


def observation_keys(game: Game) -> tuple[np.ndarray, int]:
    """``(key per terminal row, number of keys)``: rows an observer cannot tell apart
    share a key (same terminal node; at a showdown, the same hole cards of every
    player still in).  Observations are keyed by ``game``'s own per-player cards."""
    n = game.n_players
    parts = [np.asarray(game.row_node[game.term_rows], dtype=np.int64)]
    term_live = np.array([game.nodes[v].live for v in game.row_node[game.term_rows]], dtype=bool)
    showdown = term_live.sum(axis=1) > 1
    deals = game.row_deal[game.term_rows]
    for p in range(n):
        shown = showdown & term_live[:, p]
        parts.append(np.where(shown, game.obs[p, deals] + 1, 0).astype(np.int64))
    stacked = np.stack(parts, axis=1)
    _, key = np.unique(stacked, axis=0, return_inverse=True)
    key = key.reshape(-1)
    return key, int(key.max()) + 1 if len(key) else 0


def terminal_probabilities(
    game: Game, profile: Profile | np.ndarray, tremble: float = 0.0
) -> np.ndarray:
    """Probability of each terminal row (chance times every player's actions), every
    choice mixed with the uniform one at rate ``tremble``."""
    sigma = profile.probs if isinstance(profile, Profile) else np.asarray(profile, dtype=float)
    sigma = np.asarray(sigma, dtype=float)
    if sigma.shape != (game.n_sigma,):
        raise ToypokerError(
            f"a profile of {game.spec} has {game.n_sigma} entries, not {sigma.shape}"
        )
    if tremble:
        sigma = (1 - tremble) * sigma + tremble * uniform_sigma(game)
    ep = edge_probabilities(game, sigma)
    tot = np.empty(game.n_rows, dtype=np.float64)
    d1 = game.depth_start[1]
    tot[:d1] = 1.0
    for t in range(1, game.n_depths):
        a, b = game.depth_start[t], game.depth_start[t + 1]
        tot[a:b] = tot[game.parent_row[a:b]] * ep[a:b]
    return (tot * game.weights[game.row_deal])[game.term_rows]


def mixture_probabilities(
    game: Game, profile: Profile | np.ndarray | Mixture, tremble: float = 0.0
) -> np.ndarray:
    """:func:`terminal_probabilities` of a profile, or of a correlated mixture of profiles
    (one drawn per hand): the mixture's weighted sum of its members' probabilities."""
    if isinstance(profile, Profile | np.ndarray):
        return terminal_probabilities(game, profile, tremble)
    parts = list(profile)
    if not parts:
        raise ToypokerError("an H1 mixture needs at least one profile")
    total = np.zeros(len(game.term_rows))
    for w, prof in parts:
        total += float(w) * terminal_probabilities(game, prof, tremble)
    return total


def members_game(game: Game) -> Game | None:
    """The members' ``n``-player game of a merged team's game (``merge=true``: the team
    one agent), else ``None``; the two share the public tree and deals, so
    :func:`toypoker.teams.transfer.transfer_profile` maps profiles between them."""
    if not game.params.get("merge"):
        return None
    parsed = parse_spec(game.spec)
    return load_rows(format_spec(parsed.name, {**parsed.as_dict(), "merge": False}))


def merge_partners(game: Game) -> tuple[str, ...]:
    """The specs of ``game``'s other form: the merged team's game of a strong win-sharing
    collusion game, or the members' game of a merged one (written with ``merge=false``
    and without ``merge``); none for other games."""
    if game.params.get("merge"):
        parsed = parse_spec(game.spec)
        rest = {k: v for k, v in parsed.as_dict().items() if k != "merge"}
        return (format_spec(parsed.name, rest), format_spec(parsed.name, {**rest, "merge": False}))
    merged = merged_spec(game.spec)
    return () if merged is None else (merged,)


@dataclass(frozen=True)
class TeamOptimalPlay:
    """The team's optimal play in a collusion game, as H1 for :func:`detect`.

    Attributes
    ----------
    mixture
        ``(probability, profile)`` pairs, profiles of the members' game (a merged game's
        play is mapped onto the seats): one pair (the merged LP's equilibrium) for a
        strong win-sharing team; the TMECor plans (team members' joint pure plans, the
        outsider's TMECor strategy) otherwise.
    low, high
        Exact bracket on the team's summed value (equal when exact).
    how
        One line: how the play was found.
    interrupted
        Ctrl-C or SIGTERM stopped the solve (the play is not the team's optimum).
    """

    mixture: tuple[tuple[float, Profile], ...]
    low: object
    high: object
    how: str
    interrupted: bool = False


def team_optimal_play(
    game: Game,
    seconds: float | None = 60.0,
    progress: Callable[[int, float, float], None] | None = None,
) -> TeamOptimalPlay:
    """The team-optimal collusion profile of ``game`` (a collusion spec with one outsider).

    Parameters
    ----------
    game
        A game with ``team=`` and exactly one player outside the team (a merged team's
        game, ``merge=true``, is played on its members' seats).
    seconds
        Time budget of a TMECor (weak team); its bracket is valid when it stops early,
        and the mixture is then the best found.
    progress
        Passed to :func:`toypoker.teams.tmecor.tmecor` (plans generated, the master's
        value, the best oracle value so far); not called for a merged LP.

    Returns
    -------
    TeamOptimalPlay

    Raises
    ------
    ToypokerError
        Without a team, or with more than one outsider.
    """
    from toypoker.solvers import solve
    from toypoker.teams.tmecor import tmecor

    game = members_game(game) or game
    team = Team.of_params(game.params)
    if team is None:
        raise ToypokerError(f"{game.spec} has no team: give the collusion game a team=")
    if len(team.outsiders(game.n_players)) != 1:
        raise ToypokerError("the team-optimal H1 needs exactly one player outside the team")
    if team.strong and team.sharing == "win":
        res = solve(game, "lp", merge=True, team=False)
        prof = res.profile.to_float() if res.profile.exact else res.profile
        vals = res.value_exact or res.values
        v = sum((vals[p] for p in team.seats[1:]), vals[team.seats[0]])
        stop = getattr(res.stopped, "value", res.stopped)
        return TeamOptimalPlay(((1.0, prof),), v, v, f"merged-team LP: team value {v} (exact)",
                               stop == "interrupted")  # fmt: skip
    r = tmecor(game, team.seats, seconds=seconds, progress=progress)
    base = r.profile.to_float()
    mixture = tuple(
        (float(w), BestResponse(team.seats, None, plan).as_profile(base))
        for w, plan in zip(r.weights, r.plans, strict=True)
    )
    bracket = f"value {r.lower}" if r.exact else f"value in [{r.lower}, {r.upper}]"
    how = (f"TMECor (oracle: {r.how}; {r.stopped}): {len(r.plans)} joint plans, one drawn "
           f"per hand; team {bracket}")  # fmt: skip
    return TeamOptimalPlay(mixture, r.lower, r.upper, how, r.stopped == "interrupted")


def check_same_table(g0: Game, g1: Game) -> None:
    """Raise unless ``g0`` and ``g1`` share the public tree and deals (what
    :func:`detect` needs; cheap: compare the compiled rows).  The message names what
    differs between the specs (game, or parameters other than the team's)."""
    same = (
        g0.n_rows == g1.n_rows
        and np.array_equal(g0.row_deal, g1.row_deal)
        and np.array_equal(g0.row_node, g1.row_node)
        and np.array_equal(g0.term_rows, g1.term_rows)
        and [v.history for v in g0.nodes] == [v.history for v in g1.nodes]
    )
    if not same:
        raise ToypokerError(
            f"the honest game and the collusion game differ ({spec_difference(g0.spec, g1.spec)})"
            " and do not share the public tree and deals: an observer cannot compare them "
            "hand by hand"
        )


def spec_difference(a: str, b: str) -> str:
    """What differs between two canonical specs, short: ``"kuhn vs leduc"`` or
    ``"cards=4 vs cards=5, bet=1 vs bet=2"`` (collusion keys left out), else both specs."""
    pa, pb = parse_spec(a), parse_spec(b)
    if pa.name != pb.name:
        return f"{pa.name} vs {pb.name}"
    da, db = pa.as_dict(), pb.as_dict()
    keys = [
        k for k in dict.fromkeys([*da, *db]) if k not in COLLUSION_KEYS and da.get(k) != db.get(k)
    ]
    if not keys:
        return f"{a} vs {b}"
    side = [", ".join(f"{k}={d[k]}" if k in d else f"no {k}" for k in keys) for d in (da, db)]
    return f"{side[0]} vs {side[1]}"


@dataclass(frozen=True)
class Detection:
    """What :func:`detect` found; everything needed to redraw its plot.

    ``kl`` is the expected log-likelihood ratio per hand under H1 (nats), ``kl0``
    the same under H0 (negative); ``asn1``/``asn0`` Wald's approximate average
    hands to a decision under H1/H0; ``fixed_n`` the hands a fixed-size test with
    the same errors needs; ``stops`` the simulated SPRT stopping hands under H1
    (``max_hands + 1`` where undecided) and ``detected`` whether each run ended
    with "collusion"; ``hands_95`` the hands by which 95 % of the runs detected
    collusion (``None`` if fewer than 95 % did within ``max_hands``).
    """

    spec0: str
    spec1: str
    alpha: float
    beta: float
    kl: float
    kl0: float
    asn1: float
    asn0: float
    fixed_n: float
    stops: np.ndarray
    detected: np.ndarray
    false_alarms: float
    hands_95: int | None
    max_hands: int
    seed: int | None

    def power_curve(self) -> tuple[np.ndarray, np.ndarray]:
        """``(hands, share of runs that detected collusion within that many hands)``."""
        hands = np.unique(np.concatenate([[0], self.stops[self.detected]]))
        share = np.array([np.mean(self.detected & (self.stops <= h)) for h in hands])
        return hands, share

    def to_json_dict(self) -> dict[str, object]:
        """A plain summary (without the per-run arrays)."""
        return {
            "h0": self.spec0, "h1": self.spec1, "alpha": self.alpha, "beta": self.beta,
            "kl_per_hand": self.kl, "kl_per_hand_h0": self.kl0,
            "wald_average_hands_h1": self.asn1, "wald_average_hands_h0": self.asn0,
            "fixed_sample_hands": self.fixed_n, "runs": int(len(self.stops)),
            "detected_share": float(np.mean(self.detected)),
            "median_hands": float(np.median(self.stops)),
            "hands_to_detection_95": self.hands_95, "false_alarm_rate": self.false_alarms,
            "max_hands": self.max_hands, "seed": self.seed,
        }  # fmt: skip


def check_test(alpha: float, beta: float, tremble: float) -> None:
    """The test's error rates in ``(0, 1/2)`` and the tremble in ``[0, 1)``, or one line
    (what :func:`detect` checks first, and the CLI before any solve)."""
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0 < v < 0.5:
            raise ToypokerError(f"{name} must be in (0, 0.5), got {v}")
    if not 0 <= tremble < 1:
        raise ToypokerError(f"tremble must be in [0, 1), got {tremble}")


def detect(
    game0: Game,
    profile0: Profile | np.ndarray,
    game1: Game,
    profile1: Profile | np.ndarray | Mixture,
    *,
    alpha: float = 0.05,
    beta: float = 0.05,
    runs: int = 2000,
    max_hands: int = 1_000_000,
    rng: np.random.Generator | None = None,
    seed: int | None = None,
    tremble: float = 0.0,
) -> Detection:
    """Hands until an observer's SPRT tells H1 (``profile1`` in ``game1``) from H0.

    Parameters
    ----------
    game0, profile0
        Honest play (H0); the observer's cards are ``game0``'s.
    game1, profile1
        The collusion profile (H1), in a game with the same public tree and deals; or
        a correlated mixture ``[(probability, profile), ...]`` of which one profile is
        drawn per hand (a TMECor plan: :func:`team_optimal_play`).
    alpha, beta
        The test's false-alarm and miss probabilities (power ``1 - beta``).
    runs, max_hands
        Simulated sequences under H1 (and as many under H0 for the false-alarm
        rate), each stopped at a boundary or after ``max_hands``.
    rng, seed
        The random generator (or a seed for one).
    tremble
        The observer's models mix every choice of both profiles with the uniform one
        at this rate, so that an action one profile never takes is strong evidence,
        not certainty (an equilibrium's exact zeros would otherwise decide at once).

    Returns
    -------
    Detection
        Frozen; an observation one hypothesis rules out counts as (almost) certain
        evidence (its log-ratio is clamped at about 690 nats).

    Raises
    ------
    ToypokerError
        For games that do not share their public tree and deals, or errors
        outside (0, 1/2).
    """
    check_test(alpha, beta, tremble)
    if runs < 1 or max_hands < 1:
        raise ToypokerError("need runs >= 1 and max_hands >= 1")
    check_sprt_size(runs, max_hands)
    check_same_table(game0, game1)
    if rng is None:
        rng = np.random.default_rng(seed)
    key, n_keys = observation_keys(game0)
    w0 = terminal_probabilities(game0, profile0, tremble)
    w1 = mixture_probabilities(game1, profile1, tremble)
    p0 = np.bincount(key, weights=w0, minlength=n_keys)
    p1 = np.bincount(key, weights=w1, minlength=n_keys)
    p0, p1 = p0 / p0.sum(), p1 / p1.sum()
    tiny = 1e-300
    llr = np.log(np.maximum(p1, tiny)) - np.log(np.maximum(p0, tiny))
    kl = float(np.sum(p1 * llr))
    kl0 = float(np.sum(p0 * llr))
    upper, lower = np.log((1 - beta) / alpha), np.log(beta / (1 - alpha))
    asn1 = ((1 - beta) * upper + beta * lower) / kl if kl > 0 else float("inf")
    asn0 = (alpha * upper + (1 - alpha) * lower) / kl0 if kl0 < 0 else float("inf")
    # fixed-size test: sum of n LLRs, normal under each hypothesis (means kl/kl0)
    sd1 = float(np.sqrt(max(np.sum(p1 * llr**2) - kl**2, 0.0)))
    sd0 = float(np.sqrt(max(np.sum(p0 * llr**2) - kl0**2, 0.0)))
    z = norm.ppf(1 - alpha) * sd0 + norm.ppf(1 - beta) * sd1
    fixed_n = (z / (kl - kl0)) ** 2 if kl > kl0 else float("inf")
    if np.all(llr[(p0 > 0) | (p1 > 0)] == 0):  # the same distribution: no test ever stops
        stops1, up1, up0 = np.full(runs, max_hands + 1), np.zeros(runs, bool), np.zeros(runs)
    else:
        stops1, up1 = _sprt(p1, llr, upper, lower, runs, max_hands, rng)
        _, up0 = _sprt(p0, llr, upper, lower, runs, max_hands, rng)
    detected = up1
    share = np.sort(np.where(detected, stops1, max_hands + 1))
    k95 = int(np.ceil(0.95 * runs)) - 1
    hands_95 = int(share[k95]) if share[k95] <= max_hands else None
    return Detection(
        game0.spec, game1.spec, float(alpha), float(beta), kl, kl0, float(asn1), float(asn0),
        float(fixed_n), stops1, detected, float(np.mean(up0)), hands_95, int(max_hands), seed,
    )  # fmt: skip


MAX_SPRT_ENTRIES = 2**22
"""Draws held at once by the simulated tests (open runs x hands per chunk)."""

SPRT_RUN_BYTES = 80
"""Bytes held a simulated test for its whole run (sums, stopping hands, decisions, the
open list, a step's per-run temporaries, the result's copies); a generous count."""
SPRT_ENTRY_BYTES = 40
"""Bytes of a step's temporaries a draw (uniforms, observations, log-ratios, their
running sums, the boundary tests)."""


def sprt_bytes(runs: int, max_hands: int) -> int:
    """The memory :func:`detect`'s simulated tests need for ``runs`` sequences of at
    most ``max_hands`` hands: per run, plus a step's draws (``runs`` x hands of a chunk,
    at most ``MAX_SPRT_ENTRIES`` unless there are more runs than that: one hand each)."""
    entries = min(runs * max_hands, max(runs, MAX_SPRT_ENTRIES))
    return SPRT_RUN_BYTES * runs + SPRT_ENTRY_BYTES * entries


def check_sprt_size(
    runs: int, max_hands: int, name: str = "runs", max_bytes: int | None = None
) -> None:
    """Refuse, in one line naming ``name``, ``runs`` simulated tests that would not fit
    in the memory budget (``max_bytes``, default ``TOYPOKER_MAX_BYTES``, else half the
    machine's memory): counted before anything is allocated (``--runs 1e14`` ran out of
    memory and the message blamed the game)."""
    from toypoker.games import max_bytes_allowed
    from toypoker.io import size_text

    need, limit = sprt_bytes(runs, max_hands), max_bytes_allowed(max_bytes)
    if need > limit:
        most = max(1, (limit - SPRT_ENTRY_BYTES * MAX_SPRT_ENTRIES) // SPRT_RUN_BYTES)
        raise ToypokerError(
            f"{name} {runs:,}: the simulated tests would need {size_text(need)}, more than "
            f"the budget {size_text(limit)} (TOYPOKER_MAX_BYTES allows more); give at most "
            f"about {most:,}"
        )


def _sprt(
    p: np.ndarray,
    llr: np.ndarray,
    upper: float,
    lower: float,
    runs: int,
    max_hands: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Stopping hand and decision ("H1") of ``runs`` SPRTs on observations drawn from ``p``."""
    cdf = np.cumsum(p)
    cdf /= cdf[-1]
    total = np.zeros(runs)
    stop = np.full(runs, max_hands + 1, dtype=np.int64)
    up = np.zeros(runs, dtype=bool)
    open_ = np.arange(runs)
    done = 0
    # hands a step, every open run at once: at most MAX_SPRT_ENTRIES draws a step (many
    # runs times 256 hands would not fit in memory), 256 where that fits
    chunk = max(1, min(256, MAX_SPRT_ENTRIES // max(runs, 1)))
    while len(open_) and done < max_hands:
        m = min(chunk, max_hands - done)
        draws = np.searchsorted(cdf, rng.random((len(open_), m)), side="right")
        path = total[open_, None] + np.cumsum(llr[np.minimum(draws, len(p) - 1)], axis=1)
        hit = (path >= upper) | (path <= lower)
        first = np.where(hit.any(axis=1), hit.argmax(axis=1), -1)
        ended = first >= 0
        idx = open_[ended]
        stop[idx] = done + first[ended] + 1
        up[idx] = path[ended, first[ended]] >= upper
        total[open_[~ended]] = path[~ended, -1]
        open_ = open_[~ended]
        done += m
        chunk = min(chunk * 2, max(min(256, chunk), MAX_SPRT_ENTRIES // max(len(open_), 1)))
    return stop, up


def plot_power(d: Detection, path: str) -> None:
    """The share of simulated SPRT runs that detected collusion within n hands, with the
    95 % line, Wald's average and the fixed-size test marked."""
    from toypoker.plots import save_figure, subplots

    hands, share = d.power_curve()
    fig, ax = subplots(figsize=(7, 4.2), layout="constrained")
    ax.step(np.maximum(hands, 1), share, where="post", label="SPRT runs that detected")
    ax.axhline(1 - d.beta, ls="--", color="grey", lw=0.8, label=f"power {1 - d.beta:g}")
    if d.hands_95 is not None:
        ax.axvline(d.hands_95, ls=":", color="C3", label=f"95 % by {d.hands_95:,} hands")
    if np.isfinite(d.asn1):
        ax.axvline(d.asn1, ls="-.", color="C2", lw=0.8, label=f"Wald average {d.asn1:,.0f}")
    if np.isfinite(d.fixed_n):
        ax.axvline(d.fixed_n, ls="--", color="C1", lw=0.8, label=f"fixed-size {d.fixed_n:,.0f}")
    ax.set_xscale("log")
    ax.set_xlabel("hands observed")
    ax.set_ylabel("share of runs that detected collusion")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"{d.spec1}\nagainst {d.spec0}", fontsize=9)
    ax.legend(fontsize=8, loc="upper left")
    save_figure(fig, path)
