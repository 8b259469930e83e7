"""Issue 47, the fourth audit round's findings (its table's case numbers): sizes counted
before anything is listed or built, refusals that carry the estimate `info` prints, and
options that cannot give a number refused instead of printing a zero.  Each test failed
on the code before."""

from __future__ import annotations

import time

import pytest

import toypoker as tp
from tests.cli.conftest import toypoker_process
from toypoker.dynamics.estimators import estimator_studies
from toypoker.engines.choice import choose_layout, rows_refusal
from toypoker.errors import SpecError, ToypokerError
from toypoker.locks import lock_path
from toypoker.sweeps.run import MAX_JOBS

#: a 52-card, two-hole-card, four-round hold'em: more boards than are counted before
#: building, and 2,334,488,579,280 deals (suit-isomorphic; the count `toypoker info`
#: prints for it)
HOLDEM = "holdem(players=2,ranks=13,suits=4,hole=2,rounds=4,board2=3,evaluator=standard)"


def test_a_billion_seeds_are_refused_before_they_are_listed(one_line_error, tmp_path):
    # N117: `sweep solve kuhn --seeds 1000000000` listed the seeds (13.5 GB in 60 s) before
    # the grid's count was checked
    line = one_line_error(
        "sweep", "solve", "kuhn", "--seeds", "1000000000", "--methods", "es-mccfr",
        "--scheduler", "serial", "--out-dir", tmp_path / "s",
    )  # fmt: skip
    assert f"the grid has 1,000,000,000 jobs; at most {MAX_JOBS:,} a sweep" in line, line


@pytest.mark.parametrize("seeds", [range(10**9), 10**9, range(5, 10**9)])
def test_the_api_counts_a_range_of_seeds_before_listing_it(seeds):
    with pytest.raises(ToypokerError, match="jobs; at most"):
        tp.sweep("solve", "kuhn", {"iterations": [10]}, seeds=seeds, methods=["es-mccfr"])


def test_a_negative_seed_in_a_range_is_named():
    with pytest.raises(ToypokerError, match="a seed must be at least 0, got -2"):
        tp.sweep("solve", "kuhn", {"iterations": [10]}, seeds=range(-2, 3), methods=["es-mccfr"])


def test_estimators_with_a_memory_longer_than_the_play_are_refused(one_line_error, tmp_path):
    # N139: `--L 1000000 --rounds 100` printed every estimator's mean as 0.0000 +- 0.000
    # (no estimate was ever averaged: the first L rounds fill the memory)
    line = one_line_error("dynamics", "estimators", "--L", "1000000", "--rounds", "100",
                          "--out-dir", tmp_path / "e")  # fmt: skip
    assert "rounds (100) must exceed the longest memory L (1,000,000)" in line, line
    with pytest.raises(ToypokerError, match="must exceed the longest memory"):
        estimator_studies(Ls=(6, 12), rounds=12)


def test_a_game_too_large_to_count_is_refused_with_the_deal_tables_estimate():
    # N142/N144: solve and eval refused it without the size `info` prints
    with pytest.raises(SpecError) as caught:
        choose_layout(HOLDEM)
    message = str(caught.value)
    refused = rows_refusal(HOLDEM)
    assert refused is not None and "2,334,488,579,280 deals" in refused
    assert message.startswith(refused) and "more than 20,000 boards at one depth" in message


def test_detect_refuses_bad_error_rates_before_any_solve(one_line_error, monkeypatch):
    # N81: `--alpha 1.5` was refused only after both CFR+ solves (12.6 s)
    def solved(*_a: object, **_k: object) -> None:
        raise AssertionError("a profile was solved before the options were checked")

    monkeypatch.setattr("toypoker.cli.detect._profile", solved)
    spec, coll = "kuhn(players=3)", "kuhn(players=3,team=12,strong=true)"
    line = one_line_error("detect", spec, "--collusion", coll, "--alpha", "1.5")
    assert line.strip() == "toypoker: error: alpha must be in (0, 0.5), got 1.5"
    line = one_line_error("detect", spec, "--collusion", coll, "--tremble", "1")
    assert line.strip() == "toypoker: error: tremble must be in [0, 1), got 1.0"


def test_ode_of_a_game_starts_from_its_own_default(cli, tmp_path):
    # N197: `dynamics ode --game G` without --y0 applied SKP's three numbers to G and
    # blamed --y0 ("--y0 needs 7 numbers (or one for all), got 3"); now every choice
    # starts at 1/2.  The rational third-street game has 7 free binary choices (the 7
    # unknowns `toypoker equilibria` solves it in: P3:1:kk ... P2:3:kkbc).
    code, out, err = cli("dynamics", "ode", "--game", "kuhn_third_street(rational=true)",
                         "--t-end", "1", "--outdir", tmp_path)  # fmt: skip
    assert code == 0, err
    assert "integrated 7 variables to t = 1" in out
    header, first = (tmp_path / "trajectory.csv").read_text().splitlines()[:2]
    assert header.count(",") == 7 and first.split(",")[1:] == ["0.5"] * 7


