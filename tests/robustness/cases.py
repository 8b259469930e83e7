"""The bad inputs and faults of issue 14, as a table of command-line cases.

Each :class:`Case` is a command line (``python -m toypoker ARGS``), files to
create first in an empty folder (bytes, text, or a function of the folder that
writes them with the library), commands to run before it (they must succeed)
and the expected outcome:

``"error"``  exit 2, exactly one line on stderr starting ``toypoker: error:``, no traceback
``"ok"``     exit 0, no traceback
``"no"``     exit 1 (a negative answer: not an equilibrium, an incomplete curve), no traceback

``before`` says what the issue reports happened (the tracebacks, hangs and
garbage accepted with exit 0 that the case pins down).
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

Maker = bytes | str | Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    """One command line and what it must do."""

    id: str
    args: tuple[str, ...]
    expect: str  # "error" | "ok" | "no"
    before: str  # what issue 14 says happened
    section: int
    files: tuple[tuple[str, Maker], ...] = ()
    setup: tuple[tuple[str, ...], ...] = ()  # commands run first (must exit 0)
    match: str | None = None  # regex the error line must contain
    not_match: str | None = None  # regex the error line must not contain
    max_seconds: float | None = None  # must finish (fail) within this: before any work
    timeout: float = 60.0
    slow: bool = False
    script: str | None = None  # a Python program run instead (python -c), args its title


# ------------------------------------------------------------------ file makers
K2 = "kuhn(players=2)"
K3 = "kuhn(players=3)"


@cache
def _checkpoint_bytes(method: str = "cfr+") -> bytes:
    """A real checkpoint of a few iterations on Kuhn (made once, in memory)."""
    import tempfile

    from toypoker import load_game
    from toypoker.solvers import Solver

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.npz"
        Solver(load_game(K2), method, seed=0 if "mccfr" in method else None).step(
            5
        ).save_checkpoint(path)
        return path.read_bytes()


def _npz_parts(data: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        meta = json.loads(str(z["__meta__"]))
        arrays = {k: z[k] for k in z.files if k != "__meta__"}
    return meta, arrays


def _npz(meta: object, arrays: dict[str, np.ndarray]) -> bytes:
    buf = io.BytesIO()
    raw = meta if isinstance(meta, str) else json.dumps(meta)
    np.savez(buf, __meta__=np.array(raw), **arrays)
    return buf.getvalue()


def checkpoint(edit: Callable[[dict, dict], object] | None = None, method: str = "cfr+"):
    """A maker: the real checkpoint, its metadata and arrays edited by ``edit(meta, arrays)``
    (which may return replacement metadata, e.g. a non-JSON string)."""

    def make(path: Path) -> None:
        data = _checkpoint_bytes(method)
        if edit is not None:
            meta, arrays = _npz_parts(data)
            new = edit(meta, arrays)
            data = _npz(meta if new is None else new, arrays)
        path.write_bytes(data)

    return make


def truncated_checkpoint(fraction: float) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        data = _checkpoint_bytes()
        path.write_bytes(data[: int(len(data) * fraction)])

    return make


def flipped_checkpoint(path: Path) -> None:
    """Bytes in the middle of the zip (the compressed arrays' CRC then fails)."""
    data = bytearray(_checkpoint_bytes())
    for k in range(len(data) // 2, len(data) // 2 + 16):
        data[k] ^= 0xFF
    path.write_bytes(bytes(data))


def bare_npy(path: Path) -> None:
    buf = io.BytesIO()
    np.save(buf, np.zeros(3))
    path.write_bytes(buf.getvalue())


def zip_without_meta(path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("hello.txt", "not a checkpoint")
    path.write_bytes(buf.getvalue())


def _drop(*keys: str):
    def edit(meta: dict, arrays: dict) -> None:
        for k in keys:
            meta.pop(k, None)

    return edit


def _set(key: str, value: object):
    def edit(meta: dict, arrays: dict) -> None:
        meta[key] = value

    return edit


def _nan_regrets(meta: dict, arrays: dict) -> None:
    name = next(k for k in arrays if "regret" in k)
    arrays[name] = arrays[name].copy()
    arrays[name][0] = np.nan


def _inf_average(meta: dict, arrays: dict) -> None:
    name = next(k for k in arrays if k != next(iter(arrays)))
    arrays[name] = arrays[name].copy()
    arrays[name][-1] = np.inf


def _short_arrays(meta: dict, arrays: dict) -> None:
    for k in list(arrays):
        arrays[k] = arrays[k][:3]


def _matrix_arrays(meta: dict, arrays: dict) -> None:
    for k in list(arrays):
        arrays[k] = np.stack([arrays[k], arrays[k]])


def _int_arrays(meta: dict, arrays: dict) -> None:
    for k in list(arrays):
        arrays[k] = arrays[k].astype(np.int64)


def _other_game(meta: dict, arrays: dict) -> None:
    meta["game"] = "kuhn(players=3,cards=4,ante=1,bet=1)"  # arrays of the 2-player game


def _bad_game(meta: dict, arrays: dict) -> None:
    meta["game"] = "kuhn(pot=1e999999999)"


def _scalar_iteration(value: object):
    def edit(meta: dict, arrays: dict) -> None:
        meta["scalars"]["iteration"] = value

    return edit


def _rng_garbage(meta: dict, arrays: dict) -> None:
    assert "rng" in meta["scalars"], sorted(meta["scalars"])
    meta["scalars"]["rng"] = {"bit_generator": "PCG64", "state": "garbage"}


def profile_json(infosets: object, game: object = K2, exact: object = True) -> str:
    return json.dumps(
        {"format": "toypoker-profile/1", "game": game, "exact": exact, "infosets": infosets}
    )


def kuhn2_infosets(x: object = "1/3", literal: str | None = None) -> str:
    """A full profile of Kuhn(2) with P1's first infoset's bet probability ``x``
    (or the raw JSON ``literal`` there)."""
    from toypoker import load_game

    g = load_game(K2)
    rows = {}
    for info in g.infosets:
        k = len(info.actions)
        rows[info.label] = {a: f"1/{k}" for a in info.actions}
    first = g.infosets[0]
    rows[first.label] = {first.actions[0]: "1/2", first.actions[1]: "MARK"}
    text = profile_json(rows)
    value = literal if literal is not None else json.dumps(x)
    return text.replace('"MARK"', value)


def lazy(fn: Callable[[], str | bytes]) -> Callable[[Path], None]:
    """A maker whose content is computed only when the case runs."""

    def make(path: Path) -> None:
        data = fn()
        if isinstance(data, str):
            data = data.encode()
        path.write_bytes(data)

    return make


@cache
def _curve_files() -> tuple[str, str]:
    """curve.csv and curve.csv.json of a short interrupted SKP trace (made once)."""
    import tempfile

    from toypoker import load_game
    from toypoker.continuation.curves import trace_curve

    r = trace_curve(load_game("skp"), "pot", 2.0, 4.0)
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "curve.csv"
        curve = r.curve
        import dataclasses

        dataclasses.replace(curve, reason="interrupted").save(p)
        return p.read_text(), p.with_suffix(".csv.json").read_text()


def curve(edit_csv: Callable[[str], str] | None = None, edit_meta=None, meta: bool = True):
    """A maker of ``trace/curve.csv`` (+ its ``.json`` unless ``meta`` is False)."""

    def make(path: Path) -> None:
        csv_text, meta_text = _curve_files()
        if edit_csv is not None:
            csv_text = edit_csv(csv_text)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(csv_text)
        if meta:
            m = json.loads(meta_text)
            if edit_meta is not None:
                m = edit_meta(m) or m
            path.with_suffix(path.suffix + ".json").write_text(json.dumps(m))

    return make


def _nan_row(text: str) -> str:
    lines = text.splitlines()
    cells = lines[-1].split(",")
    lines[-1] = ",".join(["nan"] + cells[1:])
    return "\n".join(lines) + "\n"


def _nan_sigma(text: str) -> str:
    lines = text.splitlines()
    cells = lines[2].split(",")
    cells[-1] = "nan"
    lines[2] = ",".join(cells)
    return "\n".join(lines) + "\n"


def _ragged(text: str) -> str:
    lines = text.splitlines()
    lines[2] = lines[2] + ",1,2"
    return "\n".join(lines) + "\n"


def _header_only(text: str) -> str:
    return text.splitlines()[0] + "\n"


def _huge_number(text: str) -> str:
    lines = text.splitlines()
    cells = lines[-1].split(",")
    lines[-1] = ",".join(["1e999999999"] + cells[1:])
    return "\n".join(lines) + "\n"


def _meta_drop_labels(m: dict) -> dict:
    m.pop("sigma_labels")
    return m


def _meta_eps_nan(m: dict) -> dict:
    m["eps"] = float("nan")  # json.dumps writes NaN
    return m


def _meta_bad_spec(m: dict) -> dict:
    m["spec"] = 42
    return m


def _meta_steps_negative(m: dict) -> dict:
    m["steps"] = -1
    return m


# ------------------------------------------------------------------ the table
FILE = "p.json"
CP = "c.npz"


def _profile_cases() -> list[Case]:
    ev, ex = ("eval", K2, FILE), ("eval", K2, FILE, "--exact")
    P = [
        ("exp-neg", '"1e-999999999"', 2, "hang (30-byte profile, exponent builds a huge integer)"),
        ("exp-pos", '"1e999999999"', 2, "hang"),
        ("nan-literal", "NaN", 5, "traceback (NaN in an exact profile)"),
        ("nan-string", '"nan"', 5, "traceback"),
        ("inf-literal", "Infinity", 5, "traceback"),
        ("1e400-number", "1e400", 5, "traceback (1e400 in an exact profile)"),
        ("1e400-string", '"1e400"', 5, "traceback"),
        ("huge-int", "1" + "0" * 5000, 5, "traceback (int with more than 4300 digits)"),
        ("negative", '"-1/2"', 5, "one-line error"),
        ("bool", "true", 5, "accepted?"),
        ("null", "null", 5, "traceback"),
        ("zero-denominator", '"1/0"', 5, "traceback"),
    ]
    out = []
    for name, literal, sec, before in P:
        for mode, args in (("eval", ev), ("eval-exact", ex)):
            out.append(
                Case(
                    f"profile-{name}-{mode}",
                    args,
                    "error",
                    before,
                    sec,
                    files=((FILE, lazy(lambda lit=literal: kuhn2_infosets(literal=lit))),),
                    timeout=30,
                )
            )
    return out


def _other_profile_files() -> list[Case]:
    v = ("verify", K2, FILE)
    e = ("eval", K2, FILE)
    rows = [
        ("binary", os_urandom_like(), "traceback (binary JSON)"),
        ("deep-list", "[" * 100_000 + "]" * 100_000, "traceback (RecursionError)"),
        ("deep-object", '{"a":' * 50_000 + "1" + "}" * 50_000, "traceback (RecursionError)"),
        ("empty", "", "traceback"),
        ("latin1", '{"game": "kuhn", "infosets": {"\xe9": 1}}'.encode("latin-1"), "traceback"),
        ("a-list", "[1, 2, 3]", "traceback"),
        ("game-42", lazy(lambda: kuhn2_infosets().replace(f'"{K2}"', "42")), "accepted, exit 0"),
        ("game-other", lazy(lambda: kuhn2_infosets().replace(f'"{K2}"', f'"{K3}"')), "garbage"),
        (
            "game-bad-spec",
            lazy(lambda: kuhn2_infosets().replace(f'"{K2}"', '"kuhn(pot=1e400)"')),
            "traceback (OverflowError)",
        ),
        ("infosets-list", profile_json([1, 2]), "traceback"),
        ("unknown-infoset", profile_json({"P9:9:zz": {"k": 1}}), "traceback"),
        (
            "unknown-action",
            lazy(lambda: kuhn2_infosets().replace('"b": "1/2"', '"x": "1/2"', 1)),
            "traceback",
        ),
    ]
    out = []
    for name, content, before in rows:
        for cmd in (e, v):
            out.append(
                Case(
                    f"profile-{name}-{cmd[0]}",
                    cmd,
                    "error",
                    before,
                    5,
                    files=((FILE, content),),
                    timeout=30,
                )
            )
    out += [
        Case(
            "profile-dev-zero-eval",
            ("eval", K2, "/dev/zero"),
            "error",
            "traceback / memory (reads /dev/zero to the end)",
            5,
            timeout=30,
        ),
        Case(
            "profile-dev-zero-verify",
            ("verify", K2, "/dev/zero"),
            "error",
            "traceback",
            5,
            timeout=30,
        ),
        Case("profile-folder-eval", ("eval", K2, "."), "error", "traceback (IsADirectoryError)", 5),
        Case("profile-missing-eval", ("eval", K2, "nosuch.json"), "error", "traceback", 5),
    ]
    return out


def os_urandom_like() -> bytes:
    """Deterministic binary garbage (not UTF-8)."""
    return bytes(np.random.default_rng(14).integers(0, 256, 4096, dtype=np.uint8))


def _section1() -> list[Case]:
    solve_o = ("solve", K3, "--iterations", "5000", "-o", "profile.json", "--no-table")
    return [
        Case(
            "readme-eval-exact",
            ("eval", K3, "profile.json", "--exact"),
            "ok",
            "rejected: decimals sum to 100000000000000001/10^17",
            1,
            setup=(solve_o,),
        ),
        Case(
            "readme-verify",
            ("verify", K3, "profile.json"),
            "no",
            "rejected every solver profile (exit 2)",
            1,
            setup=(solve_o,),
        ),
        Case("readme-eval-float", ("eval", K3, "profile.json"), "ok", "ok", 1, setup=(solve_o,)),
        Case(
            "verify-lp-profile",
            ("verify", K2, "p.json"),
            "ok",
            "rejected",
            1,
            setup=(("solve", K2, "--method", "lp", "-o", "p.json", "--no-table"),),
        ),
        Case(
            "eval-exact-pdcfr-profile",
            ("eval", K2, "p.json", "--exact"),
            "ok",
            "rejected",
            1,
            setup=(
                (
                    "solve",
                    K2,
                    "--method",
                    "pdcfr+",
                    "--iterations",
                    "300",
                    "-o",
                    "p.json",
                    "--no-table",
                ),
            ),
        ),
        Case(
            "eval-exact-mccfr-profile",
            ("eval", K2, "p.json", "--exact"),
            "ok",
            "rejected",
            1,
            setup=(
                (
                    "solve",
                    K2,
                    "--method",
                    "es-mccfr",
                    "--iterations",
                    "300",
                    "-o",
                    "p.json",
                    "--no-table",
                ),
            ),
        ),
        Case(
            "verify-profile-of-another-game",
            ("verify", K3, "p.json"),
            "error",
            "README's example pointed at a profile of another game",
            1,
            setup=(("solve", K2, "--iterations", "50", "-o", "p.json", "--no-table"),),
        ),
    ]


def _section2() -> list[Case]:
    E = "error"
    return [
        Case("kuhn-players-10-info", ("info", "kuhn(players=10)"), E, "allocates 3 GiB", 2),
        Case("kuhn-players-10-solve", ("solve", "kuhn(players=10)"), E, "allocates 3 GiB", 2),
        Case("kuhn-players-50-info", ("info", "kuhn(players=50)"), E, "MemoryError after 27 s", 2),
        Case("kuhn-players-1000", ("info", "kuhn(players=1000)"), E, "hang", 2),
        Case("third-street-cards-500", ("info", "kuhn_third_street(cards=500)"), E, "memory", 2),
        Case(
            "third-street-cards-1e9",
            ("info", "kuhn_third_street(cards=1000000000)"),
            E,
            "7.45 GiB",
            2,
        ),
        Case(
            "third-street-cards-10**9",
            ("info", "kuhn_third_street(cards=10**9)"),
            E,
            "(spec written with **)",
            2,
        ),
        Case("kuhn-cards-1e9", ("solve", "kuhn(cards=1000000000)"), E, "guarded", 2),
        Case("pot-1e999999999", ("info", "kuhn(pot=1e999999999)"), E, "hang", 2),
        Case("pot-1e-999999999", ("info", "kuhn(pot=1e-999999999)"), E, "hang", 2),
        Case(
            "pot-1e999999999-third-street",
            ("solve", "kuhn_third_street(pot=1e999999999)"),
            E,
            "hang",
            2,
        ),
        Case("pot-1e999999999-canonical-export", ("export", "skp(pot=1e999999999)"), E, "hang", 2),
        Case("bet-huge-fraction", ("info", "kuhn(bet=1e-999999999/1e999999999)"), E, "hang", 2),
        Case(
            "pot-min-1e999999999",
            ("equilibria", "skp", "--symbolic-pot", "--pot-min", "1e999999999"),
            E,
            "hang",
            2,
        ),
        Case(
            "pot-min-1e-999999999",
            ("equilibria", "skp", "--symbolic-pot", "--pot-min", "1e-999999999"),
            E,
            "hang",
            2,
        ),
        Case(
            "basins-grid-100000", ("dynamics", "ode", "--basins-grid", "100000"), E, "74.5 GiB", 2
        ),
        Case("trace-pot-inf", ("trace", "skp", "--pot", "1:inf", "--no-gif"), E, "never ends", 2),
        Case(
            "trace-pot-huge", ("trace", "skp", "--pot", "1:1e999999999", "--no-gif"), E, "hang", 2
        ),
        Case("trace-pot-nan", ("trace", "skp", "--pot", "nan:3", "--no-gif"), E, "hang", 2),
        Case("trace-pot-reversed", ("trace", "skp", "--pot", "8:6", "--no-gif"), E, "(window)", 2),
        Case("trace-pot-negative", ("trace", "skp", "--pot", "-1:3", "--no-gif"), E, "(window)", 2),
        Case("trace-pot-garbage", ("trace", "skp", "--pot", "a:b", "--no-gif"), E, "(window)", 2),
        Case("ode-pot-inf", ("dynamics", "ode", "--pot", "1e999999999"), E, "hang/garbage", 2),
    ]


def _section3() -> list[Case]:
    """Output paths checked before any work: a folder given as a file (``adir``), a
    file given as a folder (``afile/x``), and a folder nobody may create (``/proc``)."""
    files = (("afile", "x"), ("adir/.keep", ""))
    # The work is given a minute; a refusal must come well before it (20 s leaves room for
    # a slow start on a loaded machine, so this is no speed assertion).
    slow_solve = ("solve", K3, "--iterations", "100000000", "--seconds", "60", "--no-table")
    targets = {"dir": "adir", "under-file": "afile/out.json", "proc": "/proc/toypoker/out.json"}
    out = []

    def add(name: str, args: tuple[str, ...], max_seconds: float | None = 20.0) -> None:
        for kind, target in targets.items():  # the targets as set at the call
            out.append(
                Case(
                    f"path-{name}-{kind}",
                    tuple(a.replace("TARGET", target) for a in args),
                    "error",
                    "traceback after the work (results lost)",
                    3,
                    files=files,
                    max_seconds=max_seconds,
                    timeout=30,
                )
            )

    add("solve-o", (*slow_solve, "-o", "TARGET"))
    add("solve-csv", (*slow_solve, "--csv", "TARGET"))
    add("solve-result", (*slow_solve, "--result", "TARGET"))
    add("solve-checkpoint", (*slow_solve, "--checkpoint", "TARGET"))
    add(
        "compare-plot",
        ("compare", K2, "--methods", "cfr+,cfr", "--seconds", "60", "--plot", "TARGET"),
    )
    add(
        "compare-result",
        ("compare", K2, "--methods", "cfr+,cfr", "--seconds", "60", "--result", "TARGET"),
    )
    targets = {"file": "afile", "under-file": "afile/out", "proc": "/proc/toypoker/out"}
    add(
        "trace-outdir",
        ("trace", "skp", "--pot", "2:40", "--no-gif", "--outdir", "TARGET"),
        max_seconds=None,
    )
    add("ode-outdir", ("dynamics", "ode", "--outdir", "TARGET"), max_seconds=None)
    targets = {"dir": "adir", "under-file": "afile/out.json", "proc": "/proc/toypoker/out.json"}
    add("export-o", ("export", K3, "-o", "TARGET"), max_seconds=None)
    add(
        "literature-o",
        ("literature", "check", "--claim", "kuhn-basic", "-o", "TARGET"),
        max_seconds=None,
    )
    add(
        "table1-csv",
        (
            "dynamics",
            "table1",
            "--rounds",
            "2000000",
            "--L",
            "6",
            "--k",
            "0.01",
            "--workers",
            "1",
            "--csv",
            "TARGET",
        ),
    )
    return out


def _section5() -> list[Case]:
    E = "error"
    resume = ("solve", K2, "--resume", CP, "--iterations", "20", "--no-table")
    cp_cases = [
        ("truncated-half", truncated_checkpoint(0.5), "traceback (BadZipFile)"),
        ("truncated-tail", truncated_checkpoint(0.97), "traceback (BadZipFile)"),
        ("flipped-bytes", flipped_checkpoint, "traceback"),
        ("garbage", os_urandom_like(), "traceback (BadZipFile)"),
        ("empty", b"", "'interrupted', exit 130"),
        ("json-file", '{"format": "toypoker-checkpoint/2"}', "suggests allow_pickle"),
        ("bare-npy", bare_npy, "traceback"),
        ("zip-no-meta", zip_without_meta, "traceback (KeyError)"),
        ("meta-not-json", checkpoint(lambda m, a: "{not json"), "traceback"),
        ("meta-a-list", checkpoint(lambda m, a: "[1, 2]"), "traceback"),
        ("meta-missing-game", checkpoint(_drop("game")), "traceback (KeyError)"),
        ("meta-missing-scalars", checkpoint(_drop("scalars", "options")), "traceback (KeyError)"),
        ("meta-missing-all", checkpoint(lambda m, a: {"format": m["format"]}), "traceback"),
        ("meta-wrong-format", checkpoint(_set("format", "toypoker-checkpoint/1")), "traceback"),
        ("meta-unknown-method", checkpoint(_set("method", "nosuch")), "traceback"),
        ("meta-seed-string", checkpoint(_set("seed", "x")), "traceback"),
        ("meta-seconds-nan", checkpoint(_set("seconds", float("nan"))), "garbage"),
        ("meta-trace-garbage", checkpoint(_set("trace", [[1, 2]])), "traceback"),
        ("meta-options-garbage", checkpoint(_set("options", {"floor": "sometimes"})), "traceback"),
        ("meta-game-other", checkpoint(_other_game), "traceback (wrong shapes)"),
        ("meta-game-huge-pot", checkpoint(_bad_game), "hang"),
        ("iteration-negative", checkpoint(_scalar_iteration(-5)), "garbage"),
        ("iteration-float", checkpoint(_scalar_iteration(2.5)), "traceback"),
        ("arrays-short", checkpoint(_short_arrays), "traceback (wrong shapes)"),
        ("arrays-matrix", checkpoint(_matrix_arrays), "traceback (wrong shapes)"),
        ("arrays-int", checkpoint(_int_arrays), "traceback"),
        ("nan-regrets", checkpoint(_nan_regrets), "garbage result, exit 0 (section 7)"),
        ("inf-average", checkpoint(_inf_average), "garbage result, exit 0"),
        ("mccfr-rng-garbage", checkpoint(_rng_garbage, method="es-mccfr"), "traceback"),
    ]
    out = [
        Case(
            f"checkpoint-{name}",
            resume,
            E,
            before,
            5,
            files=((CP, maker),),
            not_match="allow_pickle|interrupted",
            timeout=30,
        )
        for name, maker, before in cp_cases
    ]
    out += [
        Case("checkpoint-missing", resume, E, "traceback", 5),
        Case(
            "checkpoint-folder",
            ("solve", K2, "--resume", "adir"),
            E,
            "traceback",
            5,
            files=(("adir/.keep", ""),),
        ),
        Case(
            "checkpoint-dev-zero",
            ("solve", K2, "--resume", "/dev/zero"),
            E,
            "hang/memory",
            5,
            timeout=30,
        ),
        Case("checkpoint-valid-resumes", resume, "ok", "ok", 5, files=((CP, checkpoint()),)),
    ]
    neg_seed = [
        ("solve", ("solve", K2, "--method", "es-mccfr", "--seed", "-1", "--iterations", "10")),
        ("compare", ("compare", K2, "--methods", "es-mccfr", "--seed", "-1", "--seconds", "1")),
        ("trace", ("trace", "skp", "--pot", "2:4", "--seed", "-1", "--no-gif")),
        ("play", ("dynamics", "play", "--seed", "-1", "--rounds", "1000")),
        (
            "table1",
            (
                "dynamics",
                "table1",
                "--seed",
                "-1",
                "--rounds",
                "1000",
                "--L",
                "6",
                "--k",
                "0.01",
                "--workers",
                "1",
            ),
        ),
    ]
    out += [Case(f"negative-seed-{n}", a, E, "traceback", 5) for n, a in neg_seed]
    out += [
        Case("pot-1e400-info", ("info", "kuhn(pot=1e400)"), E, "traceback (OverflowError)", 5),
        Case("pot-1e400-solve", ("solve", "skp(pot=1e400)"), E, "traceback (OverflowError)", 5),
        Case("ode-y0-out-of-range", ("dynamics", "ode", "--y0", "2,3,4"), E, "traceback", 5),
        Case("ode-y0-two-values", ("dynamics", "ode", "--y0", "0.2,0.3"), E, "traceback", 5),
        Case("ode-y0-nan", ("dynamics", "ode", "--y0", "nan,0.2,0.2"), E, "traceback", 5),
        Case(
            "estimators-L-0",
            ("dynamics", "estimators", "--L", "0", "--rounds", "1000"),
            E,
            "traceback",
            5,
        ),
        Case(
            "estimators-L-negative",
            ("dynamics", "estimators", "--L", "-6", "--rounds", "1000"),
            E,
            "traceback",
            5,
        ),
        Case("basins-grid-0", ("dynamics", "ode", "--basins-grid", "0"), E, "traceback", 5),
        Case("basins-grid-negative", ("dynamics", "ode", "--basins-grid", "-3"), E, "traceback", 5),
    ]
    return out


def _section6() -> list[Case]:
    """Curve files given to ``trace --resume`` (the loader's side of section 6)."""
    E = "error"
    tr = ("trace", "skp", "--resume", "tr/curve.csv", "--no-gif", "--outdir", "tr")
    curves = [
        ("nan-row", curve(_nan_row), "resume marked the checkpoint finished"),
        ("nan-frequency", curve(_nan_sigma), "garbage"),
        ("ragged-row", curve(_ragged), "traceback"),
        ("header-only", curve(_header_only), "traceback"),
        ("huge-number", curve(_huge_number), "garbage (inf)"),
        ("no-labels", curve(edit_meta=_meta_drop_labels), "traceback (KeyError)"),
        ("eps-nan", curve(edit_meta=_meta_eps_nan), "garbage"),
        ("spec-not-string", curve(edit_meta=_meta_bad_spec), "traceback"),
        ("steps-negative", curve(edit_meta=_meta_steps_negative), "garbage"),
        ("binary", curve(lambda t: os_urandom_like().decode("latin-1")), "traceback"),
    ]
    out = [
        Case(f"curve-{name}", tr, E, before, 6, files=(("tr/curve.csv", maker),), timeout=60)
        for name, maker, before in curves
    ]
    out += [
        Case(
            "curve-missing-json",
            tr,
            E,
            "reported as curve.csv, not curve.csv.json",
            6,
            files=(("tr/curve.csv", curve(meta=False)),),
            match=r"curve\.csv\.json",
        ),
        Case("curve-missing", tr, E, "traceback", 6),
    ]
    return out


def _section7() -> list[Case]:
    E = "error"
    s = ("solve", K2, "--no-table")
    ode = ("dynamics", "ode")
    play = ("dynamics", "play", "--rounds", "2000")
    tr = ("trace", "skp", "--pot", "2:4", "--no-gif")
    return [
        Case("seconds-negative", (*s, "--seconds", "-5"), E, "accepted, exit 0", 7),
        Case("seconds-nan", (*s, "--seconds", "nan"), E, "accepted, exit 0", 7),
        Case("seconds-zero", (*s, "--seconds", "0"), E, "accepted, exit 0", 7),
        Case("target-nash-conv-nan", (*s, "--target-nash-conv", "nan"), E, "accepted, exit 0", 7),
        Case("target-nash-conv-negative", (*s, "--target-nash-conv", "-1"), E, "accepted", 7),
        Case("target-max-gain-nan", (*s, "--target-max-gain", "nan"), E, "accepted", 7),
        Case("iterations-zero", (*s, "--iterations", "0"), E, "accepted", 7),
        Case("iterations-negative", (*s, "--iterations", "-3"), E, "accepted", 7),
        Case(
            "checkpoint-seconds-nan",
            (*s, "--checkpoint", "c.npz", "--checkpoint-seconds", "nan"),
            E,
            "accepted",
            7,
        ),
        Case(
            "compare-seconds-nan",
            ("compare", K2, "--methods", "cfr+", "--seconds", "nan"),
            E,
            "accepted",
            7,
        ),
        Case(
            "compare-no-valid-method",
            ("compare", K2, "--methods", "nosuch,other", "--seconds", "1"),
            E,
            "empty table, exit 0",
            7,
        ),
        Case(
            "compare-empty-methods",
            ("compare", K2, "--methods", "", "--seconds", "1"),
            E,
            "empty table, exit 0",
            7,
        ),
        Case("solve-unknown-method", (*s, "--method", "nosuch"), E, "one line", 7),
        Case(
            "solve-decimals-huge",
            (*s, "--iterations", "10", "--decimals", "1000000000"),
            E,
            "(fuzz) hang: a billion-digit format",
            7,
            timeout=30,
        ),
        Case("seeds-zero", (*s, "--method", "es-mccfr", "--seeds", "0"), E, "accepted", 7),
        Case(
            "seeds-deterministic-method", (*s, "--method", "cfr+", "--seeds", "3"), E, "accepted", 7
        ),
        Case("play-k-nan", (*play, "--k", "nan"), E, "all-zero frequencies, exit 0", 7),
        Case("play-k-negative", (*play, "--k", "-1"), E, "accepted", 7),
        Case("play-L-zero", (*play, "--L", "0"), E, "accepted", 7),
        Case("play-pot-nan", (*play, "--pot", "nan"), E, "accepted", 7),
        Case("play-rounds-zero", ("dynamics", "play", "--rounds", "0"), E, "accepted", 7),
        Case("play-record-every-0", (*play, "--record-every", "0"), E, "accepted, exit 0", 7),
        Case("ode-t-end-negative", (*ode, "--t-end", "-5"), E, "'period nan', exit 0", 7),
        Case("ode-t-end-nan", (*ode, "--t-end", "nan"), E, "accepted", 7),
        Case("ode-k-nan", (*ode, "--k", "nan"), E, "accepted", 7),
        # found by test_fuzz.py (not in the list)
        Case("ode-t-end-1e300", (*ode, "--t-end", "1e300"), E, "(fuzz) hang", 7, timeout=30),
        Case("ode-pot-1e300", (*ode, "--pot", "1e300"), E, "(fuzz) traceback (LinAlgError)", 7),
        Case("ode-k-1e300", (*ode, "--k", "1e300"), E, "(fuzz) traceback (TypeError)", 7),
        Case(
            "table1-workers-0",
            ("dynamics", "table1", "--workers", "0", "--rounds", "1000"),
            E,
            "accepted",
            7,
        ),
        Case(
            "table1-seeds-0",
            ("dynamics", "table1", "--seeds", "0", "--rounds", "1000"),
            E,
            "accepted",
            7,
        ),
        Case("trace-ds-max-0", (*tr, "--ds-max", "0"), E, "accepted, exit 0", 7),
        Case("trace-ds-max-nan", (*tr, "--ds-max", "nan"), E, "accepted", 7),
        Case("trace-eps-0", (*tr, "--eps", "0"), E, "accepted", 7),
        Case("trace-eps-nan", (*tr, "--eps", "nan"), E, "accepted", 7),
        Case("trace-at-outside", (*tr, "--at", "9"), E, "accepted", 7),
        Case(
            "pot-min-without-symbolic",
            ("equilibria", "skp", "--pot-min", "3"),
            E,
            "accepted, exit 0",
            7,
        ),
        Case("threads-zero", ("--threads", "0", "games"), E, "accepted", 7),
        Case(
            "trace-skp-eps-1e-8",
            ("trace", "skp", "--pot", "0.5:20", "--eps", "1e-8", "--no-gif"),
            "no",
            "'step too small' on a partial curve, exit 0",
            7,
            slow=True,
            timeout=300,
        ),
    ]


def _spec_cases() -> list[Case]:
    """The spec grammar: injection attempts do nothing, malformed specs are one line."""
    E = "error"
    specs = [
        ("injection", "__import__('os').system('touch pwned')"),
        ("unclosed", "kuhn(players=3"),
        ("empty", ""),
        ("float-players", "kuhn(players=3.5)"),
        ("bool-players", "kuhn(players=true)"),
        ("unknown-game", "nosuch"),
        ("unknown-param", "kuhn(colour=red)"),
        ("one-player", "kuhn(players=1)"),
        ("too-few-cards", "kuhn(players=3,cards=2)"),
        ("pot-zero", "kuhn(pot=0)"),
        ("pot-and-ante", "kuhn(pot=3,ante=1)"),
        ("twice", "kuhn(players=2,players=3)"),
        ("long-number", "kuhn(pot=" + "9" * 5000 + ")"),
        ("leduc-players-4", "leduc(players=4)"),
    ]
    out = [Case(f"spec-{n}", ("info", s), E, "one line", 5) for n, s in specs]
    out += [
        Case("ok-games", ("games",), "ok", "ok", 0),
        Case("ok-info", ("info", K3), "ok", "ok", 0),
        Case("ok-info-pot-1e300", ("info", "kuhn(pot=1e300)"), "ok", "ok", 0),
        Case("ok-solve", ("solve", K2, "--iterations", "10"), "ok", "ok", 0),
    ]
    return out


from .cases_files import file_cases  # noqa: E402  (it builds on Case, above)

CASES: tuple[Case, ...] = tuple(
    _section1()
    + _section2()
    + _section3()
    + _section5()
    + _section6()
    + _section7()
    + _profile_cases()
    + _other_profile_files()
    + _spec_cases()
    + file_cases()
)

from .cases_api import API_CASES  # noqa: E402 - issue 35's kinds, made with the helpers above

CASES += API_CASES

from .cases_round4 import ROUND4_CASES  # noqa: E402 - issue 47's kinds, on the helpers above

CASES += ROUND4_CASES

_ids = [c.id for c in CASES]
assert len(_ids) == len(set(_ids)), sorted({i for i in _ids if _ids.count(i) > 1})
