"""Profiles: construction from mappings, validation, JSON and CSV round trips."""

import json
import os
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from toypoker.archive import load_profile
from toypoker.errors import ProfileError
from toypoker.profile import Profile
from toypoker.profile_io import _float_texts


def test_uniform_respects_restrictions(game):
    g = game("skp(pot=9)")
    p = Profile.uniform(g, exact=True)
    assert p["P3:4:kk"] == {"k": 0, "b": 1}  # Billingham point 1: P3 bets A
    assert p["P3:1:kk"] == {"k": F(1, 2), "b": F(1, 2)}


def test_keys_by_label_or_tuple_and_scalars(game):
    g = game("kuhn(players=2)")
    m = {(0, 1, ""): F(1, 3), "P1:2:": {"k": 1}, "P1:3:": [0, 1]}
    p = Profile.from_mapping(g, m, fill="uniform")
    assert p.exact
    assert p["P1:1:"] == {"k": F(2, 3), "b": F(1, 3)}
    assert p["P1:2:"] == {"k": 1, "b": 0}
    assert p.aggressive("P1:3:") == 1


@pytest.mark.parametrize(
    "mapping, message",
    [
        ({"P1:1:": {"k": 0.5, "b": 0.6}}, "sum to"),
        ({"P1:1:": {"k": -0.5, "b": 1.5}}, "negative"),
        ({"P9:1:": 0.5}, "unknown infoset"),
        ({"P1:1:": {"x": 1}}, "unknown action"),
        ({"P1:1:": [0.5, 0.25, 0.25]}, "has 2 actions"),
        ({"P1:1:": 0.5}, "no probabilities for infoset"),
    ],
)
def test_invalid_profiles(mapping, message, game):
    with pytest.raises(ProfileError, match=message):
        Profile.from_mapping(game("kuhn(players=2)"), mapping)


def test_restricted_infoset_cannot_deviate(game):
    g = game("skp(pot=9)")
    with pytest.raises(ProfileError, match="restricted"):
        Profile.from_mapping(g, {"P3:4:kk": 0}, fill="uniform")


def test_exact_sum_must_be_exactly_one(game):
    g = game("kuhn(players=2)")
    with pytest.raises(ProfileError, match="sum to"):
        Profile.from_mapping(g, {"P1:1:": ["1/3", "1/2"]}, fill="uniform")


def test_json_roundtrip_exact_and_float(tmp_path, rng, game):
    g = game("kuhn(players=3)")
    p = Profile.random(g, rng)
    path = tmp_path / "p.json"
    p.to_json(path)
    q = Profile.from_json(path, g)
    assert q.game.spec == g.spec and not q.exact
    assert np.array_equal(p.probs, q.probs)
    e = p.to_exact(max_denominator=50)
    e.to_json(path)
    data = json.loads(path.read_text())
    assert data["game"] == "kuhn(players=3,cards=4,ante=1,bet=1)" and data["exact"] is True
    r = Profile.from_json(path, g)
    assert r.exact and list(r.probs) == list(e.probs)


@pytest.mark.parametrize(
    ("spec", "kind"),
    [(s, k) for s in ("kuhn(players=2)", "kuhn(players=3)", "leduc(players=2)")
     for k in ("random", "exact", "uniform")] + [("rhode_island(ranks=3,suits=2)", "vector")],
)  # fmt: skip
def test_write_json_streams_the_same_bytes(tmp_path, rng, game, spec, kind):
    # what `toypoker solve -o FILE.json` writes, in pieces (Rhode Island: 0.4 GB): the
    # bytes of to_json, pieces cut inside the infosets' list too (batch of 7); a game
    # built on hand vectors ("vector": Rhode Island) writes its infosets without objects
    from toypoker import load_game

    g = load_game(spec) if kind == "vector" else game(spec)
    p = {"random": Profile.random(g, rng), "uniform": Profile.uniform(g),
         "exact": Profile.random(g, rng).to_exact(max_denominator=30),
         "vector": Profile.random(g, rng)}[kind]  # fmt: skip
    assert hasattr(g.infosets, "runs") is (kind == "vector")
    path = tmp_path / "p.json"
    p.write_json(path)
    assert path.read_bytes() == p.to_json().encode("utf-8")
    assert "".join(p._json_pieces(batch=7)) == p.to_json()
    q = Profile.from_json(path, g)
    assert q.exact == p.exact and list(q.probs) == list(p.probs)


