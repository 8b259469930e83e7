"""``toypoker reproduce``: the HTML report's tables and images (src/toypoker/report).

The expected rows come from :func:`toypoker.literature.claims.check` itself
(each claim names its paper, table and equation); the report must show them all.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from toypoker.cli import main
from toypoker.literature.claims import check
from toypoker.report import QUICK_CLAIMS

# builds a report and starts Chromium: part of CI, not of the quick part
pytestmark = pytest.mark.slow

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class _Parse(HTMLParser):
    """Counts claim-table rows and collects image sources and external links."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[str] = []  # class of each <tr> in a claims table body
        self.images: list[str] = []
        self.external: list[str] = []
        self._tbody = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:  # noqa: V105
        a = dict(attrs)
        if tag == "tbody":
            self._tbody = True
        elif tag == "tr" and self._tbody:
            self.rows.append(a.get("class") or "")
        elif tag == "img":
            self.images.append(a.get("src") or "")
        for key in ("src", "href"):
            if (a.get(key) or "").startswith(("http:", "https:", "//")):
                self.external.append(a[key] or "")

    def handle_endtag(self, tag: str) -> None:  # noqa: V105
        if tag == "tbody":
            self._tbody = False


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["reproduce", "--quick", "-o", str(path)]) == 0
    return path


def _check_parsed(p: _Parse) -> None:
    rows = check(list(QUICK_CLAIMS))
    assert p.rows == [r.status for r in rows]
    assert p.images and all(s.startswith("data:image/png;base64,") for s in p.images)
    for s in p.images:
        assert base64.b64decode(s.split(",", 1)[1]).startswith(PNG_MAGIC)
    assert p.external == []  # self-contained: nothing fetched from the network


def test_quick_report_tables_and_images(quick_report: Path) -> None:
    p = _Parse()
    p.feed(quick_report.read_text(encoding="utf-8"))
    _check_parsed(p)


def test_rerun_reuses_finished_claims(quick_report: Path) -> None:
    items = quick_report.with_suffix(".items")
    assert sorted(f.name for f in items.iterdir()) == sorted(
        f"{c}-seed0.json" for c in QUICK_CLAIMS
    )
    before = quick_report.read_text(encoding="utf-8")
    assert main(["reproduce", "--quick", "-o", str(quick_report)]) == 0
    assert quick_report.read_text(encoding="utf-8") == before  # cached rows, same page


def test_claims_option_selects_rows(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "r.html"
    assert main(["reproduce", "--claims", "kuhn-family", "-o", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"] == [r.to_dict() for r in check(["kuhn-family"])]
    p = _Parse()
    p.feed(path.read_text(encoding="utf-8"))
    assert p.rows == [r.status for r in check(["kuhn-family"])]


def test_unknown_claim_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["reproduce", "--claims", "nope", "-o", str(tmp_path / "r.html")]) == 2
    assert "unknown claim 'nope'" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


def test_report_in_headless_chromium(quick_report: Path, tmp_path: Path) -> None:
    exe = shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    if exe is None:
        pytest.skip(
            "chromium not installed (Debian: apt-get install chromium); browser check skipped"
        )
    cmd = [
        exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", quick_report.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    p = _Parse()
    p.feed(done.stdout)
    _check_parsed(p)
