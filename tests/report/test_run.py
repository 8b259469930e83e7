"""The report's cache of finished items (src/toypoker/report/run.py): each record
carries its format (issue 46, item 8): written and read back with the same numbers, a
record written before the format (none) still reused, another format refused in one
line (``--fresh`` recomputes it), a damaged one recomputed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toypoker.errors import ToypokerError
from toypoker.literature.claims import Row
from toypoker.report.model import ItemOutput, ItemResult, RunContext, Table, Task
from toypoker.report.run import REPORT_ITEM_FORMAT, compute, load_record, record_path


def _task(calls: list[int]) -> Task:
    def run(ctx: RunContext) -> ItemOutput:
        calls.append(1)
        (ctx.folder / "fig.png").write_bytes(b"png")
        (ctx.folder / "data.csv").write_text("x\n0.1\n")
        row = Row("c1", "Table 1", "P=9", "verified", "0.1 + 0.2", {"value": "3/10"})
        table = Table("numbers", ("a", "b"), (("0.1", "1/3"),))
        return ItemOutput((row,), (("fig.png", "a figure"),), (table,), ("data.csv",), "n")

    return Task("fig-a", "paper", "figure", "Figure A", "toypoker x", "key-1", run)


def _record(out: Path, task: Task) -> dict:
    return json.loads(record_path(out, task).read_text())


def test_a_finished_item_is_recorded_with_its_format_and_reused_as_it_was(tmp_path):
    calls: list[int] = []
    task = _task(calls)
    (done,) = compute(tmp_path, [task])
    rec = _record(tmp_path, task)
    assert rec == {"format": REPORT_ITEM_FORMAT, **done.to_dict()}  # the format, nothing else
    assert next(iter(rec)) == "format" and REPORT_ITEM_FORMAT == "toypoker-report-item/1"
    back = load_record(tmp_path, task)
    assert back is not None and back.to_dict() == done.to_dict() and back.cached
    assert back.seconds == done.seconds  # the float itself
    seen: list[str] = []
    (again,) = compute(tmp_path, [task], progress=lambda e, t, r: seen.append(e))
    assert seen == ["cached"] and calls == [1] and again.to_dict() == done.to_dict()


def test_a_record_written_before_the_format_is_still_reused(tmp_path):
    calls: list[int] = []
    task = _task(calls)
    (done,) = compute(tmp_path, [task])
    path = record_path(tmp_path, task)  # the layout toypoker wrote before: no "format"
    path.write_text(json.dumps(done.to_dict(), indent=1) + "\n")
    back = load_record(tmp_path, task)
    assert back is not None and back.to_dict() == done.to_dict()
    assert ItemResult.from_dict(json.loads(path.read_text())) == back
    (again,) = compute(tmp_path, [task])
    assert calls == [1] and again.to_dict() == done.to_dict()


def test_a_record_of_another_format_is_refused_in_one_line_and_fresh_recomputes(tmp_path):
    calls: list[int] = []
    task = _task(calls)
    compute(tmp_path, [task])
    path = record_path(tmp_path, task)
    path.write_text(json.dumps({**_record(tmp_path, task), "format": "toypoker-report-item/2"}))
    with pytest.raises(ToypokerError) as info:
        compute(tmp_path, [task])
    text = str(info.value)
    assert "\n" not in text and str(path) in text and "'toypoker-report-item/2'" in text
    assert f"this toypoker reads {REPORT_ITEM_FORMAT}" in text and "--fresh" in text
    assert calls == [1]
    compute(tmp_path, [task], fresh=True)
    assert calls == [1, 1] and _record(tmp_path, task)["format"] == REPORT_ITEM_FORMAT


def test_a_damaged_record_is_recomputed(tmp_path):
    calls: list[int] = []
    task = _task(calls)
    compute(tmp_path, [task])
    record_path(tmp_path, task).write_text('{"format": "toypoker-rep')  # cut off
    assert load_record(tmp_path, task) is None
    compute(tmp_path, [task])
    assert calls == [1, 1] and _record(tmp_path, task)["format"] == REPORT_ITEM_FORMAT
