"""Every public function that takes a game takes every game ``tp.load_game`` returns --
on the deal table, on hand vectors built without one, and on hand vectors compiled from
one -- or refuses in one line (issue 46: ``tmecor`` and the row evaluation raised
``AttributeError: 'TreeGame' object has no attribute 'n_rows'`` on games ``tp.load_game``
returned).

The functions are found, not listed: every function in a module's ``__all__`` whose
first parameter is ``game``, called with canned values for the parameters it requires
(:data:`CANNED`); one whose required parameters are a method's state or a team's
payoff coefficients is a step inside a method, reached through ``tp.solve`` here, and
listed in :data:`INSIDE` with the reason.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import numpy as np
import pytest

import toypoker as tp
from toypoker.errors import ToypokerError

SPEC = "kuhn(players=3,cards=4,team=12,sharing=win)"  # small, three players, a team

#: the games: the deal table; hand vectors built without deals; hand vectors compiled
#: from the deal table
GAMES = {
    "rows": lambda: tp.load_game(SPEC, layout="rows"),
    "vectors": lambda: tp.load_game(SPEC, layout="vector"),
    "vectors-compiled": lambda: tp.load_game("leduc(players=2)", layout="vector"),
}

#: a value for each required parameter the sweep can fill
CANNED = {
    "profile": lambda g: tp.Profile.uniform(g),
    "player": lambda g: 0,
    "why": lambda g: "a test",
    "method": lambda g: "cfr+",
    "methods": lambda g: ["cfr+"],
    "seeds": lambda g: 2,
    "seats": lambda g: (0, 1),
    "team": lambda g: (0, 1),
    "members": lambda g: (0, 1),
    "p": lambda g: 0,
    "parameter": lambda g: "pot",
    "lo": lambda g: 3,
    "hi": lambda g: 3.2,
    "eps": lambda g: 0.1,
    "seconds": lambda g: 2.0,
    "milp_seconds": lambda g: 5.0,
}

#: keyword values that keep a call short
SHORT = {"iterations": 5, "seconds": 2.0, "max_steps": 5}

#: what the sweep does not call directly, and why
INSIDE = {
    "state": "a method's step, reached by tp.solve",
    "options": "a method's step, reached by tp.solve",
    "coef": "a team's payoff coefficients, made by the team evaluation",
    "sigma": "a flat strategy inside a method's step",
    "average": "a method's state",
    "layout": "a method's layout part, made by the engine",
    "vector": "a stored profile's arrays",
    "probs": "a stored profile's arrays",
    "model": "a team model made by pair_model",
    "plans": "a team's plans made by TMECor",
    "weights": "a team's plans made by TMECor",
    "outsider": "made by TMECor",
    "w": "made by TMECor",
    "choice": "a best response's choice",
    "factory": "a cache factory",
    "strong": "TMECor's strong game",
    "n": "a method's step count",
    "rng": "a sampling generator",
    "restarts": "the alternating response's restarts",
    "reach": "a method's reach arrays",
    "eprob": "a method's edge probabilities",
    "seed": "a sampling method's seed, reached by tp.solve",
    "regrets_of": "an engine's regret step, handed to the CFR iteration by tp.solve",
    "kernel": "an engine's fused kernel, handed to the CFR iteration by tp.solve",
    "res": "a solver's result, to which tp.solve adds a team's part",
    "sf": "a game's sequence form, assembled by its engine for the LP",
}


def _functions() -> list[tuple[str, str]]:
    found = []
    for info in pkgutil.walk_packages(tp.__path__, "toypoker."):
        if info.name.startswith(("toypoker.cli", "toypoker.report")):
            continue  # front ends: their commands are tested as a user runs them
        mod = importlib.import_module(info.name)
        for name in getattr(mod, "__all__", ()):
            f = getattr(mod, name, None)
            if not inspect.isfunction(f) or f.__module__ != info.name:
                continue
            params = list(inspect.signature(f).parameters.values())
            if params and params[0].name == "game":
                found.append((info.name, name))
    return found


FUNCTIONS = _functions()


def _required(f: object) -> list[str]:
    return [
        p.name for p in list(inspect.signature(f).parameters.values())[1:]
        if p.default is inspect.Parameter.empty
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.POSITIONAL_ONLY)
    ]  # fmt: skip


def test_the_sweep_finds_the_functions_and_fills_or_explains_each() -> None:
    names = {f"{m}.{n}" for m, n in FUNCTIONS}
    assert {"toypoker.teams.tmecor.tmecor", "toypoker.evaluation.evaluate"} <= names
    for m, n in FUNCTIONS:
        f = getattr(importlib.import_module(m), n)
        unknown = [p for p in _required(f) if p not in CANNED and p not in INSIDE]
        assert unknown == [], f"{m}.{n}: say how to fill or why not: {unknown}"


CALLED = [
    (m, n) for m, n in FUNCTIONS
    if not any(p in INSIDE for p in _required(getattr(importlib.import_module(m), n)))
]  # fmt: skip


@pytest.mark.parametrize("where", sorted(GAMES))
@pytest.mark.parametrize(("module", "name"), CALLED, ids=[f"{m}.{n}" for m, n in CALLED])
def test_every_game_or_one_line(module: str, name: str, where: str) -> None:
    f = getattr(importlib.import_module(module), name)
    game = GAMES[where]()
    params = inspect.signature(f).parameters
    args = [CANNED[p](game) for p in _required(f)]
    kwargs = {k: v for k, v in SHORT.items() if k in params and k not in _required(f)}
    if "seeds" in params and "seeds" not in _required(f):
        kwargs["seeds"] = 2
    try:
        f(game, *args, **kwargs)
    except ToypokerError as exc:
        text = str(exc)
        assert text and "\n" not in text, f"{module}.{name} on {where}: {text!r}"
    # anything else (AttributeError, TypeError, ...) fails the test


def test_a_computation_on_the_deal_table_of_a_game_without_one_builds_it_or_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the row evaluation itself, as the issue tried it: the deal table is built once
    # from the spec where it fits, refused in one line where it does not
    from toypoker.engines.rows.values import evaluate

    g = tp.load_game("kuhn(players=3,cards=13)")
    assert g.layout == "vector"
    uniform = tp.Profile.uniform(g)
    ev = tp.evaluate(g, uniform)  # the flat API asks the engine
    assert np.isfinite(float(ev.nash_conv))
    on_rows = evaluate(g, uniform)
    assert float(on_rows.nash_conv) == pytest.approx(float(ev.nash_conv), abs=1e-12)
    fresh = tp.load_game("kuhn(players=3,cards=13)")
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "100000")
    with pytest.raises(ToypokerError, match="deal table") as info:
        evaluate(fresh, tp.Profile.uniform(fresh))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("engine", [None, "reference"])
@pytest.mark.parametrize("where", sorted(GAMES))
@pytest.mark.parametrize("method", sorted(tp.METHODS))
def test_every_method_on_every_game_and_engine_or_one_line(method, where, engine) -> None:
    """Every method of the registry on every kind of game ``tp.load_game`` returns, on
    the game's own engine and on the reference engine: a result, or one line (the LP
    beyond two players, the enumerator past its size, TMECor without a team).  A
    method that needs the deal table takes it from the spec where it fits."""
    game = GAMES[where]()
    seed = {"seed": 1} if tp.METHODS[method].stochastic else {}
    try:
        r = tp.solve(game, method, iterations=5, seconds=20.0, engine=engine, **seed)
    except ToypokerError as exc:
        assert str(exc) and "\n" not in str(exc), f"{method} on {where}: {exc!r}"
        return
    assert r.iterations >= 1 and r.method == method
    if r.profile is not None:  # a set-valued or correlated answer has none
        assert r.profile.game.spec == game.spec
