"""The ``toypoker`` command line.

Errors caused by bad input print one line on stderr (``toypoker: error: ...``)
and exit with status 2; Ctrl-C or SIGTERM stops the whole command, keeps what
was computed, prints the command that resumes it and exits with 130.  Every
command takes ``--json``.

Each command group lives in its own module and only parses, calls the library
and prints: :mod:`.games` (games, info), :mod:`.solve` (solve, compare),
:mod:`.evaluate` (eval, verify), :mod:`.literature`, :mod:`.equilibria`,
:mod:`.trace`, :mod:`.export`, :mod:`.dynamics`; :mod:`.common` holds the
options, printing, checks and progress they share.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from .. import threads
from ..errors import ToypokerError
from . import (
    acpc,
    collusion,
    common,
    detect,
    dynamics,
    equilibria,
    evaluate,
    export,
    games,
    literature,
    reproduce,
    solve,
    sweep,
    trace,
)

__all__ = ["app", "main", "run"]

app = common.new_app(
    "Small poker games: compile, solve, evaluate and verify equilibria.",
    name="toypoker",
    no_args_is_help=True,
)


def _version(value: bool) -> None:
    if value:
        from .. import __version__

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
            help="Threads for dense linear algebra (BLAS/OpenMP) and numba "
            "(default: BLAS 1 thread inside the library's small solves, numba all CPUs).",
        ),
    ] = None,
) -> None:
    """Small poker games: compile, solve, evaluate and verify equilibria."""
    threads.configure(threads_)


app.command("games")(games.games)
app.command("info")(games.info)
app.command("solve")(solve.solve)
app.command("compare")(solve.compare)
app.command("eval")(evaluate.eval_)
app.command("verify")(evaluate.verify)
app.add_typer(literature.app, name="literature")
app.command("equilibria")(equilibria.equilibria)
app.command("trace")(trace.trace)
app.command("export")(export.export)
app.command("import-acpc")(acpc.import_acpc)
app.add_typer(dynamics.app, name="dynamics")
app.command("detect")(detect.detect)
app.add_typer(collusion.app, name="collusion")
app.command("reproduce")(reproduce.reproduce)
app.command("sweep")(sweep.sweep)


def _terminate(_signum: int, _frame: object) -> None:
    """SIGTERM does what Ctrl-C does: stop, save, print how to resume."""
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``) and return the exit
    status: 0 done, 1 a negative answer (not an equilibrium, an incomplete curve),
    2 bad input (one line on stderr), 130 interrupted.

    Typer may ship its own copy of click, so click's exceptions are recognised
    by their protocol (``format_message`` and ``exit_code``), not their class.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    common.ARGV[:] = args
    command = typer.main.get_command(app)
    installed, previous = False, None
    try:
        previous = signal.signal(signal.SIGTERM, _terminate)
        installed = True
    except ValueError:  # not the main thread: leave SIGTERM alone
        pass
    try:
        rv = command.main(args=args, prog_name="toypoker", standalone_mode=False)
        return int(rv) if isinstance(rv, int) else 0
    except ToypokerError as exc:
        common.one_line(str(exc))
        return 2
    except typer.Exit as exc:
        return int(getattr(exc, "exit_code", 0) or 0)
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("toypoker: interrupted\n")
        return common.INTERRUPTED
    except BrokenPipeError:
        return 0
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
        raise
    finally:
        if installed:
            signal.signal(signal.SIGTERM, previous)


def run() -> None:
    """Console-script entry point (``toypoker = "toypoker.cli:run"``)."""
    sys.exit(main())