def test_table1_does_not_write_into_another_commands_run_store(cli, one_line_error, tmp_path):
    # N232/N242: `table1 --checkpoint` on an estimators store ran and added its run there;
    # the estimators' own resume was then refused for a file that was not its own
    store = tmp_path / "o" / "estimators-runs"
    code, _, err = cli("dynamics", "estimators", "--L", "6", "--rounds", "20000",
                       "--out-dir", tmp_path / "o")  # fmt: skip
    assert code == 0, err
    before = sorted(p.name for p in store.iterdir())
    line = one_line_error(
        "dynamics", "table1", "--L", "6", "--k", "0.01", "--rounds", "20000", "--seeds", "1",
        "--checkpoint", store, "--out-dir", tmp_path / "t",
    )  # fmt: skip
    assert "keeps runs of other options" in line and "is none of these runs" in line, line
    assert sorted(p.name for p in store.iterdir()) == before
    assert not (tmp_path / "t").exists()  # the refused run's locked folder is not left


def test_solve_checkpoint_on_a_plain_file_does_not_advise_resuming(one_line_error, tmp_path):
    # N236: a CSV given as --checkpoint was called a checkpoint to --resume
    plain = tmp_path / "play.csv"
    plain.write_text("round,b_J\n0,0.25\n")
    line = one_line_error("solve", "kuhn", "--iterations", "5", "--no-table",
                          "--checkpoint", plain)  # fmt: skip
    assert f"{plain} exists and is not a checkpoint" in line and "--resume" not in line, line


def test_a_tmecor_save_on_its_mixtures_names_what_they_are(cli, one_line_error, tmp_path):
    # N223: --save on the brackets' own mixtures file gave a UTF-8 decoding error
    brackets = tmp_path / "br.json"
    code, _, err = cli("collusion", "tmecor", "kuhn(players=3)", "--team", "23",
                       "--save", brackets)  # fmt: skip
    assert code == 0, err
    mixtures = tmp_path / "br_mixtures.npz"
    assert mixtures.is_file()
    line = one_line_error("collusion", "tmecor", "kuhn(players=3)", "--team", "23",
                          "--save", mixtures)  # fmt: skip
    assert "is the mixtures of a collusion tmecor's brackets" in line, line
    assert "codec" not in line


@pytest.mark.parametrize("args,locked,folder", [
    (("solve", "leduc(players=3)", "--iterations", "100000000", "--no-table", "--result",
      "r.json"), "r.json", False),
    (("dynamics", "ode", "--outdir", "d"), "d", True),
    # the fifth round's N131 and N133: every output file option is locked (check_file)
    (("export", "rhode_island(ranks=4,suits=4)", "-o", "d.efg"), "d.efg", False),
    (("dynamics", "table1", "--rounds", "3000000", "--csv", "t.csv", "--outdir", "A"),
     "t.csv", False),
])  # fmt: skip
def test_two_runs_into_one_output_the_second_refused(args, locked, folder, tmp_path):
    # N212/N213/N217/N218: two solves into one --result (or -o), two dynamics runs into
    # one --out-dir, ran at once and the later one replaced (or mixed into) the first's
    lock = lock_path(tmp_path / locked, folder)
    first = toypoker_process(*args, cwd=tmp_path, env={"TOYPOKER_PROGRESS_EVERY": "0"})
    try:
        deadline = time.monotonic() + 120
        while not lock.exists():
            assert first.poll() is None and time.monotonic() < deadline, "no lock taken"
            time.sleep(0.05)
        second = toypoker_process(*args, cwd=tmp_path)
        _, err = second.communicate(timeout=120)
        assert second.returncode == 2, err
        assert "is in use by another run (pid" in err.strip().splitlines()[-1], err
    finally:
        first.kill()
        first.communicate()


def test_a_profile_written_from_python_does_not_replace_kept_work(tmp_path):
    # N256: Profile.write_json over a collusion table7 store destroyed it (Result.save and
    # every CLI output refuse that file); to_json(path) and to_csv(path) likewise
    g = tp.load_game("kuhn(players=2)")
    p = tp.Profile.uniform(g)
    r = tp.solve(g, "cfr+", iterations=5, checkpoint=tmp_path / "ck.npz")
    assert r.iterations == 5
    before = (tmp_path / "ck.npz").read_bytes()
    for write in (p.write_json, p.to_json, p.to_csv):
        with pytest.raises(ToypokerError, match="is a solver checkpoint"):
            write(tmp_path / "ck.npz")
    assert (tmp_path / "ck.npz").read_bytes() == before


