"""The ``toypoker`` command line (front-end floor: may import the whole library;
nothing in the library imports it).

Errors caused by bad input print one line on stderr (``toypoker: error: ...``)
and exit with status 2; Ctrl-C or SIGTERM stops the whole command, keeps what
was computed, prints the command that resumes it and exits with 130.  Every
command takes ``--json``.

Each command group lives in its own module and only parses, calls the library
and prints: :mod:`.games` (games, info), :mod:`.solve` (solve), :mod:`.compare` (compare),
:mod:`.evaluate` (eval, verify), :mod:`.literature`, :mod:`.equilibria`,
:mod:`.trace`, :mod:`.export`, :mod:`.acpc` (import-acpc), :mod:`.dynamics`,
:mod:`.detect`, :mod:`.collusion`, :mod:`.reproduce`, :mod:`.sweep`;
:mod:`.common` holds the options, printing, checks and progress they share,
:mod:`.tables` the tables several commands print and :mod:`.layouts` which layout
(rows or vectors) a command runs a game on, with its refusals.

A command's module is imported only when that command runs (:data:`COMMANDS`
lists them with their one-line help), so ``toypoker --help``, ``toypoker games``
and ``toypoker info`` start without the solvers' and studies' dependencies
(scipy.optimize, scipy.stats, sympy, matplotlib, dask).
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import os
import signal
import sys
import warnings
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from toypoker import interrupts, threads
from toypoker.cli import common
from toypoker.errors import ToypokerError, UnknownNameError

__all__ = ["COMMANDS", "app", "main", "run"]

#: every command, in the order ``--help`` lists them (command groups last, as typer
#: lists groups added with ``add_typer``): name -> (module of this
#: package, its command function or typer group ``app``, the first sentence of its
#: help; tests/cli/test_startup.py holds these equal to the modules' own)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "games": ("games", "games", "List the built-in games and their parameters."),
    "info": ("games", "info",
             "Sizes of a compiled game: players, deals, public nodes, infosets, terminals."),
    "solve": ("solve", "solve",
              "Solve a game (CFR+ by default) and print the strategy, values and NashConv."),
    "compare": ("compare", "compare", "Run several methods for the same time and plot NashConv "
                "against time (log-log)."),
    "eval": ("evaluate", "eval_", "Expected values, best-response gains and NashConv of a "
             "profile."),
    "verify": ("evaluate", "verify", "Exact certificate: expected values and every player's "
               "exact best-response gain (0 for an equilibrium), with the best responses where "
               "a gain is positive."),
    "equilibria": ("equilibria", "equilibria", "All equilibria of a small game with binary "
                   "choices, exactly (free parameters and their ranges included)."),
    "trace": ("trace", "trace", "Trace the curve of (regularized) equilibria in the pot or "
              "another parameter (Billingham, N cards): CSV, plots, range bars, animation, "
              "multiplicity."),
    "export": ("export", "export", "Write the game as a plain extensive form (Gambit .efg) or "
               "an ACPC gamedef."),
    "import-acpc": ("acpc", "import_acpc", "Read an ACPC gamedef (limit betting); print its "
                    "holdem(...) spec and sizes."),
    "detect": ("detect", "detect", "How many hands an observer (public actions, showdown "
               "cards) needs to tell collusion from honest play: Wald's sequential "
               "likelihood-ratio test, exact per-hand evidence, simulated stopping times and "
               "the hands for 95 % power."),
    "reproduce": ("reproduce", "reproduce", "Recompute every table and figure of the papers "
                  "into an offline report folder."),
    "sweep": ("sweep", "sweep", "Run a grid of jobs on dask.distributed and gather one table "
              "(CSV, Parquet)."),
    "literature": ("literature", "app", "The papers' closed-form claims, checked exactly."),
    "dynamics": ("dynamics", "app", "Learning dynamics: the adaptation ODE and repeated play."),
    "collusion": ("collusion", "app", "Collusion: Ullman's (2015) Table 7 scenarios for any "
                  "game (table7) and a team's TMECor bracket against one outsider (tmecor)."),
}  # fmt: skip


def load_command(name: str) -> Any:
    """The click command ``name`` of :data:`COMMANDS`, its module imported now; a
    typer group (``app``) stays a group, as ``add_typer`` registers it.  (Typer may
    ship its own copy of click, so the command's type is typer's.)"""
    module, attr, _ = COMMANDS[name]
    target = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
    holder = common.new_app("")  # plain click help, as the top-level app
    holder.callback()(_no_options)  # a callback keeps the holder a group
    if isinstance(target, typer.Typer):
        holder.add_typer(target, name=name)
    else:
        holder.command(name)(target)
    group = typer.main.get_command(holder)
    assert isinstance(group, TyperGroup)
    command = group.commands[name]
    common.add_hidden_aliases(command)
    _add_threads_option(command)
    return command


def _add_threads_option(command: Any) -> None:
    """Let ``command`` (and a group's subcommands) take ``--threads N`` after its name as
    well as before it (``toypoker solve SPEC --threads 2``, as the docs write it): a copy
    of the top-level option that configures the threads when parsed."""
    for sub in getattr(command, "commands", {}).values():
        _add_threads_option(sub)
    if not hasattr(command, "params") or any("--threads" in p.opts for p in command.params):
        return
    top = next(p for p in typer.main.get_command(app).params if "--threads" in p.opts)
    option = copy.copy(top)
    option.expose_value = False
    option.callback = _threads_given
    command.params.append(option)


def _threads_given(_ctx: object, _param: object, value: int | None) -> int | None:
    """The command's own ``--threads``: as the top-level one, when given."""
    if value is not None:
        threads.configure(value)
    return value


def _no_options() -> None:
    """(The holder of one lazily loaded command.)"""


class LazyGroup(TyperGroup):
    """The top-level group: lists :data:`COMMANDS` from the table and imports a
    command's module only when the command is resolved."""

    def list_commands(self, ctx: typer.Context) -> list[str]:
        """Every command, in :data:`COMMANDS` order."""
        return list(COMMANDS)

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:
        """The command, loaded on first use (``None`` for an unknown name)."""
        if cmd_name not in COMMANDS:
            return None
        if cmd_name not in self.commands:
            self.commands[cmd_name] = load_command(cmd_name)
        return self.commands[cmd_name]

    def format_commands(self, ctx: typer.Context, formatter: Any) -> None:
        """The command list of ``--help`` from the table (no command module imported),
        each line shortened as click shortens a command's own help."""
        limit = formatter.width - 6 - max(len(n) for n in COMMANDS)
        rows = [
            (name, TyperCommand(name, help=text).get_short_help_str(limit))
            for name, (_, _, text) in COMMANDS.items()
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


app = common.new_app(
    "Small poker games: compile, solve, evaluate and verify equilibria.",
    name="toypoker",
    no_args_is_help=True,
    cls=LazyGroup,
)


def _version(value: bool) -> None:
    if value:
        from toypoker import __version__

        sys.stdout.write(f"toypoker {__version__}\n")
        raise typer.Exit()


@app.callback()
def _options(
    _show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            "-V",
            help="Print the version and exit.",
            callback=_version,
            is_eager=True,
        ),
    ] = False,
    threads_: Annotated[
        int | None,
        typer.Option(
            "--threads",
            help="Threads for numba (the vector layout's public subtrees) and dense linear "
            "algebra (BLAS/OpenMP) (default: numba all CPUs, BLAS 1 thread inside the "
            "library's small solves); results do not depend on it.",
        ),
    ] = None,
) -> None:
    """Small poker games: compile, solve, evaluate and verify equilibria."""
    threads.configure(threads_)


