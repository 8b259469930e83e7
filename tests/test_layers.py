"""The package's import graph: no cycles, and every import points down the floors.

Read from the source with ``ast`` (as a new contributor reads it, not from what
happens to be imported at run time): module-level and function-local imports
count, imports under ``if TYPE_CHECKING:`` do not (they never run).  The floors,
bottom to top (README, "How it works"; issue 23):

ground (errors, checks, frozen, spec, io, interrupts, threads, plots) -> definition -> game ->
games (catalogue, builders, the collusion transform) -> profile / result / engines
(rows, vectors, their records) / symbolic / interop / teams -> solvers, the flat API's
evaluation, the engines' method parts, teams.tmecor -> studies (continuation,
dynamics, literature, collusion) -> front ends (sweeps, report, cli, the flat
API ``toypoker/__init__``).

A module may import its own floor or any floor below; the graph must be acyclic.
Importing ``toypoker.a.b`` runs the package ``toypoker/a/__init__.py`` first, so an
import is also an edge to each enclosing package's ``__init__`` (the root's aside:
it is the entry point every import runs first).  The cycle test also reads the
imports under ``if TYPE_CHECKING:`` (a cycle there is a tangle all the same); the
floors test reads only the imports that run.  ``tests/test_import_first.py`` imports
every module first in a fresh interpreter.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import toypoker

PACKAGE = Path(toypoker.__file__).parent

#: floor of each module, by the longest matching dotted prefix (``toypoker.`` left off)
FLOORS: dict[str, int] = {
    # 0 ground: no knowledge of games
    "errors": 0,
    "lazy": 0,  # names a package imports on first use
    "checks": 0,  # argument checks of the public API (no knowledge of games)
    "frozen": 0,  # frozen records holding arrays: read-only copies, equality, pickling
    "spec": 0,
    "io": 0,
    "interrupts": 0,
    "threads": 0,
    "plots": 0,
    "highs": 0,  # HiGHS without its banner
    "locks": 0,  # run locks on checkpoints and output folders
    "formats": 0,  # the format strings of resumable files: one check, one message
    "kept": 0,  # what resumable work a file holds (no output replaces it)
    "jit": 0,  # numba kernels compiled with their disk cache under a file lock
    "dask_client": 0,  # Dask clients: a LocalCluster deaf to Ctrl-C, a scheduler or one line
    # 1-2 the game
    "definition": 1,
    "game": 2,
    "identity": 2,  # a game's layout and identity (pickled as its spec)
    "payoffs": 2,  # terminal payoff tables of a compiled game (beside game)
    "blocks": 2,  # rows grouped by deal (beside game)
    "infosets": 2,  # a compiled game's infosets and their flat tables (beside game)
    "sequence_form": 2,  # sequences and their constraints, for the LP and the team wing
    "deal_table": 2,  # the rows engine's data, compiled beside the game's public tree
    # 3 the catalogue and its builders (and the collusion transform of a definition)
    "games": 3,
    # 4 what is computed on one compiled game
    "profile": 4,
    "profile_io": 4,  # a profile's data read and written: mappings, JSON, CSV
    "result": 4,
    "archive": 4,  # profiles and results as compact archives (.npz)
    "engines": 4,  # the engines: the deal table (rows), hand vectors, their records
    "symbolic": 4,
    "interop": 4,
    "teams": 4,  # the team wing: profiles moved between a team's games, best responses
    # 5 the methods and their driver; the layouts behind the one Game
    "solvers": 5,
    "evaluation": 5,  # the flat API's evaluation: an engine's, and a team's joint gain
    # the methods' parts on an engine (the engine protocol's regrets and responses), on
    # the solvers' floor: they run the solvers' schedules on what the engine computes
    "engines.vectors.regrets": 5,
    "engines.vectors.responses": 5,
    "engines.rows.responses": 5,  # fictitious play's part on the deal table
    "engines.rows.sequence_form": 5,  # the LP's sequence form on the deal table
    "engines.vectors.sequence_form": 5,
    "engines.vectors.methods": 5,
    # each engine as a whole (its Engine class binds the registry's methods) and the
    # table of engines
    "engines.rows.engine": 5,
    "engines.vectors.engine": 5,
    "engines.reference.engine": 5,
    "engines.sharded.engine": 5,
    "engines.registry": 5,
    "teams.tmecor": 5,  # team-optimal play (TMECor) and its parts
    "teams.forms": 5,
    "teams.bounds": 5,
    "teams.saddle": 5,
    "teams.results": 5,  # what a team adds to a solver's result (after the run)
    # 6 studies built on the solvers
    "continuation": 6,
    "dynamics": 6,
    "literature": 6,
    "collusion": 6,
    # 7 front ends
    "sweeps": 7,
    "report": 7,
    "cli": 7,
    "__main__": 7,
    "": 7,  # toypoker/__init__.py, the flat public API
}


def _modules() -> dict[str, tuple[Path, bool]]:
    """Dotted name (without ``toypoker.``) -> (file, is a package ``__init__``)."""
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        init = parts[-1] == "__init__"
        if init:
            parts = parts[:-1]
        out[".".join(parts)] = (path, init)
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The module a dotted ``toypoker...`` name lives in (a name imported from a
    module resolves to that module)."""
    if name != "toypoker" and not name.startswith("toypoker."):
        return None
    rel = name[len("toypoker.") :] if name != "toypoker" else ""
    while rel not in MODULES:
        if not rel:
            return None
        rel = rel.rpartition(".")[0]
    return rel


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _packages(target: str) -> Iterator[str]:
    """The packages enclosing ``target`` whose ``__init__`` runs on importing it (the
    root aside)."""
    parts = target.split(".")
    for k in range(1, len(parts)):
        yield ".".join(parts[:k])


