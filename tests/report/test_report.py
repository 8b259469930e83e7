"""``toypoker reproduce``: the report folder (src/toypoker/report, src/toypoker/cli/reproduce.py).

The expected rows come from :func:`toypoker.literature.claims.check` itself
(each claim names its paper, table and equation); the report must show them all,
with the same statuses, and its counts must add them up.  Expected counts:
Kuhn (1950), strategies (A)-(L): 12 verified, 2 disagree (the behaviour of basic
strategies I and J, README "What the papers got wrong"); Billingham Sec. 2: P* =
(5 + sqrt 73)/2 = 6.772 agrees with the printed 6.77 (a decimal: to tolerance) and
not with eq. (4)'s 6.67.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from toypoker import report
from toypoker.cli import main
from toypoker.cli import reproduce as reproduce_cli
from toypoker.errors import ToypokerError
from toypoker.literature.claims import Row, check

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
FAST = ["kuhn-basic", "billingham-p-star", "fig-billingham-play"]


class _Parse(HTMLParser):
    """Rows of the claim tables (their status cells), every table's body rows, image
    sources, links, and anything fetched from the network or run as script."""

    def __init__(self) -> None:
        super().__init__()
        self.claim_rows: list[str] = []  # class of each <tr> in a claim table body
        self.table_rows: list[int] = []  # body rows per table
        self.images: list[dict[str, str | None]] = []
        self.links: list[str] = []
        self.external: list[str] = []
        self.scripts = 0
        self._table: list[str] = []
        self._tbody = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:  # noqa: V105
        a = dict(attrs)
        if tag == "table":
            self._table.append(a.get("class") or "")
            self.table_rows.append(0)
        elif tag == "tbody":
            self._tbody = True
        elif tag == "tr" and self._tbody:
            self.table_rows[-1] += 1
            if self._table and self._table[-1] == "claim":
                self.claim_rows.append(a.get("class") or "")
        elif tag == "img":
            self.images.append(a)
        elif tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")
        elif tag == "script":
            self.scripts += 1
        for key in ("src", "href"):
            if (a.get(key) or "").startswith(("http:", "https:", "//")):
                self.external.append(a[key] or "")

    def handle_endtag(self, tag: str) -> None:  # noqa: V105
        if tag == "tbody":
            self._tbody = False
        elif tag == "table" and self._table:
            self._table.pop()


def _parse(path: Path) -> _Parse:
    p = _Parse()
    p.feed(path.read_text(encoding="utf-8"))
    return p


CLASS = {"verified exactly": "exact", "verified to tolerance": "tol", "disagrees": "bad"}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two claims and one figure (seconds)."""
    out = tmp_path_factory.mktemp("report") / "r"
    args = ["reproduce", "--quick", "--out", str(out)]
    assert main([*args, *(x for i in FAST for x in ("--item", i))]) == 0
    return out


def test_status_classes() -> None:
    kuhn = check(["kuhn-basic"])
    assert {report.status_of(r) for r in kuhn} == {"verified exactly", "disagrees"}
    star = check(["billingham-p-star"])  # Billingham Sec. 2: 6.77 (abstract), 6.67 (eq. 4)
    assert [report.status_of(r) for r in star] == ["verified to tolerance", "disagrees"]
    # rows as ullman-sizes and ullman-2p-smh-values word them (Ullman 2015, Sec. 4)
    pot = Row("ullman-sizes", "Ullman (2015)", "2P-MMH largest pot: 34 chips", "verified")
    nodes = Row("ullman-sizes", "Ullman (2015)", "3P-MMH tree nodes: about 5000000", "verified")
    its = Row("ullman-2p-smh-values", "Ullman (2015)", "2P-SMH code: 704 iterations to eps 0.001",
              "verified")  # fmt: skip
    value = Row("ullman-2p-smh-values", "Ullman (2015)", "2P-SMH text, seat 1: -0.1", "verified")
    assert [report.precision(r) for r in (pot, nodes, its, value)] == [
        "exact", "tolerance", "exact", "tolerance"
    ]  # fmt: skip


