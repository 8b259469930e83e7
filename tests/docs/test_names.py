"""Every ``toypoker.x.y`` a page names in backticks exists (issue 48: the results pages
named modules that the engines move had renamed, e.g. ``toypoker.solvers.team_bounds``).

Read: the docs' pages, the README and ``benchmarks/results/*.md``. Not read: the
changelog (history names what was there then) and the pages the build generates.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"`(toypoker(?:\.[A-Za-z_][A-Za-z0-9_]*)+)")
#: placeholders that stand for any module (the import-graph rule of architecture.md)
PLACEHOLDERS = {"toypoker.a", "toypoker.a.b", "toypoker.X"}


def _pages() -> list[Path]:
    docs = ROOT / "docs"
    skip = {docs / "changelog.md"}
    generated = (docs / "results", docs / "reference" / "generated", docs / "_build")
    pages = [
        p for p in sorted(docs.rglob("*.md"))
        if p not in skip and not any(g in p.parents for g in generated)
    ]  # fmt: skip
    return [ROOT / "README.md", *pages, *sorted((ROOT / "benchmarks" / "results").glob("*.md"))]


def _resolves(name: str) -> bool:
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for attr in parts[k:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


@pytest.mark.skipif(not (ROOT / "docs").is_dir(), reason="docs are not beside the tests")
def test_every_named_module_exists():
    missing = [
        f"{page.relative_to(ROOT)}:{i}: {name}"
        for page in _pages()
        for i, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        for name in NAME.findall(line)
        if name not in PLACEHOLDERS and not _resolves(name)
    ]
    assert not missing, "\n".join(missing)
