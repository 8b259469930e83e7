"""ACPC gamedefs (interop/acpc.py): parsing, writing, round trips, errors, and
cross-checks with OpenSpiel's universal_poker on the same gamedefs.

Expected numbers come from the games themselves: a gamedef and the toypoker game
it describes (Kuhn 1950 as ``kuhn(players=n)``; Leduc hold'em, Southey et al.
2005, as ``leduc(players=n)``) must give identical infosets and payoffs, and
OpenSpiel's ``universal_poker`` (which runs ACPC's own game code) must give the
same expected values and NashConv for the same profile.
"""

import math
from pathlib import Path

import numpy as np
import pytest

from toypoker import SpecError, ToypokerError
from toypoker.evaluation import evaluate
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.interop.acpc import (
    format_gamedef,
    gamedef_of,
    gamedef_spec,
    load_gamedef,
    parse_gamedef,
    to_gamedef,
)
from toypoker.profile import Profile

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "acpc"
SMALL = ("kuhn", "leduc", "flush", "mercer3_checks")

LEDUC = """GAMEDEF
limit
numPlayers = 2
numRounds = 2
blind = 1 1
raiseSize = 2 4
firstPlayer = 1 1
maxRaises = 2 2
numSuits = 2
numRanks = 3
numHoleCards = 1
numBoardCards = 0 1
END GAMEDEF
"""

# three players, a board card: small enough for OpenSpiel's tree walk
LEDUC3_SMALL = (
    LEDUC.replace("numPlayers = 2", "numPlayers = 3")
    .replace("blind = 1 1", "blind = 1 1 1")
    .replace("maxRaises = 2 2", "maxRaises = 1 1")
)


def example(name: str) -> str:
    return (EXAMPLES / f"{name}.game").read_text()


def same_game(a, b, rng):
    """Identical infosets and identical values of random profiles."""
    assert [i.label for i in a.infosets] == [i.label for i in b.infosets]
    assert [i.actions for i in a.infosets] == [i.actions for i in b.infosets]
    for _ in range(3):
        p = Profile.random(a, rng)
        q = Profile(b, p.probs)
        assert np.allclose(evaluate(a, p).values, evaluate(b, q).values, rtol=0, atol=1e-12)


# ---------------------------------------------------------------- parsing


def test_leduc_gamedef_is_the_holdem_spec():
    gd = parse_gamedef(LEDUC)
    assert (gd.players, gd.rounds, gd.blinds, gd.raise_sizes) == (2, 2, (1, 1), (2, 4))
    assert gamedef_spec(gd) == (
        "holdem(players=2,ranks=3,suits=2,hole=1,rounds=2,ante=1,check=true,"
        "evaluator=standard,bet1=2,cap1=2,first1=1,board2=1,bet2=4,cap2=2,first2=1)"
    )


@pytest.mark.parametrize(
    ("name", "spec"),
    [("kuhn", "kuhn(players=2)"), ("leduc", "leduc(players=2)")],
)
def test_examples_are_kuhn_and_leduc(name, spec, game, rng):
    # Kuhn (1950) and Leduc (Southey et al. 2005): ante 1 = equal blinds of 1
    same_game(load_gamedef(example(name)), game(spec), rng)


def test_spec_from_text_and_flat_api():
    import toypoker as tp

    assert gamedef_spec(LEDUC) == gamedef_spec(parse_gamedef(LEDUC))
    g = tp.load_gamedef(LEDUC)
    assert g.spec == gamedef_spec(LEDUC) and tp.to_gamedef(g) == LEDUC
    assert load_rows(g.spec).spec == g.spec  # the spec is canonical and reloads


def test_keys_are_case_insensitive_and_comments_skipped():
    text = "# a comment\n" + LEDUC.replace("numPlayers", "NUMPLAYERS").replace("limit", "LIMIT")
    assert parse_gamedef(text) == parse_gamedef(LEDUC)


def test_first_player_defaults_to_seat_one():
    text = LEDUC.replace("firstPlayer = 1 1\n", "")
    assert parse_gamedef(text).first == (1, 1)


