"""Stored TMECor brackets (src/toypoker/collusion/brackets.py): written by
``collusion tmecor --save``, read back exactly, and the brackets shipped with the
package checked against a fresh computation."""

import json
from fractions import Fraction

import pytest

from toypoker import load_game
from toypoker.collusion.brackets import load_brackets, save_bracket, stored_weak_brackets
from toypoker.collusion.store import fingerprint
from toypoker.errors import ToypokerError
from toypoker.solvers.tmecor import tmecor

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
        fresh = tmecor(load_game(f"{base[:-1]},team={''.join(str(p + 1) for p in r.members)})"))
        assert fresh.exact and (r.low, r.high) == (fresh.lower, fresh.upper)
    for rec in shipped.values():
        assert rec["fingerprint"] == fingerprint(load_game(str(rec["game"])))


def test_saved_bracket_keeps_extra_fields_and_reads_back_exactly(tmp_path):
    # a record with the relaxation's floor beside the bracket (run_tmecor_large.py
    # --saddle-seconds): written, read back, the exact ends unchanged (four-card Kuhn
    # team {2,3}: exact value 5/132, tests/solvers/test_tmecor.py)
    g = load_game("kuhn(players=3)")
    r = tmecor(g, (1, 2))
    path = tmp_path / "b.json"
    save_bracket(path, r, fingerprint(g), "cmd", {"relaxation_floor": "5/132"})
    (rec,) = load_brackets(path).values()
    assert F(str(rec["lower"])) == F(str(rec["upper"])) == F(5, 132)
    assert rec["relaxation_floor"] == "5/132" and rec["command"] == "cmd"
