"""A strong team merged into one player on the vector layout (collusion).

A strong team sees its members' cards and shares one payoff; merged
(:func:`toypoker.games.team_transform.merge_team`) it is one player whose private state
is the ordered pair of its members' hands (own, partner's).  The layout keeps one
index space for both players of the merged game: indices ``[0, P)`` are the team's
hand pairs and ``[P, P + H)`` the outsider's hands (``VectorGame.merged``); each
player's reach, strategy and values live on her own range (the other's range is
cut by the compatibility tensor, which is zero there).  Showdowns are the dense
product over (team pair, outsider hand): the three seats' strengths and live flags
give each seat's share of the pot, mixed by the merged game's payoff map (the team
receives both members' shares), on the block (team pairs x outsider hands) only.

:func:`compile_merged` builds it from the merged row game and the uncolluded game's
vector layout (boards, weights and strengths are those of the three seats).  Scope:
three players, a rank deck (no suit isomorphism), any number of hole cards alike
(3P-SMH: 29,070 team pairs of its 190 hands); the numpy reference runs it (no fused
kernel), ``O(P H)`` a terminal.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from toypoker.engines.vectors.assembly import mark_edges
from toypoker.engines.vectors.layout import VectorGame, check_payoff_map, compile_vector
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.games import load_rows, parse_game_spec
from toypoker.games.team_transform import Team
from toypoker.spec import format_spec


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
    if len({len(g) for gs in d.hole_groups for g in gs}) != 1 or int(d.suits):
        raise _refuse(game, "a merged team needs a rank deck, hole cards alike (--layout rows)")
    info, params, _ = parse_game_spec(game.spec)
    base = compile_vector(load_rows(format_spec(info.name, params)))
    if len(base.node_board) != len(game.nodes):
        raise _refuse(game, "its tree differs from the uncolluded game's")
    lead, partner = team.seats
    out = next(q for q in range(3) if q not in team.seats)
    seat_of = team.merged_seat(3)
    t_player, o_player = seat_of[lead], seat_of[out]
    hb, k = base.hands.shape
    bc = base.hand_cards.astype(np.int64)
    pairs = np.argwhere((bc @ bc.T) == 0).astype(np.int64)  # ordered, holding no card twice
    n_pairs = len(pairs)
    hh = n_pairs + hb
    lo_hi = {t_player: (0, n_pairs), o_player: (n_pairs, hh)}
    pair_of = np.concatenate([pairs + n_pairs, np.stack([np.arange(hb) + n_pairs,
                                                         -np.ones(hb, np.int64)], 1)])  # fmt: skip
    hands = np.full((hh, 2 * k), -1, dtype=np.int64)
    hands[:n_pairs] = np.concatenate([base.hands[pairs[:, 0]], base.hands[pairs[:, 1]]], 1)
    hands[n_pairs:, :k] = base.hands
    hand_cards = np.concatenate([base.hand_cards[pairs[:, 0]] | base.hand_cards[pairs[:, 1]],
                                 base.hand_cards])  # fmt: skip
    compat = np.concatenate(
        [base.board_compat[:, pairs[:, 0]] & base.board_compat[:, pairs[:, 1]], base.board_compat],
        axis=1,
    )
    strength = np.concatenate([base.strength[:, pairs[:, 0]], base.strength], axis=1)
    # infosets: the actor's private observation (1-based values; the team: own, partner's)
    value = base.card_value[hands.clip(0)] + 1
    by_key = {(i.node, i.private): i.index for i in game.infosets}
    hand_infoset = np.full((len(game.nodes), hh), -1, dtype=np.int32)
    for node in game.nodes:
        if node.kind != "decision":
            continue
        lo, hi = lo_hi[node.actor]
        ok = compat[base.node_board[node.id]]
        row = np.full(hh, -1, dtype=np.int32)
        for h in range(lo, hi):
            if ok[h]:
                key = tuple(int(x) for x in value[h, : 2 * k if h < n_pairs else k])
                idx = by_key.get((node.id, key))
                if idx is None:
                    raise _refuse(game, f"no infoset for a hand at node {node.history!r}")
                row[h] = idx
        hand_infoset[node.id] = row
    edge_sigma, edge_player = mark_edges(game, hand_infoset)
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
    """The compatibility block over (player 0's range, player 1's range) -- a team pair
    against an outsider hand holding none of its cards -- and each original seat's
    ``(wins, count)`` there at a showdown (none at a fold), as
    :func:`toypoker.engines.vectors.terminal_values.pot_shares` gives them over a full
    product (small integers: ``int8``)."""
    m = vg.merged
    assert m is not None
    pairs = m.pair_of
    team_axis = m.team
    tlo, thi = m.ranges[team_axis]
    olo, ohi = m.ranges[1 - team_axis]
    cards = vg.hand_cards.astype(np.int8)
    one = (cards[olo:ohi] @ cards[olo:ohi].T) == 0  # outsider-range hands apart
    lead_of, partner_of = pairs[tlo:thi, 0] - olo, pairs[tlo:thi, 1] - olo
    block = (one[lead_of] & one[partner_of]).astype(np.int8)  # (team pairs, outsider hands)

    def oriented(x: np.ndarray) -> np.ndarray:  # (team, outsider) -> (player 0, player 1)
        return x if team_axis == 0 else np.swapaxes(x, -1, -2)

    if sum(live) < 2:
        return [oriented(block)]
    st = vg.strength[board]
    low = np.iinfo(np.int64).min
    lead, partner, out = m.seats
    col = {lead: st[pairs[tlo:thi, 0]][:, None], partner: st[pairs[tlo:thi, 1]][:, None],
           out: st[olo:ohi][None, :]}  # fmt: skip
    grids = [col[q] if live[q] else np.full((1, 1), low) for q in range(3)]
    top = np.maximum(np.maximum(grids[0], grids[1]), grids[2])
    shape = (thi - tlo, ohi - olo)
    wins = [np.broadcast_to(g == top, shape) for g in grids]
    count = sum(w.astype(np.int8) for w in wins)
    return [oriented(block), *(oriented(np.stack([w.astype(np.int8), count])) for w in wins)]
