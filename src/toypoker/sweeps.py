"""Parameter sweeps on ``dask.distributed``: solve a game at every value of a grid.

:func:`sweep` solves ``load_game(spec).at(name=value)`` at each value with one
method and budget, on a Dask cluster (a :class:`distributed.LocalCluster` by
default, or an existing scheduler's address) or serially, and gathers the
points into one frozen :class:`SweepResult`.  With ``result`` given, every
finished point is written there atomically as it arrives, so an interrupted
sweep or a dead worker loses nothing: rerunning skips the points already there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from .errors import ToypokerError
from .io import atomic_write_text

__all__ = ["SweepResult", "grid", "solve_point", "sweep"]

DASK_HINT = 'sweeps need dask.distributed: pip install "toypoker[dask]"'


@dataclass(frozen=True)
class SweepResult:
    """A finished sweep: one point per parameter value, in grid order.

    Each point is a dict ``{"value", "values", "nash_conv", "iterations"}``
    (``value`` an exact string, ``values`` each player's expected value).
    """

    spec: str
    param: str
    method: str
    iterations: int
    points: tuple[dict, ...]

    def to_json_dict(self) -> dict[str, object]:
        """The sweep as plain JSON types."""
        return {
            "spec": self.spec,
            "param": self.param,
            "method": self.method,
            "iterations": self.iterations,
            "points": list(self.points),
        }


def grid(text: str) -> tuple[str, list[Fraction]]:
    """Parse ``NAME=LO:HI:STEPS`` (STEPS evenly spaced values, ends included) or
    ``NAME=V1,V2,...`` into the name and exact values."""
    name, sep, rest = text.partition("=")
    if not sep or not name.strip() or not rest.strip():
        raise ToypokerError(f"--param {text!r}: expected NAME=LO:HI:STEPS or NAME=V1,V2,...")
    try:
        if ":" in rest:
            lo, hi, steps = rest.split(":")
            n = int(steps)
            if n < 1:
                raise ValueError
            a, b = Fraction(lo), Fraction(hi)
            values = [a] if n == 1 else [a + (b - a) * i / (n - 1) for i in range(n)]
        else:
            values = [Fraction(v) for v in rest.split(",")]
    except (ValueError, ZeroDivisionError):
        raise ToypokerError(f"--param {text!r}: values must be exact numbers") from None
    return name.strip(), values


def solve_point(spec: str, name: str, value: str, method: str, iterations: int) -> dict:
    """Solve ``spec`` at ``name=value``; a pure job (the same inputs give the same point)."""
    from .games import load_game
    from .solvers import solve

    game = load_game(spec).at(**{name: value})
    r = solve(game, method, iterations=iterations)
    return {
        "value": value,
        "values": [float(v) for v in r.values],
        "nash_conv": None if r.nash_conv is None else float(r.nash_conv),
        "iterations": int(r.iterations),
    }


def _load(path: Path | None, header: dict) -> dict[str, dict]:
    if path is None or not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ToypokerError(f"--result {path}: not a sweep result ({exc})") from None
    if not isinstance(data, dict) or any(data.get(k) != v for k, v in header.items()):
        raise ToypokerError(f"--result {path} holds another sweep; give a new file")
    return {p["value"]: p for p in data.get("points", [])}


def sweep(
    spec: str,
    param: str,
    values: Sequence[Fraction | int | str],
    method: str = "cfr+",
    iterations: int = 1000,
    scheduler: str | None = "local",
    result: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> SweepResult:
    """Solve ``spec`` at each ``param`` value and gather the points.

    Parameters
    ----------
    spec, param, values
        The game, the numeric parameter (see ``Game.numeric_params``) and its values.
    method, iterations
        The solver and its budget at every point.
    scheduler
        ``None`` or ``"serial"``: in this process; ``"local"``/``"processes"``: a
        LocalCluster of processes; otherwise a scheduler address (``tcp://host:port``).
    result
        JSON file kept up to date atomically; points already there are skipped.
    progress
        Called with the number of finished points after each one.

    Returns
    -------
    SweepResult
    """
    from .games import load_game

    load_game(spec).at(**{param: str(Fraction(values[0]))})  # bad input fails here, once
    keys = [str(Fraction(v)) for v in values]
    header = {"spec": spec, "param": param, "method": method, "iterations": iterations}
    path = None if result is None else Path(result)
    done = _load(path, header)

    def finish(point: dict) -> None:
        done[point["value"]] = point
        if path is not None:
            pts = [done[k] for k in keys if k in done]
            atomic_write_text(path, json.dumps({**header, "points": pts}, indent=1) + "\n")
        if progress:
            progress(sum(k in done for k in keys))

    todo = [k for k in dict.fromkeys(keys) if k not in done]
    if scheduler in (None, "serial"):
        for k in todo:
            finish(solve_point(spec, param, k, method, iterations))
    elif todo:
        try:
            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise ToypokerError(DASK_HINT) from None
        if scheduler in ("local", "processes"):
            cluster = LocalCluster(processes=True, threads_per_worker=1, dashboard_address=None)
            client = Client(cluster)
        else:
            cluster, client = None, Client(scheduler, timeout="20s")
        try:
            futures = [
                client.submit(solve_point, spec, param, k, method, iterations, pure=True, retries=3)
                for k in todo
            ]
            for fut in as_completed(futures):
                finish(fut.result())
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    return SweepResult(spec, param, method, iterations, tuple(done[k] for k in keys))
