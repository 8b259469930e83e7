"""``toypoker literature``."""

import json


def test_literature_list_and_check_json(cli, tmp_path):
    code, out, _ = cli("literature", "--json")
    assert code == 0 and len(json.loads(out)) >= 10
    path = tmp_path / "rows.json"
    code, out, _ = cli("literature", "check", "--claim", "billingham-p-star", "--json", "-o", path)
    rows = json.loads(out)
    assert code == 0 and [r["status"] for r in rows] == ["verified", "disagrees"]
    assert json.loads(path.read_text()) == rows


def test_literature_json_before_check_is_honoured(cli):
    code, out, _ = cli("literature", "--json", "check", "--claim", "billingham-p-star")
    assert code == 0 and [r["status"] for r in json.loads(out)] == ["verified", "disagrees"]


def test_check_prints_a_summary_by_paper_and_status(cli):
    """Issue 24: the default is one line per paper (claims, checks, verified, disagree),
    not one per checked instance; billingham-p-star has one of each (the JSON test
    above); kuhn-basic's checks are verified plus disagreeing ones."""
    args = ("literature", "check", "--claim", "billingham-p-star", "--claim", "kuhn-basic")
    code, out, _ = cli(*args)
    assert code == 0
    assert "parameters" not in out  # no per-instance table
    lines = {ln.split("│")[1].strip(): ln for ln in out.splitlines() if ln.count("│") >= 5}
    billingham = [c.strip() for c in lines["Billingham"].split("│")[2:6]]
    assert billingham == ["1", "2", "1", "1"]
    kuhn = [c.strip() for c in lines["Kuhn (1950)"].split("│")[2:6]]
    assert kuhn[0] == "1" and int(kuhn[1]) == int(kuhn[2]) + int(kuhn[3]) > 0
    assert "billingham-p-star" in out  # the rows that disagree are listed by claim
    assert "--full" in out


def test_check_full_prints_every_row(cli):
    code, out, _ = cli("literature", "check", "--claim", "billingham-p-star", "--full")
    assert code == 0 and "parameters" in out and "by paper" not in out
    assert out.count("verified") >= 2  # a status cell per row, and the closing line


def test_resume_skips_the_claims_already_kept(cli, one_line_error, tmp_path):
    """Issue 24: an interrupted check keeps its rows (tests/cli/test_signals.py); with
    --resume FILE a rerun does not run their claims again and ends with the rows of a
    whole run, in its order."""
    args = ("literature", "check", "--claim", "billingham-p-star", "--claim", "kuhn-basic")
    code, out, _ = cli(*args, "--json")
    whole = json.loads(out)
    # what an interrupt after the first claim (kuhn-basic runs first) leaves behind;
    # a mark in its detail shows it is taken from the file, not recomputed
    kept = [dict(r, detail=r["detail"] + " [kept]") for r in whole if r["claim"] == "kuhn-basic"]
    (tmp_path / "kept.json").write_text(json.dumps(kept))
    code, out, err = cli(*args, "--json", "--resume", tmp_path / "kept.json")
    assert code == 0, err
    resumed = json.loads(out)
    assert [r["claim"] for r in resumed] == [r["claim"] for r in whole]
    assert resumed == [dict(r, detail=r["detail"] + " [kept]") if r["claim"] == "kuhn-basic"
                       else r for r in whole]  # fmt: skip
    # a file of other rows, or not rows at all, is refused in one line
    (tmp_path / "bad.json").write_text('{"claim": 1}')
    assert "not a row of literature check -o" in one_line_error(
        *args, "--resume", tmp_path / "bad.json"
    )
    other = [dict(kept[0], claim="szafron-table3")]
    (tmp_path / "other.json").write_text(json.dumps(other))
    assert "not one asked for" in one_line_error(*args, "--resume", tmp_path / "other.json")
    (tmp_path / "junk.json").write_text("[1,")
    assert "is not JSON" in one_line_error(*args, "--resume", tmp_path / "junk.json")
