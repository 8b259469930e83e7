"""The saved records of a traced curve (src/toypoker/continuation/records.py): what
``toypoker trace --out-dir`` writes and ``--resume`` reads back carries its format
(issue 46, item 8): written and read back bit for bit, a sidecar written before the
format (none) read with the same numbers, another format refused in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from toypoker.continuation.records import TRACE_FORMAT, EquilibriumCurve
from toypoker.errors import ToypokerError

ARRAYS = ("theta", "arclength", "expectations", "sigma")


def _curve() -> EquilibriumCurve:
    # numbers of at most 12 significant digits (the CSV's), a binary infoset (its
    # passive action is 1 - the aggressive one, as the reader rebuilds it) and one of
    # three actions
    bet = np.array([0.3, 0.125, 0.8])
    sigma = np.column_stack([1.0 - bet, bet, [0.2, 0.5, 0.25], [0.3, 0.25, 0.5],
                             [0.5, 0.25, 0.25]])  # fmt: skip
    return EquilibriumCurve(
        spec="kuhn(players=3)", parameter="pot", eps=1e-6, response="arctan",
        theta=np.array([2.0, 2.5, 3.1]), arclength=np.array([0.0, 0.7, 1.45]),
        expectations=np.array([[-0.125, 0.0625, 0.0625], [0.1, -0.05, -0.05],
                               [1 / 3, -1 / 6, -1 / 6]]).round(11),
        sigma=sigma,
        sigma_labels=("P1 J=check", "P1 J=bet", "P2 Q=fold", "P2 Q=call", "P2 Q=raise"),
        reason="interrupted", steps=17, seconds=1.5,
        info={"window": [2.0, 4.0], "todo": ["last"], "dominated": True},
    )  # fmt: skip


def _same(a: EquilibriumCurve, b: EquilibriumCurve) -> None:
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.shape == y.shape and x.tobytes() == y.tobytes(), name
    assert a.metadata() == b.metadata()


def test_a_saved_curve_reads_back_bit_for_bit_and_names_its_format(tmp_path):
    c = _curve()
    path = c.save(tmp_path / "curve.csv")
    meta = json.loads((tmp_path / "curve.csv.json").read_text())
    assert meta == {"format": TRACE_FORMAT, **c.metadata()}  # the format and nothing else new
    assert next(iter(meta)) == "format" and TRACE_FORMAT == "toypoker-trace/1"
    back = EquilibriumCurve.load(path)
    _same(c, back)
    again = back.save(tmp_path / "again.csv")  # and writes the same bytes again
    assert again.read_bytes() == path.read_bytes()
    assert (tmp_path / "again.csv.json").read_bytes() == (tmp_path / "curve.csv.json").read_bytes()


def test_a_curve_saved_before_the_format_reads_with_the_same_numbers(tmp_path):
    c = _curve()
    new = c.save(tmp_path / "new.csv")
    old = tmp_path / "old.csv"  # the layout toypoker wrote before: no "format"
    old.write_text(c.to_csv())
    (tmp_path / "old.csv.json").write_text(json.dumps(c.metadata(), indent=1))
    assert old.read_bytes() == new.read_bytes()  # the CSV is unchanged
    _same(EquilibriumCurve.load(old), EquilibriumCurve.load(new))
    _same(EquilibriumCurve.load(old), c)


@pytest.mark.parametrize("fmt", ["toypoker-trace/2", "toypoker-checkpoint/2", 1])
def test_a_curve_of_another_format_is_refused_in_one_line(tmp_path, fmt):
    c = _curve()
    path = c.save(tmp_path / "curve.csv")
    side = tmp_path / "curve.csv.json"
    side.write_text(json.dumps({**json.loads(side.read_text()), "format": fmt}))
    with pytest.raises(ToypokerError) as info:
        EquilibriumCurve.load(path)
    text = str(info.value)
    assert "\n" not in text and str(side) in text
    assert f"format {fmt!r}" in text and f"this toypoker reads {TRACE_FORMAT}" in text
    assert ("newer toypoker" in text) == (fmt == "toypoker-trace/2")
