"""Spec strings: name(key=value,...) parsed without eval."""

from fractions import Fraction

import pytest

from toypoker.errors import SpecError
from toypoker.spec import format_spec, parse_spec


def test_parse_numbers_exactly():
    s = parse_spec("kuhn(players=3, cards=5, pot=1.5, bet=3/2)")
    assert s.name == "kuhn"
    assert s.as_dict() == {"players": 3, "cards": 5, "pot": Fraction(3, 2), "bet": Fraction(3, 2)}
    assert isinstance(s.as_dict()["pot"], Fraction)


def test_bare_name_and_empty_parens():
    assert parse_spec("leduc").params == ()
    assert parse_spec("leduc()").params == ()


def test_booleans_and_roundtrip():
    s = parse_spec("skp(pot=9,rational=false)")
    assert s.as_dict()["rational"] is False
    assert format_spec(s.name, s.as_dict()) == "skp(pot=9,rational=false)"


@pytest.mark.parametrize(
    "text",
    [
        "kuhn(players=3",
        "kuhn(players)",
        "kuhn(=3)",
        "kuhn(players=3,players=4)",
        "1kuhn()",
        "kuhn(players=__import__('os'))",
        "kuhn(pot=1/0)",
        "",
    ],
)
def test_malformed_specs_raise(text):
    with pytest.raises(SpecError):
        parse_spec(text)
