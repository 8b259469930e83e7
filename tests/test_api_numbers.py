"""Numbers of every kind (issue 35): numpy scalars and arrays, Fractions and Decimals
are accepted wherever Python numbers and sequences are, with the same answer.

:data:`NUMBERS` names every public name of ``toypoker.__all__`` (and ``Game.at``) that
takes a number or a sequence of numbers, with a call of it on one argument;
:data:`NO_NUMBERS` says why each other name takes none (a test holds the two tables
to ``__all__``, so a new function cannot be forgotten).  The property: for every case
and every other kind of the same number, the call's answer equals its answer with the
Python number (the expected value: the same call, the documented Python input).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toypoker as tp

K2 = "kuhn(players=2)"


def _int_kinds(n: int) -> list[object]:
    """``n`` as every kind of whole number a user may hold."""
    return [np.int64(n), np.int32(n), np.uint16(n), np.array(n), Fraction(n), Decimal(n)]


def _real_kinds(x: float) -> list[object]:
    """``x`` (a multiple of 1/8: exact in float32 and in decimal) as every kind of number."""
    kinds = [np.float64(x), np.float32(x), np.array(x), Fraction(x), Decimal(repr(x))]
    return kinds + (_int_kinds(int(x)) if x == int(x) else [])


def _seq_kinds(xs: list[float]) -> list[object]:
    """The sequence ``xs`` as every kind of sequence (and of its items)."""
    return [
        tuple(xs), np.array(xs), np.array(xs, dtype=np.float32), [np.float64(x) for x in xs],
        [Fraction(x) for x in xs], [Decimal(repr(x)) for x in xs],
    ]  # fmt: skip


@dataclass(frozen=True)
class NumberCase:
    """A public function called with the number ``python`` or one of its ``kinds``."""

    id: str
    name: str  # the name in toypoker.__all__ (or "Game.at")
    python: object
    kinds: Callable[[object], list[object]]
    call: Callable[[object], object]  # the answer, comparable with ==


@cache
def _game(spec: str = K2) -> tp.Game:
    return tp.load_game(spec)


def _uniform(exact: bool = True) -> tp.Profile:
    return tp.Profile.uniform(_game(), exact=exact)


def _solved(**kw: object) -> tuple:
    r = tp.solve(_game(), **kw)
    return r.profile, r.iterations, r.stopped


def _swept(axes: dict) -> list[tuple]:
    res = tp.sweep("eval", K2, axes, scheduler="serial")
    return [(r["spec"], r["nash_conv"]) for r in res.rows]


def _traced(hi: object) -> str:
    """Three steps of a trace (a whole one takes seconds): it stops in the same place,
    with the same one-line message, whatever kind of number ``hi`` is."""
    try:
        tp.trace_curve(_game("skp"), "pot", 2, hi, max_steps=3)
    except tp.ToypokerError as exc:
        return str(exc)
    raise AssertionError("three steps finished a trace")


def _mapping(x: object) -> tp.Profile:
    return tp.Profile.from_mapping(_game(), {i.label: [1 - Fraction(str(x)), x]
                                             for i in _game().infosets}, exact=True)  # fmt: skip


NUMBERS: tuple[NumberCase, ...] = (
    NumberCase("best_response-player", "best_response", 1, _int_kinds,
               lambda v: tp.best_response(_game(), _uniform(), v).value),
    NumberCase("evaluate-milp_seconds", "evaluate", 2.5, _real_kinds,
               lambda v: tp.evaluate(_game(), _uniform(), milp_seconds=v).nash_conv),
    NumberCase("nash_conv-milp_seconds", "nash_conv", 2.5, _real_kinds,
               lambda v: tp.nash_conv(_game(), _uniform(False), milp_seconds=v)),
    NumberCase("solve-iterations", "solve", 7, _int_kinds, lambda v: _solved(iterations=v)),
    NumberCase("solve-seconds", "solve", 1000.5, _real_kinds,
               lambda v: _solved(iterations=5, seconds=v)),
    NumberCase("solve-target", "solve", 0.25, _real_kinds,
               lambda v: _solved(iterations=500, target_nash_conv=v, check_every=5)),
    NumberCase("solve-check_every", "solve", 5, _int_kinds,
               lambda v: _solved(iterations=500, target_nash_conv=0.25, check_every=v)),
    NumberCase("solve-seed", "solve", 3, _int_kinds,
               lambda v: _solved(method="es-mccfr", iterations=5, seed=v)),
    NumberCase("solve-option-delay", "solve", 2, _int_kinds,
               lambda v: _solved(iterations=6, delay=v)),
    NumberCase("solve-option-gamma", "solve", 1.5, _real_kinds,
               lambda v: _solved(method="dcfr", iterations=6, gamma=v)),
    NumberCase("Solver-seed", "Solver", 4, _int_kinds,
               lambda v: tp.Solver(_game(), "es-mccfr", seed=v).step(3).result().profile),
    NumberCase("sweep-axis-values", "sweep", [2.0, 2.5], _seq_kinds,
               lambda v: _swept({"pot": v})),
    NumberCase("sweep-axis-value", "sweep", 2.5, _real_kinds, lambda v: _swept({"pot": v})),
    NumberCase("sweep-seeds", "sweep", 2, _int_kinds,
               lambda v: [r["seed"] for r in tp.sweep("solve", K2, {"iterations": 3},
                          seeds=v, methods=["es-mccfr"], scheduler="serial").rows]),
    NumberCase("trace_curve-window", "trace_curve", 2.5, _real_kinds, lambda v: _traced(v)),
    NumberCase("load_game-max_bytes", "load_game", 60_000, _int_kinds,
               lambda v: tp.load_game(K2, max_bytes=v).spec),
    NumberCase("Game.at-pot", "Game.at", 4.5, _real_kinds, lambda v: _game().at(pot=v).spec),
    NumberCase("Profile-probs", "Profile", [0.5] * 24, _seq_kinds,
               lambda v: tp.Profile(_game(), v).to_float()),  # Fractions: exact
    NumberCase("Profile.from_mapping", "Profile", 0.25, _real_kinds, _mapping),
)  # fmt: skip

#: every other public name, and why it takes no number
NO_NUMBERS: dict[str, str] = {
    "GAMES": "a table", "METHODS": "a table", "BestResponse": "a record methods make",
    "Evaluation": "a record methods make", "InfoSet": "a record games make",
    "Interrupted": "an exception runs raise",
    "ProfileError": "an error", "Result": "a record methods make", "SpecError": "an error",
    "Stopped": "an enum of names", "ToypokerError": "an error",
    "TracePoint": "a record methods make", "canonical_spec": "a spec string",
    "load_checkpoint": "a path", "load_profile": "a path and a game",
    "load_gamedef": "gamedef text", "to_gamedef": "a game",
}  # fmt: skip


def test_the_tables_cover_every_public_name() -> None:
    covered = {c.name for c in NUMBERS} | set(NO_NUMBERS)
    assert covered - {"Game.at"} == set(tp.__all__) - {"Game"}


@cache
def _python_answer(case_id: str) -> object:
    case = next(c for c in NUMBERS if c.id == case_id)
    return case.call(case.python)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_kind_of_number_gives_the_python_answer(data: st.DataObject) -> None:
    """The same answer as with the Python number (issue 35: numpy values where Python
    numbers work were refused or crashed: ``from_mapping`` with numpy rows, ``sweep``
    with a numpy array or numpy floats as an axis)."""
    case = data.draw(st.sampled_from(NUMBERS), label="case")
    value = data.draw(st.sampled_from(case.kinds(case.python)), label="kind")
    expected = _python_answer(case.id)
    assert case.call(value) == expected, (case.id, type(value), value)


@pytest.mark.parametrize("case", NUMBERS, ids=lambda c: c.id)
def test_each_kind_once(case: NumberCase) -> None:
    """Every kind of every case, once (the property above draws among them)."""
    expected = _python_answer(case.id)
    for value in case.kinds(case.python):
        assert case.call(value) == expected, (case.id, type(value), value)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: tp.solve(_game(), iterations=np.float64(2.5)), "whole number"),
        (lambda: tp.solve(_game(), iterations=Decimal("2.5")), "whole number"),
        (lambda: tp.solve(_game(), iterations=np.bool_(True)), "whole number"),
        (lambda: tp.solve(_game(), seconds=Decimal("NaN")), "finite"),
        (lambda: tp.solve(_game(), seconds=Decimal("sNaN")), "finite"),
        (lambda: tp.solve(_game(), seconds=np.array([1.0, 2.0])), "a number"),
        (lambda: _game().at(pot=Decimal("Infinity")), "finite"),
        (lambda: _game().at(pot=np.bool_(True)), "number"),
    ],
)
def test_wrong_numbers_of_every_kind_are_one_line(call: Callable[[], object], message: str) -> None:
    """A fraction where a whole number goes, a NaN, a vector where one number goes: the
    same one-line error as with Python numbers."""
    with pytest.raises(tp.ToypokerError, match=message) as exc:
        call()
    assert "\n" not in str(exc.value)
