"""``toypoker games``, ``info`` and the entry point itself."""

import json
import os
import subprocess
import sys

import pytest


def test_games_lists_builtins(cli):
    code, out, _ = cli("games", "--json")
    assert code == 0
    names = [g["name"] for g in json.loads(out)]
    assert names == [
        "kuhn",
        "kuhn_third_street",
        "skp",
        "leduc",
        "mercer",
        "holdem",
        "rhode_island",
    ]
    ri = json.loads(out)[-1]
    assert [p["name"] for p in ri["params"]][:4] == ["players", "ranks", "suits", "ante"]


def test_games_table(cli):
    code, out, _ = cli("games")
    assert code == 0 and "kuhn" in out and "parameter" in out


def test_info_json(cli):
    code, out, _ = cli("info", "kuhn(players=3)", "--json")
    data = json.loads(out)
    # Szafron et al.: 24 deals, 48 information sets
    assert code == 0 and data["deals"] == 24 and data["infosets"] == 48 and data["players"] == 3


def test_info_counts_rhode_island_and_names_its_layout(cli, monkeypatch):
    # its vector layout peaks at about 3.2 GB (34,981,128 entries x 91 bytes), the one
    # estimate the budget is held to since issue 47: the default budget, half the
    # machine's memory, admits it; the tests' 2 GiB would not
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "8e9")
    # the full game (Shi and Littman 2001) is counted, never built: the counts are
    # printed (438,275,565 rows: exact on small decks against compiled games,
    # tests/games/test_rhode_island.py), then the layout toypoker.load_game builds it on
    # (issue 33): hand vectors, the rows do not fit
    code, out, _ = cli("info", "rhode_island")
    assert code == 0 and "438275565" in out.replace(",", "")


def test_info_prints_the_counts_first(cli, monkeypatch):
    # its vector layout peaks at about 3.2 GB (34,981,128 entries x 91 bytes), the one
    # estimate the budget is held to since issue 47: the default budget, half the
    # machine's memory, admits it; the tests' 2 GiB would not
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "8e9")
    code, out, err = cli("info", "rhode_island")
    assert code == 0 and "counted before building" in out
    for word in ("deals", "366,145", "public nodes", "infosets", "3,937,128", "rows"):
        assert word in out
    # the vector layout solve builds: 336,357 public nodes x 2 players x 52 hands (the
    # public nodes as counted; tests/engines/vectors/test_direct.py builds small decks both ways)
    assert "vector entries" in out and "34,981,128" in out
    code, out, _ = cli("info", "rhode_island(ranks=3,suits=2,cap=1)", "--json")
    data = json.loads(out)
    assert code == 0 and data["rows"] == data["counted"]["rows"]
    assert data["infosets"] == data["counted"]["infosets"]


