"""``toypoker solve`` and ``compare``: results, files, seeds, checkpoints and interrupts."""

import json
import re
import shlex
import signal
import threading
import time

import pytest

from toypoker.games import load_rows
from toypoker.solvers import solve

from .conftest import toypoker_process


def test_solve_prints_table_values_and_nash_conv(cli):
    code, out, _ = cli("solve", "kuhn(players=2)", "--iterations", "300")
    assert code == 0
    assert "NashConv" in out and "P1" in out and "expected value" in out
    assert "np.float64" not in out


def test_strategy_table_one_column_per_action(cli):
    code, out, _ = cli("solve", "kuhn(players=2)", "--method", "lp", "--no-table")
    assert code == 0 and "Strategy" not in out
    code, out, _ = cli("solve", "kuhn(players=2)", "--method", "lp")
    header = next(line for line in out.splitlines() if "infoset" in line)
    assert all(f" {a} " in header + " " for a in ("k", "b", "f", "c"))
    assert "…" not in out and "/1/" not in out
    code, out, _ = cli("solve", "kuhn(players=2)", "--method", "lp", "--decimals", "4")
    assert code == 0 and "1/3" not in out and "0.3333" in out
    code, out, _ = cli("solve", "leduc(players=2)", "--iterations", "20", "--decimals", "4")
    assert code == 0 and "…" not in out
    # three-action rows in three columns, never joined as 0.333/0.333/0.333
    row = next(line for line in out.splitlines() if "P2:1:b " in line)
    cells = [c.strip() for c in row.split("│")[2:-1]]
    assert cells[:2] == ["", ""] and all(len(c) == 6 for c in cells[2:])


def test_solve_lp_prints_exact_value(cli):
    code, out, _ = cli("solve", "kuhn(players=2)", "--method", "lp", "--json")
    data = json.loads(out)
    # Kuhn (1950): value -1/18
    assert code == 0 and data["value_exact"][0] == "-1/18" and data["nash_conv"] == 0


