"""Pictures of equilibrium curves: expectations and frequencies against the
parameter, the range bars of Billingham's Figure 10, and the animation along
the curve (his videos: equal arclength steps, linear interpolation)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
from matplotlib.animation import FuncAnimation, PillowWriter
from matplotlib.figure import Figure

from toypoker.continuation.curves import EquilibriumCurve
from toypoker.engines.rows.values import infoset_reach
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.io import atomic_open
from toypoker.literature.papers.billingham import NODE_NUMBERS
from toypoker.plots import figure, get_cmap, save_figure, subplots


def paper_numbered(game: Game) -> bool:
    """Whether the game's public tree is the one Billingham numbers (nodes 1-12 of
    three-player Kuhn poker, any deck): three players and exactly his decision nodes."""
    histories = {game.nodes[i.node].history for i in game.infosets}
    return game.n_players == 3 and histories == set(NODE_NUMBERS)


def node_title(game: Game, node: int) -> str:
    """A panel title: the paper's node number where it has one, actor and history."""
    nd = game.nodes[node]
    h = nd.history
    if paper_numbered(game):
        return f"node {NODE_NUMBERS[h]}: P{nd.actor + 1} '{h or '-'}'"
    return f"P{nd.actor + 1} '{h or '-'}'"


def decision_nodes(game: Game) -> list[int]:
    """The decision nodes, in the paper's order where it numbers them."""
    nodes = sorted({i.node for i in game.infosets})
    if paper_numbered(game):
        nodes.sort(key=lambda n: NODE_NUMBERS[game.nodes[n].history])
    return nodes


def _grid(k: int) -> tuple[int, int]:
    cols = min(4, k) if k > 1 else 1
    return (k + cols - 1) // cols, cols


SCREEN = (17.0, 9.4)  # inches of an animation frame at most: 1870 x 1034 pixels at 110 dpi


def _screen_grid(k: int, w: float, h: float) -> tuple[int, int, float, float]:
    """``(rows, cols, panel width, panel height)`` of ``k`` panels of ``w x h`` inches
    laid out in about the screen's aspect and shrunk (never grown) to fit :data:`SCREEN`."""
    max_w, max_h = SCREEN
    cols = max(1, min(k, math.ceil(math.sqrt(k * (max_w / max_h) * (h / w)))))
    rows = -(-k // cols)
    scale = min(1.0, max_w / (w * cols), max_h / (h * rows))
    return rows, cols, w * scale, h * scale


def plot_expectations(curve: EquilibriumCurve, path: str | Path, log: bool = False) -> None:
    """Each player's expectation against the parameter (Billingham's Figs. 5, 6, 8)."""
    fig, ax = subplots(figsize=(7.5, 4.5))
    for p in range(curve.expectations.shape[1]):
        ax.plot(curve.theta, curve.expectations[:, p], linewidth=1.1, label=f"E{p + 1}")
    if log:
        ax.set_xscale("log")
    ax.axhline(0, color="k", linewidth=0.5)
    ax.set_xlabel(curve.parameter)
    ax.set_ylabel("expectation")
    ax.set_title(f"{curve.spec}, eps = {curve.eps:g}")
    ax.grid(True, alpha=0.3)
    ax.legend()
    save_figure(fig, path)


def plot_frequencies(
    curve: EquilibriumCurve, game: Game, path: str | Path, log: bool = False
) -> None:
    """Aggressive-action frequency against the parameter, one panel per node, a line per card
    (up to :data:`MAX_PANELS` nodes; a larger game, e.g. Leduc's 96 nodes, gets one
    heatmap instead: a row per infoset, the parameter across)."""
    nodes = decision_nodes(game)
    if len(nodes) > MAX_PANELS:
        _frequency_heatmap(curve, game, nodes, path, log)
        return
    rows, cols = _grid(len(nodes))
    fig, axes = subplots(rows, cols, figsize=(3.4 * cols, 2.6 * rows), squeeze=False, sharex=True)
    for ax, node in zip(axes.flat, nodes, strict=False):
        infs = [i for i in game.infosets if i.node == node]
        cmap = get_cmap("viridis", max(len(infs), 2))
        for j, inf in enumerate(infs):
            ax.plot(
                curve.theta,
                curve.sigma[:, inf.offset + len(inf.actions) - 1],
                color=cmap(j),
                linewidth=0.9,
                label="-".join(map(str, inf.private)),
            )
        ax.set_title(node_title(game, node), fontsize=9)
        ax.set_ylim(-0.03, 1.03)
        if log:
            ax.set_xscale("log")
    for ax in list(axes.flat)[len(nodes) :]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=6, ncol=2, title="card", title_fontsize=6)
    fig.supxlabel(curve.parameter)
    fig.supylabel("frequency")
    fig.suptitle(f"{curve.spec}: frequency of the aggressive action")
    fig.tight_layout(rect=(0, 0, 1, 0.97))  # the title above the panels' own titles
    save_figure(fig, path)


