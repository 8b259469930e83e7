"""Run every case of :mod:`.cases` and print the outcome table (Markdown).

``python -m tests.robustness.table [-o FILE]`` from the repository root: each
case as the test runs it (:func:`.test_cases.check`), with what issue 14 says
happened before, the exit status and the first line of stderr now, and whether
the case passes.  The same cases run in CI as ``tests/robustness/test_cases.py``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from .cases import CASES, Case
from .runner import make_runner
from .test_cases import _make_files, check


def _cell(text: str, width: int = 90) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= width else text[: width - 1] + "…"


def run_case(case: Case, run) -> tuple[str, str, str]:
    """``(outcome, first stderr line, verdict)`` of one case in a fresh folder."""
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        for args in case.setup:
            pre = run(list(args), cwd, 120.0)
            if pre.returncode != 0:
                return "setup failed", pre.describe(), "FAIL"
        _make_files(case, cwd)
        out = run(list(case.args), cwd, case.timeout, script=case.script)
        rc = "hang" if out.returncode is None else f"exit {out.returncode}"
        first = out.stderr_lines[0] if out.stderr_lines else out.stdout.strip()[:90]
        try:
            check(case, out)
            assert not (cwd / "pwned").exists()
            verdict = "pass"
        except AssertionError:
            verdict = "FAIL"
        return f"{rc}, {out.seconds:.1f} s", first, verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, help="write the table here too")
    args = parser.parse_args(argv)
    run, close = make_runner()
    lines = [
        "| # | section | case | command | before (issue 14) | now | stderr | |",
        "|---|---|---|---|---|---|---|---|",
    ]
    failed = 0
    try:
        for k, case in enumerate(CASES, 1):
            outcome, first, verdict = run_case(case, run)
            failed += verdict != "pass"
            command = ("python: " if case.script else "toypoker ") + " ".join(case.args)
            lines.append(
                f"| {k} | {case.section} | {case.id} | `{_cell(command, 70)}` | "
                f"{_cell(case.before, 50)} | {outcome} | {_cell(first, 80)} | {verdict} |"
            )
            print(f"{k}/{len(CASES)} {case.id}: {verdict}", file=sys.stderr, flush=True)
    finally:
        close()
    lines.append("")
    lines.append(f"{len(CASES)} cases, {len(CASES) - failed} pass, {failed} fail.")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        args.output.write_text(text)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
