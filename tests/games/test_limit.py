"""The limit-game builder (src/toypoker/games/limit.py): the public betting tree built
with an explicit stack (issue 24, "Limits": "never recurse without bound")."""

from __future__ import annotations

import hashlib
import sys

import pytest

from toypoker.definition import GameDefinition
from toypoker.games import (
    GAMES,
    load_rows,  # the deal table: these tests read its rows
)
from toypoker.spec import parse_spec

# (spec, sha256 prefix of the tree, public nodes, estimate_size's (deals, nodes, players)):
# the recursive builder's output, recorded with it before the stack replaced the recursion
# (raise-cap and orbit betting, blinds, suit-isomorphic boards, numeric forms, 3 rounds)
RECURSIVE_OUTPUT = [
    ("kuhn(players=3)", "c41aa63de4dd0931", 25, (24, 25, 3)),
    ("kuhn_third_street()", "b226519e357b1326", 9, (24, 9, 3)),
    ("leduc(players=3)", "1bacca63f53215a9", 4376, (204, 4376, 3)),
    ("mercer(players=3,variant=smh)", "d65dfe7746b400e8", 73, (46180, 73, 3)),
    ("mercer(players=2,variant=mmh)", "b6773c3cdf38701d", 144, (3310, 144, 2)),
    ("holdem(players=2,ranks=4,suits=2,rounds=2,cap1=5,cap2=3,bet1=1/2,ante=1/3)",
     "6c7cbcd880bec48f", 957, (60, 957, 2)),
    ("holdem(players=3,ranks=4,suits=1,rounds=2,check=false,orbits1=2,orbits2=1,first2=2)",
     "84c27daa887d0805", 209, (24, 209, 3)),
    ("holdem(players=2,ranks=3,suits=2,rounds=1,cap1=100,evaluator=high_card)",
     "433b009e8e9666ce", 603, (9, 603, 2)),
    ("holdem(players=2,ranks=4,suits=2,rounds=2,blind1=1,blind2=2,ante=0,cap1=4,"
     "evaluator=high_card)", "40c01a55f36c45e8", 568, (60, 568, 2)),
]  # fmt: skip


def _built(spec: str) -> tuple[GameDefinition, tuple[int, int, int] | None]:
    """The builder's definition of ``spec`` and its size counted without building."""
    parsed = parse_spec(spec)
    info = GAMES[parsed.name]
    params = info.validate(parsed.as_dict())
    return info.build(params), info.size(params, None)


def tree_hash(d: GameDefinition) -> str:
    """sha256 (16 hex digits) of every field of every public node, in id order."""
    h = hashlib.sha256(f"root={d.root};n={len(d.nodes)};".encode())
    for n in d.nodes:
        h.update(repr((n.kind, n.actor, n.actions, n.children, n.committed, n.live, n.history,
                       n.round, n.board, n.reveal, n.child_values, n.chips)).encode())  # fmt: skip
    return h.hexdigest()[:16]


@pytest.mark.parametrize("spec,digest,nodes,size", RECURSIVE_OUTPUT, ids=lambda v: str(v)[:40])
def test_the_stack_builds_the_trees_the_recursion_built(spec, digest, nodes, size):
    d, counted = _built(spec)
    assert len(d.nodes) == nodes and counted == size
    assert tree_hash(d) == digest


def _depth() -> int:
    frame, n = sys._getframe(), 0
    while frame is not None:
        frame, n = frame.f_back, n + 1
    return n


def test_a_deep_betting_round_needs_no_recursion():
    # cap1=100: 100 bets and raises in one round, a public tree 102 levels deep (the
    # recursive builder needed a frame per level: RecursionError with 40 frames to spare)
    spec = "holdem(players=2,ranks=3,suits=1,rounds=1,cap1=100,evaluator=high_card)"
    load_rows("kuhn")  # the imports (and their frames) done before the limit is lowered
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_depth() + 40)
    try:
        d, _ = _built(spec)
        game = load_rows(spec)
    finally:
        sys.setrecursionlimit(limit)
    deepest = max(len(n.history) for n in d.nodes)
    assert deepest == 102  # the longest history: check, bet, 99 raises, call or fold
    # one card of 3 ranks each: every public decision node is 3 infosets of its actor
    assert game.n_infosets == len([n for n in d.nodes if n.kind == "decision"]) * 3
