"""Pieces of the vector kernel (``toypoker.engines.vectors.pieces``, issue 36): a Dask worker of a
sharded solve holds the top and its subtrees only.  Run on a piece, the segment
functions give the whole kernel's numbers at the same nodes and actions, bit for bit,
and the pieces of a partition of the subtrees hold the game's nodes once each (plus the
top once a piece)."""

from __future__ import annotations

import numpy as np
import pytest

from toypoker import load_game
from toypoker.engines.evaluation import vector_of
from toypoker.engines.sharded import deal
from toypoker.engines.vectors.kernel import vector_kernel
from toypoker.engines.vectors.pieces import cut_piece
from toypoker.engines.vectors.subtrees import sub_reach, sub_step, weights

SPECS = [
    "rhode_island(ranks=4,suits=2)",
    "kuhn(players=3,cards=6)",
    "holdem(players=3,ranks=4,suits=2,hole=1,rounds=2,board2=1,evaluator=high_card)",
    "mercer(players=3,variant=mmh)",  # rank pairs: the dense terminals
]


@pytest.fixture(scope="module", params=SPECS)
def kernel(request: pytest.FixtureRequest):
    vg = vector_of(load_game(request.param, layout="vector"))
    k = vector_kernel(vg)
    assert k is not None
    return vg, k


def _sigma(vg, rng) -> np.ndarray:
    game = vg.game
    x = rng.random(game.n_sigma)
    return x / np.bincount(game.sigma_infoset, x)[game.sigma_infoset]


@pytest.mark.parametrize("k_pieces", [1, 3])
def test_pieces_compute_what_the_whole_kernel_does(kernel, k_pieces):
    vg, k = kernel
    rng = np.random.default_rng(5)
    sigma = _sigma(vg, rng)
    n = vg.n_players
    order, seg = k.parts[0], k.parts[1]
    reach, cfv, inst = k.work
    rule = k.rule(dict(pos_discount=1.0, neg_discount=0.0, floor=1.0, predictive=0.0,
                       predict_discount=1.0, predict_neg_discount=1.0, tolerance=0.0))  # fmt: skip
    dealt = deal(weights(k.parts), k_pieces)
    pieces = [cut_piece(k, s) for s in dealt]
    # the nodes: each subtree's in one piece, the top in all
    top = seg[1] - seg[0]
    assert sum(p.work[1].shape[0] - top for p in pieces) == vg.n_nodes - top
    for p in range(n):
        # the whole kernel: every player's reach, then p's values and regrets, no update
        regrets, average = np.zeros(len(sigma)), np.zeros(len(sigma))
        a = (sigma, regrets, average, inst, 1.0, rule, k.tree, k.terms, k.parts, k.infos,
             reach, cfv, k.sizes)  # fmt: skip
        for q in range(n):
            sub_reach(np.int64(0), q, sigma, k.tree, k.parts, reach[q])
        for s in range(1, len(seg) - 1):
            sub_step(np.int64(s), np.int64(-1), np.int64(p), np.int64(-2), *a)
        for subtrees, piece in zip(dealt, pieces, strict=True):
            # what the driver sends: the top's reach rows and the top's strategy
            preach, pcfv, pinst = piece.work
            local = np.zeros(piece.n_sigma)
            top_nodes = order[seg[0] : seg[1]]
            preach[:, piece.top_nodes_at, :] = reach[:, top_nodes, :]
            mine = np.sort(np.concatenate([
                np.arange(k.infos[5][i], k.infos[5][i + 1])
                for s in subtrees for i in k.parts[4][k.parts[5][s + 1] : k.parts[5][s + 2]]
            ] + [np.zeros(0, dtype=np.int64)])).astype(np.int64)  # fmt: skip
            top_infosets = k.parts[4][k.parts[5][0] : k.parts[5][1]]
            top_actions = np.sort(np.concatenate(
                [np.arange(k.infos[5][i], k.infos[5][i + 1]) for i in top_infosets]
                + [np.zeros(0, dtype=np.int64)])).astype(np.int64)  # fmt: skip
            local[piece.top_actions_at] = sigma[top_actions]
            local[piece.mine_at] = sigma[mine]
            zero = np.zeros(piece.n_sigma)
            b = (local, zero, zero.copy(), pinst, 1.0, rule, piece.tree, piece.terms,
                 piece.parts, piece.infos, preach, pcfv, piece.sizes)  # fmt: skip
            for s in range(1, len(subtrees) + 1):
                sub_step(np.int64(s), np.int64(-1), np.int64(p), np.int64(-2), *b)
            roots = order[seg[subtrees + 1]]
            assert np.array_equal(pcfv[piece.roots_at], cfv[roots])  # bit for bit
            assert np.array_equal(pinst[p][piece.mine_at], inst[p][mine])


def test_a_piece_holds_the_top_and_its_subtrees_only(kernel):
    # its nodes, terminals and flat actions: the top's plus its subtrees', counted
    vg, k = kernel
    seg, tseg, iorder, iseg = k.parts[1], k.parts[2], k.parts[4], k.parts[5]
    offset = k.infos[5]

    def acts(s):
        infosets = iorder[iseg[s] : iseg[s + 1]]
        return int((offset[infosets + 1] - offset[infosets]).sum())

    for half in deal(weights(k.parts), 2):
        piece = cut_piece(k, half)
        segs = [0, *(half + 1).tolist()]
        assert piece.work[1].shape == (sum(seg[s + 1] - seg[s] for s in segs), vg.n_hands)
        assert len(piece.terms[0]) == sum(tseg[s + 1] - tseg[s] for s in segs)
        assert piece.n_sigma == sum(acts(s) for s in segs) == piece.work[2].shape[1]