def test_an_error_left_by_an_interrupt_in_native_code_ends_as_interrupted(capsys):
    # N103: a SIGTERM while numba compiled lcfr's kernel came out as "RuntimeError: no
    # compiled object yet for <Library 'backward_regrets'>", a traceback and exit 1
    from toypoker import cli, interrupts

    class Command:
        def main(self, **_kw: object) -> None:
            try:
                interrupts.interrupt_now(15, None)  # the signal's handler, inside the compile
            except KeyboardInterrupt:
                pass  # swallowed by the native code, which fails on its own
            raise RuntimeError("no compiled object yet for <Library 'backward_regrets'>")

    interrupts.forget_interrupts()
    try:
        assert cli._command(Command(), []) == 130
    finally:
        interrupts.forget_interrupts()
    assert capsys.readouterr().err == "toypoker: interrupted\n"

    class Plain:
        def main(self, **_kw: object) -> None:
            raise RuntimeError("a bug")

    with pytest.raises(RuntimeError, match="a bug"):  # without an interrupt: shown as a bug
        cli._command(Plain(), [])


def test_equilibria_of_a_game_past_any_enumeration_refused_before_its_build(
    one_line_error, monkeypatch
):
    # N94 (fifth round): `equilibria 'kuhn(cards=1000)'` built the deal table (15.4 GB,
    # 69 s) before counting its 4,000 infosets (kuhn(cards=N): 4N, Kuhn 1950's tree)
    def built(*_a: object, **_k: object) -> None:
        raise AssertionError("the game was built")

    monkeypatch.setattr("toypoker.cli.equilibria.load_rows", built)
    line = one_line_error("equilibria", "kuhn(cards=1000)")
    assert "4,000 infosets: too many free choices to enumerate (3^k); at most 9" in line


def test_table1_counts_its_runs_before_listing_them(one_line_error, tmp_path):
    # N98 (fifth round): `dynamics table1 --seeds 1000000000` listed 12 billion runs (7.7 GB)
    line = one_line_error("dynamics", "table1", "--seeds", "1000000000",
                          "--outdir", tmp_path / "t")  # fmt: skip
    assert "12,000,000,000 runs (6 L x 2 k x 1,000,000,000 seeds); at most 100,000" in line
    assert not (tmp_path / "t").exists()


def test_a_folder_lock_on_a_file_says_it_is_a_file(tmp_path):
    # N158 (fifth round): tp.sweep(out=FILE) said "cannot lock sweep folder kprof.json:
    # kprof.json/.toypoker.lock: File exists" (no lock file existed)
    f = tmp_path / "kprof.json"
    f.write_text("{}")
    with pytest.raises(ToypokerError, match=r"sweep folder .*kprof.json is a file, not a folder"):
        tp.sweep("solve", "kuhn", {"iterations": [10]}, out=f)
    assert f.read_text() == "{}"


def test_info_prints_the_vector_memory_its_refusal_says(cli, monkeypatch):
    # a review of issue 46 (gap 5): with TOYPOKER_MAX_BYTES=1e9 the table said 2.8 GB
    # and the refusal 3.1 GB for a four-player game (the entries alone, then the one
    # estimate with the numpy kernel's dense product)
    import json

    from toypoker.engines.choice import row_count, vector_bytes
    from toypoker.io import size_text

    spec = "holdem(players=4,ranks=13,suits=4)"
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", str(10**9))
    code, out, err = cli("info", spec, "--json")
    assert code == 2
    printed = json.loads(out)["counted"]["vector_layout_bytes"]
    assert printed == vector_bytes(spec, row_count(spec)) > row_count(spec).entry_bytes
    assert f"hand vectors: about {size_text(printed)}" in err, err


def test_solve_help_names_every_method_of_the_registry(cli):
    # the help was a list typed by hand (it left tmecor out); it is the registry's now
    code, out, _ = cli("solve", "--help")
    assert code == 0
    text = " ".join(out.split())
    for name in tp.METHODS:
        assert name in text, name


def test_compare_refuses_a_method_named_twice(one_line_error):
    # the fifth audit round's minor point: `compare --methods cfr,cfr` ran cfr twice
    line = one_line_error("compare", "kuhn(players=2)", "--methods", "cfr,cfr+,cfr")
    assert "--methods names cfr more than once" in line, line