def _said(code: int) -> int:
    """``code``, after saying ``toypoker: interrupted`` for an exit 130 nobody reported
    (click turns a KeyboardInterrupt into a silent exit 130)."""
    if code == common.INTERRUPTED and not common.INTERRUPT_REPORTED:
        sys.stderr.write("toypoker: interrupted\n")
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``) and return the exit
    status: 0 done, 1 a negative answer (not an equilibrium, an incomplete curve),
    2 bad input (one line on stderr), 130 interrupted.

    Typer may ship its own copy of click, so click's exceptions are recognised
    by their protocol (``format_message`` and ``exit_code``), not their class.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    common.ARGV[:] = args
    common.INTERRUPT_REPORTED = False
    command = typer.main.get_command(app)
    interrupts.forget_interrupts()
    previous: dict[int, object] = {}
    try:
        # SIGTERM and SIGHUP do what Ctrl-C does (stop, save, print how to resume); all are
        # remembered in case CPython drops the KeyboardInterrupt (interrupts.py)
        for s in interrupts.STOP_SIGNALS:
            previous[s] = signal.signal(s, interrupts.interrupt_now)
    except ValueError:  # not the main thread: leave the signals alone
        pass
    # the process-wide hook only where the handlers are ours (the main thread); over the
    # whole command: what an interrupt leaves half-built may be collected after it
    quiet = interrupts.quiet_dropped_interrupts() if previous else contextlib.nullcontext()
    if previous:  # a signal a run takes between steps is acknowledged at once
        interrupts.acknowledge_with(_acknowledge)
    try:
        with quiet, warnings.catch_warnings():
            warnings.showwarning = _warning_line  # one line, not a source path and line
            try:
                return _flushed(_command(command, args))
            finally:
                common.release_held()  # the locks the command took before its work
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
        interrupts.acknowledge_with(None)
        interrupts.forget_interrupts()  # the Python API after this command starts clean


