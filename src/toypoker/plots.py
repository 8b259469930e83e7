"""Plots (matplotlib, Agg backend): the pictures people expect from the papers."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .io import atomic_write_bytes  # noqa: E402


def save_figure(fig: plt.Figure, path: str | Path) -> None:
    """Save atomically (PNG, PDF or SVG by the file's suffix)."""
    import io

    buf = io.BytesIO()
    fmt = Path(path).suffix.lstrip(".") or "png"
    fig.savefig(buf, format=fmt, dpi=130, bbox_inches="tight")
    plt.close(fig)
    atomic_write_bytes(path, buf.getvalue())


def plot_convergence(results: Sequence, path: str | Path, title: str = "") -> None:
    """NashConv against wall time, log-log, one line per solver result."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for r in results:
        pts = [(p.seconds, p.nash_conv) for p in r.trace if p.seconds > 0 and p.nash_conv > 0]
        if not pts:
            continue
        xs, ys = zip(*pts, strict=True)
        ax.loglog(xs, ys, marker=".", markersize=3, linewidth=1.2, label=r.method)
    ax.set_xlabel("seconds")
    ax.set_ylabel("NashConv")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    save_figure(fig, path)
