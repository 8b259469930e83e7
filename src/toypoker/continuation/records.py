"""The records of a traced equilibrium curve: :class:`EquilibriumCurve` (every point,
CSV + JSON sidecar as Billingham published them), :class:`Equilibrium` (a certified
equilibrium crossed at one parameter value) and :class:`Multiplicity` (how many
along the window)."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from toypoker.errors import ToypokerError
from toypoker.formats import check_format
from toypoker.frozen import FrozenRecord, read_only_copy
from toypoker.io import atomic_write_text, read_text_limited

TRACE_FORMAT = "toypoker-trace/1"
"""The format of a curve's JSON sidecar (its ``"format"``), what ``toypoker trace
--out-dir`` writes and ``--resume`` reads; a sidecar without one (written before
toypoker versioned it) is read as the same layout."""


@dataclass(frozen=True, eq=False)  # equality and pickling: FrozenRecord
class EquilibriumCurve(FrozenRecord):
    """A traced branch of regularized equilibria.

    Attributes
    ----------
    spec, parameter, eps, response : the settings (``parameter`` e.g. ``"pot"``)
    theta : (m,) parameter values; arclength : (m,) along the branch (in ``(x, theta)``)
    expectations : (m, n_players)
    sigma : (m, n_sigma) every action probability of the game at each point
    sigma_labels : (n_sigma,) ``infoset label=action``
    reason, steps, seconds : how tracing ended, accepted+rejected steps, wall time
    """

    spec: str
    parameter: str
    eps: float
    response: str
    theta: np.ndarray
    arclength: np.ndarray
    expectations: np.ndarray
    sigma: np.ndarray
    sigma_labels: tuple[str, ...]
    reason: str
    steps: int
    seconds: float
    info: dict = field(default_factory=dict)
    # the RegularizedSystem that traced it (not saved): reused by equilibria_at and
    # multiplicity, so nothing is rebuilt or recompiled
    system: object | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("theta", "arclength", "expectations", "sigma"):  # read-only copies
            object.__setattr__(self, name, read_only_copy(getattr(self, name)))

    # ------------------------------------------------------------------ csv
    def frequency_columns(self) -> list[tuple[str, int]]:
        """CSV columns of the frequencies: binary infosets give the aggressive action only."""
        out, by_inf = [], {}
        for k, lab in enumerate(self.sigma_labels):
            inf, _, _ = lab.rpartition("=")
            by_inf.setdefault(inf, []).append(k)
        for inf, ks in by_inf.items():
            if len(ks) == 2:
                out.append((inf, ks[1]))
            else:
                out += [(self.sigma_labels[k], k) for k in ks]
        return out

    def to_csv(self) -> str:
        """The curve as the paper published it: parameter, arclength, expectations,
        frequencies (one row per point)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        n = self.expectations.shape[1]
        freq = self.frequency_columns()
        w.writerow(
            [self.parameter, "arclength"] + [f"E{p + 1}" for p in range(n)] + [c for c, _ in freq]
        )
        idx = [k for _, k in freq]
        for i in range(len(self.theta)):
            row = [self.theta[i], self.arclength[i], *self.expectations[i], *self.sigma[i, idx]]
            w.writerow([f"{v:.12g}" for v in row])
        return buf.getvalue()

    def metadata(self) -> dict[str, object]:
        """The settings and how tracing ended (the JSON sidecar of :meth:`save`, after
        its ``"format"``: :data:`TRACE_FORMAT`)."""
        return {
            "spec": self.spec,
            "parameter": self.parameter,
            "eps": self.eps,
            "response": self.response,
            "reason": self.reason,
            "steps": self.steps,
            "seconds": self.seconds,
            "points": len(self.theta),
            "sigma_labels": list(self.sigma_labels),
            "info": self.info,
        }

    def to_json_dict(self) -> dict[str, object]:
        """:meth:`metadata` plus the parameter, arclength and expectations at every
        point (the frequencies are in the CSV)."""
        return {
            **self.metadata(),
            "theta": self.theta.tolist(),
            "arclength": self.arclength.tolist(),
            "expectations": self.expectations.tolist(),
        }

    def save(self, path: str | Path) -> Path:
        """Write ``path`` (CSV) and ``path.json`` (settings, of format
        :data:`TRACE_FORMAT`), atomically."""
        path = Path(path)
        atomic_write_text(path, self.to_csv())
        meta = path.with_suffix(path.suffix + ".json")
        atomic_write_text(meta, json.dumps({"format": TRACE_FORMAT, **self.metadata()}, indent=1))
        return path

    @classmethod
    def load(cls, path: str | Path) -> EquilibriumCurve:
        """Read a curve written by :meth:`save` (CSV and its JSON sidecar).

        Raises
        ------
        ToypokerError
            One line naming the file and what is wrong: missing, unreadable, not
            text, too large (more than :data:`MAX_CURVE_BYTES`), not JSON (NaN
            included), a format other than :data:`TRACE_FORMAT` (none: a sidecar
            written before toypoker versioned it, read as it was), missing or wrongly
            typed settings, ragged rows, a number that is not finite, or a frequency
            outside [0, 1].
        """
        path = Path(path)
        meta_path = path.with_suffix(path.suffix + ".json")
        meta = _read_meta(meta_path)
        text = _read_text(path, "curve")
        rows = list(csv.reader(text.splitlines()))
        if len(rows) < 2:
            raise ToypokerError(f"cannot read curve {path}: no points (a header and rows)")
        header, body = rows[0], rows[1:]
        width = len(header)
        for i, row in enumerate(body, start=2):
            if len(row) != width:
                raise ToypokerError(
                    f"cannot read curve {path}: line {i} has {len(row)} values, the header {width}"
                )
        try:
            data = np.array(body, dtype=float)
        except ValueError:
            raise ToypokerError(f"cannot read curve {path}: a value is not a number") from None
        bad = ~np.isfinite(data)
        if bad.any():
            i, j = (int(k) for k in np.argwhere(bad)[0])
            raise ToypokerError(
                f"cannot read curve {path}: line {i + 2}, column {header[j]!r} is {body[i][j]!r} "
                "(numbers must be finite)"
            )
        try:
            return cls._from_rows(meta, header, data)
        except _BadCurveError as exc:
            raise ToypokerError(f"cannot read curve {path}: {exc}") from None

    @classmethod
    def _from_rows(cls, meta: dict, header: list[str], data: np.ndarray) -> EquilibriumCurve:
        labels = tuple(meta["sigma_labels"])
        n = sum(1 for h in header if h.startswith("E") and h[1:].isdigit())
        if len(header) < 2 + n or header[0] != meta["parameter"] or header[1] != "arclength":
            raise _BadCurveError(f"header should start with {meta['parameter']},arclength,E1,...")
        sigma = np.zeros((len(data), len(labels)))
        by_label = {lab: k for k, lab in enumerate(labels)}
        by_infoset: dict[str, list[int]] = {}
        for k, lab in enumerate(labels):
            by_infoset.setdefault(lab.rpartition("=")[0], []).append(k)
        for c, name in enumerate(header[2 + n :], start=2 + n):
            col = data[:, c]
            if col.min(initial=0.0) < -1e-9 or col.max(initial=0.0) > 1 + 1e-9:
                raise _BadCurveError(f"column {name!r} holds a frequency outside [0, 1]")
            if name in by_label:
                sigma[:, by_label[name]] = col
            elif len(by_infoset.get(name, ())) == 2:  # binary infoset: the aggressive action
                passive, aggressive = by_infoset[name]
                sigma[:, aggressive] = col
                sigma[:, passive] = 1.0 - col
            else:
                raise _BadCurveError(f"column {name!r} names no action of sigma_labels")
        return cls(
            spec=meta["spec"],
            parameter=meta["parameter"],
            eps=meta["eps"],
            response=meta["response"],
            theta=data[:, 0],
            arclength=data[:, 1],
            expectations=data[:, 2 : 2 + n],
            sigma=sigma,
            sigma_labels=labels,
            reason=meta["reason"],
            steps=meta["steps"],
            seconds=meta["seconds"],
            info=meta.get("info", {}),
        )

    # ------------------------------------------------------------------ queries
    def crossings(self, value: float) -> list[int]:
        """Indices ``i`` with ``theta`` crossing ``value`` between points ``i`` and ``i + 1``."""
        d = self.theta - value
        out = np.nonzero((d[:-1] == 0) | (d[:-1] * d[1:] < 0))[0].tolist()
        if len(d) and d[-1] == 0:
            out.append(len(d) - 1)
        return out

    def at_arclength(self, s: float) -> tuple[float, np.ndarray, np.ndarray]:
        """Linear interpolation ``(theta, expectations, sigma)`` at arclength ``s``."""
        a = self.arclength
        i = int(np.clip(np.searchsorted(a, s) - 1, 0, len(a) - 2))
        w = 0.0 if a[i + 1] == a[i] else (s - a[i]) / (a[i + 1] - a[i])
        lerp = lambda v: (1 - w) * v[i] + w * v[i + 1]  # noqa: E731
        return float(lerp(self.theta)), lerp(self.expectations), lerp(self.sigma)


