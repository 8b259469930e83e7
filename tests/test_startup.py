"""What ``import toypoker`` loads: the games, profiles and evaluation, but no
symbolic, plotting or distributed stack until it is used (issue 23).

Checked in a fresh interpreter by the modules present in ``sys.modules`` -- not by
a timing (the start-up times are measured in the README).
"""

from __future__ import annotations

import json
import subprocess
import sys

#: the stacks ``import toypoker`` must leave alone
HEAVY = ("sympy", "matplotlib", "dask", "distributed", "pokerkit")


def loaded_after(code: str) -> set[str]:
    """The top-level and dotted module names in ``sys.modules`` after running ``code``
    in a fresh interpreter (its own stdout is discarded)."""
    script = (
        "import io, json, sys, contextlib\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n    exec({code!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def heavy_in(modules: set[str], heavy: tuple[str, ...]) -> list[str]:
    """The names of ``heavy`` (packages or dotted modules) that ``modules`` holds."""
    return sorted(h for h in heavy if h in modules)


def test_import_toypoker_loads_no_heavy_stack() -> None:
    loaded = loaded_after("import toypoker")
    assert heavy_in(loaded, HEAVY) == []
    assert "toypoker.games" in loaded and "toypoker.profile" in loaded  # the core is there
    # no compiled kernels and no MILP code until used (issue 46: the team wing's
    # evaluation loads with the first team evaluation)
    assert heavy_in(loaded, ("numba", "toypoker.teams.pairs", "toypoker.teams.response")) == []


def test_heavy_stacks_load_when_used() -> None:
    # independent path: the same probe sees them once the code that needs them runs
    loaded = loaded_after(
        "import toypoker as tp\n"
        "tp.solve(tp.load_game('skp'), 'enumerate')\n"
        "from toypoker.plots import subplots\n"
    )
    assert heavy_in(loaded, ("sympy", "matplotlib")) == ["matplotlib", "sympy"]


def test_lazy_names_resolve() -> None:
    import toypoker as tp

    assert set(tp._LAZY) <= set(tp.__all__) and set(tp._LAZY) <= set(dir(tp))
    for name, module in tp._LAZY.items():
        assert getattr(tp, name) is getattr(__import__(f"toypoker.{module}", fromlist=[name]), name)
    # a lazy name never shadows a submodule (importing the submodule would rebind it)
    assert not {n for n in tp._LAZY if n in {m.split(".")[0] for m in tp._LAZY.values()}}
