"""The README's measured numbers say which command reruns them (issue 24: "~190
checks", the 5 x 4 deck's "4 s", the quick suite's "under a minute" had gone stale).
The count of checks is held to the literature check's rows by
tests/literature/test_claims.py (slow); here, that each timing names its command and
the machine load it was measured at, and that the benchmarked game is the README's."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from toypoker.interop.acpc import gamedef_spec

ROOT = Path(__file__).resolve().parents[1]
README = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


def _bench_holdem():
    spec = importlib.util.spec_from_file_location(
        "bench_holdem", ROOT / "benchmarks" / "bench_holdem.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_5x4_deck_is_the_benchmarked_game() -> None:
    # the README's 5 x 4 deck: examples/acpc/flush.game with four suits (its sentence)
    text = (ROOT / "examples" / "acpc" / "flush.game").read_text(encoding="utf-8")
    assert gamedef_spec(text.replace("numSuits = 2", "numSuits = 4")) == _bench_holdem().SUITED_5X4
    sentence = README[README.index("(a 5 x 4 deck") :][:400]
    assert "bench_holdem.py --build-only" in sentence
    assert re.search(r"built in [\d.]+ s at load [\d.]+", sentence), sentence


def test_the_count_of_checks_is_not_the_old_one() -> None:
    # the number itself: tests/literature/test_claims.py (it runs every claim)
    m = re.search(r"Of the (\d+) checks", README)
    assert m is not None and int(m.group(1)) != 190 and "~190" not in README


def test_the_quick_suite_time_is_a_measured_one() -> None:
    sentence = README[README.index('"not slow"') :][:300]
    assert "under a minute" not in sentence
    assert re.search(r"\d+ s measured", sentence), sentence