def test_blinds_become_ante_plus_seat_blinds():
    # ACPC's reverse blinds (heads-up: seat 1 big blind, seat 2 acts first pre-flop)
    spec = gamedef_spec(parse_gamedef(example("flush")))
    assert "ante=1,blind1=1," in spec and "first1=2," in spec
    three = LEDUC3_SMALL.replace("blind = 1 1 1", "blind = 5 10 0")
    assert "ante=0,blind1=5,blind2=10," in gamedef_spec(parse_gamedef(three))


# ---------------------------------------------------------------- writing, round trips


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.slow) if n in ("flush", "mercer3_checks") else n
        for n in SMALL
    ],
)
def test_example_round_trip(name):
    text = example(name)
    g = load_gamedef(text)
    out = to_gamedef(g)
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("#")) + "\n"
    assert out == body  # the examples are written in the canonical layout
    assert load_gamedef(out).spec == g.spec
    assert parse_gamedef(out) == parse_gamedef(text)


@pytest.mark.parametrize(
    "spec", ["kuhn(players=2)", "kuhn(players=3)", "kuhn(players=3,pot=3)", "leduc(players=2)"]
)
def test_export_of_kuhn_and_leduc_reloads_as_the_same_game(spec, game, rng):
    g = game(spec)
    back = load_gamedef(to_gamedef(g))
    same_game(g, back, rng)
    assert to_gamedef(back) == to_gamedef(g)


@pytest.mark.slow
def test_mercer_with_checks_ranks_hands_as_ullman():
    # Ullman (2015) Sec. 4.2: best four of 2 hole + 2 board cards, no straights or
    # flushes -- ACPC's ranking of four cards, so evaluator=standard is ullman4 here
    g = load_gamedef(example("mercer3_checks"))
    u = load_rows(g.spec.replace("evaluator=standard", "evaluator=ullman4"))
    s, t = g.definition.strength, u.definition.strength
    assert np.array_equal(np.sign(s[0] - s[1]), np.sign(t[0] - t[1]))
    assert np.array_equal(np.sign(s[1] - s[2]), np.sign(t[1] - t[2]))
    assert "blind = 1 1 1" in to_gamedef(u)


# ---------------------------------------------------------------- errors


def edit(old: str, new: str) -> str:
    assert old in LEDUC
    return LEDUC.replace(old, new)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (edit("numRounds = 2", "numRounds = 2\nante = 1"), "line 5: unknown key 'ante'"),
        (edit("raiseSize = 2 4", "raiseSize = 2"), "line 6: raiseSize needs 2 values"),
        (edit("blind = 1 1", "blind = 1 1 1"), "blind needs 2 values (one per player)"),
        (edit("limit", "nolimit"), "nolimit betting is not supported"),
        (edit("raiseSize = 2 4", "raiseSize = 2 0"), "raiseSize must be positive"),
        (edit("numRanks = 3", "numRanks = 14"), "numRanks must be 1..13"),
        (edit("numSuits = 2", "numSuits = 5"), "numSuits must be 1..4"),
        (edit("numRanks = 3", "numRanks = 1"), "deals 3 cards from a deck of 1 ranks x 2 suits"),
        (edit("numRounds = 2", "numRounds = 0"), "numRounds must be 1..4"),
        (edit("maxRaises = 2 2", "maxRaises = 2 x"), "maxRaises needs whole numbers"),
        (edit("numBoardCards = 0 1", "numBoardCards = 1 0"), "before the first betting round"),
        (edit("firstPlayer = 1 1", "firstPlayer = 3 1"), "firstPlayer must be seats 1..2"),
        (edit("numPlayers = 2", "numPlayers = 2 3"), "numPlayers takes one value"),
        (edit("maxRaises = 2 2\n", ""), "maxRaises missing"),
        (edit("limit\n", ""), "give the betting type"),
        (edit("END GAMEDEF\n", ""), "no END GAMEDEF"),
        (edit("END GAMEDEF\n", "END GAMEDEF\nlimit\n"), "text after END GAMEDEF"),
        ("numPlayers = 2\n", "must start with a line GAMEDEF"),
        (edit("blind = 1 1", "stack = 12 12\nblind = 1 1"), "stack 12 is below the 13 chips"),
        (edit("numRounds = 2", "numRounds = 2\nnumRounds = 2"), "numRounds given twice"),
    ],
)
def test_malformed_gamedef_is_one_clear_error(text, message):
    with pytest.raises(ToypokerError) as e:
        load_gamedef(text)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_blinds_of_later_seats_must_be_the_smallest():
    text = LEDUC3_SMALL.replace("blind = 1 1 1", "blind = 1 1 2")
    with pytest.raises(ToypokerError, match="seats 3 and later must post the smallest blind"):
        load_gamedef(text)


