"""Optional peers (OpenSpiel, pygambit) missing: one line naming the extra that
installs them (issue 13, item 5: ``pip install "toypoker[peers]"``)."""

from __future__ import annotations

import sys

import pytest

from toypoker.errors import ToypokerError
from toypoker.interop import acpc, gambit, openspiel, openspiel_game

HINT = 'pip install "toypoker[peers]"'


@pytest.mark.parametrize(
    ("module", "call", "name"),
    [
        ("pyspiel", lambda: openspiel._require(), "OpenSpiel"),
        ("pyspiel", lambda: openspiel_game._require(), "OpenSpiel"),
        ("pyspiel", lambda: acpc.universal_poker_game(None), "OpenSpiel"),
        ("pygambit", lambda: gambit._require(), "pygambit"),
    ],
    ids=["openspiel", "openspiel_game", "acpc", "gambit"],
)
def test_missing_peer_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, call, name: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # "import pyspiel" raises ImportError
    with pytest.raises(ToypokerError) as info:
        call()
    assert str(info.value) == f"{name} is not installed: {HINT}"