@pytest.mark.parametrize("how", ["two", "child fails", "no fork"])
@pytest.mark.parametrize("spec", ["leduc(players=2)", "rhode_island(ranks=3,suits=2)"])
def test_write_json_in_two_halves_writes_the_same_bytes(tmp_path, rng, monkeypatch, spec, how):
    # a large profile's JSON is made in two halves at once (a forked child writes the
    # second: toypoker.io.write_in_two); the bytes are to_json's whether the child
    # writes its half, fails (its half made again here) or cannot be forked
    import toypoker.io as tio
    import toypoker.profile_io as tprof
    from toypoker import load_game

    monkeypatch.setattr(tprof, "PARALLEL_JSON_INFOSETS", 1)
    if how == "child fails":
        monkeypatch.setattr(tio, "_child_writes", lambda part, pieces: os._exit(3))
    if how == "no fork":
        monkeypatch.setattr(tio.sys, "platform", "darwin")
    reaped: list[bool] = []  # whether the child wrote its half
    real = tio._reaped
    monkeypatch.setattr(tio, "_reaped", lambda pid, s: reaped.append(real(pid, s)) or reaped[-1])
    p = Profile.random(load_game(spec), rng)
    path = tmp_path / "p.json"
    p.write_json(path)
    assert path.read_bytes() == p.to_json().encode("utf-8")
    assert reaped == {"two": [True], "child fails": [False], "no fork": []}[how]
    assert sorted(x.name for x in tmp_path.iterdir()) == ["p.json"]  # nothing left


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), max_size=40))
def test_float_texts_are_json_dumps(xs):
    # the profile writer's numbers (orjson, repr where orjson writes them another way):
    # json.dumps's text, so write_json's bytes are to_json's; every magnitude and sign
    assert _float_texts(np.array(xs, dtype=np.float64)) == [json.dumps(x) for x in xs]


def test_float_texts_on_many_probabilities(rng):
    # tiny ones (< 1e-4, an exponent in repr), zeros, both ends of [0, 1]
    x = np.concatenate([rng.random(20_000), 10 ** rng.uniform(-12, 0, 20_000), [0.0, 1.0, 1e-4]])
    assert _float_texts(x) == json.dumps(x.tolist())[1:-1].split(", ")


def test_json_for_another_game_is_rejected(tmp_path, game):
    p = Profile.uniform(game("kuhn(players=2)"))
    path = tmp_path / "p.json"
    p.to_json(path)
    with pytest.raises(ProfileError, match="is for"):
        Profile.from_json(path, game("kuhn(players=3)"))


def test_csv_table(game):
    g = game("kuhn(players=2)")
    text = Profile.uniform(g, exact=True).to_csv()
    lines = text.strip().splitlines()
    assert lines[0] == "infoset,player,private,history,action,name,probability"
    assert len(lines) == 1 + g.n_sigma
    assert lines[1] == "P1:1:,1,1,,k,check,1/2"


def test_exact_decimals_from_iterative_solvers_are_snapped(game):
    # CFR output written with 17 digits: 0.33333333333333331 + 0.66666666666666670 = 1 + 10^-17
    g = game("kuhn(players=2)")
    m = {"P1:1:": ["0.33333333333333331", "0.66666666666666670"]}
    with pytest.warns(UserWarning, match="snapped"):
        p = Profile.from_mapping(g, m, exact=True, fill="uniform")
    assert p.exact and p.snapped == ("P1:1:",)
    row = p["P1:1:"]
    assert sum(row.values()) == 1 and row["k"] == F(33333333333333331, 100000000000000001)
    # exact fractions must still sum to one exactly, and decimals far off are an error
    with pytest.raises(ProfileError, match="sum to"):
        Profile.from_mapping(g, {"P1:1:": ["1/3", "1/2"]}, fill="uniform")
    with pytest.raises(ProfileError, match="sum to"):
        Profile.from_mapping(g, {"P1:1:": ["0.3", "0.6"]}, exact=True, fill="uniform")
    with pytest.raises(ProfileError, match="sum to"):  # floats 1e-7 off: not snapped
        Profile.from_mapping(g, {"P1:1:": [0.3, 0.7000001]}, exact=True, fill="uniform")
    assert Profile.uniform(g, exact=True).snapped == ()


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"game": "kuhn(players=2)", "infosets": {"P1:1:": [NaN, 0.5]}}', "NaN"),
        ('{"game": "kuhn(players=2)", "infosets": {"P1:1:": [Infinity, 0]}}', "Infinity"),
        ('{"game": 42, "infosets": {}}', "'game' must be a game spec"),
        ('{"game": "kuhn(players=2)", "infosets": {"P1:1:": ["1e999999999", 0]}}', "out of range"),
        ('{"game": "kuhn(pot=1e400)", "infosets": {}}', "out of range"),
        # orjson refuses a depth over 1024 (an orjson without that limit is not used to
        # read), the standard library then says why
        ("[" * 100000 + "]" * 100000, "nested too deeply"),
        ('{"infosets": {"P1:1:": ' + "[" * 100000 + "]" * 100000 + "}}", "nested too deeply"),
        ('{"game": "kuhn(players=2)", "infosets": {"P1:1:": [' + "1" * 5000 + ", 0]}}", "profile"),
    ],
)
def test_bad_profile_files_are_one_line_errors(text, message, tmp_path, game):
    path = tmp_path / "p.json"
    path.write_text(text)
    with pytest.raises(ProfileError, match=message) as e:
        Profile.from_json(path, game("kuhn(players=2)"))
    assert "\n" not in str(e.value)