def test_stack_large_enough_is_accepted():
    # the most a player commits in Leduc: 1 + 2 x 2 + 2 x 4 = 13 chips
    assert parse_gamedef(edit("blind = 1 1", "stack = 13 13\nblind = 1 1")).players == 2


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mercer(players=2)", "bet-or-fold orbits"),
        ("holdem(check=false)", "checking disallowed"),
        ("kuhn(players=3,pot=2)", "ante 2/3 is not a whole number"),
        ("kuhn(players=2,bet=3/2)", "bet1 3/2 is not a whole number"),
        ("kuhn(players=2,cards=14)", "numRanks must be 1..13"),
        ("holdem(ranks=5,suits=2,hole=2,board2=3,cap1=1,cap2=0,evaluator=ullman4)", "ullman4"),
    ],
)
def test_export_refuses_what_acpc_cannot_express(spec, message, game):
    with pytest.raises(ToypokerError) as e:
        to_gamedef(game(spec))
    assert message in str(e.value) and "\n" not in str(e.value)


def test_export_refuses_collusion(game):
    try:
        g = game("kuhn(players=3,team=12)")
    except SpecError:
        pytest.skip("collusion parameters not available")
    with pytest.raises(ToypokerError, match="collusion"):
        to_gamedef(g)


def test_format_gamedef_writes_every_key():
    text = format_gamedef(gamedef_of(load_rows("leduc(players=2)")))
    assert text == LEDUC


# ---------------------------------------------------------------- OpenSpiel universal_poker


def up_check(text: str, seeds, nash_conv: bool = True):
    pyspiel = pytest.importorskip("pyspiel")
    from toypoker.interop.acpc import universal_poker_game, universal_poker_policies

    gd, g = parse_gamedef(text), load_gamedef(text)
    os_game = universal_poker_game(gd)
    # the uniform profile, then random ones; OpenSpiel's tree walked once for all
    profiles = [Profile.uniform(g)] + [Profile.random(g, np.random.default_rng(s)) for s in seeds]
    tables = universal_poker_policies(profiles, gd, os_game)
    for p, table in zip(profiles, tables, strict=True):
        ours = evaluate(g, p)
        pol = pyspiel.TabularPolicy(table)
        values = pyspiel.expected_returns(os_game.new_initial_state(), pol, -1, True)
        assert np.allclose(values, ours.values, rtol=0, atol=1e-12)
        if nash_conv:
            assert pyspiel.nash_conv(os_game, pol) == pytest.approx(ours.nash_conv, abs=1e-12)


@pytest.mark.peer
@pytest.mark.parametrize(
    "text",
    [
        pytest.param(example("kuhn"), id="kuhn"),
        pytest.param(example("leduc"), id="leduc"),
        pytest.param(LEDUC3_SMALL, id="leduc3-one-raise", marks=pytest.mark.slow),
        pytest.param(to_gamedef(load_rows("kuhn(players=3)")), id="kuhn3"),
        # no bets before the board: forced checks, then a betting round
        pytest.param(LEDUC.replace("maxRaises = 2 2", "maxRaises = 0 2"), id="leduc-cap0"),
    ],
)
def test_universal_poker_values_and_nash_conv(text):
    up_check(text, seeds=(1, 2, 3))


@pytest.mark.peer
def test_universal_poker_reverse_blinds():
    # blind = 2 1, seat 2 first pre-flop: the big blind has the option to raise
    text = LEDUC.replace("blind = 1 1", "blind = 2 1").replace(
        "firstPlayer = 1 1", "firstPlayer = 2 1"
    )
    up_check(text, seeds=(4, 5))


