"""The command line starts without the heavy stacks (issue 23): ``toypoker --help``,
``toypoker games`` and ``toypoker info`` import no scipy.optimize, scipy.stats,
sympy, matplotlib or dask; a command's module loads only when the command runs.

Checked by the modules present in ``sys.modules`` of a fresh interpreter, not by a
timing (the start-up times are measured in the README).
"""

from __future__ import annotations

import inspect

import pytest
import typer
from typer.core import TyperGroup

from tests.test_startup import heavy_in, loaded_after
from toypoker import cli

HEAVY = ("scipy.optimize", "scipy.stats", "sympy", "matplotlib", "dask", "distributed")


@pytest.mark.parametrize(
    "argv", [["--help"], ["games"], ["games", "--json"], ["info", "kuhn(players=3)"]]
)
def test_light_commands_load_no_heavy_stack(argv: list[str]) -> None:
    loaded = loaded_after(f"from toypoker.cli import main\nassert main({argv!r}) == 0\n")
    assert heavy_in(loaded, HEAVY) == []
    # and no other command's module: only the one that ran
    ran = {"toypoker.cli.games"} if argv[0] != "--help" else set()
    assert {m for m in loaded if m.startswith("toypoker.cli.")} == {
        "toypoker.cli.common",
        "toypoker.cli.held",
        "toypoker.cli.checks",  # the option checks every command makes (common's own)
        *ran,
    }


def test_a_heavy_command_loads_its_stack() -> None:
    # independent path: the probe sees the stack once a command that needs it runs
    loaded = loaded_after(
        "from toypoker.cli import main\nassert main(['equilibria', 'skp', '--json']) == 0\n"
    )
    assert "sympy" in loaded and "toypoker.cli.equilibria" in loaded


def _first_sentence(text: str) -> str:
    words = inspect.cleandoc(text).split("\n\n")[0].split()
    end = next((k for k, w in enumerate(words) if w.endswith(".")), len(words) - 1)
    return " ".join(words[: end + 1])


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_the_help_table_matches_each_command(name: str) -> None:
    # the one-line help --help shows from the table is the command's own
    module, attr, text = cli.COMMANDS[name]
    target = getattr(__import__(f"toypoker.cli.{module}", fromlist=[attr]), attr)
    own = target.info.help if isinstance(target, typer.Typer) else target.__doc__
    assert _first_sentence(text) == _first_sentence(own)
    command = cli.load_command(name)
    assert command.name == name
    assert isinstance(command, TyperGroup) == isinstance(target, typer.Typer)


def test_help_lists_every_command(capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["--help"]) == 0
    text = capsys.readouterr().out
    listed = [ln.split()[0] for ln in text.split("Commands:")[1].splitlines() if ln.strip()]
    assert listed == list(cli.COMMANDS)
