"""A sweep's jobs on ``dask.distributed``: the cluster, the submissions, the answers.

Three faults are toypoker's to report, each in one line:

* **Ctrl-C.**  A terminal sends SIGINT to the whole process group, the
  LocalCluster's worker processes included.  They are started with SIGINT blocked
  (:func:`_workers_deaf_to_sigint`), so only toypoker hears it and stops them;
  distributed's loggers are silenced for the shutdown (:func:`_quiet_distributed`),
  so no worker or nanny traceback follows toypoker's line.
* **Every worker gone.**  The answers are awaited in short polls; when the cluster
  has had no worker for :data:`WORKERS_GONE_SECONDS` the sweep stops with
  :class:`WorkersGoneError` (the jobs finished so far are kept by the caller).
* **No scheduler.**  A ``tcp://`` address that does not answer within
  :data:`SCHEDULER_TIMEOUT` (:func:`connect`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import ToypokerError

DASK_HINT = (
    'a Dask cluster (sweeps, sharded solves) needs dask.distributed: pip install "toypoker[dask]"'
)

SCHEDULER_TIMEOUT = 20.0
"""Seconds a ``tcp://`` scheduler has to connect and answer dask's handshake."""

WORKERS_GONE_SECONDS = 20.0
"""A cluster without any worker this long has lost them all: the sweep stops (within
the 30 s issue 35 asks; a LocalCluster's nanny restarts a dead worker in a few)."""

POLL_SECONDS = 0.25
"""How often the answers and the workers are looked at."""


class WorkersGoneError(ToypokerError):
    """Every worker of the cluster is gone and none came back."""


def connect(client_type: Callable[..., Any], address: object) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, or one line within
    :data:`SCHEDULER_TIMEOUT` (a listener that is no dask scheduler never answers)."""
    text = str(address)
    if "://" not in text:
        raise ToypokerError(
            f"--scheduler {text[:60]!r}: give serial, local or a scheduler address such as "
            "tcp://host:8786"
        )
    box: list[object] = []

    def attempt() -> None:
        try:
            box.append(client_type(text, timeout=f"{SCHEDULER_TIMEOUT:g}s"))
        except Exception as exc:  # noqa: BLE001 - reported below in one line
            box.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)  # a hung handshake is left
    worker.start()
    worker.join(SCHEDULER_TIMEOUT + 5)
    if not box:
        raise ToypokerError(f"no dask scheduler answered at {text} within {SCHEDULER_TIMEOUT:g} s")
    if isinstance(box[0], Exception):
        reason = " ".join(str(box[0]).split())[:120] or type(box[0]).__name__
        raise ToypokerError(f"cannot reach the scheduler {text}: {reason}")
    return box[0]


@contextlib.contextmanager
def _workers_deaf_to_sigint() -> Iterator[None]:
    """While the LocalCluster starts, SIGINT is blocked in this thread: the cluster's
    event-loop thread, started now, inherits the mask, and so does every worker process
    it starts (now or when a nanny restarts one: the mask survives fork and exec).  A
    terminal's Ctrl-C, sent to the whole process group, then reaches toypoker only.  A
    Ctrl-C here in the meantime stays pending and is taken when the block ends (it is
    not lost).  Outside the main thread, or without ``pthread_sigmask``, nothing
    changes."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    # multiprocessing's resource tracker, started with the first worker, unblocks SIGINT
    # in the thread that starts it (the cluster's loop thread): start it first, here
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        mask(signal.SIG_UNBLOCK, {signal.SIGINT})


_DISTRIBUTED_LOGGERS = ("distributed", "tornado", "asyncio", "bokeh")


def _quiet_distributed() -> None:
    """From now on distributed (and the event loop under it) logs nothing: the cluster is
    being stopped on purpose, and what its nanny and workers say about it is noise."""
    for name in _DISTRIBUTED_LOGGERS:
        log = logging.getLogger(name)
        log.setLevel(logging.CRITICAL + 1)
        log.propagate = False


def _worker_count(client: Any) -> int:
    """How many workers the scheduler knows now (0 when it does not answer)."""
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # noqa: BLE001 - a scheduler that is gone has no workers
        return 0


def _gather(
    client: Any, futures: list[Any], on_done: Callable[[Any], None], as_completed: Any
) -> None:
    """Call ``on_done(future)`` for each future as it finishes; raise :class:`WorkersGoneError`
    when the cluster has had no worker for :data:`WORKERS_GONE_SECONDS`."""
    pending = as_completed(futures)
    since: float | None = None  # when the cluster was last seen without a worker
    last_look = 0.0
    while not pending.is_empty():
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
    client, cluster, own = open_client(scheduler, workers)
    stopped = False
    try:
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

        _gather(client, [f for _, f in by_key.values()], done, as_completed)
    except (KeyboardInterrupt, WorkersGoneError):
        stopped = True
        _quiet_distributed()
        raise
    finally:
        close_client(client, cluster, own, quiet=stopped)


def open_client(scheduler: object, workers: int | None) -> tuple[Any, Any, bool]:
    """``(client, cluster, own)`` for ``scheduler``: a ``distributed.Client`` as it is
    (``own`` False: the caller's to close), ``"local"`` (a LocalCluster of ``workers``
    processes, default one a CPU, one thread each, deaf to the terminal's Ctrl-C) or a
    ``tcp://`` address (:func:`connect`)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ToypokerError(DASK_HINT) from None
    if hasattr(scheduler, "submit"):
        return scheduler, None, False
    if scheduler in ("local", "processes"):
        n = workers or os.cpu_count() or 1
        with _workers_deaf_to_sigint(), warnings.catch_warnings():
            # "Port 8787 is already in use": its HTTP endpoints then take another port
            warnings.filterwarnings("ignore", "Port .* is already in use", UserWarning)
            cluster = LocalCluster(
                n_workers=n, processes=True, threads_per_worker=1, dashboard_address=None,
                silence_logs=logging.ERROR,
            )  # fmt: skip
        return Client(cluster), cluster, True
    return connect(Client, scheduler), None, True


def close_client(client: Any, cluster: Any, own: bool, quiet: bool = False) -> None:
    """Close what :func:`open_client` opened (``quiet``: after an interrupt or a lost
    worker, closing errors and distributed's logs are not the user's news)."""
    if quiet:
        _quiet_distributed()
    if own:
        _close(client, quiet=quiet)
    if cluster is not None:
        _close(cluster, quiet=quiet)


def _close(thing: Any, quiet: bool) -> None:
    """Close a client or cluster; after an interrupt or a lost cluster, whatever goes
    wrong while closing is not the user's news."""
    try:
        thing.close()
    except Exception:  # noqa: BLE001
        if not quiet:
            raise
