"""Any compiled toypoker game as an OpenSpiel Python game (optional dependency ``open_spiel``).

:mod:`toypoker.interop.openspiel` maps a few of our games onto OpenSpiel's own
built-in ``kuhn_poker`` and ``leduc_poker``.  This module goes the other way:
it exposes *any* compiled :class:`~toypoker.game.Game` to OpenSpiel, so
OpenSpiel's algorithms (CFR, MCCFR, ``exploitability.nash_conv``, best
responses, ...) run on our games, and converts profiles both ways.

The OpenSpiel game
------------------
Registered (by :func:`register`, never at import) as ``python_toypoker`` with
one parameter ``spec``, a toypoker game spec written as an OpenSpiel nested
game parameter, so the usual game string works::

    register()
    pyspiel.load_game("python_toypoker(spec=kuhn(players=3,cards=5))")

(OpenSpiel's parameter parser reads ``kuhn(players=3,cards=5)`` as a nested
game parameter; ``str(os_game)`` round-trips through ``pyspiel.load_game``.
Exact numbers are written ``pot=3/2``; a decimal such as ``bet=1.5`` is read
as written, 3/2.)  :func:`openspiel_game` wraps an already compiled game
without recompiling it.

* **Chance**: one chance node at the root deals a whole row of the deal table,
  outcome ``d`` with probability ``weights[d]`` (``weight_num[d] / weight_den``;
  deals of probability zero are left out).  Board cards are part of the deal:
  the public chance nodes of our tree are passed through without an OpenSpiel
  action (each deal goes down exactly one of their branches), and the board
  appears in the information states when our public history reveals it.
* **Decisions**: the actions of our public tree, as action ids
  ``k=0 b=1 c=2 f=3 r=4`` (:data:`ACTIONS`), legal actions in ascending order.
* **Returns**: our ``term_u`` at the terminal row (zero-sum).
* **Information states**: player ``p``'s information state string is our
  infoset label ``P{p+1}:{private}:{public history}`` (:class:`~toypoker.game.InfoSet`),
  her private cards and the public history with the revealed board, nothing
  else; so a ``TabularPolicy``'s keys are our labels.  Observation strings are
  the same (the public history is what a player observes; it has perfect
  recall).  No tensors.

Restricted infosets (fixed strategies, e.g. ``skp``) keep the tree's actions
as legal actions: OpenSpiel does not know the restriction, so its algorithms
(CFR, best responses) treat those infosets as free; only policies carry the
fixed values (:func:`to_tabular_policy` writes them, :func:`from_tabular_policy`
puts the game's fixed values back).  OpenSpiel's NashConv therefore equals ours
on games without restrictions.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from toypoker.blocks import deal_blocks
from toypoker.errors import ToypokerError
from toypoker.game import Game, make_label
from toypoker.games import canonical_spec, load_rows
from toypoker.profile import Profile
from toypoker.spec import parse_spec

GAME_NAME = "python_toypoker"
"""The OpenSpiel short name of the generic toypoker game."""

ACTIONS: tuple[str, ...] = ("k", "b", "c", "f", "r")
"""OpenSpiel action id ``i`` is our action letter ``ACTIONS[i]``."""

ACTION_ID: dict[str, int] = {a: i for i, a in enumerate(ACTIONS)}

DEFAULT_SPEC = "kuhn(players=2)"
MAX_PLAYERS = 1000  # kuhn's limit


def _require() -> Any:
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ToypokerError('OpenSpiel is not installed: pip install "toypoker[peers]"') from exc
    return pyspiel


# ---------------------------------------------------------------- spec <-> parameter
def spec_parameter(spec: str) -> dict[str, object]:
    """A toypoker spec as OpenSpiel's nested game parameter (``{"name": ..., key: value}``).

    Parameters
    ----------
    spec
        A toypoker spec, e.g. ``"kuhn(players=3,cards=5)"``.

    Returns
    -------
    dict
        Integers as ``int``, other exact numbers as ``"p/q"`` strings, booleans
        as ``bool``, words as ``str``: what ``pyspiel.load_game(GAME_NAME, {"spec": ...})``
        takes.
    """
    parsed = parse_spec(canonical_spec(spec))
    out: dict[str, object] = {"name": parsed.name}
    for key, v in parsed.params:
        if isinstance(v, bool | str):
            out[key] = v
        elif v.denominator == 1:
            out[key] = int(v.numerator)
        else:
            out[key] = f"{v.numerator}/{v.denominator}"
    return out


def _value_text(key: str, v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float | str):
        return repr(v) if isinstance(v, float) else str(v)
    raise ToypokerError(f"bad value for {key} in an OpenSpiel spec parameter: {v!r}")


def spec_from_parameter(value: object) -> str:
    """The canonical toypoker spec of OpenSpiel's ``spec`` parameter (nested dict or text).

    Raises
    ------
    ToypokerError
        If it is neither a nested game parameter nor a spec string, or the spec is bad.
    """
    if isinstance(value, str):
        return canonical_spec(value)
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        raise ToypokerError(
            f"the spec parameter must be a game like kuhn(players=3), not {value!r}"
        )
    args = ",".join(f"{k}={_value_text(k, v)}" for k, v in value.items() if k != "name")
    return canonical_spec(f"{value['name']}({args})")


# ---------------------------------------------------------------- tables
class _Tables:
    """The read-only arrays a state walks (shared by every state: never deep-copied)."""

    def __init__(self, game: Game):
        self.game = game
        blocks = game.derived(deal_blocks)
        self.child_ptr = blocks.child_ptr
        self.child_rows = blocks.child_rows
        self.row_term = blocks.row_term
        self.row_node = game.row_node
        self.row_deal = game.row_deal
        self.row_actor = game.row_actor
        self.is_chance = np.array([n.kind == "chance" for n in game.nodes], dtype=bool)
        self.is_terminal = game.row_is_terminal
        # per node: the action ids in ascending order, and action id -> child position
        self.legal: list[list[int]] = []
        self.position: list[dict[int, int]] = []
        for n in game.nodes:
            ids = {ACTION_ID[a]: k for k, a in enumerate(n.actions)}
            self.legal.append(sorted(ids))
            self.position.append(ids)
        self.outcomes = [
            (d, float(game.weights[d])) for d in range(game.n_deals) if game.weight_num[d] > 0
        ]
        self.private = [
            ["-".join(str(r) for r in game.obs_private[p][int(o)]) for o in game.obs[p]]
            for p in range(game.n_players)
        ]
        self.returns = [[float(x) for x in col] for col in game.term_u.T]

    def __deepcopy__(self, _memo: dict) -> _Tables:
        return self  # immutable: OpenSpiel clones states by deep-copying their attributes

    def descend(self, row: int) -> int:
        """Skip public chance nodes: each deal follows exactly one of their branches."""
        while self.is_chance[self.row_node[row]]:
            row = int(self.child_rows[self.child_ptr[row]])
        return row


def _max_game_length(game: Game) -> int:
    """The root deal plus the most decisions on a path of the public tree."""
    decisions = [0] * len(game.nodes)
    for n in game.nodes:  # depth order: parents first
        if n.parent >= 0:
            decisions[n.id] = decisions[n.parent] + (game.nodes[n.parent].kind == "decision")
    return 1 + max(decisions)


def game_type() -> Any:
    """The ``pyspiel.GameType`` of :data:`GAME_NAME`."""
    pyspiel = _require()
    gt = pyspiel.GameType
    return gt(
        short_name=GAME_NAME,
        long_name="toypoker game",
        dynamics=gt.Dynamics.SEQUENTIAL,
        chance_mode=gt.ChanceMode.EXPLICIT_STOCHASTIC,
        information=gt.Information.IMPERFECT_INFORMATION,
        utility=gt.Utility.ZERO_SUM,
        reward_model=gt.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"spec": spec_parameter(DEFAULT_SPEC)},
    )


def _game_classes() -> tuple[type, type, type]:
    """The Game, State and Observer classes (defined lazily: pyspiel is optional)."""
    pyspiel = _require()
    state_class = _state_class(pyspiel)
    observer_class = _observer_class(pyspiel)
    return _game_class(pyspiel, state_class, observer_class), state_class, observer_class


def _game_class(pyspiel: Any, state_class: type, observer_class: type) -> type:
    """The OpenSpiel Game class, making states and observers of the classes given."""

    class ToypokerOpenSpielGame(pyspiel.Game):
        """A compiled toypoker game as an OpenSpiel game (see the module docstring)."""

        def __init__(self, params: dict | None = None, *, game: Game | None = None):
            if game is None:
                spec = spec_from_parameter((params or {}).get("spec", DEFAULT_SPEC))
                game = load_rows(spec)
            u = game.term_u
            if u.size and np.abs(u.sum(axis=0)).max() > 1e-9:  # pragma: no cover - poker
                raise ToypokerError(f"{game.spec} is not zero-sum")
            info = pyspiel.GameInfo(
                num_distinct_actions=len(ACTIONS),
                max_chance_outcomes=game.n_deals,
                num_players=game.n_players,
                min_utility=float(u.min()),
                max_utility=float(u.max()),
                utility_sum=0.0,
                max_game_length=_max_game_length(game),
            )
            super().__init__(game_type(), info, {"spec": spec_parameter(game.spec)})
            self.toypoker_game = game
            self.tables = _Tables(game)

        def new_initial_state(self) -> Any:
            """The state before the deal."""
            return state_class(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: dict | None = None) -> Any:
            """Information state / observation strings (our infoset labels)."""
            return observer_class(
                iig_obs_type or pyspiel.IIGObservationType(perfect_recall=True), params
            )

    return ToypokerOpenSpielGame


def _state_class(pyspiel: Any) -> type:
    """The OpenSpiel State class: a row of the compiled game."""

    class ToypokerState(pyspiel.State):
        """A row of the compiled game (public node, deal); ``-1`` before the deal."""

        def __init__(self, game: Any):
            super().__init__(game)
            self.tables = game.tables
            self.row = -1

        def current_player(self) -> int:
            if self.row < 0:
                return int(pyspiel.PlayerId.CHANCE)
            if self.tables.is_terminal[self.row]:
                return int(pyspiel.PlayerId.TERMINAL)
            return int(self.tables.row_actor[self.row])

        def _legal_actions(self, player: int) -> list[int]:
            return self.tables.legal[self.tables.row_node[self.row]]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return self.tables.outcomes

        def _apply_action(self, action: int) -> None:
            t = self.tables
            if self.row < 0:
                row = int(action)  # the root's rows are the deals in order
            else:
                k = t.position[t.row_node[self.row]][int(action)]
                row = int(t.child_rows[t.child_ptr[self.row] + k])
            self.row = t.descend(row)

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                cards = self.tables.game.cards[int(action)]
                return "Deal:" + " ".join(str(int(c) + 1) for c in cards)
            return ACTIONS[int(action)]

        def is_terminal(self) -> bool:
            return self.row >= 0 and bool(self.tables.is_terminal[self.row])

        def returns(self) -> list[float]:
            if not self.is_terminal():
                return [0.0] * self.tables.game.n_players
            return self.tables.returns[int(self.tables.row_term[self.row])]

        def __str__(self) -> str:
            if self.row < 0:
                return "deal"
            t = self.tables
            d = int(t.row_deal[self.row])
            hands = "|".join(t.private[p][d] for p in range(t.game.n_players))
            return f"{hands}:{t.game.nodes[t.row_node[self.row]].history}"

    return ToypokerState


def _observer_class(pyspiel: Any) -> type:
    """The OpenSpiel Observer class: information state and observation strings."""

    class ToypokerObserver:
        """Strings only: private part per ``iig_obs_type``, then the public history."""

        def __init__(self, iig_obs_type: Any, params: dict | None):
            if params:
                raise ValueError(f"observation parameters are not supported; passed {params}")
            self.private = iig_obs_type.private_info
            self.public = bool(iig_obs_type.public_info)
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, np.ndarray] = {}

        def set_from(self, state: Any, player: int) -> None:
            """No tensor to fill."""

        def string_from(self, state: Any, player: int) -> str:
            """Our infoset label when the observation is the player's own (the default)."""
            t = state.tables
            if state.row < 0:
                return make_label(player, "", "")
            d = int(t.row_deal[state.row])
            kinds = pyspiel.PrivateInfoType
            if self.private == kinds.SINGLE_PLAYER:
                private = t.private[player][d]
            elif self.private == kinds.ALL_PLAYERS:
                private = "|".join(t.private[p][d] for p in range(t.game.n_players))
            else:
                private = ""
            history = t.game.nodes[t.row_node[state.row]].history if self.public else ""
            return make_label(player, private, history)

    return ToypokerObserver


