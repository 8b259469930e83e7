"""What ``toypoker reproduce`` keys its cache on and the commands it shows (issue 24):
the package version and the item's inputs, never the install path; commands a user
can paste (``toypoker ...`` with paths inside the report folder).  Expected values
come from the definitions themselves (the version string of ``toypoker.__version__``,
the bytes of the data file shipped with the package); nothing here runs a report."""

from __future__ import annotations

import shlex
import shutil
from fractions import Fraction as F
from importlib.resources import files
from pathlib import Path

import pytest

import toypoker
from toypoker.report import catalogue, figures, tasks
from toypoker.report.model import RunContext

COLLUSION = "fig-ullman2015-collusion"
DATA = files("toypoker.literature") / "data"


def _plan(quick: bool) -> dict[str, object]:
    return {t.id: t for t in tasks.plan(quick=quick)}


@pytest.mark.parametrize("quick", [True, False], ids=["quick", "full"])
def test_commands_can_be_pasted(quick: bool) -> None:
    install = str(files("toypoker"))
    for task in _plan(quick).values():
        words = shlex.split(task.command)
        assert words[0] == "toypoker", task.command
        # no install path, no absolute path: run from the report's folder as shown
        assert "site-packages" not in task.command and install not in task.command
        assert not any(Path(w).is_absolute() for w in words), task.command
        assert "site-packages" not in task.key and install not in task.key, task.key


@pytest.mark.parametrize("quick", [True, False], ids=["quick", "full"])
def test_every_key_names_the_version(quick: bool) -> None:
    for task in _plan(quick).values():
        assert task.key.startswith(f"toypoker {toypoker.__version__} | "), task.key


def test_the_collusion_item_names_its_profiles_in_its_folder() -> None:
    task = _plan(True)[COLLUSION]
    words = shlex.split(task.command)
    profiles = words[words.index("--profiles") + 1]
    assert profiles == f"{catalogue.folder_of(task.id, task.key)}/ullman_collusion_3p_smh.npz"


def _moved(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, change: bytes = b"") -> None:
    """The package's data as a second install elsewhere would have it (``change``
    appended to the stored equilibria: different inputs)."""
    root = tmp_path / "elsewhere" / "site-packages" / "toypoker" / "literature"
    shutil.copytree(Path(str(DATA)), root / "data")
    if change:
        with (root / "data" / "ullman_collusion_3p_smh.npz").open("ab") as fh:
            fh.write(change)
    monkeypatch.setattr(figures, "files", lambda _package: root)


def test_a_second_install_reuses_the_cache(monkeypatch, tmp_path: Path) -> None:
    here = _plan(True)
    _moved(monkeypatch, tmp_path)
    there = _plan(True)
    # same keys, so the same items/<id>-<hash> folders and records; same commands
    assert {i: (t.key, t.command) for i, t in there.items()} == {
        i: (t.key, t.command) for i, t in here.items()
    }


def test_other_inputs_or_version_change_the_key(monkeypatch, tmp_path: Path) -> None:
    here = _plan(True)
    _moved(monkeypatch, tmp_path, change=b"\0")
    assert _plan(True)[COLLUSION].key != here[COLLUSION].key
    monkeypatch.setattr(catalogue, "__version__", "0.0.0-other")
    other = _plan(True)
    assert all(other[i].key != here[i].key for i in here)
    assert all("toypoker 0.0.0-other | " in t.key for t in other.values())


class _RanError(Exception):
    """Raised by the fake command runner once it has seen the command."""


def test_the_profiles_are_copied_before_the_command_runs(tmp_path: Path) -> None:
    task = _plan(True)[COLLUSION]
    seen: list[list[str]] = []

    def runner(argv):
        seen.append(list(argv))
        raise _RanError

    ctx = RunContext(tmp_path, 0, lambda _claim: (), runner)
    with pytest.raises(_RanError):
        task.run(ctx)
    argv = seen[0]
    copied = Path(argv[argv.index("--profiles") + 1])
    assert copied == tmp_path / "ullman_collusion_3p_smh.npz"
    assert copied.read_bytes() == (DATA / "ullman_collusion_3p_smh.npz").read_bytes()


