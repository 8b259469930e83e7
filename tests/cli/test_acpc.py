"""``toypoker import-acpc`` and ``toypoker export --format acpc`` (cli/acpc.py, cli/export.py)."""

import json
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "acpc"
LEDUC_SPEC = (
    "holdem(players=2,ranks=3,suits=2,hole=1,rounds=2,ante=1,check=true,"
    "evaluator=standard,bet1=2,cap1=2,first1=1,board2=1,bet2=4,cap2=2,first2=1)"
)


def test_import_prints_the_spec(cli):
    code, out, err = cli("import-acpc", EXAMPLES / "leduc.game")
    assert code == 0 and out.splitlines()[0] == LEDUC_SPEC
    assert "infosets" in out and "288" in out  # sizes as `toypoker info` prints them


def test_import_json_has_the_sizes(cli):
    code, out, _ = cli("import-acpc", EXAMPLES / "kuhn.game", "--json")
    data = json.loads(out)
    assert code == 0 and data["infosets"] == 12 and data["deals"] == 6  # Kuhn: 3 x 2 deals


def test_export_then_import_round_trips(cli, tmp_path):
    path = tmp_path / "kuhn3.game"
    code, _, err = cli("export", "kuhn(players=3)", "--format", "acpc", "-o", path)
    assert code == 0 and "wrote" in err
    assert "blind = 1 1 1" in path.read_text()
    code, out, _ = cli("import-acpc", path)
    assert code == 0 and out.startswith("holdem(players=3,ranks=4,suits=1,")


def test_export_to_stdout(cli):
    code, out, _ = cli("export", "leduc(players=2)", "--format", "acpc")
    text = (EXAMPLES / "leduc.game").read_text().splitlines()
    assert code == 0 and out == "".join(ln + "\n" for ln in text if not ln.startswith("#"))


def test_bad_gamedef_is_one_line(one_line_error, tmp_path):
    path = tmp_path / "bad.game"
    path.write_text("GAMEDEF\nnolimit\nEND GAMEDEF\n")
    assert "nolimit betting is not supported" in one_line_error("import-acpc", path)


def test_missing_file_is_one_line(one_line_error, tmp_path):
    assert "cannot read" in one_line_error("import-acpc", tmp_path / "none.game")


def test_export_of_orbits_is_one_line(one_line_error):
    err = one_line_error("export", "mercer(players=2)", "--format", "acpc")
    assert "bet-or-fold orbits" in err