@functools.cache  # the three classes, made once (no game is held)
def _classes() -> tuple[type, type, type]:
    return _game_classes()


def register() -> None:
    """Register :data:`GAME_NAME` with ``pyspiel.register_game`` (idempotent; never at import).

    Afterwards ``pyspiel.load_game("python_toypoker(spec=kuhn(players=3,cards=5))")``
    works (each load compiles the spec; :func:`openspiel_game` wraps a compiled game).
    """
    pyspiel = _require()
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(game_type(), _classes()[0])


def openspiel_game(game: Game | str) -> Any:
    """``game`` as an OpenSpiel game (also registers :data:`GAME_NAME`).

    Parameters
    ----------
    game
        A compiled :class:`~toypoker.game.Game` (wrapped without recompiling) or a spec.

    Returns
    -------
    pyspiel.Game
        The ``python_toypoker`` game; ``.toypoker_game`` is the compiled game and
        ``str()`` of it loads with ``pyspiel.load_game``.
    """
    register()
    if isinstance(game, str):
        game = load_rows(game)
    return _classes()[0](game=game)


def _own_game(os_game: Any) -> Game:
    g = getattr(os_game, "toypoker_game", None)
    if not isinstance(g, Game):
        raise ToypokerError(f"{os_game} is not a {GAME_NAME} game")
    return g