@pytest.mark.peer
@pytest.mark.slow
def test_universal_poker_flushes_values():
    # five cards (1 hole + 4 board) of 5 ranks x 2 suits: straights and flushes
    # decide showdowns (pokerkit vs ACPC's evaluator).  No betting after the board,
    # so OpenSpiel's tree walk stays near 1.5 million states (about 5 s); its
    # NashConv needs about 6 GB and 3 minutes here, so only values are compared.
    text = example("flush").replace("maxRaises = 1 1", "maxRaises = 1 0")
    up_check(text, seeds=(1,), nash_conv=False)


@pytest.mark.peer
@pytest.mark.slow
def test_universal_poker_three_player_mercer_with_checks_values():
    # Mercer Hold'em's shape (Ullman 2015, Sec. 4.2: 2 hole + 2 board cards, best
    # four, ante 1, bet 4) with ACPC limit betting (checks, one bet before the board,
    # checks after it: the example as shipped) on a deck of 4 ranks x 2 suits, all
    # eight cards dealt, so every three-player showdown of best fours is compared.
    # OpenSpiel's NashConv runs out of memory (6 GB), so values only.  A bet after the
    # board too made OpenSpiel's tree 7.1 million states (100 s of this test in the
    # suite); betting after a board is compared on Leduc above.
    text = example("mercer3_checks")
    text = text.replace("numSuits = 4", "numSuits = 2").replace("numRanks = 5", "numRanks = 4")
    up_check(text, seeds=(1,), nash_conv=False)


def up_deal_values(os_game, gd, profile, deal):
    """OpenSpiel's expected returns of ``universal_poker`` given one deal (the chance
    nodes deal ``deal``'s cards in order: each player's hole cards, then the boards),
    with ``profile`` played at every information state (our label, canonicalised)."""
    from toypoker.interop.acpc import UP_CALL, UP_FOLD, UP_RAISE, universal_poker_label

    game = profile.game
    letters = {"k": UP_CALL, "c": UP_CALL, "b": UP_RAISE, "r": UP_RAISE, "f": UP_FOLD}

    def walk(state, k):
        if state.is_terminal():
            return np.array(state.returns())
        if state.is_chance_node():
            return walk(state.child(int(deal[k])), k + 1)
        label, forced = universal_poker_label(game, gd, state.information_state_string())
        if forced:
            return walk(state.child(UP_CALL), k)
        inf = game.infoset(label)
        probs = profile.probs[inf.offset : inf.offset + len(inf.actions)]
        return sum(
            float(x) * walk(state.child(letters[a]), k)
            for a, x in zip(inf.actions, probs, strict=True)
            if x
        )

    return walk(os_game.new_initial_state(), 0)


@pytest.mark.peer
@pytest.mark.slow
def test_universal_poker_four_suits_flushes_per_deal():
    # five cards (1 hole + 4 board) of 5 ranks x 4 suits: flushes and straights
    # decide showdowns.  Our game merges suit-isomorphic deals (1,162,800 deals ->
    # 53,500 orbits); OpenSpiel's whole tree (28 million chance paths) is out of reach,
    # so deals are drawn at random and OpenSpiel's value given each deal is compared
    # with our row of the deal's orbit, for the uniform and a random profile.
    pyspiel = pytest.importorskip("pyspiel")
    from toypoker.definition import suit_canonical
    from toypoker.engines.rows.values import backward_values, edge_probabilities
    from toypoker.interop.acpc import universal_poker_game

    text = example("flush").replace("numSuits = 2", "numSuits = 4")
    gd, g = parse_gamedef(text), load_gamedef(text, max_bytes=2**34)
    assert pyspiel is not None and g.n_deals == 53_500
    assert g.summary()["deals_without_suit_isomorphism"] == 20 * 19 * 3060
    os_game = universal_poker_game(gd)
    d = g.definition
    groups = [list(b) for b in d.board_slots if b] + [list(h) for h in d.hole_slots]
    order = [c for grp in groups for c in grp]
    row_of = {tuple(r): i for i, r in enumerate(g.cards[:, order].tolist())}
    root = slice(int(g.depth_start[0]), int(g.depth_start[1]))
    deal_row = dict(zip(g.row_deal[root].tolist(), range(root.start, root.stop), strict=True))
    rng = np.random.default_rng(12)
    deals = [rng.permutation(20)[:6] for _ in range(150)]
    # codes rank * 4 + suit (c, d, h, s): seat 1 holds 5c, seat 2 5d, the board
    # 2c 3c 4c 6c -- seat 1's straight flush beats seat 2's straight, and swapped
    flush = np.array([12, 13, 0, 4, 8, 16])
    deals += [flush, flush[[1, 0, 2, 3, 4, 5]]]
    for profile in (Profile.uniform(g), Profile.random(g, np.random.default_rng(3))):
        values = backward_values(g, edge_probabilities(g, profile.probs))
        for deal in deals:
            canon = suit_canonical(deal[None, :], groups, 4)[0]
            row = deal_row[row_of[tuple(canon.tolist())]]
            theirs = up_deal_values(os_game, gd, profile, deal)
            assert np.allclose(values[:, row], theirs, rtol=0, atol=1e-12)
    # the flush decides: under the uniform profile seat 1 wins on average holding 5c
    # and loses holding 5d
    u = Profile.uniform(g)
    a, b = (up_deal_values(os_game, gd, u, x)[0] for x in deals[-2:])
    assert a > 0 > b


