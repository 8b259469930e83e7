"""The papers reproduced as a static, offline HTML report (``toypoker reproduce``).

Every number comes from the claims framework (:mod:`toypoker.literature.claims`):
one page per paper with a table of its checked claims (printed vs ours, verified
or disagrees with the exact value) and a figure of the statuses embedded as a
base64 PNG; an index links the pages.  No network, no JavaScript.  Each claim's
rows are cached as JSON in ``OUT/items`` (written atomically), so a rerun skips
finished claims.
"""

from __future__ import annotations

import base64
import html
import io
import json
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..io import atomic_write_text
from ..literature.claims import CLAIMS, Row, check
from ..plots import subplots

#: claims fast enough for ``--quick`` (seconds each)
QUICK_CLAIMS: tuple[str, ...] = ("kuhn-basic", "kuhn-family", "kuhn-matrices", "szafron-table4")

PAPERS: dict[str, str] = {
    "kuhn": "Kuhn (1950)",
    "szafron": "Szafron et al. (2013)",
    "billingham": "Billingham",
    "ullman": "Ullman (2015)",
}


@dataclass(frozen=True)
class Item:
    """One claim's checked rows and its run time in seconds."""

    claim: str
    rows: tuple[Row, ...]
    seconds: float


def paper_of(claim_id: str) -> str:
    """The paper key of a claim id (its prefix before the first ``-``)."""
    return claim_id.split("-", 1)[0]


def compute(
    out: Path,
    claims: Sequence[str],
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> list[Item]:
    """Check ``claims`` one by one, reusing the cached rows in ``out/items``.

    Parameters
    ----------
    out
        The cache directory (one JSON file per claim and seed).
    claims
        Claim ids, in order.
    seed
        Seed of the random family members.
    progress
        Called with each claim id after it is done.

    Returns
    -------
    list of Item
    """
    items_dir = out
    items_dir.mkdir(parents=True, exist_ok=True)
    items = []
    for cid in claims:
        cache = items_dir / f"{cid}-seed{seed}.json"
        if cache.exists():
            data = json.loads(cache.read_text())
            rows = tuple(Row(**r) for r in data["rows"])
            items.append(Item(cid, rows, data["seconds"]))
        else:
            t0 = time.perf_counter()
            rows = tuple(check([cid], seed=seed))
            secs = time.perf_counter() - t0
            atomic_write_text(
                cache, json.dumps({"rows": [r.to_dict() for r in rows], "seconds": secs})
            )
            items.append(Item(cid, rows, secs))
        if progress:
            progress(cid)
    return items


def _status_png(items: Sequence[Item], title: str) -> str:
    """A bar chart of verified/disagrees per claim, as base64 PNG."""
    fig, ax = subplots(figsize=(7, 0.4 * len(items) + 1.2))
    names = [it.claim for it in items]
    ok = [sum(r.status == "verified" for r in it.rows) for it in items]
    bad = [sum(r.status != "verified" for r in it.rows) for it in items]
    ax.barh(names, ok, color="tab:green", label="verified")
    ax.barh(names, bad, left=ok, color="tab:red", label="disagrees")
    ax.set_xlabel("checked instances")
    ax.set_title(title)
    ax.legend(fontsize=8)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


_CSS = (
    "body{font-family:sans-serif;max-width:70em;margin:auto}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
    ".verified{color:green}.disagrees{color:#b00;font-weight:bold}"
)


def _page(title: str, body: str) -> str:
    e = html.escape(title)
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{e}</title>"
        f"<style>{_CSS}</style></head><body><h1>{e}</h1>{body}</body></html>\n"
    )


def _machine() -> str:
    return html.escape(
        f"toypoker {__version__}, Python {platform.python_version()}, {platform.platform()}"
    )


def render(items: Sequence[Item], seed: int = 0) -> dict[str, str]:
    """The report's pages, ``{file name: HTML}`` (``index.html`` and one per paper)."""
    by_paper: dict[str, list[Item]] = {}
    for it in items:
        by_paper.setdefault(paper_of(it.claim), []).append(it)
    statements = {c.id: c.statement for c in CLAIMS}
    pages: dict[str, str] = {}
    index_rows = []
    for key, its in by_paper.items():
        name = PAPERS.get(key, key)
        n_ok = sum(r.status == "verified" for it in its for r in it.rows)
        n_bad = sum(r.status != "verified" for it in its for r in it.rows)
        parts = [
            f"<img alt='status of {html.escape(name)}' "
            f"src='data:image/png;base64,{_status_png(its, name)}'>"
        ]
        for it in its:
            cmd = f"toypoker literature check --claim {it.claim} --seed {seed}"
            trs = "".join(
                f"<tr class='{html.escape(r.status)}'><td>{html.escape(r.params)}</td>"
                f"<td class='{html.escape(r.status)}'>{html.escape(r.status)}</td>"
                f"<td>{html.escape(r.detail)}</td></tr>"
                for r in it.rows
            )
            parts.append(
                f"<h2 id='{html.escape(it.claim)}'>{html.escape(it.claim)}</h2>"
                f"<p>{html.escape(statements.get(it.claim, ''))}<br>"
                f"Source: {html.escape(it.rows[0].source if it.rows else '')}; "
                f"recreate: <code>{html.escape(cmd)}</code>; {it.seconds:.2f} s</p>"
                "<table class='claim'><thead><tr><th>parameters</th><th>status</th>"
                f"<th>ours (exact) vs printed</th></tr></thead><tbody>{trs}</tbody></table>"
            )
        parts.append(f"<p><a href='index.html'>index</a> &middot; {_machine()}</p>")
        pages[f"{key}.html"] = _page(name, f"<section id='{key}'>" + "".join(parts) + "</section>")
        index_rows.append(
            f"<li><a href='{key}.html'>{html.escape(name)}</a>: "
            f"<span class='verified'>{n_ok} verified</span>, "
            f"<span class='disagrees'>{n_bad} disagree</span></li>"
        )
    pages["index.html"] = _page(
        "toypoker: the papers reproduced",
        "<ul class='index'>" + "".join(index_rows) + f"</ul><p>{_machine()}</p>",
    )
    return pages


def to_json(items: Sequence[Item]) -> dict:
    """The report's content as plain JSON types: all ``rows`` and each claim's ``seconds``."""
    return {
        "rows": [r.to_dict() for it in items for r in it.rows],
        "seconds": {it.claim: it.seconds for it in items},
    }


def write(path: Path, items: Sequence[Item], seed: int = 0) -> None:
    """Write the report atomically as one self-contained HTML file: the index
    first, then each paper's section."""
    pages = render(items, seed)
    bodies = [pages.pop("index.html")] + list(pages.values())
    inner = "".join(b.split("<body>", 1)[1].rsplit("</body>", 1)[0] for b in bodies)
    for key in PAPERS:  # the index links the sections of the one file
        inner = inner.replace(f"href='{key}.html'", f"href='#{key}'")
    inner = inner.replace("<a href='index.html'>index</a> &middot; ", "")
    inner = inner.replace("<h1>toypoker: the papers reproduced</h1>", "", 1)  # _page adds it
    atomic_write_text(path, _page("toypoker: the papers reproduced", inner))


__all__ = ["PAPERS", "QUICK_CLAIMS", "Item", "compute", "paper_of", "render", "to_json", "write"]
