"""The table of engines (:mod:`toypoker.engines.registry`) and what a method needs of one.

A method declares its needs (``Method.needs``, words of
:data:`toypoker.solvers.base.NEEDS`); an engine declares what it ``provides``; an engine
runs exactly the methods whose needs it provides, refuses the others in one line naming
the need, and :func:`~toypoker.engines.registry.engine_for` sends them to the deal table.
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest

import toypoker as tp
from toypoker.engines import registry
from toypoker.engines.registry import ENGINES, engine_for, engine_of
from toypoker.errors import ToypokerError
from toypoker.solvers import registry as methods
from toypoker.solvers.base import NEEDS, Method

ROWS = "kuhn(players=3)"
VECTORS = "kuhn(players=3,cards=13)"  # load_game takes hand vectors here


@pytest.fixture(scope="module")
def engines() -> list:
    """The engine of a game on each layout, and the reference engine on each."""
    out = []
    for spec in (ROWS, VECTORS):
        g = tp.load_game(spec)
        out += [engine_of(g), engine_of(g, "reference")]
    return out


def test_the_two_layouts_give_the_two_data_engines(engines) -> None:
    assert [e.name for e in engines] == ["rows", "reference", "vectors", "reference"]
    assert [e.provides for e in engines] == [{"deals", "exact"}] * 2 + [{"exact"}] * 2


def test_an_engine_runs_exactly_the_methods_whose_needs_it_provides(engines) -> None:
    for e in engines:
        assert e.provides <= set(NEEDS), e.name
        for name, m in tp.METHODS.items():
            assert m.needs <= set(NEEDS), name
            assert e.runs(name) is (m.needs <= e.provides), (e.name, name)


def test_the_registry_declares_the_deal_readers() -> None:
    """The methods that sample or enumerate joint deals say so (their papers: external
    and outcome sampling draw a deal an iteration; the enumerator and TMECor read every
    deal's supports); the exact ones say they are exact."""
    deals = {n for n, m in tp.METHODS.items() if "deals" in m.needs}
    exact = {n for n, m in tp.METHODS.items() if "exact" in m.needs}
    assert deals == {"es-mccfr", "os-mccfr", "enumerate", "tmecor"}
    assert exact == {"lp", "enumerate", "tmecor"}


def test_every_method_hand_vectors_provide_for_has_its_steps_there(engines) -> None:
    """The checklist of a new method: it declares what hand vectors lack, or it has its
    steps there (``engines/vectors/methods.py``)."""
    vectors = engines[2]
    for name in tp.METHODS:
        if vectors.runs(name):
            assert vectors.method(name).name == name


def test_a_need_the_engine_lacks_is_refused_in_one_line_naming_it(engines) -> None:
    vectors = engines[2]
    with pytest.raises(ToypokerError) as err:
        vectors.method("enumerate")
    text = str(err.value)
    assert "\n" not in text and "needs the table of joint deals" in text
    assert "use cfr, cfr+" in text and "es-mccfr" not in text.split("use ")[1]


def test_the_declaration_decides(monkeypatch) -> None:
    """Declared, not inferred: cfr+ said to need the joint deals runs on the deal table
    only (today's engines decided by the options' type, and ran it on hand vectors)."""
    needy = dataclasses.replace(tp.METHODS["cfr+"], needs=frozenset({"deals"}))
    monkeypatch.setattr(methods, "METHODS", MappingProxyType({**tp.METHODS, "cfr+": needy}))
    g = tp.load_game(VECTORS)
    assert not engine_of(g).runs("cfr+") and engine_of(g).runs("cfr")
    assert engine_for(g, "cfr+").name == "rows"
    assert engine_for(g, "cfr").name == "vectors"


def test_an_unknown_need_is_refused_when_the_method_is_made() -> None:
    m = tp.METHODS["cfr+"]
    with pytest.raises(ValueError, match="unknown needs"):
        Method(m.name, m.doc, m.options, m.defaults, m.init, m.step, m.output, m.state_type,
               needs=frozenset({"gpu"}))  # fmt: skip


def test_a_game_s_engine_comes_from_the_table(monkeypatch) -> None:
    """``game.engine`` is ``ENGINES[name].on(game)`` for the name its engine data bears:
    an engine put in the table is the one every fresh game gets."""

    class Counting(ENGINES["rows"]):  # type: ignore[misc,valid-type]
        made: list = []  # noqa: RUF012

        @classmethod
        def on(cls, game):
            cls.made.append(game.spec)
            return super().on(game)

    monkeypatch.setattr(registry, "ENGINES", MappingProxyType({**ENGINES, "rows": Counting}))
    g = tp.load_game("kuhn(players=2,ante=2)")  # a game no other test has made an engine of
    assert isinstance(g.engine, Counting) and Counting.made == [g.spec]


def test_a_wrapping_engine_is_made_on_any_game_and_a_data_engine_only_on_its_own() -> None:
    g = tp.load_game(VECTORS)
    assert engine_of(g, "reference").inner is g.engine
    with pytest.raises(ToypokerError) as err:
        engine_of(g, "rows")
    assert str(err.value) == (
        "engine 'rows': kuhn(players=3,cards=13,ante=1,bet=1) is built on vectors (load it "
        "with layout='rows' to run on rows); engine may be vectors or reference here"
    )
