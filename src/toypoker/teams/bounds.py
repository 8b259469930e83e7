"""An upper bound on a weak team's TMECor value from the same team seeing its cards.

Weak colluders see only their own cards; strong ones see each other's.  With the same
rows and the same summed team payoff (win sharing moves payoffs inside the team only),
every correlated plan of the weak team -- a mixture of joint pure plans, each member's
actions a function of its own cards -- is also a plan of the strong team, which sees
more (it may simply ignore the partner's cards).  So against **any** outsider strategy
``y``::

    BR_weak(y) <= BR_strong(y),   hence   TMECor_weak = min_y BR_weak(y) <= BR_strong(y),

and ``BR_strong(y)`` is cheap and exact: the strong team is one player with perfect
recall (the merged team of :func:`toypoker.games.team_transform.merge_team`), so its best
response is a backward induction over its sequences.  This is the information argument
behind Farina, Celli, Gatti and Sandholm (2018, "Ex ante coordination and collusion in
zero-sum multi-player extensive-form games", Sec. 3: the value of a team grows with the
information its members share; a team sharing everything is one player), applied to a
fixed outsider.  The best ``y`` for the bound is the outsider's equilibrium strategy of
the merged two-player game (:func:`merged_outsider`, any solver): the bound then tends
to the strong team's value, ``min_y BR_strong(y)``, and never below it -- so the width
it leaves is at least the value of seeing the partner's cards.

:func:`sharing_bound` evaluates it exactly: the outsider's strategy (read by infoset
label from a profile of the strong, merged-back or weak game) is rounded to multiples
of ``2**-bits`` per infoset (kept as is when exact), the two games' weighted team
payoffs are checked equal row by row in integers, and the strong team's best response
to that exact strategy is computed in integers.  The rounded strategy is part
of the result, so the bound can be rechecked.  :func:`tighten` puts it as the upper
end of a :class:`~toypoker.teams.tmecor.TMECor` bracket when it is smaller.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from toypoker.engines.rows.values import edge_probabilities, reaches
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.games import load_rows
from toypoker.games.team_transform import COLLUSION_KEYS, Team, collusion_spec
from toypoker.profile import Profile
from toypoker.spec import format_spec, parse_spec
from toypoker.teams.evaluation import team_best_response
from toypoker.teams.forms import Columns, Outsider, grid_row
from toypoker.teams.relaxation import PairModel, certified_bound, pair_model, relaxed_bound_pdlp
from toypoker.teams.response import random_plans
from toypoker.teams.tmecor import TMECor
from toypoker.teams.transfer import sees_together

__all__ = [
    "RelaxedBound",
    "SharingBound",
    "merged_outsider",
    "mixture_lower",
    "projected_starts",
    "relaxed_bound",
    "sharing_bound",
    "strong_game",
    "tighten",
]


@dataclass(frozen=True)
class SharingBound:
    """An exact upper bound on a weak team's TMECor value.

    Attributes
    ----------
    value
        The strong team's exact best-response value against ``outsider`` (the team's
        summed payoff, as :attr:`TMECor.upper`).
    outsider
        The outsider's exact behaviour strategy bounded against, per infoset index of
        the weak game.
    strong_spec
        The game of the same team seeing its cards.
    seconds
        Wall time of the exact best response.
    """

    value: Fraction
    outsider: dict[int, list[Fraction]]
    strong_spec: str
    seconds: float


def strong_game(game: Game, team: tuple[int, ...]) -> Game:
    """``game`` with ``team`` seeing each other's cards (strong collusion, not merged),
    the sharing rule kept (``win`` when the game has none).

    Raises
    ------
    ToypokerError
        If the two games do not have the same rows and the same summed team payoff.
    """
    parsed = parse_spec(game.spec)
    params = parsed.as_dict()
    sharing = str(params.get("sharing", "win"))
    base = format_spec(parsed.name, {k: v for k, v in params.items() if k not in COLLUSION_KEYS})
    strong = load_rows(collusion_spec(base, team, sharing, "strong"))
    same = (
        strong.n_rows == game.n_rows
        and np.array_equal(strong.row_deal, game.row_deal)
        and np.array_equal(strong.row_node, game.row_node)
        and np.array_equal(strong.term_rows, game.term_rows)
    )
    if not same:
        raise ToypokerError(f"{strong.spec} does not have the rows of {game.spec}")
    mine, theirs = (g.term_u[list(team)].sum(axis=0) for g in (game, strong))
    if not np.allclose(mine, theirs, rtol=0, atol=1e-9):
        raise ToypokerError(f"{strong.spec} does not pay the team as {game.spec} does")
    return strong


def merged_outsider(strong: Game, method: str = "pdcfr+", **budget: object) -> Profile:
    """An equilibrium of the strong team's merged two-player game, on ``strong``'s seats
    (:func:`toypoker.solvers.solve` with ``merge=True``); its outsider's strategy is the
    one to give :func:`sharing_bound`.

    Parameters
    ----------
    strong
        A strong win-sharing collusion game (:func:`strong_game`).
    method, budget
        As in :func:`toypoker.solvers.solve` (``iterations``, ``seconds``...).
    """
    from toypoker.solvers import solve

    return solve(strong, method, merge=True, team=False, **budget).profile  # type: ignore[arg-type]


def sharing_bound(
    game: Game,
    team: Team | tuple[int, ...],
    outsider: Profile,
    strong: Game | None = None,
    bits: int = 20,
) -> SharingBound:
    """The strong team's exact best-response value against ``outsider``'s strategy: an
    upper bound on the weak team's TMECor value in ``game`` (see the module's docstring).

    Parameters
    ----------
    game
        A game with one player outside ``team`` (the team need not see its cards).
    team
        The team's seats (0-based) or :class:`~toypoker.games.team_transform.Team`.
    outsider
        A profile of any game holding the outsider's infosets under the same labels
        (the strong game, the weak one, a merged game's profile moved back); only the
        outsider's strategy is read.  Float strategies are rounded to ``2**-bits``.
    strong
        The game of the team seeing its cards (default :func:`strong_game`).
    bits
        Grid of the rounded strategy.

    Returns
    -------
    SharingBound

    Raises
    ------
    ToypokerError
        If the team leaves more or fewer than one outsider, or the outsider's infosets
        are missing from ``outsider``'s game.
    """
    seats = Team.of(team).seats
    rest = [p for p in range(game.n_players) if p not in seats]
    if len(rest) != 1:
        raise ToypokerError(f"a team bound needs one outsider; {game.spec} has {len(rest)}")
    (o,) = rest
    strong = strong if strong is not None else strong_game(game, seats)
    if not sees_together(strong, seats):
        raise ToypokerError(f"in {strong.spec} the team does not see its cards")
    start = time.perf_counter()
    src = outsider.game
    behaviour: dict[int, list[Fraction]] = {}
    for inf in Outsider(game, (o,)).infosets:
        if not src.has_infoset(inf.label):
            raise ToypokerError(f"infoset {inf.label} of {game.spec} is not in {src.spec}")
        j = src.infoset(inf.label)
        row = outsider.probs[j.offset : j.offset + len(j.actions)]
        if outsider.exact:
            behaviour[inf.index] = [Fraction(x) for x in row]
        else:
            behaviour[inf.index] = grid_row(np.asarray(row, dtype=np.float64), bits)
    columns = Columns(strong, Outsider(strong, (o,)), seats)
    # the certificate needs the same weighted team payoff at every terminal row, exactly
    mine, den = Columns(game, Outsider(game, (o,)), seats).numerators()
    theirs, den_s = columns.numerators()
    if den == den_s:
        same = np.array_equal(mine, theirs)
    else:
        same = np.array_equal(np.asarray(mine, object) * den_s, np.asarray(theirs, object) * den)
    if not same:
        raise ToypokerError(f"{strong.spec} does not pay the team exactly as {game.spec} does")
    value = columns.best_value({strong.infoset(game.infosets[i].label).index: b
                                for i, b in behaviour.items()})  # fmt: skip
    return SharingBound(value, behaviour, strong.spec, time.perf_counter() - start)


@dataclass(frozen=True)
class RelaxedBound:
    """An exact upper bound on a two-member weak team's TMECor value: the relevant-pairs
    relaxation of its best response (:mod:`toypoker.teams.relaxation`) against one
    outsider strategy, certified in integers (:func:`relaxed_bound`).

    Attributes
    ----------
    value
        The certified bound (the team's summed payoff).
    outsider
        The outsider's exact behaviour strategy, per infoset index of the game.
    status
        HiGHS's status for the PDLP iterate the multipliers came from.
    seconds
        Wall time (model, PDLP, certificate).
    """

    value: Fraction
    outsider: dict[int, list[Fraction]]
    status: str
    seconds: float


def relaxed_bound(
    game: Game,
    team: tuple[int, int],
    outsider: dict[int, list[Fraction]],
    seconds: float,
    model: PairModel | None = None,
) -> RelaxedBound:
    """The team's relaxed best-response value against the exact outsider strategy
    ``outsider``, certified: HiGHS's PDLP on the relevant-pairs LP for ``seconds``, its
    multipliers put through :func:`~toypoker.teams.relaxation.certified_bound` with the
    exact objective.  Any outsider strategy gives a valid upper end on the weak team's
    TMECor value (``TMECor = min_y BR(y) <= BR(y) <= relaxed(y)``); unlike
    :func:`sharing_bound` it can go below the strong team's value.

    Parameters
    ----------
    game
        A game with one player outside the two-member ``team``.
    team
        Two seats (0-based).
    outsider
        The outsider's exact behaviour, per infoset index of ``game``
        (e.g. :attr:`SharingBound.outsider`).
    seconds
        PDLP's time limit (what it reaches on 3P-MMH: ``benchmarks/results/teams.md``).
    model
        :func:`~toypoker.teams.relaxation.pair_model` of the team (built if not given).

    Returns
    -------
    RelaxedBound
    """
    start = time.perf_counter()
    rest = [p for p in range(game.n_players) if p not in team]
    if len(team) != 2 or len(rest) != 1:
        raise ToypokerError("the relaxed bound needs a team of two and one outsider")
    out = Outsider(game, (rest[0],))
    num, den = Columns(game, out, tuple(team)).exact_coefficients(outsider)
    model = model if model is not None else pair_model(game, (team[0], team[1]))
    coef = np.array([int(v) for v in num], dtype=np.float64) / float(den)
    pi, status = relaxed_bound_pdlp(model, coef, seconds)
    value = certified_bound(model, pi, num, den)
    return RelaxedBound(value, outsider, status, time.perf_counter() - start)


def tighten(result: TMECor, bound: SharingBound | RelaxedBound) -> TMECor:
    """``result`` with ``bound`` as its upper end when it is smaller (and, as every valid
    upper end, not below the lower end); ``result`` itself otherwise."""
    if bound.value >= result.upper:
        return result
    if bound.value < result.lower:
        raise ToypokerError("a team bound below the bracket's lower end: not a valid bound")
    game = result.profile.game
    probs = np.array(result.profile.probs, dtype=object)
    for i, row in bound.outsider.items():
        inf = game.infosets[i]
        probs[inf.offset : inf.offset + len(inf.actions)] = row
    what = ("relevant-pairs LP (PDLP), certified" if isinstance(bound, RelaxedBound)
            else "the team seeing its cards, sharing bound")  # fmt: skip
    how = result.how.split("; upper:")[0] + "; upper: " + what
    return dataclasses.replace(result, upper=bound.value, profile=Profile(game, probs), how=how)


def sharing_stage(
    game: Game,
    result: TMECor,
    iterations: int,
    pdlp_seconds: float = 0.0,
    progress: Callable[[int, float], None] | None = None,
) -> tuple[TMECor, int]:
    """``result`` tightened by the team seeing its cards against the merged game's
    outsider after ``iterations`` PDCFR+ iterations (:func:`merged_outsider`,
    :func:`sharing_bound`), and, with ``pdlp_seconds``, the PDLP bound at that outsider
    (:func:`relaxed_bound`).  Ctrl-C during the iterations keeps the bound of those
    done (any outsider strategy bounds the team's value from above) and marks the result
    interrupted.  ``progress(t, nash_conv)`` is the solve's.  Returns the result and the
    iterations run."""
    from toypoker.errors import Interrupted
    from toypoker.solvers import solve

    strong = strong_game(game, result.team)
    try:
        res = solve(strong, "pdcfr+", merge=True, team=False, iterations=iterations,
                    progress=progress)  # fmt: skip
    except Interrupted as exc:  # the iterations done still bound the team's value
        res = exc.result
    assert res.profile is not None
    bound = sharing_bound(game, result.team, res.profile, strong)
    tightened = tighten(result, bound)
    if str(getattr(res.stopped, "value", res.stopped)) == "interrupted":
        return dataclasses.replace(tightened, stopped="interrupted"), res.iterations
    if pdlp_seconds > 0:
        tightened = tighten(tightened, relaxed_bound(game, result.team, bound.outsider,
                                                     pdlp_seconds))  # fmt: skip
    return tightened, res.iterations


def projected_starts(
    game: Game,
    strong: Game,
    team: tuple[int, ...],
    rng: np.random.Generator | None = None,
    n_random: int = 0,
) -> Callable[[Profile], list[np.ndarray]]:
    """Start plans for the weak team's alternating best responses against an outsider:
    the strong team's best response to it projected on each member's information, and
    ``n_random`` random joint plans drawn with ``rng``.

    The strong team (``strong``: the same rows, each member seeing the partner's cards)
    best-responds exactly (backward induction); at each infoset of a weak member the
    projection plays the action the strong plan takes most, weighted over the rows of
    that infoset by chance, the outsider's reach and the strong plan's own reach.  Both
    members' projected actions together keep the coordination the strong plan has --
    leading play into the parts of the tree where the outsider errs -- which the
    members' alternating best responses from the last plans, one member moving at a
    time, do not find.  For ``tmecor(..., more_starts=)``.

    Parameters
    ----------
    game
        The weak game (the team does not see its cards).
    strong
        :func:`strong_game` of ``game`` and ``team``.
    team
        The team's seats (0-based).
    rng, n_random
        Random start plans (:func:`toypoker.teams.response.random_plans`); ``rng`` is
        needed when ``n_random > 0``.

    Returns
    -------
    callable
        From the weak game's float profile (the outsider's strategy is read) to a list of
        joint pure plans of ``game``.
    """
    seats = tuple(int(p) for p in team)
    if n_random > 0 and rng is None:
        raise ToypokerError("projected_starts: random start plans need an rng")
    (o,) = [p for p in range(game.n_players) if p not in seats]
    pairs = [(i.offset, strong.infoset(i.label).offset, len(i.actions))
             for i in game.infosets if i.player == o]  # fmt: skip
    rows = np.flatnonzero(np.isin(game.row_actor, seats) & (game.row_infoset >= 0))
    rows = rows[~game.infoset_restricted[game.row_infoset[rows]]]
    weak_off = game.infoset_offset[game.row_infoset[rows]]
    strong_inf = strong.row_infoset[rows]

    def starts(profile: Profile) -> list[np.ndarray]:
        probs = np.array(Profile.uniform(strong).probs, dtype=np.float64)
        src = np.asarray(profile.probs, dtype=np.float64)
        for off, off_s, k in pairs:
            probs[off_s : off_s + k] = src[off : off + k]
        br = team_best_response(strong, Profile(strong, probs), seats, together=True)
        mine = np.isin(strong.sigma_player, seats)
        probs[mine] = br.choice[mine]
        reach = reaches(strong, edge_probabilities(strong, probs))
        weight = strong.weights[strong.row_deal[rows]] * reach[o, rows]
        for p in seats:
            weight = weight * reach[p, rows]
        offs = strong.infoset_offset[strong_inf]
        k_s = strong.infoset_n_actions[strong_inf]
        act = np.zeros(len(rows), dtype=np.int64)
        for a in range(int(k_s.max()) if len(rows) else 0):
            on = (a < k_s) & (br.choice[(offs + a).clip(0, strong.n_sigma - 1)] == 1)
            act[on] = a
        votes = np.zeros(game.n_sigma)
        np.add.at(votes, weak_off + act, weight)
        plan = np.zeros(game.n_sigma, dtype=np.int8)
        for inf in game.infosets:
            if inf.player in seats and not inf.restricted:
                block = votes[inf.offset : inf.offset + len(inf.actions)]
                plan[inf.offset + int(np.argmax(block))] = 1
        more = random_plans(game, seats, n_random, rng) if n_random > 0 else []
        return [plan, *more]

    return starts


def mixture_lower(
    game: Game,
    team: Team | tuple[int, ...],
    plans: Sequence[np.ndarray],
    weights: Sequence[Fraction],
) -> Fraction:
    """The exact value a team guarantees with a correlated plan -- the pure joint plans
    ``plans`` played with probabilities ``weights`` -- against the outsider's exact best
    response: a TMECor bracket's lower end (:attr:`TMECor.lower`), rechecked from its
    witness (:attr:`TMECor.plans` and :attr:`TMECor.weights`; the shipped 3P-MMH
    mixtures, :func:`toypoker.collusion.brackets.stored_mixture`).

    Parameters
    ----------
    game
        The game (one outsider).
    team
        A :class:`~toypoker.games.team_transform.Team` or 0-based seats.
    plans
        Joint pure plans over ``game``'s actions (``n_sigma`` entries, 0 or 1): at each
        member's infoset exactly one action 1.
    weights
        Their probabilities: nonnegative Fractions (or ints) summing to 1.

    Raises
    ------
    ToypokerError
        For plans or weights that do not make a correlated plan of the team.
    """
    t = Team.of(team)
    t.check(game.n_players)
    outsiders = t.outsiders(game.n_players)
    if len(outsiders) != 1:
        raise ToypokerError(
            f"a team's mixture needs one outsider; {game.spec} has {len(outsiders)}"
        )
    try:
        w = [Fraction(x) for x in weights]  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise ToypokerError(
            f"a mixture's weights must be exact numbers, not {weights!r:.60}"
        ) from None
    if len(w) != len(plans) or not w or min(w) < 0 or sum(w) != 1:
        raise ToypokerError(
            f"a mixture needs one nonnegative weight per plan, summing to 1 "
            f"({len(plans)} plans, {len(w)} weights summing to {sum(w)})"
        )
    mine = np.isin(game.sigma_player, t.seats)
    members = np.isin([i.player for i in game.infosets], t.seats)
    for k, x in enumerate(plans):
        x = np.asarray(x)
        pure = x.shape == (game.n_sigma,) and bool(np.isin(x, (0, 1)).all())
        if pure:  # one action at each of the members' infosets
            chosen = np.bincount(game.sigma_infoset[mine], weights=x[mine],
                                 minlength=len(game.infosets))  # fmt: skip
            pure = bool((chosen[members] == 1).all())
        if not pure:
            raise ToypokerError(
                f"plan {k} of the mixture is not a pure plan of seats {t.seats} on {game.spec}"
            )
    out = Outsider(game, outsiders)
    columns = Columns(game, out, t.seats)
    exact = [columns(np.asarray(x, dtype=np.int8), exact=True) if wk else None
             for wk, x in zip(w, plans, strict=True)]  # fmt: skip
    return out.guarantee(exact, w)
