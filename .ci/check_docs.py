"""Checks of the built documentation site (run by .ci/run after the Sphinx build).

1. Internal links: every ``href``/``src`` of every built HTML page that points inside
   the site names an existing file, and its ``#fragment`` an existing ``id`` there
   (Sphinx's ``linkcheck`` builder checks external links; these are ours).
2. Offline: no page loads an asset (script, stylesheet, image, frame) from another
   host, and no page's text shows a path of the machine that built it (``/tmp/...``,
   ``/root/...``, ``/home/...``, ``/work/...``).
3. Rendering: the home page, one tutorial, the installation, FAQ, citing and methods
   pages, and the pages with tables or formulas are rendered in headless Chromium and
   each screenshot must be non-blank (a page that failed to render is one colour).

Usage: ``python .ci/check_docs.py docs/_build/html [--shots DIR]``; exit 1 on a problem.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: pages rendered in Chromium: the home page, one executed tutorial, the installation,
#: FAQ, citing and methods pages, and pages of tables or formulas (findings,
#: benchmarks, the solvers' formulas)
RENDERED = (
    "index.html", "tutorials/kuhn.html", "installation.html", "faq.html", "citing.html",
    "methods.html", "findings.html", "benchmarks.html", "explanation/solvers.html",
)  # fmt: skip
#: a path of the building machine, in a page's text
MACHINE_PATH = re.compile(r"(?<![\w.~])/(?:tmp|root|home|work|Users)/[\w.-]")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.assets: list[str] = []  # what the browser loads: scripts, styles, images
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        rel = dict(attrs).get("rel") or ""
        for key, value in attrs:
            if key in ("id", "name") and value:
                self.ids.add(value)
            if value and (key == "href" or (key == "src" and tag in ("img", "script"))):
                self.links.append(value)
            loads = (key == "src" and tag in ("img", "script", "iframe", "source", "video")) or (
                key == "href" and tag == "link" and rel not in ("canonical", "alternate")
            )
            if value and loads:
                self.assets.append(value)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8", errors="replace"))
    return page


def broken_links(site: Path) -> list[str]:
    """Every internal link of the built site that names a missing file or anchor."""
    pages = {
        p: _parse(p)
        for p in sorted(site.rglob("*.html"))
        if not p.relative_to(site).parts[0].startswith("_")  # _static: theme templates
    }
    problems = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:")):
                continue  # external: not ours to check here
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            where = f"{path.relative_to(site)}: {link}"
            if not target.exists():
                problems.append(f"{where} (no such file)")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    problems.append(f"{where} (no such anchor)")
    return problems


def _pages(site: Path) -> dict[Path, _Page]:
    return {
        p: _parse(p)
        for p in sorted(site.rglob("*.html"))
        if not p.relative_to(site).parts[0].startswith("_")
    }


def offline_problems(site: Path) -> list[str]:
    """Every asset a page loads from another host, and every machine path in a page's
    text."""
    problems = []
    for path, page in _pages(site).items():
        where = path.relative_to(site)
        for asset in page.assets:
            parts = urlsplit(asset)
            if parts.scheme in ("http", "https") or asset.startswith("//"):
                problems.append(f"{where}: loads {asset} (remote)")
        for m in MACHINE_PATH.finditer("".join(page.text)):
            problems.append(f"{where}: shows a machine path ({m.group(0)}...)")
    return problems


def is_blank(png: Path) -> bool:
    """True when the image is (nearly) one colour: fewer than 1 % of its pixels differ
    from the most common one."""
    from PIL import Image

    with Image.open(png) as im:
        rgb = im.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 24) or []
    total = rgb.width * rgb.height
    top = max((n for n, _ in colours), default=total)
    return total - top < 0.01 * total


def screenshot(page: Path, png: Path, profile: Path) -> None:
    """Render ``page`` in headless Chromium into ``png``."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise RuntimeError("chromium is not installed")
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--disable-background-networking", "--disable-component-update",
           "--no-first-run", f"--user-data-dir={profile}", "--window-size=1280,1600",
           "--virtual-time-budget=10000", f"--screenshot={png}", page.as_uri()]  # fmt: skip
    subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the built HTML (docs/_build/html)")
    parser.add_argument("--shots", type=Path, default=None, help="keep the screenshots here")
    args = parser.parse_args(argv)
    site = args.site.resolve()
    problems = broken_links(site)
    for p in problems:
        print(f"broken link: {p}")
    offline = offline_problems(site)
    for p in offline:
        print(f"not offline: {p}")
    problems += offline
    with tempfile.TemporaryDirectory() as tmp:
        shots = args.shots or Path(tmp)
        shots.mkdir(parents=True, exist_ok=True)
        for name in RENDERED:
            png = shots / (name.replace("/", "-").removesuffix(".html") + ".png")
            try:
                screenshot(site / name, png, Path(tmp) / "profile")
            except (RuntimeError, subprocess.SubprocessError) as exc:
                problems.append(f"{name}: not rendered ({exc})")
                print(f"not rendered: {name}: {exc}")
                continue
            if not png.exists() or is_blank(png):
                problems.append(f"{name}: blank screenshot")
                print(f"blank screenshot: {name}")
            else:
                print(f"rendered: {name} -> {png.name}")
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
