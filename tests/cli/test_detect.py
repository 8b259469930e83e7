"""``toypoker detect`` (issue 12 item 7): hands until collusion shows."""

import json
import math

import pytest

from tests.collusion.test_detection import _kuhn2


def test_detect_reads_profiles_and_prints_hands_to_detection(cli, tmp_path):
    g, h0 = _kuhn2(0.25)
    _, h1 = _kuhn2(0.5)
    h0.to_json(tmp_path / "h0.json")
    h1.to_json(tmp_path / "h1.json")
    code, out, err = cli(
        "detect", "kuhn()", "--collusion", "kuhn()", "--h0", tmp_path / "h0.json",
        "--h1", tmp_path / "h1.json", "--tremble", "0", "--runs", "300",
        "--plot", tmp_path / "p.png", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    # the hand-computed divergence of tests/collusion/test_detection.py
    assert data["kl_per_hand"] == pytest.approx(math.log(4 / 3) / 6, rel=1e-12)
    assert data["hands_to_detection_95"] > 0 and data["scenario"] == "public"
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    code, out, err = cli(
        "detect", "kuhn()", "--collusion", "kuhn()", "--h0", tmp_path / "h0.json",
        "--h1", tmp_path / "h1.json", "--runs", "50",
    )  # fmt: skip
    assert code == 0 and "hands to detection" in out


def test_detect_bad_input_is_one_line(one_line_error, tmp_path):
    assert "--scenario" in one_line_error(
        "detect", "kuhn()", "--collusion", "kuhn()", "--scenario", "x"
    )
    assert "--team" in one_line_error(
        "detect", "kuhn()", "--collusion", "kuhn()", "--scenario", "private"
    )
    assert "public tree" in one_line_error(
        "detect", "kuhn()", "--collusion", "kuhn(players=3)", "--iterations", "5"
    )