@pytest.mark.slow
def test_console_script_subprocess():
    proc = subprocess.run(
        [sys.executable, "-m", "toypoker", "info", "kuhn(players=0)"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    (line,) = proc.stderr.splitlines()
    assert line.startswith("toypoker: error: ") and "players >= 2, got 0" in line


def test_help_shows_flags_not_bool_metavars(cli):
    code, out, _ = cli("solve", "--help")
    assert code == 0
    assert "<bool>" not in out and "--table / --no-table" in out and "--json" in out


def test_no_arguments_prints_help(cli):
    code, out, _ = cli()
    assert code == 0 and "Usage" in out


def test_games_documents_the_collusion_keys(cli) -> None:
    """Issue 24: team, sharing, strong and merge, accepted by every spec
    (games/team_transform.py split_collusion), are listed where the games are."""
    code, out, _ = cli("games")
    assert code == 0
    section = out[out.index("Collusion") :]
    expected = (("team", "-"), ("sharing", "win"), ("strong", "false"), ("merge", "-"))
    for key, default in expected:
        row = next(ln for ln in section.splitlines() if ln.strip("│ ").startswith(key + " "))
        assert f" {default} " in row, row
    code, out, _ = cli("games", "--json")
    for g in json.loads(out):  # every game takes them (the JSON stays a list of games)
        names = [p["name"] for p in g["collusion_params"]]
        assert names == ["team", "sharing", "strong", "merge"]


def test_info_says_the_whole_refusal_and_the_whole_spec(cli, monkeypatch):
    """Audit of issue 21: the refusal of ``info rhode_island`` was cut mid-sentence
    (``...``: the budget's estimate pushed it past the one-line limit) and the spec's
    table cell elided at the console width.  Expected numbers: the counted rows
    (tests/games/test_layout_count.py, exact on compiled decks) x 200 bytes a row
    (layout_count.BYTES_PER_ROW) = 87.7 GB; the vector layout's 34,981,128 entries x 91
    bytes (BYTES_PER_ENTRY) = 3.2 GB; the spec with Shi and Littman's (2001) rules."""
    # its vector layout peaks at about 3.2 GB (34,981,128 entries x 91 bytes), the one
    # estimate the budget is held to since issue 47: the default budget, half the
    # machine's memory, admits it; the tests' 2 GiB would not
    monkeypatch.setenv("TOYPOKER_MAX_BYTES", "8e9")
    code, out, err = cli("info", "rhode_island")
    assert code == 0 and "..." not in out
    assert "87.7 GB" in out and "3.2 GB" in out  # the table's two memory estimates
    spec = "rhode_island(players=2,ranks=13,suits=4,ante=5,bet1=10,bet2=20,bet3=20,cap=3)"
    assert out.splitlines()[0] == spec and "…" not in out


def test_info_counts_a_collusion_spec_first(cli, monkeypatch):
    """Audit of issue 22: ``info`` on a collusion spec compiled the game without the
    counted table other specs get (three-player hold'em on a full deck: 6.6 GB of rows
    built uncounted).  Now counted first as its uncolluded game -- collusion keeps the
    deals, the public tree and so the rows -- and refused in one line when too large.
    Expected: the counts equal the compiled game's (independent path: the compile), and
    1,934,970,354,720 rows for three-player Rhode Island as ``info
    "rhode_island(players=3)"`` counts them (test failed before: no table, load_game's
    estimate instead)."""
    spec = "holdem(players=3,ranks=4,suits=2,team=12)"
    code, out, err = cli("info", spec)
    assert code == 0, err
    assert "counted before building" in out and "team=12" in out.splitlines()[0]
    code, out, _ = cli("info", spec, "--json")
    data = json.loads(out)
    assert data["rows"] == data["counted"]["rows"]
    assert data["infosets"] == data["counted"]["infosets"]

    def no_build(s: str, *a: object, **k: object) -> None:
        raise AssertionError(f"built {s}")

    monkeypatch.setattr("toypoker.cli.games.load_rows", no_build)
    code, out, err = cli("info", "rhode_island(players=3,team=12)")
    assert code == 2 and err.count("\n") == 1, err
    assert "counted before building" in out and "1,934,970,354,720" in out
    assert "..." not in err  # whole (the line had been cut at its estimate)
    assert err.startswith("toypoker: error: too large to compile: 1,934,970,354,720 rows counted")


def test_info_and_solve_say_one_memory_estimate(cli, one_line_error):
    """Issue 47: ``info "rhode_island(players=3)"`` said 570 GB and ``solve`` 200 GB for
    its vector layout: two estimates (91 and 32 bytes an entry).  Now one,
    engines.choice.vector_bytes: 6,266,747,916 entries (counted, tests/games) x 91 bytes
    (layout_count.BYTES_PER_ENTRY) = 570.3 GB in both lines."""
    spec = "rhode_island(players=3)"
    info_err = one_line_error("info", spec)
    solve_err = one_line_error("solve", spec)
    assert "hand vectors: about 570.3 GB" in info_err, info_err
    assert "6,266,747,916 hand entries, about 570.3 GB > 2.1 GB" in solve_err, solve_err


@pytest.mark.parametrize(("layout", "key"), [("rows", "row_layout_bytes"),
                                             ("vector", "vector_layout_bytes")])  # fmt: skip
def test_an_engine_s_memory_is_the_one_estimate(cli, layout, key):
    """The engine protocol's memory estimate (issue 46, item 1) is the number ``info``
    prints for that layout and the one ``load_game`` holds ``max_bytes`` to: a byte less
    is refused, that many builds.  A game not counted before building has none."""
    import toypoker as tp
    from toypoker.engines.registry import engine_of
    from toypoker.errors import SpecError

    spec = "kuhn(players=3,cards=13)"
    g = tp.load_game(spec, layout=layout)
    m = g.engine.memory_bytes()
    code, out, _ = cli("info", spec, "--json")
    assert code == 0 and json.loads(out)["counted"][key] == m > 0
    assert engine_of(g, "reference").memory_bytes() == m
    with pytest.raises(SpecError, match="too large"):
        tp.load_game(spec, layout=layout, max_bytes=m - 1)
    assert tp.load_game(spec, layout=layout, max_bytes=m).engine.memory_bytes() == m
    assert tp.load_game("leduc").engine.memory_bytes() is None


def test_the_default_budget_is_half_the_machine_memory(monkeypatch):
    """Issue 47: the docs promise TOYPOKER_MAX_BYTES defaults to half the machine's
    memory; the code used 2 GiB.  Expected: half of os.sysconf's physical memory (or of
    a lower cgroup limit)."""
    from toypoker.games import _cgroup_limit, max_bytes_allowed

    monkeypatch.delenv("TOYPOKER_MAX_BYTES", raising=False)
    total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    limit = _cgroup_limit()
    assert max_bytes_allowed() == min(total, limit or total) // 2
