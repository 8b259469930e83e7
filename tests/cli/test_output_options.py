"""One spelling for what a command writes (issue 24): ``-o/--output <file>`` for the
command's result file, ``--out-dir <dir>`` for the folder it fills, ``--plot <file>``
for a figure.  Expected spellings: the scheme of src/toypoker/cli/common.py (the
"output options" section); the old ones (``--out``, ``--outdir``, ``-o`` of
``reproduce``) come from the README and scripts of earlier releases."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from toypoker import cli as toypoker_cli

#: every command and subcommand line, as a user types it after ``toypoker``
LEAVES: list[tuple[str, ...]] = []
for _name in toypoker_cli.COMMANDS:
    _command = toypoker_cli.load_command(_name)
    _subs = getattr(_command, "commands", None)
    LEAVES += [(_name, sub) for sub in _subs] if _subs else [(_name,)]

#: option lines of click's help: "  -o, --output <file>   help" (names, then the metavar)
OPTION_LINE = re.compile(r"^\s{2}((?:-{1,2}[\w-]+(?:/--[\w-]+)?(?:, )?)+)(?: (<\w+>))?")


def _options(text: str) -> dict[str, str | None]:
    """Each option spelling listed in ``text`` -> the metavar on its line."""
    found: dict[str, str | None] = {}
    for line in text.splitlines():
        if (m := OPTION_LINE.match(line)) is not None:
            for name in re.split(r", |/", m.group(1)):
                found[name] = m.group(2)
    return found


def test_every_command_is_walked() -> None:
    # a group with subcommands contributes them (dynamics, collusion, literature)
    assert ("trace",) in LEAVES and ("dynamics", "ode") in LEAVES
    assert len(LEAVES) > len(toypoker_cli.COMMANDS)


@pytest.mark.parametrize("leaf", LEAVES, ids=" ".join)
def test_help_shows_one_spelling_for_output_options(cli, leaf: tuple[str, ...]) -> None:
    code, text, _ = cli(*leaf, "--help")
    assert code == 0
    options = _options(text)
    # the old spellings are never listed
    assert not {"--out", "--outdir", "--output-dir", "--outfile"} & set(options), text
    # -o is only ever --output, a file
    if "-o" in options or "--output" in options:
        assert options.get("-o") == options.get("--output") == "<file>", text
    if "--out-dir" in options:
        assert options["--out-dir"] == "<dir>", text
    if "--plot" in options:
        assert options["--plot"] == "<file>", text
    # a folder the command fills is --out-dir: every <dir> option that is an output
    # ("Folder for ..." / "The report's folder" / "Sweep folder") is spelled so
    for line in text.splitlines():
        if re.search(r"<dir>|<path>", line) and re.search(r"(?i)\bfolder for\b", line):
            assert "--out-dir" in line, line


def test_the_scheme_is_in_use(cli) -> None:
    # the three spellings each appear somewhere (a test of the walker as much as the CLI)
    seen: dict[str, set[str]] = {"-o": set(), "--out-dir": set(), "--plot": set()}
    for leaf in LEAVES:
        options = _options(cli(*leaf, "--help")[1])
        for name, where in seen.items():
            if name in options:
                where.add(" ".join(leaf))
    assert {"solve", "export", "literature check"} <= seen["-o"]
    assert {"trace", "sweep", "reproduce", "dynamics ode", "dynamics table1"} <= seen["--out-dir"]
    assert {"compare", "detect", "collusion table7"} <= seen["--plot"]


@pytest.mark.parametrize(
    ("args", "folder"),
    [
        # trace's old --outdir: the bad-input check reports the folder (before any work)
        (("trace", "kuhn(players=3)", "--pot", "2:3", "--outdir", "F"), "F"),
        (("reproduce", "--out", "F.html"), "F.html"),
        (("reproduce", "-o", "F.html"), "F.html"),
        (("sweep", "solve", "kuhn", "--out", "F.json"), "F.json"),
    ],
)
def test_old_spellings_reach_the_option(one_line_error, tmp_path: Path, args, folder) -> None:
    # a file where a folder is expected is refused by the --out-dir check, naming the path:
    # the old spelling's value arrived at the new option
    (tmp_path / folder).write_text("{}")
    target = tmp_path / folder
    err = one_line_error(*[str(target) if a == folder else a for a in args])
    # (a long path is shortened in the middle of the one line; its end stays)
    assert "--out-dir" in err and re.search(rf"/{Path(folder).stem}\b", err), err


def test_old_outdir_writes_where_it_says(cli, tmp_path: Path) -> None:
    # dynamics ode --outdir (README of earlier releases) still writes into that folder;
    # a short integration on a small basin grid (the defaults take ~25 s) writes the
    # same files: what is checked is where they go
    target = tmp_path / "old"
    code, _, err = cli(
        "dynamics", "ode", "--outdir", target, "--json", "--t-end", "20", "--basins-grid", "2"
    )
    assert code == 0, err
    assert (target / "ode.csv").is_file()