def test_binary_profile_file(tmp_path, game):
    path = tmp_path / "p.json"
    path.write_bytes(bytes(range(256)))
    with pytest.raises(ProfileError, match="not a text"):
        Profile.from_json(path, game("kuhn(players=2)"))


def test_reading_a_profile_compiles_once(tmp_path, monkeypatch):
    # eval/verify's path: load_game + Profile.from_json compiles the game once
    from toypoker import Game, load_game

    g = load_game("kuhn(players=3,pot=3)")
    path = tmp_path / "p.json"
    Profile.uniform(g).to_json(path)
    count = []
    init = Game.__init__
    monkeypatch.setattr(Game, "__init__", lambda s, *a, **k: count.append(1) or init(s, *a, **k))
    g2 = load_game("kuhn(players=3, pot=3)")
    q = Profile.from_json(path, g2)
    assert len(count) == 1 and q.game is g2


# ------------------------------------------- read-only, checked again, pickles (issue 35)
def test_probs_are_read_only_and_the_callers_array_is_copied(game):
    """Issue 35: a profile's array was writeable and the caller's own (``p.probs[0] = 5``
    changed it; so did changing the array it was made from)."""
    g = game("kuhn(players=2)")
    mine = np.full(g.n_sigma, 0.5)
    p = Profile(g, mine)
    mine[0] = 5.0  # the caller's array: not the profile's
    assert p.probs[0] == 0.5
    with pytest.raises(ValueError, match="read-only"):
        p.probs[0] = 5.0
    with pytest.raises(AttributeError, match="read-only"):
        p.probs = mine  # type: ignore[misc]
    with pytest.raises(AttributeError, match="read-only"):
        p.snapped = ("P1:1:",)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda a: a.__setitem__(0, 0.7), "sum to 1.2, not 1"),  # the row of 1.2
        (lambda a: a.__setitem__(slice(0, 2), (-0.5, 1.5)), "negative probability"),
        (lambda a: a.__setitem__(0, np.nan), "non-finite probability"),
    ],
)
@pytest.mark.parametrize("fn", ["evaluate", "nash_conv", "best_response"])
def test_evaluators_check_the_rows_of_a_changed_profile(game, change, message, fn):
    """Issue 35: a profile changed after it was made (here its array made writeable
    again, the only way left) was evaluated: rows summing to 1.2, negative entries."""
    import toypoker as tp

    g = game("kuhn(players=2)")
    p = Profile.uniform(g)
    p.probs.setflags(write=True)
    change(p.probs)
    args = (g, p, 0) if fn == "best_response" else (g, p)
    with pytest.raises(ProfileError, match=message):
        getattr(tp, fn)(*args)


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.usefixtures("pickled_games")
def test_profiles_pickle_and_deep_copy(game, exact):
    """Round trips equal, the copy read-only like the original (issue 35: nothing
    pickled).  The game inside pickles by a stand-in until Game pickles itself."""
    import copy
    import pickle

    g = game("kuhn(players=3)")
    p = Profile.uniform(g, exact=exact)
    for q in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p)):
        assert q == p and q is not p and q.exact == exact
        assert not q.probs.flags.writeable
    assert Profile.uniform(g) != Profile.uniform(g, exact=True)  # float and exact differ


@pytest.mark.parametrize(
    "row",
    [
        np.array([0.25, 0.75]),
        [np.float64(0.25), np.float64(0.75)],
        [np.float32(0.25), np.float32(0.75)],
        (np.int64(0), np.int64(1)),
        np.array([F(1, 4), F(3, 4)], dtype=object),
        [F(1, 4), F(3, 4)],
    ],
    ids=["ndarray", "float64", "float32", "int64", "object-array", "fractions"],
)
def test_from_mapping_takes_numpy_rows(game, row):
    """Issue 35: numpy rows were refused ("give a mapping") or crashed; the same
    profile as the Python list of the same numbers (the expected value)."""
    g = game("kuhn(players=2)")
    values = [x.item() if isinstance(x, np.generic) else x for x in row]
    expected = Profile.from_mapping(g, dict.fromkeys((i.label for i in g.infosets), values))
    got = Profile.from_mapping(g, dict.fromkeys((i.label for i in g.infosets), row))
    assert got == expected