def test_the_collusion_page_shows_printed_nash_and_team_optimal(tmp_path: Path) -> None:
    """Issue 22 item 5: three columns per cell.  The command's JSON is canned (made-up
    numbers, only the layout is tested): strong Public shows the merged team's bracket
    from ``team_values_payoffs``; weak Public the TMECor values stored with the package
    (3P-SMH: exact); the other scenarios have no team-optimal value."""
    task = _plan(True)[COLLUSION]
    blocks = [
        {"collusion": c, "scenario": s, "payoffs": [-0.2, 0.1, 0.1]}
        for c in ("strong", "weak")
        for s in ("public", "private", "suspicious")
    ]
    data = {
        "spec": "mercer(players=3,variant=smh)", "how": "canned", "payoffs": blocks,
        "nash_conv": {"none": 1e-5, "strong": 1e-5, "weak": 1e-5},
        "team_values_payoffs": {"collusion": "strong", "scenario": "public",
                                "low": [-0.25, 0.12, 0.12], "high": [-0.24, 0.125, 0.125]},
    }  # fmt: skip
    out = task.run(RunContext(tmp_path, 0, lambda _claim: (), lambda _argv: data))
    (table,) = out.tables
    assert table.header[-3:] == ("team-optimal A", "team-optimal B", "team-optimal C")
    rows = {(r[0], r[1]): r for r in table.rows}
    assert rows[("strong", "Public")][-3:] == ("[-0.2500, -0.2400]", "[+0.1200, +0.1250]",
                                               "[+0.1200, +0.1250]")  # fmt: skip
    assert rows[("strong", "Public")][5:8] == ("-0.2000", "+0.1000", "+0.1000")  # Nash
    # the exact weak TMECor values of 3P-SMH (teams {2,3}, {1,3}, {1,2}: 89108/944775,
    # -24603977/18064098000, -4638311027186/55208102538225, README and the issue-22 note)
    # averaged over the rotations by hand: A is the outsider in every placement (-sum/3),
    # B and C are members in every one (half of each placement's value: sum/6)
    total = F(89108, 944775) + F(-24603977, 18064098000) + F(-4638311027186, 55208102538225)
    member = f"{float(total / 6):+.6f} (exact)"
    assert rows[("weak", "Public")][-3:] == (f"{float(-total / 3):+.6f} (exact)", member, member)
    assert rows[("strong", "Private")][-3:] == ("-",) * 3
    assert {f for f, _ in out.images} >= {"table7_strong.png", "table7_weak.png"}
    assert "ullman_tmecor.json" in out.notes and "not computed" not in out.notes


def test_the_collusion_page_prints_a_stored_bracket_of_nonzero_width(tmp_path: Path) -> None:
    """The full report (3P-MMH): the weak Public cells are the shipped TMECor brackets of
    the three placements (not closed: nonzero width), averaged over the rotations by
    hand and printed as ``[lo, hi]``, never as one exact number.  The command's JSON is
    canned; only the stored brackets' layout is tested."""
    import json

    task = _plan(False)[COLLUSION]
    blocks = [
        {"collusion": c, "scenario": s, "payoffs": [-0.2, 0.1, 0.1]}
        for c in ("strong", "weak")
        for s in ("public", "private", "suspicious")
    ]
    data = {"spec": "mercer(players=3,variant=mmh)", "how": "canned", "payoffs": blocks,
            "nash_conv": {"none": 1e-5, "strong": 1e-5, "weak": 1e-5}}  # fmt: skip
    out = task.run(RunContext(tmp_path, 0, lambda _claim: (), lambda _argv: data))
    (table,) = out.tables
    shipped = json.loads((DATA / "ullman_tmecor.json").read_text())["brackets"]
    recs = [r for r in shipped.values() if r["game"].startswith("mercer(players=3,variant=mmh")]
    assert sorted(r["team"] for r in recs) == ["12", "13", "23"]
    # A is the outsider in every rotation, B and C members in every one: A's bracket is
    # minus the sum of the teams' (ends swapped) over 3, a member's the sum over 6
    low = sum(F(r["lower"]) for r in recs)
    high = sum(F(r["upper"]) for r in recs)
    assert high > low
    row = {(r[0], r[1]): r for r in table.rows}[("weak", "Public")]
    member = f"[{float(low / 6):+.4f}, {float(high / 6):+.4f}]"
    assert row[-3:] == (f"[{float(-high / 3):+.4f}, {float(-low / 3):+.4f}]", member, member)
    assert "exact" not in " ".join(row[-3:]) and "not computed" not in out.notes
