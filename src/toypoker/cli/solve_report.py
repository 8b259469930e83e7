"""What ``toypoker solve`` writes and prints of one run: its files, then its JSON or
its tables (strategy, values), summary line and team lines."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from toypoker.archive import save_profile
from toypoker.cli.common import num, out, print_json, said, stopped_name
from toypoker.cli.tables import strategy_table, team_lines, values_table
from toypoker.engines.evaluation import VectorEvaluation
from toypoker.engines.registry import team_gain_note
from toypoker.evaluation import evaluate
from toypoker.game import Game
from toypoker.result import Result

TABLE_INFOSETS = 2000  # more infosets than this: no strategy table (-o or --csv writes them)


def vector_values(res: Result | VectorEvaluation) -> SimpleNamespace:
    """The values table's numbers from a vector-layout result or evaluation (its own
    best responses)."""
    br = tuple(v + g for v, g in zip(res.values, res.gains, strict=True))
    return SimpleNamespace(
        values=res.values, br_values=br, gains=res.gains, nash_conv=res.nash_conv
    )


def value_text(res: object) -> str:
    """The value for the summary line: an exact method's, or -- a two-player zero-sum
    game -- player 1's value bracketed by the two best responses
    (:attr:`~toypoker.result.Result.value_bracket`; its width is NashConv)."""
    if res.value_exact:
        return f"; exact value {num(res.value_exact[0])} (P1), certified: {res.certified}"
    b = res.value_bracket
    if b is not None:
        return f"; P1's value in [{b.lower:.6f}, {b.upper:.6f}]"
    return ""


def report(
    res: Result,
    g: Game,
    spec: str,
    one_shot: bool,
    deals: bool,
    json_: bool,
    table: bool,
    decimals: int | None,
    fractions: bool,
    aim: float | None,
    files: tuple[Path | None, Path | None, Path | None, Path | None],
) -> None:
    """Write the result's files (``files``: ``-o``, ``--csv``, ``--result``,
    ``--checkpoint``), then print it: as JSON, or its tables
    (:func:`~toypoker.cli.solve_report._print_result`) and a line for each file written."""
    output, csv, result, checkpoint = files
    if output:
        save_profile(res.profile, output)
    if csv:
        res.profile.to_csv(csv)
    if result:
        res.save(result)
    if json_:
        print_json(res.to_json_dict())
        return
    _print_result(res, g, spec, one_shot, deals, table, decimals, fractions, aim)
    if output:
        said(f"profile written to {output}")
    if csv:
        said(f"CSV written to {csv}")
    if result:
        said(f"result written to {result}")
    if checkpoint:
        said(f"checkpoint written to {checkpoint}")


def _print_result(
    res: Result,
    g: Game,
    spec: str,
    one_shot: bool,
    deals: bool,
    table: bool,
    decimals: int | None,
    fractions: bool,
    aim: float | None,
) -> None:
    """Print the strategy table (omitted for a large game), the values table, the
    summary line (:func:`~toypoker.cli.solve_report._ran_line`), the merged team solved
    and the team's gain (``aim``: the target its lines compare with)."""
    if table and res.game.n_infosets > TABLE_INFOSETS:
        out.print(
            f"(strategy table omitted: {res.game.n_infosets:,} infosets; "
            "-o or --csv writes the profile)"
        )
    elif table:
        out.print(strategy_table(res.profile, decimals, fractions=fractions))
    out.print(
        values_table(
            evaluate(g, res.profile) if deals else vector_values(res),
            decimals,
            game=g if deals else None,
        )
    )
    out.print(f"{res.method}: {_ran_line(res, one_shot)}; NashConv {res.nash_conv:.3g}"
              f"{value_text(res)}")  # fmt: skip
    if res.solved_as is not None:
        out.print(f"solved as the merged team: {res.solved_as}")
    if res.team is not None:
        out.print(*team_lines(res.team, aim), sep="\n")
    elif not deals and "team=" in spec:  # weak collusion: the lifted team response reads rows
        out.print(team_gain_note(spec))


def _ran_line(res: Result, one_shot: bool) -> str:
    """How the run went, for the summary line: its iterations, time and what stopped it
    (a method that solves in one step: its time)."""
    stopped = stopped_name(res.stopped)
    seed_txt = f", seed {res.seed}" if res.seed is not None else ""
    if not one_shot:
        return (
            f"{res.iterations} iterations in {res.seconds:.2f} s "
            f"({'interrupted' if stopped == 'interrupted' else f'stopped by {stopped}'}"
            f"{seed_txt})"
        )
    if stopped == "solved":
        return f"solved in {res.seconds:.2f} s"  # one solve: no iterations to count
    return f"stopped by {stopped} after {res.seconds:.2f} s"
