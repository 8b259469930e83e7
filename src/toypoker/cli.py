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

    from .io import atomic_write_text
    from .solvers import solve as run

    runs = []
    with Progress(
        TextColumn(f"{method} {g.spec}: seeds"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as bar:
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
    if result:
        atomic_write_text(result, json.dumps(summary, indent=1) + "\n")
    if json_:
        _print_json(summary)
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
    seconds: Annotated[float, typer.Option(help="Time budget of each method.")] = 30.0,
    seed: Annotated[int, typer.Option(help="Seed of the sampling methods.")] = 0,
    plot: Annotated[
        Path | None, typer.Option(help="Plot file (PNG); default compare-<game>.png")
    ] = None,
    result: Annotated[Path | None, typer.Option(help="Write all traces as JSON.")] = None,
    json_: JsonOpt = False,
) -> None:
    """Run several methods for the same time and plot NashConv against time (log-log)."""
    from .io import atomic_write_text
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
    if result:
        atomic_write_text(result, json.dumps(data, indent=1) + "\n")
    if json_:
        _print_json(data)
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
    from .io import atomic_write_text
    from .literature.claims import CLAIMS, check

    for c in claim or []:
        if c not in CLAIMS:
            raise ToypokerError(f"unknown claim {c!r}; known: {', '.join(CLAIMS)}")
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task("claims", total=len(claim or CLAIMS))
        rows = check(
            claim, seed=seed, progress=lambda cid: bar.update(task, advance=1, description=cid)
        )
    data = [r.to_dict() for r in rows]
    if output:
        atomic_write_text(output, json.dumps(data, indent=1) + "\n")
    if json_:
        _print_json(data)
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

    def make(p):
        return load_game(format_spec_with(parsed.name, params, p))

    lo = parse_value(pot_min)
    if isinstance(lo, bool) or not hasattr(lo, "denominator"):
        raise ToypokerError(f"--pot-min must be a number, not {pot_min!r}")
    if symbolic_pot:
        pot = "symbolic"
    elif at_p_star:
        pot = (5 + sp.sqrt(73)) / 2
    else:
        pot = params.get("pot", None)
        if pot is None:
            pieces_game = g
            pot = None
    if pot is None:
        from .solvers.enumerate import enumerate_equilibria
        from .symbolic import symbolic_values

        infos = [i for i in g.infosets if not i.restricted]
        if any(len(i.actions) != 2 for i in infos):
            raise ToypokerError("the enumerator needs binary choices at every free infoset")
        if len(infos) > MAX_ENUMERATED:
            raise ToypokerError(
                f"{len(infos)} free choices: too many to enumerate (3^k); at most {MAX_ENUMERATED}"
            )
        vs = [sp.Symbol(i.label.replace(":", "_")) for i in infos]
        E = symbolic_values(pieces_game, dict(zip([i.label for i in infos], vs, strict=True)))
        pieces = enumerate_equilibria(E, vs, [i.player for i in infos])
    else:
        n_free = sum(not i.restricted for i in g.infosets)
        if n_free > MAX_ENUMERATED:
            raise ToypokerError(
                f"{n_free} free choices: too many to enumerate (3^k); at most {MAX_ENUMERATED}"
            )
        pieces, vs = game_equilibria(
            make,
            pot=pot,
            P_domain=sp.Interval.open(sp.Rational(lo.numerator, lo.denominator), sp.oo),
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
