"""Stored TMECor brackets (src/toypoker/collusion/brackets.py): written by
``collusion tmecor --save``, read back exactly, and the brackets shipped with the
package checked against a fresh computation."""

import dataclasses
import json
from fractions import Fraction

import numpy as np
import pytest

from toypoker.collusion.brackets import (
    load_brackets,
    mixtures_path,
    recheck_lower,
    save_bracket,
    stored_mixture,
    stored_weak_brackets,
)
from toypoker.collusion.store import fingerprint
from toypoker.errors import ToypokerError
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.teams.tmecor import tmecor

F = Fraction


def test_a_file_that_is_not_brackets_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"something": 1}))
    with pytest.raises(ToypokerError, match="not a file of TMECor brackets"):
        load_brackets(bad)
    bad.write_text("{")
    with pytest.raises(ToypokerError, match="cannot read"):
        load_brackets(bad)


@pytest.mark.slow
def test_shipped_smh_brackets_match_a_fresh_tmecor():
    # the shipped 3P-SMH weak brackets (every placement of Table 7's team) against a
    # fresh exact TMECor (the hybrid oracle, width 0); the games' fingerprints match
    base = "mercer(players=3,variant=smh)"
    rows = stored_weak_brackets(base, (1, 2), 3)
    shipped = load_brackets()
    assert all(r is not None for r in rows)
    for r in rows:
        assert r is not None
        g = load_rows(f"{base[:-1]},team={''.join(str(p + 1) for p in r.members)})")
        fresh = tmecor(g)
        assert fresh.exact and (r.low, r.high) == (fresh.lower, fresh.upper)
        assert recheck_lower(g, r.members) == r.low  # and its stored witness gives it
    for rec in shipped.values():
        assert rec["fingerprint"] == fingerprint(load_rows(str(rec["game"])))


def test_saved_bracket_keeps_extra_fields_and_reads_back_exactly(tmp_path):
    # a record with the relaxation's floor beside the bracket (run_tmecor_large.py
    # --saddle-seconds): written, read back, the exact ends unchanged (four-card Kuhn
    # team {2,3}: exact value 5/132, tests/solvers/test_tmecor.py)
    g = load_rows("kuhn(players=3)")
    r = tmecor(g, (1, 2))
    path = tmp_path / "b.json"
    save_bracket(path, r, fingerprint(g), "cmd", {"relaxation_floor": "5/132"})
    (rec,) = load_brackets(path).values()
    assert F(str(rec["lower"])) == F(str(rec["upper"])) == F(5, 132)
    assert rec["relaxation_floor"] == "5/132" and rec["command"] == "cmd"


def test_a_saved_mixture_rechecks_its_lower_end_and_a_changed_one_is_caught(tmp_path):
    # four-card Kuhn team {1,3}: exact value 7/264 (tests/solvers/test_tmecor.py); the
    # witness (plans and exact weights) is written beside the brackets file, read back
    # bit for bit, and recomputes the recorded lower end; a record whose lower end the
    # witness does not give is refused
    g = load_rows("kuhn(players=3)")
    r = tmecor(g, (0, 2))
    path = tmp_path / "b.json"
    save_bracket(path, r, fingerprint(g), "cmd")  # and its witness
    assert mixtures_path(path) == tmp_path / "b_mixtures.npz"
    m = stored_mixture(g.spec, (0, 2), path)
    assert m.weights == r.weights and m.lower == r.lower == F(7, 264)
    assert all((a == b).all() for a, b in zip(m.plans, r.plans, strict=True))
    assert recheck_lower(g, (0, 2), path) == F(7, 264)
    assert stored_mixture(g.spec, (0, 1), path) is None  # another team: none stored
    other = tmecor(g, (1, 2))
    save_bracket(path, other, fingerprint(g), "cmd")  # a second record beside the first
    assert recheck_lower(g, (1, 2), path) == F(5, 132)
    assert recheck_lower(g, (0, 2), path) == F(7, 264)
    # a bracket whose lower end its mixture does not give
    save_bracket(path, dataclasses.replace(r, lower=F(1, 37)), fingerprint(g), "cmd")
    with pytest.raises(ToypokerError, match="not the recorded lower end"):
        recheck_lower(g, (0, 2), path)
    # a record changed after its witness was written (another run's, or by hand)
    save_bracket(path, r, fingerprint(g), "cmd")
    data = json.loads(path.read_text())
    next(v for v in data["brackets"].values() if v["team"] == "13")["lower"] = "1/37"
    path.write_text(json.dumps(data))
    with pytest.raises(ToypokerError, match="the witness of another run"):
        recheck_lower(g, (0, 2), path)
    with pytest.raises(ToypokerError, match="no stored bracket with a witness"):
        recheck_lower(g, (0, 1), path)


