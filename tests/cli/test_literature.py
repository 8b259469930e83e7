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
