"""Every shell command and code block of the getting-started page and the how-to
guides runs as the page shows it (issue 48): a page whose command fails, prints a
traceback or is refused for an unknown option fails here, in CI.

Each page's ```bash blocks run line by line in one scratch folder (a line may read
what an earlier one wrote), with ``toypoker`` being this interpreter's, each line
within :data:`LIMIT` seconds. Three kinds of line are not run:

* a line whose comment says ``cluster only`` (it needs a Dask scheduler or a head
  node: ``dask scheduler``, ``--scheduler tcp://HEAD:8786``);
* ``pip install ...`` (the installation steps: the tests run where it is installed);
* a ``toypoker`` line whose comment says ``(minutes)``: its arguments are parsed by the
  command line's own parser (an unknown command or option, or a value of the wrong
  type, fails), without running it.

Each ```python block that is not a doctest (those run in tests/test_docs.py) runs in a
fresh interpreter in the same folder.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = ["getting-started.md"] + sorted(
    p.relative_to(DOCS).as_posix() for p in (DOCS / "howto").glob("*.md")
)
LIMIT = 90
"""Seconds one command or block may take (the longest run here takes about 30)."""
SLOW_PAGES = {"howto/cli-tour.md", "howto/clusters.md", "howto/sweeps.md"}
"""Pages whose commands take more than a few seconds in all."""

_FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```", re.S | re.M)
_HEREDOC = re.compile(r"<<-?\s*'?\"?(\w+)'?\"?")


def blocks(text: str, language: str) -> list[str]:
    """The bodies of the page's fenced blocks in ``language`` (MyST directives such as
    ```{code-cell} are not plain blocks)."""
    return [body for lang, body in _FENCE.findall(text) if lang == language]


def commands(block: str) -> list[str]:
    """The commands of a shell block: continuation lines joined, a here-document kept
    with its command, blank and comment lines dropped."""
    out: list[str] = []
    lines = block.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        while line.endswith("\\") and i < len(lines):
            line = line[:-1].rstrip() + " " + lines[i].strip()
            i += 1
        heredoc = _HEREDOC.search(line)
        if heredoc:
            body = []
            while i < len(lines) and lines[i].strip() != heredoc.group(1):
                body.append(lines[i])
                i += 1
            i += 1
            line = "\n".join([line, *body, heredoc.group(1)])
        out.append(line)
    return out


def comment(command: str) -> str:
    """The trailing ``# ...`` comment of a command's first line ('' when none): the
    first ``#`` outside quotes that starts a word."""
    first = command.splitlines()[0]
    quote = ""
    for i, ch in enumerate(first):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or first[i - 1].isspace()):
            return first[i + 1 :].strip()
    return ""


def kind(command: str) -> str:
    """``skip``, ``parse`` or ``run`` (module docstring)."""
    note = comment(command)
    if "cluster only" in note or command.startswith("pip install"):
        return "skip"
    if "(minutes)" in note:
        if not command.startswith("toypoker "):
            raise AssertionError(f"only a toypoker line can be parse-only: {command}")
        return "parse"
    return "run"


def parse_only(command: str) -> None:
    """Parse a ``toypoker`` line with the command line's own click parser, down to its
    subcommand, without running it: an unknown command, option or bad value raises
    click's usage error (typer may ship its own copy of click, so a group is known by
    its ``resolve_command`` and the error by its ``exit_code`` 2, as in
    ``toypoker.cli``)."""
    from toypoker.cli import app

    args = shlex.split(command, comments=True)[1:]
    cmd = typer.main.get_command(app)
    ctx = cmd.make_context("toypoker", args)
    while hasattr(cmd, "resolve_command"):
        rest = [*getattr(ctx, "_protected_args", []), *ctx.args]
        name, sub, rest = cmd.resolve_command(ctx, rest)
        assert sub is not None, f"no command {name}"
        ctx = sub.make_context(name, rest, parent=ctx)
        cmd = sub


def environment(bin_dir: Path) -> dict[str, str]:
    """This process's environment with ``toypoker`` as this interpreter's first on
    ``PATH`` (the tests may run from an environment that is not activated)."""
    shim = bin_dir / "toypoker"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m toypoker "$@"\n')
    shim.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env.setdefault("TTY_COMPATIBLE", "0")
    env.setdefault("OMP_NUM_THREADS", "1")
    return env


def check_output(what: str, proc: subprocess.CompletedProcess[str]) -> None:
    text = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"{what}\nexit {proc.returncode}:\n{text[-3000:]}"
    assert "Traceback (most recent call last)" not in text, f"{what}\n{text[-3000:]}"


def _page_params() -> list[object]:
    return [
        pytest.param(page, marks=[pytest.mark.slow] if page in SLOW_PAGES else [])
        for page in PAGES
    ]


@pytest.mark.parametrize("page", _page_params())
def test_the_page_runs_as_shown(page: str, tmp_path: Path) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    env = environment(bin_dir)
    for block in blocks(text, "bash"):
        for command in commands(block):
            what = f"{page}: {command}"
            how = kind(command)
            if how == "skip":
                continue
            if how == "parse":
                parse_only(command)
                continue
            start = time.perf_counter()
            proc = subprocess.run(
                ["bash", "-e", "-o", "pipefail", "-c", command],
                cwd=work, env=env, capture_output=True, text=True, timeout=LIMIT,
                stdin=subprocess.DEVNULL,
            )  # fmt: skip
            print(f"{time.perf_counter() - start:6.1f} s  {command.splitlines()[0]}")
            check_output(what, proc)
    for code in blocks(text, "python"):
        if ">>> " in code:
            continue  # a doctest: tests/test_docs.py
        proc = subprocess.run(
            [sys.executable, "-c", code],
            cwd=work, env=env, capture_output=True, text=True, timeout=LIMIT,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        check_output(f"{page}: python block\n{code}", proc)


def test_the_pages_have_commands() -> None:
    found = {page: commands("".join(blocks((DOCS / page).read_text("utf-8"), "bash")))
             for page in PAGES}  # fmt: skip
    assert len(found["howto/cli-tour.md"]) >= 30
    assert any(kind(c) == "skip" for c in found["howto/clusters.md"])
    assert any(kind(c) == "parse" for c in found["howto/cli-tour.md"])


def test_the_line_kinds() -> None:
    assert kind("dask scheduler    # cluster only: on the head node") == "skip"
    assert kind('pip install ".[docs]"   # + Sphinx') == "skip"
    assert kind("toypoker literature check   # every claim (minutes)") == "parse"
    assert kind('toypoker info "leduc(players=3)"   # deals, (seconds)') == "run"
    assert comment('toypoker solve "a#b" -o x   # the comment') == "the comment"
    assert commands("a \\\n  b\n# c\n\ncat > f <<'EOF'\nx\nEOF\nd\n") == [
        "a b", "cat > f <<'EOF'\nx\nEOF", "d",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("toypoker solve kuhn --no-such-option 1", "No such option"),
        ("toypoker literature nope", "No such command"),
        ("toypoker no-such-command", "No such command"),
        ("toypoker solve kuhn --iterations many", "--iterations"),
    ],
)
def test_parse_only_refuses_unknown_options_and_commands(command: str, says: str) -> None:
    parse_only("toypoker --threads 2 solve kuhn --method cfr+ --iterations 10")
    parse_only("toypoker literature check --claim kuhn-basic --full")
    with pytest.raises(Exception) as info:  # noqa: PT011 (click's class: see parse_only)
        parse_only(command)
    assert getattr(info.value, "exit_code", None) == 2
    assert says in info.value.format_message()  # type: ignore[attr-defined]
