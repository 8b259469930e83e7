"""The records of a traced equilibrium curve: :class:`EquilibriumCurve` (every point,
CSV + JSON sidecar as Billingham published them), :class:`Equilibrium` (a certified
equilibrium crossed at one parameter value) and :class:`Multiplicity` (how many
along the window)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ToypokerError
from ..io import atomic_write_text


@dataclass(frozen=True)
class EquilibriumCurve:
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
        """The settings and how tracing ended (the JSON sidecar of :meth:`save`)."""
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
        """Write ``path`` (CSV) and ``path.json`` (settings), atomically."""
        path = Path(path)
        atomic_write_text(path, self.to_csv())
        meta = path.with_suffix(path.suffix + ".json")
        atomic_write_text(meta, json.dumps(self.metadata(), indent=1))
        return path

    @classmethod
    def load(cls, path: str | Path) -> EquilibriumCurve:
        """Read a curve written by :meth:`save` (CSV and its JSON sidecar)."""
        path = Path(path)
        meta_path = path.with_suffix(path.suffix + ".json")
        try:
            meta = json.loads(meta_path.read_text())
            rows = list(csv.reader(path.read_text().splitlines()))
            return cls._from_rows(meta, rows[0], np.array(rows[1:], dtype=float))
        except (OSError, ValueError, KeyError, IndexError) as e:
            raise ToypokerError(f"cannot read curve {path}: {e!r}") from None

    @classmethod
    def _from_rows(cls, meta: dict, header: list[str], data: np.ndarray) -> EquilibriumCurve:
        labels = tuple(meta["sigma_labels"])
        n = sum(1 for h in header if h.startswith("E") and h[1:].isdigit())
        sigma = np.zeros((len(data), len(labels)))
        by_label = {lab: k for k, lab in enumerate(labels)}
        by_infoset: dict[str, list[int]] = {}
        for k, lab in enumerate(labels):
            by_infoset.setdefault(lab.rpartition("=")[0], []).append(k)
        for c, name in enumerate(header[2 + n :], start=2 + n):
            if name in by_label:
                sigma[:, by_label[name]] = data[:, c]
            else:  # binary infoset: the aggressive action's column
                passive, aggressive = by_infoset[name]
                sigma[:, aggressive] = data[:, c]
                sigma[:, passive] = 1.0 - data[:, c]
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
    :meth:`RegularizedSystem.certify` for the slower route that certifies them).
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
