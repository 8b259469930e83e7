"""The reference engine (:class:`~toypoker.engines.protocol.Engine`): the CFR family's
numpy traversal, fictitious play's numpy best responses, MCCFR's plain-Python
traversals and the numpy evaluations, on the layout below; the exact methods run as
the layout below runs them (in rationals)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from toypoker.engines.evaluation import evaluate, vector_of
from toypoker.engines.protocol import (
    BestResponse,
    Engine,
    Evaluation,
    PlayerRegrets,
    SequenceFormData,
)
from toypoker.engines.rows import values as R
from toypoker.engines.vectors import values as V
from toypoker.errors import ToypokerError
from toypoker.game import Game
from toypoker.profile import Profile
from toypoker.solvers import mccfr
from toypoker.solvers.base import Method
from toypoker.solvers.cfr import Backend, CFROptions
from toypoker.solvers.fictitious import FPOptions, layout_init, layout_step
from toypoker.solvers.mccfr import ESOptions, OSOptions
from toypoker.solvers.options import Sampling


@dataclass(frozen=True, eq=False)
class ReferenceEngine:
    """The numpy passes on the layout of ``inner`` (the engine ``game`` is built on):
    the CFR family's reference traversal, the exact and float evaluations."""

    game: Game
    inner: Engine
    name: str = "reference"
    first_check: int = 1
    checks_per_decade: int = 25

    @classmethod
    def on(cls, game: Game) -> ReferenceEngine:
        """The numpy passes on the layout ``game`` is built on (its own engine)."""
        return cls(game, game.engine)

    @property
    def provides(self) -> frozenset[str]:
        """What the layout below provides
        (:attr:`~toypoker.engines.protocol.Engine.provides`)."""
        return self.inner.provides

    def runs(self, method: str) -> bool:
        """What ``inner`` runs: the CFR family, fictitious play and the MCCFRs on their
        numpy or plain-Python parts here, the exact methods (the LP, the enumerator,
        TMECor) as ``inner`` runs them."""
        return self.inner.runs(method)

    def method(self, method: str) -> Method:
        m = self.inner.method(method)
        if isinstance(m.defaults, CFROptions):  # the numpy traversal, not the fused kernel
            return dataclasses.replace(
                m, defaults=dataclasses.replace(m.defaults, backend=Backend.NUMPY)
            )
        if isinstance(m.defaults, ESOptions):  # MCCFR in the plain-Python traversals
            kind = Sampling.OUTCOME if isinstance(m.defaults, OSOptions) else Sampling.EXTERNAL
            many = functools.partial(mccfr.engine_steps, self, kind)
            return dataclasses.replace(
                m,
                step=lambda game, state, options: many(game, state, options, 1),
                step_many=many,
            )
        if isinstance(m.defaults, FPOptions):  # fictitious play on the numpy responses
            return dataclasses.replace(
                m,
                init=lambda game, options, seed: layout_init(game, options, self.fp_responses()),
                step=lambda game, state, options: layout_step(
                    game, state, options, self.fp_responses()
                ),
                step_many=None,
            )
        return m

    def evaluate(self, profile: Profile) -> Evaluation:
        return self._exact_or_numpy(profile)

    def nash_conv(self, profile: Profile) -> object:
        return self._exact_or_numpy(profile).nash_conv

    def best_response(self, profile: Profile, player: int | tuple[int, ...]) -> BestResponse:
        vg = vector_of(self.game)
        if vg is None or isinstance(player, tuple):
            return R.best_response(self.game, profile.probs, player)
        value, choice = V.best_response_value(vg, profile.probs, player)
        return BestResponse(player, value if profile.exact else float(value), choice)

    def regrets(self, sigma: np.ndarray, group: list[int]) -> list[PlayerRegrets]:
        return self.inner.regrets(sigma, group)  # the layout's numpy regrets

    def sampled_regrets(
        self, sigma: np.ndarray, group: list[int], rng: np.random.Generator, restrict: bool
    ) -> list[PlayerRegrets]:
        return self.inner.sampled_regrets(sigma, group, rng, restrict)  # numpy already

    def mccfr_iterations(self, kind: int, fused: bool = True) -> Callable[..., None]:
        return self.inner.mccfr_iterations(kind, fused=False)  # plain Python, whatever asked

    def cfr_kernel(self) -> None:
        return None  # the numpy iteration: no fused kernel here

    def fp_responses(self, fused: bool = True) -> object:
        return self.inner.fp_responses(fused=False)  # the numpy responses, whatever asked

    def sequence_form(self) -> SequenceFormData:
        return self.inner.sequence_form()  # the layout's, in numpy and rationals already

    def memory_bytes(self) -> int | None:
        return self.inner.memory_bytes()  # the numpy passes on the same data

    def check(self, probs: np.ndarray) -> tuple[float, float]:
        ev = self._exact_or_numpy(Profile(self.game, probs, validate=False))
        return float(ev.nash_conv), float(max(ev.gains))

    def summary(self, probs: np.ndarray) -> dict[str, object]:
        profile = Profile(self.game, probs, validate=False)
        ev = self._exact_or_numpy(profile)
        return {
            "profile": profile,
            "values": tuple(float(x) for x in ev.values),
            "gains": tuple(float(x) for x in ev.gains),
            "nash_conv": float(ev.nash_conv),
        }

    def shard(self, options: object, cluster: object, workers: int | None) -> object:
        raise ToypokerError(
            "cluster= shards the fused kernel; the reference engine runs in process"
        )

    def _exact_or_numpy(self, profile: Profile) -> Evaluation:
        """The numpy passes of the game's layout (the deal table's, or the hand vectors'
        of :func:`toypoker.engines.evaluation.evaluate`, which has no kernel)."""
        if vector_of(self.game) is None:
            return R.evaluate(self.game, profile)
        return evaluate(self.game, profile)
