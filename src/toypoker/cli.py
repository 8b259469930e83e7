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


def _emit(data: object, path: Path | None, json_: bool) -> bool:
    """Write ``data`` as JSON to ``path`` (atomically) if given; print it if ``--json``.
    Returns True when the JSON was printed (the command is done)."""
    from .io import atomic_write_text

    if path:
        atomic_write_text(path, json.dumps(data, indent=1) + "\n")
    if json_:
        _print_json(data)
    return json_


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
def _progress_bar(label: str, total: int | None, quiet: bool) -> Progress:
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("NashConv {task.fields[nc]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    )


def _run_with_bar(g: Game, method: str, quiet: bool, **kw: object):
    from .solvers import solve as run

    total = kw.get("iterations")
    last: dict[str, float | None] = {"nc": None}
    with _progress_bar(f"{method} {g.spec}", total, quiet) as bar:
        task = bar.add_task("solve", total=total, nc="-")

        def progress(t: int, nc: float | None) -> None:
            if nc is not None:
                last["nc"] = nc
            bar.update(task, completed=t, nc=f"{last['nc']:.3g}" if last["nc"] is not None else "-")

        return run(g, method=method, progress=progress, **kw)


def _count_bar(label: str) -> Progress:
    """A progress bar counting finished units (seeds, runs) on stderr, terminals only."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )


def _check_method(method: str) -> None:
    from .solvers import METHODS

    if method not in METHODS:
        raise ToypokerError(f"unknown method {method!r}; known: {', '.join(METHODS)}")


@app.command()
def solve(
    spec: SpecArg,
    method: Annotated[
        str, typer.Option(help="cfr, cfr+, lcfr, dcfr, fp, es-mccfr, os-mccfr or lp.")
    ] = "cfr+",
    iterations: Annotated[int, typer.Option(help="Maximum iterations.")] = 2000,
    target_nash_conv: Annotated[
        float | None, typer.Option(help="Stop once NashConv is at or below this.")
    ] = None,
    seconds: Annotated[float | None, typer.Option(help="Stop after this many seconds.")] = None,
    target_max_gain: Annotated[
        float | None,
        typer.Option(help="Stop once every best-response gain is at or below this (eps)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of sampling methods.")] = None,
    seeds: Annotated[
        int, typer.Option(help="Run this many seeds (0..N-1) and summarise their spread.")
    ] = 1,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the profile as JSON here.")
    ] = None,
    result: Annotated[
        Path | None, typer.Option(help="Write the whole result (trace, parameters) as JSON.")
    ] = None,
    csv: Annotated[Path | None, typer.Option(help="Write the profile as a CSV table.")] = None,
    checkpoint: Annotated[
        Path | None, typer.Option(help="Checkpoint file (.npz), written atomically.")
    ] = None,
    checkpoint_seconds: Annotated[float, typer.Option(help="Seconds between checkpoints.")] = 60.0,
    resume: Annotated[Path | None, typer.Option(help="Continue from a checkpoint.")] = None,
    table: Annotated[bool, typer.Option(help="Print the strategy table.")] = True,
    json_: JsonOpt = False,
) -> None:
    """Solve a game (CFR+ by default) and print the strategy, values and NashConv."""
    _check_method(method)
    if iterations < 1:
        raise ToypokerError(f"--iterations must be at least 1, got {iterations}")
    if seeds < 1:
        raise ToypokerError(f"--seeds must be at least 1, got {seeds}")
    g = load_game(spec)
    if seeds > 1:
        _solve_seeds(g, method, iterations, target_nash_conv, seconds, seeds, result, json_)
        return
    quiet = json_ and not err.is_terminal
    res = _run_with_bar(
        g,
        method,
        quiet,
        iterations=iterations,
        target_nash_conv=target_nash_conv,
        target_max_gain=target_max_gain,
        seconds=seconds,
        seed=seed,
        checkpoint=checkpoint,
        checkpoint_seconds=checkpoint_seconds,
        resume=resume,
    )
    if output:
        res.profile.to_json(output)
    if csv:
        res.profile.to_csv(csv)
    if result:
        res.save(result)
    if json_:
        _print_json(res.to_json_dict())
    else:
        if table:
            out.print(strategy_table(res.profile))
        out.print(values_table(evaluate(g, res.profile)))
        extra = ""
        if res.method == "lp":
            extra = (
                f"; exact value {res.extra['value_exact']}"
                if res.extra["certified"]
                else f"; value in [{res.extra['value_bounds'][0]}, {res.extra['value_bounds'][1]}]"
            )
        seed_txt = f", seed {res.seed}" if res.seed is not None else ""
        out.print(
            f"{res.method}: {res.iterations} iterations in {res.seconds:.2f} s "
            f"(stopped by {res.stopped}{seed_txt}); NashConv {res.nash_conv:.3g}{extra}"
        )
        if output:
            out.print(f"profile written to {output}")
        if checkpoint:
            out.print(f"checkpoint written to {checkpoint}")
    if res.stopped == "interrupted":
        raise typer.Exit(130)


def _solve_seeds(
    g: Game,
    method: str,
    iterations: int,
    target: float | None,
    seconds: float | None,
    seeds: int,
    result: Path | None,
    json_: bool,
) -> None:
    """Run ``seeds`` seeds and summarise the spread of the solutions found
    (the experiment that led Szafron et al. to their family)."""
    import numpy as np

    from .solvers import solve as run

    runs = []
    with _count_bar(f"{method} {g.spec}: seeds") as bar:
        task = bar.add_task("seeds", total=seeds)
        for s in range(seeds):
            runs.append(
                run(
                    g,
                    method=method,
                    iterations=iterations,
                    target_nash_conv=target,
                    seconds=seconds,
                    seed=s,
                )
            )
            bar.update(task, completed=s + 1)
    values = np.array([r.values for r in runs])
    probs = np.array([r.profile.probs for r in runs])
    nash = np.array([r.nash_conv for r in runs])
    spread = []
    for info in g.infosets:
        if info.restricted:
            continue
        col = probs[:, info.offset + len(info.actions) - 1]
        spread.append((float(col.max() - col.min()), info, col))
    spread.sort(key=lambda x: -x[0])
    varying = [x for x in spread if x[0] > 0.02]
    summary = {
        "game": g.spec,
        "method": method,
        "seeds": seeds,
        "iterations": iterations,
        "nash_conv": {"max": float(nash.max()), "mean": float(nash.mean())},
        "values": [
            {
                "player": p + 1,
                "mean": float(values[:, p].mean()),
                "std": float(values[:, p].std()),
                "min": float(values[:, p].min()),
                "max": float(values[:, p].max()),
            }
            for p in range(g.n_players)
        ],
        "varying_infosets": [
            {
                "infoset": i.label,
                "action": i.actions[-1],
                "min": float(c.min()),
                "max": float(c.max()),
                "mean": float(c.mean()),
            }
            for _, i, c in varying
        ],
        "runs": [
            {"seed": r.seed, "values": list(r.values), "nash_conv": r.nash_conv} for r in runs
        ],
    }
    if _emit(summary, result, json_):
        return
    t = Table(title=f"{seeds} seeds of {method} on {g.spec}: expected values", title_justify="left")
    for c in ["player", "mean", "std", "min", "max"]:
        t.add_column(c, justify="right")
    for v in summary["values"]:
        t.add_row(f"P{v['player']}", *(f"{v[k]:.5f}" for k in ("mean", "std", "min", "max")))
    t.caption = f"NashConv: max {nash.max():.3g}, mean {nash.mean():.3g}"
    t.caption_justify = "left"
    out.print(t)
    v = Table(
        title="Infosets whose strategy varies across seeds (P of the last action)",
        title_justify="left",
    )
    for c in ["infoset", "action", "min", "max", "mean"]:
        v.add_column(c, justify="right")
    for item in summary["varying_infosets"]:
        v.add_row(
            item["infoset"], item["action"], *(f"{item[k]:.3f}" for k in ("min", "max", "mean"))
        )
    out.print(v)


# ------------------------------------------------------------------ compare
@app.command()
def compare(
    spec: SpecArg,
    methods: Annotated[
        str, typer.Option(help="Comma-separated methods.")
    ] = "cfr,cfr+,dcfr,lcfr,fp,es-mccfr,os-mccfr",
    seconds: Annotated[float, typer.Option(help="Time budget of each method.")] = 8.0,
    seed: Annotated[int, typer.Option(help="Seed of the sampling methods.")] = 0,
    plot: Annotated[
        Path | None, typer.Option(help="Plot file (PNG); default compare-<game>.png")
    ] = None,
    result: Annotated[Path | None, typer.Option(help="Write all traces as JSON.")] = None,
    json_: JsonOpt = False,
) -> None:
    """Run several methods for the same time and plot NashConv against time (log-log)."""
    from .plots import plot_convergence

    names = [m.strip() for m in methods.split(",") if m.strip()]
    for m in names:
        _check_method(m)
    if seconds <= 0:
        raise ToypokerError(f"--seconds must be positive, got {seconds}")
    g = load_game(spec)
    results = []
    quiet = json_ and not err.is_terminal
    for m in names:
        if m == "lp" and g.n_players != 2:
            err.print(f"skipping lp: {g.spec} is not a two-player game")
            continue
        results.append(_run_with_bar(g, m, quiet, iterations=None, seconds=seconds, seed=seed))
    plot = plot or Path(f"compare-{g.name}-{g.n_players}p.png")
    plot_convergence(results, plot, title=f"{g.spec}: NashConv against time")
    rows = []
    for r in results:
        reach = next((p.seconds for p in r.trace if p.nash_conv <= 1e-3), None)
        rows.append(
            {
                "method": r.method,
                "iterations": r.iterations,
                "seconds": r.seconds,
                "nash_conv": r.nash_conv,
                "seconds_to_1e-3": reach,
                "trace": [[p.iteration, p.seconds, p.nash_conv] for p in r.trace],
            }
        )
    data = {"game": g.spec, "seconds": seconds, "seed": seed, "plot": str(plot), "methods": rows}
    if _emit(data, result, json_):
        return
    t = Table(title=f"{g.spec}: {seconds:g} s per method", title_justify="left")
    for c in ["method", "iterations", "s/iteration", "final NashConv", "time to 1e-3"]:
        t.add_column(c, justify="right")
    for r in rows:
        t.add_row(
            r["method"],
            str(r["iterations"]),
            f"{r['seconds'] / max(r['iterations'], 1):.3g}",
            f"{r['nash_conv']:.3g}",
            "-" if r["seconds_to_1e-3"] is None else f"{r['seconds_to_1e-3']:.2f} s",
        )
    out.print(t)
    out.print(f"plot written to {plot}")


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


# ------------------------------------------------------------------- verify
@app.command()
def verify(
    spec: SpecArg,
    profile: Annotated[Path, typer.Argument(help="Profile JSON file.")],
    json_: JsonOpt = False,
) -> None:
    """Exact certificate: expected values and every player's exact best-response gain
    (0 for an equilibrium), with the best responses where a gain is positive."""
    g = load_game(spec)
    prof = read_profile(g, profile, exact=True)
    ev = evaluate(g, prof)
    deviations = {}
    for p, br in enumerate(ev.best_responses):
        if ev.gains[p] > 0:
            q = br.as_profile(prof)
            deviations[f"P{p + 1}"] = {
                i.label: {a: str(q.probs[i.offset + k]) for k, a in enumerate(i.actions)}
                for i in g.infosets_of(p)
                if not i.restricted
                and any(
                    q.probs[i.offset + k] != prof.probs[i.offset + k] for k in range(len(i.actions))
                )
            }
    equilibrium = all(x == 0 for x in ev.gains)
    if json_:
        _print_json(
            {
                "game": g.spec,
                "equilibrium": equilibrium,
                **ev.to_dict(),
                "best_response_deviations": deviations,
            }
        )
        if not equilibrium:
            raise typer.Exit(1)
        return
    out.print(values_table(ev))
    if equilibrium:
        out.print("[bold green]certified: an exact Nash equilibrium (every gain is 0)[/]")
    else:
        out.print("[bold red]not an equilibrium[/]: best responses that gain")
        for player, dev in deviations.items():
            t = Table(
                title=f"{player}'s best response (infosets where it differs)", title_justify="left"
            )
            t.add_column("infoset")
            t.add_column("probabilities")
            for label, row in dev.items():
                t.add_row(label, ", ".join(f"{a}={x}" for a, x in row.items()))
            out.print(t)
    if not equilibrium:
        raise typer.Exit(1)


# --------------------------------------------------------------- literature
literature_app = typer.Typer(
    help="The papers' closed-form claims, checked exactly.",
    invoke_without_command=True,
    no_args_is_help=False,
)
app.add_typer(literature_app, name="literature")


@literature_app.callback()
def literature(ctx: typer.Context, json_: JsonOpt = False) -> None:
    """List the catalogued claims (``toypoker literature check`` runs them)."""
    if ctx.invoked_subcommand is not None:
        return
    from .literature.claims import CLAIMS

    if json_:
        _print_json(
            [{"id": c.id, "source": c.source, "statement": c.statement} for c in CLAIMS.values()]
        )
        return
    t = Table(title="Catalogued claims", title_justify="left")
    for col in ["id", "source", "statement"]:
        t.add_column(col)
    for c in CLAIMS.values():
        t.add_row(c.id, c.source, c.statement)
    out.print(t)


@literature_app.command("check")
def literature_check(
    claim: Annotated[
        list[str] | None, typer.Option(help="Only these claim ids (repeatable).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the random family members.")] = 0,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the rows as JSON.")
    ] = None,
    json_: JsonOpt = False,
) -> None:
    """Instantiate every claim over its parameters, certify exactly, print the table."""
    from .literature.claims import CLAIMS, check

    for c in claim or []:
        if c not in CLAIMS:
            raise ToypokerError(f"unknown claim {c!r}; known: {', '.join(CLAIMS)}")
    with _count_bar("{task.description}") as bar:
        task = bar.add_task("claims", total=len(claim or CLAIMS))
        rows = check(
            claim, seed=seed, progress=lambda cid: bar.update(task, advance=1, description=cid)
        )
    data = [r.to_dict() for r in rows]
    if _emit(data, output, json_):
        return
    t = Table(title="The literature, checked exactly", title_justify="left", show_lines=False)
    for col in ["claim", "source", "parameters", "status", "exact"]:
        t.add_column(col, overflow="fold")
    for r in rows:
        style = "green" if r.status == "verified" else "bold red"
        t.add_row(r.claim, r.source, r.params, f"[{style}]{r.status}[/]", r.detail)
    out.print(t)
    n_bad = sum(r.status != "verified" for r in rows)
    out.print(
        f"{len(rows)} checks: {len(rows) - n_bad} verified, {n_bad} disagree with the "
        "printed text (the exact value is beside each)"
    )


# --------------------------------------------------------------- equilibria
MAX_ENUMERATED = 9  # free binary choices (3^9 = 19683 combinations before pruning)


@app.command()
def equilibria(
    spec: SpecArg,
    symbolic_pot: Annotated[
        bool, typer.Option(help="Treat the pot P as a symbol (say for which P).")
    ] = False,
    pot_min: Annotated[
        str, typer.Option(help="With --symbolic-pot: P ranges over (pot_min, oo).")
    ] = "0",
    at_p_star: Annotated[
        bool, typer.Option(help="Solve at P* = (5 + sqrt 73)/2 exactly (Billingham's point).")
    ] = False,
    json_: JsonOpt = False,
) -> None:
    """All equilibria of a small game with binary choices, exactly (free parameters
    and their ranges included)."""
    import sympy as sp

    from .solvers.enumerate import game_equilibria
    from .spec import parse_spec, parse_value

    g = load_game(spec)
    parsed = parse_spec(g.spec)
    params = dict(parsed.params)
    if (symbolic_pot or at_p_star) and "pot" not in params:
        raise ToypokerError(f"{g.name} has no pot parameter")

    lo = parse_value(pot_min)
    if isinstance(lo, bool) or not hasattr(lo, "denominator"):
        raise ToypokerError(f"--pot-min must be a number, not {pot_min!r}")
    n_free = sum(not i.restricted for i in g.infosets)
    if n_free > MAX_ENUMERATED:
        raise ToypokerError(
            f"{n_free} free choices: too many to enumerate (3^k); at most {MAX_ENUMERATED}"
        )
    if symbolic_pot:
        pot = "symbolic"
    elif at_p_star:
        pot = (5 + sp.sqrt(73)) / 2
    else:  # the game as given: its own pot, if any
        pot = params.get("pot", Fraction(1))

    def make(p):
        return load_game(format_spec_with(parsed.name, params, p)) if "pot" in params else g

    pieces, vs = game_equilibria(
        make, pot=pot, P_domain=sp.Interval.open(sp.Rational(lo.numerator, lo.denominator), sp.oo)
    )
    names = {v: v.name.replace("_", ":", 2) for v in vs}
    rows = []
    for pc in pieces:
        text = pc.describe()
        for v, lbl in names.items():
            text = text.replace(v.name, lbl)
        rows.append(
            {
                "status": list(pc.status),
                "description": text,
                "values": {names[k]: str(v) for k, v in pc.values.items()},
                "free": [names[f] for f in pc.free],
                "region": None if pc.region is None else str(pc.region),
            }
        )
    title = g.spec if not symbolic_pot else f"{g.name} with symbolic pot P > {lo}"
    if at_p_star:
        title = f"{g.name} at P* = (5 + sqrt(73))/2"
    if json_:
        _print_json({"game": title, "equilibria": rows})
        return
    t = Table(title=f"All equilibria of {title}: {len(rows)} piece(s)", title_justify="left")
    t.add_column("#", justify="right")
    t.add_column(
        "equilibrium (aggressive-action probabilities; free parameters and ranges)", overflow="fold"
    )
    for k, r in enumerate(rows, 1):
        t.add_row(str(k), r["description"])
    out.print(t)


def format_spec_with(name: str, params: dict, pot) -> str:
    from .spec import format_spec

    return format_spec(name, {**params, "pot": pot})


# -------------------------------------------------------------------- trace
def _window(text: str, name: str) -> tuple[float, float]:
    try:
        a, b = (float(v) for v in text.split(":"))
    except ValueError:
        raise ToypokerError(f"{name} must be LO:HI, e.g. 0.5:20, not {text!r}") from None
    if not a < b:
        raise ToypokerError(f"{name} needs LO < HI, got {text!r}")
    return a, b


@app.command()
def trace(
    spec: SpecArg,
    pot: Annotated[
        str | None, typer.Option(help="Trace in the pot over LO:HI, e.g. 0.5:20.")
    ] = None,
    param: Annotated[
        str | None, typer.Option(help="Another numeric game parameter to trace in (ante, bet).")
    ] = None,
    window: Annotated[str | None, typer.Option("--range", help="LO:HI for --param.")] = None,
    eps: Annotated[float, typer.Option(help="Regularization eps (units of dE/dx).")] = 1e-6,
    start: Annotated[
        float | None, typer.Option(help="Parameter value of the first point (default LO).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Random start for the first solve (default: all 1/2).")
    ] = None,
    response: Annotated[str, typer.Option(help="arctan, algebraic or logistic.")] = "arctan",
    keep_dominated: Annotated[
        bool, typer.Option(help="Do not fix Kuhn's dominated choices.")
    ] = False,
    ds_max: Annotated[float, typer.Option(help="Largest arclength step.")] = 0.25,
    at: Annotated[
        str | None, typer.Option(help="Parameter values to list certified equilibria at (a,b,..).")
    ] = None,
    log: Annotated[bool, typer.Option(help="Log scale for the parameter axis.")] = False,
    gif: Annotated[bool, typer.Option(help="Write the animation along the curve.")] = True,
    outdir: Annotated[Path, typer.Option(help="Folder for CSV and figures.")] = Path("trace"),
    checkpoint_every: Annotated[
        float, typer.Option(help="Seconds between saves of the curve so far.")
    ] = 30.0,
    resume: Annotated[
        Path | None, typer.Option(help="Continue an interrupted curve (its curve.csv).")
    ] = None,
    json_: JsonOpt = False,
) -> None:
    """Trace the curve of (regularized) equilibria in the pot or another parameter
    (Billingham, N cards): CSV, plots, range bars, animation, multiplicity."""
    import numpy as np
    from rich.progress import SpinnerColumn

    from .continuation import figures
    from .continuation.curves import (
        EquilibriumCurve,
        equilibria_at,
        multiplicity,
        resume_curve,
        system_for,
        trace_curve,
    )

    previous = EquilibriumCurve.load(resume) if resume is not None else None
    g = load_game(spec)
    if previous is not None:
        if previous.spec != g.spec:
            raise ToypokerError(f"{resume} traces {previous.spec}, not {g.spec}")
        parameter, (lo, hi) = previous.parameter, previous.info["window"]
        eps, keep_dominated = previous.eps, not previous.info.get("dominated", True)
    else:
        if (pot is None) == (param is None):
            raise ToypokerError("give --pot LO:HI, or --param NAME with --range LO:HI")
        if param is not None and window is None:
            raise ToypokerError("--param needs --range LO:HI")
        parameter = "pot" if pot is not None else param
        lo, hi = _window(
            pot if pot is not None else window, "--pot" if pot is not None else "--range"
        )
    at_values = _floats(at, None, "--at") if at else []
    for v in at_values:
        if not lo <= v <= hi:
            raise ToypokerError(f"--at value {v} is outside [{lo}, {hi}]")
    outdir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed) if seed is not None else None
    ckpt = outdir / "curve.csv"
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TextColumn("{task.fields[where]}"),
        TextColumn("step {task.fields[ds]}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task(f"trace {g.spec}", where="", ds="")

        def progress(stage: str, lam: float, ds: float) -> None:
            bar.update(task, where=f"{stage} = {lam:.6g}", ds=f"{ds:.2e}")

        if previous is not None:
            curve = resume_curve(
                previous,
                ds_max=ds_max,
                progress=progress,
                checkpoint=ckpt,
                checkpoint_every=checkpoint_every,
            )
        else:
            curve = trace_curve(
                g.spec,
                lo,
                hi,
                parameter=parameter,
                eps=eps,
                start=start,
                response=response,
                dominated=not keep_dominated,
                rng=rng,
                ds_max=ds_max,
                progress=progress,
                checkpoint=ckpt if parameter != "eps" else None,
                checkpoint_every=checkpoint_every,
            )
    if curve.reason.endswith("interrupted"):
        curve.save(ckpt)
        err.print(
            f"interrupted at {parameter} = {curve.theta[-1]:.6g}; {len(curve.theta)} points "
            f"saved in {ckpt}; continue with: toypoker trace '{g.spec}' --resume {ckpt}"
        )
        raise typer.Exit(130)
    csv_path = curve.save(outdir / "curve.csv")
    figures.plot_expectations(curve, outdir / "expectations.png", log=log)
    figures.plot_frequencies(curve, g, outdir / "frequencies.png", log=log)
    system = system_for(curve, dominated=not keep_dominated)
    mult = multiplicity(curve, system)
    figures.plot_multiplicity(mult, curve, outdir / "multiplicity.png")
    from .io import atomic_write_text

    atomic_write_text(
        outdir / "multiplicity.csv",
        f"{parameter}_from,{parameter}_to,crossings,distinct,unpolished\n"
        + "".join(f"{a:.10g},{b:.10g},{c},{d},{u}\n" for a, b, c, d, u in mult.rows()),
    )
    listed = []
    for v in at_values:
        eqs = equilibria_at(curve, v, system)
        figures.plot_ranges(
            system.exact_game(v),
            eqs[0].sigma if eqs else curve.sigma[0],
            f"{g.spec}: {parameter} = {v:g} (equilibrium 1 of {len(eqs)})",
            outdir / f"ranges_{parameter}{v:g}.png",
        )
        listed.append((v, eqs))
    if gif:
        with _count_bar("animation") as b2:
            b2.add_task("gif", total=None)
            figures.animate_ranges(curve, g, outdir / "animation.gif")
    data = {
        "spec": g.spec,
        "parameter": parameter,
        "window": [lo, hi],
        "eps": eps,
        "points": len(curve.theta),
        "steps": curve.steps,
        "seconds": round(curve.seconds, 3),
        "reason": curve.reason,
        "csv": str(csv_path),
        "max_equilibria": int(mult.distinct.max()),
        "multiplicity": [
            {"from": a, "to": b, "crossings": c, "distinct": d, "unpolished": u}
            for a, b, c, d, u in mult.rows()
        ],
        "equilibria": [
            {
                parameter: v,
                "list": [
                    {
                        "expectations": e.expectations.tolist(),
                        "nash_conv": e.nash_conv,
                        "raw_nash_conv": e.raw_nash_conv,
                        "certified": e.certified,
                    }
                    for e in eqs
                ],
            }
            for v, eqs in listed
        ],
        "outdir": str(outdir),
    }
    if json_:
        _print_json(data)
        return
    out.print(
        f"{g.spec}: {len(curve.theta)} points over {parameter} in [{lo:g}, {hi:g}] "
        f"({curve.steps} steps, {curve.seconds:.1f} s, eps = {eps:g}, {curve.reason})"
    )
    top = int(mult.distinct.max())
    multi = [r for r in mult.rows() if r[3] > 1]
    out.print(
        f"up to {top} distinct equilibria on the branch; {len(multi)} intervals with more than "
        f"one (all in {outdir / 'multiplicity.csv'}); where {top}:"
    )
    for a, b, c, d, _ in multi:
        if d == top:
            out.print(f"  {parameter} in ({a:.6g}, {b:.6g}): {d} distinct ({c} branch points)")
    for v, eqs in listed:
        t = Table(
            title=f"{parameter} = {v:g}: {len(eqs)} distinct equilibria", title_justify="left"
        )
        t.add_column("#")
        for p in range(g.n_players):
            t.add_column(f"E{p + 1}")
        t.add_column("NashConv (polished)")
        t.add_column("NashConv (regularized)")
        t.add_column("certified")
        for k, e in enumerate(eqs):
            t.add_row(
                str(k + 1),
                *(f"{x:+.6f}" for x in e.expectations),
                f"{e.nash_conv:.2e}",
                f"{e.raw_nash_conv:.2e}",
                "yes" if e.certified else "NO",
            )
        out.print(t)
    out.print(f"CSV, expectations/frequencies/multiplicity plots, range bars and GIF in {outdir}/")


# ------------------------------------------------------------------- export
@app.command()
def export(
    spec: SpecArg,
    format_: Annotated[str, typer.Option("--format", help="efg (Gambit).")] = "efg",
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="File (default: stdout).")
    ] = None,
) -> None:
    """Write the game as a plain extensive form (Gambit .efg)."""
    from .interop.gambit import to_efg
    from .io import atomic_write_text

    if format_ != "efg":
        raise ToypokerError(f"unknown format {format_!r}; known: efg")
    text = to_efg(load_game(spec))
    if output:
        atomic_write_text(output, text)
        err.print(f"wrote {output}")
    else:
        sys.stdout.write(text)


# ----------------------------------------------------------------- dynamics
dynamics_app = typer.Typer(
    help="Learning dynamics: the adaptation ODE and repeated play.", no_args_is_help=True
)
app.add_typer(dynamics_app, name="dynamics")


def _floats(text: str, n: int | None = None, name: str = "value") -> list[float]:
    try:
        vals = [float(x) for x in text.split(",") if x.strip()]
    except ValueError as exc:
        raise ToypokerError(f"{name} must be comma-separated numbers, not {text!r}") from exc
    if n is not None and len(vals) == 1:
        vals = vals * n
    if n is not None and len(vals) != n:
        raise ToypokerError(f"{name} needs {n} numbers, got {len(vals)}")
    return vals


def _pot(pot: float) -> float:
    if not pot > 0:
        raise ToypokerError(f"--pot must be positive, got {pot}")
    return pot


@dynamics_app.command("ode")
def dynamics_ode(
    pot: Annotated[float, typer.Option(help="Pot P.")] = 9.0,
    k: Annotated[str, typer.Option(help="Rates k1,k2,k3 (or one value).")] = "1",
    y0: Annotated[str, typer.Option(help="Initial b_J,c_K,d_Q.")] = "0.25,0.2,0.25",
    t_end: Annotated[float, typer.Option(help="Integration time.")] = 400.0,
    basins_grid: Annotated[int, typer.Option(help="Basin grid size (n x n).")] = 9,
    game: Annotated[
        str | None, typer.Option(help="Any game with binary choices instead of SKP's ODE.")
    ] = None,
    outdir: Annotated[Path, typer.Option(help="Folder for CSV and figures.")] = Path("dynamics"),
    json_: JsonOpt = False,
) -> None:
    """The ODE model (eqs. 18-26): fixed points and stability, limit cycle, basin,
    expectation integrals; CSV and Figures 7-10."""
    import numpy as np

    from .dynamics import figures
    from .dynamics.ode import SKPDynamics, basin, basins, classify, expectations, poincare
    from .io import atomic_write_text

    outdir.mkdir(parents=True, exist_ok=True)
    if game is not None:
        from .dynamics.general import GameDynamics

        g = load_game(game)
        gd = GameDynamics(g, k=_floats(k, None, "--k")[0])
        x0 = _floats(y0, len(gd.labels), "--y0")
        sol = gd.integrate(x0, t_end, t_eval=np.linspace(0, t_end, 2001))
        rows = ["t," + ",".join(gd.labels)]
        rows += [",".join(f"{v:.10g}" for v in (t, *sol.y[:, i])) for i, t in enumerate(sol.t)]
        atomic_write_text(outdir / "trajectory.csv", "\n".join(rows) + "\n")
        final = dict(zip(gd.labels, sol.y[:, -1].tolist(), strict=True))
        if json_:
            _print_json({"game": g.spec, "final": final, "csv": str(outdir / "trajectory.csv")})
        else:
            out.print(f"{g.spec}: integrated {len(gd.labels)} variables to t = {t_end:g}")
            for lbl, v in final.items():
                out.print(f"  {lbl}: {v:.6f}")
        return
    dyn = SKPDynamics(P=_pot(pot), k=tuple(_floats(k, 3, "--k")))
    y = _floats(y0, 3, "--y0")
    reports = classify(dyn)
    lc = poincare(dyn, y, t_end=t_end)
    b = basin(dyn, y, t_end)
    sols = figures.fig_solutions(
        dyn, [y], outdir / "fig9_solution.png", outdir / "fig10_expectations.png", t_end
    )
    sol = sols[0]
    e = expectations(dyn, sol)
    rows = ["t,b_J,c_K,d_Q,E1,E2,E3"]
    rows += [
        ",".join(f"{v:.10g}" for v in (t, *sol.y[:, i], *e[:, i])) for i, t in enumerate(sol.t)
    ]
    atomic_write_text(outdir / "ode.csv", "\n".join(rows) + "\n")
    figures.fig_limit_cycles(dyn, outdir / "fig7_limit_cycles.png")
    basin_counts = None
    if "S3" in dyn.fixed_points():
        figures.fig_manifold(dyn, outdir / "fig8_stable_manifold.png")
        cs, ds, which = basins(dyn, n=basins_grid, t_end=t_end)
        b_fix = dyn.fixed_points()["S3"][0]
        figures.fig_basins(cs, ds, which, b_fix, outdir / "basins.png")
        grid_rows = ["b_J,c_K,d_Q,attractor"] + [
            f"{b_fix:.6f},{c:.6f},{d:.6f},{'S1' if which[i, j] == 1 else 'S2'}"
            for i, c in enumerate(cs)
            for j, d in enumerate(ds)
        ]
        atomic_write_text(outdir / "basins.csv", "\n".join(grid_rows) + "\n")
        basin_counts = {"S1": int((which == 1).sum()), "S2": int((which == 2).sum())}
    data = {
        "P": dyn.P,
        "k": list(dyn.k),
        "fixed_points": [
            {
                "name": r.name,
                "point": r.point.tolist(),
                "eigenvalues": [[float(z.real), float(z.imag)] for z in r.eigenvalues],
                "kind": r.kind,
            }
            for r in reports
        ],
        "limit_cycle": {
            "period": lc.period,
            "amplitude": lc.amplitude.tolist(),
            "converged": lc.converged,
        },
        "basin": b,
        "basin_grid": basin_counts,
        "outdir": str(outdir),
    }
    if json_:
        _print_json(data)
        return
    t = Table(title=f"Fixed points of the ODE (18)-(23), P = {dyn.P:g}", title_justify="left")
    for c in ["point", "(b_J, c_K, d_Q)", "eigenvalues", "manifolds"]:
        t.add_column(c)
    for r in reports:
        t.add_row(
            r.name,
            ", ".join(f"{v:.4f}" for v in r.point),
            ", ".join(f"{z.real:.5f}{z.imag:+.5f}i" for z in r.eigenvalues),
            r.kind,
        )
    out.print(t)
    out.print(
        f"from {tuple(y)}: attracted to {b}; limit cycle period {lc.period:.3f}, "
        f"amplitude {np.round(lc.amplitude, 4).tolist()} (converged: {lc.converged})"
    )
    if basin_counts:
        out.print(
            f"basins over a {basins_grid}x{basins_grid} grid of initial (c_K, d_Q): "
            f"{basin_counts['S1']} -> c_K = 0 (S1), {basin_counts['S2']} -> d_Q = 0 (S2)"
        )
    out.print(f"CSV and Figures 7-10 (and basins.png) written to {outdir}/")


@dynamics_app.command("play")
def dynamics_play(
    pot: Annotated[float, typer.Option(help="Pot P.")] = 9.0,
    k: Annotated[str, typer.Option(help="Rates k1,k2,k3 (or one value).")] = "0.001",
    L: Annotated[str, typer.Option("--L", help="Memories L1,L2,L3 (or one value).")] = "24",
    rounds: Annotated[int, typer.Option(help="Rounds of play.")] = 11_000_000,
    y0: Annotated[
        str | None, typer.Option(help="Initial b,c,d (default: near Solution 3).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 0,
    record_every: Annotated[int, typer.Option(help="Record frequencies every N rounds.")] = 10000,
    outdir: Annotated[Path, typer.Option(help="Folder for CSV and figure.")] = Path("dynamics"),
    json_: JsonOpt = False,
) -> None:
    """Repeated play with estimators (eqs. 27-29, 44-47): time series CSV, realised
    ex-showdown expectations with Monte Carlo errors, and the figure."""
    import time

    from .dynamics import figures
    from .dynamics.play import play
    from .io import atomic_write_text

    if rounds < 1:
        raise ToypokerError(f"--rounds must be positive, got {rounds}")
    Ls = [int(x) for x in _floats(L, 3, "--L")]
    if min(Ls) < 1:
        raise ToypokerError("--L must be at least 1")
    x0 = None if y0 is None else tuple(_floats(y0, 3, "--y0"))
    if x0 is not None and not all(0 <= v <= 1 for v in x0):
        raise ToypokerError("--y0 frequencies must lie in [0, 1]")
    t0 = time.perf_counter()
    r = play(
        P=_pot(pot),
        k=tuple(_floats(k, 3, "--k")),
        L=tuple(Ls),
        x0=x0,
        rounds=rounds,
        seed=seed,
        record_every=record_every,
    )
    dt = time.perf_counter() - t0
    outdir.mkdir(parents=True, exist_ok=True)
    rows = ["round,b,c,d"] + [
        f"{(i + 1) * r.record_every},{a:.6f},{b:.6f},{c:.6f}" for i, (a, b, c) in enumerate(r.freqs)
    ]
    atomic_write_text(outdir / "play.csv", "\n".join(rows) + "\n")
    P = r.P
    figures.fig_play(
        [r], outdir / "play.png", reference=(2 / P, (P - 5) / (P + 1)) if P > 5 else None
    )
    data = {
        "P": P,
        "k": r.k,
        "L": r.L,
        "rounds": r.rounds,
        "seed": r.seed,
        "seconds": dt,
        "expectation": r.expectation.tolist(),
        "standard_error": r.expectation_se.tolist(),
        "final": r.freqs[-1].tolist(),
        "csv": str(outdir / "play.csv"),
    }
    if json_:
        _print_json(data)
        return
    out.print(f"{rounds:,} rounds in {dt:.2f} s ({rounds / dt:,.0f} rounds/s)")
    for p in range(3):
        out.print(
            f"  P{p + 1}: ex-showdown expectation {r.expectation[p]:+.4f} "
            f"+- {r.expectation_se[p]:.4f}"
        )
    out.print(
        f"final (b, c, d) = {tuple(round(x, 4) for x in r.freqs[-1])}; CSV and figure in {outdir}/"
    )


@dynamics_app.command("estimators")
def dynamics_estimators(
    pot: Annotated[float, typer.Option(help="Pot P.")] = 9.0,
    L: Annotated[str, typer.Option("--L", help="Memories to test.")] = "6,12,24,48,96,192",
    rounds: Annotated[int, typer.Option(help="Rounds per memory.")] = 1_100_000,
    outdir: Annotated[Path, typer.Option(help="Folder for figures.")] = Path("dynamics"),
    json_: JsonOpt = False,
) -> None:
    """Figures 16-17: mean and standard deviation of each estimator against L, at fixed
    Solution 3 frequencies; beside the exact large-L limit of each printed estimator."""
    from .dynamics import figures
    from .dynamics.play import estimator_limits, estimator_study

    P = _pot(pot)
    if P * P - 5 * P - 12 <= 0:
        raise ToypokerError("Solution 3 exists only for P > P* = (5 + sqrt 73)/2")
    Ls = [int(x) for x in _floats(L, None, "--L")]
    means, stds, truth = estimator_study(P, Ls, rounds)
    limits = estimator_limits(truth[0], truth[2], truth[3])
    outdir.mkdir(parents=True, exist_ok=True)
    figures.fig_estimators(
        Ls,
        means,
        stds,
        truth,
        outdir / "fig16_estimator_means.png",
        outdir / "fig17_estimator_stds.png",
    )
    names = ["b1 (44)", "b2 (44)", "c2 (46)", "d (45)", "c3 (47)"]
    data = {
        "P": P,
        "L": Ls,
        "names": names,
        "means": means.tolist(),
        "stds": stds.tolist(),
        "truth": truth.tolist(),
        "limits": limits.tolist(),
    }
    if json_:
        _print_json(data)
        return
    t = Table(
        title=f"Estimators at fixed Solution 3, P = {P:g} ({rounds:,} rounds each)",
        title_justify="left",
    )
    t.add_column("L", justify="right")
    for n in names:
        t.add_column(n, justify="right")
    for i, Lv in enumerate(Ls):
        t.add_row(str(Lv), *(f"{means[i, j]:.4f} +- {stds[i, j]:.3f}" for j in range(5)))
    t.add_row("true", *(f"{x:.4f}" for x in truth))
    t.add_row("limit L->oo", *(f"{x:.4f}" for x in limits))
    out.print(t)
    out.print(f"Figures 16-17 written to {outdir}/")


@dynamics_app.command("table1")
def dynamics_table1(
    rounds: Annotated[int, typer.Option(help="Rounds per run.")] = 11_000_000,
    ks: Annotated[str, typer.Option("--k", help="Rates.")] = "0.001,0.01",
    Ls: Annotated[str, typer.Option("--L", help="Memories.")] = "6,12,24,48,96,192",
    pot: Annotated[float, typer.Option(help="Pot P.")] = 9.0,
    workers: Annotated[int, typer.Option(help="Parallel processes.")] = 2,
    seed: Annotated[int, typer.Option(help="Base seed.")] = 0,
    outdir: Annotated[Path, typer.Option(help="Folder for figures.")] = Path("dynamics"),
    json_: JsonOpt = False,
) -> None:
    """Table 1 (and any (k, L) sweep): repeated play started near S3, realised
    ex-showdown expectations beside the published values, with Monte Carlo errors."""
    from .dynamics import figures
    from .dynamics.play import TABLE1, sweep

    k_list = _floats(ks, None, "--k")
    L_list = [int(x) for x in _floats(Ls, None, "--L")]
    P = _pot(pot)
    with _count_bar("repeated play") as bar:
        task = bar.add_task("runs", total=len(k_list) * len(L_list))
        res = sweep(
            P,
            k_list,
            L_list,
            rounds,
            seed=seed,
            workers=workers,
            progress=lambda: bar.advance(task),
        )
    outdir.mkdir(parents=True, exist_ok=True)
    for kk in k_list:
        figures.fig_play(
            [res[(Lv, kk)] for Lv in L_list],
            outdir / f"play_k{kk:g}.png",
            reference=(2 / P, (P - 5) / (P + 1)),
        )
    rows = []
    for Lv in L_list:
        for kk in k_list:
            r = res[(Lv, kk)]
            pub = TABLE1.get((Lv, kk)) if P == 9 else None
            z = None
            if pub is not None:
                # published to 3 decimals: allow their rounding (0.0005) beside our error
                z = [
                    float(
                        abs(r.expectation[p] - pub[p])
                        / (r.expectation_se[p] ** 2 + 0.0005**2 / 3) ** 0.5
                    )
                    for p in range(3)
                ]
            rows.append(
                {
                    "L": Lv,
                    "k": kk,
                    "ours": r.expectation.tolist(),
                    "se": r.expectation_se.tolist(),
                    "published": pub,
                    "z": z,
                }
            )
    if json_:
        _print_json({"P": P, "rounds": rounds, "runs": rows})
        return
    t = Table(
        title=f"Table 1: ex-showdown expectations, P = {P:g}, {rounds:,} rounds per run",
        title_justify="left",
    )
    for c in ["L", "k", "player", "ours +- MC error", "published", "|diff|/error"]:
        t.add_column(c, justify="right")
    for row in rows:
        for p in range(3):
            pub = "-" if row["published"] is None else f"{row['published'][p]:+.3f}"
            z = "-" if row["z"] is None else f"{row['z'][p]:.1f}"
            t.add_row(
                str(row["L"]) if p == 0 else "",
                f"{row['k']:g}" if p == 0 else "",
                f"P{p + 1}",
                f"{row['ours'][p]:+.4f} +- {row['se'][p]:.4f}",
                pub,
                z,
            )
    out.print(t)


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
