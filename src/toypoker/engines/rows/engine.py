"""The deal table as an engine (:class:`~toypoker.engines.protocol.Engine`).

Every method runs here, exact ones included: the registry's steps read the compiled
rows (:mod:`toypoker.engines.rows.values` for exact numbers, the fused kernels of
:mod:`toypoker.engines.rows` for floats).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from toypoker.engines import hand_vectors
from toypoker.engines.choice import row_count
from toypoker.engines.protocol import (
    BestResponse,
    Engine,
    Evaluation,
    PlayerRegrets,
    SequenceFormData,
)
from toypoker.engines.rows import CFRKernel, KernelEvaluation, kernel_evaluate, kernel_for
from toypoker.engines.rows import values as R
from toypoker.engines.rows.mccfr import traversals
from toypoker.engines.rows.regrets import player_regrets
from toypoker.engines.rows.responses import RowsResponses
from toypoker.engines.rows.sequence_form import exact_payoffs, rows_sequence_form
from toypoker.engines.vectors.regrets import sampled_regrets
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.profile import Profile
from toypoker.solvers.base import Method
from toypoker.solvers.registry import get_method


@dataclass(frozen=True, eq=False)
class RowsEngine:
    """The deal table of ``game``: one row a (public node, deal) pair."""

    game: Game
    name: str = "rows"
    provides: frozenset[str] = frozenset({"deals", "exact"})  # the deals, and Fractions
    first_check: int = 1
    checks_per_decade: int = 25  # a check costs about one iteration here

    @classmethod
    def on(cls, game: Game) -> RowsEngine:
        """The engine of ``game``, built on the deal table (its engine data)."""
        return cls(game)

    def runs(self, method: str) -> bool:
        return get_method(method).needs <= self.provides

    def method(self, method: str) -> Method:
        return get_method(method)  # every need is provided here (runs)

    def evaluate(self, profile: Profile) -> Evaluation:
        return R.evaluate(self.game, profile)

    def nash_conv(self, profile: Profile) -> object:
        return R.nash_conv(self.game, profile)

    def best_response(self, profile: Profile, player: int | tuple[int, ...]) -> BestResponse:
        return R.best_response(self.game, profile.probs, player)

    def regrets(self, sigma: np.ndarray, group: list[int]) -> list[PlayerRegrets]:
        return player_regrets(self.game, sigma, group)

    def sampled_regrets(
        self, sigma: np.ndarray, group: list[int], rng: np.random.Generator, restrict: bool
    ) -> list[PlayerRegrets]:
        # public chance sampling keeps whole hand vectors: the game's, compiled once
        return sampled_regrets(hand_vectors(self.game), sigma, group, rng, restrict)

    def mccfr_iterations(self, kind: int, fused: bool = True) -> Callable[..., None]:
        return traversals(self.game, kind, fused)

    def cfr_kernel(self) -> CFRKernel:
        return kernel_for(self.game)  # the calling thread's, prepared once a game

    def fp_responses(self, fused: bool = True) -> RowsResponses:
        return RowsResponses(self.game, fused)

    def sequence_form(self) -> SequenceFormData:
        form = rows_sequence_form(self.game)
        return SequenceFormData(form, lambda: exact_payoffs(self.game, form), self.evaluate)

    def memory_bytes(self) -> int | None:
        counted = row_count(self.game.spec)
        return None if counted is None else counted.row_bytes

    def check(self, probs: np.ndarray) -> tuple[float, float]:
        ev = self._output(probs)
        return float(ev.nash_conv), float(max(ev.gains))

    def summary(self, probs: np.ndarray) -> dict[str, object]:
        ev = self._output(probs)
        return {
            "profile": Profile(self.game, probs, validate=False),
            "values": tuple(float(x) for x in ev.values),
            "gains": tuple(float(x) for x in ev.gains),
            "nash_conv": float(ev.nash_conv),
        }

    def _output(self, probs: np.ndarray) -> Evaluation | KernelEvaluation:
        """A method's output evaluated: exactly for Fractions (the numpy passes), else by
        the fused best-response kernel (one compiled call, the calling thread's kernel)."""
        if probs.dtype == object:
            return R.evaluate(self.game, Profile(self.game, probs, validate=False))
        return kernel_evaluate(kernel_for(self.game), np.ascontiguousarray(probs, dtype=np.float64))

    def shard(self, options: object, cluster: object, workers: int | None) -> Engine:
        raise ToypokerError(
            f"cluster= shards the CFR family's fused kernel on hand vectors; {self.game.spec} "
            "is on the deal table and runs in process"
        )
