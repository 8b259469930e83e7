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


@pytest.mark.parametrize("width", [40, 200])
def test_the_seed_spread_prints_every_number_on_a_narrow_terminal(monkeypatch, width):
    # before (issue 35 audit): at COLUMNS=40 `solve --seeds` cut its cells to "-0.0…"
    from toypoker.cli import seeds as cli_seeds

    console = Console(file=io.StringIO(), width=width, color_system=None)
    monkeypatch.setattr(cli_seeds, "out", console)
    values = [{"player": 1, "mean": -0.048521, "std": 0.009881, "min": -0.061771, "max": -0.038052}]
    varying = [{"infoset": "P1:2:kb", "action": "c", "min": 0.5151, "max": 0.8, "mean": 0.6543}]
    summary = {"nash_conv": {"max": 0.173, "mean": 0.127}, "values": values,
               "varying_infosets": varying}  # fmt: skip
    cli_seeds._print_spread(load_game("kuhn(players=2)"), "es-mccfr", 3, summary)
    text = console.file.getvalue()
    assert max(len(line) for line in text.splitlines()) <= width
    for cell in ("-0.04852", "0.00988", "-0.06177", "-0.03805", "0.515", "0.800", "0.654"):
        assert cell in text
    assert "…" not in text
