"""Fuzzing the loaders and the command line (issue 14): whatever the input, the result
is a valid object or one :class:`~toypoker.errors.ToypokerError` -- never another
exception, never a hang, never a large allocation.

Sizes are kept small (``max_bytes`` for games, short strings, small arrays) and
every example is timed and its memory growth (peak RSS) bounded.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import resource
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toypoker.errors import ProfileError, ToypokerError
from toypoker.game import Game
from toypoker.games import (
    GAMES,
    canonical_spec,
    load_rows,  # the deal table: these tests read its rows
)
from toypoker.profile import Profile
from toypoker.solvers import Solver, load_checkpoint

from .cases import _checkpoint_bytes, _npz, _npz_parts

# hypothesis over every loader and CLI option (~20 s): part of CI, not of the quick part
pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("TOYPOKER_FUZZ_EXAMPLES", "60"))  # more for a longer hunt
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)
MAX_BYTES = 2**22  # games compiled while fuzzing: at most ~4 MB estimated
# a runaway guard, not a speed claim: an example computes for well under a second to
# ~15 s (an ODE basin grid with large rates) of CPU; only a runaway (a billion-digit
# format) passes a minute.  CPU time, not wall time: on a shared machine the wall clock
# measures the neighbours (CI's loaded run took 171 s of wall time for a 14 s example)
SECONDS = 60.0
MEMORY_GROWTH = 512 * 2**20  # bytes of peak RSS growth per example


def _cpu_seconds() -> float:
    """This process's CPU time so far, every thread's, user and system."""
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


@contextlib.contextmanager
def bounded(what: object):
    """Fail if the block computes for more than SECONDS of CPU or raises the peak RSS by
    more than MEMORY_GROWTH."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = _cpu_seconds()
    yield
    seconds = _cpu_seconds() - t0
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    assert seconds < SECONDS, f"{what!r} computed for {seconds:.1f} s of CPU"
    assert grown < MEMORY_GROWTH, f"{what!r} grew the peak memory by {grown / 2**20:.0f} MB"


# ------------------------------------------------------------------ strategies
NUMBER_TEXT = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.integers(-(10**400), 10**400).map(str),
    st.decimals(allow_nan=False, allow_infinity=False, places=6).map(str),
    st.builds(
        lambda m, e: f"{m}e{e}",
        st.integers(-99, 99),
        st.one_of(st.integers(-400, 400), st.integers(-(10**12), 10**12)),
    ),
    st.builds(lambda a, b: f"{a}/{b}", st.integers(-50, 50), st.integers(-50, 50)),
    st.sampled_from(
        [
            "nan",
            "inf",
            "-inf",
            "1e999999999",
            "1e-999999999",
            "1e400",
            "0",
            "-0",
            ".5",
            "5.",
            "1_000",
            "0x10",
            "1e",
            "e5",
            "--1",
            "1/0",
            "3/2/1",
            "10**9",
        ]
    ),
)
VALUE_TEXT = st.one_of(
    NUMBER_TEXT, st.sampled_from(["true", "false", "yes", "x", ""]), st.text(max_size=8)
)
KEYS = sorted({p.name for info in GAMES.values() for p in info.params}) + ["colour", "Players"]


@st.composite
def structured_spec(draw) -> str:
    name = draw(st.sampled_from([*GAMES, "nosuch", "Kuhn"]))
    keys = draw(st.lists(st.sampled_from(KEYS), max_size=4, unique=True))
    body = ",".join(f"{k}={draw(VALUE_TEXT)}" for k in keys)
    return f"{name}({body})" if draw(st.booleans()) or keys else name


SPECS = st.one_of(
    structured_spec(),
    st.text(max_size=60),
    st.text(alphabet="kuhn()=,.0123456789e-/ ", max_size=40),
)


