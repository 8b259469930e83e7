"""Figures of a traced curve (src/toypoker/continuation/figures.py): sizes people can read."""

import numpy as np
import pytest
from PIL import Image

from toypoker.continuation import figures
from toypoker.continuation.records import EquilibriumCurve


def _curve(game, n_points=12):
    rng = np.random.default_rng(0)
    theta = np.geomspace(1.0, 1e-3, n_points)
    return EquilibriumCurve(
        spec=game.spec,
        parameter="eps",
        eps=1e-3,
        response="arctan",
        theta=theta,
        arclength=np.arange(n_points, dtype=float),
        expectations=np.zeros((n_points, game.n_players)),
        sigma=rng.random((n_points, game.n_sigma)),
        sigma_labels=tuple(f"{i.label}={a}" for i in game.infosets for a in i.actions),
        reason="reached",
        steps=n_points,
        seconds=0.0,
        info={"window": [1e-3, 1.0]},
    )


@pytest.mark.slow
def test_a_large_game_gets_one_heatmap_not_a_wall_of_panels(game, tmp_path):
    # issue 14 item 9: Leduc's frequencies.png was 96 panels, 1747 x 8014 px
    g = game("leduc(players=2)")
    assert len(figures.decision_nodes(g)) > figures.MAX_PANELS
    figures.plot_frequencies(_curve(g), g, tmp_path / "f.png", log=True)
    w, h = Image.open(tmp_path / "f.png").size
    assert w <= 1200 and h <= 3200 and h / w < 3.5


@pytest.mark.slow
def test_a_small_game_keeps_a_panel_per_node(game, tmp_path):
    g = game("kuhn(players=3)")
    assert len(figures.decision_nodes(g)) <= figures.MAX_PANELS
    figures.plot_frequencies(_curve(g), g, tmp_path / "f.png")
    w, h = Image.open(tmp_path / "f.png").size
    assert w <= 1800 and h <= 1600


def test_range_bars_have_a_legend(tmp_path):
    """Issue 24: the ranges plot had no legend for its light and dark bars."""
    from toypoker import load_game
    from toypoker.continuation.figures import RangeBars, _figure_for

    game = load_game("kuhn(players=3)")
    fig = _figure_for(game)
    RangeBars(fig, game)
    labels = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert labels == [
        "share of the holding still in the range",
        "share of it taking the aggressive action",
    ]


@pytest.mark.parametrize(
    "spec",
    [pytest.param("leduc(players=2)", marks=pytest.mark.slow), "kuhn(players=3)"],  # 96 panels
)
def test_range_animation_frames_fit_a_screen(spec, tmp_path):
    """Issue 24: the Leduc GIF frame was 1320 x 5544 pixels (96 panels in 4 columns);
    every frame now fits a 1920 x 1080 screen with a panel per decision node."""
    from toypoker import load_game

    game = load_game(spec)
    path = tmp_path / "r.gif"
    figures.animate_ranges(_curve(game, 3), game, path, frames=2)
    with Image.open(path) as im:
        width, height = im.size
    assert width <= 1920 and height <= 1080, (width, height)
    assert width >= 600 and height >= 400  # not shrunk to nothing


def test_range_animation_reports_each_frame(tmp_path):
    """Issue 24: trace was silent while it drew; the GIF reports its frames (the trace
    command's progress bar advances by them)."""
    from toypoker import load_game

    game = load_game("kuhn(players=3)")
    seen = []
    figures.animate_ranges(_curve(game, 3), game, tmp_path / "r.gif", frames=3,
                           progress=seen.append)  # fmt: skip
    assert seen[-3:] == [1, 2, 3]


def test_range_animation_writes_no_temporary_file(tmp_path, monkeypatch):
    """Issue 35 item 4: the GIF went through a temporary file in the temporary folder
    (a missing, full or read-only one failed it, naming no file); now it is written
    straight through the package's one writer, a link's target included."""
    import tempfile

    from toypoker import load_game

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-such-folder"))
    game = load_game("kuhn(players=3)")
    target = tmp_path / "real.gif"
    link = tmp_path / "r.gif"
    link.symlink_to(target)
    figures.animate_ranges(_curve(game, 3), game, link, frames=2)
    assert link.is_symlink()
    with Image.open(target) as im:
        assert im.format == "GIF" and im.n_frames == 2
