"""Bridge to OpenSpiel (optional dependency ``open_spiel``): the same game and
the same profile on OpenSpiel's side, for cross-checks and benchmarks.

Which OpenSpiel game is ours is each game's ``openspiel`` hook
(``toypoker.games``): ``kuhn(players=n)`` (ante 1, bet 1, n+1 cards) is
``kuhn_poker``; ``leduc(players=n)`` is ``leduc_poker``.  What is here is
OpenSpiel's own encoding of those games (:data:`ENCODINGS`): action numbers,
card numbers (``leduc_poker``'s card ``c`` has rank ``c // 2``; our deal table
is suit-free, so one of our infosets stands for OpenSpiel's infosets of both
suits of a rank) and bet sizes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from toypoker.errors import ToypokerError
from toypoker.game import Game, make_label
from toypoker.games import GAMES
from toypoker.profile import Profile


@dataclass(frozen=True)
class Encoding:
    """How an OpenSpiel poker game numbers actions and cards."""

    unbet: dict[str, int]  # our letters as OpenSpiel actions when not facing a bet
    facing: dict[str, int]  # ... and when facing one
    suits: int  # OpenSpiel card c has rank c // suits (0-based)
    bets: tuple[Fraction, ...]  # bet size per round (the last repeats)


ENCODINGS: dict[str, Encoding] = {
    "kuhn_poker": Encoding({"k": 0, "b": 1}, {"f": 0, "c": 1}, 1, (Fraction(1),)),
    "leduc_poker": Encoding(
        {"k": 1, "b": 2}, {"f": 0, "c": 1, "r": 2}, 2, (Fraction(2), Fraction(4))
    ),
}


def counterpart(game: Game) -> tuple[str, dict[str, object]]:
    """``(OpenSpiel game name, parameters)`` of ``game`` (its ``openspiel`` hook)."""
    info = GAMES.get(game.name)
    found = info.openspiel(game) if info is not None else None
    if found is None or found[0] not in ENCODINGS:
        raise ToypokerError(f"no OpenSpiel counterpart for {game.spec}")
    return found


def _encoding(game: Game) -> Encoding:
    return ENCODINGS[counterpart(game)[0]]


def _require() -> Any:
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ToypokerError('OpenSpiel is not installed: pip install "toypoker[peers]"') from exc
    return pyspiel


def openspiel_game(game: Game) -> Any:
    """OpenSpiel's version of ``game`` (``kuhn_poker`` or ``leduc_poker``)."""
    pyspiel = _require()
    name, params = counterpart(game)
    return pyspiel.load_game(name, params)


def infoset_label(game: Game, os_game: Any, history: list[int], player: int) -> str:
    """Our infoset label for OpenSpiel's action ``history`` seen by ``player``.

    Replays the history: the first ``n`` chance actions deal the hole cards,
    a later chance action is the board; betting actions become our letters
    (facing a bet or not is read off the chips committed so far).
    """
    enc = _encoding(game)
    unbet, facing, bets = enc.unbet, enc.facing, enc.bets
    n = game.n_players
    ranks = [c // enc.suits + 1 for c in history[:n]]
    commit = [Fraction(1)] * n
    state = os_game.new_initial_state()
    for c in history[:n]:
        state.apply_action(c)
    text, rnd = "", 0
    for action in history[n:]:
        if state.is_chance_node():
            text += f"/[{action // enc.suits + 1}]"
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
    enc = _encoding(game)
    unbet, facing = enc.unbet, enc.facing
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


def openspiel_policy(profile: Profile, os_game: Any | None = None) -> Any:
    """``profile`` as OpenSpiel's C++ tabular policy (:func:`to_openspiel_policy`,
    converted): build it once to ask both :func:`openspiel_values` and
    :func:`openspiel_nash_conv` (OpenSpiel lists every state to build it, which on a
    game the size of three-player Leduc is slow)."""
    from open_spiel.python import policy as os_policy

    os_game = os_game or openspiel_game(profile.game)
    return os_policy.python_policy_to_pyspiel_policy(to_openspiel_policy(profile, os_game))


def openspiel_values(
    profile: Profile, os_game: Any | None = None, policy: Any | None = None
) -> list[float]:
    """Expected values computed by OpenSpiel for ``profile`` (``policy``: its
    :func:`openspiel_policy`, built here when not given)."""
    pyspiel = _require()
    os_game = os_game or openspiel_game(profile.game)
    if policy is None:
        policy = openspiel_policy(profile, os_game)
    return list(pyspiel.expected_returns(os_game.new_initial_state(), policy, -1, True))


def openspiel_nash_conv(
    profile: Profile, os_game: Any | None = None, policy: Any | None = None
) -> float:
    """NashConv computed by OpenSpiel's C++ ``nash_conv`` for ``profile`` (``policy``:
    its :func:`openspiel_policy`, built here when not given)."""
    pyspiel = _require()
    os_game = os_game or openspiel_game(profile.game)
    if policy is None:
        policy = openspiel_policy(profile, os_game)
    return float(pyspiel.nash_conv(os_game, policy))
