"""``toypoker export``."""

import json


def test_export_efg(cli, tmp_path):
    path = tmp_path / "k.efg"
    code, _, _ = cli("export", "kuhn(players=2)", "-o", path)
    text = path.read_text()
    assert code == 0 and text.startswith('EFG 2 R "kuhn(players=2,cards=3,ante=1,bet=1)"')
    assert text.count("\nt ") == 30  # 30 plays (Kuhn 1950)


def test_export_json(cli, tmp_path):
    code, out, _ = cli("export", "kuhn(players=2)", "--json")
    data = json.loads(out)
    assert code == 0 and data["format"] == "efg" and data["text"].startswith("EFG 2 R")
    code, out, _ = cli("export", "kuhn(players=2)", "--json", "-o", tmp_path / "k.efg")
    assert json.loads(out)["output"] == str(tmp_path / "k.efg")
