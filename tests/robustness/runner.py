"""Run ``python -m toypoker ARGS`` in a folder under a memory cap and a timeout.

Two ways, the same observable behaviour (exit status, stdout, stderr):

* ``TOYPOKER_CASES_SUBPROCESS=1``: a fresh ``python -m toypoker ...`` per run, literally.
* default: a small fork server (this file run as a script) imports toypoker once and
  forks one child per run; the child sets the memory cap, redirects its output to
  files, changes folder and runs ``toypoker.__main__`` exactly as ``python -m`` does.
  This saves the ~2 s interpreter and import start-up of every case.

In both, a run that exceeds its timeout is killed (with its process group) and
reported with ``returncode=None``: a hang.
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

MEMORY_CAP = 4 * 2**30  # bytes of address space (RLIMIT_AS) of every run
TIMEOUT = 60.0


@dataclass(frozen=True)
class Outcome:
    """What a run did: ``returncode`` None means killed at the timeout."""

    args: tuple[str, ...]
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float

    @property
    def stderr_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip()]

    def describe(self) -> str:
        rc = "TIMEOUT (a hang)" if self.returncode is None else f"exit {self.returncode}"
        err = self.stderr.strip()
        if len(err) > 1500:
            err = err[:600] + "\n[...]\n" + err[-800:]
        return (
            f"toypoker {' '.join(self.args)}\n  -> {rc} after {self.seconds:.1f} s\n"
            f"  stderr: {err!r}\n  stdout tail: {self.stdout[-300:]!r}"
        )


def _limit_memory(cap: int = MEMORY_CAP) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    os.setpgid(0, 0)


def run_subprocess(
    args: list[str], cwd: Path, timeout: float = TIMEOUT, script: str | None = None
) -> Outcome:
    """A fresh ``python -m toypoker args`` in ``cwd`` (``python -c script`` if given)."""
    t0 = time.monotonic()
    argv = ["-c", script] if script is not None else ["-m", "toypoker", *args]
    proc = subprocess.Popen(
        [sys.executable, *argv],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_limit_memory,
        text=True,
        errors="replace",
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        rc: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, err = proc.communicate()
        rc = None
    return Outcome(tuple(args), rc, out, err, time.monotonic() - t0)


def _kill_group(pid: int) -> None:
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except (ProcessLookupError, PermissionError):
            pass


class ForkServer:
    """A python process that imported toypoker once and forks a child per run."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        ready = self.proc.stdout.readline()
        if ready.strip() != "ready":
            raise RuntimeError(f"fork server did not start: {ready!r}")

    def run(
        self, args: list[str], cwd: Path, timeout: float = TIMEOUT, script: str | None = None
    ) -> Outcome:
        if script is not None:  # a Python program: a fresh interpreter, as a user runs it
            return run_subprocess(args, cwd, timeout, script)
        out, err = cwd / ".case-stdout", cwd / ".case-stderr"
        request = {
            "args": args,
            "cwd": str(cwd),
            "timeout": timeout,
            "stdout": str(out),
            "stderr": str(err),
        }
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        text = [p.read_text(errors="replace") if p.exists() else "" for p in (out, err)]
        for p in (out, err):
            p.unlink(missing_ok=True)
        return Outcome(tuple(args), reply["returncode"], text[0], text[1], reply["seconds"])

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def _child(request: dict) -> None:  # pragma: no cover - runs in the forked child
    code = 1
    try:
        _limit_memory()
        os.chdir(request["cwd"])
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        for fd, name in ((1, "stdout"), (2, "stderr")):
            f = os.open(request[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(f, fd)
            os.close(f)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.argv = ["toypoker", *request["args"]]
        import runpy
        import traceback

        try:
            runpy.run_module("toypoker", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as exc:  # as the interpreter does at exit
            if exc.code is None:
                code = 0
            elif isinstance(exc.code, int):
                code = exc.code
            else:
                print(exc.code, file=sys.stderr)
                code = 1
        except BaseException:  # noqa: BLE001 - an uncaught exception: print it as python does
            traceback.print_exc()
            code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code & 0xFF)


def serve() -> None:  # pragma: no cover - the fork server's loop
    import toypoker.plots  # noqa: F401 - matplotlib's figures, imported once
    from toypoker import load_game, solve
    from toypoker.cli import COMMANDS, load_command

    # every command's module imported once, inherited by every child (each child would
    # import its command's modules again: ~1 s a case, most of a short case's time)
    for name in COMMANDS:
        load_command(name)
    solve(load_game("kuhn(players=2)"), "cfr+", iterations=2)  # compile the kernels once
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    for line in sys.stdin:
        request = json.loads(line)
        out.flush()
        sys.stderr.flush()
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(request)
        deadline = t0 + float(request["timeout"])
        rc: int | None = None
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                rc = os.waitstatus_to_exitcode(status)
                if rc < 0:  # killed by a signal, as subprocess reports it
                    pass
                break
            if time.monotonic() > deadline:
                _kill_group(pid)
                os.waitpid(pid, 0)
                rc = None
                break
            select.select([], [], [], 0.01)
        _kill_group(pid)  # leftovers of the run (worker processes)
        out.write(json.dumps({"returncode": rc, "seconds": time.monotonic() - t0}) + "\n")
        out.flush()


def make_runner():
    """``(run, close)``: run(args, cwd, timeout, script=None) -> Outcome."""
    if os.environ.get("TOYPOKER_CASES_SUBPROCESS"):
        return run_subprocess, lambda: None
    server = ForkServer()
    return server.run, server.close


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--serve"]:
        serve()