def test_solve_seeds_summarises_spread(cli, tmp_path):
    path = tmp_path / "seeds.json"
    code, out, _ = cli(
        "solve", "kuhn(players=3)", "--method", "es-mccfr", "--seeds", "3",
        "--iterations", "300", "--result", path, "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["seeds"] == 3 and len(data["runs"]) == 3
    assert [r["seed"] for r in data["runs"]] == [0, 1, 2]
    assert json.loads(path.read_text()) == data
    assert {v["player"] for v in data["values"]} == {1, 2, 3}


def test_seeds_honour_seed_output_and_csv(cli, tmp_path):
    code, out, _ = cli(
        "solve", "kuhn(players=3)", "--method", "es-mccfr", "--seeds", "2", "--seed", "5",
        "--iterations", "200", "-o", tmp_path / "p.json", "--csv", tmp_path / "p.csv", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and [r["seed"] for r in data["runs"]] == [5, 6]
    one = solve(load_rows("kuhn(players=3)"), "es-mccfr", iterations=200, seed=6)
    assert json.loads((tmp_path / "p-seed6.json").read_text()) == json.loads(one.profile.to_json())
    assert (tmp_path / "p-seed5.csv").exists()


def test_seeds_need_a_sampling_method(one_line_error):
    assert "deterministic" in one_line_error("solve", "kuhn()", "--seeds", "2")


@pytest.mark.slow
def test_compare_writes_table_and_plot(cli, tmp_path):
    plot = tmp_path / "cmp.png"
    code, out, _ = cli(
        "compare", "kuhn(players=2)", "--methods", "cfr+,fp,lp,es-mccfr",
        "--seconds", "0.3", "--plot", plot, "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and [m["method"] for m in data["methods"]] == ["cfr+", "fp", "lp", "es-mccfr"]
    assert plot.exists() and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_checkpoint_and_resume_from_the_command_line(cli, tmp_path):
    ck = tmp_path / "ck.npz"
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    spec = "kuhn(players=3)"
    assert cli("solve", spec, "--iterations", "40", "--checkpoint", ck, "--json")[0] == 0
    assert cli("solve", spec, "--iterations", "80", "--resume", ck, "-o", a, "--json")[0] == 0
    assert cli("solve", spec, "--iterations", "80", "-o", b, "--json")[0] == 0
    assert json.loads(a.read_text()) == json.loads(b.read_text())


def test_resume_missing_checkpoint_is_one_line(one_line_error, tmp_path):
    err = one_line_error("solve", "kuhn()", "--resume", tmp_path / "none.npz")
    assert "checkpoint" in err


# ------------------------------------------------------------------ interrupts
def _wait_for(path, proc, timeout=60.0):
    t0 = time.monotonic()
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - t0 < timeout
        time.sleep(0.05)


def _resume_args(err: str) -> list[str]:
    line = next(x for x in err.splitlines() if "resume with: " in x)
    args = shlex.split(line.split("resume with: ", 1)[1])
    assert args[0] == "toypoker"
    return args[1:]


@pytest.mark.slow
def test_ctrl_c_during_solve_saves_and_resumes_exactly(cli, tmp_path):
    ck, a = tmp_path / "ck.npz", tmp_path / "a.json"
    spec, n = "leduc(players=2)", 60_000  # ~2 s: the first checkpoint comes well before the end
    proc = toypoker_process(
        "solve", spec, "--iterations", n, "--checkpoint", ck, "--checkpoint-seconds", "0.2",
        "-o", a, "--no-table", cwd=tmp_path,
    )  # fmt: skip
    _wait_for(ck, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    args = _resume_args(err)
    assert args[args.index("--resume") + 1] == str(ck) and "-o" in args and "--no-table" in args
    assert json.loads(a.read_text())  # the profile so far was saved
    code, _, _ = cli(*args)
    assert code == 0
    whole = solve(load_rows(spec), "cfr+", iterations=n)
    assert json.loads(a.read_text()) == json.loads(whole.profile.to_json())


@pytest.mark.slow
def test_sigterm_during_seeds_stops_the_batch_and_resumes(cli, tmp_path):
    ck, res = tmp_path / "ck.npz", tmp_path / "seeds.json"
    spec, n = "kuhn(players=3)", 400_000  # ~2 s a seed: the signal lands mid-seed
    proc = toypoker_process(
        "solve", spec, "--method", "es-mccfr", "--seeds", "2", "--iterations", n,
        "--checkpoint", ck, "--checkpoint-seconds", "0.2", "--result", res, cwd=tmp_path,
    )  # fmt: skip
    _wait_for(tmp_path / "ck-seed1.npz", proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "seed 1 stopped" in err and not res.exists()
    args = _resume_args(err)
    assert "--seeds" in args and "--result" in args
    assert cli(*args)[0] == 0
    runs = json.loads(res.read_text())["runs"]
    g = load_rows(spec)
    for s, run in enumerate(runs):
        whole = solve(g, "es-mccfr", iterations=n, seed=s)
        assert run["seed"] == s and run["values"] == pytest.approx(list(whole.values), abs=0)


@pytest.mark.slow
def test_ctrl_c_during_compare_keeps_finished_methods_and_resumes(cli, tmp_path):
    res, plot = tmp_path / "cmp.json", tmp_path / "cmp.png"
    proc = toypoker_process(
        "compare", "kuhn(players=2)", "--methods", "cfr+,fp,es-mccfr", "--seconds", "6",
        "--result", res, "--plot", plot, cwd=tmp_path,
    )  # fmt: skip
    # wait (on a busy machine, however long it takes) until fp reports progress: cfr+ is done
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(proc.stderr.readline, "")))
    reader.start()
    t0 = time.monotonic()
    while not any(line.startswith("toypoker: fp ") for line in list(seen)):
        assert proc.poll() is None and time.monotonic() - t0 < 120, seen
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    reader.join(timeout=60)
    err = "".join(seen)
    assert proc.returncode == 130, err
    done = [m["method"] for m in json.loads(res.read_text())["methods"]]
    assert done and "es-mccfr" not in done and "not reported" in err
    args = _resume_args(err)
    assert args[args.index("--resume") + 1] == str(res)
    code, _, _ = cli(*args)
    assert code == 0
    data = json.loads(res.read_text())
    assert [m["method"] for m in data["methods"]] == ["cfr+", "fp", "es-mccfr"]
    assert data["methods"][: len(done)] == json.loads(json.dumps(data["methods"][: len(done)]))


def test_cli_passes_method_options(cli, one_line_error):
    # Ullman's fp from the command line (tests/solvers/test_fictitious_ullman.py)
    code, out, err = cli(
        "solve", "mercer(players=2,variant=smh)", "--method", "fp", "--option", "ullman=true",
        "--target-max-gain", "0.001", "--iterations", "100000", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["iterations"] == 704 and data["options"]["ullman"] is True
    assert "nosuch" in one_line_error("solve", "kuhn()", "--method", "fp", "--option", "nosuch=1")
    assert "KEY=VALUE" in one_line_error("solve", "kuhn()", "--option", "ullman")


# ------------------------------------------------------------ targets and budgets (issue 24)
def test_a_target_without_a_budget_runs_to_the_target(cli):
    """Vanilla CFR on Kuhn is at NashConv 1.08e-3 after the old default of 2,000
    iterations (measured: solve(g, "cfr", iterations=2000)); 5e-4 needs more."""
    code, out, _ = cli("solve", "kuhn(players=2)", "--method", "cfr", "--target-nash-conv",
                       "5e-4", "--json")  # fmt: skip
    res = json.loads(out)
    assert code == 0 and res["stopped"] == "target"
    assert res["iterations"] > 2000 and res["nash_conv"] <= 5e-4


def test_a_budget_that_ends_before_the_target_says_so_and_exits_1(cli):
    code, out, err = cli("solve", "kuhn(players=2)", "--method", "cfr", "--iterations", "50",
                         "--target-nash-conv", "1e-9")  # fmt: skip
    assert code == 1
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "50 iterations" in lines[0] and "1e-09" in lines[0], err


def test_no_target_keeps_the_default_budget(cli):
    code, out, _ = cli("solve", "kuhn(players=2)", "--method", "cfr", "--json")
    assert code == 0 and json.loads(out)["iterations"] == 2000


def test_lp_says_solved_in_without_iterations(cli, monkeypatch, tmp_path):
    """The LP is one solve: ``--method lp`` showed a "1/2000" progress bar and said "1
    iterations" (audit of issue 21); now a stage line while it solves (every update
    printed: TOYPOKER_PROGRESS_EVERY=0) and "lp: solved in X s", on both layouts and
    in compare's table (Kuhn 1950: value -1/18)."""
    monkeypatch.setenv("TOYPOKER_PROGRESS_EVERY", "0")
    for layout in ("rows", "vector"):
        code, out, err = cli("solve", "kuhn(players=2)", "--method", "lp", "--layout", layout)
        assert code == 0, err
        assert "/2000" not in err and "iterations" not in out
        assert re.search(r"^lp: solved in \d+\.\d\d s; NashConv 0; exact value -1/18", out, re.M)
    code, out, err = cli(
        "compare", "kuhn(players=2)", "--methods", "cfr+,lp", "--seconds", "0.2",
        "--plot", tmp_path / "c.png",
    )  # fmt: skip
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.split("│")[1:2] == ["     lp "])
    assert [c.strip() for c in row.split("│")[2:4]] == ["one solve", "-"]


def test_every_file_written_is_said(cli, tmp_path):
    """``--result`` (and ``--csv``) were written without a line saying so, where ``-o``
    and ``--checkpoint`` say it (audit of issue 21)."""
    files = {"-o": "p.json", "--csv": "p.csv", "--result": "r.json", "--checkpoint": "c.npz"}
    args = [x for option, name in files.items() for x in (option, tmp_path / name)]
    code, out, err = cli("solve", "kuhn(players=2)", "--iterations", "5", "--no-table", *args)
    assert code == 0, err
    for name in files.values():
        assert (tmp_path / name).exists() and f"written to {tmp_path / name}" in out
    code, out, err = cli(
        "solve", "kuhn(players=2)", "--method", "es-mccfr", "--seeds", "2", "--iterations",
        "5", "--result", tmp_path / "s.json",
    )  # fmt: skip
    assert code == 0 and f"seed summary written to {tmp_path / 's.json'}" in out, err


def test_the_summary_line_brackets_player_1s_value(cli) -> None:
    """Issue 49, item 3: a two-player zero-sum game's summary line and JSON give player
    1's value bracketed by the two best responses; two-player Kuhn poker's value is
    -1/18 (Kuhn 1950), inside the bracket, whose width is NashConv."""
    import json
    import re

    code, out, _ = cli("solve", "kuhn(players=2)", "--iterations", "300", "--no-table")
    assert code == 0
    found = re.search(r"P1's\s+value\s+in\s+\[(\S+),\s+(\S+)\]", out)  # lines may wrap
    lo, hi = (float(x) for x in found.groups())
    assert lo <= -1 / 18 <= hi
    code, out, _ = cli("solve", "kuhn(players=2)", "--iterations", "300", "--json")
    data = json.loads(out)
    b = data["value_bracket"]
    assert b["player"] == 1 and b["lower"] <= -1 / 18 <= b["upper"]
    assert b["upper"] - b["lower"] == pytest.approx(data["nash_conv"], abs=1e-12)
    code, out, _ = cli("solve", "kuhn(players=3)", "--iterations", "30", "--no-table")
    assert code == 0 and "value" not in out.split("NashConv")[-1]  # three players: none
