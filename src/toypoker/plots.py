"""Plots: the pictures people expect from the papers.

Matplotlib's object-oriented API only (:class:`matplotlib.figure.Figure` drawn
by the Agg canvas): importing this module never selects or switches the
user's pyplot backend, and figures made here are never registered with pyplot
(nothing to close, no global state).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import Colormap
from matplotlib.figure import Figure

from toypoker.io import atomic_write_bytes


def figure(**kwargs: Any) -> Figure:
    """A new figure with an Agg canvas (``kwargs`` as for :class:`Figure`, e.g. ``figsize``)."""
    fig = Figure(**kwargs)
    FigureCanvasAgg(fig)
    return fig


def subplots(nrows: int = 1, ncols: int = 1, **kwargs: Any) -> tuple[Figure, Any]:
    """Like ``pyplot.subplots`` without pyplot: ``(figure, axes)``.

    ``figsize``, ``dpi`` and ``layout`` go to the figure; the other keywords
    (``sharex``, ``squeeze``, ``subplot_kw``, ...) to :meth:`Figure.subplots`.
    """
    fig_kw = {k: kwargs.pop(k) for k in ("figsize", "dpi", "layout") if k in kwargs}
    fig = figure(**fig_kw)
    return fig, fig.subplots(nrows, ncols, **kwargs)


def get_cmap(name: str, n: int | None = None) -> Colormap:
    """The colormap ``name``, resampled to ``n`` colours if given."""
    cmap = matplotlib.colormaps[name]
    return cmap if n is None else cmap.resampled(n)


def save_figure(fig: Figure, path: str | Path) -> None:
    """Save atomically (PNG, PDF or SVG by the file's suffix)."""
    buf = io.BytesIO()
    fmt = Path(path).suffix.lstrip(".") or "png"
    fig.savefig(buf, format=fmt, dpi=130, bbox_inches="tight")
    atomic_write_bytes(path, buf.getvalue())


def plot_convergence(results: Sequence, path: str | Path, title: str = "") -> None:
    """NashConv against wall time, log-log, one line per solver result."""
    fig, ax = subplots(figsize=(7, 4.5))
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
    if ax.get_legend_handles_labels()[0]:
        ax.legend()
    save_figure(fig, path)
