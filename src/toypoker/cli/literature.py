"""``toypoker literature``: the papers' closed-form claims, checked exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from toypoker.archive import ROWS
from toypoker.cli.checks import at_least, check_file, refuse_replacing, temp_checkpoint
from toypoker.cli.common import (
    Bar,
    JsonOpt,
    OverwriteOpt,
    emit,
    hold,
    interrupted,
    new_app,
    out,
    output_option,
    print_json,
    resume_hint,
)
from toypoker.errors import ToypokerError, UnknownNameError
from toypoker.interrupts import caused_by_interrupt
from toypoker.io import atomic_write_text
from toypoker.literature.claims import CLAIMS, PAPERS, Row, read_rows
from toypoker.literature.claims import check as check_claims
from toypoker.locks import run_lock

app = new_app(
    "The papers' closed-form claims, checked exactly.",
    invoke_without_command=True,
    no_args_is_help=False,
)


def _claims() -> dict:

    return {c.id: c for c in CLAIMS}


def literature(ctx: typer.Context, json_: JsonOpt = False) -> None:
    """List the catalogued claims (``toypoker literature check`` runs them)."""
    ctx.obj = {"json": json_}
    if ctx.invoked_subcommand is not None:
        return
    claims = _claims()
    if json_:
        print_json(
            [{"id": c.id, "source": c.source, "statement": c.statement} for c in claims.values()]
        )
        return
    t = Table(title="Catalogued claims", title_justify="left")
    for col in ["id", "source", "statement"]:
        t.add_column(col)
    for c in claims.values():
        t.add_row(c.id, c.source, c.statement)
    out.print(t)


def check(
    ctx: typer.Context,
    claim: Annotated[
        list[str] | None, typer.Option(help="Only these claim ids (repeatable).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the random family members.")] = 0,
    output: Annotated[Path | None, output_option("Write the rows as JSON.")] = None,
    full: Annotated[
        bool, typer.Option("--full", help="Print every checked instance, not the summary.")
    ] = False,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Rows an interrupted check kept (JSON, as -o writes them): their claims "
            "are not run again."
        ),
    ] = None,
    overwrite: OverwriteOpt = False,
    json_: JsonOpt = False,
) -> None:
    """Instantiate every claim over its parameters and certify each exactly; print a
    summary by paper and status (every row with --full or --json)."""

    json_ = json_ or bool((ctx.obj or {}).get("json"))  # `literature --json check` too
    at_least("--seed", seed, 0)
    check_file(output, "-o", own=ROWS)
    refuse_replacing(output, "-o", resume, overwrite, "checked rows")
    if output is not None:  # a second check writing the same rows file is refused
        hold(run_lock(output, "rows file"))
    claims = _claims()
    for c in claim or []:
        if c not in claims:
            raise UnknownNameError(f"unknown claim {c!r}", list(claims))
    rows: list = [] if resume is None else kept_rows(resume, set(claim or claims))
    done = {r.claim for r in rows}
    todo = [c for c in (claim or claims) if c not in done]
    with Bar("claims", len(todo), fields=("claim",)) as bar:
        try:
            if todo:  # (no ids: every claim)
                check_claims(todo, seed=seed, rows=rows,
                             progress=lambda cid: bar.update(advance=1, claim=cid))  # fmt: skip
        except (KeyboardInterrupt, SystemError) as exc:
            if not (isinstance(exc, KeyboardInterrupt) or caused_by_interrupt(exc)):
                raise
            _keep_interrupted(rows, output)
    order = {c: i for i, c in enumerate(claims)}  # the rows in the order of a whole run
    rows.sort(key=lambda r: order[r.claim])
    data = [r.to_dict() for r in rows]
    if emit(data, output, json_):
        return
    n_bad = sum(r.status != "verified" for r in rows)
    if full:
        t = Table(title="The literature, checked exactly", title_justify="left")
        for col in ["claim", "source", "parameters", "status", "exact"]:
            t.add_column(col, overflow="fold")
        for r in rows:
            style = "green" if r.status == "verified" else "bold red"
            t.add_row(r.claim, r.source, r.params, f"[{style}]{r.status}[/]", r.detail)
        out.print(t)
    else:
        out.print(_summary(rows))
    out.print(
        f"{len(rows)} checks: {len(rows) - n_bad} verified, {n_bad} disagree with the "
        "printed text"
        + (" (the exact value is beside each)" if full else "; every row: --full or --json")
    )


def _keep_interrupted(rows: list, output: Path | None) -> None:
    """After a Ctrl-C: the finished claims' rows to ``-o`` (or a temporary file), said."""
    path = output or temp_checkpoint("literature").with_suffix(".json")
    atomic_write_text(path, json.dumps([r.to_dict() for r in rows], indent=1) + "\n")
    done = len({r.claim for r in rows})
    hint = resume_hint(drop=("--resume",), add=("--resume", str(path)))
    raise interrupted(f"{done} claim(s) checked, their {len(rows)} rows kept in {path}", hint)


def kept_rows(path: Path, wanted: set[str]) -> list[Row]:
    """The rows an interrupted ``literature check`` kept in ``path``
    (:func:`toypoker.literature.claims.read_rows`), said as ``--resume``'s."""
    try:
        return read_rows(path, wanted)
    except ToypokerError as exc:
        raise ToypokerError(f"--resume {exc}") from None


def _summary(rows: list) -> Table:
    """Checks by paper and status, and the claims with rows that disagree."""
    by_paper: dict[str, dict[str, object]] = {}
    for r in rows:
        s = by_paper.setdefault(
            PAPERS.get(r.claim, r.source),
            {"claims": set(), "checks": 0, "verified": 0, "disagree": set()},
        )
        s["claims"].add(r.claim)  # type: ignore[attr-defined]
        s["checks"] += 1  # type: ignore[operator]
        if r.status == "verified":
            s["verified"] += 1  # type: ignore[operator]
        else:
            s["disagree"].add(r.claim)  # type: ignore[attr-defined]
    t = Table(title="The literature, checked exactly: by paper", title_justify="left")
    for col in ["paper", "claims", "checks", "verified", "disagree", "claims that disagree"]:
        t.add_column(col, justify="left" if col in ("paper", "claims that disagree") else "right")
    for paper, s in by_paper.items():
        checks, verified = int(s["checks"]), int(s["verified"])  # type: ignore[call-overload]
        bad = sorted(s["disagree"])  # type: ignore[call-overload]
        t.add_row(
            paper, str(len(s["claims"])), str(checks), str(verified),  # type: ignore[arg-type]
            str(checks - verified), ", ".join(bad) or "-",
        )  # fmt: skip
    return t


app.callback()(literature)
app.command("check")(check)
