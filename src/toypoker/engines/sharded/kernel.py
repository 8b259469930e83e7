"""The vector kernel's CFR iteration sharded over Dask workers.

:func:`~toypoker.engines.vectors.subtrees.split` cuts the public tree into a *top* and public
subtrees that are independent given the reach vectors at their roots.  Here the
subtrees are dealt to :class:`Shard` actors, one a Dask worker, heaviest first to the
least loaded (:func:`deal`).  Each shard keeps its subtrees' state resident --
regrets, averages and strategy of the infosets below the cut, its reach and value
buffers -- between iterations.  The driver (:class:`ShardedKernel`) runs the top and,
for each player step of an iteration (as :func:`toypoker.engines.vectors.kernel._iteration`):

1. sends every shard the top's reach rows and the top's strategy (players x top nodes
   x hands numbers, and the top infosets' actions: small);
2. each shard runs :func:`~toypoker.engines.vectors.subtrees.sub_step` on its subtrees and
   returns the counterfactual values at their roots (subtrees x hands numbers);
3. the driver writes them under the cut and runs the top's step.

The arithmetic is the in-process kernel's, segment by segment in the same order, so
each iteration equals the in-process one (``tests/engines/test_sharded.py``, to 1e-12;
bit for bit in practice).  Between batches of iterations the shards' slices of the
state are gathered into the usual :class:`~toypoker.solvers.cfr.CFRState`, which the
solver checks, checkpoints and resumes as it does in process (on any cluster size).

The driver builds the game; the workers never do.  The driver cuts each shard's piece
-- the top and its subtrees, re-indexed (:func:`toypoker.engines.vectors.pieces.cut_piece`) --
one at a time and sends it to its worker (``Client.scatter``), where the
:class:`Shard` actor keeps it and makes its own work buffers.  A worker holds about
``1/k`` of the kernel's arrays and state at ``k`` shards, plus the top, and that is
its peak too (:func:`shard_bytes` counts it before anything is built;
``benchmarks/bench_sharded.py`` measures it).  The driver holds the whole game (it runs
the top, cuts the pieces, gathers the state and checks NashConv), and one piece beside
it while it sends that piece.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import time
from typing import Any

import numpy as np

from toypoker.dask_client import (
    close_client,
    open_client,
    quiet_client_logs,
    quiet_distributed,
)
from toypoker.engines.vectors.kernel import vector_kernel
from toypoker.engines.vectors.layout import VectorGame
from toypoker.engines.vectors.pieces import ShardPiece, cut_piece, segment_actions
from toypoker.engines.vectors.subtrees import deal as bins_of
from toypoker.engines.vectors.subtrees import sub_reach, sub_step, weights
from toypoker.errors import ToypokerError


def _workers(client: Any, wait: float = 30.0) -> list[str]:
    """The workers' addresses, asked of the scheduler (``Client.nthreads``); none yet:
    waited for up to ``wait`` seconds (a cluster that is starting or restarting one)."""
    workers = sorted(client.nthreads())
    if not workers and wait > 0:
        with contextlib.suppress(Exception):  # none came: the caller says so
            client.wait_for_workers(1, timeout=wait)
        workers = sorted(client.nthreads())
    return workers


def _scheduler_gone(client: Any) -> bool:
    """Whether ``client`` has lost its scheduler: its status is no longer ``running``, its
    connection to the scheduler is closed, or nothing listens at a ``tcp://`` scheduler's
    address any more (a killed scheduler: the client may not have noticed yet when a
    shard's call fails first)."""
    if getattr(client, "status", "running") != "running":
        return True
    comm = getattr(getattr(client, "scheduler_comm", None), "comm", None)
    closed = getattr(comm, "closed", None)
    try:
        if callable(closed) and closed():
            return True
    except Exception:  # noqa: BLE001 - a connection that cannot say is not one to trust
        return True
    address = getattr(getattr(client, "scheduler", None), "address", None)
    return isinstance(address, str) and not _listening(address)


def _scheduler_gone_soon(client: Any, wait: float = 3.0) -> bool:
    """:func:`_scheduler_gone`, asked again for up to ``wait`` seconds: a shard's call can
    fail an instant before the client sees its scheduler's connection close."""
    end = time.monotonic() + wait
    while not _scheduler_gone(client):
        if time.monotonic() >= end:
            return False
        time.sleep(0.2)
    return True


def _listening(address: str, timeout: float = 2.0) -> bool:
    """Whether a ``tcp://host:port`` address accepts a connection (other addresses: assumed
    so; nothing is sent)."""
    if not address.startswith("tcp://"):
        return True
    host, _, port = address[len("tcp://") :].rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            return True
    except (OSError, ValueError):
        return False


class ShardLostError(ToypokerError):
    """A Dask worker holding a shard was lost, or its shard failed, mid-run."""


def deal(weight: np.ndarray, k: int) -> list[np.ndarray]:
    """Subtrees (0-based) for ``k`` shards: heaviest first to the least loaded
    (:func:`toypoker.engines.vectors.subtrees.deal`, as the threads' bins), each shard's list in
    ascending order.

    Examples
    --------
    >>> [s.tolist() for s in deal(np.array([5, 1, 4, 2]), 2)]
    [[0, 1], [2, 3]]
    """
    return [np.sort(b) for b in bins_of(weight, k)]


class Shard:
    """One worker's subtrees (a Dask actor): the piece of the game that runs them
    (:func:`~toypoker.engines.vectors.pieces.cut_piece`, cut and sent by the driver as
    :meth:`~toypoker.engines.vectors.pieces.ShardPiece.payload`), and the state of the piece's flat
    actions, kept between calls.  The worker never builds the game.
    """

    def __init__(self, payload: dict[str, Any]):
        self.piece = ShardPiece.from_payload(payload)
        n_sigma = self.piece.n_sigma
        self.sigma, self.regrets, self.average = (np.zeros(n_sigma) for _ in range(3))
        self.segments = np.arange(1, len(self.piece.roots_at) + 1, dtype=np.int64)

    def version(self) -> str:
        """The toypoker version this worker runs (the driver's must be the same: the
        piece's arrays are laid out for its compiled segment functions)."""
        return _version()

    def nbytes(self) -> int:
        """The bytes this shard's arrays hold (its piece and its state)."""
        return self.piece.nbytes() + 3 * self.sigma.nbytes

    def load(self, sigma: np.ndarray, regrets: np.ndarray, average: np.ndarray) -> int:
        """Set the state of this shard's subtrees' actions (in ascending order of their
        ids in the whole game)."""
        at = self.piece.mine_at
        self.sigma[at], self.regrets[at], self.average[at] = sigma, regrets, average
        return len(at)

    def state(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """This shard's slices of the strategy, regrets and average (as :meth:`load`)."""
        at = self.piece.mine_at
        return self.sigma[at], self.regrets[at], self.average[at]

    def step(
        self, reach_of: int, values_of: int, update_of: int, top_reach: np.ndarray,
        top_sigma: np.ndarray, weight: float, rule: np.ndarray,
    ) -> np.ndarray | None:  # fmt: skip
        """One player step on this shard's subtrees (the arguments of
        :func:`~toypoker.engines.vectors.subtrees.sub_step`), from the top's reach rows and
        strategy; the counterfactual values at the subtrees' roots when ``values_of >=
        0``."""
        c = self.piece
        reach, cfv, inst = c.work
        reach[:, c.top_nodes_at, :] = top_reach
        self.sigma[c.top_actions_at] = top_sigma
        a = (self.sigma, self.regrets, self.average, inst, float(weight), rule, c.tree, c.terms,
             c.parts, c.infos, reach, cfv, c.sizes)  # fmt: skip
        for s in self.segments:
            sub_step(s, reach_of, values_of, update_of, *a)
        return cfv[c.roots_at].copy() if values_of >= 0 else None


#: Bytes a hand entry takes in a shard: the kernel's arrays and the CFR state (regrets,
#: averages, strategy), rounded up from what ``benchmarks/bench_sharded.py`` measures
#: (``docs/howto/clusters.md``, "Sizing a cluster", gives the run)
SHARD_BYTES_PER_ENTRY = 32


def _version() -> str:
    """``toypoker.__version__`` (the package is loaded: this module is part of it)."""
    return str(getattr(sys.modules.get("toypoker"), "__version__", "?"))


def shard_bytes(spec: str, shards: int) -> int | None:
    """Bytes one of ``shards`` workers holds for its piece (sent by the driver) and its
    CFR state: ``1/shards`` of the game's hand entries at :data:`SHARD_BYTES_PER_ENTRY`
    each (the part above the cut, which every piece holds, is a small top of the tree:
    not counted), besides the worker process itself (Python, numba and Dask; the
    measured peaks are in ``docs/howto/clusters.md``); counted before anything is
    built, ``None`` where the spec is not counted.

    Examples
    --------
    >>> round(shard_bytes("rhode_island", 2) / 2**20)
    534
    """
    from toypoker.engines.choice import vector_count  # the layouts package imports this module

    counted = vector_count(spec)
    if counted is None:
        return None
    return -(-counted.entries * SHARD_BYTES_PER_ENTRY // max(1, shards))


class ShardedKernel:
    """The driver of a sharded solve: :meth:`iterations` has the effect of the same
    number of :meth:`~toypoker.engines.vectors.kernel.VectorKernel.iteration` calls on the
    state arrays.

    Parameters
    ----------
    vg
        The game on hand vectors (the driver's copy: it runs the top, cuts the shards'
        pieces and checks).
    client
        A ``distributed.Client``; one shard a worker, pinned to it.
    shards
        How many shards (default: one a worker; at most the subtree count).
    """

    def __init__(self, vg: VectorGame, client: Any, shards: int | None = None):
        k = vector_kernel(vg)
        if k is None:
            raise ToypokerError(f"{vg.game.spec}: no fused kernel on hand vectors to shard")
        self.kernel = k
        self.payoff_scale = k.payoff_scale
        workers = _workers(client)
        if not workers:
            raise ToypokerError("the dask cluster has no worker")
        seg = k.parts[1]
        weight = weights(k.parts)
        n = min(shards or len(workers), len(weight))
        self.subtrees = deal(weight, n)
        self.workers = [workers[i % len(workers)] for i in range(n)]
        self.actors = []
        self.sent_at_start = 0  # the pieces' bytes (their arrays; the work buffers are made there)
        for i in range(n):  # one piece at a time: the driver holds one beside the game
            piece = cut_piece(k, self.subtrees[i], work=False)
            self.sent_at_start += piece.nbytes() - sum(a.nbytes for a in piece.work)
            try:
                # one object under a fresh key (a dict scattered alone would be scattered
                # key by key, under its own keys: the same for every shard)
                (sent,) = client.scatter(
                    [piece.payload()], workers=[self.workers[i]], direct=True, hash=False
                )
                del piece
                self.actors.append(
                    client.submit(
                        Shard, sent, actor=True, workers=[self.workers[i]],
                        allow_other_workers=False, pure=False,
                    ).result()
                )  # fmt: skip
            except ToypokerError:
                raise
            except Exception as exc:  # noqa: BLE001 - a worker that cannot take its piece
                raise self._lost(i, "start", exc) from None
            del sent  # the actor holds the arrays; the worker's copy of the payload goes
        self.bytes_moved = 0  # in the iterations' exchanges and the state's loads and gathers
        mine = _version()
        for i, theirs in enumerate(self._calls("version", ())):
            if theirs != mine:
                raise ToypokerError(
                    f"shard {i} on {self.workers[i]} runs toypoker {theirs}, this process "
                    f"{mine}: install the same version on the workers"
                )
        self.mine = [segment_actions(k, s + 1) for s in self.subtrees]
        self.top_actions = segment_actions(k, np.zeros(1, dtype=np.int64))
        order = k.parts[0]
        self.top_nodes = order[seg[0] : seg[1]]
        self.roots = [order[seg[s + 1]] for s in self.subtrees]
        # the whole state as last gathered: what the shards hold (a batch from it sends none)
        self.held: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.owner: tuple[Any, Any, bool] = (client, None, False)  # what close() closes

    def close(self, quiet: bool = False) -> None:
        """Release the shards; close the client and cluster if :func:`start` opened them."""
        self.actors = []
        client, cluster, own = self.owner
        close_client(client, cluster, own, quiet=quiet)

    def _lost(self, i: int, what: str, exc: BaseException) -> ShardLostError:
        """The one line for shard ``i`` failing at ``what`` -- or for the scheduler, when it
        is the scheduler that went away (then no worker is blamed)."""
        quiet_distributed()  # what distributed logs of the loss is not the user's news
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
        if _scheduler_gone_soon(self.owner[0]):
            address = getattr(self.owner[0], "scheduler", None)
            address = getattr(address, "address", None) or "its address"
            return ShardLostError(
                f"the dask scheduler at {address} went away mid-run ({what}: {reason}); "
                "resume from the last checkpoint"
            )
        return ShardLostError(
            f"shard {i} on dask worker {self.workers[i]} failed ({what}): {reason}; "
            "resume from the last checkpoint"
        )

    def _calls(self, what: str, *args_of: tuple) -> list[Any]:
        """Call method ``what`` of every shard at once (shard ``i`` with ``args_of[i]``, or
        all with ``args_of[0]``); their answers, or one line naming a failed shard."""
        futures = []
        for i, actor in enumerate(self.actors):
            try:
                futures.append(getattr(actor, what)(*args_of[i if len(args_of) > 1 else 0]))
            except Exception as exc:  # noqa: BLE001 - a shard whose worker is gone
                raise self._lost(i, what, exc) from None
        answers = []
        for i, future in enumerate(futures):
            try:
                answers.append(future.result())
            except ToypokerError:
                raise
            except Exception as exc:  # noqa: BLE001 - any failure of a remote shard
                raise self._lost(i, what, exc) from None
        return answers

    def check_workers(self) -> None:
        """One line if a shard's worker has left the cluster (checked before a batch: a
        call to a dead worker would first wait for dask's connect timeout)."""
        try:
            alive = set(_workers(self.owner[0], wait=0.0))
        except Exception as exc:  # noqa: BLE001 - the scheduler itself is gone
            raise self._lost(0, "check", exc) from None
        for i, w in enumerate(self.workers):
            if w not in alive:
                raise self._lost(i, "check", RuntimeError("its worker left the cluster"))

    def _count(self, *arrays: np.ndarray | None) -> None:
        self.bytes_moved += sum(a.nbytes for a in arrays if a is not None)

    def _remote(self, reach_of: int, values_of: int, update_of: int, sigma: np.ndarray,
                weight: float, rule: np.ndarray) -> None:  # fmt: skip
        """A player step on every shard, then their root values under the cut."""
        reach, cfv, _ = self.kernel.work
        top_reach = reach[:, self.top_nodes, :]
        top_sigma = sigma[self.top_actions]
        answers = self._calls(
            "step", (reach_of, values_of, update_of, top_reach, top_sigma, weight, rule)
        )
        self._count(*([top_reach, top_sigma] * len(answers)))
        for roots, values in zip(self.roots, answers, strict=True):
            if values is not None:
                cfv[roots] = values
                self._count(values)

    def load(self, sigma: np.ndarray, regrets: np.ndarray, average: np.ndarray) -> None:
        """Send each shard its slices of the state."""
        self._calls("load", *((sigma[m], regrets[m], average[m]) for m in self.mine))
        self._count(*(x for m in self.mine for x in (sigma[m], regrets[m], average[m])))

    def gather(self, sigma: np.ndarray, regrets: np.ndarray, average: np.ndarray) -> None:
        """Write the shards' slices of the state into the arrays."""
        for m, (s, r, a) in zip(self.mine, self._calls("state", ()), strict=True):
            sigma[m], regrets[m], average[m] = s, r, a
            self._count(s, r, a)

    def iteration(self, sigma: np.ndarray, regrets: np.ndarray, average: np.ndarray,
                  **schedule: float) -> np.ndarray:  # fmt: skip
        """One iteration: the shards hold the state below the cut (:meth:`load` first,
        :meth:`gather` after), the arrays the top's.  As ``_iteration``, step by step."""
        k = self.kernel
        reach, cfv, inst = k.work
        n = reach.shape[0]
        weight, rule = float(schedule["weight"]), k.rule(schedule)
        alternating = bool(schedule["alternating"])
        a = (sigma, regrets, average, inst, weight, rule, k.tree, k.terms, k.parts, k.infos,
             reach, cfv, k.sizes)  # fmt: skip
        for p in range(n):
            sub_reach(0, p, sigma, k.tree, k.parts, reach[p])
        for p in range(n):
            if alternating:
                self._remote(-1 if p == 0 else p - 1, p, p, sigma, weight, rule)
                sub_step(0, -2, p, p, *a)
            else:
                self._remote(-1 if p == 0 else -2, p, -2, sigma, weight, rule)
                sub_step(0, -2, p, -2, *a)
            k.values[p] = sum(cfv[0].tolist(), 0.0)  # in order, as _root_value
            if alternating and p + 1 < n:
                sub_reach(0, p, sigma, k.tree, k.parts, reach[p])
        if not alternating:
            self._remote(-2, -1, -1, sigma, weight, rule)
            sub_step(0, -2, -1, -1, *a)
        return k.values

    def iterations(self, sigma: np.ndarray, regrets: np.ndarray, average: np.ndarray,
                   schedules: list[dict[str, float]]) -> None:  # fmt: skip
        """The iterations of ``schedules`` in place on the whole state: the slices below
        the cut sent to the shards (unless they hold them already: the state is the one
        last gathered), the iterations run, the slices gathered back."""
        self.check_workers()
        held = self.held
        if held is None or not all(np.array_equal(x, h) for x, h in
                                   zip((sigma, regrets, average), held, strict=True)):  # fmt: skip
            self.load(sigma, regrets, average)  # else the shards hold this state already
        for schedule in schedules:
            self.iteration(sigma, regrets, average, **schedule)
        self.gather(sigma, regrets, average)
        self.held = (sigma.copy(), regrets.copy(), average.copy())


def start(vg: VectorGame, cluster: object, workers: int | None = None) -> ShardedKernel:
    """A :class:`ShardedKernel` of ``vg`` on ``cluster``: a ``distributed.Client``,
    ``"local"`` (a LocalCluster of ``workers`` processes; default one a CPU) or a
    ``tcp://`` scheduler address (:func:`toypoker.dask_client.open_client`).  One shard
    a worker (``workers`` of them at most on a given cluster)."""
    # no Dask memory limit on a LocalCluster: the shards' arrays live in actors, which
    # Dask cannot spill, so a limit could only pause or restart a worker mid-run
    client, own_cluster, own = open_client(cluster, workers, memory_limit=0)
    # a lost scheduler is reported in one line (ShardedKernel._lost): the client's own
    # reconnection tracebacks are not the user's news
    quiet_client_logs()
    try:
        kernel = ShardedKernel(vg, client, workers)
    except BaseException:
        close_client(client, own_cluster, own, quiet=True)
        raise
    kernel.owner = (client, own_cluster, own)
    return kernel
