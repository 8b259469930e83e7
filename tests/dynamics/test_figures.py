"""Figures of the dynamics (no pyplot backend switch at import)."""

import subprocess
import sys

import numpy as np
import pytest

from toypoker.dynamics.figures import fig16_both_estimators


@pytest.mark.slow
def test_importing_plots_leaves_the_backend_alone():
    code = (
        "import matplotlib; matplotlib.use('svg');"
        " import toypoker.plots, toypoker.dynamics.figures; import sys;"
        " sys.exit(0 if matplotlib.get_backend() == 'svg' else 1)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_fig16_both_estimators_writes_a_png(tmp_path):
    Ls = [6, 12, 24]
    truth = np.array([2 / 9, 2 / 9, 2 / 11, 4 / 15, 2 / 11])
    corrected = np.tile(truth, (3, 1))
    printed = corrected.copy()
    printed[:, 2] *= 1.09
    path = tmp_path / "fig16.png"
    fig16_both_estimators(Ls, corrected, printed, truth, path, printed_limit=0.198)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