# ---------------------------------------------------------------- boards in several rounds
# OpenSpiel 2.0.2 prints the board of universal_poker as a sorted card set: which card
# came in which round is not in the information state string once two rounds deal board
# cards, and two of our infosets (the same cards, dealt in the other order) share one
# string.  Our profile is then played at OpenSpiel's states by card identity (the
# state's chance outcomes), and OpenSpiel's tree, chance and payoffs are checked by a
# walk of that tree: values, and best responses grouped by our infosets.
BOARDS_1_1 = (
    LEDUC.replace("numRounds = 2", "numRounds = 3")
    .replace("raiseSize = 2 4", "raiseSize = 2 4 4")
    .replace("firstPlayer = 1 1", "firstPlayer = 1 1 1")
    .replace("maxRaises = 2 2", "maxRaises = 1 1 1")
    .replace("numBoardCards = 0 1", "numBoardCards = 0 1 1")
)
BOARDS_2_1 = (
    BOARDS_1_1.replace("numBoardCards = 0 1 1", "numBoardCards = 0 2 1")
    .replace("numRanks = 3", "numRanks = 4")
    .replace("maxRaises = 1 1 1", "maxRaises = 1 0 1")
)


def up_walk(os_game, gd, profiles):
    """Values and NashConv of each of ``profiles`` on OpenSpiel's tree: OpenSpiel's chance
    probabilities and returns, our strategy at each state (by card identity), and each
    player's best response chosen per our infoset (bottom-up: the states of one of
    our infosets lie at one depth of OpenSpiel's tree).  The tree is walked once for all
    the profiles (every action of a state is a child whatever its probability)."""
    from toypoker.interop.acpc import (
        universal_poker_action_probs,
        universal_poker_board,
        universal_poker_label,
    )

    n, skip = gd.players, gd.players * gd.hole
    nodes = {}  # history -> (player or -1 chance or None terminal, [child history],
    #                         returns, chance probabilities or the key of `mapped`)
    mapped = {}  # (information state string, board in deal order) -> (rows, label):
    #              each profile's [(action, prob)] and our label (None where forced)
    # the history and the chance outcomes are carried down the walk, not asked of each
    # state (the board is the chance outcomes after the hole cards, in deal order)
    stack = [(os_game.new_initial_state(), (), ())]
    while stack:
        state, key, dealt = stack.pop()
        if state.is_terminal():
            nodes[key] = (None, [], state.returns(), None)
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            nodes[key] = (-1, [key + (a,) for a, _ in outcomes], None, [p for _, p in outcomes])
            stack.extend((state.child(a), key + (a,), dealt + (a,)) for a, _ in outcomes)
            continue
        info = state.information_state_string()
        m = (info, dealt[skip:])
        if m not in mapped:
            board = list(dealt[skip:])
            assert universal_poker_board(gd, state) == board  # as read from its history
            rows = [universal_poker_action_probs(p, gd, state, board) for p in profiles]
            label, forced = universal_poker_label(profiles[0].game, gd, info, board)
            mapped[m] = (rows, None if forced else label)
        actions = [a for a, _ in mapped[m][0][0]]
        nodes[key] = (state.current_player(), [key + (a,) for a in actions], None, m)
        stack.extend((state.child(a), key + (a,), dealt) for a in actions)
    levels = {}  # depth -> the histories of that length
    for k in nodes:
        levels.setdefault(len(k), []).append(k)
    depths = sorted(levels, reverse=True)

    def walk_one(i):
        # each edge's probability and each node's reach per player times chance, top-down
        prob, reach = {}, {(): (1.0,) * (n + 1)}
        for depth in reversed(depths):
            for k in levels[depth]:
                player, kids, _, extra = nodes[k]
                if player is None:
                    continue
                probs = extra if player < 0 else [x for _, x in mapped[extra][0][i]]
                for child, x in zip(kids, probs, strict=True):
                    r = list(reach[k])
                    r[n if player < 0 else player] *= x
                    prob[child], reach[child] = x, tuple(r)

        def solve_for(p, best):
            v = {}
            for depth in depths:
                groups = {}
                for k in levels[depth]:
                    player, kids, returns, extra = nodes[k]
                    label = mapped[extra][1] if player is not None and player >= 0 else None
                    if player is None:
                        v[k] = returns[p]
                    elif player == p and best and label is not None:
                        cf = math.prod(reach[k][q] for q in range(n + 1) if q != p)
                        groups.setdefault(label, []).append((k, cf))
                    else:
                        v[k] = sum(prob[c] * v[c] for c in kids)
                for members in groups.values():
                    width = len(nodes[members[0][0]][1])
                    q = [sum(cf * v[nodes[k][1][j]] for k, cf in members) for j in range(width)]
                    j = int(np.argmax(q))
                    for k, _ in members:
                        v[k] = v[nodes[k][1][j]]
            return v[()]

        values = [solve_for(p, False) for p in range(n)]
        return values, sum(solve_for(p, True) - values[p] for p in range(n))

    return [walk_one(i) for i in range(len(profiles))]