# ---------------------------------------------------------------- policies
def to_tabular_policy(profile: Profile, os_game: Any | None = None) -> Any:
    """An OpenSpiel ``TabularPolicy`` playing ``profile`` (keys are our infoset labels).

    Parameters
    ----------
    profile
        A profile of a compiled game (float or exact; exact values are rounded to float64).
    os_game
        The ``python_toypoker`` game of ``profile.game`` (default: :func:`openspiel_game`).

    Returns
    -------
    open_spiel.python.policy.TabularPolicy
        Row of infoset label ``L``: ``profile`` at ``L``, action ``a`` in column
        ``ACTION_ID[a]``; restricted infosets at their fixed values.
    """
    from open_spiel.python import policy as os_policy

    game = profile.game
    os_game = openspiel_game(game) if os_game is None else os_game
    if _own_game(os_game).spec != game.spec:
        raise ToypokerError(f"the OpenSpiel game is {_own_game(os_game).spec}, not {game.spec}")
    tab = os_policy.TabularPolicy(os_game)
    table = tab.action_probability_array
    probs = profile.probs.astype(np.float64) if profile.exact else profile.probs
    for label, i in tab.state_lookup.items():
        info = game.infoset(label)
        table[i, :] = 0.0
        for k, a in enumerate(info.actions):
            table[i, ACTION_ID[a]] = probs[info.offset + k]
    return tab