def _spec_outcome(spec: str) -> None:
    try:
        with bounded(spec):
            text = canonical_spec(spec)
    except ToypokerError as exc:
        assert "\n" not in str(exc)
        return
    assert isinstance(text, str)
    assert canonical_spec(text) == text  # canonical specs are fixed points
    try:
        with bounded(spec):
            game = load_rows(spec, max_bytes=MAX_BYTES)
    except ToypokerError as exc:
        assert "\n" not in str(exc)
        return
    assert isinstance(game, Game)
    assert game.spec == text


@FUZZ
@given(SPECS)
def test_spec_grammar(spec: str) -> None:
    _spec_outcome(spec)


@FUZZ
@given(
    st.sampled_from([g for g in GAMES if g != "leduc"]),
    st.sampled_from(["pot", "ante", "bet"]),
    NUMBER_TEXT,
)
def test_numeric_parameters(name: str, key: str, value: str) -> None:
    _spec_outcome(f"{name}({key}={value})")


# ------------------------------------------------------------------ profiles
JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=12),
        NUMBER_TEXT,
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
K2 = "kuhn(players=2)"


@pytest.fixture(scope="module")
def kuhn2() -> Game:
    return load_rows(K2)


def _profile_outcome(data: object, game: Game | None, exact: bool | None = None) -> None:
    try:
        with bounded(data):
            prof = Profile.from_json_dict(data, game, exact=exact)
    except ToypokerError as exc:
        assert isinstance(exc, ProfileError), f"{type(exc).__name__}: {exc}"
        assert "\n" not in str(exc)
        return
    assert isinstance(prof, Profile)
    if prof.exact:
        assert all(x >= 0 for x in prof.probs)
    else:
        assert np.isfinite(prof.probs).all() and (prof.probs >= -1e-9).all()


@FUZZ
@given(JSON)
def test_profile_random_json(kuhn2: Game, data: object) -> None:
    _profile_outcome(data, kuhn2)
    _profile_outcome(data, None)


@FUZZ
@given(st.data())
def test_profile_perturbed(kuhn2: Game, data) -> None:
    """A valid profile with some entries replaced by random JSON values or numbers."""
    base = Profile.uniform(kuhn2, exact=data.draw(st.booleans())).to_json_dict()
    infosets = base["infosets"]
    for _ in range(data.draw(st.integers(1, 3))):
        label = data.draw(st.sampled_from(sorted(infosets)))
        action = data.draw(st.sampled_from(sorted(infosets[label]) + ["z"]))
        infosets[label][action] = data.draw(st.one_of(JSON, NUMBER_TEXT))
    if data.draw(st.booleans()):
        base["game"] = data.draw(st.one_of(JSON, SPECS))
    _profile_outcome(base, kuhn2, exact=data.draw(st.sampled_from([None, True, False])))


@FUZZ
@given(st.one_of(st.binary(max_size=300), JSON.map(lambda d: json.dumps(d).encode())))
def test_profile_file(tmp_path: Path, kuhn2: Game, raw: bytes) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(raw)
    try:
        with bounded(raw[:80]):
            Profile.from_json(path, kuhn2, exact=True)
    except ProfileError as exc:
        assert "\n" not in str(exc)


# ---------------------------------------------------------------- checkpoints
def _checkpoint_outcome(path: Path, game: Game) -> None:
    try:
        with bounded(path):
            cp = load_checkpoint(path)
            solver = Solver.from_checkpoint(cp, game)
            solver.step(1)
    except ToypokerError as exc:
        assert "\n" not in str(exc)
        return
    assert np.isfinite(solver.profile().probs).all()


@FUZZ
@given(st.binary(max_size=400))
def test_checkpoint_random_bytes(tmp_path: Path, kuhn2: Game, raw: bytes) -> None:
    path = tmp_path / "c.npz"
    path.write_bytes(raw)
    _checkpoint_outcome(path, kuhn2)


