"""The compiled Game carries its numeric parameters: ``Game.at`` equals compiling the
spec at the new values, exactly (float and exact payoffs), without recompiling."""

from fractions import Fraction as F

import numpy as np
import pytest

from toypoker import Game, deal_table
from toypoker.errors import SpecError, ToypokerError
from toypoker.games import canonical_spec, load_rows
from toypoker.spec import parse_spec


def _same_payoffs(a: Game, b: Game) -> None:
    assert a.spec == b.spec and a.params == b.params
    assert np.array_equal(a.term_u, b.term_u)  # float payoffs bit for bit
    assert a.term_u_exact.shape == b.term_u_exact.shape
    assert (a.term_u_exact == b.term_u_exact).all()
    assert [n.committed for n in a.nodes] == [n.committed for n in b.nodes]


CASES = [
    ("kuhn(players=2)", {"pot": F(5, 2)}, "kuhn(players=2,pot=5/2)"),
    ("kuhn(players=2)", {"bet": 3}, "kuhn(players=2,bet=3)"),
    ("kuhn(players=3)", {"pot": 6}, "kuhn(players=3,pot=6)"),
    ("kuhn(players=3,pot=6)", {"ante": F(1, 3)}, "kuhn(players=3,ante=1/3)"),
    (
        "kuhn(players=3,cards=5)",
        {"pot": 0.1, "bet": "3/2"},
        "kuhn(players=3,cards=5,pot=1/10,bet=3/2)",
    ),
    ("kuhn(players=4)", {"ante": 2, "bet": F(1, 7)}, "kuhn(players=4,ante=2,bet=1/7)"),
    ("kuhn_third_street(pot=3)", {"pot": F(17, 3)}, "kuhn_third_street(pot=17/3)"),
    (
        "kuhn_third_street(pot=3,rational=true)",
        {"pot": 9},
        "kuhn_third_street(pot=9,rational=true)",
    ),
    ("skp(pot=9)", {"pot": F(11, 2)}, "skp(pot=11/2)"),
]


@pytest.mark.parametrize("spec, values, target", CASES)
def test_at_equals_load_game(spec, values, target, monkeypatch):
    g = load_rows(spec)
    want = load_rows(target)
    calls = []
    for name in ("compile_game", "compile_nodes", "decision_infosets", "compile_terminals"):
        real = getattr(deal_table, name)
        monkeypatch.setattr(
            deal_table, name, lambda *a, real=real, **k: calls.append(1) or real(*a, **k)
        )
    h = g.at(**values)
    assert calls == []  # no recompilation: the game's one constructor, the table shared
    _same_payoffs(h, want)
    # everything but the payoffs is shared with the original
    assert h.row_deal is g.row_deal and h.infosets is g.infosets and h.obs is g.obs
    assert h.weights is g.weights and h.sigma_fixed is g.sigma_fixed
    assert g.spec == load_rows(spec).spec  # the original is untouched


@pytest.mark.parametrize("spec", ["kuhn(players=2)", "kuhn(players=3,cards=5)", "skp(pot=9)"])
def test_payoff_slope_is_the_exact_derivative(spec):
    g = load_rows(spec)
    for name in g.numeric_params:
        v0 = g.params.get(name)
        if v0 is None:  # kuhn given with the ante: its pot is n * ante
            v0 = g.params["ante"] * g.n_players
        s_exact = g.payoff_slope(name, exact=True)
        s = g.payoff_slope(name)
        assert s.shape == g.term_u.shape and s.dtype == np.float64
        assert np.allclose(s, np.array(s_exact, dtype=float), rtol=0, atol=1e-15)
        h = g.at(**{name: v0 + 3})
        assert (h.term_u_exact == g.term_u_exact + 3 * s_exact).all()


def test_kuhn_pot_slope_is_the_ante_slope_over_n():
    g = load_rows("kuhn(players=3)")
    assert (g.payoff_slope("pot", exact=True) * 3 == g.payoff_slope("ante", exact=True)).all()


def test_numeric_params():
    assert load_rows("kuhn(players=3)").numeric_params == ("ante", "bet", "pot")
    assert load_rows("skp").numeric_params == ("pot",)
    assert load_rows("kuhn_third_street").numeric_params == ("pot",)
    assert load_rows("leduc(players=2)").numeric_params == ()