@pytest.mark.slow
@pytest.mark.parametrize("team,low", [((0, 1), -0.527184), ((0, 2), 0.006494), ((1, 2), 0.390799)])
def test_the_shipped_mmh_lower_ends_are_their_stored_mixtures(team, low):
    # 3P-MMH weak brackets (ullman_tmecor.json, README "Teams and collusion": {1,2}
    # -0.527184, {1,3} 0.006494, {2,3} 0.390799): each lower end recomputed exactly from
    # its shipped mixture (recheck_lower raises unless it equals the record; 20-45 s each)
    g = load_rows("mercer(players=3,variant=mmh)")
    assert round(float(recheck_lower(g, team)), 6) == low


@pytest.mark.parametrize("damage", ["not a zip", "cut", "npy", "keys 0-d", "no plans"])
def test_a_damaged_mixtures_file_is_one_clear_error(tmp_path, damage):
    # review findings: a cut-off zip, a plain .npy and 0-d keys each gave a traceback
    g = load_rows("kuhn(players=3)")
    path = tmp_path / "b.json"
    save_bracket(path, tmecor(g, (0, 2)), fingerprint(g), "cmd")
    target = mixtures_path(path)
    key = f"{g.spec} team 13"
    if damage == "not a zip":
        target.write_bytes(b"not a zip")
    elif damage == "cut":
        target.write_bytes(target.read_bytes()[:-40])
    elif damage == "npy":
        with open(target, "wb") as fh:
            np.save(fh, np.arange(3))
    elif damage == "keys 0-d":
        np.savez(target, keys=np.array(key))
    else:
        np.savez(target, keys=np.array([key]), weights_0=np.array(["1"]))
    with pytest.raises(ToypokerError, match="TMECor mixtures|damaged"):
        recheck_lower(g, (0, 2), path)


