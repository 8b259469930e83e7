"""Stored collusion equilibria (src/toypoker/collusion/store.py): each file records the
NashConv its equilibria reached (issue 24, "Faults": "a stored equilibrium must carry
the NashConv it reached"), the shipped files included."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from toypoker.collusion import CollusionProfiles, solve_collusion_profiles
from toypoker.evaluation import evaluate
from toypoker.games import load_rows  # the deal table: these tests read its rows
from toypoker.games.team_transform import Team
from toypoker.literature.claims.ullman2015 import COLLUSION_DATA, stored_profiles

K3 = "kuhn(players=3)"


def _fresh(profiles: CollusionProfiles, key: str) -> tuple[float, float | None]:
    """NashConv and (strong team) joint gain of a stored profile, evaluated here with
    :func:`toypoker.engines.rows.values.evaluate` (independent of the recording path's
    ``measure``)."""
    game = load_rows(key)
    team = Team.of_params(game.params)
    strong = team is not None and bool(game.params.get("strong"))
    ev = evaluate(game, profiles.profile(game), team=team if strong else None)
    return float(ev.nash_conv), (float(ev.team.gain) if strong else None)


def _assert_recorded_is_fresh(profiles: CollusionProfiles) -> None:
    assert set(profiles.measured) == set(profiles.sigma)
    for key, m in profiles.measured.items():
        nc, gain = _fresh(profiles, key)
        # the same evaluation of the same float vector: equal up to summation order
        assert math.isclose(m.nash_conv, nc, rel_tol=1e-9, abs_tol=0), key
        if gain is None:
            assert m.team_gain is None, key
        else:
            assert m.team_gain is not None and math.isclose(m.team_gain, gain, rel_tol=1e-9,
                                                            abs_tol=1e-15), key  # fmt: skip


def test_a_solve_records_what_each_equilibrium_reached_and_loading_keeps_it(tmp_path):
    # kuhn(players=3), 30 CFR+ iterations: far from converged, so the recorded NashConv
    # is a real, positive number (brute force: evaluate() on each stored profile)
    prof = solve_collusion_profiles(K3, (1, 2), iterations=30)
    _assert_recorded_is_fresh(prof)
    assert all(m.nash_conv > 0 for m in prof.measured.values())
    strong = [k for k in prof.sigma if "strong=true" in k]
    assert len(strong) == 3 and all(prof.measured[k].team_gain is not None for k in strong)
    prof.save(tmp_path / "p.npz")
    back = CollusionProfiles.load(tmp_path / "p.npz")
    assert back.measured == prof.measured
    line = back.summary()
    assert line.startswith("NashConv recorded when solved") and "weak" in line, line
    worst = max(m.nash_conv for k, m in prof.measured.items() if "strong=false" in k)
    assert f"weak {worst:.3g}" in line


def _without_measures(src, dst) -> None:
    """Rewrite a stored file as toypoker wrote it before NashConv was recorded."""
    with np.load(src, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    del meta["nash_conv"], meta["team_gain"]
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(dst, **arrays)


def test_an_older_file_says_so_and_is_upgraded_on_save(tmp_path, capsys):
    from toypoker.cli import main

    prof = solve_collusion_profiles(K3, (1, 2), iterations=30)
    prof.save(tmp_path / "new.npz")
    _without_measures(tmp_path / "new.npz", tmp_path / "old.npz")
    old = CollusionProfiles.load(tmp_path / "old.npz")
    assert old.measured == {} and "not recorded" in old.summary()
    assert old.with_measures().measured == prof.measured
    # the CLI shows what the file recorded, and --save writes the upgraded file
    args = ["collusion", "table7", K3, "--team", "23", "--no-team-optimal", "--profiles"]
    assert main([*args, str(tmp_path / "old.npz"), "--save", str(tmp_path / "up.npz")]) == 0
    err = capsys.readouterr().err
    assert "NashConv not recorded in this file" in err
    assert CollusionProfiles.load(tmp_path / "up.npz").measured == prof.measured
    assert main([*args, str(tmp_path / "up.npz")]) == 0
    assert "NashConv recorded when solved" in capsys.readouterr().err


@pytest.mark.slow  # compiles 7 games of 0.8 M (3P-SMH) and 5.9 M rows (3P-MMH): ~10 s, ~60 s
@pytest.mark.parametrize("name", sorted(COLLUSION_DATA))
def test_each_shipped_file_records_the_nash_conv_a_fresh_evaluation_gives(name):
    _assert_recorded_is_fresh(stored_profiles(name))


# ----------------------------------------------------------------------------- format
# issue 46, item 8: a stored file carries its format; written and read back bit for bit,
# a file written before the format (none) read with the same numbers, another refused


def _stored() -> CollusionProfiles:
    """Profiles made by hand (no solve): awkward floats, a strong team's gain and none."""
    from toypoker.collusion.store import Measured, store_key

    rng = np.random.default_rng(46)
    plain, strong = store_key(K3), store_key("kuhn(players=3,team=23,strong=true)")
    return CollusionProfiles(
        plain, (1, 2), "win", "cfr+ 30 iterations",
        {plain: rng.random(12), strong: rng.random(12) / 3},
        {plain: "0123456789abcdef0123", strong: "fedcba98765432100123"},
        {plain: Measured(0.1 + 0.2), strong: Measured(1 / 3, -1e-17)},
    )  # fmt: skip