def test_bad_values():
    g = load_rows("kuhn(players=3)")
    with pytest.raises(ToypokerError, match="no numeric parameter 'pot'"):
        load_rows("leduc(players=2)").at(pot=3)
    with pytest.raises(ToypokerError, match="no numeric parameter 'cards'"):
        g.at(cards=5)
    with pytest.raises(ToypokerError, match="no numeric parameter"):
        g.payoff_slope("players")
    with pytest.raises(SpecError, match="positive"):
        g.at(pot=0)
    with pytest.raises(SpecError, match="positive"):
        load_rows("skp").at(pot=-1)
    with pytest.raises(ToypokerError, match="finite"):
        g.at(bet=float("inf"))
    with pytest.raises(ToypokerError, match="not both"):
        g.at(pot=3, ante=1)
    with pytest.raises(ToypokerError, match="must be a number"):
        g.at(pot=True)
    with pytest.raises(SpecError, match="out of range"):
        g.at(pot="1e999999999")
    assert g.at() is g


def test_game_is_immutable():
    g = load_rows("kuhn(players=2)")
    with pytest.raises(AttributeError, match="immutable"):
        g.spec = "x"
    with pytest.raises(ValueError, match="read-only"):
        g.term_u[0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        g.at(pot=3).term_u[0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        g.term_u_exact[0, 0] = 1


def test_typed_derived_structures_are_cached_per_game():
    g = load_rows("kuhn(players=2)")

    class Edges:
        def __init__(self, game):
            self.n = game.n_sigma

    e = g.derived(Edges)
    assert isinstance(e, Edges) and e.n == g.n_sigma and g.derived(Edges) is e
    assert g.at(pot=3).derived(Edges) is not e  # payoffs differ: a fresh cache


def test_free_mask():
    g = load_rows("skp(pot=9)")
    assert np.array_equal(g.free_mask(), ~g.sigma_fixed)
    assert np.array_equal(g.free_mask(2), ~g.sigma_fixed & (g.sigma_player == 2))
    assert g.free_mask().sum() == 6  # b_J, c_K, d_Q: three binary choices


def test_canonical_spec_without_compiling(monkeypatch):
    monkeypatch.setattr(Game, "__init__", lambda *a, **k: pytest.fail("compiled"))
    assert canonical_spec("kuhn(pot=3, players=3)") == "kuhn(players=3,cards=4,bet=1,pot=3)"
    assert canonical_spec("skp") == "skp(pot=9,rational=true)"
    assert canonical_spec("kuhn_third_street") == "kuhn_third_street(pot=3,cards=4,rational=false)"
    assert canonical_spec("leduc") == "leduc(players=2)"


@pytest.mark.parametrize(
    "spec",
    ["kuhn(players=10)", "kuhn(players=50)", "kuhn_third_street(cards=500)", "kuhn(cards=5000)"],
)
def test_too_large_games_fail_fast(spec):
    with pytest.raises(SpecError, match="too large to compile: .* bytes") as e:
        load_rows(spec)
    assert "\n" not in str(e.value)


def test_size_limit_is_configurable(monkeypatch):
    with pytest.raises(SpecError, match="too large"):
        load_rows("kuhn(players=3)", max_bytes=1000)
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "500")
    with pytest.raises(SpecError, match="too large"):
        load_rows("kuhn(players=2)")
    assert load_rows("kuhn(players=2)", max_bytes=10**6).n_deals == 6


@pytest.mark.parametrize("text", ["1e999999999", "1e-999999999", "1e400", "1" + "0" * 500])
def test_spec_numbers_have_bounded_size(text):
    with pytest.raises(SpecError) as e:
        parse_spec(f"kuhn(pot={text})")
    assert "\n" not in str(e.value) and len(str(e.value)) < 200


def test_exact_payoffs_match_the_floats_row_by_row():
    # term_u_exact is computed once per set of winners at each terminal node; row by
    # row it equals the float payoffs rationalised (independent path: term_u, the
    # payoffs here having denominators 1, 2 or 3, well within limit_denominator)
    for spec in ("kuhn(players=3,team=12,sharing=win)", "leduc", "kuhn(players=4)"):
        g = load_rows(spec)
        expect = np.vectorize(lambda x: F(float(x)).limit_denominator(1000))(g.term_u)
        assert (g.term_u_exact == expect).all()