# ----------------------------------------------------------------------------- format
# issue 46, item 8: both files carry their format; written and read back bit for bit,
# files written before the format (none; the shipped ones) read with the same numbers,
# another format refused in one line


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A brackets file and its mixtures (four-card Kuhn team {1,3}), their bytes."""
    g = load_rows("kuhn(players=3)")
    path = tmp_path_factory.mktemp("brackets") / "b.json"
    r = tmecor(g, (0, 2))
    save_bracket(path, r, fingerprint(g), "cmd")
    return g, r, path.read_bytes(), mixtures_path(path).read_bytes()


def _write(tmp_path, saved, edit_json=None, edit_npz=None):
    _, _, text, npz = saved
    path = tmp_path / "b.json"
    path.write_bytes(text)
    mixtures_path(path).write_bytes(npz)
    if edit_json is not None:
        path.write_text(json.dumps(edit_json(json.loads(text)), indent=1) + "\n")
    if edit_npz is not None:
        with np.load(mixtures_path(path), allow_pickle=False) as data:
            arrays = edit_npz({k: data[k] for k in data.files})
        np.savez_compressed(mixtures_path(path), **arrays)
    return path


def _assert_reads_as(path, g, r):
    (rec,) = load_brackets(path).values()
    assert F(str(rec["lower"])) == r.lower and F(str(rec["upper"])) == r.upper
    m = stored_mixture(g.spec, (0, 2), path)
    assert m is not None and m.weights == r.weights and m.lower == r.lower
    assert all(a.tobytes() == np.asarray(b, np.int8).tobytes()
               for a, b in zip(m.plans, r.plans, strict=True))  # fmt: skip
    return rec


def test_brackets_and_mixtures_name_their_formats_and_read_back_bit_for_bit(tmp_path, saved):
    from toypoker.collusion.brackets import BRACKETS_FORMAT, MIXTURES_FORMAT

    g, r, text, _ = saved
    path = _write(tmp_path, saved)
    data = json.loads(text)
    assert list(data) == ["format", "brackets"] and data["format"] == BRACKETS_FORMAT
    with np.load(mixtures_path(path), allow_pickle=False) as z:
        assert str(z["format"]) == MIXTURES_FORMAT == "toypoker-mixtures/1"
        assert sorted(z.files) == ["format", "keys", "lower_0", "n_sigma_0", "plans_0",
                                   "weights_0"]  # fmt: skip
    assert BRACKETS_FORMAT == "toypoker-brackets/1"
    _assert_reads_as(path, g, r)
    assert recheck_lower(g, (0, 2), path) == r.lower


def test_files_written_before_the_formats_read_with_the_same_numbers(tmp_path, saved):
    from toypoker.collusion.brackets import BRACKETS_FORMAT, MIXTURES_FORMAT

    g, r, _, _ = saved
    (tmp_path / "new").mkdir()
    new = _assert_reads_as(_write(tmp_path / "new", saved), g, r)
    path = _write(tmp_path, saved, edit_json=lambda d: {"brackets": d["brackets"]},
                  edit_npz=lambda a: {k: v for k, v in a.items() if k != "format"})  # fmt: skip
    assert "format" not in json.loads(path.read_text())
    assert _assert_reads_as(path, g, r) == new
    assert recheck_lower(g, (0, 2), path) == r.lower
    # adding a record to old files keeps the old one and writes the formats
    other = tmecor(g, (1, 2))
    save_bracket(path, other, fingerprint(g), "cmd")
    assert json.loads(path.read_text())["format"] == BRACKETS_FORMAT
    with np.load(mixtures_path(path), allow_pickle=False) as z:
        assert str(z["format"]) == MIXTURES_FORMAT
    assert recheck_lower(g, (0, 2), path) == r.lower
    assert recheck_lower(g, (1, 2), path) == other.lower


@pytest.mark.parametrize("which", ["brackets", "mixtures"])
def test_files_of_another_format_are_refused_in_one_line(tmp_path, saved, which):
    from toypoker.collusion.brackets import BRACKETS_FORMAT, MIXTURES_FORMAT

    g, r, _, _ = saved
    if which == "brackets":
        path = _write(tmp_path, saved, edit_json=lambda d: {**d, "format": "toypoker-brackets/2"})
        bad, fmt, reads = path, "toypoker-brackets/2", BRACKETS_FORMAT
    else:
        newer = np.array("toypoker-mixtures/2")
        path = _write(tmp_path, saved, edit_npz=lambda a: {**a, "format": newer})
        bad, fmt, reads = mixtures_path(path), "toypoker-mixtures/2", MIXTURES_FORMAT
    before = (path.read_bytes(), mixtures_path(path).read_bytes())
    for attempt in (lambda: recheck_lower(g, (0, 2), path),
                    lambda: save_bracket(path, r, fingerprint(g), "cmd")):  # fmt: skip
        with pytest.raises(ToypokerError) as info:
            attempt()
        text = str(info.value)
        assert "\n" not in text and str(bad) in text and f"format {fmt!r}" in text
        assert f"this toypoker reads {reads}" in text and "newer toypoker" in text
    assert (path.read_bytes(), mixtures_path(path).read_bytes()) == before  # nothing written
