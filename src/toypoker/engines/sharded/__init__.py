"""The sharded run: hand vectors' CFR iteration spread over Dask workers.

The third engine (:class:`~toypoker.engines.sharded.engine.ShardedEngine`), wrapping
the hand vectors' one (:mod:`toypoker.engines.vectors`): its public subtrees live on the
workers (:mod:`.kernel`, the driver and the shards), everything else is the vectors
engine's.  Unlike the deal table and hand vectors it is not a game's but a run's -- it
holds workers -- so it is not kept with the game: ``Engine.shard(options, cluster,
workers)`` starts one for a run (``tp.solve(..., cluster=...)``), and the run closes it.
"""

from toypoker.engines.sharded.kernel import (
    Shard,
    ShardedKernel,
    ShardLostError,
    deal,
    shard_bytes,
    start,
)

__all__ = ["Shard", "ShardLostError", "ShardedKernel", "deal", "shard_bytes", "start"]
