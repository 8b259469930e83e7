"""``toypoker equilibria``."""

import json

import pytest


@pytest.mark.slow
def test_equilibria_command(cli, one_line_error):
    code, out, _ = cli("equilibria", "skp", "--symbolic-pot", "--pot-min", "5", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["equilibria"]) == 3
    assert "too many" in one_line_error("equilibria", "kuhn(players=2)")


@pytest.mark.slow
def test_ranges_and_free_parameters_print_readably(cli):
    code, out, _ = cli("equilibria", "skp", "--symbolic-pot", "--pot-min", "5", "--json")
    rows = json.loads(out)["equilibria"]
    assert code == 0 and [r["region"] for r in rows][0] == "5 < P"
    assert all("Interval" not in r["description"] and "oo" not in r["description"] for r in rows)
    # Billingham at P = 5: P3's bluff is free in [0, 1/3]
    code, out, _ = cli("equilibria", "skp(pot=5)", "--json")
    (row,) = json.loads(out)["equilibria"]
    assert row["free"] == ["P3:1:kk"] and row["region"] == "0 <= P3:1:kk <= 1/3"
    assert "P3:1:kk free" in row["description"] and "P3_1_kk" not in json.dumps(row)


def test_pot_min_needs_symbolic_pot(one_line_error):
    assert "--symbolic-pot" in one_line_error("equilibria", "skp", "--pot-min", "5")
    assert "--pot-min" in one_line_error("equilibria", "skp", "--symbolic-pot", "--pot-min", "x")
    err = one_line_error("equilibria", "skp", "--symbolic-pot", "--pot-min", "1e999999999")
    assert "--pot-min" in err
