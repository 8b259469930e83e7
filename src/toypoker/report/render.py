"""Writing the report: an index and one page per paper as static HTML (no script,
no network: images are PNG/GIF files in the folder), or the same content as JSON."""

from __future__ import annotations

import html
import io
import json
import os
import platform
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from toypoker import __version__
from toypoker.io import atomic_write_bytes, atomic_write_text
from toypoker.plots import subplots
from toypoker.report.catalogue import PAPERS, status_of
from toypoker.report.model import ItemResult, Paper, Table, Task

STATUSES = ("verified exactly", "verified to tolerance", "disagrees")
_CLASS = {"verified exactly": "exact", "verified to tolerance": "tol", "disagrees": "bad"}
_PACKAGES = ("numpy", "scipy", "sympy", "matplotlib", "numba", "python-flint", "highspy")


@dataclass(frozen=True)
class RunInfo:
    """What a report says about its own run."""

    mode: str  # "quick" or "full"
    seed: int
    wall_seconds: float
    skipped: tuple[Task, ...] = ()  # items of the full report that --quick left out


def machine() -> dict[str, str]:
    """The machine and the versions that computed the report."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next(
                (ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")), cpu
            )
    except OSError:
        pass
    info = {
        "toypoker": __version__,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": f"{cpu} ({os.cpu_count()} logical cores)",
    }
    for pkg in _PACKAGES:
        try:
            info[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            continue
    return info


def counts(results: Sequence[ItemResult]) -> dict[str, int]:
    """Checked instances per status (:data:`STATUSES`)."""
    c = dict.fromkeys(STATUSES, 0)
    for res in results:
        for r in res.rows:
            c[status_of(r)] += 1
    return c


# ------------------------------------------------------------------ HTML
_CSS = """
body{font-family:system-ui,sans-serif;max-width:74em;margin:1em auto;padding:0 1em;
 color:#222;line-height:1.4}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;
 padding:2px 6px;vertical-align:top;font-size:.9em}th{background:#f3f3f3}
caption{caption-side:top;text-align:left;font-size:.9em;color:#444;padding:2px 0}
code{background:#f5f5f5;padding:1px 3px;font-size:.88em;word-break:break-all}
.exact{color:#176117}.tol{color:#1f5a9e}.bad{color:#b00;font-weight:bold}
.err{color:#b00}.meta{color:#555;font-size:.9em}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:.88em;color:#444}nav a{margin-right:.8em}
"""


def _html(x: object) -> str:
    """``x`` as HTML text (quotes escaped too: safe inside attributes)."""
    return html.escape(str(x), quote=True)


def _page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{_html(title)}</title><style>{_CSS}</style></head>\n<body>\n"
        f"<h1>{_html(title)}</h1>\n{body}\n</body></html>\n"
    )


def _table(t: Table, cls: str = "data") -> str:
    head = "".join(f"<th>{_html(h)}</th>" for h in t.header)
    rows = "".join("<tr>" + "".join(f"<td>{_html(c)}</td>" for c in r) + "</tr>" for r in t.rows)
    if not t.rows:
        rows = f"<tr><td colspan='{len(t.header)}'>(none)</td></tr>"
    return (
        f"<table class='{cls}'><caption>{_html(t.caption)}</caption><thead><tr>{head}</tr>"
        f"</thead><tbody>{rows}</tbody></table>"
    )


def _rows_table(res: ItemResult) -> str:
    trs = []
    for r in res.rows:
        st = status_of(r)
        exact = json.dumps(r.exact, separators=(", ", ": ")) if r.exact else ""
        trs.append(
            f"<tr class='{_CLASS[st]}'><td>{_html(r.params)}</td>"
            f"<td class='{_CLASS[st]}'>{_html(st)}</td><td>{_html(r.detail)}</td>"
            f"<td>{f'<code>{_html(exact)}</code>' if exact else ''}</td></tr>"
        )
    return (
        "<table class='claim'><thead><tr><th>parameters (printed)</th><th>status</th>"
        "<th>ours, and the printed value where it differs</th><th>exact values</th></tr>"
        f"</thead><tbody>{''.join(trs)}</tbody></table>"
    )


def _counts_text(c: Mapping[str, int]) -> str:
    return ", ".join(f"<span class='{_CLASS[s]}'>{c[s]} {_html(s)}</span>" for s in STATUSES)


def _item(res: ItemResult) -> str:
    where = "" if res.kind == "claim" else " (run in the report's folder)"
    parts = [
        f"<section class='item {res.kind}' id='{_html(res.item)}'>",
        f"<h2>{_html(res.item)}</h2><p>{_html(res.title)}</p>",
        f"<p class='meta'>recreate{where}: <code>{_html(res.command)}</code><br>"
        f"run time {res.seconds:.2f} s" + (" (from the cache)" if res.cached else "") + "</p>",
    ]
    if res.error:
        parts.append(f"<p class='err'>failed: {_html(res.error)} (rerun to retry)</p>")
    if res.rows:
        parts.append(f"<p>{_counts_text(counts([res]))}</p>{_rows_table(res)}")
    if res.notes:
        parts.append(f"<p>{_html(res.notes)}</p>")
    for img in res.images:
        parts.append(
            f"<figure><img src='{_html(img.file)}' alt='{_html(img.caption)}' loading='eager'>"
            f"<figcaption>{_html(img.caption)}</figcaption></figure>"
        )
    parts.extend(_table(t) for t in res.tables)
    if res.files:
        links = ", ".join(f"<a href='{_html(f)}'>{_html(Path(f).name)}</a>" for f in res.files)
        parts.append(f"<p class='meta'>data: {links}</p>")
    parts.append("</section>")
    return "\n".join(parts)


def _status_chart(bars: Mapping[str, Mapping[str, int]], title: str, path: Path) -> None:
    """Checked instances per bar (item or paper) and status, stacked horizontally (PNG)."""
    names = list(bars)
    fig, ax = subplots(figsize=(7.5, 0.32 * max(len(names), 1) + 1.3))
    left = [0] * len(names)
    colours = {"verified exactly": "tab:green", "verified to tolerance": "tab:blue",
               "disagrees": "tab:red"}  # fmt: skip
    for st in STATUSES:
        n = [bars[b][st] for b in names]
        ax.barh(names, n, left=left, color=colours[st], label=st)
        left = [a + b for a, b in zip(left, n, strict=True)]
    ax.invert_yaxis()
    ax.set_xlabel("checked instances")
    ax.set_title(title, fontsize=10)
    ax.tick_params(axis="y", labelsize=7)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    atomic_write_bytes(path, buf.getvalue())


def _machine_table(info: Mapping[str, str]) -> str:
    return _table(Table("Machine and versions", ("", "version"), tuple(info.items())), "machine")


def _paper_page(
    paper: Paper, results: Sequence[ItemResult], info: Mapping[str, str], out: Path
) -> str:
    c = counts(results)
    secs = sum(r.seconds for r in results)
    chart = f"{paper.id}-status.png"
    parts = [
        f"<p><a href='index.html'>index</a></p><p>{_html(paper.citation)}</p>"
        f"<p>{_html(paper.about)}</p>",
        f"<p>{_counts_text(c)}; {len(results)} items, {secs:.1f} s of computing.</p>",
    ]
    if any(r.rows for r in results):
        bars = {r.item: counts([r]) for r in results if r.rows}
        _status_chart(bars, f"{paper.title}: checked instances", out / chart)
        parts.append(
            f"<figure><img src='{_html(chart)}' alt='statuses of {_html(paper.title)}'>"
            "<figcaption>Checked instances per item and status</figcaption></figure>"
        )
    parts.append(
        "<nav>"
        + "".join(f"<a href='#{_html(r.item)}'>{_html(r.item)}</a> " for r in results)
        + "</nav>"
    )
    claims = [r for r in results if r.kind == "claim"]
    figs = [r for r in results if r.kind != "claim"]
    if claims:
        parts.append("<h2 class='part'>Claims</h2>" + "\n".join(_item(r) for r in claims))
    if figs:
        parts.append("<h2 class='part'>Figures and tables</h2>" + "\n".join(_item(r) for r in figs))
    parts.append(_machine_table(info))
    return _page(paper.title, "\n".join(parts))


_LEGEND = (
    "<p class='meta'><span class='exact'>verified exactly</span>: equal in exact "
    "arithmetic (rationals, polynomial identities, integer counts); "
    "<span class='tol'>verified to tolerance</span>: floating-point numbers (printed "
    "decimals, solver or Monte Carlo output) within the stated tolerance; "
    "<span class='bad'>disagrees</span>: ours differs, with the exact value and the "
    "likely cause beside it.</p>"
)


def _index_page(
    by_paper: Mapping[str, Sequence[ItemResult]], run: RunInfo, info: Mapping[str, str], out: Path
) -> str:
    head = ("paper", *STATUSES, "items", "figures", "failed", "run time (s)")
    trs = []
    total = dict.fromkeys(STATUSES, 0)
    n_items = n_figs = n_bad = 0
    secs = 0.0
    for paper in PAPERS:
        rs = by_paper.get(paper.id, [])
        if not rs:
            continue
        c = counts(rs)
        figs = sum(len(r.images) for r in rs)
        bad = sum(bool(r.error) for r in rs)
        s = sum(r.seconds for r in rs)
        for k in STATUSES:
            total[k] += c[k]
        n_items, n_figs, n_bad, secs = n_items + len(rs), n_figs + figs, n_bad + bad, secs + s
        cells = [f"<td><a href='{_html(paper.id)}.html'>{_html(paper.title)}</a></td>"]
        cells += [f"<td class='{_CLASS[k]}'>{c[k]}</td>" for k in STATUSES]
        cells += [f"<td>{len(rs)}</td><td>{figs}</td><td>{bad}</td><td>{s:.1f}</td>"]
        trs.append("<tr>" + "".join(cells) + "</tr>")
    trs.append(
        "<tr><th>total</th>"
        + "".join(f"<th>{total[k]}</th>" for k in STATUSES)
        + f"<th>{n_items}</th><th>{n_figs}</th><th>{n_bad}</th><th>{secs:.1f}</th></tr>"
    )
    table = (
        "<table class='index'><thead><tr>"
        + "".join(f"<th>{_html(h)}</th>" for h in head)
        + f"</tr></thead><tbody>{''.join(trs)}</tbody></table>"
    )
    mode = (
        "quick (coarse grids, fewer rounds; no 3-player MMH items)"
        if run.mode == "quick"
        else "full"
    )
    bars = {p.title: counts(by_paper[p.id]) for p in PAPERS if by_paper.get(p.id)}
    _status_chart(bars, "Checked instances per paper", out / "index-status.png")
    chart = (
        "<figure><img src='index-status.png' alt='checked instances per paper and status'>"
        "<figcaption>Checked instances per paper and status</figcaption></figure>"
    )
    parts = [
        "<p>Every printed number of the papers that toypoker checks, beside ours, and "
        "every figure recomputed; each item says the command that recreates it and its "
        "run time.</p>",
        table,
        _LEGEND,
        chart,
        f"<p class='meta'>Mode: {_html(mode)}; seed {run.seed}. Computing time of all items "
        f"{secs:.1f} s; this run took {run.wall_seconds:.1f} s (finished items are "
        "reused from <code>items/</code>).</p>",
    ]
    if run.skipped:
        lis = "".join(f"<li>{_html(t.id)}: {_html(t.title)}</li>" for t in run.skipped)
        parts.append(f"<p>Left out by <code>--quick</code>:</p><ul class='skipped'>{lis}</ul>")
    parts.append(_machine_table(info))
    return _page("toypoker: the papers reproduced", "\n".join(parts))


def _group(results: Sequence[ItemResult]) -> dict[str, list[ItemResult]]:
    by_paper: dict[str, list[ItemResult]] = {}
    for r in results:
        by_paper.setdefault(r.paper, []).append(r)
    return by_paper


def write_html(out: Path, results: Sequence[ItemResult], run: RunInfo) -> list[Path]:
    """Write ``index.html`` and one page per paper into ``out`` (atomically, the index
    last) and return their paths."""
    info = machine()
    by_paper = _group(results)
    written = []
    for paper in PAPERS:
        if paper.id in by_paper:
            path = out / f"{paper.id}.html"
            atomic_write_text(path, _paper_page(paper, by_paper[paper.id], info, out))
            written.append(path)
    index = out / "index.html"
    atomic_write_text(index, _index_page(by_paper, run, info, out))
    return [index, *written]


# ------------------------------------------------------------------ JSON
def to_json(results: Sequence[ItemResult], run: RunInfo) -> dict[str, object]:
    """The report as plain JSON types: ``index`` (per paper: counts, items, run time;
    the machine) and ``papers`` (per paper: every item with its rows and statuses)."""
    info = machine()
    by_paper = _group(results)
    index_papers, pages = [], {}
    for paper in PAPERS:
        rs = by_paper.get(paper.id)
        if not rs:
            continue
        index_papers.append(
            {
                "id": paper.id,
                "title": paper.title,
                "counts": counts(rs),
                "items": [r.item for r in rs],
                "figures": sum(len(r.images) for r in rs),
                "failed": [r.item for r in rs if r.error],
                "seconds": sum(r.seconds for r in rs),
                "page": f"{paper.id}.json",
            }
        )
        items = []
        for r in rs:
            d = r.to_dict()
            d["rows"] = [{**row.to_dict(), "report_status": status_of(row)} for row in r.rows]
            d["cached"] = r.cached
            items.append(d)
        pages[paper.id] = {
            "paper": {
                "id": paper.id,
                "title": paper.title,
                "citation": paper.citation,
                "about": paper.about,
            },  # fmt: skip
            "counts": counts(rs),
            "items": items,
        }
    index = {
        "title": "toypoker: the papers reproduced",
        "mode": run.mode,
        "seed": run.seed,
        "statuses": list(STATUSES),
        "seconds": sum(r.seconds for r in results),
        "wall_seconds": run.wall_seconds,
        "papers": index_papers,
        "skipped": [{"item": t.id, "title": t.title} for t in run.skipped],
        "machine": info,
    }
    return {"index": index, "papers": pages}


def write_json(out: Path, results: Sequence[ItemResult], run: RunInfo) -> list[Path]:
    """Write ``index.json`` and one ``<paper>.json`` per paper into ``out`` (atomically,
    the index last) and return their paths."""
    data = to_json(results, run)
    written = []
    for pid, page in data["papers"].items():  # type: ignore[union-attr]
        path = out / f"{pid}.json"
        atomic_write_text(path, json.dumps(page, indent=1) + "\n")
        written.append(path)
    index = out / "index.json"
    atomic_write_text(index, json.dumps(data["index"], indent=1) + "\n")
    return [index, *written]


__all__ = ["STATUSES", "RunInfo", "counts", "machine", "to_json", "write_html", "write_json"]