def test_pages_show_every_row_with_its_status(small: Path) -> None:
    assert sorted(p.name for p in small.glob("*.html")) == [
        "billingham.html",
        "index.html",
        "kuhn1950.html",
    ]
    kuhn = _parse(small / "kuhn1950.html")
    rows = check(["kuhn-basic"])
    assert kuhn.claim_rows == [CLASS[report.status_of(r)] for r in rows]
    assert kuhn.claim_rows.count("exact") == 12 and kuhn.claim_rows.count("bad") == 2
    bill = _parse(small / "billingham.html")
    assert bill.claim_rows == ["tol", "bad"]  # P* printed as 6.77 and as 6.67
    for p in (kuhn, bill):
        assert p.external == [] and p.scripts == 0  # offline, no script
        assert all(n > 0 for n in p.table_rows)  # every table has rows
        for img in p.images:  # image files in the folder, PNG
            assert (small / str(img["src"])).read_bytes().startswith(PNG_MAGIC)
    srcs = [str(i["src"]) for i in bill.images]
    assert any(s.endswith("/play.png") for s in srcs)  # the figure of fig-billingham-play


def test_index_counts_and_links(small: Path) -> None:
    text = (small / "index.html").read_text(encoding="utf-8")
    p = _parse(small / "index.html")
    assert {"kuhn1950.html", "billingham.html"} <= set(p.links)
    # kuhn: 12 exact, 0 tolerance, 2 disagree; billingham: 0, 1, 1; total 12, 1, 3
    assert "<th>total</th><th>12</th><th>1</th><th>3</th><th>3</th>" in text
    assert "python" in text and "numpy" in text  # machine and versions
    for page in small.glob("*.html"):  # every link and image is a file of the folder
        q = _parse(page)
        local = [h for h in q.links if not h.startswith("#")]
        local += [str(i["src"]) for i in q.images]
        assert local and all((small / h).is_file() for h in local), page


def test_json_format_has_the_same_content(small: Path, tmp_path: Path) -> None:
    out = tmp_path / "j"
    shutil.copytree(small / "items", out / "items")  # the cache: nothing recomputed
    args = ["reproduce", "--quick", "--out", str(out), "--format", "json"]
    assert main([*args, *(x for i in FAST for x in ("--item", i))]) == 0
    index = json.loads((out / "index.json").read_text())
    counts = {p["id"]: p["counts"] for p in index["papers"]}
    assert counts == {
        "kuhn1950": {"verified exactly": 12, "verified to tolerance": 0, "disagrees": 2},
        "billingham": {"verified exactly": 0, "verified to tolerance": 1, "disagrees": 1},
    }
    page = json.loads((out / "kuhn1950.json").read_text())
    (item,) = page["items"]
    assert item["cached"] is True
    assert [{k: v for k, v in r.items() if k != "report_status"} for r in item["rows"]] == [
        r.to_dict() for r in check(["kuhn-basic"])
    ]
    assert not list(out.glob("*.html"))