MAX_PANELS = 24  # nodes drawn as line panels; more become one heatmap


def _frequency_heatmap(
    curve: EquilibriumCurve, game: Game, nodes: list[int], path: str | Path, log: bool
) -> None:
    """A row per infoset (grouped by node), the parameter across, colour = frequency of
    the node's last (most aggressive) action; along the branch's arclength when the
    parameter folds back."""
    infs = [i for node in nodes for i in game.infosets if i.node == node]
    z = np.array([curve.sigma[:, i.offset + len(i.actions) - 1] for i in infs])
    monotone = bool(np.all(np.diff(curve.theta) > 0) or np.all(np.diff(curve.theta) < 0))
    x = curve.theta if monotone else curve.arclength
    order = np.argsort(x)
    height = min(60.0, 1.6 + 0.075 * len(infs))
    fig, ax = subplots(figsize=(8.0, height))
    mesh = ax.pcolormesh(
        x[order], np.arange(len(infs)), z[:, order], shading="nearest", cmap="viridis",
        vmin=0.0, vmax=1.0,
    )  # fmt: skip
    ax.set_yticks(np.arange(len(infs)), [i.label for i in infs], fontsize=4.5)
    ax.invert_yaxis()
    if log and monotone:
        ax.set_xscale("log")
    across = f"arclength along the branch in {curve.parameter}"
    ax.set_xlabel(curve.parameter if monotone else across)
    ax.set_ylabel("information set")
    fig.colorbar(mesh, ax=ax, label="frequency of the aggressive action", shrink=0.5, pad=0.02)
    ax.set_title(f"{curve.spec}: frequency of the aggressive action", fontsize=10)
    fig.tight_layout()
    save_figure(fig, path)


class RangeBars:
    """Billingham's Figure 10: a bar per card (low to high) at each node; the bar's
    height is the share of that holding still in the player's range there, the
    dark part the share that takes the aggressive action.  ``update`` redraws
    for another profile (the animation reuses the axes)."""

    def __init__(self, fig: Figure, game: Game, grid: tuple[int, int] | None = None):
        self.fig, self.game = fig, game
        nodes = decision_nodes(game)
        rows, cols = grid or _grid(len(nodes))
        self.panels = []
        for k, node in enumerate(nodes):
            ax = fig.add_subplot(rows, cols, k + 1)
            infs = [i for i in game.infosets if i.node == node]
            xs = np.arange(len(infs))
            light = ax.bar(xs, np.ones(len(infs)), color="0.85", edgecolor="0.5", linewidth=0.4)
            dark = ax.bar(xs, np.zeros(len(infs)), color="0.1")
            ax.set_ylim(0, 1.02)
            ax.set_xticks(xs, ["-".join(map(str, i.private)) for i in infs], fontsize=6)
            ax.set_yticks([])
            ax.set_title(node_title(game, node), fontsize=8)
            self.panels.append((infs, light, dark))
        self.title = fig.suptitle("", fontsize=10)
        fig.legend(
            [light, dark],
            ["share of the holding still in the range", "share of it taking the aggressive action"],
            loc="lower center", ncol=2, fontsize=7, frameon=False,
        )  # fmt: skip
        fig.tight_layout(rect=(0, 0.04, 1, 1))

    def update(self, sigma: np.ndarray, title: str) -> None:
        """Redraw the bars for the profile ``sigma`` (own reach of each holding)."""
        reach = infoset_reach(self.game, sigma)
        for infs, light, dark in self.panels:
            for inf, lb, db in zip(infs, light, dark, strict=True):
                h = reach[inf.offset]
                lb.set_height(h)
                db.set_height(h * sigma[inf.offset + len(inf.actions) - 1])
        self.title.set_text(title)


