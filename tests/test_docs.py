"""The documentation's own checks: the docs' Python examples run as doctests, the
pages generated from the code (docs/_ext/toypoker_docs.py) list every public name,
game, parameter and benchmark result file, and the site checker of .ci/check_docs.py
finds broken internal links and blank screenshots (on small pages made here).

The site build itself (Sphinx, the executed notebooks, Chromium) runs in .ci/run after
the tests, as issue 34 item 5 asks."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path

import pytest

import toypoker as tp

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
WITH_EXAMPLES = sorted(
    p.relative_to(DOCS).as_posix()
    for p in DOCS.rglob("*.md")
    if "_build" not in p.parts and "generated" not in p.parts and ">>> " in p.read_text("utf-8")
)


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_some_pages_have_examples() -> None:
    assert "howto/certificates.md" in WITH_EXAMPLES and "index.md" in WITH_EXAMPLES


@pytest.mark.parametrize("page", WITH_EXAMPLES)
def test_docs_examples(page: str) -> None:
    result = doctest.testfile(str(DOCS / page), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 0 and result.failed == 0


def test_the_generated_pages_follow_the_code() -> None:
    ext = _load("toypoker_docs", DOCS / "_ext" / "toypoker_docs.py")
    api = ext.api_list()
    assert all(f"   {name}\n" in api for name in tp.__all__)
    games = ext.games_page()
    for name, info in tp.GAMES.items():
        assert f"## `{name}`" in games
        assert all(f"| `{p.name}` |" in games for p in info.params)
    assert "| `team` |" in games and "| `sharing` |" in games
    from toypoker.cli import COMMANDS

    cli = ext.cli_page()
    assert all(f"``toypoker {name}``" in cli for name in COMMANDS)
    assert "``toypoker collusion tmecor``" in cli and "``--target-nash-conv <float>``" in cli
    pages = ext.result_pages(ROOT / "benchmarks" / "results")
    for f in (ROOT / "benchmarks" / "results").glob("*.md"):
        assert f"benchmarks/results/{f.name}" in pages[f.stem]
        assert str(ROOT) not in pages[f.stem]  # no machine path


def test_a_result_page_fences_raw_printouts_and_hides_machine_paths(tmp_path: Path) -> None:
    ext = _load("toypoker_docs", DOCS / "_ext" / "toypoker_docs.py")
    raw = tmp_path / "bench_x.md"
    raw.write_text(
        "# `bench_x.py`\n\n- date: today\n\n"
        "game      rows   s/it\nkuhn       54   1e-05\nleduc     216   2e-05\n"
        "saved /somewhere/deep/benchmarks/results/x.json\n\n"
        "| a | b |\n|---|---|\n| 1   |    2 |\n",
        encoding="utf-8",
    )
    page = ext.result_page(raw)
    assert "```text\ngame      rows   s/it\n" in page
    assert "saved benchmarks/results/x.json\n```" in page
    assert "/somewhere" not in page
    assert "| a | b |\n|---|---|" in page and page.count("```") == 2


def test_the_site_checker_finds_broken_links(tmp_path: Path) -> None:
    check = _load("check_docs", ROOT / ".ci" / "check_docs.py")
    (tmp_path / "sub").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="sub/page.html#here">ok</a><a href="sub/page.html#gone">anchor</a>'
        '<a href="missing.html">file</a><a href="https://example.org/x">external</a>'
        '<img src="sub/pic.png"><a id="top" href="#top">self</a>',
        encoding="utf-8",
    )
    (tmp_path / "sub" / "page.html").write_text('<h1 id="here">x</h1>', encoding="utf-8")
    problems = check.broken_links(tmp_path)
    assert sorted(problems) == [
        "index.html: missing.html (no such file)",
        "index.html: sub/page.html#gone (no such anchor)",
        "index.html: sub/pic.png (no such file)",
    ]


def test_the_site_checker_tells_a_blank_screenshot(tmp_path: Path) -> None:
    from PIL import Image, ImageDraw

    check = _load("check_docs", ROOT / ".ci" / "check_docs.py")
    blank = Image.new("RGB", (200, 100), "white")
    blank.save(tmp_path / "blank.png")
    drawn = blank.copy()
    ImageDraw.Draw(drawn).rectangle((10, 10, 120, 60), fill="black")
    drawn.save(tmp_path / "drawn.png")
    assert check.is_blank(tmp_path / "blank.png")
    assert not check.is_blank(tmp_path / "drawn.png")


def test_a_benchmark_saves_its_tables_with_machine_date_and_load(tmp_path: Path) -> None:
    # benchmarks/results_file.py: what `python benchmarks/bench_X.py --save` writes
    results = _load("results_file", ROOT / "benchmarks" / "results_file.py")
    argv = ["bench_x.py", "--reps", "3", "--save"]
    assert results.take_save_flag(argv) and argv == ["bench_x.py", "--reps", "3"]
    results.RESULTS = tmp_path
    with results.saved_output("benchmarks/bench_x.py", True):
        print("| game | ms |\n|---|---|\n| kuhn | 1.0 |")
    text = (tmp_path / "bench_x.md").read_text(encoding="utf-8")
    assert text.startswith("# `bench_x.py`")
    for field in ("- command: `python benchmarks/bench_x.py", "- machine: ", "- date: 20",
                  "- load average (1/5/15 min): "):  # fmt: skip
        assert field in text
    assert text.endswith("| kuhn | 1.0 |\n")
    with results.saved_output("benchmarks/bench_y.py", False):
        print("not saved")
    assert not (tmp_path / "bench_y.md").exists()


def test_the_site_checker_finds_remote_assets_and_machine_paths(tmp_path: Path) -> None:
    check = _load("check_docs", ROOT / ".ci" / "check_docs.py")
    (tmp_path / "page.html").write_text(
        '<script src="https://cdn.example.org/mathjax.js"></script>'
        '<link rel="stylesheet" href="//fonts.example.org/x.css">'
        '<link rel="stylesheet" href="_static/local.css">'
        '<a href="https://example.org/paper">a link is not an asset</a>'
        "<pre>profile written to /tmp/tmpab12/leduc.json</pre><p>/dev/zero is fine</p>",
        encoding="utf-8",
    )
    problems = check.offline_problems(tmp_path)
    assert problems == [
        "page.html: loads https://cdn.example.org/mathjax.js (remote)",
        "page.html: loads //fonts.example.org/x.css (remote)",
        "page.html: shows a machine path (/tmp/t...)",
    ]
