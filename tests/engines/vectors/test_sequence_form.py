"""The sequence-form LP from the vector layout
(``toypoker.engines.vectors.sequence_form``): the same
exact value and certificate as ``solvers/lp.py`` on the row layout."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from toypoker.engines import as_game
from toypoker.engines.vectors import compile_vector
from toypoker.engines.vectors import sequence_form as vector_lp
from toypoker.engines.vectors.direct import build_vector
from toypoker.engines.vectors.layout import rank_hands
from toypoker.engines.vectors.sequence_form import lp_size, vector_sequence_form
from toypoker.errors import ToypokerError
from toypoker.games import load_rows
from toypoker.solvers import solve
from toypoker.solvers.lp import sequence_form


@pytest.mark.parametrize(
    "spec", ["kuhn(players=2)", pytest.param("leduc(players=2)", marks=pytest.mark.slow)]
)  # Leduc: ~7 s, three LPs with their exact certificates
def test_same_exact_value_as_the_row_lp(spec: str) -> None:
    # independent path: solvers/lp.py on the row layout (its A from the deal table)
    g = load_rows(spec)
    rows = solve(g, "lp")
    vg = compile_vector(g)
    for layout in (vg, rank_hands(vg)):  # physical hands, and one hand a rank
        res = solve(as_game(layout), "lp")
        assert res.certified and rows.certified
        assert res.value_exact == rows.value_exact
        assert res.nash_conv == 0.0
    if spec == "kuhn(players=2)":
        assert rows.value_exact[0] == Fraction(-1, 18)  # Kuhn (1950)


def test_payoff_matrix_equals_the_row_layout() -> None:
    # independent path: the row layout's A, summed over deals; the same sequences
    g = load_rows("leduc(players=2)")
    a = sequence_form(g).A.toarray()
    b = vector_sequence_form(compile_vector(g)).A.toarray()
    np.testing.assert_allclose(b, a, atol=1e-15, rtol=0)
    assert lp_size(compile_vector(g)) > 0


@pytest.mark.slow  # ~45 s: the exact certificate of a suited deck (2,352 infosets)
def test_rhode_island_deck_exact_value() -> None:
    spec = "rhode_island(ranks=3,suits=2,cap=1)"
    res = solve(as_game(build_vector(spec)), "lp")
    # -92/567: the row layout's LP on the same deck, asserted (with CFR+'s limit beside
    # it) in tests/games/test_rhode_island.py::test_lp_value_equals_cfr_limit_and_is_zero_sum
    assert res.certified and res.value_exact == (Fraction(-92, 567), Fraction(92, 567))


def test_three_players_and_oversize_refused_in_one_line(monkeypatch) -> None:
    with pytest.raises(ToypokerError, match="two-player"):
        solve(as_game(compile_vector(load_rows("kuhn(players=3)"))), "lp")
    vg = compile_vector(load_rows("leduc(players=2)"))
    monkeypatch.setattr(vector_lp, "MAX_ENTRIES", lp_size(vg) - 1)
    with pytest.raises(ToypokerError, match="payoff entries"):
        solve(as_game(vg), "lp")