def _figure_for(game: Game, w: float = 3.2, h: float = 2.2) -> Figure:
    rows, cols = _grid(len(decision_nodes(game)))
    return figure(figsize=(w * cols, h * rows))


def plot_ranges(game: Game, sigma: np.ndarray, title: str, path: str | Path) -> None:
    """Billingham's Figure 10 for one profile ``sigma`` of ``game``, saved to ``path``."""
    fig = _figure_for(game)
    RangeBars(fig, game).update(sigma, title)
    save_figure(fig, path)


MAX_FRAMES = 10_000
"""The most frames of :func:`animate_ranges`: a GIF of more is no use to anyone, and its
arclengths alone would be allocated at once (8 bytes a frame)."""


def animate_ranges(
    curve: EquilibriumCurve,
    game: Game,
    path: str | Path,
    frames: int = 40,
    fps: int = 4,
    progress: Callable[[int], None] | None = None,
) -> None:
    """A GIF of the range bars along the curve, in equal steps of arclength;
    ``progress(k)`` after the ``k``-th frame is drawn; 2 to :data:`MAX_FRAMES` frames."""
    if not 2 <= frames <= MAX_FRAMES:
        raise ToypokerError(f"frames must be 2 to {MAX_FRAMES:,}, got {frames}")
    rows, cols, w, h = _screen_grid(len(decision_nodes(game)), 3.0, 2.1)
    fig = figure(figsize=(w * cols, h * rows))  # a frame that fits a screen
    bars = RangeBars(fig, game, (rows, cols))
    s_all = np.linspace(0.0, curve.arclength[-1], frames)

    def frame(k: int):
        theta, E, sig = curve.at_arclength(s_all[k])
        es = ", ".join(f"E{p + 1}={e:+.4f}" for p, e in enumerate(E))
        bars.update(sig, f"{curve.spec}: {curve.parameter} = {theta:.4f}  ({es})")
        if progress is not None:
            progress(k + 1)
        return []

    anim = FuncAnimation(fig, frame, frames=frames, blit=False)
    anim.save(path, writer=_GifWriter(fps=fps), dpi=110)  # legible text


class _GifWriter(PillowWriter):
    """matplotlib's GIF writer, its file written by :func:`~toypoker.io.atomic_open` (no
    temporary file of its own in the temporary folder, links and pipes written)."""

    def finish(self) -> None:
        with atomic_open(self.outfile) as fh:
            self._frames[0].save(fh, format="GIF", save_all=True,
                                 append_images=self._frames[1:],
                                 duration=int(1000 / self.fps), loop=0)  # fmt: skip


def plot_multiplicity(mult, curve: EquilibriumCurve, path: str | Path) -> None:
    """Distinct equilibria on the branch against the parameter (piecewise constant)."""
    fig, ax = subplots(figsize=(7.5, 3.2))
    for a, b, _, d, _ in mult.rows():
        ax.plot([a, b], [d, d], color="C0", linewidth=2)
    ax.set_xlabel(curve.parameter)
    ax.set_ylabel("distinct equilibria")
    ax.set_title(f"{curve.spec}, eps = {curve.eps:g}")
    ax.grid(True, alpha=0.3)
    save_figure(fig, path)
