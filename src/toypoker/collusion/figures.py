"""Collusion payoffs as grouped bars: one group per scenario (Public, Private,
Suspicious), one bar per series (a player, or a player of one source).

Drawn with :mod:`toypoker.plots` (object-oriented matplotlib, no pyplot); the CLI's
``collusion table7 --plot`` and the report's Table 7 figure both draw through
:func:`draw_bars`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from toypoker.collusion.table7 import SCENARIOS, STRENGTHS, CollusionTable

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["collusion_bars", "draw_bars", "table_bars", "table_payoffs"]

TITLES = tuple(c.capitalize() for c in SCENARIOS)


def draw_bars(
    ax: Axes,
    series: Mapping[str, Sequence[float]],
    scenarios: Sequence[str] = TITLES,
    title: str = "",
) -> None:
    """Grouped bars on ``ax``: ``series[label]`` holds one payoff per scenario."""
    n = len(series)
    width = 0.8 / n
    x = np.arange(len(scenarios))
    for k, (label, vals) in enumerate(series.items()):
        ax.bar(x + (k - (n - 1) / 2) * width, [float(v) for v in vals], width, label=label)
    ax.axhline(0, color="k", lw=0.6)
    ax.set_xticks(x, list(scenarios))
    ax.set_ylabel("expected payoff per hand (chips)")
    ax.set_title(title)


def collusion_bars(
    payoffs: Mapping[str, Mapping[str, Sequence[float]]],
    path: str | Path,
    scenarios: Sequence[str] = TITLES,
    title: str = "Collusion payoffs in 3P-MMH",
) -> None:
    """One panel of grouped bars, one bar per (source, player): ``payoffs[source][player]``
    are the payoffs per scenario (e.g. ``{"printed": TABLE7_STRONG, "ours": ...}``)."""
    from toypoker.plots import save_figure, subplots

    fig, ax = subplots(figsize=(7, 4))
    sources = list(payoffs)
    series = {f"{p} ({s})": v for s in sources for p, v in payoffs[s].items()}
    draw_bars(ax, series, scenarios, title)
    ax.legend(fontsize=7, ncol=len(sources))
    save_figure(fig, path)


def table_payoffs(
    payoffs: Mapping[tuple[str, str], Sequence[float]],
    strength: str,
    players: str = "ABC",
    scenarios: Sequence[str] = TITLES,
) -> dict[str, tuple[float, ...]]:
    """``{player: payoffs per scenario}`` of one strength from a
    :class:`~toypoker.collusion.table7.CollusionTable`'s ``payoffs``, the layout of
    Table 7 (for :func:`collusion_bars`)."""
    return {
        name: tuple(float(payoffs[(strength, c.lower())][p]) for c in scenarios)
        for p, name in enumerate(players)
    }


def table_bars(t: CollusionTable, path: str | Path) -> None:
    """A :class:`~toypoker.collusion.table7.CollusionTable` as two panels (strong, weak);
    with team-optimal values, a fourth group of bars per panel: the team-optimal play
    (midpoint of each player's bracket, the bracket as an error bar)."""
    from toypoker.plots import save_figure, subplots

    n = len(next(iter(t.payoffs.values())))
    players = "".join(chr(65 + p) for p in range(n))
    fig, axes = subplots(1, 2, figsize=(10, 3.6), layout="constrained")
    for ax, strength in zip(axes, STRENGTHS, strict=True):
        series = table_payoffs(t.payoffs, strength, players)
        optimal = t.team_optimal_payoffs(strength)
        if optimal is None:
            draw_bars(ax, {f"player {p}": v for p, v in series.items()},
                      title=f"{strength} collusion")  # fmt: skip
            continue
        mids = [(lo + hi) / 2 for lo, hi in optimal]
        draw_bars(
            ax,
            {f"player {p}": (*v, mids[k]) for k, (p, v) in enumerate(series.items())},
            (*TITLES, "Team-optimal"),
            title=f"{strength} collusion",
        )
        width = 0.8 / n
        x = len(TITLES) + (np.arange(n) - (n - 1) / 2) * width
        half = [(hi - lo) / 2 for lo, hi in optimal]
        ax.errorbar(x, mids, yerr=half, fmt="none", ecolor="k", capsize=3, lw=0.8)
    axes[0].legend(fontsize=8)
    fig.suptitle(f"{t.spec}, team {''.join(chr(65 + p) for p in t.team)}", fontsize=9)
    save_figure(fig, path)
