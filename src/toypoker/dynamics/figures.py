"""The figures of Billingham Sec. 4 and App. D (Figs. 7-17), from our runs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.colors import ListedColormap

from toypoker.dynamics.ode import SKPDynamics, expectations, stable_manifold_s3
from toypoker.dynamics.play import PlayResult
from toypoker.plots import figure, save_figure, subplots

NAMES = ("$b_J$", "$c_K$", "$d_Q$")
ESTIMATOR_LABELS = (
    r"$\bar b_1$ (44)",
    r"$\bar b_2$ (44)",
    r"$\bar c_2$ (46)",
    r"$\bar d$ (45)",
    r"$\bar c_3$ (47)",
)


def fig_limit_cycles(dyn: SKPDynamics, path: Path, n: int = 6, t_end: float = 300.0) -> None:
    """Fig. 7: nested limit cycles in the invariant plane c_K = 0."""
    s1 = dyn.fixed_points()["S1"]
    fig, ax = subplots(figsize=(5.5, 5))
    for r in np.linspace(0.02, 0.18, n):
        sol = dyn.integrate((s1[0] + r, 0.0, s1[2]), t_end, t_eval=np.linspace(0, t_end, 4000))
        ax.plot(sol.y[0], sol.y[2], lw=1)
    ax.plot(s1[0], s1[2], "k*", label="$S_1$")
    ax.set_xlabel("$b_J$")
    ax.set_ylabel("$d_Q$")
    ax.set_title(f"Limit cycles in the plane $c_K = 0$ (P = {dyn.P:g})")
    ax.legend()
    save_figure(fig, path)


def fig_manifold(dyn: SKPDynamics, path: Path) -> None:
    """Fig. 8: integral paths in the stable manifold of S3 (the separatrix)."""
    fig = figure(figsize=(6, 5))
    ax = fig.add_subplot(projection="3d")
    for y in stable_manifold_s3(dyn, n=16):
        ax.plot(y[0], y[1], y[2], lw=0.8)
    for name, pt in dyn.fixed_points().items():
        ax.scatter(*pt, marker="*", s=60)
        ax.text(*pt, name)
    ax.set_xlabel("$b_J$")
    ax.set_ylabel("$c_K$")
    ax.set_zlabel("$d_Q$")
    ax.set_title("Stable manifold of $S_3$ (backward integration)")
    save_figure(fig, path)


def fig_solutions(
    dyn: SKPDynamics, y0s: list, path: Path, exp_path: Path, t_end: float = 400.0
) -> list:
    """Figs. 9 and 10: solutions with different final behaviour and their
    expectation integrals (24)-(26)."""
    sols = [dyn.integrate(y0, t_end, t_eval=np.linspace(0, t_end, 4001)) for y0 in y0s]
    fig, axes = subplots(
        len(sols), 1, figsize=(7.8, 2.6 * len(sols)), sharex=True, layout="constrained"
    )
    axes = np.atleast_1d(axes)
    for ax, sol, y0 in zip(axes, sols, y0s, strict=True):
        for j in range(3):
            ax.plot(sol.t, sol.y[j], label=NAMES[j])
        ax.set_title(f"from {tuple(round(v, 3) for v in y0)}")
        ax.set_ylabel("probability")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    axes[-1].set_xlabel("t")
    save_figure(fig, path)
    fig, axes = subplots(
        len(sols), 1, figsize=(7.8, 2.6 * len(sols)), sharex=True, layout="constrained"
    )
    axes = np.atleast_1d(axes)
    for ax, sol, y0 in zip(axes, sols, y0s, strict=True):
        e = expectations(dyn, sol)
        for j in range(3):
            ax.plot(sol.t, e[j], label=f"$E_{j + 1}$")
        ax.set_title(f"from {tuple(round(v, 3) for v in y0)}")
        ax.set_ylabel("expectation (24)-(26)")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    axes[-1].set_xlabel("t")
    save_figure(fig, exp_path)
    return sols


def fig_play(results: list[PlayResult], path: Path, reference=None) -> None:
    """Figs. 11-15: frequencies against rounds in repeated play."""
    fig, axes = subplots(
        len(results), 1, figsize=(8.2, 2.4 * len(results)), sharex=True, layout="constrained"
    )
    axes = np.atleast_1d(axes)
    for ax, r in zip(axes, results, strict=True):
        t = np.arange(1, len(r.freqs) + 1) * r.record_every
        for j in range(3):
            ax.plot(t, r.freqs[:, j], lw=0.7, label=NAMES[j])
        if reference is not None:
            for v in reference:
                ax.axhline(v, ls="--", color="grey", lw=0.7)
        ax.set_title(f"P = {r.P:g}, k = {r.k[0]:g}, L = {r.L[0]}", fontsize=10)
        ax.set_ylabel("frequency")
        ax.set_ylim(-0.03, 1.03)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize=8)
    axes[-1].set_xlabel("round")
    save_figure(fig, path)


def fig_estimators(
    Ls: list[int],
    means: np.ndarray,
    stds: np.ndarray,
    truth: np.ndarray,
    mean_path: Path,
    std_path: Path,
) -> None:
    """Figs. 16-17: estimator means and standard deviations against L."""
    labels = ESTIMATOR_LABELS
    fig, ax = subplots(figsize=(6.5, 4))
    for j in range(5):
        (line,) = ax.semilogx(Ls, means[:, j], marker="o", label=labels[j])
        ax.axhline(truth[j], color=line.get_color(), ls=":", lw=0.8)
    ax.set_xlabel("L")
    ax.set_ylabel("mean of the estimate")
    ax.legend(fontsize=8)
    ax.set_title("Estimator means (dotted: the true frequencies)")
    save_figure(fig, mean_path)
    fig, ax = subplots(figsize=(6.5, 4))
    for j in range(5):
        ax.loglog(Ls, stds[:, j], marker="o", label=labels[j])
    ref = stds[0, 0] * np.sqrt(Ls[0] / np.asarray(Ls, dtype=float))
    ax.loglog(Ls, ref, "k--", lw=0.8, label=r"$\propto L^{-1/2}$")
    ax.set_xlabel("L")
    ax.set_ylabel("standard deviation")
    ax.legend(fontsize=8)
    save_figure(fig, std_path)


def fig_basins(cs: np.ndarray, ds: np.ndarray, which: np.ndarray, b: float, path: Path) -> None:
    """The two basins of attraction over a grid of initial (c_K, d_Q) at fixed b_J."""
    fig, ax = subplots(figsize=(5, 4.5))
    ax.pcolormesh(cs, ds, which.T, cmap=ListedColormap(["#9ecae1", "#fdae6b"]), shading="nearest")
    ax.set_xlabel("initial $c_K$")
    ax.set_ylabel("initial $d_Q$")
    ax.set_title(
        f"Basins at $b_J$ = {b:.3f}: blue -> $c_K = 0$ ($S_1$), orange -> $d_Q = 0$ ($S_2$)",
        fontsize=8,
    )
    save_figure(fig, path)


def fig16_both_estimators(
    Ls: Sequence[int],
    corrected: np.ndarray,
    printed: np.ndarray,
    truth: np.ndarray,
    path: Path,
    printed_limit: float | None = None,
    corrected_se: np.ndarray | None = None,
    printed_se: np.ndarray | None = None,
) -> None:
    """Fig. 16 redrawn with both forms of Player 2's estimate of ``c_K``.

    ``corrected`` and ``printed`` are the estimator means (rows per L, columns
    b1, b2, c2, d, c3) of runs at fixed Solution 3 frequencies with the
    corrected and the printed eq. (46); the other four estimators are the same
    in both runs and drawn once (from ``corrected``).  Dotted lines: the true
    frequencies; dash-dotted: the large-L limit of (46) as printed.
    Error bars, if given: the standard errors of the means.
    """
    fig, ax = subplots(figsize=(8.2, 4.6))
    Ls = np.asarray(Ls, dtype=float)
    colours = {}
    same_b = np.array_equal(corrected[:, 0], corrected[:, 1])  # equal memories: b1 = b2
    for j in (0, 3, 4, 2) if same_b else (0, 1, 3, 4, 2):
        se = None if corrected_se is None else corrected_se[:, j]
        lab = ESTIMATOR_LABELS[j] + (" corrected" if j == 2 else "")
        if j == 0 and same_b:
            lab = r"$\bar b_1 = \bar b_2$ (44)"
        cont = ax.errorbar(Ls, corrected[:, j], yerr=se, marker="o", ms=4, capsize=2, label=lab)
        colours[j] = cont.lines[0].get_color()
    for j in (0, 2, 3):  # b1 = b2 and c3's truth equals c2's
        ax.axhline(truth[j], color=colours[j], ls=":", lw=0.9)
    se = None if printed_se is None else printed_se[:, 2]
    ax.errorbar(
        Ls,
        printed[:, 2],
        yerr=se,
        marker="s",
        ms=4,
        capsize=2,
        ls="--",
        color=colours[2],
        mfc="white",
        label=ESTIMATOR_LABELS[2] + " as printed",
    )
    if printed_limit is not None:
        ax.axhline(
            printed_limit, color=colours[2], ls="-.", lw=0.9, label="limit of (46) as printed"
        )
    ax.set_xscale("log")
    ax.set_xticks(Ls, [f"{v:g}" for v in Ls])
    ax.minorticks_off()
    ax.set_xlabel("memory L (rounds)")
    ax.set_ylabel("mean of the estimate")
    ax.set_title("Fig. 16 redrawn: estimator means at Solution 3, P = 9 (dotted: true values)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    ax.grid(True, alpha=0.3)
    save_figure(fig, path)
