"""The public Python API checks its arguments like the CLI does (issue 24).

Each case is one the issue's audit reports: before the fix it returned numbers
for another game's profile, or ended in ``AttributeError``, ``TypeError``,
``IndexError``, a bare ``ValueError``, ran 3 iterations for 2.5 or ran forever.
Now it raises the library's own error with one sentence naming the argument.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import toypoker as tp
from toypoker.errors import ProfileError, SpecError, ToypokerError


@pytest.fixture(scope="module")
def kuhn() -> tp.Game:
    return tp.load_game("kuhn(players=2)")


def _one_line(exc: pytest.ExceptionInfo) -> str:
    text = str(exc.value)
    assert "\n" not in text and 0 < len(text) <= 200, text
    return text


# ------------------------------------------------------------------ profiles
@pytest.mark.parametrize("other", ["kuhn(players=2,cards=4)", "kuhn(players=3)", "leduc"])
@pytest.mark.parametrize("fn", ["evaluate", "nash_conv", "best_response"])
def test_profile_of_another_game_is_refused(kuhn: tp.Game, other: str, fn: str) -> None:
    prof = tp.Profile.uniform(tp.load_game(other))
    args = (kuhn, prof, 0) if fn == "best_response" else (kuhn, prof)
    with pytest.raises(ProfileError, match="profile of .* not of kuhn") as exc:
        getattr(tp, fn)(*args)
    _one_line(exc)


def test_profile_of_the_same_tree_at_other_numbers_is_accepted(kuhn: tp.Game) -> None:
    """``game.at(pot=4)`` shares the tree: a profile of one is a profile of the other
    (independent path: the same numbers as the profile rebuilt on the game)."""
    g4 = kuhn.at(pot=4)
    prof = tp.Profile.uniform(kuhn, exact=True)
    assert tp.evaluate(g4, prof).values == tp.evaluate(g4, tp.Profile(g4, prof.probs)).values


@pytest.mark.parametrize("bad", [None, "uniform", 3, {"P1:1:": 1}, object()])
@pytest.mark.parametrize("fn", ["evaluate", "nash_conv"])
def test_non_profiles_are_refused(kuhn: tp.Game, bad: object, fn: str) -> None:
    with pytest.raises(ProfileError, match="profile must be") as exc:
        getattr(tp, fn)(kuhn, bad)
    _one_line(exc)


def test_evaluate_takes_a_flat_vector_like_nash_conv(kuhn: tp.Game) -> None:
    """Independent path: the vector's numbers equal the Profile's."""
    u = tp.Profile.uniform(kuhn)
    assert tp.evaluate(kuhn, u.probs.copy()).values == tp.evaluate(kuhn, u).values
    with pytest.raises(ProfileError, match="has 24 entries"):
        tp.evaluate(kuhn, np.zeros(3))


@pytest.mark.parametrize("bad", [None, "kuhn", 2.0])
def test_game_must_be_a_game(bad: object) -> None:
    with pytest.raises(ToypokerError, match=r"game must be a compiled game \(toypoker.load_game"):
        tp.evaluate(bad, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("player", "msg"), [(2, "at most 1"), (-1, "at least 0"), ("0", "whole")])
def test_best_response_player(kuhn: tp.Game, player: object, msg: str) -> None:
    with pytest.raises(ToypokerError, match=msg):
        tp.best_response(kuhn, tp.Profile.uniform(kuhn), player)  # type: ignore[arg-type]


# --------------------------------------------------------------------- solve
@pytest.mark.parametrize(
    ("kwargs", "msg"),
    [
        ({"iterations": "10"}, "iterations must be a whole number >= 1, not str '10'"),
        ({"iterations": 2.5}, "iterations must be a whole number >= 1, not float 2.5"),
        ({"iterations": 10.0}, "iterations must be a whole number"),
        ({"iterations": None, "seconds": math.inf}, "seconds must be finite"),
        ({"seconds": math.nan}, "seconds must be finite"),
        ({"seconds": "1"}, "seconds must be a number"),
        ({"target_nash_conv": "1e-3"}, "target_nash_conv must be a number"),
        ({"target_nash_conv": -1.0}, "target_nash_conv must be >= 0"),
        ({"check_every": 1.5}, "check_every must be a whole number"),
        ({"progress": 3}, "progress must be callable"),
        ({"checkpoint_seconds": -1}, "checkpoint_seconds must be positive"),
        ({"method": 3}, "method must be"),
        ({"checkpoint": b"x.npz"}, "checkpoint must be a path"),
        ({"resume": 3}, "resume must be a path"),
    ],
)
def test_solve_budget_arguments(kuhn: tp.Game, kwargs: dict, msg: str) -> None:
    with pytest.raises(ToypokerError, match=msg.replace("(", r"\(").replace(")", r"\)")) as exc:
        tp.solve(kuhn, **{"method": "cfr+", "iterations": 5, **kwargs})
    _one_line(exc)


def test_solve_with_numpy_int_iterations_runs_them(kuhn: tp.Game) -> None:
    assert tp.solve(kuhn, "cfr+", iterations=np.int64(7)).iterations == 7


def test_solve_game_argument() -> None:
    with pytest.raises(ToypokerError, match="game must be a compiled game"):
        tp.solve("kuhn(players=2)", "cfr+", iterations=3)  # type: ignore[arg-type]


# ------------------------------------------------------------- loaders, specs
@pytest.mark.parametrize(
    ("bad", "msg"),
    [
        (Path("game.gamedef"), r"read the file first"),
        (b"GAMEDEF\nEND GAMEDEF\n", r"decode the bytes first"),
        (None, r"gamedef must be the gamedef text"),
    ],
)
def test_load_gamedef_takes_text(bad: object, msg: str) -> None:
    with pytest.raises(ToypokerError, match=msg) as exc:
        tp.load_gamedef(bad)  # type: ignore[arg-type]
    _one_line(exc)


@pytest.mark.parametrize(
    ("bad", "msg"),
    [("abc", "max_bytes must be a whole number"), (-5, "at least 1"), (2.5, "whole number")],
)
def test_load_game_max_bytes(bad: object, msg: str) -> None:
    with pytest.raises(SpecError, match=msg):
        tp.load_game("kuhn(players=2)", max_bytes=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [None, 3, b"kuhn", Path("kuhn")])
@pytest.mark.parametrize("fn", ["load_game", "canonical_spec"])
def test_spec_must_be_text(bad: object, fn: str) -> None:
    with pytest.raises(SpecError, match="spec must be a game spec"):
        getattr(tp, fn)(bad)


@pytest.mark.parametrize(
    "spec",
    [
        "kuhn(players=2,team=13)",  # a seat beyond the game
        "kuhn(players=2,team=12)",  # every player
        "kuhn(players=3,team=1234)",
        "skp(team=12,strong=true)",  # strong collusion with restricted actions
        "kuhn_third_street(rational=true,team=12,strong=true)",
        "leduc(players=2,team=12)",
    ],
)
def test_canonical_spec_refuses_what_load_game_refuses(spec: str) -> None:
    with pytest.raises(SpecError) as by_load:
        tp.load_game(spec)
    with pytest.raises(SpecError) as by_canonical:
        tp.canonical_spec(spec)
    assert str(by_canonical.value) == str(by_load.value)


@pytest.mark.parametrize(
    "spec", ["kuhn(players=3,team=12)", "skp(team=12)", "kuhn_third_street(team=13,strong=true)"]
)
def test_canonical_spec_of_a_team_game_is_load_games(spec: str) -> None:
    assert tp.canonical_spec(spec) == tp.load_game(spec).spec


# --------------------------------------------------------------------- sweep
@pytest.mark.parametrize(
    ("kwargs", "msg"),
    [
        ({"methods": []}, "methods: give at least one"),
        ({"methods": "cfr+"}, "methods must be a list"),
        ({"seeds": []}, "seeds: give at least one"),
        ({"seeds": 2.5}, "seeds must be"),
        ({"axes": [1, 2]}, "axes must be a mapping"),
        ({"retries": -1}, "retries must be at least 0"),
        ({"workers": 0}, "workers must be at least 1"),
        ({"progress": "yes"}, "progress must be callable"),
    ],
)
def test_sweep_arguments(kwargs: dict, msg: str) -> None:
    with pytest.raises(ToypokerError, match=msg) as exc:
        tp.sweep("solve", "kuhn(players=2)", **{"scheduler": "serial", **kwargs})
    _one_line(exc)


@pytest.mark.parametrize("bad", [None, 3, b"solve"])
def test_sweep_kind_and_spec_are_text(bad: object) -> None:
    with pytest.raises(ToypokerError, match="kind must be"):
        tp.sweep(bad, "kuhn", scheduler="serial")  # type: ignore[arg-type]
    with pytest.raises(ToypokerError, match="spec must be a game spec"):
        tp.sweep("solve", bad, scheduler="serial")  # type: ignore[arg-type]


# ------------------------------------------------------------------ the rest
@pytest.mark.parametrize("bad", [None, 3, b"x.npz"])
def test_load_checkpoint_path(bad: object) -> None:
    with pytest.raises(ToypokerError, match="path must be a path"):
        tp.load_checkpoint(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [None, "kuhn(players=2)"])
def test_to_gamedef_game(bad: object) -> None:
    with pytest.raises(ToypokerError, match="game must be a compiled game"):
        tp.to_gamedef(bad)  # type: ignore[arg-type]


def test_trace_curve_arguments(kuhn: tp.Game) -> None:
    g3 = tp.load_game("kuhn(players=3)")
    for kwargs, msg in [
        ({"lo": "2"}, "lo must be a number"),
        ({"hi": math.inf}, "hi must be finite"),
        ({"eps": 0}, "eps must be positive"),
        ({"max_steps": 2.5}, "max_steps must be a whole number"),
        ({"parameter": 3}, "parameter must be"),
        ({"at": 2.5}, "at must be a list"),
        ({"seed": "1"}, "seed must be a whole number"),
        ({"progress": 1}, "progress must be callable"),
    ]:
        with pytest.raises(ToypokerError, match=msg):
            tp.trace_curve(g3, **{"parameter": "pot", "lo": 2, "hi": 3, **kwargs})
    with pytest.raises(ToypokerError, match="game must be a compiled game"):
        tp.trace_curve(None, "pot", 2, 3)  # type: ignore[arg-type]


def test_fractional_iterations_are_refused(kuhn: tp.Game) -> None:
    """A fraction of an iteration is refused; a whole Fraction is a whole number (issue 35:
    Fractions are accepted wherever Python numbers are): the run of ``iterations=5``."""
    with pytest.raises(ToypokerError, match="whole number"):
        tp.solve(kuhn, "cfr+", iterations=Fraction(5, 2))  # type: ignore[arg-type]
    r = tp.solve(kuhn, "cfr+", iterations=Fraction(5))  # type: ignore[arg-type]
    assert r.iterations == 5 and r.profile == tp.solve(kuhn, "cfr+", iterations=5).profile