MAX_CURVE_BYTES = 2**30
"""Largest curve file (CSV or JSON sidecar) :meth:`EquilibriumCurve.load` reads."""


class _BadCurveError(Exception):
    """What is wrong with a curve's rows (turned into a ToypokerError naming the file)."""


def _read_text(path: Path, what: str) -> str:
    """The UTF-8 text of ``path`` (at most :data:`MAX_CURVE_BYTES`), or one-line errors."""
    return read_text_limited(path, MAX_CURVE_BYTES, what)


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number here")


_META_TYPES: dict[str, tuple[type, ...]] = {
    "spec": (str,),
    "parameter": (str,),
    "eps": (int, float),
    "response": (str,),
    "reason": (str,),
    "steps": (int,),
    "seconds": (int, float),
    "sigma_labels": (list,),
}


def _read_meta(path: Path) -> dict:
    """The JSON sidecar of a curve, its settings checked (types, finite, >= 0)."""
    text = _read_text(path, "curve settings")
    try:
        meta = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ToypokerError(
            f"cannot read curve settings {path}: not JSON ({exc.msg} at line {exc.lineno})"
        ) from None
    except RecursionError:
        raise ToypokerError(f"cannot read curve settings {path}: nested too deeply") from None
    except ValueError as exc:
        reason = str(exc).splitlines()[0]
        raise ToypokerError(f"cannot read curve settings {path}: {reason}") from None
    if not isinstance(meta, dict):
        raise ToypokerError(f"cannot read curve settings {path}: not a JSON object")
    check_format(meta.get("format"), TRACE_FORMAT, path, "curve settings")
    for key, types in _META_TYPES.items():
        v = meta.get(key)
        if v is None or isinstance(v, bool) or not isinstance(v, types):
            want = " or ".join(t.__name__ for t in types)
            raise ToypokerError(
                f"cannot read curve settings {path}: {key!r} must be {want}, not {v!r}"
            )
    if not all(isinstance(x, str) for x in meta["sigma_labels"]):
        raise ToypokerError(f"cannot read curve settings {path}: sigma_labels must be strings")
    if meta["steps"] < 0 or meta["seconds"] < 0 or not math.isfinite(meta["seconds"]):
        raise ToypokerError(f"cannot read curve settings {path}: steps and seconds must be >= 0")
    if not math.isfinite(meta["eps"]) or meta["eps"] < 0:
        raise ToypokerError(f"cannot read curve settings {path}: eps must be finite and >= 0")
    if not isinstance(meta.get("info", {}), dict):
        raise ToypokerError(f"cannot read curve settings {path}: 'info' must be a JSON object")
    return meta


