"""No name means two things (issue 46, item 2): a public function or class defined at
the top of more than one module is one of the families below, each with what its
members share (one protocol function of each method or game builder, the same
computation on each engine, a command and the library call it runs); a new one fails
here until it is renamed or listed with its reason.  No module or package shares its
name with a package of the studies or the library (``toypoker.games.collusion`` beside
the study ``toypoker.collusion`` did)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import toypoker as tp

SRC = Path(tp.__file__).parent

#: the protocol functions of each method (``solvers/base.py``; ``engine_steps``: its
#: steps on a given engine, a wrapping one's) and of each game builder
PROTOCOL = {"init", "step", "step_many", "output", "summary", "engine_steps",
            "build", "check", "size", "limit_shape", "openspiel"}  # fmt: skip

#: the same computation on each engine, or a layer's form of one computation
SAME = {
    "best_response": "tp.best_response: the flat API, its engines' dispatch, the numpy passes",
    "evaluate": "tp.evaluate: the flat API, its engines' dispatch, the numpy passes",
    "nash_conv": "tp.nash_conv: the flat API, its engines' dispatch, each engine's passes",
    "expected_values": "each engine's numpy passes",
    "reaches": "each engine's numpy passes",
    "instant_regrets": "each engine's counterfactual regrets",
    "player_regrets": "each engine's Engine.regrets",
    "exact_payoffs": "each engine's Engine.sequence_form payoffs",
    "update_infoset": "regret matching of one infoset, in each engine's kernel",
    "run_many": "MCCFR's iterations on the deal table, compiled and in plain Python",
    "first_best": "the tie rule of a best response, numpy and compiled",
    "reference_step": "the CFR family's numpy iteration, on a game or on its hand vectors",
    "check_size": "a size refused in one line before anything is built",
    "deal": "items dealt heaviest first to the least loaded bin (the shards' subtrees)",
    "Param": "a declared parameter: name, type, default (of a game; of a sweep's job kind)",
    "plain": "numbers as plain Python (a scalar; the CLI's JSON, recursively)",
    "write_json": "write as JSON atomically (a profile; a report's index)",
    "openspiel_game": "the OpenSpiel game of a spec (interop, and its module)",
    "load_profile": "a profile file read (the library; the CLI's, with its messages)",
}

#: a command of the CLI and the library function it runs
COMMANDS = {"compare", "detect", "solve", "sweep", "table1", "tmecor", "trace", "check"}


def _defined() -> dict[str, list[str]]:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
                where[node.name].append(str(path.relative_to(SRC).with_suffix("")))
    return where


def test_a_name_defined_twice_is_one_meaning() -> None:
    twice = {n: w for n, w in _defined().items() if len(w) > 1}
    unexplained = {n: w for n, w in twice.items() if n not in PROTOCOL | set(SAME) | COMMANDS}
    assert unexplained == {}
    # a command's namesake: one side is the CLI's module
    for name in COMMANDS & set(twice):
        assert any(w.startswith("cli/") for w in twice[name]), (name, twice[name])


def test_no_module_is_named_as_a_package_of_the_library() -> None:
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").exists()}
    clash = sorted(
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if path.stem in packages and path.parent != SRC and path.parent.name != "cli"
    )
    assert clash == []  # the CLI's command group of a package is its front end
