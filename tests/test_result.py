"""The one result type: frozen, JSON round trip, CSV trace, atomic save."""

import dataclasses
import json
from fractions import Fraction as F

import pytest

from toypoker.result import Result, Stopped, TracePoint, jsonable


def test_stopped_is_a_string_enum():
    assert Stopped("target") is Stopped.TARGET and Stopped.TARGET == "target"
    assert {s.value for s in Stopped} == {
        "iterations", "seconds", "target", "interrupted", "solved", "finished"
    }  # fmt: skip


def test_result_is_frozen_with_read_only_options(game):
    g = game("kuhn(players=2)")
    r = Result(g, "x", {"a": 1}, stopped="target")
    assert r.stopped is Stopped.TARGET and r.spec == g.spec
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.method = "y"  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.options["a"] = 2  # type: ignore[index]


def test_json_keeps_exact_values_and_the_trace(game, tmp_path):
    g = game("kuhn(players=2)")
    r = Result(
        g,
        "lp",
        {"pot": F(9, 2), "output": Stopped.SOLVED},
        values=(-1 / 18, 1 / 18),
        value_exact=(F(-1, 18), F(1, 18)),
        exact=True,
        certified=True,
        trace=(TracePoint(1, 0.5, 0.0),),
        iterations=1,
    )
    d = r.to_json_dict()
    assert d["value_exact"] == ["-1/18", "1/18"] and d["options"] == {
        "pot": "9/2", "output": "solved"
    }  # fmt: skip
    assert d["game"] == g.spec and d["certified"] and d["trace"] == [[1, 0.5, 0.0]]
    path = tmp_path / "r.json"
    r.save(path)
    assert json.loads(path.read_text()) == d
    assert not list(tmp_path.glob(".*.tmp"))  # atomic: no temporary left


def test_trace_csv(game, tmp_path):
    r = Result(
        game("kuhn(players=2)"), "cfr", trace=(TracePoint(1, 0.25, 0.5), TracePoint(2, 0.5, 0.125))
    )
    text = r.to_csv(tmp_path / "t.csv")
    assert text == "iteration,seconds,nash_conv\n1,0.25,0.5\n2,0.5,0.125\n"
    assert (tmp_path / "t.csv").read_text() == text


def test_jsonable_handles_numbers_enums_and_nesting():
    assert jsonable({"x": (F(1, 3), Stopped.SECONDS), "y": None}) == {
        "x": ["1/3", "seconds"], "y": None
    }  # fmt: skip


# ------------------------------------------------- frozen for real, pickles (issue 35)
def _solved(game):
    import toypoker as tp

    g = game("kuhn(players=2)")
    return g, tp.solve(g, "cfr+", iterations=20)


def test_the_issues_attack_on_a_result_raises(game):
    """Issue 35: ``r.profile.probs[:] = 0; r.profile.probs[0] = 5`` then ``tp.nash_conv``
    returned 0.0, a non-profile reported as an exact equilibrium."""
    import toypoker as tp
    from toypoker.errors import ProfileError

    g, r = _solved(game)
    with pytest.raises(ValueError, match="read-only"):
        r.profile.probs[:] = 0
    r.profile.probs.setflags(write=True)  # the one way left to change it
    r.profile.probs[:] = 0
    r.profile.probs[0] = 5
    with pytest.raises(ProfileError, match="sum to"):
        tp.nash_conv(g, r.profile)


@pytest.mark.usefixtures("pickled_games")
def test_results_pickle_and_deep_copy(game):
    """Round trips equal (issue 35: ``cannot pickle 'mappingproxy' object``), through
    pickle, ``copy.deepcopy`` and a multiprocessing child (a real process, which
    evaluates the profile it was sent: the same NashConv as here)."""
    import copy
    import multiprocessing
    import pickle
    from concurrent.futures import ProcessPoolExecutor

    import toypoker as tp

    g, r = _solved(game)
    for q in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert q == r and q is not r
        assert isinstance(q.options, type(r.options)) and not q.profile.probs.flags.writeable
    exact = tp.solve(g, "lp")
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        back, nash_conv = pool.submit(_round_trip, exact).result(timeout=120)
    assert back == exact and nash_conv == tp.nash_conv(g, exact.profile) == 0


def _round_trip(r: Result) -> tuple[Result, object]:
    import toypoker as tp

    return r, tp.nash_conv(r.game, r.profile)


def test_a_result_pickles_with_its_own_game(game):
    """Without the stand-in: ``Game`` pickles itself (as its spec, rebuilt by its builder)."""
    import pickle

    _, r = _solved(game)
    assert pickle.loads(pickle.dumps(r)) == r


@pytest.mark.usefixtures("pickled_games")
def test_a_trace_result_is_read_only_and_round_trips(game):
    """Issue 35: a trace result's curve exposed writeable arrays; its copies were never
    equal (the curve's solver state compared by identity): now read-only, equal."""
    import copy
    import pickle

    import toypoker as tp

    r = tp.trace_curve(game("skp"), "pot", 2, 2.25)
    with pytest.raises(ValueError, match="read-only"):
        r.curve.sigma[0, 0] = 0.5
    assert copy.deepcopy(r) == r and pickle.loads(pickle.dumps(r)) == r