def _imports(module: str, type_checking: bool = False) -> Iterator[tuple[str, int]]:
    """``(imported module, line)`` for every import of ``module`` that runs (with
    ``type_checking``, those under ``if TYPE_CHECKING:`` too), and the enclosing
    packages each runs."""
    path, init = MODULES[module]
    here = ["toypoker", *module.split(".")] if module else ["toypoker"]
    package = here if init else here[:-1]

    def visit(node: ast.AST) -> Iterator[tuple[str, int]]:
        if isinstance(node, ast.If) and _is_type_checking(node.test) and not type_checking:
            for child in node.orelse:
                yield from visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _resolve(alias.name)
                if target is not None:
                    yield target, node.lineno
                    yield from ((pkg, node.lineno) for pkg in _packages(target))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            for alias in node.names:
                target = _resolve(f"{name}.{alias.name}") or _resolve(name)
                if target is not None:
                    yield target, node.lineno
                    yield from ((pkg, node.lineno) for pkg in _packages(target))
        for child in ast.iter_child_nodes(node):
            yield from visit(child)

    yield from visit(ast.parse(path.read_text(encoding="utf-8")))


def _graph(type_checking: bool = False) -> dict[str, dict[str, int]]:
    """module -> {imported module: first line}, self-imports left out (a package's own
    modules do not import it back through their ``__init__``: it is running already)."""
    graph: dict[str, dict[str, int]] = {m: {} for m in MODULES}
    for m in MODULES:
        for target, line in _imports(m, type_checking):
            if target != m and not (MODULES[target][1] and m.startswith(target + ".")):
                graph[m].setdefault(target, line)
    return graph


GRAPH = _graph()
TYPED_GRAPH = _graph(type_checking=True)


def floor(module: str) -> int:
    """The floor of a module: its longest prefix in :data:`FLOORS`."""
    name = module
    while name not in FLOORS:
        name = name.rpartition(".")[0]
    return FLOORS[name]


def _cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan,
    iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            advanced = False
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_every_module_has_a_floor() -> None:
    # a new top-level module or package must be placed on a floor here
    unplaced = sorted(m for m in MODULES if m.split(".")[0] not in FLOORS)
    assert unplaced == []


def test_no_import_cycles() -> None:
    # TYPE_CHECKING imports included (issue 46, item 6)
    cycles = _cycles(TYPED_GRAPH)
    text = [
        " ; ".join(
            f"{m} -> {t} (line {line})" for m in c for t, line in TYPED_GRAPH[m].items() if t in c
        )
        for c in cycles
    ]
    assert text == []


def test_an_import_runs_the_enclosing_packages() -> None:
    # importing toypoker.solvers.cfr runs toypoker/solvers/__init__.py first: the
    # cycle toypoker.solvers.tmecor hit (issue 46) went through a package __init__
    assert list(_packages("solvers.cfr")) == ["solvers"]
    assert list(_packages("engines.vectors.kernel")) == ["engines", "engines.vectors"]
    assert "solvers" in GRAPH["engines.vectors.regrets"]  # through solvers.cfr
    assert "solvers" not in GRAPH["solvers.registry"]  # its own package is running


def test_imports_point_down_the_floors() -> None:
    up = [
        f"toypoker.{m} (floor {floor(m)}) imports toypoker.{t} (floor {floor(t)}) at line {line}"
        for m, deps in sorted(GRAPH.items())
        for t, line in sorted(deps.items())
        if floor(t) > floor(m)
    ]
    assert up == []


def test_the_graph_is_read_from_the_source() -> None:
    # independent path: lines known from the files themselves (issue 23's examples)
    assert {"definition", "games.deals", "games.hands"} <= set(GRAPH["games.limit"])
    assert floor("games.limit") == 3 and floor("cli.solve") == 7 and floor("") == 7
    assert _cycles({"a": {"b": 1}, "b": {"a": 1}, "c": {"a": 1}}) == [["a", "b"]]
    assert _cycles({"a": {"b": 1}, "b": {}}) == []


#: imports by name at run time (``importlib.import_module("toypoker....")``) that point
#: up the floors, each made on first use, never while a module imports: the edge and why
LAZY_UP: dict[tuple[str, str], str] = {
    ("identity", "engines.registry"): "game.engine: the engine a game's data names, "
    "made on first use (the engines sit above the game they compute on)",
}


def _lazy_imports(module: str) -> Iterator[tuple[str, int]]:
    """``(module, line)`` of every ``importlib.import_module`` of a literal toypoker name."""
    path, _ = MODULES[module]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            target = _resolve(node.args[0].value)
            if target is not None:
                yield target, node.lineno


def test_imports_by_name_up_the_floors_are_declared() -> None:
    # the layer test reads import statements; an import by name is an edge all the same
    up = {
        (m, t): line
        for m in MODULES
        for t, line in _lazy_imports(m)
        if floor(t) > floor(m)
    }
    assert sorted(set(up) - set(LAZY_UP)) == []  # a new one: declare it with its reason
    assert sorted(set(LAZY_UP) - set(up)) == []  # a declared one that is gone: strike it