def _warning_line(message: Warning | str, category: type[Warning], *_: object) -> None:
    """A warning raised during a command, as one line on stderr: ``toypoker: warning:
    TEXT`` (Python's own shows the source file, line and code that raised it)."""
    text = str(message).strip().splitlines()
    sys.stderr.write(f"toypoker: warning: {text[0] if text else category.__name__}\n")


def _acknowledge(text: str) -> None:
    """``toypoker: TEXT`` on stderr at once, from a signal handler (no buffer waits; the
    descriptor itself if the handler landed inside a write to stderr)."""
    line = f"toypoker: {text}\n"
    try:
        sys.stderr.write(line)
        sys.stderr.flush()
    except RuntimeError:  # "reentrant call": the signal came while stderr was written
        os.write(2, line.encode())


def _flushed(code: int) -> int:
    """``code``, once what the command printed has left Python's buffer: a reader that
    has gone by then (``toypoker solve --json | head -1``) ends it with 0, quietly, not
    with Python's "Exception ignored ... BrokenPipeError" and status 120 at exit."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        common.reader_gone()
        return 0
    except (OSError, ValueError):  # closed or odd stdout: nothing more to say on it
        pass
    return code


def _command(command: Any, args: list[str]) -> int:
    """Run the click ``command`` on ``args``: its exit status, errors as one line."""
    try:
        # obj: this entry point, for a command that runs other commands (reproduce)
        rv = command.main(args=args, prog_name="toypoker", standalone_mode=False, obj=main)
        return _said(int(rv) if isinstance(rv, int) else 0)
    except common.ResumeHintError as exc:  # the command that goes on, printed whole
        common.one_line(exc.message, command=exc.command)
        return 2
    except UnknownNameError as exc:  # the known names, printed whole
        common.one_line(exc.message, tail=f"known: {', '.join(exc.known)}")
        return 2
    except ToypokerError as exc:
        common.one_line(str(exc))
        return 2
    except typer.Exit as exc:
        return _said(int(getattr(exc, "exit_code", 0) or 0))
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("toypoker: interrupted\n")
        return common.INTERRUPTED
    except BrokenPipeError:  # the reader of our output has gone: done, quietly
        common.reader_gone()
        return 0
    except SystemExit as exc:  # click's own answer to a closed pipe is sys.exit(1)
        if not isinstance(exc.__context__, BrokenPipeError):
            raise
        common.reader_gone()
        return 0
    except MemoryError:  # an allocation beyond the machine (numpy's ArrayMemoryError too)
        common.one_line(
            "out of memory: this run needs more than the machine has (`toypoker info SPEC` "
            "counts a game before building it; a holdem or rhode_island spec can take "
            "--layout vector)"
        )
        return 2
    except OSError as exc:  # a file vanished or a disk filled after the checks
        name = f" {exc.filename}" if exc.filename else ""
        common.one_line(f"cannot write or read{name}: {exc.strerror or exc}")
        return 2
    except Exception as exc:
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            if type(exc).__name__ == "NoArgsIsHelpError":
                sys.stdout.write(exc.format_message() + "\n")
                return 0
            common.one_line(exc.format_message())
            return 2
        if interrupts.caused_by_interrupt(exc) or interrupts.interrupt_seen():
            # the interrupt landed inside native code (numba compiling a kernel) and came
            # out as its error ("no compiled object yet"): the user stopped the command
            sys.stderr.write("toypoker: interrupted\n")
            return common.INTERRUPTED
        raise


def run() -> None:
    """Console-script entry point (``toypoker = "toypoker.cli:run"``)."""
    code = main()
    if code == common.INTERRUPTED:  # what the interrupt left half-built dies with the process
        interrupts.quiet_at_exit()
        # the command has said what it kept and how to resume: a signal that comes while
        # the process ends (a second Ctrl-C a moment late) is not a new one to die of
        for s in interrupts.STOP_SIGNALS:
            signal.signal(s, signal.SIG_IGN)
        # nor is the interpreter's teardown a step to crash in: an interrupt may have
        # left native code mid-way (an abandoned HiGHS solve, numba's compiler)
        interrupts.end_process(code)
    # Under ``python -m toypoker`` CPython ends the process by SIGINT (status -2, not
    # ours) when any string ``exec`` during the run -- generated code of dataclasses,
    # numba -- ended in a KeyboardInterrupt, even one caught and reported since
    # (``Py_RunMain`` checks a flag ``run_eval_code_obj`` set).  A string exec resets it.
    exec("")  # noqa: S102 -- a constant, no input
    sys.exit(code)
