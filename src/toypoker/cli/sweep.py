"""``toypoker sweep``: solve a game over a parameter grid on Dask."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..sweeps import grid
from ..sweeps import sweep as run_sweep
from .common import Bar, JsonOpt, at_least, check_file, out, print_json


def sweep(
    spec: Annotated[str, typer.Argument(help="The game, e.g. 'kuhn(players=3)'.")],
    param: Annotated[
        str, typer.Option("--param", help="NAME=LO:HI:STEPS or NAME=V1,V2,... (exact numbers).")
    ],
    method: Annotated[str, typer.Option(help="The solver at every point.")] = "cfr+",
    iterations: Annotated[int, typer.Option(help="Iterations at every point.")] = 1000,
    scheduler: Annotated[
        str,
        typer.Option(help="serial, local/processes (a LocalCluster) or tcp://host:port."),
    ] = "local",
    result: Annotated[
        Path | None,
        typer.Option(help="JSON result, updated as points finish; rerun skips them."),
    ] = None,
    json_: JsonOpt = False,
) -> None:
    """Solve SPEC at every value of one numeric parameter, on dask.distributed."""
    at_least("--iterations", iterations, 1)
    check_file(result, "--result")
    name, values = grid(param)
    with Bar("sweep", len(values)) as bar:
        res = run_sweep(
            spec, name, values, method, iterations, scheduler, result,
            progress=lambda n: bar.update(completed=n),
        )  # fmt: skip
    if json_:
        print_json(res.to_json_dict())
        return
    for p in res.points:
        vals = ", ".join(f"{v:.6g}" for v in p["values"])
        out.print(f"{name}={p['value']}: values ({vals}), NashConv {p['nash_conv']:.3g}")
