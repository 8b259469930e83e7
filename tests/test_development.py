"""The checklists of docs/development.md, enforced: add an engine, add a method.

An engine is a package of :mod:`toypoker.engines` whose ``engine.py`` class answers the
whole :class:`toypoker.engines.protocol.Engine` protocol, listed once in
:data:`toypoker.engines.registry.ENGINES`; a method is one module of
:mod:`toypoker.solvers` listed once in :data:`toypoker.METHODS`; and nothing outside
``src/toypoker/engines/`` asks which layout a game is on (issue 46's target: 0 places;
the ones left are listed here, so a new one fails).
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import toypoker as tp
from toypoker.engines.protocol import Engine
from toypoker.engines.registry import ENGINES, engine_for, engine_of
from toypoker.errors import ToypokerError

SRC = Path(tp.__file__).parent

#: the protocol's members, read from the class itself (methods and annotated attributes)
MEMBERS = sorted(
    {n for n, v in vars(Engine).items() if callable(v) and not n.startswith("_")}
    | set(Engine.__annotations__)
)


def test_the_protocol_is_what_the_checklist_names() -> None:
    # docs/development.md lists these members; a new one is a new line there too
    text = (Path(__file__).resolve().parents[1] / "docs" / "development.md").read_text()
    assert MEMBERS == sorted(
        ["name", "provides", "game", "first_check", "checks_per_decade", "runs", "method",
         "evaluate", "nash_conv", "best_response", "regrets", "sampled_regrets",
         "mccfr_iterations", "cfr_kernel", "fp_responses",
         "sequence_form", "memory_bytes", "check", "summary", "shard"]
    )  # fmt: skip
    assert all(f"`{m}`" in text for m in MEMBERS)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_each_engine_is_a_package_answering_the_whole_protocol(name: str) -> None:
    cls = ENGINES[name]
    package = cls.__module__.rsplit(".", 1)[0]
    assert cls.__module__ == f"toypoker.engines.{name}.engine"
    assert (SRC / "engines" / name / "__init__.py").exists(), package
    missing = [m for m in MEMBERS if not hasattr(cls, m) and m not in _fields(cls)]
    assert missing == []
    assert cls.name == name  # the registry's key is the engine's own name
    assert callable(getattr(cls, "on", None))  # how engine_on makes it of a game


def test_the_run_s_engine_is_a_package_answering_the_whole_protocol() -> None:
    """The sharded run (started by ``Engine.shard``, not listed in ENGINES: it holds
    workers) is held to the same checklist."""
    from toypoker.engines.sharded.engine import ShardedEngine

    assert ShardedEngine.__module__ == "toypoker.engines.sharded.engine"
    fields = _fields(ShardedEngine)
    missing = [m for m in MEMBERS if not hasattr(ShardedEngine, m) and m not in fields]
    assert missing == []
    assert ShardedEngine.name == "sharded" and "sharded" not in ENGINES


def _fields(cls: type) -> set[str]:
    return set(getattr(cls, "__dataclass_fields__", {}))


@pytest.mark.parametrize(
    ("spec", "layout", "engine"),
    [("kuhn(players=3)", "rows", "rows"), ("kuhn(players=3,cards=13)", "vector", "vectors")],
)
def test_engine_of_names_the_engine_a_game_is_built_on(spec: str, layout: str, engine: str):
    g = tp.load_game(spec, layout=layout)
    e = engine_of(g)
    assert e.name == engine and e.game is g and engine_of(g) is e  # built once a game
    # a method that needs the deals takes the deal table, built from the spec
    assert engine_for(g, "es-mccfr").name == "rows"
    assert engine_for(g, "cfr+") is e


@pytest.mark.parametrize("name", sorted(tp.METHODS))
def test_each_method_runs_on_hand_vectors_or_says_what_they_lack(name: str) -> None:
    """Checklist step 3 of a method: where hand vectors provide its needs its steps run
    there (on a game built on them, a few iterations), else it is refused in one line
    naming the need (then ``engine_for`` takes the deal table)."""
    from toypoker.engines.vectors.methods import PROVIDES

    m = tp.METHODS[name]
    g = tp.load_game("leduc(players=2)", layout="vector")
    engine = engine_of(g)
    if not m.needs <= PROVIDES:
        with pytest.raises(ToypokerError, match="it needs"):
            engine.method(name)
        return
    seed = {"seed": 1} if m.stochastic else {}
    r = tp.solve(g, name, iterations=3, **seed)
    assert r.iterations >= 1 and engine.method(name).name == name


@pytest.mark.parametrize("name", sorted(tp.METHODS))
def test_each_method_is_one_module_of_the_solvers(name: str) -> None:
    m = tp.METHODS[name]
    steps = [f for f in (m.init, m.step, m.output, m.step_many) if f is not None]
    modules = {inspect.getmodule(f).__name__ for f in steps}  # type: ignore[union-attr]
    assert len(modules) == 1, modules
    (module,) = modules
    assert module.startswith("toypoker.solvers."), module
    assert m.options.__module__ in (module, "toypoker.solvers.cfr")  # its own options


QUESTION = re.compile(r'layout ?[!=]= ?"|vector_of\(|"_vector"|\._vector\b|"_rows"')


def test_no_layout_question_outside_the_engines() -> None:
    found: dict[str, int] = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("engines/"):
            continue
        n = sum(1 for line in path.read_text().splitlines() if QUESTION.search(line))
        if n:
            found[rel] = n
    assert found == {}
