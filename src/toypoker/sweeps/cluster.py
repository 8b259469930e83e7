"""A sweep's jobs on ``dask.distributed``: the cluster, the submissions, the answers.

Three faults are toypoker's to report, each in one line:

* **Ctrl-C.**  A terminal sends SIGINT to the whole process group, the
  LocalCluster's worker processes included.  They are started with SIGINT blocked
  (:mod:`toypoker.dask_client`), so only toypoker hears it (or a SIGTERM): it says so
  at once (:func:`toypoker.interrupts.deferred_interrupts`), stops waiting within a
  poll, ends the LocalCluster's worker processes outright (a job under way is lost
  anyway, and a worker busy in compiled code answers no polite request) and closes
  the cluster, a second signal waiting until it is closed; distributed's loggers are
  silenced for the shutdown, so no worker or nanny traceback follows toypoker's line.
* **Every worker gone.**  The answers are awaited in short polls; when the cluster
  has had no worker for :data:`WORKERS_GONE_SECONDS` the sweep stops with
  :class:`WorkersGoneError` (the jobs finished so far are kept by the caller).
* **No scheduler.**  A ``tcp://`` address that does not answer within
  :data:`~toypoker.dask_client.SCHEDULER_TIMEOUT` (:func:`toypoker.dask_client.connect`).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from typing import Any

from toypoker.dask_client import (
    DASK_HINT,
    close_client,
    open_client,
    quiet_distributed,
)
from toypoker.errors import ToypokerError
from toypoker.interrupts import InterruptFlag, deferred_interrupts

WORKERS_GONE_SECONDS = 20.0
"""A cluster without any worker this long has lost them all: the sweep stops, well
within half a minute of the loss (a LocalCluster's nanny restarts a dead worker
sooner than this)."""

POLL_SECONDS = 0.25
"""How often the answers and the workers are looked at."""


class WorkersGoneError(ToypokerError):
    """Every worker of the cluster is gone and none came back."""


def _worker_count(client: Any) -> int:
    """How many workers the scheduler knows now (0 when it does not answer)."""
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # noqa: BLE001 - a scheduler that is gone has no workers
        return 0


def _gather(
    client: Any, futures: list[Any], on_done: Callable[[Any], None], as_completed: Any,
    flag: InterruptFlag,
) -> None:  # fmt: skip
    """Call ``on_done(future)`` for each future as it finishes; raise :class:`WorkersGoneError`
    when the cluster has had no worker for :data:`WORKERS_GONE_SECONDS`, and
    ``KeyboardInterrupt`` once ``flag`` is set (a Ctrl-C or SIGTERM)."""
    pending = as_completed(futures)
    since: float | None = None  # when the cluster was last seen without a worker
    last_look = 0.0
    while not pending.is_empty():
        if flag.requested:
            raise KeyboardInterrupt
        batch = pending.next_batch(block=False)
        for fut in batch:
            on_done(fut)
        if batch:
            since = None
            continue
        now = time.monotonic()
        if now - last_look >= 1.0:
            last_look = now
            if _worker_count(client):
                since = None
            elif since is None:
                since = now
            elif now - since >= WORKERS_GONE_SECONDS:
                raise WorkersGoneError(
                    f"every dask worker is gone (none for {WORKERS_GONE_SECONDS:g} s); "
                    f"{pending.count()} job(s) not run"
                )
        time.sleep(POLL_SECONDS)


def _end_local_workers(cluster: Any) -> None:
    """Kill the worker processes of a LocalCluster ``cluster`` (none restarted) so that
    closing it is quick: a worker busy in a compiled kernel holds its interpreter and
    answers no request to close, and its nanny would wait for it for seconds."""
    for nanny in list((getattr(cluster, "workers", None) or {}).values()):
        nanny.auto_restart = False
        pid = getattr(nanny, "pid", None)
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:  # gone already
                pass


def run_on_dask(
    todo: list[Any], scheduler: object, workers: int | None, retries: int,
    run: Callable[..., dict], finish: Callable[[Any, dict], None],
) -> None:  # fmt: skip
    """Run the jobs ``todo`` (each ``job.kind``, ``job.params``, ``job.id``) as
    ``run(kind, params, True)`` on ``scheduler`` -- a ``distributed.Client``,
    ``"local"`` (a LocalCluster of ``workers`` processes) or a ``tcp://`` address --
    and call ``finish(job, record)`` as each one's record arrives (a job whose worker
    died ``retries`` times: a failed record).

    Raises
    ------
    WorkersGoneError
        Every worker of the cluster is gone (what finished was handed to ``finish``).
    KeyboardInterrupt
        Ctrl-C or SIGTERM: the cluster is stopped quietly first.
    """
    try:
        from distributed import as_completed
    except ImportError:
        raise ToypokerError(DASK_HINT) from None
    # a Ctrl-C or SIGTERM, said at once, stops the wait within a poll; the finished
    # jobs were handed to finish as they came; a second one waits until the cluster is
    # closed and the command has said what it kept
    with deferred_interrupts(keeping="the finished jobs") as flag:
        client, cluster, own = open_client(scheduler, workers)
        stopped = False
        try:
            if flag.requested:  # while the cluster started
                raise KeyboardInterrupt
            by_key = {}
            for j in todo:
                fut = client.submit(run, j.kind, j.params, True, key=f"toypoker-{j.id}",
                                    retries=retries, pure=False)  # fmt: skip
                by_key[fut.key] = (j, fut)

            def done(fut: Any) -> None:
                job = by_key[fut.key][0]
                try:
                    rec = fut.result()
                except Exception as exc:  # noqa: BLE001 - a worker died every time: recorded
                    rec = {"status": "failed", "result": {}, "seconds": 0.0,
                           "error": " ".join(f"{type(exc).__name__}: {exc}".split())}  # fmt: skip
                finish(job, rec)

            _gather(client, [f for _, f in by_key.values()], done, as_completed, flag)
        except (KeyboardInterrupt, WorkersGoneError):
            stopped = True
            raise
        finally:
            _close(client, cluster, own, stopped)


def _close(client: Any, cluster: Any, own: bool, stopped: bool) -> None:
    """Close what :func:`~toypoker.dask_client.open_client` opened; after an interrupt or
    a lost cluster (``stopped``) quietly and at once (:func:`_end_local_workers`), a
    further signal waiting until it is closed."""
    if not stopped:
        close_client(client, cluster, own)
        return
    with deferred_interrupts(keeping="the finished jobs"):
        quiet_distributed()
        _end_local_workers(cluster)
        close_client(client, cluster, own, quiet=True)
