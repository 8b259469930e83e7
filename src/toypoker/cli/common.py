"""What every command shares: options, printing, validation of options and output
paths, progress that stays visible when piped, interrupts and resume hints."""

from __future__ import annotations

import copy
import json
import os
import shlex
import sys
import threading
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from toypoker.cli.checks import positive
from toypoker.cli.held import HELD, hold, release_held  # noqa: F401 - re-exported
from toypoker.errors import ToypokerError
from toypoker.io import atomic_write_text, exact_text


def reader_gone() -> None:
    """Standard output's reader has gone (``toypoker verify ... | head -1``): send the rest,
    and Python's flush at exit, to ``/dev/null``, so the command ends quietly."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real descriptor (a test's captured stdout)
        pass
    finally:
        os.close(devnull)


class _Console(Console):
    """rich's console, but a closed pipe ends the command with exit 0 (rich's own
    answer, ``SystemExit(1)``, reads as the documented "not an equilibrium" status)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        reader_gone()
        raise BrokenPipeError  # main() returns 0 for it


out = _Console()
err = Console(stderr=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
OverwriteOpt = Annotated[
    bool,
    typer.Option(
        "--overwrite",
        help="Replace an existing output that --resume would continue (without it, or "
        "--resume, an existing one is refused: it holds another run's work).",
    ),
]
SpecArg = Annotated[str, typer.Argument(help='Game spec, e.g. "kuhn(players=3)".')]
StrongSolveOpt = Annotated[
    str,
    typer.Option(
        help="merged: strong win-sharing collusion solved as the team as one agent, its "
        "strategy played by the members; members: the n-player game as it is."
    ),
]

MilpSecondsOpt = Annotated[
    float | None,
    typer.Option(
        help="Time limit of a weak team's joint best-response MILP (default 30 s); past it "
        "the line says so and gives the alternating best responses' lower bound."
    ),
]


def milp_option(seconds: float | None) -> dict[str, float]:
    """``--milp-seconds`` as a keyword of :func:`toypoker.evaluate` and
    :func:`toypoker.solve` (none: their default, 30 s)."""
    return {} if seconds is None else {"milp_seconds": positive("--milp-seconds", seconds)}


TeamOpt = Annotated[
    str | None,
    typer.Option(
        "--team",
        help="Also the joint best-response gain of these seats as one team (1-based digits, "
        "e.g. 12); default: the game's collusion team, if any.",
    ),
]

# ------------------------------------------------------------ output options
# One spelling for what a command writes: ``-o/--output <file>`` the command's result
# file, ``--out-dir <dir>`` the folder it fills, ``--plot <file>`` a figure (other files
# are named by their content: --csv, --result, --save).  Older spellings keep working,
# hidden from --help (:data:`OLD_SPELLINGS`, :func:`add_hidden_aliases`).


def output_option(help_: str) -> Any:
    """``-o/--output <file>``: the command's result file."""
    return typer.Option("-o", "--output", metavar="<file>", help=help_)


def out_dir_option(help_: str) -> Any:
    """``--out-dir <dir>``: the folder a command fills."""
    return typer.Option("--out-dir", metavar="<dir>", help=help_)


def plot_option(help_: str) -> Any:
    """``--plot <file>``: a figure (its format by the file's suffix)."""
    return typer.Option("--plot", metavar="<file>", help=help_)


#: the spellings of earlier releases, by the option they now mean: accepted, never listed
OLD_SPELLINGS: dict[str, tuple[str, ...]] = {"--out-dir": ("--outdir", "--out", "-o")}


def add_hidden_aliases(command: Any) -> None:
    """Let ``command`` (and a group's subcommands) accept :data:`OLD_SPELLINGS` of its
    options, hidden from ``--help``: each alias is a hidden copy of the option with the
    same destination, so the parser files its value under the option itself.  A spelling
    the command uses for something else is left alone."""
    for sub in getattr(command, "commands", {}).values():
        add_hidden_aliases(sub)
    taken = {name for p in command.params for name in (*p.opts, *p.secondary_opts)}
    for param in list(command.params):
        olds = [old for name in param.opts for old in OLD_SPELLINGS.get(name, ())]
        for old in olds:
            if old in taken:
                continue
            alias = copy.copy(param)
            alias.opts, alias.secondary_opts = [old], []
            alias.hidden, alias.expose_value = True, False
            command.params.append(alias)
            taken.add(old)


#: the arguments of the running command (set by :func:`toypoker.cli.main`), for resume hints
ARGV: list[str] = []
#: exit status of a command stopped by Ctrl-C or SIGTERM
INTERRUPTED = 130
#: whether :func:`interrupted` said so already (else ``main`` says ``toypoker: interrupted``)
INTERRUPT_REPORTED = False
#: set while a command runs inside another (``reproduce``'s items): an interrupt is the
#: outer command's to report, with its own resume command, so :func:`interrupted` is quiet
NESTED = False
#: seconds between progress lines when stderr is not a terminal (the environment variable
#: TOYPOKER_PROGRESS_EVERY overrides it: 0 prints every update, as tests waiting for work do)
PLAIN_PROGRESS_EVERY = 5.0


def _plain_every() -> float:
    try:
        every = float(os.environ.get("TOYPOKER_PROGRESS_EVERY", PLAIN_PROGRESS_EVERY))
    except ValueError:
        return PLAIN_PROGRESS_EVERY
    return every if every >= 0 else PLAIN_PROGRESS_EVERY


def new_app(help_: str, **kwargs: object) -> typer.Typer:
    """A typer app with plain click help (flags shown as ``--flag/--no-flag``,
    never as ``--flag <bool>``)."""
    return typer.Typer(
        help=help_,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        **kwargs,
    )


# ------------------------------------------------------------------- printing
SHORT_FRACTION = 12
"""Fractions written with at most this many characters (``-1/48``) print as
``p/q (decimal)``; longer ones as their decimal only (``--fractions``: in full)."""

FractionsOpt = Annotated[
    bool,
    typer.Option(
        "--fractions",
        help="Print exact numbers as whole fractions too (by default a long fraction "
        "prints as its 12-digit decimal; --json always has the fraction).",
    ),
]


def seat_names(seats: Sequence[int]) -> str:
    """0-based seats as printed everywhere: ``P2+P3`` (the papers' ``P1..Pn``)."""
    return "+".join(f"P{s + 1}" for s in seats)


def num(x: object, fractions: bool = False) -> str:
    """A number for people: 12 significant digits; an exact fraction also as ``p/q``
    when it is short (:data:`SHORT_FRACTION` characters) or ``fractions`` is set."""
    if isinstance(x, str):  # an exact number as JSON data holds it ("1/3")
        x = Fraction(x)
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return exact_text(x)
        bits = x.numerator.bit_length() + x.denominator.bit_length()
        if fractions or bits <= 4 * SHORT_FRACTION:  # ~0.3 digits a bit: short ones only
            text = exact_text(x)
            if fractions or len(text) <= SHORT_FRACTION:
                return f"{text} ({float(x):.12g})"
    return f"{float(x):.12g}"  # type: ignore[arg-type]


def plain(x: object) -> object:
    """JSON-able plain Python numbers (no ``np.float64(...)`` anywhere)."""
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [plain(v) for v in x]
    if hasattr(x, "tolist"):
        return plain(x.tolist())
    if isinstance(x, Fraction):
        return exact_text(x)
    if isinstance(x, bool | int | float | str) or x is None:
        return x
    try:
        return float(x)  # numpy scalars
    except (TypeError, ValueError):
        return str(x)


def said(line: str) -> None:
    """Print ``line`` (e.g. ``profile written to PATH``) unwrapped and unstyled: a path
    is never broken at the console's width."""
    out.print(line, soft_wrap=True, highlight=False, markup=False)


def print_json(data: object) -> None:
    """Print ``data`` as JSON, numpy numbers and fractions made plain first."""
    sys.stdout.write(json.dumps(plain(data), indent=1) + "\n")


def emit(data: object, path: Path | None, json_: bool) -> bool:
    """Write ``data`` as JSON to ``path`` (atomically) if given; print it if ``--json``.
    Returns True when the JSON was printed (the command is done)."""

    if path:
        atomic_write_text(path, json.dumps(plain(data), indent=1) + "\n")
    if json_:
        print_json(data)
    return json_


#: longest line :func:`one_line` prints (a message echoing a 10 MB argument is cut): room
#: for a sentence with two specs and a path, which a cut at 200 lost
MAX_LINE = 400
#: longest word of a message kept whole (a longer one, an echoed value, is elided): a
#: canonical spec (about 80 characters) and a path of a few folders stay whole
MAX_WORD = 160


def _elide(text: str, keep: int) -> str:
    """``text`` with its middle replaced by ``...`` to ``keep`` characters (head and tail
    kept: what is wrong comes first, what is allowed often last)."""
    if len(text) <= keep:
        return text
    head = (keep - 3) * 3 // 5
    return text[:head] + "..." + text[len(text) - (keep - 3 - head) :]


def short_line(message: str, prefix: str = "") -> str:
    """``prefix + message`` as one line of at most :data:`MAX_LINE` characters: white
    space collapsed, long words (echoed values) and then the whole cut in the middle."""
    split = str(message).split()
    long = [w for w in split if len(w) > MAX_WORD]
    words = " ".join(_elide_against(w, long, MAX_WORD) for w in split)
    return prefix + _elide(words, MAX_LINE - len(prefix))


def _elide_against(text: str, others: list[str], keep: int) -> str:
    """:func:`_elide`, except that where ``text`` (a long echoed value, e.g. a spec) first
    differs from another long word of the message is kept in view: two specs that
    differ in the middle do not print as the same shortened text."""
    if len(text) <= keep:
        return text
    same = [len(os.path.commonprefix([text, o])) for o in others if o != text]
    head = (keep - 3) * 3 // 5
    at = max(same, default=0)
    if at < head or at >= len(text) - (keep - 3 - head):  # normal shortening shows it
        return _elide(text, keep)
    name = text[: text.find("(") + 1] if 0 <= text.find("(") < head // 2 else text[:8]
    return name + "..." + _elide(text[max(at - 12, len(name)) :], keep - len(name) - 3)


def one_line(
    message: str, kind: str = "error", command: str | None = None, tail: str | None = None
) -> None:
    """Print ``toypoker: error: MESSAGE`` on stderr as exactly one line (the message at
    most :data:`MAX_LINE` characters, see :func:`short_line`); ``command``, a command to
    run next, follows it whole (``; resume with: COMMAND``): a command cut in the middle
    cannot be pasted; so does ``tail`` (``; TAIL``: e.g. the names that are known)."""
    line = short_line(message, f"toypoker: {kind}: ")
    if tail:
        line += f"; {tail}"
    if command:
        line += f"; resume with: {command}"
    sys.stderr.write(line + "\n")


class ResumeHintError(ToypokerError):
    """A one-line error that ends with the command that goes on from it (a resume),
    printed whole by :func:`one_line` however long."""

    def __init__(self, message: str, command: str):
        super().__init__(f"{message}; resume with: {command}")
        self.message, self.command = message, command


# ------------------------------------------------------------ interrupts
def resume_hint(drop: Sequence[str] = (), add: Sequence[str] = ()) -> str:
    """The running command again, options in ``drop`` (with their value) removed and
    ``add`` appended: the exact command that resumes it, every other option kept."""
    drop_set = set(drop)
    args: list[str] = []
    skip = False
    for a in ARGV:
        if skip:
            skip = False
            continue
        name = a.split("=", 1)[0]
        if name in drop_set:
            skip = "=" not in a
            continue
        args.append(a)
    return shlex.join(["toypoker", *args, *add])


def interrupted(what: str, hint: str | None) -> typer.Exit:
    """Report an interrupt on stderr (with the resume command) and return exit 130."""
    global INTERRUPT_REPORTED
    INTERRUPT_REPORTED = True
    if NESTED:
        return typer.Exit(INTERRUPTED)
    msg = f"toypoker: interrupted: {what}"
    if hint:
        msg += f"; resume with: {hint}"
    sys.stderr.write(msg + "\n")
    return typer.Exit(INTERRUPTED)


def stopped_name(stopped: object) -> str:
    """``"interrupted"`` etc. for a string or an enum member."""
    return str(getattr(stopped, "value", stopped))


# -------------------------------------------------------------- progress
class Bar:
    """A rich progress bar on a terminal; otherwise a plain line on stderr every
    :data:`PLAIN_PROGRESS_EVERY` seconds (so piped and logged runs show life)."""

    def __init__(self, label: str, total: int | None = None, *, fields: Sequence[str] = ()):
        self.label, self.total, self.fields = label, total, tuple(fields)
        self.terminal = err.is_terminal
        self.values: dict[str, object] = {f: "-" for f in self.fields}
        self.completed = 0
        self.t0 = self.last = time.monotonic()
        self._progress: Progress | None = None
        self._task = None

    def __enter__(self) -> Bar:
        if self.terminal:
            cols = [TextColumn(self.label.replace("[", r"\[")), BarColumn(), MofNCompleteColumn()]
            cols += [TextColumn(f"{f} {{task.fields[{f}]}}") for f in self.fields]
            cols.append(TimeElapsedColumn())
            self._progress = Progress(*cols, console=err, transient=True)
            self._progress.__enter__()
            self._task = self._progress.add_task("", total=self.total, **self.values)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(None, None, None)

    def update(self, completed: int | None = None, advance: int = 0, **fields: object) -> None:
        self.completed = self.completed + advance if completed is None else completed
        self.values.update(fields)
        if self._progress is not None:
            self._progress.update(self._task, completed=self.completed, **self.values)
            return
        now = time.monotonic()
        if now - self.last >= _plain_every():
            self.last = now
            total = f"/{self.total}" if self.total else ""
            extra = "".join(f", {f} {self.values[f]}" for f in self.fields)
            sys.stderr.write(
                f"toypoker: {self.label}: {self.completed}{total}{extra}, {now - self.t0:.0f} s\n"
            )
            sys.stderr.flush()


class Stage:
    """Progress of one step that has no iterations to count (the LP's one solve): a
    spinner with the time elapsed on a terminal; otherwise a plain line on stderr every
    :data:`PLAIN_PROGRESS_EVERY` seconds while it runs (at least half a second apart),
    from a thread, as the step itself reports nothing until it is done."""

    def __init__(self, label: str):
        self.label = label
        self._progress: Progress | None = None
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Stage:
        if err.is_terminal:
            cols = [SpinnerColumn(), TextColumn(self.label.replace("[", r"\[")),
                    TimeElapsedColumn()]  # fmt: skip
            self._progress = Progress(*cols, console=err, transient=True)
            self._progress.__enter__()
            self._progress.add_task("", total=None)
        else:
            self._thread = threading.Thread(target=self._lines, daemon=True)
            self._thread.start()
        return self

    def _lines(self) -> None:
        t0 = time.monotonic()
        every = max(_plain_every(), 0.5)
        while not self._done.wait(every):
            sys.stderr.write(f"toypoker: {self.label}, {time.monotonic() - t0:.0f} s\n")
            sys.stderr.flush()

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        if self._progress is not None:
            self._progress.__exit__(None, None, None)
