"""Shared CLI behaviour: one-line errors, option checks, output paths checked before work."""

import os
import time

import pytest

from toypoker.cli import common


@pytest.mark.parametrize(
    "args, message",
    [
        (["info", "kuhn(players=1)"], "players >= 2"),
        (["info", "kuhn(players=3"], "malformed game spec"),
        (["info", "nope()"], "unknown game"),
        (["info", "kuhn(ante=-1)"], "positive"),
        (["solve", "kuhn()", "--iterations", "x"], "--iterations"),
        (["solve", "kuhn()", "--method", "magic"], "unknown method"),
        (["solve", "kuhn()", "--seconds", "-5"], "--seconds"),
        (["solve", "kuhn()", "--seconds", "nan"], "--seconds"),
        (["solve", "kuhn()", "--seconds", "0"], "--seconds"),
        (["solve", "kuhn()", "--target-nash-conv", "nan"], "--target-nash-conv"),
        (["solve", "kuhn()", "--target-nash-conv", "-1"], "--target-nash-conv"),
        (["solve", "kuhn()", "--seed", "-1"], "--seed"),
        (["solve", "kuhn()", "--seeds", "0"], "--seeds"),
        (["solve", "kuhn()", "--method", "lp", "--seeds", "2"], "--method lp"),
        (["compare", "kuhn()", "--seed", "-3"], "--seed"),
        (["compare", "kuhn()", "--methods", ","], "no method"),
        (["compare", "kuhn()", "--methods", "magic"], "unknown method"),
        (["compare", "kuhn(players=3)", "--methods", "lp"], "no method"),
        (["compare", "kuhn()", "--seconds", "nan"], "--seconds"),
        (["eval", "kuhn()", "/nonexistent/p.json"], "cannot read profile"),
        (["frobnicate"], "No such command"),
        (["export", "kuhn()", "--format", "xml"], "unknown format"),
        (["literature", "check", "--claim", "nope"], "unknown claim"),
        (["literature", "check", "--seed", "-1"], "--seed"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(one_line_error, args, message):
    assert message in one_line_error(*args)


# ------------------------------------------------------------------ output paths
# every output option with a budget that would run for minutes if work started first
HEAVY_SOLVE = ["solve", "kuhn(players=3)", "--iterations", "100000000"]
FILE_OPTIONS = [
    (HEAVY_SOLVE, "-o"),
    (HEAVY_SOLVE, "--csv"),
    (HEAVY_SOLVE, "--result"),
    (HEAVY_SOLVE, "--checkpoint"),
    (["compare", "kuhn()", "--seconds", "60"], "--plot"),
    (["compare", "kuhn()", "--seconds", "60"], "--result"),
    (["export", "kuhn()"], "-o"),
    (["literature", "check"], "-o"),
    (["dynamics", "table1", "--rounds", "100000000"], "--csv"),
]
FOLDER_OPTIONS = [
    ["trace", "kuhn(players=3,cards=6)", "--pot", "1:20"],
    ["dynamics", "ode"],
    ["dynamics", "play"],
    ["dynamics", "estimators"],
    ["dynamics", "table1"],
]


@pytest.fixture
def paths(tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    return {
        "missing folder": tmp_path / "missing" / "out.x",
        "file as folder": a_file / "out.x",
        "folder as file": tmp_path,
    }


@pytest.mark.parametrize("kind", ["missing folder", "file as folder", "folder as file"])
@pytest.mark.parametrize("args, option", FILE_OPTIONS)
def test_output_files_checked_before_work(one_line_error, paths, args, option, kind):
    t0 = time.perf_counter()
    err = one_line_error(*args, option, paths[kind])
    assert option in err and time.perf_counter() - t0 < 10


@pytest.mark.parametrize("args", FOLDER_OPTIONS)
@pytest.mark.parametrize("kind", ["file as folder", "under a file"])
def test_output_folders_checked_before_work(one_line_error, tmp_path, args, kind):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    target = a_file if kind == "file as folder" else a_file / "sub"
    t0 = time.perf_counter()
    err = one_line_error(*args, "--out-dir", target)
    assert "--out-dir" in err and time.perf_counter() - t0 < 10
    assert a_file.read_text() == "x"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder(one_line_error, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        assert "cannot create a file" in one_line_error(*HEAVY_SOLVE, "-o", ro / "p.json")
    finally:
        ro.chmod(0o755)


# ------------------------------------------------------------------ helpers
def test_resume_hint_keeps_every_option_and_replaces_resume(monkeypatch):
    monkeypatch.setattr(
        common,
        "ARGV",
        ["solve", "kuhn(players=3)", "-o", "a b.json", "--resume", "old.npz", "--seed=4"],
    )
    hint = common.resume_hint(drop=("--resume",), add=("--resume", "new.npz"))
    assert hint == ("toypoker solve 'kuhn(players=3)' -o 'a b.json' --seed=4 --resume new.npz")


def test_plain_progress_lines_when_piped(monkeypatch, capsys):
    monkeypatch.setattr(common, "PLAIN_PROGRESS_EVERY", 0.0)
    with common.Bar("solve kuhn", 10, fields=("NashConv",)) as bar:
        bar.update(3, NashConv="0.1")
    err = capsys.readouterr().err
    assert "toypoker: solve kuhn: 3/10, NashConv 0.1" in err


# ------------------------------------------------------------------ --version (issue 24)
@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_prints_the_package_version(cli, flag) -> None:
    """Independent path: the version is the package's ``__version__``."""
    import toypoker

    code, out, err = cli(flag)
    assert (code, out, err) == (0, f"toypoker {toypoker.__version__}\n", "")


def test_json_output_takes_numpy_numbers_and_fractions(capsys, tmp_path) -> None:
    # a row holding a numpy scalar ended in "Object of type float64 is not JSON
    # serializable" (found by `literature check --json` while adding claims)
    import json
    from fractions import Fraction

    import numpy as np

    data = {"value": np.float64(0.25), "count": np.int64(3), "exact": Fraction(-1, 48)}
    common.print_json(data)
    assert json.loads(capsys.readouterr().out) == {"value": 0.25, "count": 3, "exact": "-1/48"}
    out = tmp_path / "r.json"
    assert common.emit(data, out, False) is False
    assert json.loads(out.read_text())["exact"] == "-1/48"


def test_out_of_memory_is_one_line_and_exit_2(monkeypatch, capsys) -> None:
    # an allocation beyond the machine (numpy's ArrayMemoryError) ended in a traceback
    # (es-mccfr on a hold'em whose rows need 6.6 GB); audit 2026-11-26
    import toypoker.cli.games as cli_games
    from toypoker.cli import main

    def too_big(spec):  # noqa: ARG001 -- the signature of row_count
        raise MemoryError("Unable to allocate 412 MiB")

    monkeypatch.setattr(cli_games, "row_count", too_big)
    assert main(["info", "kuhn(players=3)"]) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(err) == 1 and err[0].startswith("toypoker: error: out of memory")


def test_exact_numbers_of_any_length_are_printed() -> None:
    # Python refuses str() of integers over 4,300 digits by default; exact certificates
    # on suited decks reach that (verify on rhode_island(ranks=3,suits=2,cap=1) ended in
    # a ValueError traceback); output lifts the limit, input keeps it; audit 2026-11-26
    import math
    import sys
    from fractions import Fraction

    huge = Fraction(3**10000, 2**15000)  # in lowest terms; 4,772 and 4,516 digits
    digits = math.floor(10000 * math.log10(3)) + 1 + 1 + math.floor(15000 * math.log10(2)) + 1
    limit = sys.get_int_max_str_digits()
    text = common.plain(huge)
    assert isinstance(text, str) and len(text) == digits and text.count("/") == 1
    assert text[-1] in "2468"  # 2**15000 is even, and its last digit is
    shown = common.num(huge, fractions=True)
    assert shown == f"{text} ({float(huge):.12g})"
    assert common.num(huge) == f"{float(huge):.12g}"  # long: the decimal only
    assert sys.get_int_max_str_digits() == limit  # reading stays guarded


def test_stage_prints_plain_lines_while_a_step_runs(monkeypatch, capsys) -> None:
    """A one-shot step (the LP) reports nothing until it is done: :class:`Stage` prints
    its own lines from a thread when stderr is no terminal (here every 0.5 s, the
    floor, for TOYPOKER_PROGRESS_EVERY=0), and none after it ends."""
    monkeypatch.setenv("TOYPOKER_PROGRESS_EVERY", "0")
    with common.Stage("lp kuhn: solving"):
        time.sleep(1.3)
    time.sleep(0.6)
    lines = capsys.readouterr().err.splitlines()
    assert 1 <= len(lines) <= 3 and all(x.startswith("toypoker: lp kuhn: solving, ") for x in lines)


def test_shortened_specs_keep_the_part_that_differs():
    """Audit item 23: two long specs differing in the middle (sharing=win / sharing=pot)
    were shortened to the same text, hiding the difference; now it stays in view (a
    difference near either end keeps the ordinary head-and-tail shortening)."""
    from toypoker.cli.common import MAX_WORD, short_line

    a = ("kuhn(players=3,cards=4,ante=1,bet=1,raise_cap=2,team=23,sharing=win,strong=true,"
         "merge=false)")  # fmt: skip
    b = a.replace("sharing=win", "sharing=pot")
    line = short_line(f"the profile is for {a}, not for {b}")
    assert "sharing=win" in line and "sharing=pot" in line, line
    assert all(len(w) <= MAX_WORD + 1 for w in line.split()), line
    c = a.replace("cards=4", "cards=5")
    line = short_line(f"the profile is for {a}, not for {c}")
    assert "cards=4" in line and "cards=5" in line, line