@FUZZ
@given(st.sampled_from(["cfr+", "es-mccfr"]), st.data())
def test_checkpoint_truncated_or_flipped(tmp_path: Path, kuhn2: Game, method: str, data) -> None:
    raw = bytearray(_checkpoint_bytes(method))
    if data.draw(st.booleans()):
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    else:
        for _ in range(data.draw(st.integers(1, 8))):
            k = data.draw(st.integers(0, len(raw) - 1))
            raw[k] = data.draw(st.integers(0, 255))
    path = tmp_path / "c.npz"
    path.write_bytes(bytes(raw))
    _checkpoint_outcome(path, kuhn2)


@FUZZ
@given(st.sampled_from(["cfr+", "es-mccfr"]), st.data())
def test_checkpoint_perturbed_metadata(tmp_path: Path, kuhn2: Game, method: str, data) -> None:
    meta, arrays = _npz_parts(_checkpoint_bytes(method))
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(["meta", "scalars", "options", "array", "drop"]))
        if where == "meta":
            meta[data.draw(st.sampled_from(sorted(meta)))] = data.draw(JSON)
        elif where == "scalars" and isinstance(meta.get("scalars"), dict):
            meta["scalars"][data.draw(st.sampled_from(["iteration", "rng", "x"]))] = data.draw(JSON)
        elif where == "options" and isinstance(meta.get("options"), dict):
            meta["options"][
                data.draw(st.text(max_size=8) | st.sampled_from(sorted(meta["options"]) or ["x"]))
            ] = data.draw(JSON)
        elif where == "array" and arrays:
            name = data.draw(st.sampled_from(sorted(arrays)))
            size = data.draw(st.integers(0, 30))
            arrays[name] = np.array(
                data.draw(st.lists(st.floats(), min_size=size, max_size=size)), dtype=np.float64
            )
        elif where == "drop" and arrays:
            arrays.pop(data.draw(st.sampled_from(sorted(arrays))))
    path = tmp_path / "c.npz"
    try:
        raw_meta = json.dumps(meta)
    except (ValueError, TypeError):
        assume(False)
    path.write_bytes(_npz(raw_meta, arrays))
    _checkpoint_outcome(path, kuhn2)


# ------------------------------------------------------------ the command line
def _cli(argv: list[str]) -> tuple[int, str]:
    from toypoker.cli import main

    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        with bounded(argv):
            try:
                code = main(argv)
            except SystemExit as exc:  # pragma: no cover - main returns its status
                code = exc.code if isinstance(exc.code, int) else 1
    return code, err.getvalue()


def _check_cli(argv: list[str]) -> None:
    code, err = _cli(argv)
    assert "Traceback" not in err, (argv, err)
    assert code in (0, 1, 2), (argv, code, err)
    if code == 1:  # solve's documented exit for a target the user's budget did not reach
        lines = [x for x in err.splitlines() if x.strip()]
        assert len(lines) == 1 and "the budget ended first" in lines[0], (argv, err)
    if code == 2:
        lines = [x for x in err.splitlines() if x.strip()]
        assert len(lines) == 1 and lines[0].startswith("toypoker: error:"), (argv, err)


FLOAT_TEXT = st.one_of(NUMBER_TEXT, st.floats().map(repr), st.text(max_size=6))
SMALL_SECONDS = st.one_of(
    st.floats(-1, 0.3).map(repr), st.sampled_from(["nan", "inf", "-5", "1e999", "x", "0"])
)


@FUZZ
@given(st.data())
def test_cli_solve_options(tmp_path: Path, monkeypatch, data) -> None:
    monkeypatch.chdir(tmp_path)
    argv = [
        "solve",
        K2,
        "--no-table",
        "--iterations",
        data.draw(st.one_of(st.integers(-3, 40).map(str), st.text(max_size=4))),
    ]
    if data.draw(st.booleans()):
        argv += ["--seconds", data.draw(SMALL_SECONDS)]
    for opt in ("--target-nash-conv", "--target-max-gain"):
        if data.draw(st.booleans()):
            argv += [opt, data.draw(FLOAT_TEXT)]
    if data.draw(st.booleans()):
        argv += ["--method", data.draw(st.sampled_from(["cfr+", "es-mccfr", "lp", "pcfr+", "x"]))]
        argv += ["--seed", data.draw(st.one_of(st.integers(-5, 5).map(str), st.text(max_size=3)))]
    if data.draw(st.booleans()):
        argv += ["--decimals", data.draw(st.one_of(st.integers(-3, 10**12).map(str), FLOAT_TEXT))]
    _check_cli(argv)


