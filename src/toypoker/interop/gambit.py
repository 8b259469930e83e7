"""Gambit interoperability: write any compiled game as a Gambit ``.efg`` file,
and carry profiles over to ``pygambit`` (optional dependency).

The export expands the compressed form back into a plain extensive form: a
root chance node deals the whole deal table (exact rational probabilities;
board cards are part of a deal, and the public chance nodes then have one
outcome per deal, so they are not repeated), then each deal follows the public
tree.  Information sets are ours, numbered per player and labelled with our
infoset labels; payoffs are exact rationals.  Never a different game.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from toypoker.blocks import deal_blocks
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.io import atomic_write_text
from toypoker.profile import Profile


def _rational(x: Fraction) -> str:
    """An exact number as Gambit writes it: ``3`` or ``1/18``."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _quoted(text: str) -> str:
    """A Gambit string literal (backslashes and quotes escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_efg(game: Game) -> str:
    """The game as Gambit's ``.efg`` (version 4 text format)."""
    players = " ".join(_quoted(f"P{p + 1}") for p in range(game.n_players))
    lines = [f"EFG 2 R {_quoted(game.spec)} {{ {players} }}", '""', ""]
    number: dict[int, int] = {}
    counts = [0] * game.n_players
    for info in game.infosets:
        counts[info.player] += 1
        number[info.index] = counts[info.player]
    w = game.weights_exact
    deal_names = ["-".join(str(int(c) + 1) for c in game.cards[d]) for d in range(game.n_deals)]
    chance = " ".join(f"{_quoted(deal_names[d])} {_rational(w[d])}" for d in range(game.n_deals))
    lines.append(f'c "" 1 "deal" {{ {chance} }} 0')
    blocks = game.derived(deal_blocks)
    u = game.term_u_exact
    outcome = 0
    out = lines.append
    for d in range(game.n_deals):
        root = int(blocks.order[blocks.start[d]])
        stack = [root]
        while stack:
            row = stack.pop()
            kids = blocks.child_rows[blocks.child_ptr[row] : blocks.child_ptr[row + 1]]
            term = blocks.row_term[row]
            if term >= 0:
                outcome += 1
                pay = ", ".join(_rational(u[p, term]) for p in range(game.n_players))
                out(f't "" {outcome} "" {{ {pay} }}')
                continue
            info = int(game.row_infoset[row])
            if info < 0:  # public chance: this deal has one outcome here
                stack.append(int(kids[0]))
                continue
            i = game.infosets[info]
            acts = " ".join(_quoted(a) for a in i.actions)
            out(f'p "" {i.player + 1} {number[info]} {_quoted(i.label)} {{ {acts} }} 0')
            stack.extend(int(k) for k in kids[::-1])
    return "\n".join(lines) + "\n"


def write_efg(game: Game, path: str | Path) -> None:
    """Write :func:`to_efg` to ``path`` atomically."""
    atomic_write_text(path, to_efg(game))


def _require() -> Any:
    try:
        import pygambit
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ToypokerError('pygambit is not installed: pip install "toypoker[peers]"') from exc
    return pygambit


def gambit_game(game: Game, path: str | Path | None = None) -> Any:
    """The game loaded in pygambit (through an ``.efg`` file)."""
    gbt = _require()
    import tempfile

    if path is None:
        with tempfile.TemporaryDirectory() as tmp:
            p = Path(tmp) / "game.efg"
            write_efg(game, p)
            return gbt.read_efg(str(p))
    write_efg(game, path)
    return gbt.read_efg(str(path))


def to_gambit_profile(gbt_game: Any, profile: Profile) -> Any:
    """Our profile as a pygambit behaviour profile (rational when ours is exact)."""
    prof = gbt_game.mixed_behavior_profile(rational=profile.exact)
    game = profile.game
    for player in gbt_game.players:
        for infoset in player.infosets:
            ours = game.infoset(infoset.label)
            for k, action in enumerate(infoset.actions):
                x = profile.probs[ours.offset + k]
                prof[action] = Fraction(x) if profile.exact else float(x)
    return prof


def from_gambit_profile(game: Game, gbt_profile: Any, exact: bool = True) -> Profile:
    """A pygambit behaviour profile (e.g. from ``lp_solve``) as ours."""
    mapping = {}
    for player in gbt_profile.game.players:
        for infoset in player.infosets:
            row = {}
            for action in infoset.actions:
                x = gbt_profile[action]
                row[action.label] = max(Fraction(str(x)) if exact else float(x), 0)  # fp noise
            # Gambit may leave unreached infosets unnormalised: normalise them
            total = sum(row.values())
            k = len(row)
            row = {
                a: (x / total if total > 0 else (Fraction(1, k) if exact else 1.0 / k))
                for a, x in row.items()
            }
            mapping[infoset.label] = row
    return Profile.from_mapping(game, mapping, exact=exact)
