"""Strategy tables for people (issue 35 item 5, issue 34 item 4)."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from rich.console import Console

from toypoker import Profile, load_game
from toypoker.cli.tables import strategy_table


def _printed(renderable: object, width: int) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


@pytest.mark.parametrize("width", [40, 60, 200])
def test_a_narrow_terminal_wraps_the_action_columns_and_drops_none(width):
    # before: at COLUMNS=40 rich squeezed every probability column of Kuhn-3's table to
    # nothing (exit 0, a table of labels); now every action's column and cell is printed
    g = load_game("kuhn(players=3)")
    probs = [Fraction(k % 7 + 1, 8) for k in range(g.n_sigma)]  # distinct, 3 decimals
    prof = Profile(g, [float(x) for x in probs], validate=False)
    text = _printed(strategy_table(prof), width)
    assert max(len(line) for line in text.splitlines()) <= width
    for i in g.infosets:
        for k in range(len(i.actions)):
            assert f"{float(probs[i.offset + k]):.3f}" in text
    for a in ("k", "b", "f", "c"):
        assert f" {a} " in text  # every action's header
    wrapped = "of 4 actions" in text
    assert wrapped == (width < 60)  # marked when wrapped, one plain table when it fits


def test_exact_tables_print_short_fractions_and_decimals_by_default():
    # issue 34: `solve leduc --method lp` printed ~45-digit fractions, 684 lines
    g = load_game("kuhn(players=2)")
    probs = [Fraction(1, 3), Fraction(2, 3)] + [Fraction(1, 2)] * (g.n_sigma - 2)
    probs[2:4] = [Fraction(10**20 + 1, 3 * 10**20), Fraction(2 * 10**20 - 1, 3 * 10**20)]
    prof = Profile(g, probs, validate=False)
    text = _printed(strategy_table(prof), 200)
    assert "1/3" in text and "2/3" in text  # short fractions stay exact
    assert "0.333333" in text and "100000000000000000001" not in text  # long: 6 decimals
    full = _printed(strategy_table(prof, fractions=True), 400)
    assert "100000000000000000001/300000000000000000000" in full  # --fractions: whole
