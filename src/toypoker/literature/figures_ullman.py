"""Figures of Ullman (2015): bet-frequency heatmaps (holding x position) and the
collusion payoffs as bars, printed beside ours (the bars are
:mod:`toypoker.collusion.figures`'s, re-exported here for the report).

Drawn with :mod:`toypoker.plots` (object-oriented matplotlib, no pyplot).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from toypoker.collusion.figures import collusion_bars, table_payoffs
from toypoker.literature.papers.ullman2015 import BetTable
from toypoker.plots import save_figure, subplots


def bet_heatmap(
    table: BetTable,
    path: str | Path,
    ours: Mapping[str, Sequence[float]] | None = None,
    ours_label: str = "ours",
) -> None:
    """A printed bet-percentage table as a heatmap (rows: situation, columns:
    holding or flop), with ``ours`` (same rows, percentages) as a second panel.

    Parameters
    ----------
    table
        One of :data:`toypoker.literature.papers.ullman2015.BET_TABLES`.
    path
        Where to save (PNG, PDF or SVG by suffix).
    ours
        Our percentages per row of ``table`` (``None``: the printed panel only).
    ours_label
        Title of our panel (e.g. ``"LP equilibrium"``).
    """
    panels = [("printed", table.rows)] + ([(ours_label, ours)] if ours is not None else [])
    # at least 2.4 in per panel: narrow tables (Table 1 has 3 columns) keep their titles apart
    width = max(2.4, 0.7 * len(table.columns))
    fig, axes = subplots(
        1,
        len(panels),
        figsize=(1.0 + width * len(panels), 3.6),
        squeeze=False,
        layout="constrained",
    )
    rows = list(table.rows)
    for ax, (title, data) in zip(axes[0], panels, strict=True):
        m = np.array([[float(x) for x in data[r]] for r in rows])
        im = ax.imshow(m, vmin=0, vmax=100, cmap="viridis", aspect="auto")
        for (i, j), v in np.ndenumerate(m):
            ax.text(j, i, f"{v:.0f}", ha="center", va="center", color="w" if v < 60 else "k")
        ax.set_xticks(range(len(table.columns)), table.columns)
        ax.set_yticks(range(len(rows)), rows)
        ax.tick_params(labelleft=ax is axes[0][0])
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("flop (holding " + table.hole + ")" if table.hole else "holding")
    fig.colorbar(im, ax=axes[0].tolist(), label="bet %")
    fig.suptitle(
        f"{table.name} ({table.game})\n" + textwrap.shorten(table.caption, 110), fontsize=8
    )
    save_figure(fig, path)


__all__ = ["bet_heatmap", "collusion_bars", "table_payoffs"]