def _same(a: CollusionProfiles, b: CollusionProfiles) -> None:
    assert (a.spec, a.team, a.sharing, a.how) == (b.spec, b.team, b.sharing, b.how)
    assert list(a.sigma) == list(b.sigma) and a.fingerprints == b.fingerprints
    assert all(a.sigma[k].tobytes() == b.sigma[k].tobytes() for k in a.sigma)
    assert a.measured == b.measured


def _rewrite_meta(src, dst, edit) -> None:
    with np.load(src, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["meta"] = np.array(json.dumps(edit(json.loads(str(arrays["meta"])))))
    np.savez_compressed(dst, **arrays)


def test_a_stored_file_names_its_format_and_reads_back_bit_for_bit(tmp_path):
    from toypoker.collusion.store import COMPLETE_FORMAT

    prof = _stored()
    prof.save(tmp_path / "p.npz")
    with np.load(tmp_path / "p.npz", allow_pickle=False) as data:
        assert sorted(data.files) == ["meta", "sigma_0", "sigma_1"]  # no new array
        meta = json.loads(str(data["meta"]))
    # a complete study keeps the layout older versions read (issue 47 added /2, for an
    # interrupted study's file only)
    assert meta["format"] == COMPLETE_FORMAT == "toypoker-collusion/1"
    back = CollusionProfiles.load(tmp_path / "p.npz")
    _same(prof, back)
    back.save(tmp_path / "again.npz")
    _same(prof, CollusionProfiles.load(tmp_path / "again.npz"))


def test_a_file_stored_before_the_format_reads_with_the_same_numbers(tmp_path):
    prof = _stored()
    prof.save(tmp_path / "new.npz")
    _rewrite_meta(tmp_path / "new.npz", tmp_path / "old.npz",
                  lambda m: {k: v for k, v in m.items() if k != "format"})  # fmt: skip
    _same(prof, CollusionProfiles.load(tmp_path / "old.npz"))


@pytest.mark.parametrize("fmt", ["toypoker-collusion/3", "toypoker-checkpoint/2"])
def test_a_file_of_another_format_is_refused_in_one_line(tmp_path, fmt):
    from toypoker.collusion.store import COLLUSION_FORMAT
    from toypoker.errors import ToypokerError

    _stored().save(tmp_path / "new.npz")
    path = tmp_path / "other.npz"
    _rewrite_meta(tmp_path / "new.npz", path, lambda m: {**m, "format": fmt})
    with pytest.raises(ToypokerError) as info:
        CollusionProfiles.load(path)
    text = str(info.value)
    assert "\n" not in text and str(path) in text and f"format {fmt!r}" in text
    assert f"this toypoker reads {COLLUSION_FORMAT}" in text
    assert ("newer toypoker" in text) == fmt.startswith("toypoker-collusion/")


# ------------------------------------------------------------------ incomplete studies
# issue 47, audit case R196: an interrupted table7 keeps the equilibria it solved in an
# *incomplete* store that says which games are missing; older files stay complete


def test_an_incomplete_store_says_so_and_reads_back(tmp_path):
    # issue 47, audit case R196: the missing games are written (format /2, which older
    # versions refuse in one line instead of evaluating a table from part of a study)
    from toypoker.collusion.store import COLLUSION_FORMAT

    full = _stored()
    keys = list(full.sigma)
    part = CollusionProfiles(
        full.spec, full.team, full.sharing, full.how, {keys[0]: full.sigma[keys[0]]},
        {keys[0]: full.fingerprints[keys[0]]}, {keys[0]: full.measured[keys[0]]},
        missing=(keys[1],),
    )  # fmt: skip
    assert not part.complete and full.complete and part.progress() == "1 of 2"
    part.save(tmp_path / "part.npz")
    with np.load(tmp_path / "part.npz", allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
    assert meta["format"] == COLLUSION_FORMAT == "toypoker-collusion/2"
    assert meta["missing"] == [keys[1]]
    back = CollusionProfiles.load(tmp_path / "part.npz")
    _same(part, back)
    assert back.missing == (keys[1],) and not back.complete
    assert back.summary().startswith("1 of 2 equilibria solved (an interrupted run)")


def test_an_older_file_is_complete(tmp_path):
    # issue 47, audit case R196: files of format /1 and without a format hold no
    # "missing": they are complete studies, read as before
    _stored().save(tmp_path / "new.npz")
    for name, edit in [
        ("v1.npz", lambda m: {**m, "format": "toypoker-collusion/1"}),
        ("none.npz", lambda m: {k: v for k, v in m.items() if k != "format"}),
    ]:
        _rewrite_meta(tmp_path / "new.npz", tmp_path / name, edit)
        back = CollusionProfiles.load(tmp_path / name)
        assert back.complete and back.missing == ()
        _same(_stored(), back)
