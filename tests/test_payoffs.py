"""Terminal payoff tables (``toypoker.payoffs``), checked row by row by brute force."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from toypoker.blocks import deal_blocks
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.payoffs import payoffs, payoffs_exact


@pytest.mark.parametrize("spec", ["leduc", "kuhn(players=3)", "mercer(players=2,variant=smh)"])
def test_payoffs_equal_a_row_by_row_showdown(spec):
    # brute force: at each terminal row the strongest live players split the pot
    # (definition.strength), each pays what it committed at the node (no transform
    # in these games); leduc and mercer have ties, so split pots are exercised
    g = load_rows(spec)
    d = g.definition
    assert d.payoff_a is None and d.payoff_b is None
    exact = g.term_u_exact
    ties = 0
    for col, row in enumerate(g.term_rows):
        node = g.nodes[g.row_node[row]]
        deal = g.row_deal[row]
        live = [p for p in range(g.n_players) if node.live[p]]
        best = max(d.strength[p, deal] for p in live)
        winners = [p for p in live if d.strength[p, deal] == best]
        ties += len(winners) > 1
        pot = sum(node.committed, F(0))
        for p in range(g.n_players):
            share = pot / len(winners) if p in winners else F(0)
            assert exact[p, col] == share - node.committed[p]
    assert ties > 0 or spec == "kuhn(players=3)"
    # the float table is the exact one in floats (denominators 1, 2 or 3 here)
    assert np.array_equal(g.term_u, exact.astype(np.float64))


def test_payoff_functions_take_any_chips():
    # the same winners with every chip doubled: payoffs double (u is linear in chips)
    g = load_rows("leduc")
    chips = [nd.committed for nd in g._term_nodes]
    doubled = [tuple(2 * c for c in cs) for cs in chips]
    terminals = g._terminals
    assert (payoffs_exact(terminals, g.definition, doubled) == 2 * g.term_u_exact).all()
    assert np.array_equal(payoffs(terminals, g.definition, doubled), 2 * g.term_u)


def test_deal_blocks_hold_each_deals_rows_in_depth_order():
    # independent path: the rows whose row_deal is d, in row order (rows are depth-sorted)
    g = load_rows("kuhn(players=3)")
    b = deal_blocks(g)
    for deal in range(g.n_deals):
        rows = b.order[b.start[deal] : b.start[deal + 1]]
        assert np.array_equal(rows, np.nonzero(g.row_deal == deal)[0])
        parents = g.parent_row[rows]
        local = b.local_parent[b.start[deal] : b.start[deal + 1]]
        assert np.array_equal(np.where(local >= 0, rows[local.clip(0)], -1), parents)
