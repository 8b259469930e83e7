"""Weak collusion on the vector layout (issue 21, item 2): the payoff map of
:func:`toypoker.games.team_transform.collude` (win or pot sharing) on the hand vectors.

Independent path for every expected number: the row layout over the deal table
(:mod:`toypoker.engines.rows.values`, :func:`toypoker.solvers.cfr.step_many`), whose terminal
payoffs apply the map row by row (:func:`toypoker.payoffs.payoffs`).  On the vector
layout the map mixes the players' pot shares over the product of their hands before
contracting (:func:`toypoker.engines.vectors.terminal_values._dense_group`; the fused kernel's dense
terminal on rank hands, :func:`toypoker.engines.vectors.terminals.dense_arrays`), so player
``i``'s value reads the other players' shares indexed by ``i``'s hand.

Checked: values and NashConv of random profiles to 1e-12 (``rtol=0``) on three-player
Kuhn, Leduc-type hold'em (rank and suited decks), 3P-SMH and a four-player Kuhn, every
team placement and both sharing rules, on physical hands (the numpy reference), on
rank hands (reference and fused kernel); exactly in Fractions on Kuhn; whole 100-
iteration CFR+ and PDCFR+ runs equal to 1e-12; ``tp.solve`` on a collusion
``VectorGame``; strong collusion unmerged refused in one line naming ``--layout rows``.

A strong team merged into one player (:mod:`toypoker.engines.vectors.merged`: the team's hand is
an ordered pair of hands, the showdown the dense product over (team pair, outsider
hand) with the three seats' strengths): values, each player's best-response gain (the
merged team's gain is its ordinary best-response gain) and NashConv equal the merged
row game's to 1e-12, exactly in Fractions on Kuhn; 100 CFR+ iterations equal; the
vector LP refuses the payoff map in one line.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import toypoker as tp
from toypoker.engines import as_game
from toypoker.engines.evaluation import vector_evaluate
from toypoker.engines.rows.values import expected_values as row_values
from toypoker.engines.rows.values import nash_conv as row_nash_conv
from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors import regrets as VC
from toypoker.engines.vectors import values as V
from toypoker.engines.vectors.direct import build_vector
from toypoker.engines.vectors.kernel import vector_kernel
from toypoker.engines.vectors.layout import VectorGame, rank_hands
from toypoker.engines.vectors.merged import compile_merged
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.solvers import cfr as C
from toypoker.solvers.registry import METHODS

from .maps import assert_same_map

TEAMS = ["12", "13", "23"]
SHARING = ["win", "pot"]
KUHN = "kuhn(players=3,team={t},sharing={s})"
LEDUC = "holdem(players=3,ranks=3,suits=2,hole=1,rounds=2,board2=1,team={t},sharing={s})"
SUITED = (  # a suited evaluator: physical hands, card codes, suit-canonical boards
    "holdem(players=3,ranks=3,suits=2,hole=1,rounds=2,board2=1,evaluator=ullman4,"
    "team={t},sharing={s})"
)
SMH = "mercer(players=3,variant=smh,team={t},sharing={s})"  # rank pairs (190 physical hands)


def _sigma(vg_or_game: object, seed: int) -> np.ndarray:
    game = vg_or_game.game if isinstance(vg_or_game, VectorGame) else vg_or_game
    x = np.random.default_rng(seed).random(game.n_sigma)
    return x / np.bincount(game.sigma_infoset, x)[game.sigma_infoset]


def _cases(template: str) -> list[str]:
    return [template.format(t=t, s=s) for t in TEAMS for s in SHARING]


def _check(g: object, vg: VectorGame, seed: int = 0) -> None:
    sigma = _sigma(g, seed)
    want, want_nc = row_values(g, sigma), row_nash_conv(g, sigma)
    np.testing.assert_allclose(V.expected_values(vg, sigma), want, rtol=0, atol=1e-12)
    assert abs(V.nash_conv(vg, sigma) - want_nc) <= 1e-12 * max(1.0, want_nc)
    ev = vector_evaluate(vg, sigma)  # the fused kernel where the game has one
    np.testing.assert_allclose(ev.values, want, rtol=0, atol=1e-12)
    assert abs(ev.nash_conv - want_nc) <= 1e-12 * max(1.0, want_nc)


@pytest.mark.parametrize("spec", _cases(KUHN) + _cases(LEDUC) + _cases(SUITED))
def test_values_and_nash_conv_equal_rows(spec: str) -> None:
    g = load_rows(spec)
    vg = compile_vector(g)
    assert vg.payoff is not None
    _check(g, vg)
    if "ullman4" not in spec:  # rank decks: one hand a rank, the kernel's dense terminal
        rg = rank_hands(vg)
        assert rg.rank_deals is not None and vector_kernel(rg) is not None
        _check(g, rg, seed=1)


@pytest.mark.parametrize("spec", _cases(SMH))
def test_three_player_mercer_on_rank_pairs(spec: str) -> None:
    # the physical dense product (190^3 a board) is beyond the quick part: rank pairs
    g = load_rows(spec)
    _check(g, rank_hands(compile_vector(g)), seed=2)


def test_four_players_dense() -> None:
    # four players run on the dense numpy reference (no kernel)
    for spec in ("kuhn(players=4,team=13)", "kuhn(players=4,team=124,sharing=pot)"):
        g = load_rows(spec)
        vg = compile_vector(g)
        assert vector_kernel(vg) is None
        _check(g, vg, seed=3)


@pytest.mark.parametrize("spec", _cases(KUHN))
def test_exact_values_in_fractions(spec: str) -> None:
    g = load_rows(spec)
    vg = compile_vector(g)
    sigma = np.array(
        [Fraction(1, int(k)) for k in g.infoset_n_actions[g.sigma_infoset]], dtype=object
    )
    sigma[0], sigma[1] = Fraction(1, 3), Fraction(2, 3)  # not uniform at the first infoset
    assert list(V.expected_values(vg, sigma)) == list(row_values(g, sigma))
    assert V.nash_conv(vg, sigma) == row_nash_conv(g, sigma)


@pytest.mark.parametrize("spec", _cases(KUHN) + _cases(LEDUC)[:2])
def test_deal_free_build_equals_compiled(spec: str) -> None:
    g = load_rows(spec)
    for rank in (False, True):
        vg = build_vector(spec, rank=rank)
        assert vg.game.spec == g.spec
        assert [vg.game.infosets[i].label for i in range(g.n_infosets)] == [
            i.label for i in g.infosets
        ]
        _check(g, vg, seed=4)


@pytest.mark.parametrize("method", ["cfr+", "pdcfr+"])
@pytest.mark.parametrize("spec", _cases(KUHN))
def test_whole_runs_equal_rows(spec: str, method: str) -> None:
    g = load_rows(spec)
    opts = METHODS[method].defaults
    row = C.step_many(g, C.init(g, opts), opts, 100)
    want = C.output(g, row, opts)
    vg = rank_hands(compile_vector(g))  # the fused kernel
    got = C.output(vg.game, VC.step_many(vg, VC.init(vg), opts, 100), opts)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("method", ["cfr+", "pdcfr+"])
def test_iteration_map_on_a_two_round_game(method: str) -> None:
    # three players over two rounds: the dynamics amplify rounding (measured here: a
    # whole CFR+ run parts by 0.0087 after 100 iterations, as the row layout's own two
    # backends part on such games, tests/solvers/test_vector_cfr_runs.py), so every
    # step from the row run's state is checked, on the kernel and the physical reference
    g = load_rows(LEDUC.format(t="13", s="win"))
    opts = METHODS[method].defaults
    vg = compile_vector(g)
    rg = rank_hands(vg)
    for other in (rg, vg):
        assert_same_map(
            lambda s: C.step(g, s, opts), lambda s, o=other: VC.step(o, s, opts),
            C.init(g, opts), 30 if other is rg else 10,
        )  # fmt: skip


def test_solve_on_a_collusion_vector_game() -> None:
    spec = KUHN.format(t="13", s="pot")
    g = load_rows(spec)
    vg = build_vector(spec, rank=True)
    res = tp.solve(as_game(vg), "cfr+", iterations=50)
    row = tp.solve(g, "cfr+", iterations=50)
    assert res.profile is not None and row.profile is not None
    assert res.profile.game.spec == g.spec
    assert [i.label for i in res.profile.game.infosets] == [i.label for i in g.infosets]
    np.testing.assert_allclose(res.profile.probs, row.profile.probs, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "spec",
    ["kuhn(players=3,team=12,strong=true)", "kuhn(players=3,team=12,strong=true,merge=false)"],
)
def test_strong_collusion_refused_in_one_line(spec: str) -> None:
    with pytest.raises(ToypokerError, match="strong collusion.*--layout rows") as info:
        build_vector(spec)
    assert "\n" not in str(info.value)
    with pytest.raises(ToypokerError, match="--layout rows"):
        compile_vector(load_rows(spec))


MERGED_KUHN = "kuhn(players=3,team={t},sharing={s},strong=true,merge=true)"
MERGED_LEDUC = (
    "holdem(players=3,ranks=3,suits=2,hole=1,rounds=2,board2=1,team={t},sharing={s},"
    "strong=true,merge=true)"
)


MERGED_PAIRS = (  # two hole cards a seat: the team's hand is a pair of two-card hands
    "holdem(players=3,ranks=3,suits=3,hole=2,rounds=1,evaluator=ullman4,team=13,strong=true,"
    "merge=true)"
)


@pytest.mark.parametrize("spec", _cases(MERGED_KUHN) + _cases(MERGED_LEDUC)[::2] + [MERGED_PAIRS])
def test_merged_team_equals_rows(spec: str) -> None:
    g = load_rows(spec)
    assert g.n_players == 2
    vg = compile_merged(g)
    assert vector_kernel(vg) is None  # the numpy reference runs it
    sigma = _sigma(g, 5)
    want = tp.evaluate(g, sigma)
    np.testing.assert_allclose(V.expected_values(vg, sigma), want.values, rtol=0, atol=1e-12)
    for p in range(2):  # the merged team's gain is its ordinary best-response gain
        gain = V.best_response_value(vg, sigma, p)[0] - want.values[p]
        assert abs(gain - want.gains[p]) <= 1e-12
    assert abs(V.nash_conv(vg, sigma) - want.nash_conv) <= 1e-12 * max(1.0, want.nash_conv)


@pytest.mark.parametrize("team", TEAMS)
def test_merged_team_exact_in_fractions(team: str) -> None:
    g = load_rows(MERGED_KUHN.format(t=team, s="win"))
    vg = compile_merged(g)
    sigma = np.array(
        [Fraction(1, int(k)) for k in g.infoset_n_actions[g.sigma_infoset]], dtype=object
    )
    sigma[0], sigma[1] = Fraction(1, 4), Fraction(3, 4)
    assert list(V.expected_values(vg, sigma)) == list(row_values(g, sigma))
    assert V.nash_conv(vg, sigma) == row_nash_conv(g, sigma)


@pytest.mark.parametrize("team", TEAMS)
def test_merged_team_cfr_and_solve(team: str) -> None:
    g = load_rows(MERGED_KUHN.format(t=team, s="win"))
    vg = compile_merged(g)
    opts = METHODS["cfr+"].defaults
    want = C.output(g, C.step_many(g, C.init(g, opts), opts, 100), opts)
    got = C.output(vg.game, VC.step_many(vg, VC.init(vg), opts, 100), opts)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    res = tp.solve(as_game(vg), "cfr+", iterations=100)
    assert res.profile is not None and res.profile.game.spec == g.spec
    np.testing.assert_allclose(res.profile.probs, want, rtol=0, atol=1e-12)
    with pytest.raises(ToypokerError, match="LP on the vector layout does not take"):
        tp.solve(as_game(vg), "lp")


def test_merged_team_refusals() -> None:
    with pytest.raises(ToypokerError, match="compile_merged"):
        compile_vector(load_rows(MERGED_KUHN.format(t="12", s="win")))
    with pytest.raises(ToypokerError, match="not a merged strong team"):
        compile_merged(load_rows(KUHN.format(t="12", s="win")))
    suited = "rhode_island(players=3,ranks=3,suits=2,cap=1,team=12,strong=true,merge=true)"
    with pytest.raises(ToypokerError, match="rank deck"):  # suited: card codes
        compile_merged(load_rows(suited))


@pytest.mark.slow  # ~60 s, ~2.6 GB: 29,070 team pairs x 190 outsider hands a terminal
def test_merged_team_on_three_player_mercer() -> None:
    # 3P-SMH, team 23 merged (issue 22's table): two hole cards a seat, hand pairs of pairs
    g = load_rows("mercer(players=3,variant=smh,team=23,strong=true,merge=true)")
    vg = compile_merged(g)
    assert vg.n_hands == 190 * 153 + 190
    sigma = _sigma(g, 6)
    want = tp.evaluate(g, sigma)
    np.testing.assert_allclose(V.expected_values(vg, sigma), want.values, rtol=0, atol=1e-12)
    assert abs(V.nash_conv(vg, sigma) - want.nash_conv) <= 1e-12 * max(1.0, want.nash_conv)


@pytest.mark.parametrize(
    "spec", [KUHN.format(t="13", s="pot"), MERGED_KUHN.format(t="12", s="win")]
)
def test_fictitious_play_runs_equal_rows(spec: str) -> None:
    # fp's one schedule on both layouts (solvers.fictitious.layout_step): 20 iterations
    g = load_rows(spec)
    vg = compile_merged(g) if "merge=true" in spec else build_vector(spec, rank=True)
    got, want = tp.solve(as_game(vg), "fp", iterations=20), tp.solve(g, "fp", iterations=20)
    assert got.profile is not None and want.profile is not None
    np.testing.assert_allclose(got.profile.probs, want.profile.probs, rtol=0, atol=1e-12)
