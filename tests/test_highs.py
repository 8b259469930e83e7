"""HiGHS's banner never reaches toypoker's standard output (issue 34 item 4)."""

import subprocess
import sys

import pytest

pytest.importorskip("highspy")

_BANNER = "Running HiGHS"  # highspy 1.16's first line: "Running HiGHS 1.16.0 (git hash ...)"


@pytest.mark.parametrize("silenced", [False, True])
def test_the_first_highs_model_prints_no_banner_once_silenced(silenced):
    # before: `collusion table7` / `tmecor` output carried HiGHS's copyright banner,
    # printed from C++ by the process's first highspy.Highs(), whatever its options
    code = (
        "import highspy\n"
        + ("from toypoker.highs import silence_banner\nsilence_banner()\n" if silenced else "")
        + "h = highspy.Highs()\nh.setOptionValue('output_flag', False)\nprint('done')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)  # fmt: skip
    assert (_BANNER in done.stdout) is not silenced  # the unsilenced run shows the need
    assert done.stdout.endswith("done\n")
