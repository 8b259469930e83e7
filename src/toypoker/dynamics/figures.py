"""The figures of Billingham Sec. 4 and App. D (Figs. 7-17), from our runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..plots import plt, save_figure
from .ode import SKPDynamics, expectations, stable_manifold_s3
from .play import PlayResult

NAMES = ("$b_J$", "$c_K$", "$d_Q$")


def fig_limit_cycles(dyn: SKPDynamics, path: Path, n: int = 6, t_end: float = 300.0) -> None:
    """Fig. 7: nested limit cycles in the invariant plane c_K = 0."""
    s1 = dyn.fixed_points()["S1"]
    fig, ax = plt.subplots(figsize=(5.5, 5))
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
    fig = plt.figure(figsize=(6, 5))
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
    fig, axes = plt.subplots(len(sols), 1, figsize=(7, 2.6 * len(sols)), sharex=True)
    axes = np.atleast_1d(axes)
    for ax, sol, y0 in zip(axes, sols, y0s, strict=True):
        for j in range(3):
            ax.plot(sol.t, sol.y[j], label=NAMES[j])
        ax.set_title(f"from {tuple(round(v, 3) for v in y0)}")
        ax.legend(loc="upper right")
    axes[-1].set_xlabel("t")
    save_figure(fig, path)
    fig, axes = plt.subplots(len(sols), 1, figsize=(7, 2.6 * len(sols)), sharex=True)
    axes = np.atleast_1d(axes)
    for ax, sol in zip(axes, sols, strict=True):
        e = expectations(dyn, sol)
        for j in range(3):
            ax.plot(sol.t, e[j], label=f"$E_{j + 1}$")
        ax.legend(loc="upper left")
    axes[-1].set_xlabel("t")
    save_figure(fig, exp_path)
    return sols


def fig_play(results: list[PlayResult], path: Path, reference=None) -> None:
    """Figs. 11-15: frequencies against rounds in repeated play."""
    fig, axes = plt.subplots(len(results), 1, figsize=(7.5, 2.4 * len(results)), sharex=False)
    axes = np.atleast_1d(axes)
    for ax, r in zip(axes, results, strict=True):
        t = np.arange(1, len(r.freqs) + 1) * r.record_every
        for j in range(3):
            ax.plot(t, r.freqs[:, j], lw=0.7, label=NAMES[j])
        if reference is not None:
            for v in reference:
                ax.axhline(v, ls="--", color="grey", lw=0.7)
        ax.set_title(f"P = {r.P:g}, k = {r.k[0]:g}, L = {r.L[0]}")
        ax.legend(loc="upper right", fontsize=7)
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
    labels = [r"$\bar b_1$", r"$\bar b_2$", r"$\bar c_2$", r"$\bar d$", r"$\bar c_3$"]
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for j in range(5):
        (line,) = ax.semilogx(Ls, means[:, j], marker="o", label=labels[j])
        ax.axhline(truth[j], color=line.get_color(), ls=":", lw=0.8)
    ax.set_xlabel("L")
    ax.set_ylabel("mean of the estimate")
    ax.legend(fontsize=8)
    ax.set_title("Estimator means (dotted: the true frequencies)")
    save_figure(fig, mean_path)
    fig, ax = plt.subplots(figsize=(6.5, 4))
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
    from matplotlib.colors import ListedColormap

    fig, ax = plt.subplots(figsize=(5, 4.5))
    ax.pcolormesh(cs, ds, which.T, cmap=ListedColormap(["#9ecae1", "#fdae6b"]), shading="nearest")
    ax.set_xlabel("initial $c_K$")
    ax.set_ylabel("initial $d_Q$")
    ax.set_title(
        f"Basins at $b_J$ = {b:.3f}: blue -> $c_K = 0$ ($S_1$), orange -> $d_Q = 0$ ($S_2$)",
        fontsize=8,
    )
    save_figure(fig, path)