def from_tabular_policy(game: Game, policy: Any) -> Profile:
    """The :class:`~toypoker.profile.Profile` an OpenSpiel policy plays on ``game``.

    Parameters
    ----------
    game
        The compiled game the policy was computed on (as ``python_toypoker``).
    policy
        An ``open_spiel.python.policy.TabularPolicy`` (read by its keys, our
        infoset labels) or any policy with ``action_probabilities(state)``
        (asked at one state of each infoset).

    Returns
    -------
    Profile
        A float profile; restricted infosets get the game's fixed values
        (OpenSpiel's algorithms do not know the restriction).

    Raises
    ------
    ToypokerError
        If the policy lacks one of our infosets or its rows are not distributions
        (:class:`~toypoker.errors.ProfileError`).
    """
    probs = np.empty(game.n_sigma, dtype=np.float64)
    lookup = getattr(policy, "state_lookup", None)
    table = getattr(policy, "action_probability_array", None)
    if lookup is not None and table is not None:
        for info in game.infosets:
            i = lookup.get(info.label)
            if i is None:
                raise ToypokerError(f"the policy has no information state {info.label!r}")
            for k, a in enumerate(info.actions):
                probs[info.offset + k] = table[i, ACTION_ID[a]]
    else:
        os_game = openspiel_game(game)
        for info in game.infosets:
            dist = policy.action_probabilities(
                _state_at(os_game, int(game.infoset_rep_row[info.index]))
            )
            for k, a in enumerate(info.actions):
                probs[info.offset + k] = float(dist.get(ACTION_ID[a], 0.0))
    fixed = game.sigma_fixed
    probs[fixed] = game.fixed_values[fixed]
    return Profile(game, probs)


def _state_at(os_game: Any, row: int) -> Any:
    """The OpenSpiel state at a row of the compiled game (replays its path)."""
    game = _own_game(os_game)
    path = []
    r = row
    while game.parent_row[r] >= 0:
        e = int(game.edge_sigma[r])
        if e >= 0:
            info = game.infosets[game.sigma_infoset[e]]
            path.append(ACTION_ID[info.actions[e - info.offset]])
        r = int(game.parent_row[r])
    state = os_game.new_initial_state()
    state.apply_action(int(game.row_deal[row]))
    for a in reversed(path):
        state.apply_action(a)
    return state
