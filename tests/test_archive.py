"""Profiles and results as compact archives (``toypoker.archive``): written in pieces
and atomically, read back only onto the game they were written for.

Independent paths: the profile's own arrays (a round trip must give them back bit for
bit, exactly for rationals) and the JSON result file of the same run."""

from __future__ import annotations

import json
import zipfile
from fractions import Fraction

import numpy as np
import pytest

import toypoker as tp
from toypoker import archive
from toypoker.archive import read_meta, read_profile, write_archive
from toypoker.errors import ProfileError, ToypokerError


@pytest.fixture(scope="module")
def leduc3():
    g = tp.load_game("leduc(players=3)")
    return g, tp.solve(g, "cfr+", iterations=10)


def test_float_round_trip_and_the_result_beside_it(leduc3, tmp_path):
    g, res = leduc3
    res.save(tmp_path / "r.npz")
    res.save(tmp_path / "r.json")
    back = read_profile(tmp_path / "r.npz", g)
    assert np.array_equal(back.probs, res.profile.probs) and not back.exact
    # the rest of the result: the JSON file's fields, without its profile
    meta = read_meta(tmp_path / "r.npz")
    whole = json.loads((tmp_path / "r.json").read_text())
    del whole["profile"]
    assert meta["result"] == whole and meta["game"] == g.spec
    # plain numpy reads the numbers (no pickle), labels one a line in the game's order
    with np.load(tmp_path / "r.npz") as z:
        assert np.array_equal(z["probs"], res.profile.probs)
        assert np.array_equal(z["actions"], g.infoset_n_actions)
    with zipfile.ZipFile(tmp_path / "r.npz") as zf:
        labels = zf.read("labels.txt").decode().splitlines()
    assert labels == [i.label for i in g.infosets]


def test_exact_round_trip(tmp_path):
    g = tp.load_game("kuhn(players=2)")
    res = tp.solve(g, "lp")
    assert res.profile.exact
    res.save(tmp_path / "lp.npz")
    back = read_profile(tmp_path / "lp.npz", g)
    assert back.exact and list(back.probs) == list(res.profile.probs)
    assert any(Fraction(x).denominator > 1 for x in back.probs)  # mixed: not all 0/1


def test_refused_on_another_game_or_a_changed_file(leduc3, tmp_path):
    g, res = leduc3
    path = tmp_path / "p.npz"
    write_archive(path, res.profile)
    with pytest.raises(ProfileError, match="holds a profile of leduc"):
        read_profile(path, tp.load_game("leduc(players=2)"))
    # one label changed: refused, naming the infoset
    bad = tmp_path / "bad.npz"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "labels.txt":
                lines = data.decode().splitlines()
                lines[7] = "P1:9:zz"
                data = ("\n".join(lines) + "\n").encode()
            dst.writestr(item, data)
    with pytest.raises(ProfileError, match="infoset 7 is 'P1:9:zz'"):
        read_profile(bad, g)
    # a member missing: one sentence naming it (it read "the archive has no There is
    # no item named 'labels.txt' in the archive"; audit 2026-11-26)
    short = tmp_path / "short.npz"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(short, "w") as dst:
        for item in src.infolist():
            if item.filename != "labels.txt":
                dst.writestr(item, src.read(item))
    with pytest.raises(ProfileError) as err:
        read_profile(short, g)
    assert str(err.value) == f"{short}: the archive has no 'labels.txt'"
    (tmp_path / "text.npz").write_text("not a zip")
    with pytest.raises(ProfileError, match="cannot read"):
        read_profile(tmp_path / "text.npz", g)


def test_an_interrupted_write_leaves_the_old_file(leduc3, tmp_path, monkeypatch):
    g, res = leduc3
    path = tmp_path / "p.npz"
    write_archive(path, res.profile)
    before = path.read_bytes()

    def broken(game):
        yield b"P1:1:\n"
        raise KeyboardInterrupt

    monkeypatch.setattr(archive, "_labels", broken)
    with pytest.raises(KeyboardInterrupt):
        write_archive(path, res.profile)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["p.npz"]  # no temporary left


def test_a_result_without_a_profile_is_refused(tmp_path):
    g = tp.load_game("kuhn(players=2)")
    res = tp.Result(game=g, method="enumerate")
    with pytest.raises(ToypokerError, match="no profile to archive"):
        res.save(tmp_path / "e.npz")
