"""Bridge to OpenSpiel (optional dependency ``open_spiel``): the same game and
the same profile on OpenSpiel's side, for cross-checks and benchmarks.

``kuhn(players=n)`` (ante 1, bet 1, n+1 cards) is OpenSpiel's ``kuhn_poker``;
``leduc(players=n)`` is ``leduc_poker`` (card ``c`` has rank ``c // 2``; our
deal table is suit-free, so one of our infosets stands for OpenSpiel's infosets
of both suits of a rank).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import ToypokerError
from ..game import Game, make_label
from ..profile import Profile


def _require() -> Any:
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ToypokerError("OpenSpiel is not installed: pip install open_spiel") from exc
    return pyspiel


def openspiel_game(game: Game) -> Any:
    """OpenSpiel's version of ``game`` (``kuhn_poker`` or ``leduc_poker``)."""
    pyspiel = _require()
    p = game.params
    if game.name == "kuhn":
        if (
            p.get("cards") != p["players"] + 1
            or p.get("bet") != 1
            or p.get("ante", 1) != 1
            or "pot" in p
        ):
            raise ToypokerError("OpenSpiel's kuhn_poker has n+1 cards, ante 1 and bet 1")
        return pyspiel.load_game("kuhn_poker", {"players": p["players"]})
    if game.name == "leduc":
        return pyspiel.load_game("leduc_poker", {"players": p["players"]})
    raise ToypokerError(f"no OpenSpiel counterpart for {game.spec}")


def _letters(game: Game) -> tuple[dict[str, int], dict[str, int]]:
    """Our action letters as OpenSpiel actions: (not facing a bet, facing a bet)."""
    if game.name == "kuhn":
        return {"k": 0, "b": 1}, {"f": 0, "c": 1}
    return {"k": 1, "b": 2}, {"f": 0, "c": 1, "r": 2}


def _rank(game: Game, card: int) -> int:
    return card + 1 if game.name == "kuhn" else card // 2 + 1


def infoset_label(game: Game, os_game: Any, history: list[int], player: int) -> str:
    """Our infoset label for OpenSpiel's action ``history`` seen by ``player``.

    Replays the history: the first ``n`` chance actions deal the hole cards,
    a later chance action is the board; betting actions become our letters
    (facing a bet or not is read off the chips committed so far).
    """
    unbet, facing = _letters(game)
    bets = [Fraction(2), Fraction(4)] if game.name == "leduc" else [Fraction(1)]
    n = game.n_players
    ranks = [_rank(game, c) for c in history[:n]]
    commit = [Fraction(1)] * n
    state = os_game.new_initial_state()
    for c in history[:n]:
        state.apply_action(c)
    text, rnd = "", 0
    for action in history[n:]:
        if state.is_chance_node():
            text += f"/[{_rank(game, action)}]"
            rnd += 1
            state.apply_action(action)
            continue
        p = state.current_player()
        letters = facing if commit[p] < max(commit) else unbet
        letter = next(x for x, v in letters.items() if v == action)
        if letter == "c":
            commit[p] = max(commit)
        elif letter in ("b", "r"):
            commit[p] = max(commit) + bets[min(rnd, len(bets) - 1)]
        text += letter
        state.apply_action(action)
    return make_label(player, str(ranks[player]), text)


def to_openspiel_policy(profile: Profile, os_game: Any | None = None) -> Any:
    """An OpenSpiel ``TabularPolicy`` playing ``profile`` at every OpenSpiel infoset."""
    from open_spiel.python import policy as os_policy

    game = profile.game
    os_game = os_game or openspiel_game(game)
    tab = os_policy.TabularPolicy(os_game)
    unbet, facing = _letters(game)
    for key, state in zip(tab.state_lookup, tab.states, strict=True):
        p = state.current_player()
        info = game.infoset(infoset_label(game, os_game, state.history(), p))
        legal = state.legal_actions()
        letters = facing if "f" in info.actions else unbet
        row = tab.policy_for_key(key)
        row[:] = 0.0
        for k, a in enumerate(info.actions):
            if letters[a] not in legal:
                raise ToypokerError(f"action {a!r} at {info.label} is not legal in OpenSpiel")
            row[letters[a]] = float(profile.probs[info.offset + k])
    return tab


def openspiel_values(profile: Profile, os_game: Any | None = None) -> list[float]:
    """Expected values computed by OpenSpiel for ``profile``."""
    pyspiel = _require()
    from open_spiel.python import policy as os_policy

    os_game = os_game or openspiel_game(profile.game)
    tab = os_policy.python_policy_to_pyspiel_policy(to_openspiel_policy(profile, os_game))
    return list(pyspiel.expected_returns(os_game.new_initial_state(), tab, -1, True))


def openspiel_nash_conv(profile: Profile, os_game: Any | None = None) -> float:
    """NashConv computed by OpenSpiel's C++ ``nash_conv`` for ``profile``."""
    pyspiel = _require()
    from open_spiel.python import policy as os_policy

    os_game = os_game or openspiel_game(profile.game)
    tab = to_openspiel_policy(profile, os_game)
    return float(pyspiel.nash_conv(os_game, os_policy.python_policy_to_pyspiel_policy(tab)))