@pytest.mark.peer
@pytest.mark.slow  # a Python walk of OpenSpiel's tree: about a minute each on a quiet machine
@pytest.mark.parametrize(
    "text",
    [pytest.param(BOARDS_1_1, id="3-rounds-1+1"), pytest.param(BOARDS_2_1, id="3-rounds-2+1")],
)
def test_universal_poker_boards_in_several_rounds(text):
    pyspiel = pytest.importorskip("pyspiel")
    from toypoker.interop.acpc import universal_poker_game, universal_poker_policy
    from toypoker.solvers import solve

    gd, g = parse_gamedef(text), load_gamedef(text)
    os_game = universal_poker_game(gd)
    lp = solve(g, "lp").profile
    rnd = Profile.random(g, np.random.default_rng(7))
    profiles = (Profile.uniform(g), rnd, lp)
    walks = up_walk(os_game, gd, profiles)  # OpenSpiel's tree walked once for the three
    for profile, (values, nash_conv) in zip(profiles, walks, strict=True):
        ours = evaluate(g, profile)
        assert np.allclose(values, [float(x) for x in ours.values], rtol=0, atol=1e-12)
        assert nash_conv == pytest.approx(float(ours.nash_conv), rel=0, abs=1e-12)
    assert walks[2][1] < 1e-9  # the LP profile is an equilibrium there too
    # OpenSpiel's own policy table cannot hold a profile that tells the orders apart:
    # it is refused, not filled with whichever infoset came first
    with pytest.raises(ToypokerError, match="joins infosets that differ"):
        universal_poker_policy(rnd, gd, os_game)
    # the uniform profile does not tell them apart: OpenSpiel's values agree
    pol = pyspiel.TabularPolicy(universal_poker_policy(Profile.uniform(g), gd, os_game))
    theirs = pyspiel.expected_returns(os_game.new_initial_state(), pol, -1, True)
    assert np.allclose(theirs, evaluate(g, Profile.uniform(g)).values, rtol=0, atol=1e-12)
