"""``toypoker sweep --param`` ranges: an error names the rule broken (issue 35 item 5)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "grid, rule",
    [
        ("pot=2:4:0", "STEPS is how many values, a whole number of at least 1, not '0'"),
        ("pot=2:4:0.5", "STEPS is how many values, a whole number of at least 1, not '0.5'"),
        ("pot=2:4:x", "STEPS is how many values, a whole number of at least 1, not 'x'"),
        ("pot=a:4:3", "LO must be an exact number (like 2, -1.5, 3/2 or 2e-3), not 'a'"),
        ("pot=2:nan:3", "HI must be an exact number (like 2, -1.5, 3/2 or 2e-3), not 'nan'"),
        ("pot=2:4", "a range is LO:HI:STEPS, three parts separated by ':', not 2"),
    ],
)
def test_a_bad_range_names_the_rule_it_breaks(one_line_error, grid, rule):
    # before: every one of these said "LO:HI:STEPS needs exact numbers" -- a wrong STEPS
    # blamed the exact numbers
    err = one_line_error("sweep", "solve", "kuhn()", "--param", grid, "--scheduler", "serial")
    assert err == f"toypoker: error: --param {grid}: {rule}\n"