def test_rerun_reuses_finished_items(small: Path, capsys: pytest.CaptureFixture) -> None:
    records = sorted((small / "items").glob("*.json"))
    assert len(records) == len(FAST)
    before = {r: r.stat().st_mtime_ns for r in records}
    args = ["reproduce", "--quick", "--out", str(small), "--json"]
    assert main([*args, *(x for i in FAST for x in ("--item", i))]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["reused"] == len(FAST) and data["failed"] == []
    assert {r: r.stat().st_mtime_ns for r in records} == before


def _stop(main: object, argv: list[str]) -> dict:
    raise KeyboardInterrupt


def _fail(main: object, argv: list[str]) -> dict:
    raise ToypokerError("boom")


def test_interrupt_keeps_finished_items_and_says_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    out = tmp_path / "r"
    args = ["reproduce", "--quick", "--out", str(out), "--item", "kuhn-basic",
            "--item", "fig-billingham-play"]  # fmt: skip
    monkeypatch.setattr(
        reproduce_cli, "run_in_process", _stop
    )  # Ctrl-C while the figure's command runs
    assert main(args) == 130
    err = capsys.readouterr().err
    assert "resume with: toypoker reproduce --quick --out" in err
    assert [p.name.rsplit("-", 1)[0] for p in (out / "items").glob("*.json")] == ["kuhn-basic"]
    assert not (out / "index.html").exists()
    monkeypatch.setattr(
        reproduce_cli, "run_in_process", _fail
    )  # the figure fails: recorded, not cached
    assert main([*args, "--json"]) == 1
    cap = capsys.readouterr()
    data = json.loads(cap.out)
    assert data["reused"] == 1 and data["failed"] == ["fig-billingham-play"]
    assert "item fig-billingham-play failed: ToypokerError: boom" in cap.err
    page = (out / "billingham.html").read_text(encoding="utf-8")
    assert "failed: ToypokerError: boom" in page
    assert len(list((out / "items").glob("*.json"))) == 1


def test_plan_has_every_paper_and_quick_leaves_out_mmh() -> None:
    full = report.plan(False)
    quick = report.plan(True)
    assert {t.paper for t in full} == set(report.PAPER_IDS) == {t.paper for t in quick}
    assert not report.SLOW_CLAIMS & {t.id for t in quick}
    assert report.SLOW_CLAIMS <= {t.id for t in full}
    assert {t.id for t in report.skipped_in_quick()} == {t.id for t in full} - {t.id for t in quick}
    # every figure item's command is a toypoker command line
    assert all(t.command.startswith("toypoker ") for t in full)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out-dir", "r.html"], "--out-dir is the report's folder"),
        (["--format", "pdf"], "--format must be html or json"),
        (["--claims", "nope"], "unknown claim 'nope'"),
        (["--item", "nope"], "unknown item 'nope'"),
        (["--quick", "--item", "fig-billingham-ncards-n10"], "is not part of --quick"),
    ],
)
def test_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture, args: list[str], message: str
) -> None:
    assert main(["reproduce", "--out-dir", str(tmp_path / "r"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists() and not (tmp_path / "r.html").exists()


# ------------------------------------------------------------------ in a browser
_CHECK = (
    "<script>window.addEventListener('load',function(){var a=document.images;"
    "for(var i=0;i<a.length;i++){a[i].setAttribute('data-loaded',"
    "(a[i].complete&&a[i].naturalWidth>0)?'yes':'no');}"
    "document.body.setAttribute('data-checked','yes');});</script>"
)
_BROKEN = "<img id='probe-broken' src='items/no-such-file.png' alt='probe'>"


def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        pytest.skip(
            "chromium not installed (Debian: apt-get install chromium); browser check skipped"
        )
    return exe


def _chrome(exe: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--no-first-run", f"--user-data-dir={profile}", *args]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.fixture(scope="module")
def browsed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report of two papers' claims and Billingham's figures (ODE, play, Table 1,
    estimators): every kind of page, table and image."""
    out = tmp_path_factory.mktemp("browsed") / "r"
    items = [t.id for t in report.plan(True) if t.paper == "kuhn1950" and t.kind == "claim"]
    items += [t.id for t in report.plan(True) if t.paper == "billingham"]
    items = [i for i in items if "ncards" not in i]
    args = ["reproduce", "--quick", "--out", str(out)]
    assert main([*args, *(x for i in items for x in ("--item", i))]) == 0
    return out


@pytest.mark.slow
@pytest.mark.parametrize("page", ["index.html", "billingham.html"])
def test_pages_in_headless_chromium(browsed: Path, tmp_path: Path, page: str) -> None:
    exe = _chromium()
    checked = browsed / f"_check_{page}"  # beside the page: the same relative paths
    html = (browsed / page).read_text(encoding="utf-8")
    checked.write_text(html.replace("</body>", _BROKEN + _CHECK + "</body>"), encoding="utf-8")
    done = _chrome(exe, tmp_path / "profile", "--virtual-time-budget=10000", "--dump-dom",
                   checked.as_uri())  # fmt: skip
    checked.unlink()
    p = _Parse()
    p.feed(done.stdout)
    assert 'data-checked="yes"' in done.stdout  # the check ran after the load
    loaded = {str(i.get("src")): i.get("data-loaded") for i in p.images}
    assert loaded.pop("items/no-such-file.png") == "no"  # the check can fail
    assert loaded and set(loaded.values()) == {"yes"}, loaded  # every image of the page
    assert p.table_rows and all(n > 0 for n in p.table_rows)
    if page == "billingham.html":
        ids = [t.id for t in report.plan(True) if t.paper == "billingham" and t.kind == "claim"]
        expected = [CLASS[report.status_of(r)] for r in check(ids)]
        claim_part = p.claim_rows[: len(expected)]
        assert claim_part == expected
        # status chart, Figs. 7-10 and basins (5), play, Table 1's two runs, Figs. 16, 17
        # and 16 redrawn
        assert len(loaded) == 1 + 5 + 1 + 2 + 3


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page", "name"), [("index.html", "index.png"), ("billingham.html", "paper.png")]
)
def test_screenshots(browsed: Path, tmp_path: Path, page: str, name: str) -> None:
    """Screenshots for the note: into $TOYPOKER_SHOTS if set (else a temporary folder)."""
    exe = _chromium()
    shots = Path(os.environ.get("TOYPOKER_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    size = "1280,1400" if page == "index.html" else "1280,3200"
    _chrome(exe, tmp_path / "profile", f"--window-size={size}", f"--screenshot={shots / name}",
            (browsed / page).as_uri())  # fmt: skip
    assert (shots / name).read_bytes().startswith(PNG_MAGIC)
