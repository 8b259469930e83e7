"""The sharded run as an engine (:class:`~toypoker.engines.protocol.Engine`): the hand
vectors' engine with the CFR family's fused iteration on Dask workers.

Everything but the iteration is the wrapped engine's (evaluations, checks, regrets);
the CFR family's steps are :func:`toypoker.solvers.cfr.engine_steps` on this engine, so
its :meth:`~ShardedEngine.cfr_kernel` -- the driver of the shards,
:class:`~toypoker.engines.sharded.kernel.ShardedKernel` -- runs each batch, with the same
iterates as in process (``tests/engines/test_sharded.py``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from toypoker.engines.protocol import (
    BestResponse,
    Engine,
    Evaluation,
    PlayerRegrets,
    SequenceFormData,
)
from toypoker.engines.sharded.kernel import ShardedKernel, start
from toypoker.engines.vectors.layout import VectorGame
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.profile import Profile
from toypoker.solvers.base import Method
from toypoker.solvers.cfr import Backend, CFROptions, engine_steps
from toypoker.solvers.registry import get_method


@dataclass(frozen=True, eq=False)
class ShardedEngine:
    """``inner`` (hand vectors) with its CFR iteration on the shards of ``kernel``."""

    inner: Engine
    kernel: ShardedKernel
    name: str = "sharded"

    @classmethod
    def start(
        cls,
        inner: Engine,
        vectors: VectorGame,
        options: object,
        cluster: object,
        workers: int | None,
    ) -> ShardedEngine:
        """Shard the fused CFR kernel of ``inner`` (the engine of the hand vectors
        ``vectors``) over ``cluster``'s workers (see
        :func:`toypoker.engines.sharded.kernel.start`), or refuse in one line: only the
        CFR family's fused kernel is sharded."""
        cfr = isinstance(options, CFROptions) and options.backend is Backend.NUMBA
        if not cfr or inner.cfr_kernel() is None:
            raise ToypokerError(
                "cluster= shards the CFR family's fused kernel on hand vectors; this method "
                f"on {inner.game.spec} runs in process"
            )
        return cls(inner, start(vectors, cluster, workers))

    def close(self, quiet: bool = False) -> None:
        """Release the shards (closing the cluster :meth:`start` opened)."""
        self.kernel.close(quiet=quiet)

    @property
    def game(self) -> Game:
        return self.inner.game

    @property
    def provides(self) -> frozenset[str]:
        return self.inner.provides

    @property
    def first_check(self) -> int:
        return self.inner.first_check

    @property
    def checks_per_decade(self) -> int:
        return self.inner.checks_per_decade

    def runs(self, method: str) -> bool:
        """The CFR family's methods that ``inner`` runs (what the shards iterate)."""
        return self.inner.runs(method) and isinstance(get_method(method).defaults, CFROptions)

    def method(self, method: str) -> Method:
        """``inner``'s method with its steps on this engine (the shards' kernel)."""
        if not self.runs(method):
            raise ToypokerError(f"{method} does not run sharded: cluster= runs the CFR family")
        many = partial(engine_steps, self)
        return dataclasses.replace(
            self.inner.method(method),
            step=lambda game, state, options: many(game, state, options, 1),
            step_many=many,
        )

    def evaluate(self, profile: Profile) -> Evaluation:
        return self.inner.evaluate(profile)

    def nash_conv(self, profile: Profile) -> object:
        return self.inner.nash_conv(profile)

    def best_response(self, profile: Profile, player: int | tuple[int, ...]) -> BestResponse:
        return self.inner.best_response(profile, player)  # type: ignore[arg-type]

    def regrets(self, sigma: np.ndarray, group: list[int]) -> list[PlayerRegrets]:
        return self.inner.regrets(sigma, group)

    def sampled_regrets(
        self, sigma: np.ndarray, group: list[int], rng: np.random.Generator, restrict: bool
    ) -> list[PlayerRegrets]:
        return self.inner.sampled_regrets(sigma, group, rng, restrict)

    def mccfr_iterations(self, kind: int, fused: bool = True) -> Callable[..., None]:
        return self.inner.mccfr_iterations(kind, fused)  # refused there: no deals

    def cfr_kernel(self) -> ShardedKernel:
        return self.kernel

    def fp_responses(self, fused: bool = True) -> object:
        return self.inner.fp_responses(fused)

    def sequence_form(self) -> SequenceFormData:
        return self.inner.sequence_form()

    def memory_bytes(self) -> int | None:
        return self.inner.memory_bytes()  # the driver's: it holds the whole game

    def check(self, probs: np.ndarray) -> tuple[float, float]:
        return self.inner.check(probs)

    def summary(self, probs: np.ndarray) -> dict[str, object]:
        return self.inner.summary(probs)

    def shard(self, options: object, cluster: object, workers: int | None) -> ShardedEngine:
        raise ToypokerError("this run is sharded already: one cluster= a run")
