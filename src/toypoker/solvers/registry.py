"""The registry of methods: one literal, read-only mapping name -> :class:`Method`.

Nothing registers itself at import: adding a method is adding an entry here.

>>> sorted(METHODS)[:3]
['cfr', 'cfr+', 'dcfr']
>>> parse_options(METHODS["cfr+"], {"delay": 10}).delay
10
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

from toypoker.errors import ToypokerError
from toypoker.solvers import cfr, enumerate_method, fictitious, lp, mccfr, pcs, tmecor
from toypoker.solvers.base import Method, OneShotState

METHODS: Mapping[str, Method] = MappingProxyType(
    {
        # the CFR family: one traversal, four schedules; alternating updates as
        # OpenSpiel's CFRSolver (simultaneous: alternating=False)
        "cfr": Method(
            "cfr",
            "vanilla CFR, alternating updates, uniform average",
            cfr.CFROptions,
            cfr.CFROptions(floor=False, gamma=0.0),
            cfr.init,
            cfr.step,
            cfr.output,
            cfr.CFRState,
            step_many=cfr.step_many,
        ),
        "cfr+": Method(
            "cfr+",
            "CFR+: regrets floored at 0, alternating updates, linear average",
            cfr.CFROptions,
            cfr.CFROptions(floor=True, gamma=1.0),
            cfr.init,
            cfr.step,
            cfr.output,
            cfr.CFRState,
            step_many=cfr.step_many,
        ),
        "lcfr": Method(
            "lcfr",
            "linear CFR: iteration t weighted by t in regrets and average",
            cfr.CFROptions,
            cfr.CFROptions(alpha=1.0, beta=1.0, gamma=1.0),
            cfr.init,
            cfr.step,
            cfr.output,
            cfr.CFRState,
            step_many=cfr.step_many,
        ),
        "dcfr": Method(
            "dcfr",
            "discounted CFR (alpha=1.5, beta=0, gamma=2)",
            cfr.CFROptions,
            cfr.CFROptions(alpha=1.5, beta=0.0, gamma=2.0),
            cfr.init,
            cfr.step,
            cfr.output,
            cfr.CFRState,
            step_many=cfr.step_many,
        ),
        # the newest regret minimisers: schedules of the same traversal (solvers/cfr.py)
        "pcfr+": Method(
            "pcfr+",
            "predictive CFR+ (Farina, Kroer & Sandholm 2021): RM+ on R + last regret, "
            "alternating updates, quadratic average",
            cfr.CFROptions,
            cfr.CFROptions(floor=True, predictive=True, gamma=2.0),
            cfr.init,
            cfr.step,
            cfr.output,
            cfr.CFRState,
            step_many=cfr.step_many,
        ),
        "dcfr+": Method(
            "dcfr+",
            "discounted CFR+ (Xu et al. 2024): the regrets scaled by "
            "t^alpha/(t^alpha+1) and floored at 0, alternating updates, "
            "alpha=1.5, average weights t^4 (gamma=4)",
            cfr.CFROptions,
            cfr.CFROptions(floor=True, alpha=1.5, gamma=4.0, discount_lag=1),
            cfr.init,
            cfr.step,
            cfr.output,
            cfr.CFRState,
            step_many=cfr.step_many,
        ),
        "pdcfr+": Method(
            "pdcfr+",
            "predictive discounted CFR+ (Xu et al. 2024): DCFR+ that plays "
            "on the discounted regrets plus the last instantaneous regret, "
            "alpha=2.3, average weights t^5 (gamma=5)",
            cfr.CFROptions,
            cfr.CFROptions(floor=True, alpha=2.3, gamma=5.0, discount_lag=1, predictive=True),
            cfr.init,
            cfr.step,
            cfr.output,
            cfr.CFRState,
            step_many=cfr.step_many,
        ),
        "fp": Method(
            "fp",
            "fictitious play: best responses to the average, realization-weighted "
            "1/t averaging (gamma=0); ullman=true: Ullman's (2015) behaviour mixing",
            fictitious.FPOptions,
            fictitious.FPOptions(),
            fictitious.init,
            fictitious.step,
            fictitious.output,
            fictitious.FPState,
            stop_gain=fictitious.stop_gain,
        ),
        "es-mccfr": Method(
            "es-mccfr",
            "external-sampling Monte Carlo CFR (deals and others' actions sampled)",
            mccfr.ESOptions,
            mccfr.ESOptions(),
            mccfr.es_init,
            mccfr.es_step,
            mccfr.output,
            mccfr.MCCFRState,
            stochastic=True,
            step_many=mccfr.es_step_many,
            needs=frozenset({"deals"}),  # samples the joint deals
        ),
        "os-mccfr": Method(
            "os-mccfr",
            "outcome-sampling Monte Carlo CFR (one trajectory, epsilon-exploration 0.6)",
            mccfr.OSOptions,
            mccfr.OSOptions(),
            mccfr.os_init,
            mccfr.os_step,
            mccfr.output,
            mccfr.MCCFRState,
            stochastic=True,
            step_many=mccfr.os_step_many,
            needs=frozenset({"deals"}),  # samples the joint deals
        ),
        "pcs-cfr+": Method(
            "pcs-cfr+",
            "public-chance-sampling CFR+ on the vector layout: one board path an "
            "update, full hand vectors, importance-weighted (Johanson et al. 2012)",
            pcs.PCSOptions,
            pcs.PCSOptions(floor=True, gamma=1.0),
            pcs.init,
            pcs.step,
            pcs.output,
            mccfr.MCCFRState,
            stochastic=True,
        ),
        "lp": Method(
            "lp",
            "sequence-form linear program (two-player zero-sum; HiGHS; exact certificate)",
            lp.LPOptions,
            lp.LPOptions(),
            lp.init,
            lp.step,
            lp.output,
            OneShotState,
            one_shot=True,
            summary=lp.summary,
            needs=frozenset({"exact"}),
        ),
        "enumerate": Method(
            "enumerate",
            "all equilibria exactly (binary choices; pot may be symbolic)",
            enumerate_method.EnumerateOptions,
            enumerate_method.EnumerateOptions(),
            enumerate_method.init,
            enumerate_method.step,
            None,
            OneShotState,
            one_shot=True,
            summary=enumerate_method.summary,
            needs=frozenset({"deals", "exact"}),  # enumerates the joint deals' supports
        ),
        "tmecor": Method(
            "tmecor",
            "team-optimal correlated play of a team against one outsider (TMECor; "
            "exact bracket on the team's value)",
            tmecor.TMECorOptions,
            tmecor.TMECorOptions(),
            tmecor.init,
            tmecor.step,
            None,
            OneShotState,
            one_shot=True,
            summary=tmecor.summary,
            needs=frozenset({"deals", "exact"}),  # the team's plans over the joint deals
        ),
    }
)


def get_method(name: str) -> Method:
    """The registry entry ``name``, or a ToypokerError listing the known ones."""
    if not isinstance(name, str):
        raise ToypokerError(
            f"method must be a name ({', '.join(METHODS)}), not {type(name).__name__}"
        )
    m = METHODS.get(name)
    if m is None:
        raise ToypokerError(f"unknown method {name!r}; known: {', '.join(METHODS)}")
    return m


def iterative_methods() -> tuple[str, ...]:
    """The methods that iterate (not one-shot exact ones), in the registry's order: what
    a comparison of NashConv against time runs by default."""
    return tuple(n for n, m in METHODS.items() if not m.one_shot)


def parse_options(method: Method, given: Mapping[str, object]) -> object:
    """``method``'s typed options: its defaults with ``given`` applied and checked.

    Unknown option names and options of other methods that ``method`` does not
    read are errors (never silently ignored).
    """
    fields = [f.name for f in dataclasses.fields(method.options)]
    known = {f.name for m in METHODS.values() for f in dataclasses.fields(m.options)}
    unknown = sorted(k for k in given if k not in known)
    if unknown:
        raise ToypokerError(
            f"unknown option(s) for {method.name}: {', '.join(unknown)}; "
            f"{method.name} reads: {', '.join(fields) or 'none'}"
        )
    unused = sorted(k for k in given if k not in fields)
    if unused:
        raise ToypokerError(
            f"{method.name} does not read option(s) {', '.join(unused)}; "
            f"it reads: {', '.join(fields) or 'none'}"
        )
    return dataclasses.replace(method.defaults, **given)


def options_dict(options: object) -> dict[str, object]:
    """The fields of a typed options object as a plain dict."""
    return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}


__all__ = ["METHODS", "get_method", "iterative_methods", "options_dict", "parse_options"]
