"""The ``toypoker`` command line.

Errors caused by bad input print one line on stderr (``toypoker: error: ...``)
and exit with status 2; Ctrl-C exits with 130.  Every command takes ``--json``.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .errors import ToypokerError
from .evaluate import Evaluation, evaluate
from .game import Game
from .games import GAMES, load_game
from .profile import Profile
from .spec import format_value

app = typer.Typer(
    name="toypoker",
    help="Small poker games: compile, solve, evaluate and verify equilibria.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
SpecArg = Annotated[str, typer.Argument(help='Game spec, e.g. "kuhn(players=3)".')]


def _num(x: object) -> str:
    if isinstance(x, Fraction):
        return f"{x} ({float(x):.10g})" if x.denominator != 1 else str(x)
    return f"{float(x):.10g}"


def _jnum(x: object) -> object:
    if isinstance(x, Fraction):
        return {"exact": str(x), "float": float(x)}
    return float(x)


def _print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=1) + "\n")


# -------------------------------------------------------------------- games
@app.command()
def games(json_: JsonOpt = False) -> None:
    """List the built-in games and their parameters."""
    if json_:
        _print_json(
            [
                {
                    "name": g.name,
                    "doc": g.doc,
                    "source": g.source,
                    "params": [
                        {
                            "name": p.name,
                            "type": p.kind,
                            "default": None
                            if p.default is None
                            else format_value(p.default)
                            if not isinstance(p.default, int | bool)
                            else p.default,
                            "doc": p.doc,
                        }
                        for p in g.params
                    ],
                }
                for g in GAMES.values()
            ]
        )
        return
    for g in GAMES.values():
        t = Table(
            title=f"{g.name}: {g.doc}",
            title_justify="left",
            caption=g.source,
            caption_justify="left",
        )
        t.add_column("parameter")
        t.add_column("default")
        t.add_column("meaning")
        for p in g.params:
            t.add_row(p.name, "-" if p.default is None else format_value(p.default), p.doc)
        out.print(t)


# --------------------------------------------------------------------- info
@app.command()
def info(spec: SpecArg, json_: JsonOpt = False) -> None:
    """Sizes of a compiled game: players, deals, public nodes, infosets, terminals."""
    g = load_game(spec)
    s = g.summary()
    if json_:
        _print_json(s)
        return
    t = Table(title=g.spec, title_justify="left", show_header=False)
    for k, v in s.items():
        if k != "spec":
            t.add_row(k.replace("_", " "), str(v))
    out.print(t)


# -------------------------------------------------------------------- tables
def strategy_table(profile: Profile, limit: int = 120) -> Table:
    """Strategy by decision node (rows) and private cards (columns).

    Two-action nodes show the probability of the aggressive action (bet or
    call), as the papers tabulate them; larger nodes show all probabilities.
    """
    g = profile.game
    privates = sorted({i.private for i in g.infosets})
    t = Table(
        title="Strategy: P(bet) at check/bet nodes, P(call) facing a bet", title_justify="left"
    )
    t.add_column("player")
    t.add_column("history")
    t.add_column("actions")
    for pr in privates:
        t.add_column("-".join(map(str, pr)), justify="right")
    by_node: dict[int, dict[tuple[int, ...], object]] = {}
    for i in g.infosets:
        by_node.setdefault(i.node, {})[i.private] = i
    shown = 0
    for node_id, infos in by_node.items():
        if shown >= limit:
            t.caption = f"... {len(by_node) - shown} more nodes; save all with -o FILE"
            break
        node = g.nodes[node_id]
        cells = []
        for pr in privates:
            i = infos.get(pr)
            if i is None:
                cells.append("")
                continue
            probs = [profile.probs[i.offset + k] for k in range(len(i.actions))]
            fmt = (lambda x: str(x)) if profile.exact else (lambda x: f"{float(x):.3f}")
            cell = fmt(probs[-1]) if len(probs) == 2 else "/".join(fmt(x) for x in probs)
            cells.append(f"[dim]{cell}[/dim]" if i.restricted else cell)
        t.add_row(f"P{node.actor + 1}", node.history or "-", "/".join(node.actions), *cells)
        shown += 1
    return t


def values_table(ev: Evaluation) -> Table:
    t = Table(title="Expected values and best responses", title_justify="left")
    t.add_column("player")
    t.add_column("expected value", justify="right")
    t.add_column("best-response value", justify="right")
    t.add_column("gain", justify="right")
    for p, (v, b, gn) in enumerate(zip(ev.values, ev.br_values, ev.gains, strict=True)):
        t.add_row(f"P{p + 1}", _num(v), _num(b), _num(gn))
    t.caption = f"NashConv = {_num(ev.nash_conv)}"
    t.caption_justify = "left"
    return t


# -------------------------------------------------------------------- solve
@app.command()
def solve(
    spec: SpecArg,
    method: Annotated[str, typer.Option(help="cfr, cfr+, lcfr or dcfr.")] = "cfr+",
    iterations: Annotated[int, typer.Option(help="Maximum iterations.")] = 2000,
    target_nash_conv: Annotated[
        float | None, typer.Option(help="Stop once NashConv is at or below this.")
    ] = None,
    seconds: Annotated[float | None, typer.Option(help="Stop after this many seconds.")] = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the profile as JSON here.")
    ] = None,
    result: Annotated[
        Path | None, typer.Option(help="Write the whole result (trace, parameters) as JSON.")
    ] = None,
    csv: Annotated[Path | None, typer.Option(help="Write the profile as a CSV table.")] = None,
    table: Annotated[bool, typer.Option(help="Print the strategy table.")] = True,
    json_: JsonOpt = False,
) -> None:
    """Solve a game (CFR+ by default) and print the strategy, values and NashConv."""
    from .solvers import METHODS
    from .solvers import solve as run

    if method not in METHODS:
        raise ToypokerError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if iterations < 1:
        raise ToypokerError(f"--iterations must be at least 1, got {iterations}")
    g = load_game(spec)
    last = {"nc": None}
    with Progress(
        TextColumn(f"{method} {g.spec}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("NashConv {task.fields[nc]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=json_ and not err.is_terminal,
    ) as bar:
        task = bar.add_task("solve", total=iterations, nc="-")

        def progress(t: int, nc: float | None) -> None:
            if nc is not None:
                last["nc"] = nc
            bar.update(task, completed=t, nc=f"{last['nc']:.3g}" if last["nc"] is not None else "-")

        res = run(
            g,
            method=method,
            iterations=iterations,
            target_nash_conv=target_nash_conv,
            seconds=seconds,
            progress=progress,
        )
    if output:
        res.profile.to_json(output)
    if csv:
        res.profile.to_csv(csv)
    if result:
        res.save(result)
    if json_:
        _print_json(res.to_json_dict())
        return
    if table:
        out.print(strategy_table(res.profile))
    ev = evaluate(g, res.profile)
    out.print(values_table(ev))
    out.print(
        f"{res.method}: {res.iterations} iterations in {res.seconds:.2f} s "
        f"(stopped by {res.stopped}); NashConv {res.nash_conv:.3g}"
    )
    if output:
        out.print(f"profile written to {output}")


# --------------------------------------------------------------------- eval
@app.command("eval")
def eval_(
    spec: SpecArg,
    profile: Annotated[Path, typer.Argument(help="Profile JSON file.")],
    exact: Annotated[
        bool, typer.Option(help="Exact rationals: decimals read as written, e.g. 0.1 = 1/10.")
    ] = False,
    json_: JsonOpt = False,
) -> None:
    """Expected values, best-response gains and NashConv of a profile."""
    g = load_game(spec)
    prof = read_profile(g, profile, exact)
    ev = evaluate(g, prof)
    if json_:
        data = {"game": g.spec, **ev.to_dict()}
        _print_json(data)
        return
    out.print(values_table(ev))


def read_profile(g: Game, path: Path, exact: bool) -> Profile:
    """Load a profile file for game ``g``; ``exact`` reads decimals as rationals."""
    from .errors import ProfileError

    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise ProfileError(f"cannot read profile {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise ProfileError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}") from exc
    if exact and isinstance(data, dict):
        data = {**data, "exact": True}
    return Profile.from_json_dict(data, g)


# --------------------------------------------------------------------- main
def _one_line(message: str) -> None:
    """Print ``toypoker: error: MESSAGE`` on stderr as exactly one line."""
    text = " ".join(str(message).split())
    sys.stderr.write(f"toypoker: error: {text}\n")


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning bad input into one line and exit 2.

    Typer may ship its own copy of click, so click's exceptions are recognised
    by their protocol (``format_message`` and ``exit_code``), not their class.
    """
    command = typer.main.get_command(app)
    try:
        rv = command.main(args=argv, prog_name="toypoker", standalone_mode=False)
        return int(rv) if isinstance(rv, int) else 0
    except ToypokerError as exc:
        _one_line(str(exc))
        return 2
    except typer.Exit as exc:
        return int(getattr(exc, "exit_code", 0) or 0)
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("toypoker: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            if type(exc).__name__ == "NoArgsIsHelpError":
                sys.stdout.write(exc.format_message() + "\n")
                return 0
            _one_line(exc.format_message())
            return 2
        raise


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
