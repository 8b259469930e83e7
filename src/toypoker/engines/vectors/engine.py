"""Hand vectors on the public tree as an engine (:class:`~toypoker.engines.protocol.Engine`).

The CFR family, fictitious play, public-chance-sampling CFR+ and the sequence-form LP
have steps here (:mod:`toypoker.engines.vectors.methods`); a method that samples or
enumerates joint deals is refused in one line (the solvers then take the deal table,
:func:`toypoker.engines.rows_of`, when it fits).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from toypoker.engines.choice import vector_bytes, vector_count
from toypoker.engines.evaluation import best_response, evaluate, nash_conv, vector_evaluate
from toypoker.engines.protocol import BestResponse, Evaluation, PlayerRegrets, SequenceFormData
from toypoker.engines.sharded.engine import ShardedEngine
from toypoker.engines.vectors.layout import VectorGame
from toypoker.engines.vectors.methods import PROVIDES, runs_on_vectors, vector_method
from toypoker.engines.vectors.regrets import cfr_kernel, player_regrets, sampled_regrets
from toypoker.engines.vectors.responses import VectorLayout
from toypoker.engines.vectors.sequence_form import sequence_form_data as vectors_sequence_form
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.profile import Profile
from toypoker.solvers.base import Method


@dataclass(frozen=True, eq=False)
class VectorsEngine:
    """The hand vectors ``vectors`` of ``game`` (:class:`VectorGame`)."""

    game: Game
    vectors: VectorGame
    name: str = "vectors"
    provides: frozenset[str] = PROVIDES  # no deals: what reads them takes the deal table
    first_check: int = 50
    checks_per_decade: int = 5  # a check costs about two iterations of the fused kernel

    @classmethod
    def on(cls, game: Game) -> VectorsEngine:
        """The engine of ``game``, built on hand vectors (its engine data holds them)."""
        return cls(game, game.engine_data.vectors)

    def runs(self, method: str) -> bool:
        return runs_on_vectors(method)

    def method(self, method: str) -> Method:
        return vector_method(self.vectors, method)

    def evaluate(self, profile: Profile) -> Evaluation:
        return evaluate(self.game, profile)

    def nash_conv(self, profile: Profile) -> object:
        return nash_conv(self.game, profile)

    def best_response(self, profile: Profile, player: int | tuple[int, ...]) -> BestResponse:
        return best_response(self.game, profile, player)

    def regrets(self, sigma: np.ndarray, group: list[int]) -> list[PlayerRegrets]:
        return player_regrets(self.vectors, sigma, group)

    def sampled_regrets(
        self, sigma: np.ndarray, group: list[int], rng: np.random.Generator, restrict: bool
    ) -> list[PlayerRegrets]:
        return sampled_regrets(self.vectors, sigma, group, rng, restrict)

    def mccfr_iterations(self, kind: int, fused: bool = True) -> Callable[..., None]:
        raise ToypokerError(
            f"deal-sampling MCCFR reads the table of joint deals; {self.game.spec} is on "
            "hand vectors (load it with layout='rows')"
        )

    def cfr_kernel(self) -> object | None:
        return cfr_kernel(self.vectors)

    def fp_responses(self, fused: bool = True) -> VectorLayout:
        return VectorLayout(self.vectors, fused)

    def sequence_form(self) -> SequenceFormData:
        return vectors_sequence_form(self.vectors)

    def memory_bytes(self) -> int | None:
        counted = vector_count(self.game.spec)
        return None if counted is None else vector_bytes(self.game.spec, counted)

    def check(self, probs: np.ndarray) -> tuple[float, float]:
        vev = vector_evaluate(self.vectors, np.ascontiguousarray(probs, dtype=np.float64))
        return vev.nash_conv, max(vev.gains)

    def summary(self, probs: np.ndarray) -> dict[str, object]:
        vev = vector_evaluate(self.vectors, np.ascontiguousarray(probs, dtype=np.float64))
        return {
            "profile": Profile(self.game, probs, validate=False),
            "values": vev.values,
            "gains": vev.gains,
            "nash_conv": vev.nash_conv,
        }

    def shard(self, options: object, cluster: object, workers: int | None) -> ShardedEngine:
        return ShardedEngine.start(self, self.vectors, options, cluster, workers)
