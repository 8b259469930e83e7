"""Profiles: construction from mappings, validation, JSON and CSV round trips."""

import json
from fractions import Fraction as F

import numpy as np
import pytest

from tests.conftest import game, random_profile
from toypoker.errors import ProfileError
from toypoker.profile import Profile


def test_uniform_respects_restrictions():
    g = game("skp(pot=9)")
    p = Profile.uniform(g, exact=True)
    assert p["P3:4:kk"] == {"k": 0, "b": 1}  # Billingham point 1: P3 bets A
    assert p["P3:1:kk"] == {"k": F(1, 2), "b": F(1, 2)}


def test_keys_by_label_or_tuple_and_scalars():
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
def test_invalid_profiles(mapping, message):
    with pytest.raises(ProfileError, match=message):
        Profile.from_mapping(game("kuhn(players=2)"), mapping)


def test_restricted_infoset_cannot_deviate():
    g = game("skp(pot=9)")
    with pytest.raises(ProfileError, match="restricted"):
        Profile.from_mapping(g, {"P3:4:kk": 0}, fill="uniform")


def test_exact_sum_must_be_exactly_one():
    g = game("kuhn(players=2)")
    with pytest.raises(ProfileError, match="sum to"):
        Profile.from_mapping(g, {"P1:1:": ["1/3", "1/2"]}, fill="uniform")


def test_json_roundtrip_exact_and_float(tmp_path, rng):
    g = game("kuhn(players=3)")
    p = random_profile(g, rng)
    path = tmp_path / "p.json"
    p.to_json(path)
    q = Profile.from_json(path)
    assert q.game.spec == g.spec and not q.exact
    assert np.array_equal(p.probs, q.probs)
    e = p.to_exact(max_denominator=50)
    e.to_json(path)
    data = json.loads(path.read_text())
    assert data["game"] == "kuhn(players=3,cards=4,ante=1,bet=1)" and data["exact"] is True
    r = Profile.from_json(path)
    assert r.exact and list(r.probs) == list(e.probs)


def test_json_for_another_game_is_rejected(tmp_path):
    p = Profile.uniform(game("kuhn(players=2)"))
    path = tmp_path / "p.json"
    p.to_json(path)
    with pytest.raises(ProfileError, match="is for"):
        Profile.from_json(path, game("kuhn(players=3)"))


def test_csv_table():
    g = game("kuhn(players=2)")
    text = Profile.uniform(g, exact=True).to_csv()
    lines = text.strip().splitlines()
    assert lines[0] == "infoset,player,private,history,action,name,probability"
    assert len(lines) == 1 + g.n_sigma
    assert lines[1] == "P1:1:,1,1,,k,check,1/2"