def test_from_mapping_takes_decimals_as_written(game):
    """A Decimal is a decimal as written: exactly 1/10 in exact mode, like the float 0.1."""
    from decimal import Decimal as D

    g = game("kuhn(players=2)")
    rows = dict.fromkeys((i.label for i in g.infosets), [D("0.9"), D("0.1")])
    assert Profile.from_mapping(g, rows, exact=True).probs[1] == F(1, 10)
    assert Profile.from_mapping(g, rows).probs[1] == 0.1
    with pytest.raises(ProfileError, match="finite"):
        Profile.from_mapping(g, {**rows, "P1:1:": [D("NaN"), D("1")]}, exact=True)


def test_a_profile_of_another_format_version_is_refused() -> None:
    """Issue 35: a profile file of another format version was read as version 1."""
    import toypoker as tp

    g = tp.load_game("kuhn(players=2)")
    data = tp.Profile.uniform(g).to_json_dict()
    assert data["format"] == "toypoker-profile/1"
    data["format"] = "toypoker-profile/9"
    with pytest.raises(ProfileError, match="'toypoker-profile/9' is not 'toypoker-profile/1'"):
        tp.Profile.from_json_dict(data, g)


def test_orjson_versions_are_read_as_numbers():
    from toypoker.profile_io import _version

    assert _version("3.9.15") == (3, 9, 15) > _version("3.9.9") == (3, 9, 9)
    assert _version("3.10.0rc1") == (3, 10, 0) > (3, 9, 15)


def _row_by_row(monkeypatch) -> None:
    """Make :meth:`Profile.from_mapping` read every mapping row by row (its general path)."""
    import toypoker.profile_io as module

    monkeypatch.setattr(module, "_plain_float_rows", lambda *a: None)


@pytest.mark.parametrize(
    "spec", ["kuhn(players=3)", "leduc(players=2)", "rhode_island(ranks=3,suits=2)"]
)
def test_a_float_profile_file_is_read_in_bulk_as_row_by_row(tmp_path, rng, game, spec,
                                                            monkeypatch):  # fmt: skip
    # what `solve -o FILE.json` writes is read with numpy (Rhode Island's 3.9 M
    # infosets in seconds; row by row took 3.5 minutes): the same probabilities, bit for
    # bit, as the general path, on the row layout and on hand vectors
    import toypoker.profile_io as module
    from toypoker import load_game

    g = load_game(spec) if spec.startswith("rhode") else game(spec)
    p = Profile.random(g, rng)
    path = tmp_path / "p.json"
    p.write_json(path)
    took = []
    bulk = module._plain_float_rows
    monkeypatch.setattr(module, "_plain_float_rows", lambda *a: took.append(1) or bulk(*a))
    q = Profile.from_json(path, g)
    assert took and q.probs.dtype == np.float64 and np.array_equal(q.probs, p.probs)
    _row_by_row(monkeypatch)
    assert np.array_equal(Profile.from_json(path, g).probs, q.probs)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda rows: rows["P2:2:b"].update(c=0.9), "sum to"),
        (lambda rows: rows["P1:3:"].update(k=-0.25, b=1.25), "negative probability at P1:3:"),
        (lambda rows: rows.pop("P2:1:k"), r"no probabilities for infoset P2:1:k$"),
        (lambda rows: [rows.pop(k) for k in ("P1:1:", "P2:3:k")], r"\(and 1 more\)"),
        (lambda rows: rows["P1:2:"].update(b=float("nan")), "non-finite probability at P1:2:"),
    ],
)
def test_a_bad_float_profile_is_refused_alike_in_bulk_and_row_by_row(game, change, message,
                                                                     monkeypatch):  # fmt: skip
    g = game("kuhn(players=2)")
    rows = json.loads(Profile.uniform(g).to_json())["infosets"]
    change(rows)
    with pytest.raises(ProfileError, match=message) as bulk:
        Profile.from_mapping(g, rows)
    _row_by_row(monkeypatch)
    with pytest.raises(ProfileError) as by_row:
        Profile.from_mapping(g, rows)
    assert str(bulk.value) == str(by_row.value)


