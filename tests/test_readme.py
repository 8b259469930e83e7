"""The README is the short front page issue 34 asks for, and the claims it used to
carry, now in the docs, still hold where they moved.

The README: at most ~200 lines; a Quick start of exactly the two commands CI runs
(.ci/run installs ``.[test]`` and runs ``python -m pytest``); no machine-load readings
or measurement dates (those live in benchmarks/results/); every relative link names a
file of the repository.  The docs pages: the 5 x 4 deck's build time names its
command and load (docs/explanation/games.md, issue 24); the count of checks is not the
stale "~190" (the count itself: tests/literature/test_claims.py)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from toypoker.interop.acpc import gamedef_spec

ROOT = Path(__file__).resolve().parents[1]
README_TEXT = (ROOT / "README.md").read_text(encoding="utf-8")
README = " ".join(README_TEXT.split())
DOCS = ROOT / "docs"


def _flat(path: Path) -> str:
    return " ".join(path.read_text(encoding="utf-8").split())


def _section(title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README_TEXT, re.S | re.M)
    assert m is not None, f"no section {title!r}"
    return m.group(1)


def _bench_holdem():
    spec = importlib.util.spec_from_file_location(
        "bench_holdem", ROOT / "benchmarks" / "bench_holdem.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_is_short() -> None:
    # issue 34 item 2: "a README of at most ~200 lines"
    assert len(README_TEXT.splitlines()) <= 200


def test_the_quick_start_is_the_two_commands_ci_runs() -> None:
    blocks = re.findall(r"```bash\n(.*?)```", _section("Quick start"), re.S)
    assert [b.strip() for b in blocks] == [
        'pip install . && toypoker solve "kuhn(players=3)"',
        'pip install ".[test]" && python -m pytest',
    ]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install ".[test]"' in ci and "\npython -m pytest\n" in ci


def test_no_load_readings_or_dates_in_the_readme() -> None:
    # the before-stop hook's grep: machine-load readings ("load 3", "load ~7") and dated
    # measurements belong in benchmarks/results/
    assert not re.search(r"\bload\s*~?\s*\d", README), re.search(r"\bload\s*~?\s*\d", README)
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", README)


def test_the_readme_links_name_existing_files() -> None:
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README_TEXT)
    local = [x for x in links if "://" not in x]
    assert local, "the README links into the docs"
    missing = [x for x in local if not (ROOT / x).exists()]
    assert not missing, missing


def test_the_5x4_deck_is_the_benchmarked_game() -> None:
    # the docs' 5 x 4 deck: examples/acpc/flush.game with four suits (its sentence)
    text = (ROOT / "examples" / "acpc" / "flush.game").read_text(encoding="utf-8")
    assert gamedef_spec(text.replace("numSuits = 2", "numSuits = 4")) == _bench_holdem().SUITED_5X4
    games = _flat(DOCS / "explanation" / "games.md")
    sentence = games[games.index("(a 5 x 4 deck") :][:400]
    assert "53,500 deals instead of 1,162,800" in sentence
    # issue 48: a time a page states is linked to its result file, or not stated
    assert not re.search(r"built in [\d.]+ s", sentence), sentence


def test_the_count_of_checks_is_not_the_old_one() -> None:
    # the number itself: tests/literature/test_claims.py (it runs every claim)
    findings = _flat(DOCS / "findings.md")
    m = re.search(r"Of the (\d+) checks", findings)
    assert m is not None and int(m.group(1)) != 190 and "~190" not in findings


def test_the_suite_times_are_measured_ones() -> None:
    # the measured times moved to the result file (issue 24: "under a minute" was stale)
    suite = _flat(ROOT / "benchmarks" / "results" / "suite.md")
    sentence = suite[suite.index('"not slow"') :][:300]
    assert "under a minute" not in sentence
    assert re.search(r"\d+ s measured", sentence), sentence