@dataclass(frozen=True)
class Equilibrium:
    """A certified equilibrium crossed by a curve at one parameter value."""

    theta: float
    sigma: np.ndarray
    expectations: np.ndarray
    nash_conv: float  # of the polished profile, on the unregularized game
    raw_nash_conv: float  # of the regularized point itself

    @property
    def certified(self) -> bool:
        """NashConv of the polished profile below 1e-6 on the unregularized game."""
        return self.nash_conv < 1e-6

    def to_json_dict(self) -> dict[str, object]:
        """The equilibrium as JSON data (profile as the flat ``sigma`` list)."""
        return {
            "theta": self.theta,
            "expectations": self.expectations.tolist(),
            "nash_conv": self.nash_conv,
            "raw_nash_conv": self.raw_nash_conv,
            "certified": self.certified,
            "sigma": self.sigma.tolist(),
        }


@dataclass(frozen=True)
class Multiplicity:
    """Counts along the window, exact between the curve's turning points.

    The number of branch points at a parameter value changes only at folds, so
    the window is cut at every turning point and each piece is examined at its
    midpoint: ``crossings`` is the number of regularized equilibria there,
    ``distinct`` the number of different equilibria they polish to (each with
    counterfactual regret sum, a bound on NashConv, below 1e-6), ``unpolished``
    the crossings whose polishing failed (degenerate supports; see
    :meth:`~toypoker.continuation.regularized.RegularizedSystem.certify` for the slower
    route that certifies them).
    """

    lower: np.ndarray
    upper: np.ndarray
    crossings: np.ndarray
    distinct: np.ndarray
    unpolished: np.ndarray
    parameter: str = "pot"

    def rows(self) -> list[tuple[float, float, int, int, int]]:
        """``(from, to, crossings, distinct, unpolished)`` per piece of the window."""
        return [
            (float(a), float(b), int(c), int(d), int(u))
            for a, b, c, d, u in zip(
                self.lower,
                self.upper,
                self.crossings,
                self.distinct,
                self.unpolished,
                strict=True,
            )
        ]

    def to_csv(self, path: str | Path | None = None) -> str:
        """``{parameter}_from,{parameter}_to,crossings,distinct,unpolished`` per piece
        (written atomically to ``path`` if given)."""
        p = self.parameter
        text = f"{p}_from,{p}_to,crossings,distinct,unpolished\n" + "".join(
            f"{a:.10g},{b:.10g},{c},{d},{u}\n" for a, b, c, d, u in self.rows()
        )
        if path is not None:
            atomic_write_text(path, text)
        return text

    def to_json_dict(self) -> dict[str, object]:
        """The pieces as JSON data."""
        return {
            "parameter": self.parameter,
            "rows": [
                {"from": a, "to": b, "crossings": c, "distinct": d, "unpolished": u}
                for a, b, c, d, u in self.rows()
            ],
        }