def test_only_plain_float_rows_are_read_in_bulk(game):
    # ints, strings, tuple keys, action orders other than the game's: the general path
    from toypoker.profile_io import _plain_float_rows

    g = game("kuhn(players=2)")
    rows = json.loads(Profile.uniform(g).to_json())["infosets"]
    assert _plain_float_rows(g, rows, None) is not None
    for other in (
        {**rows, "P1:1:": {"k": 1, "b": 0}},
        {**rows, "P1:1:": {"k": "1/2", "b": "1/2"}},
        {**rows, "P1:1:": {"b": 0.5, "k": 0.5}},
        {**rows, "P1:1:": [0.5, 0.5]},
        {**{k: v for k, v in rows.items() if k != "P1:1:"}, (0, 1, ""): {"k": 0.5, "b": 0.5}},
    ):
        assert _plain_float_rows(g, other, None) is None
        if "1/2" not in str(other):  # (strings among floats are refused, row by row)
            assert Profile.from_mapping(g, other).game is g  # read, row by row
    assert _plain_float_rows(game("skp(pot=9)"), {}, "uniform") is None  # restrictions


@pytest.mark.parametrize(
    "spec", ["kuhn(players=3)", "leduc(players=2)", "skp(pot=9)", "rhode_island(ranks=3,suits=2)"]
)
def test_random_profiles_are_numpy_dirichlet_draws_infoset_by_infoset(game, spec):
    # Profile.random draws all its exponentials at once; the bits are those of
    # rng.dirichlet(np.ones(k)) at each infoset in turn (what it did before)
    from toypoker import load_game

    g = load_game(spec) if spec.startswith("rhode") else game(spec)
    for seed in (0, 1, 2026):
        p = Profile.random(g, np.random.default_rng(seed))
        rng = np.random.default_rng(seed)
        each = np.concatenate([rng.dirichlet(np.ones(len(i.actions))) for i in g.infosets])
        each[g.sigma_fixed] = g.fixed_values[g.sigma_fixed]
        assert np.array_equal(p.probs, each)


def test_the_profile_file_limit_grows_with_the_game(tmp_path, game, monkeypatch):
    # a profile file may be as large as its game needs (Rhode Island's: 0.4 GB, over
    # the 256 MB a file of a small game may be), and no larger
    import toypoker.profile_io as module

    small, big = game("kuhn(players=2)"), game("leduc(players=2)")
    assert module.max_profile_bytes(big) - module.max_profile_bytes(small) == (
        256 * (len(big.infosets) - len(small.infosets)) + 64 * (big.n_sigma - small.n_sigma)
    )
    monkeypatch.setattr(module, "MAX_PROFILE_BYTES", 0)
    path = tmp_path / "p.json"
    text = Profile.uniform(small).to_json()
    path.write_text(text)
    assert Profile.from_json(path, small).game is small
    path.write_text(text + " " * module.max_profile_bytes(small))
    with pytest.raises(ProfileError, match="larger than"):
        Profile.from_json(path, small)


# Profile.load: both file formats from Python (issue 48)


def test_load_reads_json_a_result_file_and_the_archive(tmp_path):
    import toypoker as tp
    from toypoker.archive import write_archive

    g = tp.load_game("kuhn(players=3)")
    r = tp.solve(g, "cfr+", iterations=30)
    r.profile.to_json(tmp_path / "p.json")
    r.save(tmp_path / "r.json")
    r.save(tmp_path / "r.npz")
    write_archive(tmp_path / "p.npz", r.profile)
    for name in ("p.json", "r.json", "r.npz", "p.npz"):
        got = load_profile(tmp_path / name, g)
        assert got == r.profile and not got.exact, name
    exact = load_profile(tmp_path / "p.npz", g, exact=True)
    assert exact.exact and exact == r.profile.to_exact()


def test_load_keeps_an_exact_archive_exact_unless_asked(tmp_path):
    import toypoker as tp

    g = tp.load_game("kuhn(players=2)")
    r = tp.solve(g, "lp")
    r.save(tmp_path / "lp.npz")
    assert load_profile(tmp_path / "lp.npz", g) == r.profile
    assert load_profile(tmp_path / "lp.npz", g).exact
    assert not load_profile(tmp_path / "lp.npz", g, exact=False).exact


def test_load_refuses_another_games_file(tmp_path):
    import toypoker as tp

    g2, g3 = tp.load_game("kuhn(players=2)"), tp.load_game("kuhn(players=3)")
    tp.solve(g2, "cfr+", iterations=5).save(tmp_path / "r.npz")
    with pytest.raises(ProfileError):
        load_profile(tmp_path / "r.npz", g3)
    with pytest.raises(ProfileError):
        load_profile(tmp_path / "missing.json", g3)
