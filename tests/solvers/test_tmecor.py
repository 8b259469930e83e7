"""Team-optimal play in the flat API (issue 33, item 3): ``tp.solve(game, "tmecor")``.

Expected values: three-player Kuhn poker with four cards and win sharing, the team's
TMECor value for each team -- -1/24 (team 12), 7/264 (team 13), 5/132 (team 23) --
as ``tests/teams/test_tmecor.py`` pins them (there checked against a brute-force
enumeration of the team's joint plans, an independent path).  For five and six cards
the flat API must give the bracket ``tmecor()`` gives, exactly, with width 0.
"""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction as F

import pytest

import toypoker as tp
from toypoker.errors import ToypokerError
from toypoker.teams.tmecor import tmecor

FOUR = {"12": F(-1, 24), "13": F(7, 264), "23": F(5, 132)}


def test_listed_among_the_methods() -> None:
    assert "tmecor" in tp.METHODS and tp.METHODS["tmecor"].one_shot


@pytest.mark.parametrize("team", sorted(FOUR))
def test_four_cards_every_team_exact(team: str) -> None:
    g = tp.load_game(f"kuhn(players=3,cards=4,team={team},sharing=win)")
    r = tp.solve(g, "tmecor")
    b = r.bracket
    assert b.certified and b.lower == b.upper == FOUR[team] and b.width == 0
    assert r.method == "tmecor" and r.exact and r.certified and r.profile is None
    # each seat's exact value with the mixture against the outsider's strategy: the
    # team's sum is the TMECor value; the game is zero-sum
    assert sum(r.value_exact[q] for q in b.team) == FOUR[team]
    assert sum(r.value_exact) == 0
    assert sum(b.weights) == 1 and all(w > 0 for w in b.weights)


@pytest.mark.parametrize("cards", [5, pytest.param(6, marks=pytest.mark.slow)])
def test_more_cards_match_the_column_generation(cards: int) -> None:
    for team in ("12", "13", "23"):
        spec = f"kuhn(players=3,cards={cards},team={team},sharing=win)"
        r = tp.solve(tp.load_game(spec), "tmecor")  # auto may pick hand vectors: rows reloaded
        ref = tmecor(tp.load_game(spec, layout="rows"))  # the column generation itself
        assert r.bracket.certified and r.bracket.lower == ref.lower == ref.upper


def test_team_argument_and_refusals() -> None:
    g = tp.load_game("kuhn(players=3,cards=4)")  # no team in the spec
    r = tp.solve(g, "tmecor", team=(1, 2))  # 0-based seats; the payoffs are the spec's
    assert r.bracket.team == (1, 2) and r.bracket.certified
    with pytest.raises(ToypokerError, match="has no team"):
        tp.solve(g, "tmecor")
    with pytest.raises(ToypokerError, match="one outsider"):
        tp.solve(tp.load_game("kuhn(players=4,cards=5)"), "tmecor", team="12")
    with pytest.raises(ToypokerError, match="oracle must be one of"):
        tp.solve(g, "tmecor", team="23", oracle="guess")


def test_json_carries_the_bracket() -> None:
    r = tp.solve(tp.load_game("kuhn(players=3,cards=4,team=23,sharing=win)"), "tmecor")
    data = r.to_json_dict()
    assert data["bracket"]["lower"] == "5/132" and data["bracket"]["exact"] is True


def test_cli_solve_prints_what_collusion_tmecor_prints() -> None:
    spec = "kuhn(players=3,cards=4,team=13,sharing=win)"
    run = [sys.executable, "-m", "toypoker"]

    def body(args: list[str]) -> str:
        out = subprocess.run(run + args, capture_output=True, text=True, timeout=300, check=True)
        return re.sub(r"[\d.]+ s;", "T s;", out.stdout)  # the wall time differs

    assert body(["solve", spec, "--method", "tmecor"]) == body(["collusion", "tmecor", spec])
    assert "7/264" in body(["solve", spec, "--method", "tmecor"])
