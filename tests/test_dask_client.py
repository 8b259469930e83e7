"""toypoker's Dask clients (:mod:`toypoker.dask_client`): what their workers print."""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap

import pytest

from toypoker.dask_client import dask_setup

pytest.importorskip("distributed")

# A worker of toypoker's LocalCluster whose heartbeat finds the scheduler's connection
# closed (what happens when the cluster is closed while a heartbeat is in flight: CI's
# run of the sweeps page printed distributed's two-exception traceback after the
# sweep's last line).  The race is forced: the worker's heartbeat call raises the
# CommClosedError that a closed stream raises, then the cluster is closed.
_LOST_HEARTBEAT = textwrap.dedent(
    """
    from toypoker.dask_client import close_client, open_client

    async def heartbeat_to_a_closed_scheduler(dask_worker):
        from distributed.comm.core import CommClosedError

        async def closed(**_):
            raise CommClosedError("in <TCP (closed) heartbeat_worker>: Stream is closed")

        dask_worker.scheduler.heartbeat_worker = closed
        await dask_worker.heartbeat()

    client, cluster, own = open_client("local", 1)
    client.run(heartbeat_to_a_closed_scheduler)
    close_client(client, cluster, own)
    print("closed")
    """
)


@pytest.mark.slow  # a LocalCluster in a process of its own
def test_a_heartbeat_lost_to_the_closing_scheduler_prints_no_traceback():
    proc = subprocess.run(
        [sys.executable, "-c", _LOST_HEARTBEAT], capture_output=True, text=True, timeout=180
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "closed", proc.stderr
    assert "Traceback" not in proc.stderr and "heartbeat" not in proc.stderr, proc.stderr


def test_the_worker_filter_drops_only_the_heartbeat_loss():
    dask_setup(None)
    dask_setup(None)  # twice (a restarted worker): one filter
    log = logging.getLogger("distributed.worker")
    ours = [f for f in log.filters if getattr(f, "__module__", "") == "toypoker.dask_client"]
    assert len(ours) == 1

    def record(msg: str) -> logging.LogRecord:
        return logging.LogRecord("distributed.worker", logging.ERROR, __file__, 1, msg, None, None)

    assert not log.filter(record("Failed to communicate with scheduler during heartbeat."))
    assert log.filter(record("Compute Failed"))
    assert log.filter(record("Unexpected exception during heartbeat. Closing worker."))
