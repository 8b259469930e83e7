"""Every module imports first, in a fresh interpreter (issue 46, item 6).

A module that only imports after another has been imported hides an import cycle:
``python -c "import toypoker.solvers.tmecor"`` failed that way (solvers -> registry ->
the vector engine's methods -> solvers).  ``tests/test_layers.py`` reads the same graph
from the source; this runs it.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import toypoker

#: a driver that loads the heavy third-party stacks once, then forks a child a module:
#: each child imports one toypoker module first (no toypoker module is loaded in the
#: parent), so the order toypoker's own imports run in is the fresh interpreter's
DRIVER = """
import os, sys, traceback
import numpy, scipy.optimize, scipy.sparse, numba, flint  # third party only
bad = []
for m in sys.argv[1:]:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            __import__(m)
            code = 0
        except BaseException as exc:
            os.write(w, (m + ': ' + repr(exc)).encode()[:4000])
            code = 1
        os._exit(code)
    os.close(w)
    with os.fdopen(r, 'rb') as f:
        msg = f.read().decode()
    _, status = os.waitpid(pid, 0)
    if status:
        bad.append(msg or m + ': exit status ' + str(status))
assert 'toypoker' not in sys.modules
print('\\n'.join(bad))
"""


def _modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(toypoker.__path__, "toypoker."))


def test_every_module_imports_first() -> None:
    mods = _modules()
    assert len(mods) > 100  # the walk found the package (about 160 modules)
    out = subprocess.run(
        [sys.executable, "-c", DRIVER, *mods], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_the_driver_sees_a_failing_import() -> None:
    # independent check that the driver reports what fails: a module that does not exist
    out = subprocess.run(
        [sys.executable, "-c", DRIVER, "toypoker.no_such_module"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "toypoker.no_such_module: ModuleNotFoundError" in out.stdout