@FUZZ
@given(SPECS)
def test_cli_info(monkeypatch, spec: str) -> None:
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", str(MAX_BYTES))
    _check_cli(["info", spec])


# moderate magnitudes only: the known defects of huge values (ode --t-end 1e300 hangs,
# ode --pot/--k 1e300 tracebacks) are cases of the table (cases.py), not fuzz failures
MODERATE = st.one_of(
    st.floats(-10, 1000).map(repr),
    st.sampled_from(["nan", "inf", "-inf", "1e999999999", "x", "", "0", "-0", "1/2"]),
)


@FUZZ
@given(st.data())
def test_cli_dynamics_options(tmp_path: Path, monkeypatch, data) -> None:
    monkeypatch.chdir(tmp_path)
    which = data.draw(st.sampled_from(["ode", "play"]))
    if which == "ode":
        argv = [
            "dynamics",
            "ode",
            "--t-end",
            data.draw(
                st.one_of(
                    st.floats(-5, 20).map(repr), st.sampled_from(["nan", "inf", "-inf", "x", "0"])
                )
            ),
            "--basins-grid",
            data.draw(st.one_of(st.integers(-2, 3).map(str), st.text(max_size=3))),
        ]
    else:
        argv = [
            "dynamics",
            "play",
            "--rounds",
            data.draw(st.one_of(st.integers(-5, 3000).map(str), st.text(max_size=3))),
            "--record-every",
            data.draw(st.one_of(st.integers(-2, 500).map(str), st.text(max_size=3))),
        ]
    for opt, values in (
        ("--pot", MODERATE),
        ("--k", st.one_of(MODERATE, st.lists(MODERATE, max_size=4).map(",".join))),
        (
            "--y0",
            st.one_of(MODERATE, st.lists(st.floats(-1, 2).map(repr), max_size=4).map(",".join)),
        ),
    ):
        if data.draw(st.booleans()):
            argv += [opt, data.draw(values)]
    argv += ["--outdir", "out"]
    _check_cli(argv)


@settings(FUZZ, max_examples=max(EXAMPLES // 2, 1))
@given(st.data())
def test_cli_trace_and_equilibria_windows(tmp_path: Path, monkeypatch, data) -> None:
    """Windows and pot bounds that must be refused (or traced quickly: a short window)."""
    monkeypatch.chdir(tmp_path)
    if data.draw(st.booleans()):
        lo = data.draw(FLOAT_TEXT)
        hi = data.draw(FLOAT_TEXT)
        argv = ["trace", "skp", "--pot", f"{lo}:{hi}", "--no-gif", "--outdir", "tr"]
        window = []
        for x in (lo, hi):
            try:
                window.append(float(x))
            except ValueError:
                pass
        refused = (
            len(window) < 2
            or not all(math.isfinite(x) for x in window)
            or window[0] <= 0
            or window[1] <= window[0]
        )
        assume(refused or abs(window[1] - window[0]) < 0.5)  # a valid window: keep it short
        for opt in ("--ds-max", "--eps"):
            if refused and data.draw(st.booleans()):  # (a tiny eps traces slowly, not wrongly)
                argv += [opt, data.draw(FLOAT_TEXT)]
    else:
        argv = ["equilibria", "skp", "--pot-min", data.draw(FLOAT_TEXT)]  # no --symbolic-pot
    _check_cli(argv)
