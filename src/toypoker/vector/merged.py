"""A strong team merged into one player on the vector layout (collusion, issue 21).

A strong team sees its members' cards and shares one payoff; merged
(:func:`toypoker.games.collusion.merge_team`) it is one player whose private state
is the ordered pair of its members' hands (own, partner's).  The layout keeps one
index space for both players of the merged game: indices ``[0, P)`` are the team's
hand pairs and ``[P, P + H)`` the outsider's hands (``VectorGame.merged``); each
player's reach, strategy and values live on her own range (the other's range is
cut by the compatibility tensor, which is zero there).  Showdowns are the dense
product over (team pair, outsider hand): the three seats' strengths and live flags
give each seat's share of the pot, mixed by the merged game's payoff map (the team
receives both members' shares).

:func:`compile_merged` builds it from the merged row game and the uncolluded game's
vector layout (boards, weights and strengths are those of the three seats).  Scope:
three players, one hole card a seat, a rank deck (no suit isomorphism); the numpy
reference runs it (no fused kernel), ``O(P H)`` a terminal.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..errors import ToypokerError
from ..game import Game
from ..games import load_game, parse_game_spec
from ..games.collusion import Team
from ..spec import format_spec
from .layout import VectorGame, check_payoff_map, compile_vector, mark_infosets


@dataclass(frozen=True)
class Merged:
    """The merged team's index space.

    Attributes
    ----------
    team : the merged player of the team; ``seats`` (lead, partner, outsider)
        original seats; ``ranges`` each merged player's ``[lo, hi)`` of indices
    pair_of : (indices, 2) for a team pair its members' hands as outsider-range
        indices (lead's, partner's), for an outsider hand ``(itself, -1)``
    """

    team: int
    seats: tuple[int, int, int]
    ranges: tuple[tuple[int, int], ...]
    pair_of: np.ndarray


def _refuse(game: Game, why: str) -> ToypokerError:
    return ToypokerError(f"the vector layout cannot express {game.spec}: {why}")


def compile_merged(game: Game) -> VectorGame:
    """The vector layout of a three-player game whose strong team is merged (see the
    module docstring).

    Raises
    ------
    ToypokerError
        One line for anything else (four or more seats, two or more hole cards, a
        suited deck), naming ``--layout rows``.
    """
    d = game.definition
    team = Team.of_params(game.params)
    if team is None or not game.params.get("merge") or d.hole_groups is None:
        raise _refuse(game, "not a merged strong team (--layout rows)")
    seats3 = len(game.nodes[0].committed)
    if seats3 != 3 or len(team.seats) != 2:
        raise _refuse(game, "a merged team needs three seats (--layout rows)")
    if any(len(g) != 1 for gs in d.hole_groups for g in gs) or int(d.suits):
        raise _refuse(game, "a merged team needs one hole card a seat, a rank deck (--layout rows)")
    info, params, _ = parse_game_spec(game.spec)
    base = compile_vector(load_game(format_spec(info.name, params)))
    if len(base.node_board) != len(game.nodes):
        raise _refuse(game, "its tree differs from the uncolluded game's")
    lead, partner = team.seats
    out = next(q for q in range(3) if q not in team.seats)
    seat_of = team.merged_seat(3)
    t_player, o_player = seat_of[lead], seat_of[out]
    hb = base.n_hands
    pairs = np.array([(a, b) for a in range(hb) for b in range(hb) if a != b], dtype=np.int64)
    n_pairs = len(pairs)
    hh = n_pairs + hb
    lo_hi = {t_player: (0, n_pairs), o_player: (n_pairs, hh)}
    pair_of = np.concatenate([pairs + n_pairs, np.stack([np.arange(hb) + n_pairs,
                                                         -np.ones(hb, np.int64)], 1)])  # fmt: skip
    card = base.hands[:, 0]
    hands = np.full((hh, 2), -1, dtype=np.int64)
    hands[:n_pairs] = card[pairs]
    hands[n_pairs:, 0] = card
    hand_cards = np.zeros((hh, base.n_cards), dtype=bool)
    hand_cards[np.arange(hh), hands[:, 0]] = True
    hand_cards[np.arange(n_pairs), hands[:n_pairs, 1]] = True
    compat = np.concatenate(
        [base.board_compat[:, pairs[:, 0]] & base.board_compat[:, pairs[:, 1]], base.board_compat],
        axis=1,
    )
    strength = np.concatenate([base.strength[:, pairs[:, 0]], base.strength], axis=1)
    # infosets: the actor's private observation (1-based values; the team: own, partner's)
    value = base.card_value[hands.clip(0)] + 1
    by_key = {(i.node, i.private): i.index for i in game.infosets}
    hand_infoset = np.full((len(game.nodes), hh), -1, dtype=np.int32)
    edge_sigma = np.full((len(game.nodes), hh), -1, dtype=np.int32)
    edge_player = np.full(len(game.nodes), -1, dtype=np.int64)
    for node in game.nodes:
        if node.kind != "decision":
            continue
        lo, hi = lo_hi[node.actor]
        ok = compat[base.node_board[node.id]]
        row = np.full(hh, -1, dtype=np.int32)
        for h in range(lo, hi):
            if ok[h]:
                key = tuple(int(x) for x in value[h, : 2 if h < n_pairs else 1])
                idx = by_key.get((node.id, key))
                if idx is None:
                    raise _refuse(game, f"no infoset for a hand at node {node.history!r}")
                row[h] = idx
        mark_infosets(game, node, row, (hand_infoset, edge_sigma, edge_player))
    payoff = check_payoff_map(game, d.payoff_a, d.payoff_b, seats=3)
    vg = dataclasses.replace(
        base,
        game=game,
        n_players=2,
        hands=hands,
        hand_cards=hand_cards,
        board_compat=compat,
        edge_sigma=edge_sigma,
        edge_player=edge_player,
        hand_infoset=hand_infoset,
        strength=strength,
        hand_count=compat.astype(np.float64),
        payoff=payoff,
        merged=Merged(
            t_player, (lead, partner, out), tuple(lo_hi[p] for p in range(2)), pair_of
        ),  # fmt: skip
        cache={},
    )
    for v in (hands, hand_cards, compat, edge_sigma, edge_player, hand_infoset, strength):
        v.flags.writeable = False
    return vg


def merged_tensors(vg: VectorGame, board: int, live: tuple[bool, ...]) -> list[np.ndarray]:
    """The compatibility tensor over (player 0's index, player 1's index) -- team pair
    against an outsider hand holding none of its cards, zero off the players' ranges --
    and each original seat's ``(wins, count)`` at a showdown (none at a fold), as
    :func:`toypoker.vector.values.pot_shares` gives them."""
    m = vg.merged
    assert m is not None
    hh = vg.n_hands
    team_axis = m.team
    pairs = m.pair_of
    tlo, thi = m.ranges[team_axis]
    olo, ohi = m.ranges[1 - team_axis]
    t_idx = np.arange(tlo, thi)
    o_idx = np.arange(olo, ohi)
    apart = (pairs[t_idx, 0][:, None] != o_idx[None, :]) & (pairs[t_idx, 1][:, None] != o_idx)
    compat = np.zeros((hh, hh), dtype=np.int64)
    block = apart.astype(np.int64)
    if team_axis == 0:
        compat[tlo:thi, olo:ohi] = block
    else:
        compat[olo:ohi, tlo:thi] = block.T
    if sum(live) < 2:
        return [compat]
    st = vg.strength[board]
    lead, partner, out = m.seats
    low = np.iinfo(np.int64).min
    idx = np.arange(hh)
    per_seat = {
        lead: st[pairs[:, 0]],
        partner: np.where(pairs[:, 1] >= 0, st[pairs[:, 1].clip(0)], low),
        out: st[idx],
    }
    axis_of = {lead: team_axis, partner: team_axis, out: 1 - team_axis}
    grids = []
    for q in range(3):
        x = per_seat[q] if live[q] else np.full(hh, low)
        grids.append(x[:, None] if axis_of[q] == 0 else x[None, :])
    top = np.maximum(np.maximum(grids[0], grids[1]), grids[2])
    wins = [np.broadcast_to(g == top, (hh, hh)) for g in grids]
    count = sum(w.astype(np.int64) for w in wins)
    return [compat, *(np.stack([w, count]) for w in wins)]
