"""Issue 47's kinds of cases ("Sturdy, round four") for the robustness table: paths
that hold another run's work, folders every command writes locked, counts bounded by
the machine, targets met without an overflow, resumes that say what they do, files an
older version wrote under another name, and the Python API's numbers and messages.

Command lines as :class:`~.cases.Case`; Python programs as ``Case.script`` (``main()``
raising a ToypokerError is the one-line error, exit 2).  Their unit tests:
``tests/cli/test_sturdy_four.py``, ``tests/solvers/test_sturdy_four.py``,
``tests/engines/vectors/test_direct.py``, ``tests/cli/test_games.py``,
``tests/test_highs.py``, ``tests/cli/test_signals.py``.
"""

from __future__ import annotations

from .cases import CP, K2, K3, Case
from .cases_api import _program
from .cases_files import FileCase, _release, held

SECTION = 47

_SOLVE5 = ("solve", K2, "--iterations", "5", "--no-table")
_MADE = ((*_SOLVE5, "--checkpoint", CP),)  # a checkpoint of 5 iterations, made first
_LOCK = r"is in use by another run \(pid \d+\); wait for it to end"


def _command_cases() -> list[Case]:
    E, OK = "error", "ok"
    holdem52 = "holdem(ranks=13,suits=4,hole=2,rounds=3,board2=3,board3=1,evaluator=standard)"
    return [
        # another run's work is never replaced without --resume or --overwrite
        Case("r4-checkpoint-exists", (*_SOLVE5, "--checkpoint", CP), E,
             "replaced silently", SECTION, setup=_MADE, match="exists .*--overwrite"),
        Case("r4-checkpoint-other-game", ("solve", "leduc(players=2)", "--iterations", "5",
             "--checkpoint", CP), E, "another game's checkpoint replaced silently", SECTION,
             setup=_MADE, match="exists"),
        Case("r4-checkpoint-overwrite", (*_SOLVE5, "--checkpoint", CP, "--overwrite"), OK,
             "(new kind)", SECTION, setup=_MADE),
        Case("r4-checkpoint-resume-itself", ("solve", K2, "--iterations", "9", "--no-table",
             "--checkpoint", CP, "--resume", CP), OK, "(new kind)", SECTION, setup=_MADE),
        Case("r4-seeds-checkpoint-exists", ("solve", K2, "--method", "es-mccfr", "--seeds",
             "2", "--iterations", "5", "--checkpoint", CP), E, "(new kind)", SECTION,
             setup=(("solve", K2, "--method", "es-mccfr", "--seeds", "2", "--iterations",
                     "5", "--checkpoint", CP),), match="exists"),
        # resumes that say what they do
        Case("r4-resume-fewer-iterations", ("solve", K2, "--iterations", "3", "--resume", CP,
             "--no-table"), OK, "returned the longer run, silently", SECTION, setup=_MADE),
        Case("r4-resume-other-option", ("solve", K2, "--iterations", "9", "--resume", CP,
             "--option", "delay=3"), E, "a cut repr of the options", SECTION, setup=_MADE,
             match="was run with delay=0, not delay=3"),
        # counts bounded, messages in the option's own words
        Case("r4-threads-after-command", (*_SOLVE5, "--threads", "1"), OK,
             "No such option: --threads", SECTION),
        Case("r4-threads-zero", (*_SOLVE5, "--threads", "0"), E, "answered about BLAS",
             SECTION, match="--threads must be", not_match="BLAS"),
        Case("r4-workers-beyond-machine", ("solve", "kuhn(players=2,cards=13)", "--layout",
             "vector", "--scheduler", "local", "--workers", "100000"), E,
             "accepted: dask tracebacks, SIGKILL needed", SECTION, match="give at most",
             max_seconds=30),
        Case("r4-workers-with-tcp", ("solve", "kuhn(players=2,cards=13)", "--layout",
             "vector", "--scheduler", "tcp://127.0.0.1:9", "--workers", "2"), E,
             "taken silently; the header claimed 2 workers", SECTION, match="drop --workers"),
        # targets: no overflow, a budget that ends first said in one line
        Case("r4-target-far-with-budget", ("solve", K2, "--target-nash-conv", "1e-30",
             "--iterations", "2000", "--no-table"), "no", "OverflowError traceback",
             SECTION),
        # sizes counted before building
        Case("r4-holdem-52-vector", ("solve", holdem52, "--iterations", "1"), E,
             "7 GB, then 1,300 lines of MemoryError", SECTION,
             match="too large to compile: its .* deals .*; hand vectors have more than",
             max_seconds=60),
        Case("r4-info-solve-one-estimate", ("solve", "rhode_island(players=3)"), E,
             "200 GB here, 570 GB in info", SECTION, match="about 570.3 GB"),
        # a file an older version wrote as JSON under a .npz name
        Case("r4-old-json-as-npz-checkpoint", ("solve", K2, "--resume", "old.npz"), E,
             "File is not a zip file", SECTION,
             files=(("old.npz", '{"format": "toypoker-profile/1"}'),), match="it is JSON"),
        # every folder a command writes is locked
        FileCase("r4-trace-folder-in-use", ("trace", "skp", "--pot", "2:3", "--no-gif",
                 "--out-dir", "t"), E, "both traces wrote one folder", SECTION,
                 files=(("t", held(True)),), match="trace folder t " + _LOCK,
                 after=_release),
        FileCase("r4-output-file-in-use", ("export", K2, "-o", "k.efg"), E,
                 "two exports wrote one file", SECTION, files=(("k.efg", held(False)),),
                 match="-o k.efg " + _LOCK, after=_release),
        # counts refused before anything is listed or built (the fourth and fifth rounds)
        Case("r4-sweep-billion-seeds", ("sweep", "solve", "kuhn", "--seeds", "1000000000",
             "--methods", "es-mccfr", "--scheduler", "serial", "--out-dir", "sw"), E,
             "13.5 GB, no output", SECTION, match="1,000,000,000 jobs; at most 100,000"),
        Case("r4-table1-billion-seeds", ("dynamics", "table1", "--seeds", "1000000000",
             "--outdir", "t"), E, "7.7 GB, no output", SECTION, match="runs .*at most 100,000"),
        Case("r4-estimators-memory-past-play", ("dynamics", "estimators", "--L", "1000",
             "--rounds", "100", "--outdir", "e"), E, "every mean printed as 0.0000",
             SECTION, match="must exceed the longest memory L"),
        Case("r4-equilibria-past-enumeration", ("equilibria", "kuhn(cards=1000)"), E,
             "15.4 GB built, then refused", SECTION, match="4,000 infosets: too many"),
        Case("r4-detect-alpha-first", ("detect", K3, "--collusion",
             "kuhn(players=3,team=12,strong=true)", "--alpha", "1.5"), E,
             "refused after both solves", SECTION, match="alpha must be in", max_seconds=30),
    ]  # fmt: skip


