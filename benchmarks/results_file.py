"""``--save``: a benchmark script's printed tables as a result file under
``benchmarks/results/``, with the machine, the date and the load they were measured at.

A script's ``__main__`` block runs its ``main()`` inside :func:`saved_output`; with
``--save`` on the command line (taken out of ``sys.argv`` first) everything the script
prints is also written, after a header, to ``benchmarks/results/<script>.md`` (atomically:
a temporary file, then a rename).  The docs' Benchmarks page includes every file there.
Scripts print Markdown tables, so the file is Markdown as it stands.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import os
import platform
import sys
from collections.abc import Iterator
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def take_save_flag(argv: list[str]) -> bool | str:
    """Remove ``--save`` (or ``--save=NAME``) from ``argv`` (in place); whether it was
    there, or ``NAME``: the file is then ``<script>_<NAME>.md`` (a second run of the
    script that keeps the first one's file, such as one game too large for the default
    run)."""
    found: bool | str = False
    for arg in list(argv):
        if arg == "--save" or arg.startswith("--save="):
            argv.remove(arg)
            name = arg.partition("=")[2]
            found = name if name.replace("-", "").replace("_", "").isalnum() else True
    return found


def machine() -> str:
    """The CPU model, the number of CPUs, the OS and Python."""
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (
        f"{model}, {os.cpu_count()} CPUs; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}"
    )


def load() -> str:
    """The 1-, 5- and 15-minute load averages."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def header(script: str, command: str, started: datetime.datetime, loads: tuple[str, str]) -> str:
    """The result file's header: what ran, where, when, at which load."""
    return (
        f"# `{script}`\n\n"
        f"- command: `{command}`\n"
        f"- machine: {machine()}\n"
        f"- date: {started:%Y-%m-%d %H:%M} UTC\n"
        f"- load average (1/5/15 min): {loads[0]} at the start, {loads[1]} at the end\n\n"
    )


class _Tee(io.TextIOBase):
    def __init__(self, *streams: io.TextIOBase) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for s in self.streams:
            s.write(text)
        return len(text)

    def flush(self) -> None:
        for s in self.streams:
            s.flush()


@contextlib.contextmanager
def saved_output(script_file: str, save: bool | str) -> Iterator[None]:
    """Run the block; with ``save``, write what it printed to the script's result file."""
    if not save:
        yield
        return
    script = Path(script_file).name
    command = " ".join(["python", f"benchmarks/{script}", *sys.argv[1:]])
    started = datetime.datetime.now(datetime.UTC)
    before = load()
    buffer = io.StringIO()
    real = sys.stdout
    sys.stdout = _Tee(real, buffer)
    try:
        yield
    finally:
        sys.stdout = real
    text = header(script, command, started, (before, load())) + buffer.getvalue()
    RESULTS.mkdir(exist_ok=True)
    suffix = f"_{save}" if isinstance(save, str) else ""
    target = RESULTS / (Path(script).stem + suffix + ".md")
    tmp = target.with_suffix(".md.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(target)
    print(f"saved: {target}")
