"""``toypoker eval`` and ``toypoker verify``."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from toypoker.archive import profile_game, read_profile, reads_as_archive
from toypoker.cli.checks import check_exists, check_readable, positive
from toypoker.cli.common import (
    FractionsOpt,
    JsonOpt,
    MilpSecondsOpt,
    SpecArg,
    TeamOpt,
    err,
    milp_option,
    num,
    one_line,
    out,
    print_json,
)
from toypoker.cli.layouts import build_on_layout
from toypoker.cli.tables import team_lines, team_of, values_table
from toypoker.engines.registry import engine_of, layout_for, rows_or_refuse, team_gain_note
from toypoker.errors import ProfileError, ToypokerError
from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.games import canonical_spec, load_rows
from toypoker.games.team_transform import Team
from toypoker.io import read_text_limited
from toypoker.profile import FORMAT as PROFILE_FORMAT
from toypoker.profile import MAX_PROFILE_BYTES, Profile, max_profile_bytes
from toypoker.profile import _loads as json_loads
from toypoker.result import RESULT_FORMAT
from toypoker.solvers.analysis import deviations

ProfileArg = Annotated[
    Path,
    typer.Argument(
        help="Profile: JSON (solve -o), a result JSON (solve --result) or an .npz archive."
    ),
]


def load_profile(path: Path, game: Game, exact: bool) -> Profile:
    """The profile in ``path`` for ``game``; ``exact`` reads decimals as written (0.1 = 1/10).
    What the library notes while reading (decimals snapped onto the simplex) is said
    on stderr, one line each.  A profile of a strong team's merged game (``merge=true``)
    is mapped onto the members' seats, and back (same public tree and deals)."""
    try:
        return _load_profile(path, game, exact)
    except ProfileError as exc:
        if ", not " not in str(exc):  # not about the game
            raise
        from toypoker.collusion.detection import merge_partners  # only here: scipy.stats et al.

        for partner in merge_partners(game):
            try:
                prof = _load_profile(path, load_rows(partner), exact)
                break
            except ProfileError:
                continue
        else:
            raise
    what = ("of the team merged (merge=true): mapped onto the members' seats"
            if prof.game.params.get("merge") else "of the members' seats: mapped onto the "
            "merged team (merge=true)")  # fmt: skip
    one_line(f"{path} is a profile {what}", kind="note")
    from toypoker.teams.transfer import transfer_profile

    return transfer_profile(prof, game)


def _load_profile(path: Path, game: Game, exact: bool) -> Profile:
    """:func:`load_profile` without the merged team's mapping."""
    check_readable(path, "profile")
    if reads_as_archive(path):  # the compact archive (solve -o p.npz / --result r.npz)
        prof = read_profile(path, game)
        return prof.to_exact() if exact and not prof.exact else prof
    data = profile_json(path, game)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        prof = Profile.from_json_dict(data, game, exact=exact or None)
    body = data.get("profile", data) if isinstance(data, dict) else None
    floats = isinstance(body, dict) and body.get("exact") is False
    for w in caught:
        if floats and prof.snapped and "snapped onto the simplex" in str(w.message):
            continue  # floats as toypoker wrote them: read exactly, they never sum to 1
        one_line(str(w.message), kind="note")
    return prof


def _check_profile_head(path: Path, spec: str) -> None:
    """Before the build: a profile file that cannot be one (not a zip under a ``.npz``
    name, a checkpoint, not a JSON object) or that names another game at its head is
    refused now, not after minutes of building (a team's game may read its merged
    partner's profile: those are checked when read)."""
    declared = profile_game(path)
    if declared is None or "team=" in spec or "team=" in declared:
        return
    try:
        other = canonical_spec(declared) != canonical_spec(spec)
    except ToypokerError:  # said when the file is read
        return
    if other:
        raise ProfileError(f"{path} holds a profile of {declared}, not of {canonical_spec(spec)}")


#: the formats of the JSON files a profile is read from (a profile, a result's profile)
PROFILE_FORMATS = (PROFILE_FORMAT, RESULT_FORMAT)


def profile_json(path: Path, game: Game) -> object:
    """The decoded JSON of a profile or result file of ``game``, its format version
    checked: a file of an unknown version is refused in one line naming both versions
    (one without a ``format``, written by hand, is read).  At most
    :func:`~toypoker.profile.max_profile_bytes` are read, and as much again for a result
    file's other fields."""
    limit = max_profile_bytes(game) + MAX_PROFILE_BYTES
    data = json_loads(read_text_limited(path, limit, "profile"), path)
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt is not None and fmt not in PROFILE_FORMATS:
        raise ProfileError(
            f"{path} is of format {str(fmt)[:60]!r}; this toypoker reads {PROFILE_FORMAT} "
            f"profiles and {RESULT_FORMAT} results"
        )
    return data