def _script_cases() -> list[Case]:
    E, OK = "error", "ok"
    cases = [
        ("solve-target-no-cap", OK, "stopped at 1,000 iterations short of the target",
         f'g = tp.load_game("{K2}")\n'
         'r = tp.solve(g, "cfr+", target_nash_conv=5e-5)\n'
         'assert r.stopped == "target" and r.iterations > 1000, r'),
        ("solve-checkpoint-exists", E, "replaced silently",
         "import os, tempfile\n"
         'ck = os.path.join(tempfile.mkdtemp(), "ck.npz")\n'
         f'tp.solve(tp.load_game("{K2}"), iterations=5, checkpoint=ck)\n'
         f'tp.solve(tp.load_game("{K2}"), iterations=5, checkpoint=ck)'),
        ("solve-threads-numpy", OK, "refused ('not np.int64(2)')",
         f'tp.solve(tp.load_game("{K2}"), iterations=5, threads=np.int64(2))'),
        ("solve-cluster-nowhere", E, "answered in CLI terms (--scheduler)",
         'g = tp.load_game("kuhn(players=2,cards=13)", layout="vector")\n'
         "try:\n"
         '    tp.solve(g, iterations=5, cluster="nowhere")\n'
         "except tp.ToypokerError as exc:\n"
         '    assert "--scheduler" not in str(exc), exc\n'
         "    raise"),
        ("tmecor-two-players", E, "suggested team=23 in a two-player game",
         f'tp.solve(tp.load_game("{K2}"), "tmecor")'),
    ]  # fmt: skip
    return [
        Case(
            f"r4-py-{name}", (name,), expect, before, SECTION, timeout=120, script=_program(body)
        )  # fmt: skip
        for name, expect, before, body in cases
    ]


ROUND4_CASES: tuple[Case, ...] = tuple(_command_cases() + _script_cases())