@pytest.mark.parametrize(
    ("spec", "method", "budget"),
    [
        ("kuhn(players=2)", "lp", {}),  # an exact profile
        ("kuhn(players=3)", "cfr+", {"iterations": 40}),
        ("rhode_island(ranks=3,suits=2)", "cfr+", {"iterations": 3}),  # on hand vectors
        ("kuhn(players=2)", "cfr", {"iterations": 5, "profile": None}),  # written whole
    ],
)
def test_save_streams_the_bytes_of_json_dumps(tmp_path, spec, method, budget):
    # Result.save streams the profile (Rhode Island's 3.9 M infosets as one dict took
    # gigabytes) and writes what json.dumps(to_json_dict(), indent=1) writes, byte for byte
    import json

    from toypoker import load_game, solve

    budget = dict(budget)  # (the parameter itself is shared)
    keep = budget.pop("profile", True)
    r = solve(load_game(spec), method, **budget)
    if keep is None:
        r = dataclasses.replace(r, profile=None)
    path = tmp_path / "r.json"
    r.save(path)
    assert path.read_text(encoding="utf-8") == json.dumps(r.to_json_dict(), indent=1) + "\n"
    if r.profile is not None:
        assert "".join(r._json_pieces()) == path.read_text(encoding="utf-8")
        assert len(list(r._json_pieces())) >= 3  # in pieces


# Result.load: what save wrote, read back (issue 48)


@pytest.mark.parametrize("name", ["r.json", "r.npz"])
def test_load_reads_back_what_save_wrote(game, tmp_path, name):
    import toypoker as tp

    g = game("kuhn(players=3)")
    r = tp.solve(g, "cfr+", iterations=40, check_every=20)
    r.save(tmp_path / name)
    back = Result.load(tmp_path / name)
    assert back.spec == r.spec and back.method == "cfr+"
    assert back.profile == r.profile
    assert back.values == r.values and back.gains == r.gains
    assert back.nash_conv == r.nash_conv and back.iterations == 40
    assert back.trace == r.trace and back.stopped is Stopped.ITERATIONS
    assert dict(back.options) == json.loads(json.dumps(jsonable(r.options)))
    # the game at hand is used, not compiled again
    assert Result.load(tmp_path / name, g).game is g


def test_load_keeps_an_exact_result_exact(game, tmp_path):
    import toypoker as tp

    r = tp.solve(game("kuhn(players=2)"), "lp")
    r.save(tmp_path / "lp.json")
    back = Result.load(tmp_path / "lp.json")
    assert back.exact and back.certified and back.profile.exact
    assert back.value_exact == (F(-1, 18), F(1, 18))
    assert tp.nash_conv(back.game, back.profile) == 0


def test_load_of_a_result_without_a_profile(game, tmp_path):
    import toypoker as tp

    r = tp.solve(game("skp(pot=9)"), "enumerate")
    r.save(tmp_path / "e.json")
    back = Result.load(tmp_path / "e.json")
    assert back.profile is None and len(back.equilibria) == len(r.equilibria) == 3


def test_load_refuses_what_is_not_a_result_of_the_game(game, tmp_path):
    import toypoker as tp
    from toypoker.errors import ProfileError, ToypokerError

    g2, g3 = game("kuhn(players=2)"), game("kuhn(players=3)")
    r = tp.solve(g2, "cfr+", iterations=5)
    r.save(tmp_path / "r.json")
    with pytest.raises(ProfileError, match="not of"):
        Result.load(tmp_path / "r.json", g3)
    r.profile.to_json(tmp_path / "p.json")
    with pytest.raises(ProfileError, match="not a toypoker-result"):
        Result.load(tmp_path / "p.json")
    (tmp_path / "junk.json").write_text("[1, 2]")
    with pytest.raises(ProfileError, match="not a toypoker result"):
        Result.load(tmp_path / "junk.json")
    with pytest.raises(ToypokerError, match="cannot read"):
        Result.load(tmp_path / "missing.json")
    from toypoker.archive import write_archive

    write_archive(tmp_path / "p.npz", r.profile)
    with pytest.raises(ProfileError, match="holds a profile, not a result"):
        Result.load(tmp_path / "p.npz")


def test_value_bracket_of_a_two_player_zero_sum_game() -> None:
    """Player 1's value bracketed by the two best responses (issue 49, item 3); the value
    of two-player Kuhn poker is -1/18 (Kuhn 1950)."""
    import toypoker as tp

    g = tp.load_game("kuhn(players=2)")
    lp = tp.solve(g, "lp").value_bracket
    assert lp is not None and lp.lower == lp.upper == lp.value == F(-1, 18)
    r = tp.solve(g, "cfr+", iterations=100)
    b = r.value_bracket
    assert b is not None and b.lower <= -1 / 18 <= b.upper
    assert b.upper - b.lower == pytest.approx(r.nash_conv, abs=1e-15)  # the width is NashConv
    data = r.to_json_dict()["value_bracket"]
    assert data == {"player": 1, "value": b.value, "lower": b.lower, "upper": b.upper}
    assert tp.solve(tp.load_game("kuhn(players=3)"), "cfr+", iterations=5).value_bracket is None
