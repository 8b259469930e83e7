"""Dask clients for toypoker: a LocalCluster deaf to the terminal's Ctrl-C, a ``tcp://``
scheduler reached in one line or refused in one, and closing that keeps distributed's
shutdown chatter off the user's terminal.  Used by sweeps (:mod:`toypoker.sweeps.cluster`)
and sharded solves (:mod:`toypoker.engines.sharded`)."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from toypoker.errors import ToypokerError

DASK_HINT = (
    'a Dask cluster (sweeps, sharded solves) needs dask.distributed: pip install "toypoker[dask]"'
)

SCHEDULER_TIMEOUT = 20.0
"""Seconds a ``tcp://`` scheduler has to connect and answer dask's handshake."""


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

_HEARTBEAT_LOST = "Failed to communicate with scheduler during heartbeat"


def _not_a_closing_heartbeat(record: logging.LogRecord) -> bool:
    """False for a worker's report that its heartbeat found the scheduler's connection
    closed: in toypoker's own LocalCluster the scheduler lives in toypoker's process,
    so it is closed on purpose (the cluster is being closed: a heartbeat in flight
    then prints a two-exception traceback after the command's last line)."""
    return not record.getMessage().startswith(_HEARTBEAT_LOST)


def dask_setup(worker: object) -> None:
    """Run by each worker of :func:`open_client`'s LocalCluster as it starts (Dask's
    ``preload`` of this module): its heartbeat's loss of the scheduler at shutdown is
    not logged.  Every other worker log is left as it is."""
    del worker  # Dask passes the worker; the filter is the process's logger's
    log = logging.getLogger("distributed.worker")
    if _not_a_closing_heartbeat not in log.filters:
        log.addFilter(_not_a_closing_heartbeat)


def quiet_distributed() -> None:
    """From now on distributed (and the event loop under it) logs nothing: the cluster is
    being stopped on purpose, and what its nanny and workers say about it is noise."""
    for name in _DISTRIBUTED_LOGGERS:
        log = logging.getLogger(name)
        log.setLevel(logging.CRITICAL + 1)
        log.propagate = False


def quiet_client_logs() -> None:
    """From now on the client's logger (``distributed.client``) logs nothing: its
    reconnection attempts after a lost scheduler print tracebacks, while the caller
    reports the loss in one line.  Workers and schedulers log as before."""
    log = logging.getLogger("distributed.client")
    log.setLevel(logging.CRITICAL + 1)
    log.propagate = False


def machine_cpus() -> int:
    """The CPUs this process may run on (its affinity, else the machine's count)."""
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, int(n or 1))


def local_workers(workers: int | None, name: str = "workers") -> int:
    """The worker processes of a LocalCluster: ``workers``, or one a CPU when not given;
    more than the machine's CPUs refused in one line (``--workers 1000`` on two cores
    started a thousand processes: tracebacks, hundreds of "interrupted" lines)."""
    cpus = machine_cpus()
    if workers is None:
        return cpus
    if workers > cpus:
        raise ToypokerError(
            f"{name} {workers}: a local cluster runs one worker process a CPU and this "
            f"machine has {cpus}; give at most {cpus} (or a tcp:// scheduler for more)"
        )
    return workers


def open_client(
    scheduler: object, workers: int | None, memory_limit: str | int = "auto"
) -> tuple[Any, Any, bool]:
    """``(client, cluster, own)`` for ``scheduler``: a ``distributed.Client`` as it is
    (``own`` False: the caller's to close), ``"local"`` (a LocalCluster of ``workers``
    processes, default one a CPU, one thread each, deaf to the terminal's Ctrl-C, each
    with Dask's ``memory_limit``: ``"auto"`` shares the machine's memory out, 0 sets
    none) or a ``tcp://`` address (:func:`connect`)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ToypokerError(DASK_HINT) from None
    if hasattr(scheduler, "submit"):
        return scheduler, None, False
    if scheduler in ("local", "processes"):
        n = local_workers(workers)
        with _workers_deaf_to_sigint(), warnings.catch_warnings():
            # "Port 8787 is already in use": its HTTP endpoints then take another port
            warnings.filterwarnings("ignore", "Port .* is already in use", UserWarning)
            cluster = LocalCluster(
                n_workers=n, processes=True, threads_per_worker=1, dashboard_address=None,
                silence_logs=logging.ERROR, memory_limit=memory_limit,
                preload=[__name__],  # dask_setup: no heartbeat traceback at shutdown
            )  # fmt: skip
        return Client(cluster), cluster, True
    return connect(Client, scheduler), None, True


def close_client(client: Any, cluster: Any, own: bool, quiet: bool = False) -> None:
    """Close what :func:`open_client` opened (``quiet``: after an interrupt or a lost
    worker, closing errors and distributed's logs are not the user's news)."""
    if quiet:
        quiet_distributed()
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