def eval_(
    spec: SpecArg,
    profile: ProfileArg,
    exact: Annotated[
        bool,
        typer.Option("--exact/--float", help="Exact rationals: decimals read as written."),
    ] = False,
    team: TeamOpt = None,
    milp_seconds: MilpSecondsOpt = None,
    fractions: FractionsOpt = False,
    layout: Annotated[
        str,
        typer.Option(
            help="auto, rows or vector. With auto a game is evaluated on the vector layout "
            "where toypoker.load_game puts it there (counted first, the faster that fits); "
            "--exact and --team run on the rows, where they fit."
        ),
    ] = "auto",
    json_: JsonOpt = False,
) -> None:
    """Expected values, best-response gains and NashConv of a profile.

    For a team, also its joint best-response gain.  A large game is evaluated on hand
    vectors (floats); --exact and --team run on the deal table, refused at once where it
    does not fit.  A profile of a strong team's merged game (merge=true) is read on the
    members' seats, and back."""
    positive("--milp-seconds", milp_seconds)
    if exact or team is not None:
        what = "eval --exact" if exact else "eval --team"
        rows_or_refuse(spec, what, "without it eval runs on the vector layout (floats)", layout)
    rows = exact or team is not None
    choice = layout_for(spec, None, "rows" if rows else layout, team=False)
    check_exists(profile, "profile")  # said now, not after the build
    _check_profile_head(profile, spec)  # so is a file that is no profile of this game
    said = choice.said(layout)
    if said is not None:
        err.print(said, highlight=False, soft_wrap=True)
    g = build_on_layout(spec, choice)
    deals = "deals" in engine_of(g).provides  # a team's gain reads the deal table
    the_team = team_of(g, team) if deals else None  # checked before the profile is read
    prof = load_profile(profile, g, exact)
    ev = evaluate(g, prof, team=the_team, **milp_option(milp_seconds))
    if json_:
        print_json({"game": g.spec, "layout": g.layout, **ev.to_dict()})
        return
    out.print(values_table(ev, fractions=fractions, game=g))
    if ev.team is not None:
        out.print(*team_lines(ev.team), sep="\n")
    elif not deals and Team.of_params(g.params) is not None:  # weak collusion on vectors
        out.print(team_gain_note(spec))
    if fractions and not ev.exact:
        err.print("--fractions: this evaluation is in floats (--exact computes fractions)")


def verify(
    spec: SpecArg,
    profile: ProfileArg,
    team: TeamOpt = None,
    milp_seconds: MilpSecondsOpt = None,
    fractions: FractionsOpt = False,
    layout: Annotated[
        str,
        typer.Option(
            help="auto or rows: the exact certificate runs on the row layout; auto refuses "
            "at once a game whose counted rows need more than 2 GB, rows builds them anyway "
            "(within load_game's budget, TOYPOKER_MAX_BYTES)."
        ),
    ] = "auto",
    json_: JsonOpt = False,
) -> None:
    """Exact certificate: expected values and every player's exact best-response gain
    (0 for an equilibrium), with the best responses where a gain is positive.

    For a team, also its exact joint best-response gain.  Exit status 1 when the profile is not an
    equilibrium."""
    positive("--milp-seconds", milp_seconds)
    rows_or_refuse(spec, "verify", "toypoker eval gives floats on the vector layout", layout)
    check_exists(profile, "profile")  # said now, not after the build
    _check_profile_head(profile, spec)  # so is a file that is no profile of this game
    g = load_rows(spec)
    the_team = team_of(g, team)  # checked before the profile is read
    prof = load_profile(profile, g, exact=True)
    ev = evaluate(g, prof, team=the_team, **milp_option(milp_seconds))
    found = deviations(g, prof, ev)
    equilibrium, devs = found.equilibrium, found.deviations
    if json_:
        data = found.to_json_dict()
        if ev.team is not None:
            data = {**data, "team": ev.team.to_dict()}
        print_json(data)
    else:
        out.print(values_table(ev, fractions=fractions, game=g))
        if ev.team is not None:
            out.print(*team_lines(ev.team), sep="\n")
        if equilibrium:
            out.print("[bold green]certified: an exact Nash equilibrium (every gain is 0)[/]")
        else:
            out.print("[bold red]not an equilibrium[/]: best responses that gain")
        for player, dev in devs.items():
            t = Table(
                title=f"{player}'s best response (infosets where it differs)", title_justify="left"
            )
            t.add_column("infoset")
            t.add_column("probabilities")
            for label, row in dev.items():
                t.add_row(label, ", ".join(f"{a}={num(x, fractions)}" for a, x in row.items()))
            out.print(t)
    if not equilibrium:
        raise typer.Exit(1)
