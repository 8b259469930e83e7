"""Property-based: every public function of ``toypoker`` (``tp.__all__``), called with
one argument replaced by an arbitrary wrong-typed or wrong-valued one, returns or
raises the library's own error -- never ``AttributeError``, ``TypeError``,
``IndexError``, a bare ``ValueError`` (issue 24).

Every other argument keeps a small valid value (a few iterations, Kuhn poker), so
an argument that happens to be valid runs quickly; the example count is small.
"""

from __future__ import annotations

import inspect
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toypoker as tp
from toypoker.errors import ToypokerError

KUHN = tp.load_game("kuhn(players=2)")
KUHN3 = tp.load_game("kuhn(players=3)")
LEDUC = tp.load_game("leduc")

#: wrong values of every kind a user passes by mistake
WRONG = st.one_of(
    st.sampled_from(
        [
            None,
            True,
            0,
            -1,
            2.5,
            math.nan,
            math.inf,
            -math.inf,
            10**30,
            Fraction(1, 3),
            1j,
            "",
            "abc",
            "10",
            "kuhn",
            b"kuhn(players=2)",
            bytearray(b"x"),
            [],
            [1, "a"],
            {},
            {"a": 1},
            (),
            Path("no/such/file.npz"),
            np.zeros(3),
            np.array(["x"]),
            np.zeros((2, 2)),
            object(),
            print,
            KUHN3,
            LEDUC,
            tp.Profile.uniform(KUHN3),
            tp.Profile.uniform(LEDUC),
        ]
    ),  # fmt: skip
    st.text(max_size=12),
    st.integers(-50, 50),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.floats(-2, 2), max_size=4),
)

# a valid call of each public function: {name: (function, {argument: valid value})}
CALLS = {
    "best_response": (tp.best_response, {"game": KUHN, "profile": tp.Profile.uniform(KUHN),
                                         "player": 0}),
    "canonical_spec": (tp.canonical_spec, {"spec": "kuhn(players=3,team=12)"}),
    "evaluate": (tp.evaluate, {"game": KUHN, "profile": tp.Profile.uniform(KUHN)}),
    "load_checkpoint": (tp.load_checkpoint, {"path": "missing.npz"}),
    "load_game": (tp.load_game, {"spec": "kuhn(players=2)", "max_bytes": 2**24}),
    "load_profile": (tp.load_profile, {"path": "missing.json", "game": KUHN}),
    "load_gamedef": (tp.load_gamedef, {"text": tp.to_gamedef(KUHN), "max_bytes": 2**24}),
    "nash_conv": (tp.nash_conv, {"game": KUHN, "profile": tp.Profile.uniform(KUHN)}),
    "solve": (tp.solve, {"game": KUHN, "method": "cfr+", "iterations": 3, "seconds": 0.5,
                         "target_nash_conv": 0.5, "check_every": 1, "checkpoint_seconds": 5.0,
                         "progress": None, "checkpoint": None, "resume": None,
                         "workers": None}),
    "sweep": (tp.sweep, {"kind": "solve", "spec": "kuhn(players=2)",
                         "axes": {"iterations": 2}, "seeds": None, "methods": ["cfr"],
                         "scheduler": "serial", "retries": 0, "progress": None}),
    "to_gamedef": (tp.to_gamedef, {"game": KUHN}),
    "trace_curve": (tp.trace_curve, {"game": KUHN3, "parameter": "pot", "lo": 3, "hi": 3.5,
                                     "eps": 1e-2, "max_steps": 20, "at": (), "seed": 1}),
    "Profile": (tp.Profile, {"game": KUHN, "probs": tp.Profile.uniform(KUHN).probs}),
    "Solver": (tp.Solver, {"game": KUHN, "method": "cfr+", "seed": None}),
}  # fmt: skip

# ``scheduler`` of tp.sweep (a bad name, an address that is not a dask scheduler) is
# the "Limits" part of issue 24 (branch sturdy); sweep here runs serially.
# A huge seed count is the grid-size limit of that part too (tests/test_checks.py has
# the wrong types of seeds).
NOT_FUZZED = {("sweep", "scheduler"), ("sweep", "seeds")}

FUZZ = settings(
    max_examples=12,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def test_every_public_function_is_covered() -> None:
    """A new public function must be added to CALLS (classes of results and errors,
    the registries and the Game class are not called with user arguments here)."""
    callables = {
        n for n in tp.__all__ if inspect.isfunction(getattr(tp, n)) or n in ("Profile", "Solver")
    }
    assert callables == set(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_valid_calls_run(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The baseline calls are valid (else the property below would test nothing):
    each returns, except the loads of a missing file (a ToypokerError)."""
    monkeypatch.chdir(tmp_path)
    fn, kwargs = CALLS[name]
    if name in ("load_checkpoint", "load_profile"):
        with pytest.raises(ToypokerError, match="missing"):
            fn(**kwargs)
    else:
        fn(**kwargs)


@pytest.mark.parametrize(
    ("name", "arg"),
    sorted((n, a) for n, (_, kw) in CALLS.items() for a in kw if (n, a) not in NOT_FUZZED),
)
@FUZZ
@given(wrong=WRONG)
def test_wrong_arguments_raise_only_toypoker_errors(
    name: str, arg: str, wrong: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a wrong path that happens to be valid is written here
    fn, kwargs = CALLS[name]
    try:
        fn(**{**kwargs, arg: wrong})
    except ToypokerError as exc:
        text = str(exc)
        assert text and "\n" not in text, f"{name}({arg}={wrong!r}): {text!r}"


def test_an_error_naming_a_path_with_a_line_break_stays_one_line(tmp_path):
    """The API fuzz found it (``load_profile("0\\n", g)``): the message named the path
    as typed, so it ran over two lines.  Every ToypokerError is one line: a line break
    inside it is shown escaped."""
    g = tp.load_game("kuhn(players=2)")
    with pytest.raises(tp.ToypokerError) as err:
        tp.load_profile(str(tmp_path / "a\nb.json"), g)
    text = str(err.value)
    assert "\n" not in text and "a\\nb.json" in text and "No such file" in text
    assert str(tp.ToypokerError("x\r\ny")) == "x\\r\\ny"
