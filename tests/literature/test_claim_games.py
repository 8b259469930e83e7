"""Every game the literature claims use has a spec that loads back to the same game
(issue 23: the bet-8 3P-SMH game was labelled ``mercer(...,bet=8)``, a spec
``load_game`` refused, so its profiles could not be reloaded)."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from toypoker.deal_table import compile_game
from toypoker.game import Game
from toypoker.games import canonical_spec, load_rows
from toypoker.games.hands import EVALUATORS
from toypoker.games.limit import Round, build_limit_game
from toypoker.literature import claims
from toypoker.literature.claims import ullman2015 as claims_ullman
from toypoker.literature.papers import billingham, szafron2013
from toypoker.literature.papers import ullman2015 as ullman_paper

#: every spec string the claims hand to ``Context.game`` (their modules' constants)
CLAIM_SPECS = sorted(
    {
        "kuhn(players=2)",
        szafron2013.GAME_SPEC,
        billingham.third_street_spec(Fraction(5)),
        billingham.skp_spec(Fraction(9)),
        *ullman_paper.SPEC.values(),
        claims_ullman.BET8_SPEC,
        # the collusion games of Table 7/8 and his 3P-SMH runs (written out: the claims
        # build them with the collusion study's collusion_spec)
        "mercer(players=3,variant=smh,team=12,sharing=win,strong=false)",
        "mercer(players=3,variant=smh,team=23,sharing=win,strong=true)",
        "mercer(players=3,variant=mmh,team=12,sharing=win,strong=false)",
    }
)
#: small enough to compile twice in a quick test (3P-MMH: ~6 million rows)
SMALL = [s for s in CLAIM_SPECS if "mmh" not in s or "players=2" in s]


def _same_game(a: Game, b: Game) -> bool:
    """Same deals, tree, infosets and payoffs, array for array."""
    names = ("cards", "weight_num", "row_deal", "parent_row", "edge_sigma", "term_u", "obs")
    return (
        a.spec == b.spec
        and a.weight_den == b.weight_den
        and [i.label for i in a.infosets] == [i.label for i in b.infosets]
        and all(np.array_equal(getattr(a, n), getattr(b, n)) for n in names)
    )


@pytest.mark.parametrize("spec", CLAIM_SPECS)
def test_claim_specs_have_a_canonical_spec_that_reloads(spec: str) -> None:
    # without compiling: the canonical spec (what the Game carries) is a fixed point
    canonical = canonical_spec(spec)
    assert canonical_spec(canonical) == canonical


@pytest.mark.parametrize("spec", SMALL)
def test_claim_games_reload_to_the_same_game(spec: str) -> None:
    g = load_rows(spec)
    assert g.spec == canonical_spec(spec)
    assert _same_game(g, load_rows(g.spec))


def test_bet8_smh_is_mercer_with_a_bet_parameter() -> None:
    # independent path: the limit builder with Ullman's Mercer rules and 8-chip bets
    # (Ullman 2015, Sec. 4.2: ante 1, two hole cards, one bet-or-fold orbit, flop of 2)
    rounds = [
        Round(board=0, bet=Fraction(8), max_bets=0, hole=2, orbits=1, check=False),
        Round(board=2, bet=Fraction(8), max_bets=0, orbits=0, check=False),
    ]
    definition = build_limit_game(
        name="mercer",
        params={"players": 3, "variant": "smh", "bet": 8},
        n_players=3,
        multiplicity=[4] * 5,
        rounds=rounds,
        ante=Fraction(1),
        hole_cards=2,
        evaluator=EVALUATORS["ullman4"],
    )
    by_hand = compile_game(definition, claims_ullman.BET8_SPEC)
    assert _same_game(load_rows(claims_ullman.BET8_SPEC), by_hand)
    # the default bet is left out of the spec: one game, one spec
    assert canonical_spec("mercer(players=3,variant=smh,bet=4)") == ullman_paper.SPEC["3P-SMH"]
    assert not _same_game(load_rows(ullman_paper.SPEC["3P-SMH"]), by_hand)


def test_claims_build_no_game_by_hand() -> None:
    # every Game of a claim comes from a spec (Context.game -> load_game), so its spec
    # reloads it; a Game(...) or compile_game(...) in a claims module would bypass that
    folder = Path(claims.__file__).parent
    built = [
        f"{path.name}:{node.lineno}"
        for path in sorted(folder.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("Game", "compile_game")
    ]
    assert built == []
