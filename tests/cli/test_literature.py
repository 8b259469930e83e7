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
